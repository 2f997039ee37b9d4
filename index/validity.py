"""Validity and history of memories (issue 23), every backend's.

A memory holds from ``valid_from`` (its ``occurred_at`` unless an import says otherwise)
until ``valid_until``: None while it is current; set when a newer memory supersedes it
(``store(..., supersedes=[id])``: ``superseded_by`` names the newer one) or when it is
retired (``retire``: no successor, a reason). A memory that is no longer current is kept
for history and ``as_of``, out of default recall.

* :class:`Validity`: which memories a ``search``, ``list`` or ``export`` reads (current
  ones; those current at ``as_of``; or everything), parsed once here;
* :func:`check_supersedes`: what a supersede may name (same subject, current), checked
  by each backend under its lock so a racing delete or supersede is seen;
* :class:`Change` and :func:`changed`: what changed a memory, and its history grown by
  one version. Both backends call the same function, the file store while applying a log
  line (so replay rebuilds the same history) and PostgreSQL inside the write's
  transaction; the history lives on the memory (its log record, its row) and goes with
  it when it is deleted or forgotten;
* :func:`successor_deleted`: a deleted memory never was, so the memories it superseded
  take over its end (current again, or superseded by its own successor).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import MemoryNotCurrent, MemoryNotFound
from .records import SOURCES, MemoryRecord, Unappliable, parse_time
from .validation import MAX_AGENT_CHARS

__all__ = ["Validity", "parse_validity", "CURRENT", "Change", "changed", "history_of",
           "check_supersedes", "supersede_record", "retire_record", "updated_record",
           "successor_deleted", "MAX_REASON_CHARS",
           "evaluator_of", "EVERYTHING"]

#: The longest reason a retire or a change may carry.
MAX_REASON_CHARS = 500


@dataclass(frozen=True)
class Validity:
    """Which memories a read returns: ``everything`` (``include_superseded``), those
    current at ``as_of`` (POSIX seconds), or (neither) those current now.

    ``as_of`` reads valid time as known now: ``valid_from <= as_of < valid_until``. When
    the memory was stored does not count: a memory stored today about a session of last
    year (``occurred_at`` then) answers for last year, which is what a dated observe
    needs; a memory stored without a date holds from when it was stored anyway."""

    as_of: float | None = None
    everything: bool = False

    def holds(self, valid_from_ts: float, valid_until_ts: float) -> bool:
        """Whether a memory with these times is read."""
        if self.everything:
            return True
        if self.as_of is None:
            return math.isinf(valid_until_ts)
        return valid_from_ts <= self.as_of < valid_until_ts

    def holds_record(self, record: MemoryRecord) -> bool:
        return self.holds(record.valid_from_ts, record.valid_until_ts)

    def holds_all(self, ended: int) -> bool:
        """Whether every memory of a store holding ``ended`` memories no longer current
        is read (a search then needs no mask)."""
        return self.everything or (self.as_of is None and ended == 0)

    def mask(self, valid_from_ts: np.ndarray, valid_until_ts: np.ndarray) -> np.ndarray:
        """:meth:`holds` over arrays of times: which memories are read."""
        if self.everything:
            return np.ones(len(valid_from_ts), dtype=bool)
        if self.as_of is None:
            current: np.ndarray = np.isinf(valid_until_ts)
            return current
        t = self.as_of
        held: np.ndarray = (valid_from_ts <= t) & (t < valid_until_ts)
        return held


CURRENT = Validity()
EVERYTHING = Validity(everything=True)


def parse_validity(as_of: object, include_superseded: object) -> Validity:
    """``as_of`` (an ISO-8601 time) and ``include_superseded`` (a bool) validated.

    :raise InvalidMemory: naming the bad argument.
    """
    from .errors import InvalidMemory
    if include_superseded is not None and not isinstance(include_superseded, bool):
        raise InvalidMemory("include_superseded", "must be true or false")
    when = None
    if as_of is not None:
        try:
            when = parse_time(as_of, "as_of")
        except (OverflowError, OSError, ValueError):
            raise InvalidMemory("as_of", f"{as_of!r} is out of range") from None
    if when is not None and include_superseded:
        raise InvalidMemory("as_of", "and include_superseded cannot be combined")
    return Validity(when, bool(include_superseded))


@dataclass(frozen=True)
class Change:
    """What changed a memory: the op (``update``, ``supersede``, ``retire``), who
    (source, agent), the evaluator when the subconscious decided it, and why."""

    op: str
    at: str
    source: str = "api"
    agent: str | None = None
    evaluator: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"op": self.op, "at": self.at, "source": self.source, "agent": self.agent,
                **({"evaluator": self.evaluator} if self.evaluator else {}),
                **({"reason": self.reason} if self.reason else {})}

    @classmethod
    def from_json(cls, data: object) -> Change:
        """:raise Unappliable: a logged change that is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("op"), str) or \
                not isinstance(data.get("at"), str):
            raise Unappliable("change", "is not a change")
        for name in ("agent", "evaluator", "reason"):
            if data.get(name) is not None and not isinstance(data[name], str):
                raise Unappliable(f"change.{name}", "is not a string")
        return cls(data["op"], data["at"], str(data.get("source") or "api"),
                   data.get("agent"), data.get("evaluator"), data.get("reason"))

    @classmethod
    def checked(cls, op: str, at: str, *, source: object, agent: object,
                evaluator: object = None, reason: object = None) -> Change:
        """A change from a caller's values. :raise InvalidMemory: naming the bad one."""
        from .errors import InvalidMemory
        if not isinstance(source, str) or source not in SOURCES:
            raise InvalidMemory("source", f"{source!r} is not one of " + ", ".join(SOURCES))
        for name, value, most in (("agent", agent, MAX_AGENT_CHARS),
                                  ("evaluator", evaluator, MAX_AGENT_CHARS),
                                  ("reason", reason, MAX_REASON_CHARS)):
            if value is not None and (not isinstance(value, str) or not value.strip()
                                      or len(value) > most or "\x00" in value):
                raise InvalidMemory(name, f"must be a non-empty string of at most {most} "
                                    "characters")
        return cls(op, at, source, agent, evaluator, reason)   # type: ignore[arg-type]


