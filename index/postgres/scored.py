"""A candidate row of a PostgreSQL search, scored: read from a statement's row, turned
into ``gathered.Rows``, and the neighbours found among rows already read.

``search.py`` asks for rows of ``id, seq, occurred_ts, pool``, its scored columns
(``columns.py``) and ``subject_type, subject_id``; this module is what every one of its
statements shares about reading them back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..gathered import NEIGHBOUR_SCAN, Rows
from ..recall import LANES
from .columns import SCORED

__all__ = ["Scored", "adjacent", "as_rows", "scored", "HITS", "LOOKED", "STEPS"]

OWNER = 4 + SCORED
"""Where a row's ``subject_type, subject_id`` start, after its scored columns."""
HITS = OWNER + 2
"""A neighbours statement's column of the hits a row neighbours (``search.py``)."""
LOOKED = HITS + 1
"""A neighbours statement's column of every hit looked for."""
STEPS = LOOKED + 1
"""A neighbours statement's column of the row's step from each hit of ``HITS``."""


@dataclass
class Scored:
    """One candidate's exact similarities: per lane (``present``: the lane takes part),
    BM25, whether it is about a name the query names (``names.py``), whether its content
    is the query's text (``Ranking.exact``), its content's cosine with the query's name
    (``Ranking.name``), whether it says what the query asks for (``Ranking.asks``), its
    pool in the search and its owner (``(subject_type, subject_id)``, both None for a
    general memory)."""

    seq: int
    occurred: float
    pool: int
    sims: list[float]
    present: list[bool]
    bm25: float
    named: bool
    same: bool
    name_sim: float
    answers: bool
    owner: tuple[str | None, str | None]


def scored(r: Sequence[Any]) -> Scored:
    """A row of ``id, seq, occurred_ts, pool``, the scored columns
    (``columns.scored_columns``) and ``subject_type, subject_id``."""
    sims = [0.0, 0.0, 0.0]
    present = [False, False, False]
    for j in range(len(LANES)):
        value = r[4 + j]
        if value is not None and np.isfinite(value):
            sims[j], present[j] = float(value), True
    return Scored(seq=int(r[1]), occurred=float(r[2]), pool=int(r[3] or 0), sims=sims,
                   present=present, bm25=float(r[7] or 0.0), named=bool(r[8]),
                   same=bool(r[9]), name_sim=float(r[10] or 0.0), answers=bool(r[11]),
                   owner=(r[OWNER], r[OWNER + 1]))


def as_rows(scored: list[tuple[str, Scored]]) -> Rows:
    """Scored rows as ``gathered.Rows`` (keys: ids)."""
    return Rows(keys=np.array([memory_id for memory_id, _ in scored], dtype=str),
                seq=np.array([row.seq for _, row in scored], dtype=np.int64),
                occurred=np.array([row.occurred for _, row in scored], dtype=np.float64),
                sims=np.array([row.sims for _, row in scored],
                              dtype=np.float64).reshape(-1, len(LANES)),
                present=np.array([row.present for _, row in scored],
                                 dtype=bool).reshape(-1, len(LANES)),
                bm25=np.array([row.bm25 for _, row in scored], dtype=np.float64),
                named=np.array([row.named for _, row in scored], dtype=bool),
                same=np.array([row.same for _, row in scored], dtype=bool),
                name_sim=np.array([row.name_sim for _, row in scored], dtype=np.float64),
                answers=np.array([row.answers for _, row in scored], dtype=bool))


def adjacent(rows: dict[str, Scored], hits: list[str], gap: float, reach: int = 1
             ) -> list[tuple[str, str, int]]:
    """``(hit, neighbour, step)`` triples among ``rows``, the rows of the pools scored
    whole, which hold every row of each hit's pool that passes the search's filters: the
    same rule as ``neighbours.send`` (the same owner, a content vector, within ``gap``
    seconds, the ``reach`` nearest each side), looked up by sequence number (at most
    ``2 * NEIGHBOUR_SCAN`` lookups per hit)."""
    by_seq = {row.seq: memory_id for memory_id, row in rows.items()}
    pairs = []
    for hit in hits:
        h = rows[hit]
        for step in (-1, 1):
            found = 0
            for seq in range(h.seq + step, h.seq + step * (NEIGHBOUR_SCAN + 1), step):
                memory_id = by_seq.get(seq)
                if memory_id is None:
                    continue
                row = rows[memory_id]
                if (row.owner == h.owner and row.present[0]
                        and abs(row.occurred - h.occurred) <= gap):
                    found += 1
                    pairs.append((hit, memory_id, found))
                    if found == reach:
                        break
    return pairs
