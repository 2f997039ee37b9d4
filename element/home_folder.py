"""What a home folder records about itself: where its catalog and memories live
(``database.json``, never with a password) and the owner-only modes of what it holds."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from index import DIR_MODE, FILE_MODE, replace_private

from .governance.ratelimit import RATE_LIMITS_FILE

__all__ = ["DATABASE_MARKER", "DatabaseRequired", "mark_backend", "marked_database",
           "private_home"]

#: In the folder of a home whose catalog and memories live in PostgreSQL: which database.
DATABASE_MARKER = "database.json"


class DatabaseRequired(ValueError):
    """The home's catalog and memories live in a database, and no URL was given."""

    def __init__(self, path: Path, database: str) -> None:
        super().__init__(f"{path} keeps its catalog and memories in the database {database}: "
                         "pass --database URL or set TRIFORM_DATABASE_URL (its own files "
                         "would be an empty or stale copy; `triform --database URL migrate "
                         "--to files` moves it back to files)")
        self.path, self.database = path, database


def _without_password(url: str) -> str:
    """``url`` without a password, whether in its user part or its query (libpq takes both)."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        host = netloc.rsplit("@", 1)[1]
        netloc = f"{parts.username}@{host}" if parts.username else host
    query = "&".join(pair for pair in parts.query.split("&")
                     if pair and pair.split("=", 1)[0].lower() != "password")
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def mark_backend(path: Path, database: str | None) -> None:
    """Record in the home folder ``path`` where its catalog and memories live: ``database``
    (a URL; written without its password, replaced atomically) or its own files (None: the
    record goes). Opening the folder without a URL is refused while the record is there."""
    marker = Path(path) / DATABASE_MARKER
    if database is None:
        marker.unlink(missing_ok=True)
        return
    body = json.dumps({"database": _without_password(database)}, indent=2) + "\n"
    if marker.is_file() and marker.read_text() == body:
        return      # every serve marks: only a change is written
    replace_private(marker, body.encode())


def marked_database(path: Path) -> str | None:
    """The database ``path`` records it lives in (see :func:`mark_backend`), or None."""
    marker = path / DATABASE_MARKER
    if not marker.is_file():
        return None
    try:
        return str(json.loads(marker.read_text())["database"])
    except (OSError, ValueError, KeyError, TypeError):
        return "(unreadable: see database.json)"


def private_home(path: Path, files: bool = True) -> None:
    """Make what the home holds readable by its owner only, whatever the umask: its folders
    0700, and the databases (token hashes, activity, rate windows) 0600, created so before
    SQLite opens them, since SQLite gives its -wal and -shm files the database's mode. A
    home folder made here is 0700; an existing one keeps its mode (``--home`` may name a
    folder shared with other things), its contents are private either way."""
    if not path.exists():
        path.mkdir(parents=True, mode=DIR_MODE)
        os.chmod(path, DIR_MODE)
    for folder in ("repos", "runtime"):
        (path / folder).mkdir(exist_ok=True, mode=DIR_MODE)
        os.chmod(path / folder, DIR_MODE)
    for database in ("catalog.db", RATE_LIMITS_FILE) if files else ():
        os.close(os.open(path / database, os.O_WRONLY | os.O_CREAT, FILE_MODE))
        for suffix in ("", "-wal", "-shm"):
            if (path / f"{database}{suffix}").exists():
                os.chmod(path / f"{database}{suffix}", FILE_MODE)
