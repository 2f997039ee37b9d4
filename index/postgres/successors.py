"""A deleted memory's predecessors take over its end, in PostgreSQL (``index/validity.py``).

The counterpart of the file store's ``state._take_over``: run in the delete's own
transaction, under the element's lock, before the row goes, so a supersede racing the
delete sees either the memory (and the delete then hands its new successor on) or the
predecessors current again. Both apply ``validity.successor_deleted``.
"""

from __future__ import annotations

import json
from typing import Any

import psycopg

from ..errors import MemoryNotFound
from ..validity import successor_deleted
from .rows import Table
from .writes import read_record

__all__ = ["take_over"]


def take_over(cur: psycopg.Cursor[Any], t: Table, memory_id: str, at: str) -> None:
    """The memories ``memory_id`` superseded take over its end (none: one statement)."""
    cur.execute("SELECT id FROM memories WHERE element = %s AND superseded_by = %s "
                "ORDER BY seq", (t.element, memory_id))
    olds = [str(row[0]) for row in cur.fetchall()]
    if not olds:
        return
    gone = read_record(cur, t, memory_id)
    heir = None
    if gone.superseded_by is not None:
        try:
            heir = read_record(cur, t, gone.superseded_by)
        except MemoryNotFound:
            heir = None
    for old_id in olds:
        old = read_record(cur, t, old_id)
        successor_deleted(old, gone, heir, at)
        cur.execute("UPDATE memories SET valid_until = %s, valid_until_ts = %s, "
                    "superseded_by = %s, history = %s WHERE element = %s AND id = %s",
                    (old.valid_until, None if old.current else old.valid_until_ts,
                     old.superseded_by, json.dumps(old.history), t.element, old.id))
