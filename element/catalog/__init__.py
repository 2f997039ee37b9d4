"""The catalog of a data home: elements, versions, tokens, activity, attachments."""

from .activity import ACTIVITY_CHANNEL
from .catalog import Catalog, Element, backup_database
from .sql import now_iso
from .transfer import CatalogAhead, copy_catalog

__all__ = ["Catalog", "Element", "now_iso", "backup_database", "ACTIVITY_CHANNEL",
           "CatalogAhead", "copy_catalog"]
