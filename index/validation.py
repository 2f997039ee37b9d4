"""What a caller sends, checked: the limits of a memory's fields and their validation.

Validation functions here are pure: they take the caller's raw values (a ``store`` or
``update`` call, a group store's items, a query's filters, an import's lines) and return
the normalized ones or raise a validation error naming the field, before anything is
written. Empty or whitespace-only ``context``/``intention`` mean "no text" and are stored
as None. The record they become is ``records.py``'s.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import InvalidCategory, InvalidMemory, StoreError, SubjectIncomplete
from .records import CATEGORIES, SOURCES, SUBJECT_TYPES, iso_utc, parse_time

__all__ = [
    "MAX_CONTENT_BYTES", "MAX_CONTEXT_BYTES", "MAX_INTENTION_BYTES", "MAX_QUERY_BYTES",
    "MAX_METADATA_BYTES", "MAX_AGENT_CHARS", "MAX_SUBJECT_ID_CHARS", "MAX_KEY_CHARS",
    "MAX_ACCESS_COUNT", "MAX_SUPERSEDES", "NewMemory", "validate_new", "validate_changes",
    "validate_items", "item_error", "validate_category", "validate_subject",
    "validate_text", "validate_optional_text", "validate_metadata", "validate_key",
    "validate_limit", "validate_agent", "validate_occurred_at", "validate_supersedes",
]

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


def validate_agent(value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_AGENT_CHARS:
        raise InvalidMemory("agent", f"must be a non-empty string of at most "
                            f"{MAX_AGENT_CHARS} characters")
    _utf8_len(value, "agent")
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
    who = validate_agent(agent)
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
