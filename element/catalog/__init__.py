"""The catalog of a data home: elements, versions, tokens, activity, attachments."""

from .catalog import Catalog, Element, backup_database, now_iso

__all__ = ["Catalog", "Element", "now_iso", "backup_database"]
