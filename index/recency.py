"""Newer first among near-duplicates (issue 23, item 5): recall prefers what is current.

When an update was not recognised as one ("I live in Porto" ... "I live in Lisbon now"
kept side by side), both memories stay current and a search may rank the older first. A
small, general tie-break after the ranking: results about the same subject (general
memories, about no one, are left in place) whose content vectors are near-duplicates
(cosine >= :data:`NEAR_DUPLICATE`) and whose scores are near-tied (within :data:`TIE`:
the query does not tell them apart) form a group, and the group's places in the ranking
are given to its members newest first (by ``valid_from``, then creation order). A query
that names one of them ("project borealis ships in June" among "project
atlas/borealis/cirrus ships in ...") scores it clear of the others, and it keeps its
place. Other results keep their places; each result keeps its own score (so within such
a group a newer one may sit above a higher score). Kept apart from ``ranking.py`` so the
ranking's own changes merge cleanly; both backends call :func:`newer_first` on what
``Ranking.rank`` chose.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .ranking import Ranked

__all__ = ["NEAR_DUPLICATE", "TIE", "newer_first", "reorder"]

#: The content cosine from which two memories are taken to say one attribute's value
#: (all-MiniLM-L6-v2: Porto / Lisbon .84, "... Porto with Maria's husband" / Lisbon .76,
#: works as a nurse / as a teacher .79, at Amazon / at Google .79, son is 7 / turned 8
#: .90; a second dog Rex / Max .74 and likes tea / lives in Porto .48 stay apart). Only
#: the order of both-current memories changes: nothing is dropped.
NEAR_DUPLICATE = 0.75
#: The score difference within which two results count as tied (issue 23: the stale
#: "allergic to shellfish" .983 against the newer .933).
TIE = 0.06


def newer_first(vectors: Sequence[np.ndarray | None], owners: Sequence[Any],
                newness: Sequence[tuple[float, int]], scores: Sequence[float],
                bar: float = NEAR_DUPLICATE, tie: float = TIE) -> list[int]:
    """The order of results ``0..n-1`` (best first) with each near-duplicate group's
    places given to its members newest first.

    :param vectors: each result's unit content vector (None: not embedded, in no group).
    :param owners: each result's subject; only results about one subject are grouped
        (None: a general memory, about no one, never grouped: a conversation's or a
        team's general memories are not one person's changing facts, and reordering
        them by date cost LoCoMo's R@1 .384 -> .373).
    :param newness: ``(valid_from, seq)`` of each result: larger is newer.
    :param scores: each result's score (best first).
    """
    n = len(vectors)
    group = list(range(n))

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i
    present = [i for i in range(n) if vectors[i] is not None]
    if len(present) > 1:
        matrix = np.stack([np.asarray(vectors[i], dtype=np.float32) for i in present])
        sims = matrix @ matrix.T
        for a in range(len(present)):
            for b in range(a + 1, len(present)):
                i, j = present[a], present[b]
                if sims[a, b] >= bar and owners[i] is not None and \
                        owners[i] == owners[j] and abs(scores[i] - scores[j]) <= tie:
                    group[root(j)] = root(i)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(root(i), []).append(i)
    order = list(range(n))
    for places in members.values():
        if len(places) > 1:
            newest = sorted(places, key=lambda i: newness[i], reverse=True)
            for place, i in zip(places, newest, strict=True):
                order[place] = i
    return order


def reorder(ranked: Ranked, order: list[int]) -> Ranked:
    """``ranked`` in ``order`` (from :func:`newer_first`)."""
    if order == list(range(len(order))):
        return ranked
    return Ranked([ranked.keys[i] for i in order], [ranked.scores[i] for i in order],
                  [ranked.lanes[i] for i in order], ranked.fallback)
