"""What the query itself finds clearly better, told after what answers the asked attribute
best, keeps its place ahead of it (``recency._answers_first``, issue 23): the bank's
reading of what a memory answers settles what the score leaves close, not what it tells
apart; an older result is passed all the same (of two values, the newer is believed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from index.recency import VALUES_TIE, _answers_first

PROFILE = settings.get_profile("triform-index")


def test_a_later_result_scored_clearly_above_every_answer_keeps_its_place() -> None:
    """"Who does Oona live with?": the flatmate .87 (answers "friends" best), told a week
    after the family's tallest .42 (answers "family", the attribute asked): the flatmate
    stays first."""
    owners = ["oona"] * 3
    order = _answers_first([0, 1, 2], owners, [False, True, False], [2.0, 1.0, 1.0],
                           scores=[0.87, 0.42, 0.41])
    assert order == [0, 1, 2]


def test_an_older_result_is_passed_however_far_above() -> None:
    """The newer value answers best, far below an older fact: it goes first (of two
    values a person gave, the newer is the one to believe)."""
    owners = ["oona"] * 3
    order = _answers_first([0, 1, 2], owners, [False, False, True], [1.0, 1.0, 2.0],
                           newest=True, scores=[0.87, 0.50, 0.44])
    assert order == [2, 0, 1]


def test_within_the_tie_what_answers_best_goes_first() -> None:
    """Within :data:`VALUES_TIE` the score does not tell them apart: the answer leads,
    the others keep their order after it."""
    owners = ["oona"] * 3
    order = _answers_first([0, 1, 2], owners, [False, False, True], [3.0, 3.0, 1.0],
                           scores=[0.60, 0.55, 0.60 - VALUES_TIE + 0.01])
    assert order == [2, 0, 1]


def test_only_the_later_results_clear_of_every_answer_stay_ahead() -> None:
    """Of two results above the answers, the one clear of the best answer stays ahead,
    the one within the tie goes after them; newest first among the answers."""
    owners = ["oona"] * 4
    order = _answers_first([0, 1, 2, 3], owners, [False, False, True, True],
                           [4.0, 4.0, 2.0, 3.0], newest=True,
                           scores=[0.90, 0.62, 0.60, 0.45])
    assert order == [0, 3, 2, 1]


@given(st.lists(st.tuples(st.booleans(), st.floats(0, 1), st.sampled_from("ab"),
                          st.integers(0, 5)), min_size=1, max_size=8))
@PROFILE
def test_the_order_is_a_permutation_within_each_subject(
        rows: list[tuple[bool, float, str, int]]) -> None:
    best = [b for b, _, _, _ in rows]
    scores = sorted((s for _, s, _, _ in rows), reverse=True)
    owners = [o for _, _, o, _ in rows]
    newness = [float(t) for _, _, _, t in rows]
    order = _answers_first(list(range(len(rows))), owners, best, newness, scores=scores)
    assert sorted(order) == list(range(len(rows)))
    assert [owners[i] for i in order] == owners
    # A result told after and scored clear of every answer of its subject is never put
    # after one; any other goes after them all.
    for o in set(owners):
        mine = [i for i in order if owners[i] == o]
        answers = [i for i in mine if best[i]]
        if not answers:
            continue
        top, told = max(scores[i] for i in answers), max(newness[i] for i in answers)
        for i in mine:
            if best[i]:
                continue
            ahead = scores[i] - top > VALUES_TIE and newness[i] > told
            assert all((mine.index(i) < mine.index(a)) is ahead for a in answers)
