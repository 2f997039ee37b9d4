"""What each write op of the file store changes, over the in-memory state: no I/O, no lock.

:class:`~index.store.MemoryStore` holds its lock around these, then commits the log op
they build (``engine.py``). The decisions themselves are every backend's
(``decisions.py``); this module reads what they need from the state:

* **idempotency** (:func:`keyed`, :func:`earlier`): the memory a key created;
* **the store line** (:func:`store_line`): the new record, the evictions capacity calls
  for (:func:`evictions_for`), the warnings, the vectors;
* **import** (:func:`import_line`): an exported memory as it was, with its evictions;
* **retention, forget, repair**: which memories :func:`expired_ids`, :func:`subject_ids`
  and :func:`unembedded_batch` select.
"""
from __future__ import annotations

import uuid
from typing import Any

import numpy as np

from .backend import ImportedMemory, StoreResult
from .decisions import KeyedMemory, earlier_result, evictions, lane_texts
from .errors import EmbeddingFailed
from .policy import expired_mask, least_valuable
from .validation import NewMemory
from .settings import MemorySettings
from .slots import FREE
from .state import MemoryState

__all__ = ["keyed", "earlier", "evictions_for", "store_line", "import_line", "expired_ids",
           "subject_ids", "unembedded_batch"]


def keyed(state: MemoryState, key: str | None) -> KeyedMemory | None:
    """The memory ``key`` created, as ``decisions.earlier_result`` reads it (None: none)."""
    if key is None or key not in state.keys:
        return None
    record = state.records[state.keys[key]]
    return KeyedMemory(record.public(), record.key_fingerprint, record.key_evicted,
                       record.key_warnings)


def earlier(state: MemoryState, new: NewMemory) -> StoreResult | None:
    """The first result of ``new``'s key in ``state`` (``decisions.earlier_result``).

    :raise IdempotencyKeyReused: the key stored a memory from a different request.
    """
    return earlier_result(keyed(state, new.key), new)


def evictions_for(state: MemoryState, subject: tuple[str, str] | None,
                  settings: MemorySettings) -> list[str]:
    """The ids one more store about ``subject`` evicts first (``decisions.evictions``).

    :raise MemoryCapacity: at capacity with an empty pool to evict from.
    """
    slots = state.slots
    owner = slots.subject_code(subject, create=False)

    def victims(everyone: bool, count: int) -> list[str]:
        labels = slots.pool_labels(None if everyone else owner)
        # Memories no longer current go first, oldest first (kept for history only).
        ended = labels[~np.isinf(slots.until[labels])] if slots.ended else labels[:0]
        ended = ended[np.argsort(slots.seq[ended], kind="stable")][:count]
        if len(ended) < count:
            rest = labels[np.isinf(slots.until[labels])] if len(ended) else labels
            order = least_valuable(slots.access[rest], slots.seq[rest],
                                   count - len(ended))
            ended = np.concatenate([ended, rest[order]])
        return [str(slots.ids[int(label)]) for label in ended]
    return evictions(subject, settings, slots.live,
                     lambda: slots.pool_size(owner) if owner != FREE else 0, victims)


def store_line(state: MemoryState, new: NewMemory, vectors: dict[str, np.ndarray] | None,
               settings: MemorySettings, now: str, *, pending: bool = False
               ) -> dict[str, Any]:
    """The ``store`` op that adds ``new`` (without vectors: not embedded; warned as an
    embedding failure unless ``pending``: embedded behind on purpose).

    :raise MemoryCapacity: at capacity with an empty pool to evict from.
    """
    evicted = evictions_for(state, new.subject, settings)
    occurred = new.occurred_at or now
    record = {
        "id": uuid.uuid4().hex, "seq": state.next_seq, "content": new.content,
        "category": new.category, "subject_type": new.subject[0] if new.subject else None,
        "subject_id": new.subject[1] if new.subject else None, "context": new.context,
        "intention": new.intention, "agent": new.agent, "source": new.source,
        "metadata": new.metadata, "created_at": now, "updated_at": now,
        "occurred_at": occurred, "valid_from": occurred, "valid_until": None,
        "superseded_by": None, "last_accessed_at": None, "access_count": 0}
    entry: dict[str, Any] = {"op": "store", "record": record, "key": new.key}
    if new.supersedes:
        # Checked by the caller under the lock (``validity.check_supersedes``); applied
        # with the store, in its one line.
        entry["supersedes"] = [i for i in new.supersedes if i not in evicted]
    if new.key is not None:
        entry["key_fingerprint"] = new.fingerprint
    warnings = [] if vectors is not None or pending else [EmbeddingFailed.code]
    entry.update(evicted=evicted, warnings=warnings, vectors=vectors or {})
    return entry


def expired_ids(state: MemoryState, retention: dict[str, float], now: float) -> list[str]:
    """Ids of the memories past their category's retention, oldest first."""
    slots = state.slots
    hw = slots.high_water
    live = slots.owner[:hw] != FREE
    labels = np.flatnonzero(live & expired_mask(slots.created[:hw], slots.cat[:hw],
                                                retention, now))
    labels = labels[np.argsort(slots.seq[labels], kind="stable")]
    return [str(slots.ids[int(label)]) for label in labels]


def subject_ids(state: MemoryState, subject: tuple[str, str]) -> list[str]:
    """Ids of the subject's memories, oldest first."""
    slots = state.slots
    code = slots.subject_code(subject, create=False)
    if code == FREE:
        return []
    labels = sorted(slots.owner_labels.get(code, ()), key=lambda label: slots.seq[label])
    return [str(slots.ids[label]) for label in labels]


def unembedded_batch(state: MemoryState, attempted: set[str],
                     size: int) -> list[tuple[str, dict[str, str]]]:
    """Up to ``size`` memories without vectors and not in ``attempted`` (which grows),
    with their lane texts."""
    batch: list[tuple[str, dict[str, str]]] = []
    for label in sorted(state.unembedded):
        record = state.records[str(state.slots.ids[label])]
        if record.id in attempted:
            continue
        if len(batch) == size:
            break
        attempted.add(record.id)
        batch.append((record.id, lane_texts(record)))
    return batch


def import_line(state: MemoryState, item: ImportedMemory,
                vectors: dict[str, np.ndarray] | None,
                settings: MemorySettings) -> dict[str, Any]:
    """The ``store`` op that adds ``item`` as it was (id, times, statistics kept), with the
    evictions capacity calls for, exactly as a store would.

    :raise MemoryCapacity: at capacity with an empty pool to evict from.
    """
    evicted = evictions_for(state, item.subject, settings)
    record = {**item.record, "seq": state.next_seq}
    return {"op": "store", "record": record, "key": None, "evicted": evicted,
            "warnings": [], "vectors": vectors or {}}
