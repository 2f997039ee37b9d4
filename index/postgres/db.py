"""The memory database: a connection pool, transactions, error mapping, migrations.

One :class:`Database` per process and URL, shared by every memory element of the home
(``PostgresMemoryStore`` takes it). Connections come from a ``psycopg_pool`` pool that
checks a connection before lending it, so a restarted server is reconnected to on the
next call without anyone noticing but the call that was cut.

Errors: a server that cannot be reached, or that drops the connection mid-call, is
:class:`~index.errors.DatabaseUnavailable` (retryable, HTTP 503); a full disk on the
server is :class:`~index.errors.StorageFull`; any other database error is
:class:`~index.errors.StoreFailed`. The transaction of a failed call is rolled back, so
nothing of it is acknowledged.

Migrations are numbered SQL steps, each list recorded in its own table: the memory
schema's (``MIGRATIONS``) in ``schema_version``; the element layer passes its catalog's
steps with their own table (``element/catalog/postgres.py``), since ``index`` knows
nothing of the catalog. :meth:`Database.migrate` applies the missing ones in one
transaction under one advisory lock, so two workers starting at once, or ``triform init
--database`` run twice, change nothing the second time.

:meth:`Database.listener` is a dedicated connection that waits for ``NOTIFY`` on one
channel (held for as long as the waiter lives, so it is not lent by the pool).
"""

from __future__ import annotations

import logging
import select
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
from psycopg import errors as pg_errors

from ..errors import DatabaseUnavailable, StorageFull, StoreError, StoreFailed

__all__ = ["Database", "Listener", "MIGRATIONS", "SCHEMA_VERSION", "vector_indexes"]

logger = logging.getLogger(__name__)

# A connection used less than this many seconds ago is lent without a check.
CHECK_IDLE = 0.5
# Seconds a call waits for a second connection (``Database.spare``): enough to take one
# that is ready, and to have the pool open another for the next call when none is.
SPARE_WAIT = 0.001

# Advisory lock keys (64-bit): one for migrations; elements hash their name (store.py).
_MIGRATION_LOCK = 0x7472_6966_6f72_6d01

def vector_indexes(dim: int) -> list[str]:
    """HNSW (cosine) indexes of the three lanes for vectors of ``dim`` dimensions.

    The columns are untyped ``vector`` so one database holds any model's size; each
    size is indexed by an expression (the cast) over a partial index (``dim = n``), the
    form pgvector documents for mixed dimensions. Queries repeat both exactly.
    """
    dim = int(dim)
    return [f"CREATE INDEX IF NOT EXISTS memories_hnsw_{lane}_{dim} ON memories "
            f"USING hnsw ((v_{lane}::vector({dim})) vector_cosine_ops) WHERE dim = {dim}"
            for lane in ("content", "context", "intention")]


# What migration 4 fills the postings with: the rows' own terms (postgres/bm25.py has
# the same statement; a test holds them equal, since a released step never changes).
_POSTINGS_FROM_ROWS = """INSERT INTO memory_postings (element, term, block, records) \
SELECT m.element, u.term, (m.seq / 1024)::int, string_agg(int8send((mod(m.seq, 1024) << 48) \
| (u.tf::int8 << 24) | m.lex_len::int8), ''::bytea ORDER BY m.seq) FROM memories m, \
unnest(m.lex_terms, m.lex_tf) AS u(term, tf) WHERE true GROUP BY m.element, u.term, \
m.seq / 1024"""

