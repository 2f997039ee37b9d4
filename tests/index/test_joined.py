"""Joining and lifting newer values beside their older value (``index/answers_under.py``):
what the reordering keeps, and which words may make a memory a newer value. No model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.answers_under import join_under, joined, told_now
from index.gathered import Ranked
from index.profile_bank import ATTRIBUTES
from index.recency import Asked
from index.told import tells_event


def _ranked(n: int, under: int) -> Ranked:
    below = Ranked([f"u{k}" for k in range(under)], [0.1] * under,
                   [{"content": 0.1}] * under, None) if under else None
    return Ranked([f"r{k}" for k in range(n)], [1.0 - k / 10 for k in range(n)],
                  [{"content": 1.0 - k / 10} for k in range(n)], None,
                  below=lambda: below)


def test_a_result_is_lifted_and_a_row_not_chosen_joins_right_before_their_older_value() -> None:
    ranked = _ranked(4, 2)
    out = joined(ranked, [(3, 0), (5, 1)])          # result r3 beside r0; u1 beside r1
    assert out.keys == ["r3", "r0", "u1", "r1", "r2"]
    assert out.scores == [1.0, 1.0, 0.9, 0.9, 0.8]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 8), st.integers(1, 5), st.data())
def test_joined_keeps_each_result_once_and_each_moved_row_at_its_older_values_score(
        n: int, under: int, data: st.DataObject) -> None:
    ranked = _ranked(n, under)
    pairs = []
    for row in data.draw(st.sets(st.integers(1, n + under - 1), max_size=4)):
        pairs.append((row, data.draw(st.integers(0, min(row, n) - 1))))
    # The backend's pairs: a beside is never itself moved.
    pairs = [(r, b) for r, b in pairs if b not in {r2 for r2, _ in pairs}]
    out = joined(ranked, pairs)
    added = [f"u{r - n}" for r, _ in pairs if r >= n]
    assert sorted(out.keys) == sorted(ranked.keys + added)
    at = {k: i for i, k in enumerate(out.keys)}
    for row, beside in pairs:
        key = ranked.keys[row] if row < n else f"u{row - n}"
        assert out.scores[at[key]] == ranked.scores[beside]
        assert at[key] < at[ranked.keys[beside]]
    # The results not moved keep their order.
    moved = {ranked.keys[r] for r, _ in pairs if r < n}
    kept = [k for k in out.keys if k in set(ranked.keys) - moved]
    assert kept == [k for k in ranked.keys if k not in moved]


@pytest.mark.parametrize(("text", "event"), [
    ("Cosmo spent a lovely week in Lisbon eating pastries.", True),      # a visit
    ("Cosmo visited their aunt in Leeds.", True),
    ("Oona rented a Volvo estate for the trip to Scotland.", True),
    ("The flat in Lisbon gets so much more light than the old place did.", False),
    ("Cosmo has moved to Leeds.", False),                                # a perfect
    ("Cosmo is married to Ana.", False),                                 # a passive
    ("Cosmo got engaged to Ana.", False),
    ("Oona's Volvo estate swallows the kids' bikes with room to spare.", False),
    ("Cosmo needs a new shed.", False),
])
def test_a_past_event_is_read_by_its_verb(text: str, event: bool) -> None:
    assert tells_event(text) is event


def test_words_that_may_make_a_newer_value() -> None:
    texts = [None, "The flat in Lisbon gets so much more light.",     # a state: may
             "Cosmo spent a week in Lisbon.",                        # an event: may not
             "Cosmo spent a week in Lisbon and lives there now.",    # said as now: may
             "Cosmo would love to live in Lisbon one day.",          # a wish: may not
             "Cosmo also has a flat in Lisbon.",                     # an addition: may not
             "The flat in Lisbon gets so much more light."]          # a turn: may not
    categories = ["fact"] * 6 + ["context"]
    assert told_now(texts, categories, 1) == {1, 3}


def _bank_vector(attribute: str, weight: float = 1.0) -> np.ndarray:
    """A unit vector on the first question of ``attribute`` in a bank of one dimension
    per question (the identity), a little of every other question beside it."""
    vector = np.full(len(_QUESTIONS), 0.05)
    vector[_FIRST[attribute]] = weight
    return vector / np.linalg.norm(vector)


_NAMES = [a.name for a in ATTRIBUTES]
_QUESTIONS = np.eye(sum(len(a.questions) for a in ATTRIBUTES), dtype=np.float32)
_FIRST = dict(zip(_NAMES, np.cumsum([0] + [len(a.questions) for a in ATTRIBUTES[:-1]]),
                  strict=True))
_GYM = Asked(_NAMES.index("gym"), _QUESTIONS, frozenset())


def test_a_newer_value_is_lifted_to_the_subjects_first_fact_and_a_past_event_is_not() -> None:
    # The first fact answers the bank's "partner" question best (its words misread), the
    # query found it first all the same: a newer value said as now is lifted to it.
    texts = ["Oona is a member of Fitness First.",
             "Oona goes camping every weekend.",
             "Oona's legs ache since Oona joined the bouldering hub.",
             "Oona tried a spin class at the leisure centre."]          # not chosen
    vectors = [_bank_vector("partner"), _bank_vector("hobby"), _bank_vector("gym"),
               _bank_vector("gym")]
    pairs = join_under(vectors, ["oona"] * 4, [1.0, 1.0, 2.0, 3.0], texts, ["fact"] * 4,
                       3, _GYM)
    assert pairs == [(2, 0)]
    # Another subject's newer value joins no one's.
    assert join_under(vectors, ["oona", "oona", "cosmo", "cosmo"], [1.0, 1.0, 2.0, 3.0],
                      texts, ["fact"] * 4, 3, _GYM) == []
