"""Pure eviction and retention choices (index/policy.py)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from index.policy import EvictionPlan, Occupancy, expired_mask, least_valuable, plan_eviction


def plan(total, pool, *, scoping=True, subject=True, cap=10, per=3):
    return plan_eviction(Occupancy(total, pool), scoping=scoping, has_subject=subject,
                         max_memories=cap, max_per_subject=per)


def test_scoping_off_evicts_from_everyone_at_the_cap_only():
    assert plan(9, 0, scoping=False) == EvictionPlan("all", 0)
    assert plan(10, 0, scoping=False) == EvictionPlan("all", 1)
    assert plan(14, 0, scoping=False) == EvictionPlan("all", 5)   # cap lowered: catch up
    assert plan(5, 5, scoping=False, per=1) == EvictionPlan("all", 0)  # no per-subject cap


def test_subject_cap_evicts_within_the_subject():
    assert plan(5, 3) == EvictionPlan("subject", 1)
    assert plan(5, 2) == EvictionPlan("subject", 0)


def test_total_cap_with_scoping_takes_from_the_own_pool():
    assert plan(10, 2) == EvictionPlan("subject", 1)
    assert plan(10, 3) == EvictionPlan("subject", 1)   # one eviction satisfies both caps
    assert plan(10, 4, subject=False) == EvictionPlan("general", 1)


def test_empty_pool_at_the_total_cap_is_refused():
    assert plan(10, 0) == EvictionPlan("subject", 0, refused=True)
    assert plan(10, 0, subject=False) == EvictionPlan("general", 0, refused=True)
    assert plan(12, 2).refused            # cap lowered below what others hold
    assert not plan(9, 0).refused         # below the cap a new subject is welcome


@settings(settings.get_profile("triform-index"))
@given(st.integers(0, 50), st.integers(0, 50), st.booleans(), st.booleans(),
       st.integers(1, 20), st.integers(1, 20))
def test_a_plan_either_restores_the_caps_or_refuses(total, pool, scoping, subject, cap, per):
    pool = min(pool, total)
    p = plan(total, pool, scoping=scoping, subject=subject, cap=cap, per=per)
    if p.refused:
        assert scoping and p.count == 0
        return
    # After evicting and storing one, the element is within its cap, and no more rows
    # were evicted than needed.
    assert total - p.count + 1 <= cap
    assert p.count == 0 or total - (p.count - 1) + 1 > cap or (
        scoping and subject and pool - (p.count - 1) + 1 > per)
    if scoping:
        assert p.count <= pool
        if subject:
            assert pool - p.count + 1 <= per


def test_least_valuable_is_least_accessed_then_oldest():
    access = np.array([5, 0, 0, 1, 0])
    seqs = np.array([1, 9, 4, 2, 7])
    assert least_valuable(access, seqs, 2).tolist() == [2, 4]
    assert least_valuable(access, seqs, 10).tolist() == [2, 4, 1, 3, 0]
    assert least_valuable(access, seqs, 0).tolist() == []


def test_expired_mask_by_category_ttl():
    day = 86_400.0
    created = np.array([0.0, 0.0, 5 * day, 0.0])
    cats = np.array([3, 0, 3, 4])    # context, fact, context, correction
    mask = expired_mask(created, cats, {"context": 2, "correction": 10}, now=6 * day)
    assert mask.tolist() == [True, False, False, False]
    assert expired_mask(created, cats, {}, now=1e12).tolist() == [False] * 4
