"""Memories and homes that travel: the memory export format and its import
(``memories.py``), backups of a whole home (``backup.py``), their check (``folder.py``)
and their restore (``restore.py``), and the copy of a home's catalog and memories between
its backends (``migrate.py``)."""

from .backup import backup_home
from .folder import BackupInvalid, read_manifest, verify_backup
from .memories import (FORMAT, VERSION, ParsedImport, export_lines, forgotten_before,
                       import_into, read_import)
from .migrate import migrate_catalog, migrate_memories
from .restore import forget_after_restore, restore_home

__all__ = ["FORMAT", "VERSION", "ParsedImport", "export_lines", "read_import",
           "import_into", "forgotten_before", "BackupInvalid", "backup_home",
           "verify_backup", "restore_home", "read_manifest", "forget_after_restore",
           "migrate_catalog", "migrate_memories"]
