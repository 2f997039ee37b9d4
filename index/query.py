"""What a search or a list asks, validated once for every backend.

:func:`parse_search` and :func:`parse_list_query` turn the arguments of ``search``,
``list``, ``iter_memories`` and ``export`` into :class:`SearchQuery` and
:class:`ListQuery`: category codes, the subject, POSIX time bounds, the limit and the page
position. Each backend reads these alone (``search.py`` and ``listing.py`` over the
in-memory state, ``postgres/search.py`` and ``postgres/listing.py`` in SQL), so a new
filter is parsed here once and applied by each backend's one filter function
(``search.in_scope``-like masks in the file store, ``postgres/rows.filters`` in SQL).

The list cursor (``s<seq>``) is the creation sequence of the last memory a page returned;
the next page starts just below it. Memories created meanwhile have larger sequences and
sort before the first page, and deleted ones simply do not appear, so pages never repeat
or skip a memory that existed throughout.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .errors import InvalidMemory
from .validity import CURRENT, Validity, parse_validity
from .records import CATEGORY_CODES, parse_time
from .validation import (
    MAX_CONTEXT_BYTES,
    MAX_INTENTION_BYTES,
    MAX_QUERY_BYTES,
    validate_category,
    validate_limit,
    validate_optional_text,
    validate_subject,
    validate_text,
)

__all__ = ["SearchQuery", "parse_search", "situation", "SEARCH_LIMIT_MAX", "Bounds", "ListQuery",
           "parse_list_query", "LIST_LIMIT_MAX"]

SEARCH_LIMIT_MAX = 100
LIST_LIMIT_MAX = 500
_CURSOR = re.compile(r"^s(\d{1,18})$")

Bounds = tuple[float | None, float | None]
"""Exclusive POSIX bounds ``(after, before)``; None: unbounded on that side."""


@dataclass(frozen=True)
class SearchQuery:
    """Validated search arguments: the text of each lane the query gives, the subject,
    the limit, the category codes (None: every category) and the exclusive POSIX bounds
    on ``occurred_at`` (None: unbounded)."""

    texts: dict[str, str]
    subject: tuple[str, str] | None
    limit: int
    cats: list[int] | None
    occurred: Bounds = (None, None)
    valid: Validity = CURRENT


def situation(value: object, field_name: str, max_bytes: int, *, keep: str) -> str | None:
    """A search's ``context`` or ``intention``, of any size: None, empty or blank is none;
    a text longer than ``max_bytes`` UTF-8 bytes is cut to that many, keeping its ``end``
    (a conversation window: its newest turns) or its ``start`` (a goal), at a character
    boundary. A search is never refused for its situation's size (a store is: what it
    keeps is not cut silently).

    :raise InvalidMemory: not a string, or not valid Unicode (a lone surrogate).
    """
    text = validate_optional_text(value, field_name, sys.maxsize)
    if text is None:
        return None
    raw = text.encode("utf-8")
    if len(raw) <= max_bytes:
        return text
    kept = raw[-max_bytes:] if keep == "end" else raw[:max_bytes]
    return kept.decode("utf-8", errors="ignore").strip() or None


def parse_search(*, query: object, context: object, intention: object,
                 subject_type: object, subject_id: object, limit: object,
                 categories: object, occurred_after: object = None,
                 occurred_before: object = None, as_of: object = None,
                 include_superseded: object = None) -> SearchQuery:
    """Validate search arguments; an empty ``categories`` list means no filter.

    :raise InvalidMemory, InvalidCategory, SubjectIncomplete: naming the bad argument.
    """
    text = validate_text(query, "query", MAX_QUERY_BYTES)
    window = situation(context, "context", MAX_CONTEXT_BYTES, keep="end")
    goal = situation(intention, "intention", MAX_INTENTION_BYTES, keep="start")
    subject = validate_subject(subject_type, subject_id)
    checked = validate_limit(limit, "limit", SEARCH_LIMIT_MAX)
    cats = None
    if categories is not None:
        if isinstance(categories, str) or not isinstance(categories, Sequence):
            raise InvalidMemory("categories", "must be a list of categories")
        # An empty list is "no filter", like leaving it out, rather than "match nothing".
        cats = sorted({CATEGORY_CODES[validate_category(c)] for c in categories}) or None
    texts = {lane: value for lane, value in (("content", text), ("context", window),
                                             ("intention", goal)) if value is not None}
    occurred = (None if occurred_after is None
                else parse_time(occurred_after, "occurred_after"),
                None if occurred_before is None
                else parse_time(occurred_before, "occurred_before"))
    return SearchQuery(texts, subject, checked, cats, occurred,
                       parse_validity(as_of, include_superseded))


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
    valid: Validity = CURRENT


def parse_list_query(*, category: Any, subject_type: Any, subject_id: Any, agent: Any,
                     source: Any, created_after: Any, created_before: Any, limit: Any,
                     cursor: Any, occurred_after: Any = None,
                     occurred_before: Any = None, as_of: Any = None,
                     include_superseded: Any = None) -> ListQuery:
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
                     validate_limit(limit, "limit", LIST_LIMIT_MAX), below, occurred[0],
                     occurred[1], parse_validity(as_of, include_superseded))


def _cursor_seq(cursor: object) -> int:
    match = _CURSOR.match(cursor) if isinstance(cursor, str) else None
    if match is None:
        raise InvalidMemory("cursor", "is not a cursor this store returned")
    return int(match.group(1))
