"""A whole :class:`~index.state.MemoryState` written out and read back.

Two forms: the sidecar's records file (``sidecar.py``), every live record column by
column, which :func:`restore` loads into an empty state at cold start instead of replaying
the log; and the body of a compacted log, one ``store`` op per live memory
(:func:`store_entries`), which replays to the same state. Ops applied one at a time are
``state.py``'s.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from .lexical import LexicalIndex
from .recall import LANES
from .records import MemoryRecord, parse_time
from .slots import CATEGORY_CODES, GENERAL

if TYPE_CHECKING:
    from .state import MemoryState

__all__ = ["SNAPSHOT_FIELDS", "restore", "snapshot_columns", "store_entries"]

# Record attributes a sidecar snapshot keeps, one column each (plus label and key lists).
# The order is MemoryRecord's field order: restore builds records positionally.
SNAPSHOT_FIELDS = ("id", "seq", "content", "category", "subject_type", "subject_id",
                   "context", "intention", "agent", "source", "metadata", "created_at",
                   "updated_at", "last_accessed_at", "access_count", "embedded",
                   "created_ts", "key", "key_fingerprint")
_FIELDS = len(SNAPSHOT_FIELDS)
# Validity columns of a snapshot, restored by name (``_restore_validity``).
_VALIDITY = ("valid_from", "valid_until", "superseded_by", "history")


def _ts(value: str) -> float:
    return parse_time(value, "at")


def _restore_validity(record: MemoryRecord, valid_from: str, valid_until: str | None,
                      superseded_by: str | None, history: list[dict[str, Any]]) -> None:
    record.valid_from = valid_from or record.occurred_at
    record.valid_from_ts = record.occurred_ts if record.valid_from == record.occurred_at \
        else _ts(record.valid_from)
    record.valid_until = valid_until
    record.valid_until_ts = float("inf") if valid_until is None else _ts(valid_until)
    record.superseded_by = superseded_by
    record.history = history or []


def store_entries(state: MemoryState) -> Iterator[dict[str, Any]]:
    """One ``store`` op per live memory, oldest first: the body of a compacted log."""
    for record in state.records.values():
        entry: dict[str, Any] = {"op": "store", "record": record.to_json(),
                                 "key": record.key}
        if record.key_fingerprint is not None:
            entry["key_fingerprint"] = record.key_fingerprint
        entry.update(evicted=list(record.key_evicted),
                     warnings=list(record.key_warnings),
                     vectors=state.vectors_of(record.id) if record.embedded else {})
        yield entry


def snapshot_columns(state: MemoryState) -> dict[str, list[Any]]:
    """Every live record, column by column (oldest first), with its label: the sidecar's
    ``records`` file. Columns parse about three times faster than one object per row."""
    records = list(state.records.values())
    columns: dict[str, list[Any]] = {name: [getattr(r, name) for r in records]
                                     for name in SNAPSHOT_FIELDS}
    columns["label"] = [state.labels[r.id] for r in records]
    columns["occurred_at"] = [r.occurred_at for r in records]
    columns["occurred_ts"] = [r.occurred_ts for r in records]
    columns["key_evicted"] = [list(r.key_evicted) for r in records]
    columns["key_warnings"] = [list(r.key_warnings) for r in records]
    for name in _VALIDITY:
        columns[name] = [getattr(r, name) for r in records]
    return columns


def restore(state: MemoryState, meta: dict[str, Any], columns: dict[str, list[Any]],
            lane_files: dict[str, Any], lexical_file: Any,
            verify: Callable[[], None] = lambda: None) -> None:
    """Load a sidecar checkpoint into ``state`` (a new, empty one).

    ``verify`` is called after the records are built and before any lane file is
    loaded (the sidecar's checksums run meanwhile).

    :raise ValueError, KeyError, TypeError: the checkpoint is inconsistent (the caller
        rebuilds from the log instead).
    """
    n = len(columns["id"])
    # Checkpoints written before idempotency fingerprints existed lack the column; their
    # keys are then honoured for any payload, as they were when they were stored.
    columns.setdefault("key_fingerprint", [None] * n)
    if any(len(columns[name]) != n for name in (*SNAPSHOT_FIELDS, "label",
                                               "key_evicted", "key_warnings")):
        raise ValueError("snapshot columns differ in length")
    subject_code = state.slots.subject_code
    codes = CATEGORY_CODES
    owners = np.empty(n, dtype=np.int32)
    cats = np.empty(n, dtype=np.int8)
    labels = np.asarray(columns["label"], dtype=np.int64)
    # A checkpoint written before occurred_at existed: every memory occurred when it
    # was created.
    occurred_at = columns.get("occurred_at") or columns["created_at"]
    occurred_ts = columns.get("occurred_ts") or columns["created_ts"]
    records, ids, keys, by_seq = state.records, state.labels, state.keys, state.by_seq
    # A checkpoint written before validity existed: every memory is current.
    validity = [columns[name] for name in _VALIDITY] \
        if all(name in columns for name in _VALIDITY) else None
    rows: Iterator[tuple[Any, ...]] = zip(
        *(columns[name] for name in SNAPSHOT_FIELDS), columns["key_evicted"],
        columns["key_warnings"], labels.tolist(), occurred_at, occurred_ts, strict=True)
    # Positional construction in one tight loop: this is most of a cold start's Python.
    for i, row in enumerate(rows):
        evicted, warnings = row[_FIELDS], row[_FIELDS + 1]
        values: tuple[Any, ...] = (*row[:_FIELDS], tuple(evicted) if evicted else (),
                                   tuple(warnings) if warnings else ())
        record = MemoryRecord(*values)
        record.occurred_at, record.occurred_ts = row[_FIELDS + 3], float(row[_FIELDS + 4])
        if validity is not None:
            _restore_validity(record, *(column[i] for column in validity))
        else:
            record.valid_from, record.valid_from_ts = record.occurred_at, record.occurred_ts
        label = row[_FIELDS + 2]
        records[record.id] = record
        ids[record.id] = label
        by_seq[record.seq] = record.id
        if record.key is not None:
            keys[record.key] = record.id
        if not record.embedded:
            state.unembedded.add(label)
        owners[i] = subject_code(record.subject) if record.subject_type is not None \
            else GENERAL
        cats[i] = codes[record.category]
    if len(state.records) != n:
        raise ValueError("a memory appears twice in the snapshot")
    seqs = np.asarray(columns["seq"], dtype=np.int64)
    if n and np.any(np.diff(seqs) <= 0):
        raise ValueError("snapshot records are not in creation order")
    state.seqs = seqs.tolist()
    state.slots.restore(labels, columns["id"], owners, cats, seqs,
                        np.asarray(columns["created_ts"], dtype=np.float64),
                        np.asarray(columns["access_count"], dtype=np.int64),
                        int(meta["high_water"]),
                        np.asarray(occurred_ts, dtype=np.float64))
    for record in state.records.values():
        if record.valid_from_ts != record.occurred_ts or not record.current:
            label = ids[record.id]
            state.slots.valid_from[label] = record.valid_from_ts
            state.slots.until[label] = record.valid_until_ts
            state.slots.ended += not record.current
            if not record.current:
                state.ended_labels.add(label, int(state.slots.owner[label]), record.seq)
    verify()
    for lane in LANES:
        state.lanes[lane].load(*lane_files[lane])
    with np.load(lexical_file, allow_pickle=False) as arrays:
        try:
            state.lexical = LexicalIndex.from_arrays(dict(arrays),
                                                     situated=state.lexical.situated)
        except ValueError:
            # Saved under another indexing scheme: re-index the records (seconds at
            # 100k) rather than rebuild everything from the log (minutes).
            state.lexical = LexicalIndex(situated=state.lexical.situated)
            for record in state.records.values():
                state.lexical.add(state.labels[record.id], record.content, record.context)
    if len(state.lexical) != n:
        raise ValueError("snapshot records disagree with the lexical index")
    embedded = np.asarray(columns["embedded"], dtype=bool)
    if n and not np.array_equal(embedded, state.lanes["content"].has[labels]):
        raise ValueError("snapshot records disagree with the content lane")
    state.next_seq = max(int(meta["next_seq"]), int(seqs[-1]) + 1 if n else 0)
    state.log_model = str(meta.get("log_model", state.model_id))
    state.lines = int(meta.get("log_lines", n + 1))
