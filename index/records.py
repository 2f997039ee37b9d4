"""The memory record: its fields, validation, timestamps and JSON forms.

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

Empty or whitespace-only ``context``/``intention`` mean "no text" and are stored as None.
Validation functions here are pure: they take the caller's raw values and return the
normalized ones or raise a validation error naming the field, before anything is written.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .errors import InvalidCategory, InvalidMemory, StoreError, SubjectIncomplete

__all__ = [
    "CATEGORIES", "CATEGORY_CODES", "SUBJECT_TYPES", "SOURCES", "MAX_CONTENT_BYTES",
    "MAX_CONTEXT_BYTES", "MAX_INTENTION_BYTES", "MAX_QUERY_BYTES", "MAX_METADATA_BYTES",
    "MAX_AGENT_CHARS", "MAX_SUBJECT_ID_CHARS", "MAX_KEY_CHARS", "MemoryRecord", "NewMemory",
    "validate_new",    "validate_changes", "validate_items", "item_error",
    "validate_category", "validate_subject", "validate_text", "validate_optional_text",
    "validate_metadata", "validate_key", "validate_limit", "parse_time", "iso_utc",
    "validate_occurred_at", "MAX_ACCESS_COUNT", "Unappliable", "validate_supersedes",
    "MAX_SUPERSEDES",
]

CATEGORIES: tuple[str, ...] = ("fact", "preference", "procedure", "context", "correction")
# A category's small-integer code (its place above): the file store's columns and every
# backend's parsed category filters (``query.py``) use it.
CATEGORY_CODES = {name: code for code, name in enumerate(CATEGORIES)}
SUBJECT_TYPES: tuple[str, ...] = ("circle_member", "entity", "guest")
SOURCES: tuple[str, ...] = ("subconscious", "conscious", "api", "fixture")

# Sizes are in UTF-8 bytes so a limit means the same thing for every script. Content is a
# fact-sized statement; the context window is allowed to be longer because it is a
# transcript excerpt; an intention is a one-line goal.
MAX_CONTENT_BYTES = 16 * 1024
MAX_CONTEXT_BYTES = 32 * 1024
MAX_INTENTION_BYTES = 4 * 1024
MAX_QUERY_BYTES = 16 * 1024
MAX_METADATA_BYTES = 16 * 1024
MAX_METADATA_DEPTH = 16
MAX_AGENT_CHARS = 200
MAX_SUBJECT_ID_CHARS = 256
MAX_KEY_CHARS = 255
#: The largest access count an import may carry: the largest integer every JSON reader
#: keeps exactly, far inside the 64-bit column both stores keep it in (2^63 did not fit
#: and bricked the element it was imported into: issue 26).
MAX_ACCESS_COUNT = 2**53 - 1
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


def validate_occurred_at(value: object, field_name: str = "occurred_at") -> str | None:
    """The normalized form (fixed-width ISO-8601 UTC) of an optional ISO-8601 time.

    A date alone (``2023-05-08``) is its midnight UTC. None stays None (the store uses its
    own time).

    :raise InvalidMemory: naming ``field_name`` when the value is not an ISO-8601 string
        or lies outside the years 1 to 9999 once in UTC.
    """
    if value is None:
        return None
    try:
        return iso_utc(parse_time(value, field_name))
    except (OverflowError, OSError, ValueError):
        raise InvalidMemory(field_name, f"{value!r} is out of range") from None


def _utf8_len(value: str, field_name: str) -> int:
    if "\x00" in value:
        # The file log would keep it; PostgreSQL keeps NUL in no text column. One rule for
        # both backends, so a home can move between them (issue 26).
        raise InvalidMemory(field_name, "must not hold a NUL character")
    try:
        return len(value.encode("utf-8"))
    except UnicodeEncodeError:
        # Lone surrogates cannot be written to a UTF-8 log; refuse them up front.
        raise InvalidMemory(field_name, "is not valid Unicode text") from None


def validate_text(value: object, field_name: str, max_bytes: int) -> str:
    """Return ``value`` if it is a non-blank string within ``max_bytes`` UTF-8 bytes."""
    if not isinstance(value, str):
        raise InvalidMemory(field_name, "must be a string")
    if not value.strip():
        raise InvalidMemory(field_name, "must not be empty")
    if _utf8_len(value, field_name) > max_bytes:
        raise InvalidMemory(field_name, f"is longer than {max_bytes} bytes")
    return value


def validate_optional_text(value: object, field_name: str, max_bytes: int) -> str | None:
    """Like :func:`validate_text`, but None, empty and blank mean "no text" (None)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidMemory(field_name, "must be a string or null")
    if not value.strip():
        return None
    return validate_text(value, field_name, max_bytes)


