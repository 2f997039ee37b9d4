"""Health checks of an element in PostgreSQL, and the upkeep of its tables.

The counterpart of the file store's ``health.py``: :func:`check` finds what is wrong
with the database's side of the element and repairs it on request: a schema behind this
code (fix: migrate), a lane index of this model's vector size missing (fix: create it),
BM25 counters that disagree with the rows (fix: recount). Memories without vectors are
every backend's finding (``core.MemoryCore.verify``). :func:`vacuum` reclaims the space
of deleted rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from ..backend import HealthItem
from .db import SCHEMA_VERSION, Database, vector_indexes
from .rows import Table
from .writes import recount_df

__all__ = ["check", "vacuum"]

Transaction = Callable[..., Any]   # ``PostgresMemoryStore._tx``


def check(db: Database, t: Table, tx: Transaction, *, repair: bool) -> list[HealthItem]:
    """The database's findings about one element (module docstring); ``tx(lock=...)``
    opens the element's transaction."""
    items: list[HealthItem] = []
    if db.version() < SCHEMA_VERSION:
        item: HealthItem = {"problem": "the memory database schema is behind this "
                            "version", "fixable": True}
        if repair:
            db.migrate()
            item["fixed"], item["fix"] = True, "applied the missing migrations"
        items.append(item)
    with tx() as cur:
        cur.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'memories' AND "
                    "indexname LIKE %s", (f"memories_hnsw_%_{t.dim}",))
        indexes = int(cur.fetchone()[0])
        cur.execute("SELECT count(*), coalesce(sum(lex_len), 0) FROM memories "
                    "WHERE element = %s", (t.element,))
        docs, total = (int(x) for x in cur.fetchone() or (0, 0))
        cur.execute("SELECT lex_docs, lex_total FROM memory_elements WHERE element = %s",
                    (t.element,))
        counters = cur.fetchone()
    if indexes < len(vector_indexes(t.dim)):
        item = {"problem": f"lane indexes for {t.dim}-dimensional vectors are missing",
                "fixable": True}
        if repair:
            db.ensure_dim(t.dim)
            item["fixed"], item["fix"] = True, "created the lane indexes"
        items.append(item)
    if counters is None or (int(counters[0]), int(counters[1])) != (docs, total):
        item = {"problem": "the lexical index counters disagree with the memories",
                "fixable": True}
        if repair:
            with tx(lock=True) as cur:
                recount_df(cur, t)
            item["fixed"], item["fix"] = True, "recounted the BM25 counters"
        items.append(item)
    return items


def vacuum(db: Database, t: Table, tx: Transaction, *, analyze: bool = False,
           heap_only: bool = False) -> None:
    """Drop the element's document frequencies of terms no memory holds, then ``VACUUM``
    the memory tables (``ANALYZE`` too: refreshed planner statistics).

    ``heap_only``: ``INDEX_CLEANUP OFF``, for one delete: the dead rows' text is pruned
    from the table pages, but the indexes (the HNSW graphs above all, whose vacuum reads
    the whole index) are left to autovacuum, so a delete costs the pages it touched, not
    the size of every element's index."""
    cursor: psycopg.Cursor[Any]
    with tx(lock=True) as cursor:
        cursor.execute("DELETE FROM memory_term_df WHERE element = %s AND df <= 0",
                       (t.element,))
    with db.autocommit() as conn:
        for table in ("memories", "memory_terms", "memory_term_df"):
            options = ["ANALYZE"] * analyze + ["INDEX_CLEANUP OFF"] * heap_only
            conn.execute(f"VACUUM {'(' + ', '.join(options) + ') ' if options else ''}"
                         f"{table}".encode())