# Each step runs once, in order. Never edit a released step: add one.
MIGRATIONS: list[tuple[int, str]] = [
    (1, """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE memory_elements (
    element text PRIMARY KEY,
    next_seq bigint NOT NULL DEFAULT 1,
    lex_docs bigint NOT NULL DEFAULT 0,   -- BM25: documents (= memories) of the element
    lex_total bigint NOT NULL DEFAULT 0   -- BM25: their total length in terms
);
CREATE TABLE memories (
    element text NOT NULL,
    id text NOT NULL,
    seq bigint NOT NULL,
    content text NOT NULL,
    category text NOT NULL,
    subject_type text,
    subject_id text,
    context text,
    intention text,
    agent text,
    source text NOT NULL,
    metadata jsonb NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    occurred_at text NOT NULL,
    created_ts double precision NOT NULL,
    occurred_ts double precision NOT NULL,
    last_accessed_at text,
    access_count bigint NOT NULL DEFAULT 0,
    embedded boolean NOT NULL,
    model text,
    dim integer,
    v_content vector,
    v_context vector,
    v_intention vector,
    lex_len integer NOT NULL,
    idem_key text,
    key_fingerprint text,
    key_evicted jsonb,
    key_warnings jsonb,
    PRIMARY KEY (element, id)
) WITH (fillfactor = 85);
-- The fill factor leaves room in each page, so a search's access-count update can be a
-- HOT update that touches no index (none of the indexed columns changes); the vectors
-- are TOASTed out of the row, which keeps rows small enough for that.
-- Idempotency keys are unique per element across every worker.
CREATE UNIQUE INDEX memories_idem_key ON memories (element, idem_key)
    WHERE idem_key IS NOT NULL;
CREATE UNIQUE INDEX memories_seq ON memories (element, seq);
-- Subject scoping: the planner filters a subject's rows exactly through this btree.
CREATE INDEX memories_subject ON memories (element, subject_type, subject_id, seq);
CREATE INDEX memories_unembedded ON memories (element, seq) WHERE NOT embedded;
CREATE TABLE memory_terms (
    element text NOT NULL,
    id text NOT NULL,
    term text NOT NULL,
    tf integer NOT NULL,
    len integer NOT NULL,   -- the memory's length in terms (its lex_len), for BM25
    PRIMARY KEY (element, term, id),
    FOREIGN KEY (element, id) REFERENCES memories (element, id) ON DELETE CASCADE
);
CREATE INDEX memory_terms_memory ON memory_terms (element, id);
CREATE TABLE schema_version (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
);
"""),
    # all-MiniLM-L6-v2, the default model, has 384 dimensions; other sizes get their
    # indexes when a store of that size first opens (vector_indexes).
    (2, ";\n".join(vector_indexes(384)) + ";"),
    # Search speed (bench/pg_bench.py): document frequencies kept per term, so a search
    # does not count a query term's postings (for a common term, most of the element);
    # each memory's terms beside its row, so a small scope is scored from its own rows
    # (postgres/search.py) without touching the postings at all.
    (3, """
CREATE TABLE memory_term_df (
    element text NOT NULL,
    term text NOT NULL,
    df integer NOT NULL,   -- memories of the element with the term (BM25's n(t))
    PRIMARY KEY (element, term)
);
INSERT INTO memory_term_df (element, term, df)
    SELECT element, term, count(*) FROM memory_terms GROUP BY element, term;
ALTER TABLE memories ADD COLUMN lex_terms text[], ADD COLUMN lex_tf integer[];
-- Filling the new columns writes a new version of every row, which would insert each
-- into the three HNSW graphs one by one: drop them first and build them again after,
-- which is many times faster (other vector sizes are rebuilt by ensure_dim on open).
DO $$
DECLARE r record;
BEGIN
    FOR r IN SELECT indexname FROM pg_indexes
             WHERE tablename = 'memories' AND indexname LIKE 'memories_hnsw_%' LOOP
        EXECUTE format('DROP INDEX %I', r.indexname);
    END LOOP;
END $$;
UPDATE memories m SET lex_terms = t.terms, lex_tf = t.tfs
    FROM (SELECT element, id, array_agg(term ORDER BY term) AS terms,
                 array_agg(tf ORDER BY term) AS tfs
          FROM memory_terms GROUP BY element, id) t
    WHERE m.element = t.element AND m.id = t.id;
UPDATE memories SET lex_terms = '{}', lex_tf = '{}' WHERE lex_terms IS NULL;
-- The postings' key carries tf and len, so scoring a term's postings is an index-only
-- scan (no heap page per posting).
ALTER TABLE memory_terms DROP CONSTRAINT memory_terms_pkey,
    ADD CONSTRAINT memory_terms_pkey PRIMARY KEY (element, term, id) INCLUDE (tf, len);
""" + ";\n".join(vector_indexes(384)) + ";"),
    # Search speed at scale (bench/pg_bench.py, 100k memories): a query's postings read a
    # block of memories per row instead of one row per posting, and scored in numpy
    # (postgres/bm25.py has the layout). Rows stay inline up to 8 KB (a block of a term
    # every memory has) and uncompressed below it, so reading them costs no detoasting.
    (4, """
CREATE TABLE memory_postings (
    element text NOT NULL,
    term text NOT NULL,
    block integer NOT NULL,   -- sequence numbers block * BLOCK up to the next block's
    records bytea NOT NULL,   -- 8 bytes per memory of the block with the term
    PRIMARY KEY (element, term, block)
) WITH (toast_tuple_target = 8160);
ALTER TABLE memory_postings ALTER COLUMN records SET STORAGE MAIN;
""" + _POSTINGS_FROM_ROWS + """;
DROP TABLE memory_terms;
"""),
    # Validity and history (issue 23). Nullable columns without a default: adding them
    # rewrites no row (a NULL valid_from reads as occurred_at, ``rows.PUBLIC``).
    (5, """
ALTER TABLE memories ADD COLUMN valid_from text, ADD COLUMN valid_from_ts double precision,
    ADD COLUMN valid_until text, ADD COLUMN valid_until_ts double precision,
    ADD COLUMN superseded_by text, ADD COLUMN history jsonb;
"""),
    # The lexical scheme an element's terms were written under (``lexical.SCHEME``; NULL:
    # before it was kept). A store that opens an element under another scheme writes its
    # rows' terms again (``writes.reterm``), as the file store re-indexes its records.
    (6, """
ALTER TABLE memory_elements ADD COLUMN lex_scheme integer;
"""),
]

