"""Neighbour turns (ranking.py, recall.py).

A memory stored just before or after a strong hit, by the same owner and close in time
(the turns around an answer in one conversation), is pulled toward the hit's score
(``IndexParams.neighbour_weight``, .5 by default); the two after it on each side less
(``IndexParams.neighbour_far_weight``, .3), on either backend.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, IndexParams, MemorySettings
from index.recall import boost_neighbours

PROFILE = settings.get_profile("triform-index")
EVERYTHING = MemorySettings(relevance_threshold=0.0)
SCOPED = MemorySettings(relevance_threshold=0.0, subject_scoping=True)
QUESTION = "Which pottery workshop did Melanie join?"
HIT = "Melanie: I finally joined the pottery workshop downtown"
ANSWER = "Zed: brilliant, send pictures of the bowls"
FILLER = ("Jon: the bakery opens at six", "Gina: my dog loves the beach",
          "Jon: traffic was terrible this morning", "Gina: rain again tomorrow",
          "Jon: I bought a new bike helmet", "Gina: the train was late")


@settings(PROFILE, max_examples=80)
@given(scores=st.lists(st.floats(0, 1), min_size=2, max_size=12),
       pairs=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=8),
       weight=st.floats(0, 1))
def test_a_neighbour_is_pulled_toward_its_hit_never_past_it(scores, pairs, weight):
    s = np.array(scores)
    pairs = [(h % len(s), n % len(s)) for h, n in pairs]
    hits = np.array([h for h, _ in pairs], dtype=np.int64)
    targets = np.array([n for _, n in pairs], dtype=np.int64)
    out = boost_neighbours(s, hits, targets, weight)
    assert np.all(out >= s - 1e-12) and np.all(out <= 1.0 + 1e-12)
    untouched = np.setdiff1d(np.arange(len(s)), targets)
    assert np.array_equal(out[untouched], s[untouched])
    for h, n in pairs:
        assert out[n] >= s[n] + weight * max(s[h] - s[n], 0.0) - 1e-12
        assert out[n] <= max(s[n], max(s[h2] for h2, n2 in pairs if n2 == n)) + 1e-12


def _conversation(make_store, clock, directory, weight: float, *, gap: float = 0.0,
                  subject=None):
    # The name boost off: QUESTION names Melanie, and the boost lifts the calibration's
    # background over the answer's score, where the map is no longer one straight line
    # through the three scores the pull's arithmetic is read on.
    store = make_store(index_params=IndexParams(neighbour_weight=weight, name_weight=0.0),
                       embedder=HashingEmbedder(256), directory=directory)
    settings = SCOPED if subject else EVERYTHING
    who = {"subject_type": subject[0], "subject_id": subject[1]} if subject else {}
    for text in FILLER[:3]:
        store.store(content=text, category="context", settings=settings, **who)
    hit = store.store(content=HIT, category="context", settings=settings, **who).memory
    if gap:
        clock.advance(gap)                          # the conversation paused
    answer = store.store(content=ANSWER, category="context", settings=settings,
                         **who).memory
    for text in FILLER[3:]:
        store.store(content=text, category="context", settings=settings, **who)
    return store, hit, answer


def _rank(found, memory) -> int:
    return [r["memory"]["content"] for r in found].index(memory["content"])


def test_the_turn_after_a_hit_comes_up_with_it(make_store, clock, tmp_path):
    off, hit, answer = _conversation(make_store, clock, tmp_path / "off", 0.0)
    plain = off.search(query=QUESTION, settings=EVERYTHING).results
    on, hit, answer = _conversation(make_store, clock, tmp_path / "on", 0.5)
    found = on.search(query=QUESTION, settings=EVERYTHING).results
    assert found[0]["memory"]["id"] == hit["id"]
    assert _rank(found, answer) == 1
    assert _rank(plain, answer) > 1
    score = {r["memory"]["content"]: r["score"] for r in found}
    before = {r["memory"]["content"]: r["score"] for r in plain}
    assert score[ANSWER] == pytest.approx(
        before[ANSWER] + 0.5 * (score[HIT] - before[ANSWER]), abs=1e-6)


def test_a_turn_long_after_the_hit_is_not_its_neighbour(make_store, clock, tmp_path):
    store, hit, answer = _conversation(make_store, clock, tmp_path / "m", 0.5,
                                       gap=2 * 3600.0)
    found = store.search(query=QUESTION, settings=EVERYTHING).results
    assert found[0]["memory"]["id"] == hit["id"]
    assert _rank(found, answer) > 1


def test_neighbours_stay_inside_the_owner_and_the_filters(make_store):
    store = make_store(index_params=IndexParams(neighbour_weight=0.9),
                       embedder=HashingEmbedder(256))
    ann = {"subject_type": "guest", "subject_id": "ann"}
    bob = {"subject_type": "guest", "subject_id": "bob"}
    for text in FILLER:
        store.store(content=text, category="context", settings=SCOPED, **ann)
    hit = store.store(content=HIT, category="context", settings=SCOPED, **ann).memory
    other = store.store(content=ANSWER, category="context", settings=SCOPED, **bob).memory
    fact = store.store(content="Ann: the workshop is on Fridays", category="fact",
                       settings=SCOPED, **ann).memory
    found = store.search(query=QUESTION, settings=SCOPED, **ann).results
    ids = [r["memory"]["id"] for r in found]
    assert ids[0] == hit["id"] and other["id"] not in ids
    # Bob's turn between them is skipped: Ann's next memory is her neighbour.
    assert ids[1] == fact["id"]
    only = store.search(query=QUESTION, settings=SCOPED, categories=["context"],
                        **ann).results
    assert fact["id"] not in [r["memory"]["id"] for r in only]


def test_the_defaults_pull_neighbours_halfway():
    params = IndexParams()
    assert params.neighbour_weight == 0.5 and params.neighbour_hits == 5
    assert params.neighbour_far_weight == 0.3 and params.neighbour_reach == 3
    assert IndexParams(neighbour_far_weight=0.0).neighbour_reach == 1


def _turns(make_store, directory, far: float, between=None):
    """Six unrelated turns, the hit, then six more (``between``: another owner's turn
    stored right after the hit); the name boost off as in :func:`_conversation`."""
    store = make_store(index_params=IndexParams(neighbour_far_weight=far, name_weight=0.0),
                       embedder=HashingEmbedder(256), directory=directory)
    ann = {"subject_type": "guest", "subject_id": "ann"}
    for text in FILLER:
        store.store(content=text, category="context", settings=SCOPED, **ann)
    store.store(content=HIT, category="context", settings=SCOPED, **ann)
    if between:
        store.store(content=between, category="context", settings=SCOPED,
                    subject_type="guest", subject_id="bob")
    for text in FILLER:
        store.store(content=text.replace(":", " again:"), category="context",
                    settings=SCOPED, **ann)
    found = store.search(query=QUESTION, settings=SCOPED, limit=20, **ann).results
    return {r["memory"]["content"]: r["score"] for r in found}


def test_the_turns_two_and_three_away_are_pulled_less_and_no_farther(make_store, tmp_path):
    """``neighbour_far_weight``: on each side of the hit the nearest turn is pulled
    halfway, the next two .3 of the way, the fourth not at all; another owner's turn
    between them is no step (the unrelated turns score 0 here, so each pull reads
    plainly)."""
    near = _turns(make_store, tmp_path / "near", 0.0)
    hit = near[HIT]
    assert hit > 0.5
    for scores in (_turns(make_store, tmp_path / "far", 0.3),
                   _turns(make_store, tmp_path / "bob", 0.3, between=ANSWER)):
        assert scores[HIT] == pytest.approx(hit, abs=1e-6)
        # Before the hit, nearest first; after it, likewise.
        before = [scores[text] for text in reversed(FILLER)]
        after = [scores[text.replace(":", " again:")] for text in FILLER]
        for side in (before, after):
            assert side[0] == pytest.approx(0.5 * hit, abs=1e-6)
            assert side[1] == pytest.approx(0.3 * hit, abs=1e-6)
            assert side[2] == pytest.approx(0.3 * hit, abs=1e-6)
            assert side[3:] == pytest.approx([0.0] * 3, abs=1e-6)
        assert ANSWER not in scores
    # Off: the hit and its nearest turn each side alone score.
    assert sorted(v for v in near.values() if v > 1e-6) == \
        pytest.approx([0.5 * hit, 0.5 * hit, hit], abs=1e-6)
