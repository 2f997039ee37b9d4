"""The scored columns of a PostgreSQL search's candidate row: what each statement of a
search (``search.py``) asks the database to compute per memory, in one place.

A row is ``id, seq, occurred_ts, pool``, then these columns (``SCORED``, read back by
``scored.scored``), then ``subject_type, subject_id``: the cosine of each lane the query
gives (NULL for the others), BM25, whether the memory is about a name the query names,
whether its content is the query's text, its content's cosine with the query's name, and
whether it says what the query asks for (a time, a query that asks when; a name, one
that asks for a thing by a noun). Each is the file store's rule written in
SQL (``names.py``, ``asks.py``), so both backends rank the same rows alike.
"""

from __future__ import annotations

from typing import Any

from ..asks import PATTERNS
from ..names import OPENING_SQL, said_sql
from ..ranking import Ranking
from ..recall import LANES
from . import bm25
from .rows import Table, vector_text

__all__ = ["scored_columns", "SCORED"]

SCORED = len(LANES) + 5
"""How many scored columns a row has (``scored_columns``)."""

Sql = tuple[str, tuple[Any, ...]]


def scored_columns(alias: str, t: Table, literal: dict[str, str], words: list[str],
                   ranking: Ranking, postings: bool) -> Sql:
    """The ``SCORED`` columns of a row of ``alias`` and their parameters: the cosine of
    each lane in ``literal`` (the query's vectors as text), BM25 for the query's
    ``words`` (0 when ``postings``: the postings give every memory's BM25, and scoring it
    again from the row costs more than the cosine), whether the memory is about a name
    the query names (opens with it, ``names.OPENING_SQL``, or says it otherwise than as an
    address, ``names.said_sql``: the rule of ``names.named_in``), whether its content is
    the query's text (``Ranking.exact``), its content's cosine with the query's name
    (``Ranking.name``; 0 when not asked) and whether it says what the query asks for
    (``Ranking.asks``: ``asks.PATTERNS``, a time or a name, the rules of ``asks.says``;
    false when not asked)."""
    cols, params = [], list[Any]()
    for lane in LANES:
        if lane in literal:
            cols.append(f"1 - ({alias}.v_{lane} <=> %s::vector)")
            params.append(literal[lane])
        else:
            cols.append("NULL::float8")
    score_params: tuple[Any, ...] = ()
    if postings:
        cols.append("0::float8")
    else:
        score, score_params = bm25.row_sql(t, words, alias)
        cols.append(score)
    names: tuple[Any, ...] = ()
    if ranking.names:
        cols.append(f"(coalesce({OPENING_SQL.format(alias=alias)} = ANY(%s), false)"
                    f" OR {alias}.content ~ %s)")
        names = (list(ranking.names), said_sql(ranking.names))
    else:
        cols.append("false")
    exact: tuple[Any, ...] = ()
    if ranking.exact is not None:
        cols.append(f"coalesce({alias}.content = %s, false)")
        exact = (ranking.exact,)
    else:
        cols.append("false")
    name: tuple[Any, ...] = ()
    if ranking.name is not None:
        cols.append(f"coalesce(1 - ({alias}.v_content <=> %s::vector), 0)")
        name = (vector_text(ranking.name),)
    else:
        cols.append("0::float8")
    asks: tuple[Any, ...] = ()
    if ranking.asks:
        cols.append(f"coalesce({alias}.content ~ %s, false)")
        asks = (PATTERNS[ranking.asks],)
    else:
        cols.append("false")
    return ", ".join(cols), (*params, *score_params, *names, *exact, *name, *asks)
