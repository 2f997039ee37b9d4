"""Memories that travel: what an export yields and what an import takes, kept whole.

An exported memory is its public form (``records.py``) plus, when asked, its lane vectors;
an imported one is the same form validated field by field, so an import keeps the id, the
timestamps and the access statistics instead of minting new ones as ``store`` does. Every
backend imports through ``core.MemoryCore.import_memories``; what one imported memory
writes is each backend's (``writes.import_line`` in the file store). A copy of a file
store's log for a backup is ``log.copy_log_file``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from typing import Any

import numpy as np

from .backend import ImportedMemory
from .errors import InvalidMemory
from .log import decode_vector
from .recall import LANES
from .records import SOURCES, parse_time
from .validation import (
    MAX_ACCESS_COUNT,
    MAX_CONTENT_BYTES,
    MAX_CONTEXT_BYTES,
    MAX_INTENTION_BYTES,
    validate_agent,
    validate_category,
    validate_metadata,
    validate_occurred_at,
    validate_optional_text,
    validate_subject,
    validate_text,
)

__all__ = ["validate_imported", "usable_vectors", "MEMORY_FIELDS"]

_ID = re.compile(r"^[0-9a-f]{32}$")
#: The fields of an exported memory (its public form; ``embedded`` is derived, not kept).
MEMORY_FIELDS = ("id", "content", "category", "subject_type", "subject_id", "context",
                 "intention", "agent", "source", "metadata", "created_at", "updated_at",
                 "occurred_at", "last_accessed_at", "access_count", "embedded",
                 "valid_from", "valid_until", "superseded_by", "history")
#: The most versions an imported memory's history may hold.
MAX_VERSIONS = 10_000
_VERSION_OPS = ("store", "update", "supersede", "retire")
#: How far ahead of this machine's clock an imported memory's own times may be (another
#: machine's clock).
CLOCK_SKEW = 24 * 3600.0
#: How far from 1 an imported vector's norm may be (float32 rounding is about 1e-7).
UNIT_TOLERANCE = 1e-3


def _time(data: Mapping[str, Any], name: str, *, required: bool,
          latest: float | None = None) -> str | None:
    value = data.get(name)
    if value is None:
        if required:
            raise InvalidMemory(name, "is required")
        return None
    normalized = validate_occurred_at(value, name)
    if latest is not None and normalized is not None and parse_time(normalized, name) > latest:
        # A memory "created" in 9999 would never reach its retention age (issue 26).
        raise InvalidMemory(name, f"{value!r} is in the future; only occurred_at may be")
    return normalized


def validate_imported(data: Any, *, dim: int | None = None,
                      now: float | None = None) -> ImportedMemory:
    """Validate one exported memory (a JSON object) and normalize it.

    Every public field is checked with ``store``'s rules; ``id`` must be 32 lowercase hex
    characters; timestamps are ISO-8601 (kept, in the fixed-width UTC form); unknown
    fields are refused, so a file of something else is not read as memories; the times
    of what happened to the memory (created, updated, last accessed) may not be later than
    ``now`` (default: the clock) plus ``CLOCK_SKEW`` (when the remembered thing occurred
    may: a plan). ``vectors``
    (lane -> base64 float32) is optional; with ``dim`` each must have that many values;
    each must be a finite unit vector (norm 1 within ``UNIT_TOLERANCE``).

    :raise InvalidMemory, InvalidCategory, SubjectIncomplete: naming the bad field.
    """
    if not isinstance(data, dict):
        raise InvalidMemory("memory", "must be a JSON object")
    unknown = sorted(set(data) - set(MEMORY_FIELDS) - {"vectors"})
    if unknown:
        raise InvalidMemory(unknown[0], "is not a field of an exported memory")
    memory_id = data.get("id")
    if not isinstance(memory_id, str) or not _ID.match(memory_id):
        raise InvalidMemory("id", "must be 32 lowercase hexadecimal characters")
    category = validate_category(data.get("category"))
    subject = validate_subject(data.get("subject_type"), data.get("subject_id"))
    source = data.get("source", "api")
    if not isinstance(source, str) or source not in SOURCES:
        raise InvalidMemory("source", f"{source!r} is not one of " + ", ".join(SOURCES))
    count = data.get("access_count", 0)
    if isinstance(count, bool) or not isinstance(count, int) or \
            not 0 <= count <= MAX_ACCESS_COUNT:
        raise InvalidMemory("access_count", f"must be an integer from 0 to "
                            f"{MAX_ACCESS_COUNT}")
    latest = (time.time() if now is None else now) + CLOCK_SKEW
    created = _time(data, "created_at", required=True, latest=latest)
    record = {
        "id": memory_id, "content": validate_text(data.get("content"), "content",
                                                  MAX_CONTENT_BYTES),
        "category": category,
        "subject_type": subject[0] if subject else None,
        "subject_id": subject[1] if subject else None,
        "context": validate_optional_text(data.get("context"), "context", MAX_CONTEXT_BYTES),
        "intention": validate_optional_text(data.get("intention"), "intention",
                                            MAX_INTENTION_BYTES),
        "agent": validate_agent(data.get("agent")), "source": source,
        "metadata": validate_metadata(data.get("metadata")),
        "created_at": created,
        "updated_at": _time(data, "updated_at", required=False, latest=latest) or created,
        "occurred_at": _time(data, "occurred_at", required=False) or created,
        "last_accessed_at": _time(data, "last_accessed_at", required=False, latest=latest),
        "access_count": count,
        **_validity(data),
    }
    return ImportedMemory(record, _vectors(data.get("vectors"), record, dim))


def _validity(data: Mapping[str, Any]) -> dict[str, Any]:
    """An exported memory's validity and history, validated (absent: current, no
    history; an export made before validity existed)."""
    superseded_by = data.get("superseded_by")
    if superseded_by is not None and (not isinstance(superseded_by, str)
                                      or not _ID.match(superseded_by)):
        raise InvalidMemory("superseded_by", "must be a memory id or null")
    if superseded_by is not None and superseded_by == data.get("id"):
        raise InvalidMemory("superseded_by", "names the memory itself")
    until = _time(data, "valid_until", required=False)
    if superseded_by is not None and until is None:
        raise InvalidMemory("valid_until", "is required with superseded_by")
    valid_from = _time(data, "valid_from", required=False)
    if until is not None and valid_from is not None and \
            parse_time(until, "valid_until") < parse_time(valid_from, "valid_from"):
        raise InvalidMemory("valid_until", "is before valid_from")
    history = data.get("history")
    if history is None:
        history = []
    if not isinstance(history, list) or len(history) > MAX_VERSIONS:
        raise InvalidMemory("history", f"must be a list of at most {MAX_VERSIONS} versions")
    out: dict[str, Any] = {"valid_from": valid_from, "valid_until": until,
                           "superseded_by": superseded_by}
    if history:
        out["history"] = [_version(v, f"history[{i}]") for i, v in enumerate(history)]
    return out


def _version(data: Any, name: str) -> dict[str, Any]:
    """One version of a history, validated field by field (``validity.history_of``)."""
    if not isinstance(data, dict):
        raise InvalidMemory(name, "must be an object")
    known = {"content", "category", "valid_from", "valid_until", "superseded_by", "op",
             "at", "source", "agent", "evaluator", "reason"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InvalidMemory(f"{name}.{unknown[0]}", "is not a field of a version")
    if data.get("op") not in _VERSION_OPS:
        raise InvalidMemory(f"{name}.op", "must be one of " + ", ".join(_VERSION_OPS))
    source = data.get("source", "api")
    if source not in SOURCES:
        raise InvalidMemory(f"{name}.source", f"{source!r} is not one of "
                            + ", ".join(SOURCES))
    version: dict[str, Any] = {
        "content": validate_text(data.get("content"), f"{name}.content", MAX_CONTENT_BYTES),
        "category": validate_category(data.get("category")),
        "valid_from": _time(data, "valid_from", required=True),
        "valid_until": _time(data, "valid_until", required=False),
        "superseded_by": data.get("superseded_by"),
        "op": data["op"], "at": _time(data, "at", required=True), "source": source,
        "agent": validate_agent(data.get("agent"))}
    if version["superseded_by"] is not None and (
            not isinstance(version["superseded_by"], str)
            or not _ID.match(version["superseded_by"])):
        raise InvalidMemory(f"{name}.superseded_by", "must be a memory id or null")
    for extra in ("evaluator", "reason"):
        if data.get(extra) is not None:
            version[extra] = validate_text(data[extra], f"{name}.{extra}", 1000)
    return version


def _vectors(raw: Any, record: Mapping[str, Any],
             dim: int | None) -> dict[str, np.ndarray] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InvalidMemory("vectors", "must be an object of lane -> base64 float32")
    out: dict[str, np.ndarray] = {}
    for lane, text in raw.items():
        if lane not in LANES:
            raise InvalidMemory("vectors", f"{lane!r} is not a lane ({', '.join(LANES)})")
        if not isinstance(text, str):
            raise InvalidMemory(f"vectors.{lane}", "must be base64 of float32 values")
        try:
            vector = decode_vector(text)
        except ValueError:
            raise InvalidMemory(f"vectors.{lane}", "is not base64 of float32 values") from None
        if dim is not None and vector.shape != (dim,):
            raise InvalidMemory(f"vectors.{lane}", f"has {vector.size} values; the "
                                f"model gives {dim}")
        if not np.all(np.isfinite(vector)):
            raise InvalidMemory(f"vectors.{lane}", "holds a value that is not finite")
        # Scores are inner products of unit vectors: a longer one (all 3e38) outscored
        # every true match in every search, a zero one matched nothing (issue 26).
        norm = float(np.linalg.norm(vector.astype(np.float64)))
        if abs(norm - 1.0) > UNIT_TOLERANCE:
            raise InvalidMemory(f"vectors.{lane}", f"must be a unit vector (its norm is "
                                f"{norm:.4g}, not 1)")
        out[lane] = vector
    return out if out else None


def usable_vectors(item: ImportedMemory, dim: int) -> dict[str, np.ndarray] | None:
    """The item's vectors when they cover every lane that has text at ``dim``, else None
    (the caller embeds the texts instead)."""
    if item.vectors is None:
        return None
    out = {}
    for lane in item.lane_texts():
        vector = item.vectors.get(lane)
        if vector is None or vector.shape != (dim,):
            return None
        out[lane] = vector
    return out
