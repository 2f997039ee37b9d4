"""MemoryState: the in-memory state of one element and what each log op does to it.

The store applies every op through :meth:`MemoryState.apply`, both live (right after the
op's line is fsynced) and on replay, so the state rebuilt from the log is the live state by
construction. Ops (``log.py`` has the line format):

* ``header`` / ``model``: the model the following vectors come from. Vectors produced by
  another model than the open embedder's are unusable: the memory is loaded as not
  embedded (text fallback) until ``repair_embeddings`` re-embeds it.
* ``store``: evict the listed ids, then add the record (with its vectors when the line
  has one for every lane that has text; otherwise it is "not embedded").
* ``update``: change fields; set or drop lane vectors; ``embedded: false`` drops them all.
* ``embed``: give a not-embedded memory its vectors (repair).
* ``delete``: remove the ids (reasons ``delete`` and ``forget`` also scrub their vectors
  from hnswlib, and the store compacts right after, so their text leaves the disk). A
  ``delete`` (reason) line's ``at`` is when: the memories a deleted one superseded take
  over its end then (``validity.successor_deleted``).
* ``retire``: end a memory's validity (``valid_until``) with no successor.
* ``access``: count one search hit for each id.

A ``store`` line may name the memories it ``supersedes``: they stop holding when the new
one begins (``superseded_by`` names it), in the same line, so a crash keeps both changes
or neither. ``update``, ``retire`` and a supersede grow the memory's history by one
version (``validity.py``; the line's ``change`` says what made it), so replay rebuilds
the history the live store had; the history is part of the record, so a compaction keeps
it and a delete takes it along.

Unknown ids in delete/update/embed/access are ignored: an eviction list in a compacted
store line names memories that are long gone. A whole state written out and read back
(the sidecar's records, a compacted log's body) is ``checkpoint.py``'s.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from .ended import EndedLabels
from .lanes import LaneSet
from .params import IndexParams
from .lexical import LexicalIndex
from .recall import LANES, token_set
from .records import CATEGORIES, MemoryRecord, Unappliable, parse_time
from .slots import CATEGORY_CODES, FREE, GENERAL, UNREAD, SlotTable
from .validity import (Change, retire_record, successor_deleted, supersede_record,
                       updated_record)

__all__ = ["MemoryState", "ERASING"]

#: Delete reasons that erase: the memory's vectors are scrubbed and its text compacted
#: out of the files before the op answers (an ``expire`` waits for the next compaction).
ERASING = frozenset({"delete", "forget"})

#: The fields an ``update`` op may set, and the types they take.
_UPDATABLE: dict[str, tuple[type, ...]] = {
    "content": (str,), "context": (str, type(None)), "intention": (str, type(None)),
    "metadata": (dict,), "category": (str,)}


def _ids(entry: dict[str, Any], name: str, *, optional: bool = False) -> None:
    ids = entry.get(name)
    if ids is None and optional:
        return
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise Unappliable(name, "is not a list of memory ids")


def _ts(value: str) -> float:
    return parse_time(value, "at")


class MemoryState:
    """Records, slots, lanes and idempotency keys of one element (not thread-safe)."""

    def __init__(self, *, dim: int, model_id: str, params: IndexParams) -> None:
        self.dim = dim
        self.model_id = model_id
        self.slots = SlotTable()
        # The memories no longer current, kept on every write for a search's lenders.
        self.ended_labels = EndedLabels()
        self.lanes = LaneSet(dim, self.slots, params)
        self.lexical = LexicalIndex(situated=params.situated_lexical)
        self.records: dict[str, MemoryRecord] = {}
        self.labels: dict[str, int] = {}
        self.keys: dict[str, str] = {}
        self.unembedded: set[int] = set()
        self.seqs: list[int] = []           # live creation sequences, ascending
        self.by_seq: dict[int, str] = {}
        self.next_seq = 0
        self.log_model = model_id
        self.lines = 0                      # log lines applied, header included
        self.stale_vectors = 0              # vectors ignored because of another model
        self.saw_forget = False

    def __len__(self) -> int:
        return len(self.records)

    @property
    def dead_lines(self) -> int:
        """Log lines a compaction would drop (everything but the header and one per memory)."""
        return max(0, self.lines - 1 - len(self.records))

    # -- ops -----------------------------------------------------------------------------

    def check(self, entry: dict[str, Any]) -> MemoryRecord | None:
        """Whether :meth:`apply` can apply ``entry``, changing nothing: every field it will
        use has the type and range it needs. Returns the record a ``store`` adds.

        :raise Unappliable: naming the field.
        """
        if not isinstance(entry, dict):
            raise Unappliable("op", "is not an object")
        op = entry.get("op")
        if op == "store":
            record = MemoryRecord.from_json(entry.get("record"))    # type: ignore[arg-type]
            if record.id in self.records:
                raise Unappliable("record.id", f"{record.id} is stored already")
            _ids(entry, "evicted", optional=True)
            _ids(entry, "supersedes", optional=True)
            if entry.get("key") is not None and not isinstance(entry["key"], str):
                raise Unappliable("key", "is not a string")
            self._vectors_of(entry)
            return record
        if op == "update":
            _ids({"ids": [entry.get("id")]}, "ids")
            fields = entry.get("fields") or {}
            if not isinstance(fields, dict):
                raise Unappliable("fields", "is not an object")
            for name, value in fields.items():
                if name not in _UPDATABLE or not isinstance(value, _UPDATABLE[name]) or \
                        (name in ("content", "category") and value is None):
                    raise Unappliable(f"fields.{name}", "cannot be set to that")
            if fields.get("category", "fact") not in CATEGORIES:
                raise Unappliable("fields.category", "is not a category")
            if fields and not isinstance(entry.get("at"), str):
                raise Unappliable("at", "is not a time")
            if entry.get("change") is not None:
                Change.from_json(entry["change"])
            self._vectors_of(entry)
        elif op == "retire":
            _ids({"ids": [entry.get("id")]}, "ids")
            change = Change.from_json(entry.get("change"))
            for value in (change.at, entry.get("valid_until", change.at)):
                try:
                    _ts(value)
                except (TypeError, ValueError, OverflowError, OSError):
                    raise Unappliable("valid_until", "is not a time") from None
        elif op == "embed":
            _ids({"ids": [entry.get("id")]}, "ids")
            self._vectors_of(entry)
        elif op == "delete":
            _ids(entry, "ids")
            if entry.get("at") is not None and not isinstance(entry["at"], str):
                raise Unappliable("at", "is not a time")
        elif op == "access":
            _ids(entry, "ids")
            if not isinstance(entry.get("at"), str):
                raise Unappliable("at", "is not a time")
        elif op in ("header", "model"):
            if not isinstance(entry.get("model_id"), str):
                raise Unappliable("model_id", "is not a string")
        else:
            raise Unappliable("op", f"{op!r} is not an op")
        return None

    def _vectors_of(self, entry: dict[str, Any]) -> None:
        vectors = entry.get("vectors") or {}
        if not isinstance(vectors, dict):
            raise Unappliable("vectors", "is not an object")
        # A store or embed line's vectors of another size are set aside (``_usable``); an
        # update's are put as they are, so they must fit. None drops an update's lane.
        put = entry.get("op") == "update" and entry.get("embedded") and \
            self.log_model == self.model_id
        for lane, vector in vectors.items():
            if lane not in LANES or not (isinstance(vector, np.ndarray) or
                                         (vector is None and put)) or \
                    (put and vector is not None and vector.shape != (self.dim,)):
                raise Unappliable(f"vectors.{lane}", "is not a vector of this store")

    def apply(self, entry: dict[str, Any]) -> None:
        """Apply one decoded log op (vectors as float32 arrays), checked first
        (:meth:`check`), so an op that cannot apply changes nothing.

        :raise Unappliable: the op cannot apply; nothing changed.
        :raise ValueError: the op is malformed (the caller reports the log offset).
        """
        record = self.check(entry)
        op = entry.get("op")
        self.lines += 1
        if op == "store":
            assert record is not None
            self._store(entry, record)
        elif op == "update":
            self._update(entry)
        elif op == "embed":
            self._embed(entry)
        elif op == "retire":
            self._retire(entry)
        elif op == "delete":
            # A delete and a forget erase: vectors scrubbed here, text by the compaction
            # that follows (or, after a crash, that the next open runs). An expiry does not.
            forget = entry.get("reason") in ERASING
            self.saw_forget = self.saw_forget or forget
            if entry.get("reason") == "delete" and entry.get("at") is not None:
                self._take_over(entry["ids"], entry["at"])
            for memory_id in entry["ids"]:
                self.remove(memory_id, scrub=forget)
        elif op == "access":
            self._access(entry["ids"], entry["at"])
        elif op in ("header", "model"):
            self.log_model = str(entry["model_id"])
            if op == "header":
                self.next_seq = max(self.next_seq, int(entry.get("next_seq", 0)))
            if entry.get("dim") != self.dim:
                self.log_model = f"{self.log_model} (dim {entry.get('dim')})"
        else:
            raise ValueError(f"unknown op {op!r}")

    def _usable(self, vectors: dict[str, Any] | None,
                record: MemoryRecord) -> dict[str, np.ndarray] | None:
        """The record's lane vectors if complete and from the open model, else None."""
        if not vectors:
            return None
        if self.log_model != self.model_id:
            self.stale_vectors += 1
            return None
        out = {}
        for lane in LANES:
            if record.lane_text(lane) is None:
                continue
            vector = vectors.get(lane)
            if vector is None or vector.shape != (self.dim,):
                return None
            out[lane] = vector
        return out

    def _store(self, entry: dict[str, Any], record: MemoryRecord) -> None:
        for memory_id in entry.get("evicted") or ():
            self.remove(memory_id)
        record.key = entry.get("key")
        record.key_fingerprint = entry.get("key_fingerprint")
        record.key_evicted = tuple(entry.get("evicted") or ())
        record.key_warnings = tuple(entry.get("warnings") or ())
        self._add(record, self._usable(entry.get("vectors"), record))
        for memory_id in entry.get("supersedes") or ():
            self._supersede(memory_id, record)

    def _supersede(self, memory_id: str, newer: MemoryRecord) -> None:
        """``newer`` supersedes memory ``memory_id`` (unknown or ended already: nothing)."""
        old = self.records.get(memory_id)
        if old is None or not old.current:
            return
        supersede_record(old, newer)
        self._ended(old)

    def _retire(self, entry: dict[str, Any]) -> None:
        record = self.records.get(entry["id"])
        if record is None or not record.current:
            return
        change = Change.from_json(entry["change"])
        retire_record(record, change, str(entry.get("valid_until") or change.at))
        self._ended(record)

    def _take_over(self, ids: list[str], at: str) -> None:
        """The memories each deleted one superseded take over its end
        (``validity.successor_deleted``); a line without ``at`` (older) changed none.
        A predecessor is never current: with none ended, there is nothing to scan."""
        if not self.slots.ended:
            return
        for gone_id in ids:
            gone = self.records.get(gone_id)
            if gone is None:
                continue
            heir = self.records.get(gone.superseded_by or "")
            for old in [r for r in self.records.values() if r.superseded_by == gone_id]:
                successor_deleted(old, gone, heir, at)
                self.slots.until[self.labels[old.id]] = old.valid_until_ts
                self.slots.ended -= old.current
                if old.current:
                    self.ended_labels.discard(self.labels[old.id])

    def _ended(self, record: MemoryRecord) -> None:
        label = self.labels[record.id]
        self.slots.until[label] = record.valid_until_ts
        self.slots.ended += 1
        self.ended_labels.add(label, int(self.slots.owner[label]), record.seq)

    def _add(self, record: MemoryRecord, vectors: dict[str, np.ndarray] | None,
             label: int | None = None) -> None:
        owner = self.slots.subject_code(record.subject)
        label = self.slots.allocate(record.id, owner=owner, category=record.category,
                                    seq=record.seq, created=record.created_ts,
                                    access=record.access_count, label=label,
                                    occurred=record.occurred_ts,
                                    valid=(record.valid_from_ts, record.valid_until_ts))
        self.records[record.id] = record
        self.labels[record.id] = label
        if not record.current:
            self.ended_labels.add(label, owner, record.seq)
        self.lexical.add(label, record.content, record.context)
        if record.key is not None:
            self.keys[record.key] = record.id
        if not self.seqs or record.seq > self.seqs[-1]:
            self.seqs.append(record.seq)
        else:
            bisect.insort(self.seqs, record.seq)
        self.by_seq[record.seq] = record.id
        self.next_seq = max(self.next_seq, record.seq + 1)
        if vectors is not None:
            self.lanes.put(label, dict(vectors))
            record.embedded = True
        else:
            record.embedded = False
            self.unembedded.add(label)

    def remove(self, memory_id: str, *, scrub: bool = False) -> MemoryRecord | None:
        """Remove a memory (no log line: callers log first); None when it is unknown."""
        record = self.records.pop(memory_id, None)
        if record is None:
            return None
        label = self.labels.pop(memory_id)
        if not record.current:
            self.slots.ended -= 1
            self.ended_labels.discard(label)
        self.lanes.drop_all(label, scrub=scrub)
        self.lexical.remove(label, record.content, record.context)
        self.slots.release(label)
        self.unembedded.discard(label)
        index = bisect.bisect_left(self.seqs, record.seq)
        if index < len(self.seqs) and self.seqs[index] == record.seq:
            del self.seqs[index]
        self.by_seq.pop(record.seq, None)
        if record.key is not None and self.keys.get(record.key) == memory_id:
            del self.keys[record.key]
        return record

    def _update(self, entry: dict[str, Any]) -> None:
        record = self.records.get(entry["id"])
        if record is None:
            return
        label = self.labels[record.id]
        fields = entry.get("fields") or {}
        if fields and entry.get("change") is not None:
            updated_record(record, Change.from_json(entry["change"]), fields)
        if "content" in fields:
            self.slots.opening[label] = UNREAD
        if "content" in fields or "context" in fields:
            self.lexical.remove(label, record.content, record.context)
            self.lexical.add(label, fields.get("content", record.content),
                             fields["context"] if "context" in fields else record.context)
        for name in ("content", "context", "intention", "metadata"):
            if name in fields:
                setattr(record, name, fields[name])
        if "category" in fields and fields["category"] != record.category:
            old = CATEGORY_CODES[record.category]
            record.category = fields["category"]
            self.slots.set_category(label, record.category)
            self.lanes.recategorize(label, old, CATEGORY_CODES[record.category])
        if fields:
            record.updated_at = entry["at"]
            record.tokens = None
        vectors = entry.get("vectors") or {}
        if entry.get("embedded") and self.log_model == self.model_id:
            self.lanes.put(label, {lane: vectors[lane] for lane in vectors})
            for lane in LANES:
                if record.lane_text(lane) is None and self.lanes[lane].has[label]:
                    self.lanes[lane].drop(label)
            self._settle(record, label)
        else:
            if entry.get("embedded"):
                self.stale_vectors += 1
            self._unembed(record, label)

    def _embed(self, entry: dict[str, Any]) -> None:
        record = self.records.get(entry["id"])
        if record is None:
            return
        label = self.labels[record.id]
        vectors = self._usable(entry.get("vectors"), record)
        if vectors is None:
            return
        self.lanes.put(label, vectors)
        self._settle(record, label)

    def _settle(self, record: MemoryRecord, label: int) -> None:
        """Mark embedded when every lane with text has a vector, else drop them all."""
        complete = all(self.lanes[lane].has[label] for lane in LANES
                       if record.lane_text(lane) is not None)
        if complete:
            record.embedded = True
            self.unembedded.discard(label)
        else:
            self._unembed(record, label)

    def _unembed(self, record: MemoryRecord, label: int) -> None:
        self.lanes.drop_all(label)
        record.embedded = False
        self.unembedded.add(label)

    def _access(self, ids: list[str], at: str) -> None:
        for memory_id in ids:
            record = self.records.get(memory_id)
            if record is None:
                continue
            record.access_count += 1
            record.last_accessed_at = at
            self.slots.access[self.labels[memory_id]] += 1

    # -- counts ----------------------------------------------------------------------------

    def counts(self) -> dict[str, Any]:
        """``total``, ``by_category``, ``by_subject`` (most memories first), ``general``,
        ``embedded`` and ``unembedded``: the counting part of ``stats``."""
        slots = self.slots
        hw = slots.high_water
        live = slots.owner[:hw] != FREE
        per_category = np.bincount(slots.cat[:hw][live].astype(np.int64),
                                   minlength=len(CATEGORIES))
        by_subject: list[dict[str, Any]] = [
            {"subject_type": subject[0], "subject_id": subject[1],
             "count": len(slots.owner_labels[code])}
            for subject, code in slots.subject_codes.items() if slots.owner_labels.get(code)]
        by_subject.sort(key=lambda s: (-s["count"], s["subject_type"], s["subject_id"]))
        total = len(self.records)
        return {"total": total,
                "by_category": {c: int(per_category[i]) for i, c in enumerate(CATEGORIES)},
                "by_subject": by_subject, "general": slots.pool_size(GENERAL),
                "embedded": total - len(self.unembedded),
                "unembedded": len(self.unembedded)}

    # -- vectors (an export's, a compacted log's: ``checkpoint.py``) ---------------------

    def vectors_of(self, memory_id: str) -> dict[str, np.ndarray]:
        """The lane vectors a memory has (copies)."""
        label = self.labels[memory_id]
        return {lane: self.lanes[lane].vectors[label].copy() for lane in LANES
                if self.lanes[lane].has[label]}

    # -- text fallback -------------------------------------------------------------------

    def tokens(self, record: MemoryRecord) -> dict[str, frozenset[str]]:
        """The record's token sets per lane (cached on the record until it changes)."""
        if record.tokens is None:
            record.tokens = {lane: token_set(record.lane_text(lane)) for lane in LANES}
        return record.tokens
