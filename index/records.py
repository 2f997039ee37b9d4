"""The memory record: its fields, timestamps and JSON forms.

A record is what one memory *is*, apart from its vectors (those live in ``lanes.py``):

==================  ======================================================================
id                  32 lowercase hex chars (uuid4), assigned by the store
seq                 creation sequence number, unique and increasing within the element;
                    orders ``list`` and breaks eviction ties (not part of the public form)
content             what the memory says; non-empty, at most ``MAX_CONTENT_BYTES`` UTF-8
category            fact | preference | procedure | context | correction
subject_type/_id    who the memory is about: both or neither; type circle_member | entity |
                    guest, id a non-empty string of at most ``MAX_SUBJECT_ID_CHARS``
context             the conversation window it was formed in (``MAX_CONTEXT_BYTES``) or None
intention           the goal of the turn it was formed in (``MAX_INTENTION_BYTES``) or None
agent               who stored it (free text, ``MAX_AGENT_CHARS``) or None
source              subconscious | conscious | api | fixture
metadata            a JSON object, at most ``MAX_METADATA_BYTES`` once serialized
created_at,         ISO-8601 UTC, fixed width (``2025-01-31T12:00:00.000000Z``), so string
updated_at          order is time order
occurred_at         when the remembered thing happened, same form; the caller's value (any
                    ISO-8601 date or date-time, a naive one taken as UTC) or the store time
last_accessed_at    same form, or None until a search first returns it
access_count        how many searches returned it
embedded            True when every lane that has text has a vector
==================  ======================================================================

The limits named above, and the checks a caller's values pass before they become a
record, are ``validation.py``'s. Here a logged record is read back (:meth:`MemoryRecord.
from_json`), checked for what the store will do with each field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .errors import InvalidMemory, StoreError

__all__ = [
    "CATEGORIES", "CATEGORY_CODES", "SUBJECT_TYPES", "SOURCES", "MemoryRecord",
    "Unappliable", "parse_time", "iso_utc", "json_copy",
]

CATEGORIES: tuple[str, ...] = ("fact", "preference", "procedure", "context", "correction")
# A category's small-integer code (its place above): the file store's columns and every
# backend's parsed category filters (``query.py``) use it.
CATEGORY_CODES = {name: code for code, name in enumerate(CATEGORIES)}
SUBJECT_TYPES: tuple[str, ...] = ("circle_member", "entity", "guest")
SOURCES: tuple[str, ...] = ("subconscious", "conscious", "api", "fixture")

#: Sequence numbers and access counts live in 64-bit signed columns.
_INT64 = 2**63


def iso_utc(ts: float) -> str:
    """Format a POSIX timestamp as fixed-width ISO-8601 UTC with microseconds and ``Z``.

    The year has four digits whatever it is (``strftime("%Y")`` writes year 1 as ``1``,
    which no ISO-8601 reader takes back).
    """
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="microseconds")[:-6] + "Z"


def parse_time(value: object, field_name: str) -> float:
    """Parse an ISO-8601 string into a POSIX timestamp; a naive time is taken as UTC.

    :raise InvalidMemory: naming ``field_name`` when the value is not an ISO-8601 string.
    """
    if not isinstance(value, str):
        raise InvalidMemory(field_name, "must be an ISO-8601 date-time string")
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidMemory(field_name, f"{value!r} is not an ISO-8601 date-time") from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.timestamp()


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value: ``json.loads(json.dumps(value))``, several times
    faster (a search copies every result's metadata, so a caller never changes ours)."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


@dataclass(slots=True)
class MemoryRecord:
    """One live memory (mutable: the store updates it in place under its lock)."""

    id: str
    seq: int
    content: str
    category: str
    subject_type: str | None
    subject_id: str | None
    context: str | None
    intention: str | None
    agent: str | None
    source: str
    metadata: dict[str, Any]
    created_at: str
    updated_at: str
    last_accessed_at: str | None = None
    access_count: int = 0
    embedded: bool = False
    created_ts: float = 0.0
    key: str | None = None
    key_fingerprint: str | None = None
    key_evicted: tuple[str, ...] = ()
    key_warnings: tuple[str, ...] = ()
    tokens: dict[str, frozenset[str]] | None = field(default=None, compare=False)
    # Last, so that positional construction from a snapshot's older columns still works.
    occurred_at: str = ""
    occurred_ts: float = 0.0
    # Validity (issue 23): from when the memory holds, until when (None: still current) and
    # which memory superseded it; ``history`` its earlier versions (``validity.py``),
    # empty until it first changes.
    valid_from: str = ""
    valid_from_ts: float = 0.0
    valid_until: str | None = None
    valid_until_ts: float = math.inf
    superseded_by: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)

    @property
    def current(self) -> bool:
        """Whether the memory still holds (neither superseded nor retired)."""
        return self.valid_until is None

    @property
    def subject(self) -> tuple[str, str] | None:
        """``(subject_type, subject_id)`` or None for a general memory."""
        if self.subject_type is None or self.subject_id is None:
            return None
        return (self.subject_type, self.subject_id)

    def lane_text(self, lane: str) -> str | None:
        """The text a lane embeds: content, context or intention."""
        if lane == "content":
            return self.content
        if lane == "context":
            return self.context
        return self.intention

    def public(self) -> dict[str, Any]:
        """The public form: the fields above, never vectors, seq or idempotency data."""
        return {
            "id": self.id, "content": self.content, "category": self.category,
            "subject_type": self.subject_type, "subject_id": self.subject_id,
            "context": self.context, "intention": self.intention, "agent": self.agent,
            "source": self.source,
            "metadata": json_copy(self.metadata) if self.metadata else {},
            "created_at": self.created_at, "updated_at": self.updated_at,
            "occurred_at": self.occurred_at or self.created_at,
            "last_accessed_at": self.last_accessed_at, "access_count": self.access_count,
            "embedded": self.embedded,
            "valid_from": self.valid_from or self.occurred_at or self.created_at,
            "valid_until": self.valid_until, "superseded_by": self.superseded_by,
        }

    def to_json(self) -> dict[str, Any]:
        """The log/snapshot form: public fields (minus ``embedded``) plus ``seq``.

        ``embedded`` is not written: it follows from the vectors a line carries.
        """
        return {
            "id": self.id, "seq": self.seq, "content": self.content,
            "category": self.category, "subject_type": self.subject_type,
            "subject_id": self.subject_id, "context": self.context,
            "intention": self.intention, "agent": self.agent, "source": self.source,
            "metadata": self.metadata, "created_at": self.created_at,
            "updated_at": self.updated_at, "occurred_at": self.occurred_at or self.created_at,
            "last_accessed_at": self.last_accessed_at, "access_count": self.access_count,
            "valid_from": self.valid_from or self.occurred_at or self.created_at,
            "valid_until": self.valid_until, "superseded_by": self.superseded_by,
            **({"history": self.history} if self.history else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MemoryRecord:
        """Inverse of :meth:`to_json` (``embedded`` starts False; the caller sets it).

        A record logged before ``occurred_at`` existed occurred when it was created. Every
        field is checked for what the store will do with it (a string, a known category,
        a time it can order, a count its 64-bit columns hold), so a record that cannot be
        held is refused here, before anything changes.

        :raise Unappliable: naming the field.
        """
        if not isinstance(data, dict):
            raise Unappliable("record", "is not an object")
        created_at = str(_logged_str(data, "created_at", required=True))
        created_ts = _logged_ts(created_at, "created_at")
        occurred_at = _logged_str(data, "occurred_at") or created_at
        occurred_ts = created_ts if occurred_at == created_at \
            else _logged_ts(occurred_at, "occurred_at")
        updated_at = _logged_time(data, "updated_at") or created_at
        metadata = data.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise Unappliable("metadata", "is not an object")
        if data.get("category") not in CATEGORIES:
            raise Unappliable("category", f"{data.get('category')!r} is not a category")
        if (data.get("subject_type") is None) != (data.get("subject_id") is None):
            raise Unappliable("subject_id", "needs a subject_type, and the reverse")
        # A record logged before validity existed holds from when it occurred, still.
        valid_from = _logged_str(data, "valid_from") or occurred_at
        valid_from_ts = occurred_ts if valid_from == occurred_at \
            else _logged_ts(valid_from, "valid_from")
        valid_until = _logged_time(data, "valid_until")
        history = data.get("history") or []
        if not isinstance(history, list) or not all(isinstance(v, dict) for v in history):
            raise Unappliable("history", "is not a list of versions")
        return cls(
            id=str(_logged_str(data, "id", required=True)),
            seq=_logged_int(data, "seq", None),
            content=str(_logged_str(data, "content", required=True)),
            category=data["category"], subject_type=_logged_str(data, "subject_type"),
            subject_id=_logged_str(data, "subject_id"),
            context=_logged_str(data, "context"), intention=_logged_str(data, "intention"),
            agent=_logged_str(data, "agent"),
            source=_logged_str(data, "source") or "api", metadata=metadata,
            created_at=created_at, updated_at=updated_at,
            last_accessed_at=_logged_time(data, "last_accessed_at"),
            access_count=_logged_int(data, "access_count", 0),
            created_ts=created_ts, occurred_at=occurred_at, occurred_ts=occurred_ts,
            valid_from=valid_from, valid_from_ts=valid_from_ts, valid_until=valid_until,
            valid_until_ts=math.inf if valid_until is None
            else _logged_ts(valid_until, "valid_until"),
            superseded_by=_logged_str(data, "superseded_by"), history=list(history),
        )


class Unappliable(ValueError):
    """A logged op or record the store cannot apply (a field of the wrong type or out of
    range). Raised before anything changes: the engine refuses to log such an op, and
    replay leaves such a line out (``recovery.py``)."""

    def __init__(self, field_name: str, problem: str) -> None:
        super().__init__(f"{field_name} {problem}")
        self.field_name = field_name


def _logged_str(data: Mapping[str, Any], name: str, *, required: bool = False) -> str | None:
    value = data.get(name)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise Unappliable(name, "is not a string")
    return value


def _logged_int(data: Mapping[str, Any], name: str, default: int | None) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _INT64:
        raise Unappliable(name, "is not an integer from 0 to 2^63 - 1")
    return value


def _logged_ts(value: str, name: str) -> float:
    try:
        return _fast_ts(value, name)
    except (StoreError, OverflowError, OSError, ValueError):
        raise Unappliable(name, f"{value!r} is not a time the store can hold") \
            from None


def _logged_time(data: Mapping[str, Any], name: str) -> str | None:
    value = _logged_str(data, name)
    if value is not None:
        _logged_ts(value, name)
    return value


def _fast_ts(value: str, field_name: str = "created_at") -> float:
    # Records carry our own "...Z" form, which fromisoformat parses directly.
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC).timestamp() \
            if value.endswith("Z") else parse_time(value, field_name)
    except ValueError:
        return parse_time(value, field_name)
