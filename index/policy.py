"""Pure capacity and retention choices: which pool gives way, which rows, what has expired.

Capacity rules (checked before a store; nothing is written when the store is refused):

* **Scoping off.** One pool: every memory. When the element holds ``max_memories`` or
  more, the store evicts enough of the least-accessed, oldest memories to leave room for
  exactly one more. ``max_per_subject`` is not enforced (the sheet applies it only with
  scoping on).
* **Scoping on, subject memory.** The pool is that subject's own rows. First the subject's
  cap: at ``max_per_subject`` rows the subject's least-accessed oldest rows give way. Then
  the total cap: if the element is still at ``max_memories``, more of the *subject's* rows
  give way. One chatty person never evicts another person's memories or the general pool.
* **Scoping on, general memory.** The pool is the general rows (no subject); at
  ``max_memories`` the least-accessed oldest general rows give way.
* **Empty pool.** When the total cap is reached and the pool that must give way is empty
  (or too small: the cap was lowered below what other pools hold), the store is
  *refused* with ``MEMORY_CAPACITY`` (class conflict) and nothing is evicted. Evicting
  some other person's row, or the shared general pool, to admit a new subject would break
  the promise above; refusing is visible and fixable (raise ``max_memories``, delete or
  ``forget_subject``), a silent cross-pool eviction is neither.

"Least-accessed, oldest": ascending ``access_count``, ties broken by ascending creation
sequence. Retention: a memory whose category has a TTL expires once
``now - created_at >= ttl_days * 86400`` seconds; categories without a TTL never expire.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .records import CATEGORIES

__all__ = ["Occupancy", "EvictionPlan", "plan_eviction", "least_valuable", "expired_mask",
           "SECONDS_PER_DAY"]

SECONDS_PER_DAY = 86_400.0


@dataclass(frozen=True)
class Occupancy:
    """How full the element is, as seen by one incoming store.

    :param total: live memories in the element.
    :param pool: rows in the incoming memory's own pool (the subject's rows for a subject
        memory, the general rows for a general memory); ignored when scoping is off.
    """

    total: int
    pool: int


@dataclass(frozen=True)
class EvictionPlan:
    """What one store must evict first, or why it is refused.

    ``pool`` is ``"all"``, ``"subject"`` or ``"general"``: where the ``count`` victims come
    from. ``refused`` is set (and ``count`` is 0) when the pool cannot give enough room.
    """

    pool: str
    count: int
    refused: bool = False


def plan_eviction(occupancy: Occupancy, *, scoping: bool, has_subject: bool,
                  max_memories: int, max_per_subject: int) -> EvictionPlan:
    """Decide how many rows, from which pool, must give way before one more store.

    Pure: see the module docstring for the rules, including the empty-pool refusal.
    """
    total, pool_rows = occupancy.total, occupancy.pool
    if not scoping:
        return EvictionPlan("all", max(0, total - max_memories + 1))
    pool = "subject" if has_subject else "general"
    from_pool = 0
    if has_subject:
        from_pool = max(0, pool_rows - max_per_subject + 1)
    # Rows still needed to satisfy the total cap after the per-subject evictions.
    from_pool += max(0, (total - from_pool) - max_memories + 1)
    if from_pool > pool_rows:
        return EvictionPlan(pool, 0, refused=True)
    return EvictionPlan(pool, from_pool)


def least_valuable(access_counts: np.ndarray, seqs: np.ndarray, count: int) -> np.ndarray:
    """Indices of the ``count`` least-accessed, oldest rows, in eviction order.

    :param access_counts: one access count per candidate row.
    :param seqs: one creation sequence per candidate row (older = smaller).
    """
    n = len(seqs)
    count = min(max(count, 0), n)
    if count == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((np.asarray(seqs), np.asarray(access_counts)))
    return order[:count]


def expired_mask(created: np.ndarray, category_codes: np.ndarray,
                 retention: Mapping[str, float], now: float) -> np.ndarray:
    """A bool mask: which rows are at or past their category's TTL at ``now``.

    :param created: creation times (POSIX seconds), one per row.
    :param category_codes: per row, the index of its category in ``records.CATEGORIES``.
    :param retention: category -> TTL in days; categories missing never expire.
    """
    created = np.asarray(created, dtype=np.float64)
    if not retention or len(created) == 0:
        return np.zeros(len(created), dtype=bool)
    ttl_by_code = np.array([retention.get(c, np.inf) * SECONDS_PER_DAY for c in CATEGORIES],
                           dtype=np.float64)
    ttl = ttl_by_code[np.asarray(category_codes, dtype=np.int64)]
    return (now - created) >= ttl
