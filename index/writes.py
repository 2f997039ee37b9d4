"""What each write op changes, decided over the in-memory state: no I/O and no locking.

:class:`~index.store.MemoryStore` holds its lock around these, then commits the log op
they build (``engine.py``); keeping the decisions here keeps them testable and the store
thin (``search.py`` does the same for reads):

* **idempotency** (:func:`earlier_result`, :func:`check_keys`): a key seen before returns
  its first result when the request is the same (same fingerprint, ``records.py``), and is
  refused otherwise. A key stored before fingerprints existed has none and keeps its old
  meaning (any request returns the first result);
* **the store line** (:func:`store_line`): the new record, the evictions capacity calls
  for (``policy.py``), the warnings, the vectors;
* **update** (:func:`update_plan`): which lanes to re-embed and which to drop;
* **retention, forget, repair**: which memories :func:`expired_ids`, :func:`subject_ids`
  and :func:`unembedded_batch` select.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np

from .backend import StoreResult
from .errors import EmbeddingFailed, IdempotencyKeyReused, MemoryCapacity
from .policy import Occupancy, expired_mask, least_valuable, plan_eviction
from .recall import LANES
from .records import MemoryRecord, NewMemory, item_error
from .settings import MemorySettings
from .slots import FREE
from .state import MemoryState

__all__ = ["earlier_result", "check_keys", "store_line", "update_plan", "expired_ids",
           "subject_ids", "unembedded_batch", "lane_texts"]


def lane_texts(memory: NewMemory | MemoryRecord) -> dict[str, str]:
    """The lanes that have text, with their text."""
    texts = {"content": memory.content, "context": memory.context,
             "intention": memory.intention}
    return {lane: text for lane, text in texts.items() if text is not None}


def earlier_result(state: MemoryState, new: NewMemory) -> StoreResult | None:
    """The first result of ``new``'s idempotency key; None for no key or a new one.

    :raise IdempotencyKeyReused: the key stored a memory from a different request.
    """
    if new.key is None or new.key not in state.keys:
        return None
    record = state.records[state.keys[new.key]]
    if record.key_fingerprint not in (None, new.fingerprint):
        raise IdempotencyKeyReused(new.key, record.id)
    return StoreResult(record.public(), list(record.key_evicted), list(record.key_warnings))


def check_keys(state: MemoryState, news: Sequence[NewMemory]) -> None:
    """Refuse a batch in which a key comes back with another request, whether stored
    earlier or earlier in the batch.

    :raise IdempotencyKeyReused: naming ``items[i]``.
    """
    seen: dict[str, str] = {}
    for i, new in enumerate(news):
        if new.key is None:
            continue
        try:
            earlier_result(state, new)
        except IdempotencyKeyReused as exc:
            raise item_error(exc, i) from None
        if seen.setdefault(new.key, new.fingerprint) != new.fingerprint:
            raise item_error(IdempotencyKeyReused(new.key, "an earlier item"), i)


def _evictions(state: MemoryState, subject: tuple[str, str] | None,
               settings: MemorySettings) -> list[str]:
    slots = state.slots
    owner = slots.subject_code(subject, create=False)
    plan = plan_eviction(
        Occupancy(total=slots.live, pool=slots.pool_size(owner) if owner != FREE else 0),
        scoping=settings.subject_scoping, has_subject=subject is not None,
        max_memories=settings.max_memories, max_per_subject=settings.max_per_subject)
    if plan.refused:
        raise MemoryCapacity(plan.pool, settings.max_memories, slots.live)
    if plan.count == 0:
        return []
    labels = slots.pool_labels(None if plan.pool == "all" else owner)
    order = least_valuable(slots.access[labels], slots.seq[labels], plan.count)
    return [str(slots.ids[int(label)]) for label in labels[order]]


def store_line(state: MemoryState, new: NewMemory, vectors: dict[str, np.ndarray] | None,
               settings: MemorySettings, now: str, *, pending: bool = False
               ) -> dict[str, Any]:
    """The ``store`` op that adds ``new`` (without vectors: not embedded; warned as an
    embedding failure unless ``pending``: embedded behind on purpose).

    :raise MemoryCapacity: at capacity with an empty pool to evict from.
    """
    evicted = _evictions(state, new.subject, settings)
    record = {
        "id": uuid.uuid4().hex, "seq": state.next_seq, "content": new.content,
        "category": new.category, "subject_type": new.subject[0] if new.subject else None,
        "subject_id": new.subject[1] if new.subject else None, "context": new.context,
        "intention": new.intention, "agent": new.agent, "source": new.source,
        "metadata": new.metadata, "created_at": now, "updated_at": now,
        "occurred_at": new.occurred_at or now, "last_accessed_at": None, "access_count": 0}
    entry: dict[str, Any] = {"op": "store", "record": record, "key": new.key}
    if new.key is not None:
        entry["key_fingerprint"] = new.fingerprint
    warnings = [] if vectors is not None or pending else [EmbeddingFailed.code]
    entry.update(evicted=evicted, warnings=warnings, vectors=vectors or {})
    return entry


def update_plan(record: MemoryRecord,
                fields: dict[str, Any]) -> tuple[dict[str, str], list[str]]:
    """``(lane texts to embed, lanes to drop)`` for changing ``fields`` of ``record``.

    An embedded memory re-embeds only the lanes whose text changed (and drops a lane whose
    text was cleared); one without vectors embeds every lane, so it ends up complete.
    """
    after = {lane: fields[lane] if lane in fields else record.lane_text(lane)
             for lane in LANES}
    if not record.embedded:
        return {lane: text for lane, text in after.items() if text is not None}, []
    to_embed = {lane: text for lane, text in after.items()
                if lane in fields and text is not None}
    return to_embed, [lane for lane in LANES if lane in fields and after[lane] is None]


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
