"""Private, durable files: what every file of the memory runtime has in common.

The runtime directory holds every memory's text (the log, the records snapshot), so the
directory is 0700 and each file in it 0600, set explicitly rather than left to the process
umask. Files made by libraries that take a path (hnswlib, numpy) are narrowed right after
they are written; until then the 0700 directory keeps other users out.

Writes become durable by ``fsync`` (a file, then its directory for a create or rename). An
``OSError`` while writing becomes :class:`~index.errors.StorageFull` when the disk, a quota
or the file size limit is full (ENOSPC, EDQUOT, EFBIG), else
:class:`~index.errors.StoreFailed`.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import BinaryIO

from .errors import StorageFull, StoreFailed

__all__ = ["FILE_MODE", "DIR_MODE", "private_dir", "create_private", "make_private",
           "replace_private", "fsync_path", "write_error"]

FILE_MODE = 0o600
DIR_MODE = 0o700
_FULL = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def private_dir(path: Path) -> None:
    """Create ``path`` if needed, make it 0700 and narrow any file in it to 0600.

    Files of a directory written before this rule (or copied in) are narrowed too, so an
    existing home becomes private on its next open.
    """
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    os.chmod(path, DIR_MODE)
    for entry in os.scandir(path):
        if entry.is_file(follow_symlinks=False) and \
                stat.S_IMODE(entry.stat(follow_symlinks=False).st_mode) != FILE_MODE:
            os.chmod(entry.path, FILE_MODE)


def create_private(path: Path) -> BinaryIO:
    """Open ``path`` for writing, created (or truncated) with mode 0600 whatever the umask."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


def replace_private(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` (0600) whole or not at all: written to a temporary file
    beside it, fsynced, renamed over ``path``, and the rename made durable."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with create_private(tmp) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_path(path.parent)


def make_private(path: Path) -> None:
    """Narrow a file written by a library that creates files itself to 0600."""
    os.chmod(path, FILE_MODE)


def fsync_path(path: Path) -> None:
    """fsync a file or a directory (for a directory: so a create or rename is durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_error(exc: OSError, doing: str) -> StoreFailed:
    """The runtime error for an ``OSError`` raised while trying to ``doing``.

    ``doing`` completes "could not ..." (e.g. ``"write the memory log"``).
    """
    reason = exc.strerror or str(exc)
    if exc.errno in _FULL:
        return StorageFull(doing, reason)
    return StoreFailed(f"could not {doing}: {reason}")