def validate_category(value: object) -> str:
    """Return ``value`` if it is one of :data:`CATEGORIES`, else raise InvalidCategory."""
    if not isinstance(value, str) or value not in CATEGORIES:
        raise InvalidCategory(value)
    return value


def validate_subject(subject_type: object, subject_id: object) -> tuple[str, str] | None:
    """Return ``(type, id)`` or None; both or neither must be given.

    :raise SubjectIncomplete: exactly one of the two is None.
    :raise InvalidMemory: the type is not one of :data:`SUBJECT_TYPES` or the id is not a
        non-empty string of at most :data:`MAX_SUBJECT_ID_CHARS` characters.
    """
    if subject_type is None and subject_id is None:
        return None
    if subject_type is None or subject_id is None:
        raise SubjectIncomplete()
    if not isinstance(subject_type, str) or subject_type not in SUBJECT_TYPES:
        raise InvalidMemory("subject_type", f"{subject_type!r} is not one of "
                            + ", ".join(SUBJECT_TYPES))
    if not isinstance(subject_id, str) or not subject_id.strip():
        raise InvalidMemory("subject_id", "must be a non-empty string")
    if len(subject_id) > MAX_SUBJECT_ID_CHARS:
        raise InvalidMemory("subject_id", f"is longer than {MAX_SUBJECT_ID_CHARS} characters")
    _utf8_len(subject_id, "subject_id")
    return subject_type, subject_id


