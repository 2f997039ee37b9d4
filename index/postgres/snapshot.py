"""The memories of an element read inside a snapshot someone else opened: a backup's.

A backup of a home kept in PostgreSQL reads the catalog and every memory element's rows in
one ``REPEATABLE READ`` transaction on one connection (the element layer opens it, reads
its own tables, then hands the connection here), so what it writes is the database as it
was at one instant: every memory committed before the transaction's first read, nothing
after. This module only reads; it never writes, and it knows the ``memories`` table
(``db.py``) by its column names, which are those of an exported memory.

The rows come through a server-side cursor a page at a time, newest first (the order of
the export format), so a large element is never whole in this process's memory.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg

from ..backend import Memory
from ..log import encode_vector
from ..recall import LANES
from ..transfer import MEMORY_FIELDS
from .db import Database, _mapped

__all__ = ["ElementSnapshot", "snapshot_memories", "tables_with_rows"]

#: Rows fetched per round trip from the server-side cursor.
PAGE = 500
# A row stored before validity existed holds from when it occurred (``rows.PUBLIC``).
_COLUMNS = ", ".join("coalesce(valid_from, occurred_at)" if name == "valid_from" else name
                     for name in MEMORY_FIELDS)
_VECTORS = ", ".join(f"v_{lane}::text" for lane in LANES)
_CURSORS = itertools.count()


@dataclass
class ElementSnapshot:
    """One element's memories as the snapshot sees them.

    ``count`` is exact (the snapshot does not move), so ``memories`` yields that many;
    ``model`` and ``dim`` are those of the embedded rows (the most common pair, when a
    model change left rows of another: those come without vectors, and a restore embeds
    them); ``None`` when no row carries vectors.
    """

    count: int
    model: str | None
    dim: int | None
    memories: Iterator[Memory]


def snapshot_memories(connection: psycopg.Connection[Any], element: str, *,
                      vectors: bool = True) -> ElementSnapshot:
    """Read ``element``'s memories on ``connection``, which must be inside a transaction at
    ``REPEATABLE READ`` (or stricter) for as long as ``memories`` is read: each memory in
    its exported form, vectors (``{lane: base64 float32}``) on embedded rows of ``model``.

    :raise DatabaseUnavailable, StoreFailed: mapped database failures.
    """
    try:
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FROM memories WHERE element = %s", (element,))
            count = int(_one(cur)[0])
            cur.execute("SELECT model, dim FROM memories WHERE element = %s AND embedded "
                        "AND model IS NOT NULL GROUP BY model, dim "
                        "ORDER BY count(*) DESC, model LIMIT 1", (element,))
            found = cur.fetchone()
    except psycopg.Error as exc:
        raise _mapped(exc) from exc
    model, dim = (str(found[0]), int(found[1])) if found else (None, None)
    return ElementSnapshot(count, model, dim,
                           _rows(connection, element, model if vectors else None, dim))


def _one(cur: psycopg.Cursor[Any]) -> Sequence[Any]:
    row: Sequence[Any] | None = cur.fetchone()
    assert row is not None
    return row


def _rows(connection: psycopg.Connection[Any], element: str, model: str | None,
          dim: int | None) -> Iterator[Memory]:
    try:
        # A named cursor lives on the server: rows come PAGE at a time.
        with connection.cursor(name=f"triform_snapshot_{next(_CURSORS)}") as cur:
            cur.itersize = PAGE
            cur.execute(f"SELECT {_COLUMNS}, model, dim, {_VECTORS} FROM memories "
                        "WHERE element = %s ORDER BY seq DESC", (element,))
            for row in cur:
                yield _memory(row, model, dim)
    except psycopg.Error as exc:
        raise _mapped(exc) from exc


def _memory(row: Sequence[Any], model: str | None, dim: int | None) -> Memory:
    width = len(MEMORY_FIELDS)
    memory: Memory = dict(zip(MEMORY_FIELDS, row[:width], strict=True))
    memory["metadata"] = memory["metadata"] or {}
    memory["access_count"] = int(memory["access_count"])
    if not memory["history"]:
        del memory["history"]
    row_model, row_dim, texts = row[width], row[width + 1], row[width + 2:]
    if model is not None and memory["embedded"] and row_model == model and row_dim == dim:
        # pgvector prints each float4 in its shortest exact form: read back, the same bits.
        lanes = {lane: encode_vector(np.array(text[1:-1].split(","), dtype=np.float32))
                 for lane, text in zip(LANES, texts, strict=True) if text is not None}
        if lanes:
            memory["vectors"] = lanes
    return memory


def tables_with_rows(url: str, tables: Sequence[str]) -> list[str]:
    """Those of ``tables`` that hold a row in the database at ``url`` (a table that is not
    there holds none), read without creating or migrating anything: a restore asks this
    before it writes, and refuses a database that holds a home already.

    :raise DatabaseUnavailable: it cannot be reached.
    """
    for table in tables:
        if not table.isidentifier():
            raise ValueError(f"not a table name: {table!r}")
    database = Database(url, max_size=1)
    try:
        found: list[str] = []
        with database.transaction() as cur:
            for table in tables:
                cur.execute("SELECT to_regclass(%s) IS NOT NULL", (table,))
                if not _one(cur)[0]:
                    continue
                cur.execute(f"SELECT EXISTS (SELECT 1 FROM {table})".encode())
                if _one(cur)[0]:
                    found.append(table)
        return found
    finally:
        database.close()
