"""The catalog of a data home: elements, versions, tokens, activity, attachments."""

from .catalog import ACTIVITY_CHANNEL, Catalog, Element, backup_database, now_iso
from .transfer import CatalogAhead, copy_catalog

__all__ = ["Catalog", "Element", "now_iso", "backup_database", "ACTIVITY_CHANNEL",
           "CatalogAhead", "copy_catalog"]
