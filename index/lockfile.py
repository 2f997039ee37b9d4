"""The element lock: one writer per element across processes (``flock`` on a lock file).

The kernel releases an ``flock`` when its holder dies, so a crashed writer never leaves
the element locked. ``flock`` locks belong to the open file description, so a second
opener in the *same* process waits too.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from pathlib import Path

from .errors import StoreFailed, StoreLocked
from .files import FILE_MODE, write_error

__all__ = ["ElementLock"]


class ElementLock:
    """An exclusive lock on ``path``, taken at construction and held until :meth:`release`.

    :param timeout: seconds to keep trying while another holder has it.
    :raise StoreLocked: still held by someone else after ``timeout``.
    :raise StoreFailed: the lock file cannot be opened or locked for another reason.
    """

    def __init__(self, path: Path, timeout: float) -> None:
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, FILE_MODE)
        except OSError as exc:
            raise write_error(exc, "open the memory store lock") from None
        try:
            os.fchmod(self._fd, FILE_MODE)
        except OSError as exc:
            os.close(self._fd)
            raise write_error(exc, "open the memory store lock") from None
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    os.close(self._fd)
                    raise StoreFailed(f"could not lock the memory store: {exc.strerror}") \
                        from None
                if time.monotonic() >= deadline:
                    os.close(self._fd)
                    raise StoreLocked(timeout) from None
                time.sleep(0.02)

    def release(self) -> None:
        """Unlock and close (idempotent)."""
        if self._fd >= 0:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            finally:
                os.close(self._fd)
                self._fd = -1
