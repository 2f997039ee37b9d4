"""A newer value under the threshold joins in its older value's place (issue 23, item 5).

When an update was not caught as one, both values stay current, and a newer statement
worded unlike the query ("Petplan put the premium up again so the dog's insured with
ManyPets now" for "Who is Horace's pet insurance with?") can score under the relevance
threshold (or past the limit) while the older, plainer one ("Horace's pet insurance is
with Petplan", .95) is the first result: the search then answers with the old value
alone. As a current memory inherits the relevance of the memories it superseded
(``lend.py``), a newer value of the single-valued attribute the query asks
(``recency.asked``) inherits the place and the score of its subject's older value among
the results: of two values a person gave, the newer is the one to believe, and
``recency.newer_first`` then puts it first.

Only when the query asks a single-valued attribute clearly (a second pet or language is
an addition), and only a memory that answers it best of the profile bank, about the same
subject, a fact or preference, told after the result it joins beside, itself a result
that answers the attribute best, and that says it holds now or tells the change
(``recency.CURRENT``, ``recency.CHANGE``: "... with ManyPets now", "switched to"):
joining from under the threshold claims more than reordering the results, and a visit
or a stay worded like a home ("spent the weekend in Dublin") says neither. Never a past,
a wish, an ending or an addition (``recency.yields``, ``recency.ADDITION``), nor a fact
about another person of the subject's (``recency.answering``).

The ranking hands over its best rows not chosen (``Ranked.under``, ``ranking.py``); each
backend reads their vectors and words as it reads the results' and calls
:func:`join_under` before ``recency.newer_first``. The
results keep the search's limit: a joined row pushes the last one out (:func:`cut`, after
the order).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .gathered import Ranked
from .recency import PROFILE_CATEGORIES, Asked, answering
from .told import ADDITION, CHANGE, CURRENT, yields

__all__ = ["cut", "join_under", "joined", "told_now"]


def join_under(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
               newness: Sequence[float], contents: Sequence[str | None],
               categories: Sequence[str | None], chosen: int,
               question: Asked | None) -> list[tuple[int, int]]:
    """The rows to join, as ``(row, beside)`` pairs: rows ``0..chosen-1`` are the
    results (best first), the rest the ranking's rows not chosen (best first); each
    joining row (of the rest) goes right after the result ``beside``, whose score it
    takes. Empty when the query asks no single-valued attribute."""
    if question is None or not question.single or len(vectors) <= chosen:
        return []
    rest = told_now(contents, categories, chosen)
    if not rest:
        return []
    # Only the results and the rows whose words may join are scored against the bank
    # (each row's answer is its own: the others' do not change it).
    _, best = answering([v if i < chosen or i in rest else None
                         for i, v in enumerate(vectors)], owners, contents, categories,
                        question)
    olds = [i for i in range(chosen) if best[i] and owners[i] is not None]
    if not olds:
        return []
    out: list[tuple[int, int]] = []
    for u in sorted(rest):
        if not best[u]:
            continue
        # Beside the first result of its subject it is newer than: its place.
        beside = next((c for c in olds if owners[c] == owners[u] and
                       newness[c] < newness[u]), None)
        if beside is not None:
            out.append((u, beside))
    return out


def told_now(contents: Sequence[str | None], categories: Sequence[str | None],
             chosen: int) -> frozenset[int]:
    """The rows not chosen (``chosen..``) whose words may make them a newer value: a fact
    or preference that says it holds now or tells the change, and no past, wish, ending
    or addition. Read first, from the words alone, so that a search whose rows not chosen
    say none of it reads no vector of theirs."""
    out = set()
    for u in range(chosen, len(contents)):
        said = contents[u] or ""
        if categories[u] in PROFILE_CATEGORIES and not yields(said) and \
                not ADDITION.search(said) and bool(CURRENT.search(said) or CHANGE.search(said)):
            out.add(u)
    return frozenset(out)


def joined(ranked: Ranked, joins: list[tuple[int, int]]) -> Ranked:
    """``ranked`` (its results, with ``ranked.under`` the rows not chosen) with each
    ``(row, beside)`` of ``joins`` placed right after ``beside`` at its score; past the
    search's limit until ``recency.newer_first`` has ordered them (then :func:`cut`)."""
    under = ranked.under
    if not joins or under is None:
        return ranked
    n = len(ranked.keys)
    keys, scores, lanes = list(ranked.keys), list(ranked.scores), list(ranked.lanes)
    # From the last place back, so each ``beside`` index still points at its result; of
    # one result's, the worst first, so the best ends up right after it.
    for row, beside in sorted(joins, reverse=True):
        k = row - n
        keys.insert(beside + 1, under.keys[k])
        scores.insert(beside + 1, ranked.scores[beside])
        lanes.insert(beside + 1, under.lanes[k])
    return Ranked(keys, scores, lanes, ranked.fallback)


def cut(ranked: Ranked, limit: int) -> Ranked:
    """``ranked``'s first ``limit`` results."""
    if len(ranked.keys) <= limit:
        return ranked
    return Ranked(ranked.keys[:limit], ranked.scores[:limit], ranked.lanes[:limit],
                  ranked.fallback)
