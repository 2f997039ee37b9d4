"""Memories and homes that travel: the memory export format and its import
(``memories.py``), and backups of a whole home with their restore (``backup.py``)."""

from .memories import (BATCH, FORMAT, VERSION, ParsedImport, export_lines, forgotten_before,
                       import_into, read_import)

__all__ = ["FORMAT", "VERSION", "BATCH", "ParsedImport", "export_lines", "read_import",
           "import_into", "forgotten_before"]
