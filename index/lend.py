"""A current memory inherits the relevance of the memories it superseded.

When a fact is updated ("I moved to Lisbon" after "I live in Porto"), a question asked in
the old words ("Where does she live in Porto?", "Is he still vegetarian?") reaches the
old memory best; a default search hides that one, and the new memory, worded otherwise,
can rank below the person's unrelated memories. So in a default (current) search each
superseded memory in scope that passes the search's other filters (categories, occurred
bounds) lends its score to its heir: the current memory at the end of its
``superseded_by`` chain, of the same owner (a subject never lends to another). The
heir's score is the larger of its own and its predecessors'; the predecessor stays
hidden. A search ``as_of`` a time reads the same chains: the heir is the version that held
then, and every other version lends to it, the later ones too ("Is Maria having fish
again?" asked of the month she was vegetarian finds that version first: what a fact is
about does not change with its value, and the read-time preference for the value of the
time asked is the same at any time). ``include_superseded`` searches return every version
and lend nothing; a store without a superseded memory ranks as before.

Each backend gathers the :class:`Lenders` (the file store's ``search.py``, reading the
newest ended memories from the map ``ended.py`` keeps on every write; PostgreSQL's
``postgres/lenders.py``); ``ranking.Ranking`` scores them as it scores candidates and
applies :func:`lend`, before the neighbours are pulled and the scores calibrated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .gathered import Rows

__all__ = ["Lenders", "LEND_MAX", "lend"]

#: At most this many superseded memories of a search's scope lend (the newest): a
#: subject's updates are a few dozen; an unscoped search over a large store does not pay
#: for scoring every old fact of every subject.
LEND_MAX = 256


@dataclass
class Lenders:
    """The superseded memories that lend (``rows``, scored as candidates are, BM25
    included), the key of each one's heir (``heirs``, aligned with ``rows``), and the
    heirs' own rows (``heir_rows``: every heir passes the search's filters)."""

    rows: Rows
    heirs: np.ndarray
    heir_rows: Rows


def lend(keys: np.ndarray, scores: np.ndarray, lent: np.ndarray,
         heirs: np.ndarray) -> np.ndarray:
    """``scores`` (of the rows ``keys``) with each heir's raised to its lenders' best:
    ``lent[i]`` is the score of the lender whose heir is ``heirs[i]``. Heirs not among
    ``keys`` are skipped."""
    if not len(heirs):
        return scores
    order = np.argsort(keys, kind="stable")
    at = np.searchsorted(keys[order], heirs)
    found = at < len(keys)
    found[found] = keys[order][at[found]] == heirs[found]
    out = scores.copy()
    np.maximum.at(out, order[at[found]], lent[found])
    return out
