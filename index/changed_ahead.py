"""A newer fact told as a change goes ahead of the older value it ties with (issue 23,
item 5).

When an update was not caught as one, both values stay current; ``recency.newer_first``
puts the newer first where both answer the attribute the query asks (``recency.answering``:
the profile bank). A newer statement told as an event or in other words often answers no
attribute of the bank clearly: the person's name and what else it says weigh on its
vector more than its value ("Since the office moved out to Slough Bartholomew catches the
train every morning": 1.0 deviation up on "How do they get to work?", where the older
"cycles to work along the canal" is 2.0). The query itself scores the two alike (.58,
.60): it does not tell them apart, and the newer's own words say it is a value of now
(``told.says_now``: a change, a word of now, a value begun). So, of a single-valued
attribute asked (faintly too: ``recency.Asked.faint``), a newer fact or preference of a
subject told so goes ahead of the subject's older values of it (facts that answer it
clearly) that rank above it within :data:`TIE` (``recency.TIE``: a tie on the query's
score, where the bank's reading of the newer is left out).

Never a past, a wish, an ending or an addition (``told.yields``, ``told.ADDITION``), nor a
fact about another person of the subject's (``told.told_of`` names one the query does
not): a second pet, "also", a sister's new job keep their places. A many-valued
attribute's newer value is an addition unless it says it holds now
(``recency._current_ahead`` reads that). Passing an older value that answers the question
best, it does too, so that the last step (``recency._answers_first``) keeps it ahead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .theirs import Theirs
from .told import ADDITION, says_now, told_of, yields

__all__ = ["TIE", "changed_ahead", "told_as_change"]

#: The score difference within which the query does not tell an older value and a newer
#: statement of change apart (``recency.TIE``: the stale "allergic to shellfish" .983
#: against the newer .933; the commute told by an office's move .578 against .600).
TIE = 0.06


def changed_ahead(order: list[int], owners: Sequence[Any], newness: Sequence[float],
                  vectors: Sequence[np.ndarray | None], texts: Sequence[str | None],
                  facts: Sequence[bool], values: Sequence[bool], best: list[bool],
                  query: np.ndarray | None, relations: frozenset[str],
                  tie: float = TIE) -> list[int]:
    """``order`` with each newer fact or preference (``facts``) told as a change
    (:func:`told_as_change`) moved ahead of its subject's older values (``values``: facts
    answering the asked single-valued attribute clearly) whose content cosine with
    ``query`` (the query's unit content vector) is above its own by ``tie`` at most; the
    subject's results it passes keep their order, nothing moves across
    subjects or general memories. ``relations``: the people of the subject's the query
    asks about (a fact about another is not moved). ``best`` is updated in place: tied with
    an older value that answers the question best, above or below it, it does too."""
    if query is None:
        return order
    out = list(order)
    near = _Cosines(vectors, query)
    for c in order:
        if not facts[c] or owners[c] is None or vectors[c] is None:
            continue
        # Its words are read only when an older value of its subject ties with it.
        olders = [i for i in order if owners[i] == owners[c] and values[i] and facts[i] and
                  newness[i] < newness[c] and near(i) - near(c) <= tie]
        if not olders or not told_as_change(texts[c], relations):
            continue
        best[c] = best[c] or any(best[i] for i in olders)
        theirs = Theirs.of(out, owners, c)
        passed = [k for k in range(theirs.at) if theirs.mine[k] in olders]
        if passed:
            theirs.move(passed[0])
    return out


class _Cosines:
    """Each row's content cosine with the query, read the first time it is asked (-2: no
    vector of the query's size)."""

    def __init__(self, vectors: Sequence[np.ndarray | None], query: np.ndarray):
        self._vectors, self._query, self._known = vectors, query, dict[int, float]()

    def __call__(self, i: int) -> float:
        if i not in self._known:
            v = self._vectors[i]
            self._known[i] = -2.0 if v is None or np.shape(v) != np.shape(self._query) \
                else float(np.dot(np.asarray(v, dtype=np.float32), self._query))
        return self._known[i]


def told_as_change(text: str | None, relations: frozenset[str]) -> bool:
    """Whether a memory tells a value of now of the subject's own: a change, a word of now
    or a value begun, and no past, wish, ending or addition, nor another person's fact."""
    said = text or ""
    return says_now(said) and not yields(said) and not ADDITION.search(said) and \
        told_of(said) <= relations
