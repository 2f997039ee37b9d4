"""``list``: memories newest first, filtered, in stable cursor pages.

The cursor (``s<seq>``) is the creation sequence of the last memory a page returned; the
next page starts just below it. Memories created meanwhile have larger sequences and sort
before the first page, and deleted ones simply do not appear, so pages never repeat or
skip a memory that existed throughout.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidMemory
from .records import MemoryRecord, parse_time, validate_category, validate_limit, validate_subject
from .state import MemoryState

__all__ = ["ListQuery", "LIST_LIMIT_MAX", "parse_list_query", "list_page", "matches"]

LIST_LIMIT_MAX = 500
_CURSOR = re.compile(r"^s(\d{1,18})$")


@dataclass(frozen=True)
class ListQuery:
    """Validated list filters (None: no filter) and the page position."""

    category: str | None
    subject_type: str | None
    subject_id: str | None
    agent: str | None
    source: str | None
    after: float | None
    before: float | None
    limit: int
    below_seq: int | None

    def continued(self, cursor: str) -> ListQuery:
        """The same query for the page after the one that returned ``cursor``."""
        return replace(self, below_seq=_cursor_seq(cursor))
    occurred_after: float | None = None
    occurred_before: float | None = None


def parse_list_query(*, category: Any, subject_type: Any, subject_id: Any, agent: Any,
                     source: Any, created_after: Any, created_before: Any, limit: Any,
                     cursor: Any, occurred_after: Any = None,
                     occurred_before: Any = None) -> ListQuery:
    """Validate list arguments.

    ``subject_type`` alone matches every subject of that type; ``subject_id`` needs it.

    :raise InvalidMemory, InvalidCategory, SubjectIncomplete: naming the bad argument.
    """
    if category is not None:
        validate_category(category)
    if subject_id is not None:
        validate_subject(subject_type, subject_id)
    elif subject_type is not None:
        validate_subject(subject_type, "-")
    after = parse_time(created_after, "created_after") if created_after is not None else None
    before = parse_time(created_before, "created_before") if created_before is not None \
        else None
    occurred = [parse_time(value, name) if value is not None else None
                for name, value in (("occurred_after", occurred_after),
                                    ("occurred_before", occurred_before))]
    below = None if cursor is None else _cursor_seq(cursor)
    return ListQuery(category, subject_type, subject_id, agent, source, after, before,
                     validate_limit(limit, "limit", LIST_LIMIT_MAX), below, *occurred)


def _cursor_seq(cursor: object) -> int:
    match = _CURSOR.match(cursor) if isinstance(cursor, str) else None
    if match is None:
        raise InvalidMemory("cursor", "is not a cursor this store returned")
    return int(match.group(1))


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
                    and not record.occurred_ts < q.occurred_before))


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
