"""The neighbours of a PostgreSQL search's hits, in one statement (``search.py``).

A hit's neighbours are, as in the file store's ``search._adjacent``, the ``reach``
memories stored nearest before it and after it by the same owner (its subject, or the
general pool) that occurred within ``neighbour_gap`` seconds of it, have a content vector
and pass the search's category and time filters, looked for among the
``NEIGHBOUR_SCAN`` sequence numbers on either side, each with its step (1: the nearest
on its side). Each side is one bounded backward or forward scan of the ``(element, seq)``
index per hit, so the statement reads at most ``2 * NEIGHBOUR_SCAN`` rows per hit,
however large the element.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from ..query import SearchQuery
from ..gathered import NEIGHBOUR_SCAN
from .rows import Table, filters

__all__ = ["send"]

Sql = tuple[str, tuple[Any, ...]]


def send(cur: psycopg.Cursor[Any], t: Table, request: SearchQuery, gap: float,
         columns: Sql, hits: list[str], seqs: Sequence[int] = (), reach: int = 1) -> None:
    """Ask for the ``reach`` neighbours each side of ``hits`` (and of the memories
    ``seqs``) with the search's scored ``columns`` (``columns.scored_columns`` of ``m``),
    each with the hits it neighbours (column ``scored.HITS``), its step from each
    (``scored.STEPS``, in the same order), and every hit looked for (``scored.LOOKED``,
    the same on each row; none found: no row)."""
    d = t.dim
    filter_sql, filter_params = filters(request.cats, request.occurred, "b.",
                                        request.valid)
    cols, col_params = columns
    sides = []
    side_params: list[Any] = []
    for near, far, order in (("<", ">= h.seq -", "DESC"), (">", "<= h.seq +", "ASC")):
        sides.append(
            # The step: the row's place on its side, counted by the index scan itself
            # (the window runs before the limit and stops with it).
            f"(SELECT b.id, row_number() OVER (ORDER BY b.seq {order}) AS step "
            "FROM memories b WHERE b.element = h.element AND "
            f"b.seq {near} h.seq AND b.seq {far} {NEIGHBOUR_SCAN} AND "
            # The same owner: equal subjects, or both general (NULL subjects).
            "(b.subject_type = h.subject_type AND b.subject_id = h.subject_id OR "
            "h.subject_type IS NULL AND b.subject_type IS NULL) AND "
            f"abs(b.occurred_ts - h.occurred_ts) <= %s::float8 AND "
            f"b.v_content IS NOT NULL AND b.dim = {d}{filter_sql} "
            f"ORDER BY b.seq {order} LIMIT %s)")
        side_params.extend([gap, *filter_params, reach])
    cur.execute(
        "WITH h AS MATERIALIZED (SELECT element, id, seq, occurred_ts, subject_type, "
        "subject_id FROM memories WHERE element = %s AND (id = ANY(%s) OR "
        "seq = ANY(%s))), "
        f"p AS MATERIALIZED (SELECT h.id AS hit, n.id, n.step FROM h CROSS JOIN LATERAL "
        f"({sides[0]} UNION ALL {sides[1]}) n) "
        f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, m.subject_id, "
        "(SELECT array_agg(p.hit ORDER BY p.hit) FROM p WHERE p.id = m.id), "
        "(SELECT array_agg(h.id) FROM h), "
        "(SELECT array_agg(p.step ORDER BY p.hit) FROM p WHERE p.id = m.id) "
        "FROM memories m WHERE m.element = %s AND m.id IN (SELECT p.id FROM p)",
        (t.element, hits, list(seqs), *side_params, *col_params, t.element))