SCHEMA_VERSION = len(MIGRATIONS)


def _mapped(exc: BaseException) -> StoreError:
    """The store error a database failure is reported as."""
    if isinstance(exc, pg_errors.DiskFull):
        return StorageFull("write to the database", str(exc).strip())
    if isinstance(exc, (psycopg_pool.PoolTimeout, psycopg.OperationalError,
                        pg_errors.AdminShutdown, pg_errors.CannotConnectNow)):
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else \
            exc.__class__.__name__
        return DatabaseUnavailable(reason)
    return StoreFailed(f"the database refused the call: {exc}".strip())


class Database:
    """A pool of connections to one PostgreSQL database (thread-safe).

    :param url: ``postgresql://user@host:port/dbname`` (libpq's URL or key=value form).
    :param max_size: connections at most; each API thread holds one per call (a search
        that walks a large pool borrows a second when one is free: :meth:`spare`).
    :param timeout: seconds to wait for a connection before the call is
        :class:`DatabaseUnavailable` (a server that is down answers within ``timeout``,
        never hangs).
    """

    def __init__(self, url: str, *, max_size: int = 16, timeout: float = 5.0) -> None:
        self.url = url
        self._closed = False
        self._lock = threading.Lock()
        self._returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = \
            weakref.WeakKeyDictionary()
        self._pool = psycopg_pool.ConnectionPool(
            url, min_size=1, max_size=max_size, timeout=timeout, open=False,
            check=self._check, reset=self._reset,
            kwargs={"connect_timeout": max(1, int(timeout)), "autocommit": False},
            name="triform-memory", reconnect_timeout=0)
        # Open without waiting: an unreachable server is reported by the first call.
        self._pool.open(wait=False)

    def _reset(self, conn: psycopg.Connection[Any]) -> None:
        """Called as a connection returns to the pool: remember when (see ``_check``)."""
        self._returned[conn] = time.monotonic()

    def _check(self, conn: psycopg.Connection[Any]) -> None:
        """Check a connection before lending it (a round trip), unless it came back less
        than ``CHECK_IDLE`` seconds ago and nothing arrived on its socket since: a server
        that shuts down or ends the session writes to it first, so a busy pool skips the
        round trip without lending a connection the server has closed."""
        returned = self._returned.get(conn)
        if returned is not None and time.monotonic() - returned < CHECK_IDLE:
            try:
                readable = select.select([conn.fileno()], [], [], 0)[0]
            except (OSError, ValueError, psycopg.Error):
                readable = [True]
            if not readable:
                return
        psycopg_pool.ConnectionPool.check_connection(conn)

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._pool.close()

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor inside one transaction: committed on exit, rolled back on an error.

        :raise DatabaseUnavailable, StorageFull, StoreFailed: mapped database failures
            (store errors raised inside pass through unchanged, after the rollback).
        """
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                yield cur
        except StoreError:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _mapped(exc) from exc

    @contextmanager
    def autocommit(self) -> Iterator[psycopg.Connection[Any]]:
        """A connection in autocommit mode (``VACUUM`` cannot run in a transaction)."""
        try:
            with self._pool.connection() as conn:
                conn.autocommit = True
                try:
                    yield conn
                finally:
                    conn.autocommit = False
        except StoreError:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _mapped(exc) from exc

    @contextmanager
    def spare(self) -> Iterator[psycopg.Connection[Any] | None]:
        """A second connection in autocommit mode, for statements a call runs beside
        those of its own connection, if one is free now; None when none is (the caller
        runs them on its own). It does not wait for one (at most ``SPARE_WAIT``): a
        call holding a connection never queues for a second behind calls doing the same.
        Errors pass through unmapped: the caller maps them with its own connection's."""
        try:
            conn = self._pool.getconn(timeout=SPARE_WAIT)
        except (psycopg.Error, psycopg_pool.PoolTimeout):
            yield None
            return
        try:
            conn.autocommit = True
            yield conn
        finally:
            try:
                conn.autocommit = False
            except psycopg.Error:
                conn.close()   # left in a transaction (an error midway): the pool drops it
            self._pool.putconn(conn)

    @contextmanager
    def session_lock(self, key: int) -> Iterator[bool]:
        """Try the session advisory lock ``key`` without waiting; yield whether it was taken.

        Held on a connection of its own until the block ends, across the transactions the
        block runs on other connections. A worker that dies lets go with its connection,
        so a lock never outlives its holder.

        :raise DatabaseUnavailable, StorageFull, StoreFailed: mapped database failures.
        """
        try:
            with self._pool.connection() as conn:
                conn.autocommit = True
                row = conn.execute("SELECT pg_try_advisory_lock(%s)", (key,)).fetchone()
                taken = bool(row and row[0])
                try:
                    yield taken
                finally:
                    if taken:
                        try:
                            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
                        except psycopg.Error:
                            conn.close()    # the pool drops it, and the lock with it
                    if not conn.closed:
                        conn.autocommit = False
        except StoreError:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _mapped(exc) from exc

    def version(self, table: str = "schema_version") -> int:
        """The newest version recorded in ``table`` (0: none)."""
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
        with self.transaction() as cur:
            cur.execute("SELECT to_regclass(%s) IS NOT NULL", (table,))
            row = cur.fetchone()
            if not row or not row[0]:
                return 0
            cur.execute(f"SELECT coalesce(max(version), 0) FROM {table}".encode())
            found = cur.fetchone()
            return int(found[0]) if found else 0

    def migrate(self, steps: list[tuple[int, str]] | None = None,
                table: str = "schema_version") -> list[int]:
        """Apply the missing ``steps`` (default: the memory schema's ``MIGRATIONS``) in one
        transaction, recording each in ``table``; the versions applied (none: already
        current). Safe to run from several processes at once."""
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
        with self.transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            # Each list's first step creates its table (as the memory schema's always did).
            cur.execute("SELECT to_regclass(%s) IS NOT NULL", (table,))
            row = cur.fetchone()
            done: set[int] = set()
            if row and row[0]:
                cur.execute(f"SELECT version FROM {table}".encode())
                done = {int(r[0]) for r in cur.fetchall()}
            applied = []
            for version, sql in MIGRATIONS if steps is None else steps:
                if version in done:
                    continue
                cur.execute(sql.encode())
                cur.execute(f"INSERT INTO {table} (version) VALUES (%s)".encode(), (version,))
                applied.append(version)
            if applied:
                logger.info("database schema %s migrated to version %s", table, applied[-1])
            return applied

    def listener(self, channel: str) -> Listener:
        """A dedicated connection listening on ``channel`` (close it when done).

        :raise DatabaseUnavailable: the server cannot be reached.
        """
        return Listener(self.url, channel)

    def ensure_dim(self, dim: int) -> None:
        """Create the lane indexes for ``dim``-dimensional vectors if missing."""
        with self.transaction() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            for statement in vector_indexes(dim):
                cur.execute(statement.encode())


class Listener:
    """One connection of its own, in autocommit, that has run ``LISTEN channel``."""

    def __init__(self, url: str, channel: str) -> None:
        if not channel.isidentifier():
            raise ValueError(f"not a channel name: {channel!r}")
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=5)
            self._conn.execute(f"LISTEN {channel}".encode())
        except psycopg.Error as exc:
            raise _mapped(exc) from exc

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a notification (those already arrived count);
        whether one came. :raise DatabaseUnavailable: the connection was lost."""
        try:
            if not any(True for _ in self._conn.notifies(timeout=timeout, stop_after=1)):
                return False
            for _ in self._conn.notifies(timeout=0):   # a burst wakes the waiter once
                pass
            return True
        except psycopg.Error as exc:
            raise _mapped(exc) from exc

    def close(self) -> None:
        self._conn.close()