def evaluator_of(metadata: dict[str, Any], name: str = "evaluator") -> str | None:
    """The evaluator the subconscious recorded in a memory's metadata (or, with ``name``
    "reason", why it decided), if any."""
    observe = metadata.get("observe")
    value = observe.get(name) if isinstance(observe, dict) else None
    return value[:MAX_REASON_CHARS] if isinstance(value, str) and value else None


def _version(record: MemoryRecord, change: dict[str, Any]) -> dict[str, Any]:
    return {"content": record.content, "category": record.category,
            "valid_from": record.valid_from or record.occurred_at or record.created_at,
            "valid_until": record.valid_until, "superseded_by": record.superseded_by,
            **change}


def _created(record: MemoryRecord) -> dict[str, Any]:
    """The change that created ``record``: its store (or import)."""
    return Change("store", record.created_at, record.source, record.agent,
                  evaluator_of(record.metadata)).to_json()


def history_of(record: MemoryRecord) -> list[dict[str, Any]]:
    """Every version of ``record``, oldest first, the current one last: its content,
    category and validity, and the change that made it (op, at, source, agent,
    evaluator, reason)."""
    if record.history:
        return [dict(version) for version in record.history]
    return [_version(record, _created(record))]


def changed(record: MemoryRecord, change: Change, apply: Callable[[], None]) -> None:
    """Change ``record`` (``apply`` sets its fields) and grow its history by the version
    ``change`` made (the version it was created with first, when this is its first)."""
    if not record.history:
        record.history = [_version(record, _created(record))]
    apply()
    record.history = [*record.history, _version(record, change.to_json())]


def _end(record: MemoryRecord, until: str, until_ts: float) -> None:
    """``record`` stops holding at ``until``, or, when that is before it began, when it
    began (an empty interval rather than one that ends before it starts)."""
    if until_ts < record.valid_from_ts:
        until, until_ts = record.valid_from or record.occurred_at, record.valid_from_ts
    record.valid_until, record.valid_until_ts = until, until_ts


