"""Rate limits: a sliding window of request times per key, shared by every process that
serves the home, with an injectable clock.

An attached ``rate-limit`` element allows ``requests`` per ``per_seconds`` to each principal
on each element it governs (``enforce.py`` builds the keys). The windows live in a small
SQLite file of the home (``ratelimits.db``), beside the catalog rather than in it: several
workers serving one home count against the same windows, and a request's hit is one short
transaction there. That file is written without fsync: after an OS crash a window may
forget its newest hits, which only lets a few requests through early.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path

from ..errors import ElementError

__all__ = ["RateLimited", "SlidingWindowLimiter", "RATE_LIMITS_FILE"]

RATE_LIMITS_FILE = "ratelimits.db"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hits (
    attachment_id TEXT NOT NULL, key TEXT NOT NULL, expires REAL NOT NULL);
CREATE INDEX IF NOT EXISTS hits_by_key ON hits (attachment_id, key, expires);
CREATE INDEX IF NOT EXISTS hits_by_expiry ON hits (expires);
"""


class RateLimited(ElementError):
    """An attached rate-limit's window is full; retry after ``Retry-After`` seconds."""

    code = "RATE_LIMITED"
    error_class = "rate_limited"
    retryable = True

    def __init__(self, limit: str, requests: int, per_seconds: float, retry_after: int) -> None:
        super().__init__(f"rate-limit {limit!r}: {requests} requests per {per_seconds:g}s "
                         f"exceeded; retry after {retry_after}s")
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class SlidingWindowLimiter:
    """Request hits per key in a sliding window, in the SQLite file at ``path``;
    thread-safe, and shared by every process that opens the same file.

    :param clock: POSIX seconds (the processes sharing the file must agree on it).
    """

    def __init__(self, path: Path | str, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._local = threading.local()
        self._db().executescript(_SCHEMA)

    def _db(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                 check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")    # see the module docstring
            self._local.db = db
        return db

    def acquire(self, wanted: list[tuple[tuple[str, ...], int, float]]
                ) -> tuple[float, int] | None:
        """Take one request from every ``(key, requests, per_seconds)``, or from none.
        A key's first part is the attachment it counts for (:meth:`forget`).

        :return: None when all had room (and each now counts this request); else
            ``(seconds, index)``: how long until the window at ``wanted[index]``, the one
            that frees last, has room again. A refused request is not counted.
        """
        db = self._db()
        # IMMEDIATE: the check and the hit are one step for every process sharing the file.
        db.execute("BEGIN IMMEDIATE")
        try:
            now = self._clock()
            db.execute("DELETE FROM hits WHERE expires <= ?", (now,))
            refusal: tuple[float, int] | None = None
            for index, (key, requests, _) in enumerate(wanted):
                # The hit that must expire before one more fits: the requests-th newest.
                row = db.execute("SELECT expires FROM hits WHERE attachment_id = ? AND "
                                 "key = ? ORDER BY expires DESC LIMIT 1 OFFSET ?",
                                 (key[0], "\t".join(key[1:]), requests - 1)).fetchone()
                if row is not None:
                    wait = float(row[0]) - now
                    if refusal is None or wait > refusal[0]:
                        refusal = (wait, index)
            if refusal is None:
                db.executemany("INSERT INTO hits VALUES (?, ?, ?)",
                               [(key[0], "\t".join(key[1:]), now + per_seconds)
                                for key, _, per_seconds in wanted])
            db.execute("COMMIT")
            return refusal
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def forget(self, attachment_id: str) -> None:
        """Drop the windows of a removed attachment."""
        self._db().execute("DELETE FROM hits WHERE attachment_id = ?", (attachment_id,))

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
