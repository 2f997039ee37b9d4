"""Rate limits: a sliding window of request times per key, shared by every process that
serves the home, with an injectable clock.

An attached ``rate-limit`` element allows ``requests`` per ``per_seconds`` to each principal
on each element it governs (``enforce.py`` builds the keys). The windows live beside the
catalog: in a small SQLite file of the home (``ratelimits.db``), not in ``catalog.db``, so
a request's hit is one short transaction that never waits on a catalog write; with a
database URL, in its ``rate_hits`` table (``catalog/postgres.py``), so workers on several
machines count against the same windows. In the file, the check and the hit are one step
because ``BEGIN IMMEDIATE`` excludes every other writer; in PostgreSQL, because the
transaction holds an advisory lock per key until its commit (taken in key order, so two
requests that share keys never deadlock). Neither is made durable: the file is
written without fsync and the table is UNLOGGED, and its commit does not wait for the
WAL; after a crash a window may forget its newest hits, which only lets a few requests
through early.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..catalog.sql import Sql, SqliteSql
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
    """Request hits per key in a sliding window, in the SQLite file at ``path`` or, with
    ``database`` (an ``index`` ``Database``), in its ``rate_hits`` table; thread-safe, and
    shared by every process that opens the same file or database.

    :param clock: POSIX seconds (the processes sharing the windows must agree on it).
    """

    def __init__(self, path: Path | str | None = None,
                 clock: Callable[[], float] = time.time, *, database: Any = None) -> None:
        self._clock = clock
        self._sql: Sql
        if database is not None:
            from ..catalog.postgres import PostgresSql
            self._sql = PostgresSql(database)
        elif path is not None:
            self._sql = SqliteSql(Path(path), _SCHEMA, synchronous="OFF",
                                  foreign_keys=False)
        else:
            raise ValueError("rate limits need a file or a database")
        self._table = "rate_hits" if self._sql.dialect == "postgresql" else "hits"

    def acquire(self, wanted: list[tuple[tuple[str, ...], int, float]]
                ) -> tuple[float, int] | None:
        """Take one request from every ``(key, requests, per_seconds)``, or from none.
        A key's first part is the attachment it counts for (:meth:`forget`).

        :return: None when all had room (and each now counts this request); else
            ``(seconds, index)``: how long until the window at ``wanted[index]``, the one
            that frees last, has room again. A refused request is not counted.
        """
        hits = self._table
        with self._sql.transaction() as tx:
            for name in sorted({"\t".join(key) for key, _, _ in wanted}):
                tx.lock(f"rate:{name}")
            tx.relax()
            now = self._clock()
            if self._sql.dialect == "postgresql":
                # Workers sweep side by side: skip rows another is deleting, rather than
                # wait on them (or deadlock, two sweeps locking rows in other orders).
                tx.execute("DELETE FROM rate_hits WHERE ctid IN (SELECT ctid FROM rate_hits "
                           "WHERE expires <= ? LIMIT 1000 FOR UPDATE SKIP LOCKED)", (now,))
            else:
                tx.execute("DELETE FROM hits WHERE expires <= ?", (now,))
            refusal: tuple[float, int] | None = None
            for index, (key, requests, _) in enumerate(wanted):
                # The hit that must expire before one more fits: the requests-th newest.
                row = tx.execute(f"SELECT expires FROM {hits} WHERE attachment_id = ? AND "
                                 "key = ? AND expires > ? ORDER BY expires DESC LIMIT 1 OFFSET ?",
                                 (key[0], "\t".join(key[1:]), now, requests - 1)).fetchone()
                if row is not None:
                    wait = float(row["expires"]) - now
                    if refusal is None or wait > refusal[0]:
                        refusal = (wait, index)
            if refusal is None:
                tx.executemany(f"INSERT INTO {hits} VALUES (?, ?, ?)",
                               [(key[0], "\t".join(key[1:]), now + per_seconds)
                                for key, _, per_seconds in wanted])
            return refusal

    def forget(self, attachment_id: str) -> None:
        """Drop the windows of a removed attachment."""
        with self._sql.transaction() as tx:
            tx.execute(f"DELETE FROM {self._table} WHERE attachment_id = ?",
                       (attachment_id,))

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        self._sql.close()
