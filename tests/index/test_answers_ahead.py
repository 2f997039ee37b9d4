"""What the query itself finds clearly better keeps its place ahead of what answers the
asked attribute best (``recency._answers_first``, issue 23): the bank's reading of what a
memory answers settles what the score leaves close, not what it tells apart."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from index.recency import VALUES_TIE, _answers_first

PROFILE = settings.get_profile("triform-index")


def test_a_result_scored_clearly_above_every_answer_keeps_its_place() -> None:
    """"Who does Oona live with?": the flatmate .87 (answers "friends" best), the family's
    tallest .42 (answers "family", the attribute asked): the flatmate stays first."""
    owners = ["oona"] * 3
    order = _answers_first([0, 1, 2], owners, [False, True, False], [2.0, 1.0, 1.0],
                           scores=[0.87, 0.42, 0.41])
    assert order == [0, 1, 2]


def test_within_the_tie_what_answers_best_goes_first() -> None:
    """Within :data:`VALUES_TIE` the score does not tell them apart: the answer leads,
    the others keep their order after it."""
    owners = ["oona"] * 3
    order = _answers_first([0, 1, 2], owners, [False, False, True], [1.0, 1.0, 1.0],
                           scores=[0.60, 0.55, 0.60 - VALUES_TIE + 0.01])
    assert order == [2, 0, 1]


def test_only_the_results_clear_of_every_answer_stay_ahead() -> None:
    """Of two results above the answers, the one clear of the best answer stays ahead,
    the one within the tie goes after them; newest first among the answers."""
    owners = ["oona"] * 4
    order = _answers_first([0, 1, 2, 3], owners, [False, False, True, True],
                           [1.0, 1.0, 2.0, 3.0], newest=True,
                           scores=[0.90, 0.62, 0.60, 0.45])
    assert order == [0, 3, 2, 1]


@given(st.lists(st.tuples(st.booleans(), st.floats(0, 1), st.sampled_from("ab")),
                min_size=1, max_size=8))
@PROFILE
def test_the_order_is_a_permutation_within_each_subject(
        rows: list[tuple[bool, float, str]]) -> None:
    best = [b for b, _, _ in rows]
    scores = sorted((s for _, s, _ in rows), reverse=True)
    owners = [o for _, _, o in rows]
    order = _answers_first(list(range(len(rows))), owners, best,
                           [float(i) for i in range(len(rows))], scores=scores)
    assert sorted(order) == list(range(len(rows)))
    assert [owners[i] for i in order] == owners
    # A result clear of every answer of its subject is never put after one.
    for o in set(owners):
        mine = [i for i in order if owners[i] == o]
        answers = [i for i in mine if best[i]]
        if answers:
            top = max(scores[i] for i in answers)
            for i in mine:
                if not best[i] and scores[i] - top > VALUES_TIE:
                    assert all(mine.index(i) < mine.index(a) for a in answers)
