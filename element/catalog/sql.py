"""The dialect seam of the home's own tables: one SQL text, SQLite or PostgreSQL below it.

The catalog (``catalog.py``) and the rate-limit windows (``governance/ratelimit.py``) write
their SQL once, with ``?`` placeholders and the subset both databases share (``ON
CONFLICT ... DO UPDATE``, ``RETURNING``, ``COALESCE``), and run it through an :class:`Sql`:

* :class:`SqliteSql`: a file of the home, one connection per thread, WAL; a write
  transaction is ``BEGIN IMMEDIATE``, which already excludes every other writer of the
  file, so :meth:`Tx.lock` has nothing to add and :meth:`Tx.notify` no one to tell.
* ``PostgresSql`` (``postgres.py``, imported only with a database URL): the home's
  PostgreSQL database, through the memory database's pool (``index.open_database``).
  Transactions there run side by side, so a statement that must be serial across workers
  takes :meth:`Tx.lock` (an advisory lock held until commit).

What differs is said here and only here: rows come back as mappings (``row["name"]``), a
broken unique or foreign key is :class:`Conflict`, a full disk is ``CatalogFull`` or the
database's ``StorageFull`` (both 507), an unreachable database ``DatabaseUnavailable``
(503, retryable).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any, Protocol

from ..errors import CatalogFull

__all__ = ["Conflict", "Cursor", "Tx", "Sql", "SqliteSql", "Tables", "now_iso"]


class Conflict(Exception):
    """A write broke a unique or foreign-key constraint (its transaction rolls back)."""


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Tx(Protocol):
    """One write transaction."""

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def lock(self, name: str) -> None:
        """Wait for, then hold until the end of the transaction, the lock ``name``."""

    def notify(self, channel: str, payload: str) -> None:
        """Tell ``channel``'s listeners ``payload`` when (and if) the transaction commits."""

    def relax(self) -> None:
        """Let this transaction's commit return before its WAL is flushed (it may be lost
        in a crash: for data that may forget, as rate windows)."""


class Sql(Protocol):
    dialect: str

    def transaction(self) -> AbstractContextManager[Tx]:
        """``with sql.transaction() as tx``: committed on exit, rolled back on an error."""

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[Mapping[str, Any]]: ...

    def close(self) -> None: ...


def _full(exc: BaseException | None) -> bool:
    """SQLite's SQLITE_FULL ("database or disk is full"): a write found no space."""
    return isinstance(exc, sqlite3.OperationalError) and "is full" in str(exc)


class _SqliteTx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, args: Sequence[Any] = ()) -> Cursor:
        try:
            return self.db.execute(sql, tuple(args))
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self.db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    def lock(self, name: str) -> None:
        """``BEGIN IMMEDIATE`` holds the file's one write lock already."""

    def notify(self, channel: str, payload: str) -> None:
        """Nobody listens to a file: other processes follow it by reading."""

    def relax(self) -> None:
        """A file that may forget is opened with ``synchronous=OFF`` instead."""


class SqliteSql:
    """A SQLite file of the home (WAL; ``busy_timeout`` makes another process wait)."""

    dialect = "sqlite"

    def __init__(self, path: Path, schema: str, *, synchronous: str = "FULL",
                 foreign_keys: bool = True) -> None:
        self.path = Path(path)
        self._pragmas = [f"PRAGMA synchronous={synchronous}",
                         f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}"]
        self._local = threading.local()
        self._connection().executescript(schema)

    def _connection(self) -> sqlite3.Connection:
        # sqlite3 objects must not cross threads: one connection per thread.
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None,
                                 check_same_thread=False)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            for pragma in self._pragmas:
                db.execute(pragma)
            self._local.db = db
        return db

    @contextmanager
    def transaction(self) -> Iterator[_SqliteTx]:
        db = self._connection()
        db.execute("BEGIN IMMEDIATE")
        try:
            yield _SqliteTx(db)
        except BaseException as exc:
            # SQLite may have rolled back already (SQLITE_FULL does): then there is none.
            if db.in_transaction:
                db.execute("ROLLBACK")
            if _full(exc):      # a full disk is an answer (507), not an internal error
                raise CatalogFull() from None
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if _full(exc):
                raise CatalogFull() from None
            raise

    def query(self, sql: str, args: Sequence[Any] = ()) -> list[Mapping[str, Any]]:
        try:
            return self._connection().execute(sql, tuple(args)).fetchall()
        except sqlite3.OperationalError as exc:
            if _full(exc):
                raise CatalogFull() from None
            raise

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None


def now_iso(clock: float | None = None) -> str:
    """UTC timestamp in ISO-8601 with milliseconds, sortable as text."""
    t = time.time() if clock is None else clock
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t % 1 * 1000):03d}Z"


class Tables:
    """A part of the catalog (``catalog.py``, ``activity.py``, ``bookkeeping.py``): its
    statements run through ``sql``, the seam."""

    sql: Sql

    @property
    def in_database(self) -> bool:
        """Whether the catalog lives in PostgreSQL (shared by workers on any machine)."""
        return self.sql.dialect == "postgresql"

    def _transaction(self) -> AbstractContextManager[Tx]:
        """``with self._transaction() as tx``: one write transaction, rolled back on error."""
        return self.sql.transaction()

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Mapping[str, Any]]:
        return self.sql.query(sql, args)
