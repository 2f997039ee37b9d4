"""Pure recall scoring (index/recall.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.recall import (
    DEFAULT_WEIGHTS,
    blend,
    normalize_weights,
    rank,
    text_similarity,
    token_set,
    unit,
    weight_vector,
)

W = weight_vector(normalize_weights(DEFAULT_WEIGHTS))


def test_all_lanes_present_is_the_weighted_sum():
    score = blend(np.array([[1.0, 0.5, 0.0]]), np.ones((1, 3), bool), W)[0]
    assert score == pytest.approx(0.6 * 1.0 + 0.25 * 0.5 + 0.15 * 0.0)


def test_absent_lane_drops_out_and_weights_renormalize():
    # A memory without context is scored on content and intention only, not penalised.
    present = np.array([[True, False, True]])
    score = blend(np.array([[0.8, 0.0, 0.4]]), present, W)[0]
    assert score == pytest.approx((0.6 * 0.8 + 0.15 * 0.4) / (0.6 + 0.15))
    only_content = blend(np.array([[0.7, 0.9, 0.9]]), np.array([[True, False, False]]), W)
    assert only_content[0] == pytest.approx(0.7)


@settings(max_examples=200)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [float("nan"), float("inf"), -float("inf"), 0.0, 1.0, -0.0]), max_size=12))
def test_unit_is_clip_of_nan_to_num(values):
    """A similarity that is not a number counts 0, an infinite one is clamped: the two
    ufunc calls give what ``np.clip(np.nan_to_num(...), 0, 1)`` gives, bit for bit."""
    want = np.clip(np.nan_to_num(np.array(values, dtype=np.float64)), 0.0, 1.0)
    assert np.array_equal(unit(values), want)


def test_negative_similarity_is_clamped_and_zero_weight_lanes_score_zero():
    assert blend(np.array([[-0.5, 0, 0]]), np.array([[True, False, False]]), W)[0] == 0.0
    w = np.array([0.0, 1.0, 0.0])
    assert blend(np.array([[0.9, 0, 0]]), np.array([[True, False, False]]), w)[0] == 0.0


def test_text_similarity_is_the_binary_cosine():
    a, b = token_set("Alice likes green tea"), token_set("alice LIKES coffee")
    assert text_similarity(a, b) == pytest.approx(2 / np.sqrt(4 * 3))
    assert text_similarity(a, a) == 1.0
    assert text_similarity(a, frozenset()) == 0.0
    assert token_set(None) == frozenset()


def test_rank_threshold_limit_and_ties():
    scores = [0.2, 0.9, 0.5, 0.9, 0.39999999]
    assert rank(scores, 0.4, 10) == [1, 3, 2, 4]     # float slack keeps 0.39999999
    assert rank(scores, 0.4, 2, tiebreak=[0, 5, 0, 9, 0]) == [3, 1]   # newer first on a tie
    assert rank(scores, 0.0, 10)[-1] == 0             # threshold 0 returns everything
    assert rank([0.99999994, 0.98], 1.0, 5) == [0]    # threshold 1: exact match only
    assert rank([], 0.0, 5) == []


@settings(settings.get_profile("triform-index"))
@given(st.dictionaries(st.sampled_from(["content", "context", "intention"]),
                       st.floats(0, 1e6, allow_nan=False), min_size=1)
       .filter(lambda d: sum(d.values()) > 0))
def test_weights_normalize_to_one(weights):
    normalized = normalize_weights(weights)
    assert sum(normalized.values()) == pytest.approx(1.0)
    assert all(v >= 0 for v in normalized.values())


@settings(settings.get_profile("triform-index"))
@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(-1, 1), st.floats(-1, 1),
                          st.booleans(), st.booleans(), st.booleans()), min_size=1, max_size=20))
def test_blend_is_within_bounds(rows):
    sims = np.array([r[:3] for r in rows])
    present = np.array([r[3:] for r in rows])
    scores = blend(sims, present, W)
    assert np.all(scores >= 0) and np.all(scores <= 1 + 1e-12)
    assert np.all(scores[~present.any(axis=1)] == 0)