def supersede_record(old: MemoryRecord, newer: MemoryRecord) -> None:
    """``newer`` supersedes the current ``old``: it ends when ``newer`` begins, names it,
    and its history grows by the version that made (both backends, same function)."""
    def end() -> None:
        _end(old, newer.valid_from, newer.valid_from_ts)
        old.superseded_by = newer.id
    changed(old, Change("supersede", newer.created_at, newer.source, newer.agent,
                        evaluator_of(newer.metadata),
                        evaluator_of(newer.metadata, "reason")), end)


def updated_record(record: MemoryRecord, change: Change, fields: dict[str, Any]) -> None:
    """Grow ``record``'s history by the version an update of ``fields`` makes (its
    content and category); the caller sets the fields themselves."""
    before = (record.content, record.category)

    def apply() -> None:
        record.content = fields.get("content", record.content)
        record.category = fields.get("category", record.category)
    changed(record, change, apply)
    record.content, record.category = before


def retire_record(record: MemoryRecord, change: Change, until: str) -> None:
    """The current ``record`` stops holding at ``until``, no successor; its history grows
    by ``change``. :raise ValueError: ``until`` is not a time."""
    until_ts = parse_time(until, "valid_until")
    changed(record, change, lambda: _end(record, until, until_ts))


def successor_deleted(old: MemoryRecord, gone: MemoryRecord, heir: MemoryRecord | None,
                      at: str) -> None:
    """``gone``, which superseded ``old``, is deleted: a delete says it should never have
    been (unlike a retire or an update, which end a fact that was true), so ``old`` takes
    over ``gone``'s end. ``gone`` current: ``old`` is current again. ``gone`` superseded by
    ``heir`` (A <- B <- C, B deleted): C replaced what B said about A's attribute, so A is
    superseded by C, until C began. ``gone`` retired, or superseded by a memory no longer
    held: ``old`` ends when ``gone`` ended, no successor. Its history grows by the version
    this made (op ``delete``, why in ``reason``), and the reason the deleted memory's
    evaluator gave for superseding it leaves that history (it may quote the deleted
    text, which a delete erases). Both backends, same function; the file store calls it
    while applying the delete line, so replay rebuilds the same state."""
    def take_over() -> None:
        if heir is not None and gone.superseded_by == heir.id:
            old.valid_until, old.valid_until_ts = None, math.inf
            _end(old, heir.valid_from, heir.valid_from_ts)
            old.superseded_by = heir.id
        elif gone.current:
            old.valid_until, old.valid_until_ts, old.superseded_by = None, math.inf, None
        else:
            old.valid_until, old.valid_until_ts = None, math.inf
            _end(old, str(gone.valid_until), gone.valid_until_ts)
            old.superseded_by = None
    old.history = [_scrubbed(version, gone.id) for version in old.history]
    changed(old, Change("delete", at, reason=f"the memory that superseded it ({gone.id}) "
                        "was deleted"), take_over)


def _scrubbed(version: dict[str, Any], gone: str) -> dict[str, Any]:
    """A version of a history without the reason memory ``gone`` gave for making it."""
    if version.get("op") == "supersede" and version.get("superseded_by") == gone:
        return {name: value for name, value in version.items() if name != "reason"}
    return version


def check_supersedes(ids: Iterable[str], subject: tuple[str, str] | None,
                     find: Callable[[str], MemoryRecord | None]) -> list[MemoryRecord]:
    """The memories a store about ``subject`` supersedes, each checked: it exists, is
    about the same subject (another's answers not found: the caller may not learn it
    exists), and is current.

    :raise MemoryNotFound: one is missing or about another subject.
    :raise MemoryNotCurrent: one is superseded or retired already.
    """
    found = []
    for memory_id in ids:
        record = find(memory_id)
        if record is None or record.subject != subject:
            raise MemoryNotFound(memory_id)
        if not record.current:
            raise MemoryNotCurrent(memory_id, record.superseded_by)
        found.append(record)
    return found
