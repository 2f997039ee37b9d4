"""``list`` over the in-memory state: memories newest first, filtered, in cursor pages.

The query and its cursor are every backend's (``query.py``); this module walks the
state's creation sequences below the cursor (``postgres/listing.py`` asks SQL the same).
"""

from __future__ import annotations

import bisect
from typing import Any

from .query import ListQuery
from .records import MemoryRecord
from .state import MemoryState

__all__ = ["list_page", "matches"]


def matches(record: MemoryRecord, q: ListQuery) -> bool:
    """Whether ``record`` passes every filter of ``q`` (the position aside)."""
    return not ((q.category is not None and record.category != q.category)
                or (q.subject_type is not None and record.subject_type != q.subject_type)
                or (q.subject_id is not None and record.subject_id != q.subject_id)
                or (q.agent is not None and record.agent != q.agent)
                or (q.source is not None and record.source != q.source)
                or (q.after is not None and not record.created_ts > q.after)
                or (q.before is not None and not record.created_ts < q.before)
                or (q.occurred_after is not None
                    and not record.occurred_ts > q.occurred_after)
                or (q.occurred_before is not None
                    and not record.occurred_ts < q.occurred_before)
                or not q.valid.holds_record(record))


def list_page(state: MemoryState, query: ListQuery) -> tuple[list[dict[str, Any]], str | None]:
    """One page of public records, newest first, and the cursor of the next (or None)."""
    seqs = state.seqs
    index = len(seqs) if query.below_seq is None else bisect.bisect_left(seqs, query.below_seq)
    page: list[dict[str, Any]] = []
    last_seq = None
    q = query
    while index > 0:
        index -= 1
        record = state.records[state.by_seq[seqs[index]]]
        if not matches(record, q):
            continue
        if len(page) == q.limit:
            return page, f"s{last_seq}"
        page.append(record.public())
        last_seq = record.seq
    return page, None
