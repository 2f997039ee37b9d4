"""The lexical second hop: what the top hit's rarest words find, in three places of the results.

A question about a list ("What activities has Melanie done with her family?") is answered
by several memories; the first found names a rare word ("pottery", "kickboxing", "coconut
milk") that the others share and the question does not. So once a search has ranked
(``ranking.Ranking.rank``), it looks again with the top hit's rarest words:

1. **the words** (:func:`hop_words`): the terms of the top hit's content (``lexical.terms``)
   that the query lacks, said by at least 2 and at most 1% of the memories of the store
   (``HOP_SHARE``: a word that rare names a thing, not a topic; one the top hit alone says
   finds nothing else); the ``HOP_WORDS`` rarest (fewest memories, then alphabetical);
2. **the memories that say them** (each backend's ``ranking.HopFinder``): those words'
   postings, a few dozen memories at most, kept to the search's scope and filters (its
   subject, categories, occurred bounds and validity, with a content vector), scored as
   the search's other rows, with their BM25 for the two words beside the query's;
3. **a second ranking**: every row of the first, where a memory that says the words
   scores as the query with those words added would score it (its BM25 is the query's
   plus the words', ``recall.boost_content``, against the same best BM25), or its first
   score when that is higher (a neighbour's pull or a lender's score is kept);
4. **the merge** (:func:`hop_order`): the first ``HOP_KEEP`` (7) places are the first
   ranking's, untouched (R@1 and R@5 cannot move); the next ``IndexParams.hop_places``
   (3: places 8-10) are the best of the rest by reciprocal rank fusion of the two
   rankings (``1 / (HOP_K + rank)`` summed, ``HOP_K`` 10); then the first ranking's
   order goes on.

No model call and no second gather: the postings of two rare words and the rows they
name. A memory placed by the hop reads, as its score, the higher of its own and the best
score of the memories it was placed above (:func:`shown`): the results stay ordered by
score, and no place reads a score above the one before it. Measured in
``docs/recall.md`` (The levers, eighth round).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from .lexical import terms

__all__ = ["HOP_KEEP", "HOP_WORDS", "HOP_SHARE", "HOP_K", "hop_words", "rare_words", "pick",
           "hop_order", "shown", "rows_of"]

# The places the first ranking keeps; the hop's places follow them.
HOP_KEEP = 7
# How many of the top hit's words the hop looks with (3 measured the same as 2 on LoCoMo).
HOP_WORDS = 2
# A word said by at most this share of the store's memories (and by at least 2).
HOP_SHARE = 0.01
# Reciprocal rank fusion's constant: a small one, so the top of each ranking leads.
HOP_K = 10


def hop_words(indexed: Iterable[str], query: str,
              frequency: Callable[[list[str]], dict[str, int]], docs: int) -> list[str]:
    """The words the hop looks with, sorted (empty: none).

    :param indexed: the top hit's index terms (``lexical.term_counts``: its content's
        and, situated, its context's).
    :param query: the query's text (its terms are not looked for again).
    :param frequency: how many memories of the store say each of the terms given (a
        term none says may be left out).
    :param docs: how many memories the store's lexical index holds.
    """
    return pick(rare_words(indexed, frequency, docs), query)


def rare_words(indexed: Iterable[str], frequency: Callable[[list[str]], dict[str, int]],
               docs: int) -> list[tuple[int, str]]:
    """``(memories, word)`` of the top hit's terms in the rare band, rarest first: what
    :func:`hop_words` picks from, the query aside (so a store keeps it per memory
    between writes, ``LexicalIndex.between_writes``)."""
    if 2 > HOP_SHARE * docs:                # no word is in 2 memories and in at most 1%
        return []
    found = frequency(sorted(set(indexed)))
    return sorted((count, word) for word, count in found.items()
                  if 2 <= count <= HOP_SHARE * docs)


def pick(rare: list[tuple[int, str]], query: str) -> list[str]:
    """The ``HOP_WORDS`` rarest of ``rare`` (:func:`rare_words`) the query does not say,
    sorted."""
    if not rare:
        return []
    said = set(terms(query))
    return sorted([word for _, word in rare if word not in said][:HOP_WORDS])


def _places(rows: np.ndarray, among: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The place (1 first) of each of ``rows`` (indices) among the rows ``among`` ranked
    by ``scores``: one more than the rows that score higher (equal scores share a
    place), by one sort of their scores rather than a rank of every row."""
    ranked = np.sort(-scores[among])
    out: np.ndarray = 1 + np.searchsorted(ranked, -scores[rows], side="left")
    return out


def hop_order(order: np.ndarray, everyone: np.ndarray, found: np.ndarray,
              first: np.ndarray, second: np.ndarray, seq: np.ndarray,
              places: int) -> np.ndarray:
    """The merged order of the rows (indices), best first.

    :param order: the first ranking's best rows, best first (by ``first``, equal scores
        newer first), ``places`` more than the results it may give.
    :param everyone: every row that passes the threshold (in any order).
    :param found: the rows that say the hop's words and pass the threshold, whether in
        ``order`` or found by the hop alone; ``second`` their scores in the second
        ranking (every other row scores there as in the first).
    :param first: every row's score in the first ranking; ``seq`` its creation
        sequence (ties: newer first).
    :param places: how many places after ``HOP_KEEP`` the fusion fills.

    Only ``order``'s next ``places`` rows and the hop's finds can take those places:
    any other row follows one of the former in both rankings (the hop only lifts), so
    its fused rank is lower.
    """
    if places <= 0 or not len(found):
        return order
    lifted = first.copy()
    lifted[found] = np.maximum(first[found], second)
    wanted = np.zeros(len(first), dtype=bool)
    wanted[found] = True
    wanted[order[:HOP_KEEP]] = False
    wanted[order[HOP_KEEP:HOP_KEEP + places]] = True
    candidates = np.flatnonzero(wanted)
    if not len(candidates):
        return order
    in_first = _places(candidates, everyone, first)
    fused = 1.0 / (HOP_K + in_first) + 1.0 / (HOP_K + _places(candidates, everyone, lifted))
    # Equal fused ranks: the first ranking's order (its place, then newer first).
    pick = candidates[np.lexsort((-seq[candidates], in_first, -fused))[:places]]
    picked = np.zeros(len(first), dtype=bool)
    picked[pick] = True
    tail = order[HOP_KEEP:]
    return np.concatenate([order[:HOP_KEEP], pick, tail[~picked[tail]]]).astype(np.int64)


def shown(scores: Iterable[float] | np.ndarray) -> np.ndarray:
    """The scores of the merged order as the results read them: each the higher of its
    own and the best below it, so they never rise down the list; only a memory the hop
    placed above better ones reads more than its own (at most theirs)."""
    values = np.asarray(scores, dtype=np.float64)
    out: np.ndarray = np.maximum.accumulate(values[::-1])[::-1]
    return out


def rows_of(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The row of each of ``wanted`` among ``keys`` (-1: not a row)."""
    if not len(keys):
        return np.full(len(wanted), -1, dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    found = order[np.minimum(np.searchsorted(keys[order], wanted), len(keys) - 1)]
    return np.where(keys[found] == wanted, found, -1).astype(np.int64)
