"""The decisions that precede a write, the same on every backend.

A backend looks things up its own way (the in-memory state under the store's lock, rows
under the element's lock in SQL) and asks these functions what to do:

* **idempotency** (:func:`earlier_result`, :func:`check_keys`): a key seen before returns
  its first result when the request is the same (same fingerprint, ``records.py``), and
  is refused otherwise. A key stored before fingerprints existed has none and keeps its
  old meaning (any request returns the first result);
* **eviction** (:func:`evictions`): how many memories, from which pool, must give way
  before one more store (``policy.plan_eviction``), or the refusal;
* **update** (:func:`update_plan`): which lanes to re-embed and which to drop;
* **lane texts** (:func:`lane_texts`): what a memory's lanes embed, and what an erasure
  drops from the embedding cache with it (:func:`erased_texts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .backend import Memory, StoreResult
from .errors import IdempotencyKeyReused, MemoryCapacity
from .names import opening_word
from .policy import Occupancy, plan_eviction
from .recall import LANES
from .records import MemoryRecord
from .validation import NewMemory, item_error
from .settings import MemorySettings

__all__ = ["KeyedMemory", "earlier_result", "check_keys", "evictions", "update_plan",
           "lane_texts", "erased_texts"]


def lane_texts(memory: NewMemory | MemoryRecord) -> dict[str, str]:
    """The lanes that have text, with their text."""
    texts = {"content": memory.content, "context": memory.context,
             "intention": memory.intention}
    return {lane: text for lane, text in texts.items() if text is not None}


def erased_texts(content: str, context: str | None, intention: str | None,
                 history: Sequence[dict[str, Any]] | None) -> set[str]:
    """The texts of a deleted or forgotten memory that the embedding cache may hold: each
    lane's, every earlier version's content, and the word each content opens with (the
    store warms those names into the cache, ``core._warm_names``)."""
    contents = {content, *(str(v["content"]) for v in history or ()
                           if isinstance(v, dict) and isinstance(v.get("content"), str))}
    words = {word for text in contents if (word := opening_word(text)) is not None}
    return {text for text in (*contents, context, intention, *words) if text is not None}


@dataclass(frozen=True)
class KeyedMemory:
    """The memory an idempotency key created, as its first store returned it: the
    memory's public form now, the request's fingerprint (None: logged before fingerprints
    existed), and the evictions and warnings of that first store."""

    memory: Memory
    fingerprint: str | None
    evicted: Sequence[str]
    warnings: Sequence[str]


def earlier_result(found: KeyedMemory | None, new: NewMemory) -> StoreResult | None:
    """The first result of ``new``'s key (None: no key, or a key not seen before),
    ``found`` being what the backend holds under that key.

    :raise IdempotencyKeyReused: the key stored a memory from a different request.
    """
    if new.key is None or found is None:
        return None
    if found.fingerprint not in (None, new.fingerprint):
        raise IdempotencyKeyReused(new.key, found.memory["id"])
    return StoreResult(found.memory, list(found.evicted), list(found.warnings))


def check_keys(earlier: Callable[[NewMemory], StoreResult | None],
               news: Sequence[NewMemory]) -> None:
    """Refuse a batch in which a key comes back with another request, whether stored
    earlier (``earlier``: the backend's :func:`earlier_result` lookup) or earlier in the
    batch.

    :raise IdempotencyKeyReused: naming ``items[i]``.
    """
    seen: dict[str, str] = {}
    for i, new in enumerate(news):
        if new.key is None:
            continue
        try:
            earlier(new)
        except IdempotencyKeyReused as exc:
            raise item_error(exc, i) from None
        if seen.setdefault(new.key, new.fingerprint) != new.fingerprint:
            raise item_error(IdempotencyKeyReused(new.key, "an earlier item"), i)


def evictions(subject: tuple[str, str] | None, settings: MemorySettings, total: int,
              pool_size: Callable[[], int],
              victims: Callable[[bool, int], list[str]]) -> list[str]:
    """The ids to evict before one more store about ``subject`` (None: general), the
    element holding ``total`` memories (``policy.py`` has the rules).

    :param pool_size: counts the memories of the incoming memory's own pool (asked only
        when the plan needs it: a subject's own cap, or a full element).
    :param victims: ``(whole element?, count)`` -> the ids of the ``count`` least
        accessed, oldest memories of the element or of that pool, in eviction order.
    :raise MemoryCapacity: the pool that must give way is empty.
    """
    pool = 0
    if settings.subject_scoping and (subject is not None or total >= settings.max_memories):
        pool = pool_size()
    plan = plan_eviction(Occupancy(total=total, pool=pool),
                         scoping=settings.subject_scoping, has_subject=subject is not None,
                         max_memories=settings.max_memories,
                         max_per_subject=settings.max_per_subject)
    if plan.refused:
        raise MemoryCapacity(plan.pool, settings.max_memories, total)
    if plan.count == 0:
        return []
    return victims(plan.pool == "all", plan.count)


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
