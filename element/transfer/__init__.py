"""Memories and homes that travel: the memory export format and its import
(``memories.py``), backups of a whole home with their restore (``backup.py``), and the
copy of a home's catalog and memories between its backends (``migrate.py``)."""

from .backup import (BackupInvalid, backup_home, forget_after_restore, read_manifest,
                     restore_home, verify_backup)
from .memories import (FORMAT, VERSION, ParsedImport, export_lines, forgotten_before,
                       import_into, read_import)
from .migrate import migrate_catalog, migrate_memories

__all__ = ["FORMAT", "VERSION", "ParsedImport", "export_lines", "read_import",
           "import_into", "forgotten_before", "BackupInvalid", "backup_home",
           "verify_backup", "restore_home", "read_manifest", "forget_after_restore",
           "migrate_catalog", "migrate_memories"]
