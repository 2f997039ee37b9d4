"""One element's rows in PostgreSQL: how a row reads as a memory, and the element's lock.

The counterpart of the file store's ``state.py``: ``db.py`` has the schema; this module
has what every other module of the backend shares about it: the public columns and the
:class:`~index.records.MemoryRecord` of a row (:func:`public`, :func:`record`), vectors
as pgvector literals, owner pools and the search filters as SQL (:func:`pool_sql`,
:func:`filters`, the one place a new filter column is added for search), and the
element's transaction that holds its advisory lock (:class:`Locked`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg

from ..backend import Memory
from ..query import Bounds
from ..gathered import EVERYONE, Pool
from ..records import CATEGORIES, MemoryRecord
from ..validity import CURRENT, Validity
from .db import Database

__all__ = ["Table", "PUBLIC", "FIELDS", "public", "record", "vector_text", "lock_key",
           "pool_sql", "scope_sql", "filters", "validity_sql", "Locked"]

_COLUMNS = ("id, content, category, subject_type, subject_id, context, intention, agent, "
            "source, metadata, created_at, updated_at, occurred_at, last_accessed_at, "
            "access_count, embedded")
# A row stored before validity existed holds from when it occurred (migration 5).
PUBLIC = _COLUMNS + ", coalesce(valid_from, occurred_at), valid_until, superseded_by"
FIELDS = [*_COLUMNS.split(", "), "valid_from", "valid_until", "superseded_by"]

Sql = tuple[str, tuple[Any, ...]]   # a condition and its parameters


@dataclass(frozen=True)
class Table:
    """The rows of one element: its key in every statement, and its model's vectors."""

    element: str
    model_id: str
    dim: int


def public(row: Sequence[Any]) -> Memory:
    """The public form of a row of the :data:`PUBLIC` columns."""
    memory = dict(zip(FIELDS, row, strict=True))
    memory["metadata"] = memory["metadata"] or {}
    memory["access_count"] = int(memory["access_count"])
    return memory


def record(row: Sequence[Any], seq: int) -> MemoryRecord:
    """The :class:`MemoryRecord` of a row of the :data:`PUBLIC` columns (an update's)."""
    memory = public(row)
    found = MemoryRecord.from_json({**memory, "seq": seq})
    found.embedded = bool(memory["embedded"])
    return found


def vector_text(vector: np.ndarray) -> str:
    """A vector as a pgvector literal."""
    return "[" + ",".join(f"{float(x):.8g}" for x in vector) + "]"


def lock_key(element: str, purpose: str = "") -> int:
    """A stable signed 64-bit advisory lock key for one element (and a purpose other than
    writing, such as embedding)."""
    name = f"triform-memory:{element}" if not purpose else \
        f"triform-memory:{purpose}:{element}"
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def pool_sql(pool: Pool | tuple[str, str]) -> Sql:
    """The condition of an owner pool (``ranking.pools_in_scope``; None: general)."""
    if pool == EVERYONE:
        return "true", ()
    if pool is None:
        return "subject_type IS NULL", ()
    assert isinstance(pool, tuple)
    return "subject_type = %s AND subject_id = %s", pool


def scope_sql(pools: Sequence[Sql]) -> Sql:
    """The union of owner pools as one condition."""
    return (" OR ".join(f"({sql})" for sql, _ in pools),
            tuple(p for _, params in pools for p in params))


def filters(cats: list[int] | None, occurred: Bounds, alias: str = "",
            valid: Validity = CURRENT) -> Sql:
    """A search's category, occurred-time and validity conditions (AND-ed after the
    pool's), on the columns of ``alias`` (e.g. ``"b."``; none: unqualified)."""
    sql, valid_params = validity_sql(valid, alias)
    params = list[Any](valid_params)
    if cats is not None:
        sql += f" AND {alias}category = ANY(%s)"
        params.append([CATEGORIES[c] for c in cats])
    if occurred[0] is not None:
        sql += f" AND {alias}occurred_ts > %s"
        params.append(occurred[0])
    if occurred[1] is not None:
        sql += f" AND {alias}occurred_ts < %s"
        params.append(occurred[1])
    return sql, tuple(params)


def validity_sql(valid: Validity, alias: str = "") -> Sql:
    """The condition of :class:`~index.validity.Validity` (with a leading AND; none for
    everything)."""
    if valid.everything:
        return "", ()
    if valid.as_of is None:
        return f" AND {alias}valid_until IS NULL", ()
    t = valid.as_of
    return (f" AND coalesce({alias}valid_from_ts, {alias}occurred_ts) <= %s AND "
            f"({alias}valid_until_ts IS NULL OR {alias}valid_until_ts > %s)", (t, t))


class Locked:
    """A transaction that first takes the element's advisory lock (when ``key`` is set):
    every writer of the element, in any process, queues here until the holder commits."""

    def __init__(self, db: Database, key: int | None) -> None:
        self._db, self._key = db, key
        self._cm: Any = None

    def __enter__(self) -> psycopg.Cursor[Any]:
        self._cm = self._db.transaction()
        cur: psycopg.Cursor[Any] = self._cm.__enter__()
        if self._key is not None:
            try:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (self._key,))
            except BaseException as exc:
                self._cm.__exit__(type(exc), exc, exc.__traceback__)
                raise
        return cur

    def __exit__(self, *exc_info: Any) -> Any:
        return self._cm.__exit__(*exc_info)