def _check_json_value(value: object, path: str, depth: int) -> None:
    if depth > MAX_METADATA_DEPTH:
        raise InvalidMemory(path, f"is nested deeper than {MAX_METADATA_DEPTH} levels")
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str):
            _utf8_len(value, path)
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidMemory(path, "must be a finite number")
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check_json_value(item, f"{path}[{i}]", depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidMemory(path, "object keys must be strings")
            _utf8_len(key, path)
            _check_json_value(item, f"{path}.{key}", depth + 1)
        return
    raise InvalidMemory(path, f"{type(value).__name__} is not a JSON value")


def validate_metadata(value: object) -> dict[str, Any]:
    """Return a copy of ``value`` if it is a JSON object within :data:`MAX_METADATA_BYTES`."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidMemory("metadata", "must be a JSON object")
    _check_json_value(value, "metadata", 0)
    encoded = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    if len(encoded.encode("utf-8")) > MAX_METADATA_BYTES:
        raise InvalidMemory("metadata", f"is larger than {MAX_METADATA_BYTES} bytes")
    # A deep copy through JSON: later mutation of the caller's dict cannot reach the store.
    copied: dict[str, Any] = json.loads(encoded)
    return copied


def validate_key(value: object) -> str | None:
    """Return an idempotency key (1..255 characters) or None."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or len(value) > MAX_KEY_CHARS:
        raise InvalidMemory("idempotency_key", f"must be 1 to {MAX_KEY_CHARS} characters")
    _utf8_len(value, "idempotency_key")
    return value


def validate_limit(value: object, field_name: str, upper: int) -> int:
    """Return ``value`` if it is an int in ``1..upper`` (bools are refused)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= upper:
        raise InvalidMemory(field_name, f"must be an integer from 1 to {upper}")
    return value


def _validate_agent(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_AGENT_CHARS:
        raise InvalidMemory("agent", f"must be a non-empty string of at most "
                            f"{MAX_AGENT_CHARS} characters")
    _utf8_len(value, "agent")
    return value


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value: ``json.loads(json.dumps(value))``, several times
    faster (a search copies every result's metadata, so a caller never changes ours)."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


@dataclass(frozen=True)
class NewMemory:
    """The validated, normalized inputs of a ``store`` call."""

    content: str
    category: str
    subject: tuple[str, str] | None
    context: str | None
    intention: str | None
    agent: str | None
    source: str
    metadata: dict[str, Any]
    key: str | None

    @property
    def fingerprint(self) -> str:
        """A digest of everything the call asks to store (the key aside): two calls with
        one idempotency key are the same request exactly when their fingerprints match.

        Taken over the normalized values, so a blank context and no context, or metadata
        keys in another order, are the same request.
        """
        request: list[Any] = [self.content, self.category, self.subject, self.context,
                              self.intention, self.agent, self.source, self.metadata]
        if self.occurred_at is not None:
            # Only when given, so fingerprints logged before occurred_at existed still hold.
            request.append(self.occurred_at)
        if self.supersedes:
            request.append(list(self.supersedes))
        canonical = json.dumps(request, ensure_ascii=False, sort_keys=True,
                               separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]
    occurred_at: str | None = None
    supersedes: tuple[str, ...] = ()


def validate_new(*, content: object, category: object, subject_type: object,
                 subject_id: object, context: object, intention: object, agent: object,
                 source: object, metadata: object, idempotency_key: object,
                 occurred_at: object = None, supersedes: object = None) -> NewMemory:
    """Validate every field of a store call; raise the first problem found.

    Order: category, subject, content, context, intention, agent, source, metadata, key,
    occurred_at —
    so a bad category is reported as ``MEMORY_INVALID_CATEGORY`` even if content is also bad.
    """
    category = validate_category(category)
    subject = validate_subject(subject_type, subject_id)
    text = validate_text(content, "content", MAX_CONTENT_BYTES)
    ctx = validate_optional_text(context, "context", MAX_CONTEXT_BYTES)
    goal = validate_optional_text(intention, "intention", MAX_INTENTION_BYTES)
    who = _validate_agent(agent)
    if not isinstance(source, str) or source not in SOURCES:
        raise InvalidMemory("source", f"{source!r} is not one of " + ", ".join(SOURCES))
    meta = validate_metadata(metadata)
    key = validate_key(idempotency_key)
    occurred = validate_occurred_at(occurred_at)
    return NewMemory(text, category, subject, ctx, goal, who, source, meta, key, occurred,
                     validate_supersedes(supersedes))


#: The most memories one store may supersede.
MAX_SUPERSEDES = 32


def validate_supersedes(value: object) -> tuple[str, ...]:
    """The ids a store supersedes: a list of distinct id strings (None: none).

    Whether each names a current memory of the same subject is the store's to check
    (``validity.check_supersedes``), under its lock.
    """
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or \
            not all(isinstance(i, str) and 0 < len(i) <= 64 for i in value) or \
            len(value) > MAX_SUPERSEDES:
        raise InvalidMemory("supersedes", f"must be a list of at most {MAX_SUPERSEDES} "
                            "memory ids")
    if len(set(value)) != len(value):
        raise InvalidMemory("supersedes", "names a memory twice")
    return tuple(value)


_ITEM_DEFAULTS: dict[str, Any] = {
    "subject_type": None, "subject_id": None, "context": None, "intention": None,
    "agent": None, "source": "api", "metadata": None, "idempotency_key": None,
    "occurred_at": None, "supersedes": None}


def validate_items(items: Sequence[Mapping[str, Any]]) -> list[NewMemory]:
    """Validate the items of a group store, each with ``store``'s keywords.

    :raise InvalidCategory, SubjectIncomplete, InvalidMemory: the first bad item, its
        message starting with ``items[i]`` (an unknown keyword is ``InvalidMemory``).
    """
    news = []
    for i, item in enumerate(items):
        try:
            news.append(validate_new(**{**_ITEM_DEFAULTS, **item}))
        except TypeError as exc:
            raise InvalidMemory(f"items[{i}]", str(exc)) from None
        except StoreError as exc:
            raise item_error(exc, i) from None
    return news


def item_error(exc: StoreError, index: int) -> StoreError:
    """``exc`` with ``items[index]: `` before its message (a group store's errors)."""
    exc.message = f"items[{index}]: {exc.message}"
    exc.args = (exc.message,)
    return exc


def validate_changes(*, content: object, category: object, context: object,
                     intention: object, metadata: object) -> dict[str, Any]:
    """The fields an ``update`` changes, validated; None leaves a field out.

    An empty or blank ``context``/``intention`` is kept as None: it clears the field.

    :raise InvalidCategory, InvalidMemory: naming the bad field.
    """
    changes: dict[str, Any] = {}
    if content is not None:
        changes["content"] = validate_text(content, "content", MAX_CONTENT_BYTES)
    if category is not None:
        changes["category"] = validate_category(category)
    if context is not None:
        changes["context"] = validate_optional_text(context, "context", MAX_CONTEXT_BYTES)
    if intention is not None:
        changes["intention"] = validate_optional_text(intention, "intention",
                                                      MAX_INTENTION_BYTES)
    if metadata is not None:
        changes["metadata"] = validate_metadata(metadata)
    return changes


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
