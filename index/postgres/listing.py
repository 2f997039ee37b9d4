"""``list`` and export in PostgreSQL: memories newest first, filtered, in cursor pages.

The counterpart of the file store's ``listing.py``: the query and its cursor are every
backend's (``query.py``); here a page is one statement over the ``(element, seq)`` index,
below the cursor's sequence number. An export fixes the ids of the memories it lists
when it is called, then reads them a page at a time (:func:`export_page`).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import psycopg

from ..backend import Memory
from ..query import ListQuery
from ..recall import LANES
from .rows import FIELDS, PUBLIC, Table, public, validity_sql

__all__ = ["page", "export_page"]

Cursor = psycopg.Cursor[Any]


def page(cur: Cursor, t: Table, q: ListQuery) -> tuple[list[Memory], str | None]:
    """One page of ``q``, newest first, and the next page's cursor (None: the last)."""
    conditions = ["element = %s"]
    params: list[Any] = [t.element]
    for column, value in (("category", q.category), ("subject_type", q.subject_type),
                          ("subject_id", q.subject_id), ("agent", q.agent),
                          ("source", q.source)):
        if value is not None:
            conditions.append(f"{column} = %s")
            params.append(value)
    bounds: tuple[tuple[str, str, float | None], ...] = (
        ("created_ts", ">", q.after), ("created_ts", "<", q.before),
        ("occurred_ts", ">", q.occurred_after), ("occurred_ts", "<", q.occurred_before),
        ("seq", "<", q.below_seq))
    for column, op, bound in bounds:
        if bound is not None:
            conditions.append(f"{column} {op} %s")
            params.append(bound)
    valid_sql, valid_params = validity_sql(q.valid)
    cur.execute(f"SELECT {PUBLIC}, seq FROM memories WHERE {' AND '.join(conditions)}"
                f"{valid_sql} ORDER BY seq DESC LIMIT %s",
                (*params, *valid_params, q.limit + 1))
    rows = cur.fetchall()
    memories = [public(r[:-1]) for r in rows[:q.limit]]
    cursor = f"s{int(rows[q.limit - 1][-1])}" if len(rows) > q.limit else None
    return memories, cursor


def export_page(cur: Cursor, t: Table, ids: list[str], vectors: bool) -> list[Memory]:
    """The memories of ``ids`` in that order, with their vectors when asked (one deleted
    since the export began is left out)."""
    lanes = ", v_content::text, v_context::text, v_intention::text" if vectors else ""
    cur.execute(f"SELECT {PUBLIC}, history{lanes} FROM memories WHERE element = %s "
                "AND id = ANY(%s)", (t.element, ids))
    rows = {str(row[0]): row for row in cur.fetchall()}
    out = []
    for memory_id in ids:
        row = rows.get(memory_id)
        if row is None:
            continue
        memory = public(row[:len(FIELDS)])
        if row[len(FIELDS)]:
            memory["history"] = row[len(FIELDS)]
        if vectors and memory["embedded"]:
            memory["vectors"] = {
                lane: np.asarray(json.loads(text), dtype=np.float32)
                for lane, text in zip(LANES, row[len(FIELDS) + 1:], strict=True)
                if text is not None}
        out.append(memory)
    return out
