"""The lexical second hop in PostgreSQL (``hop.py``): the memories that say the top hit's
rarest words, as the file store finds them (``search._hop``).

One statement, after the ranking names its top hit, and only when the element holds
enough memories for a word to be rare (``hop.HOP_SHARE``; the count comes with the
search's first pipeline): the words picked from the top hit's index terms (its row's
``lex_terms``) and their document frequencies (``memory_term_df``) by the rule of
:func:`hop.hop_words`, written in SQL; the rows of the memories those words' postings
name (their blocks decoded in SQL: a record's first two bytes are its offset in the
block, ``bm25.py``), kept to the search's scope and filters, with their scored columns
and their BM25 for the words (the sum the file store's ``lexical.matches`` makes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import psycopg

from ..hop import HOP_SHARE, HOP_WORDS
from ..lexical import BM25_B, BM25_K1, terms
from ..gathered import Rows
from . import bm25
from .rows import Table
from .scored import OWNER, Scored, as_rows

__all__ = ["find", "rare_enough"]

Sql = tuple[str, tuple[Any, ...]]


def rare_enough(docs: int) -> bool:
    """Whether an element of ``docs`` memories can hold a word rare enough for the hop
    (in 2 memories and in at most ``HOP_SHARE`` of them): else no statement is sent."""
    return 2 <= HOP_SHARE * docs


def find(conn: psycopg.Connection[Any], t: Table, top: str, query: str, docs: int,
         where: Sql, columns: Sql,
         scored_rows: Callable[[list[Any]], dict[str, Scored]]
         ) -> tuple[Rows, np.ndarray] | None:
    """``ranking.HopFinder`` for the top hit ``top`` (an id).

    :param query: the query's text; ``docs`` the element's memory count (``lex_docs``).
    :param where: the search's scope and filters on ``memories m`` (after ``AND``).
    :param columns: the search's scored columns of ``m`` (``columns.scored_columns``).
    :param scored_rows: reads rows of those columns (BM25 from the postings when a
        large pool's were read).
    """
    cols, col_params = columns
    where_sql, where_params = where
    average, average_params = bm25.average_sql(t)
    # The words, as ``hop.hop_words`` picks them: the top hit's index terms that the
    # query lacks, in 2 to HOP_SHARE of the memories, the rarest (ties in code point
    # order, Python's, by the "C" collation); each found row's BM25 for them as
    # ``lexical.LexicalIndex.matches`` sums it (``bm25.row_sql``'s operations).
    idf = "ln(1 + ((SELECT lex_docs FROM memory_elements WHERE element = %s)::float8 " \
        "- w.df + 0.5) / (w.df + 0.5))"
    norm = f"%s::float8 * (1 - %s::float8 + %s::float8 * m.lex_len / {average})"
    score = (f"(SELECT coalesce(sum({idf} * x.tf * %s::float8 / (x.tf + {norm})), 0) "
             "FROM w CROSS JOIN LATERAL (SELECT m.lex_tf[array_position(m.lex_terms, "
             "w.term)] AS tf) x WHERE x.tf IS NOT NULL)")
    score_params = (t.element, BM25_K1 + 1.0, BM25_K1, BM25_B, BM25_B, *average_params)
    with conn.cursor() as cur:
        cur.execute(
            "WITH w AS MATERIALIZED (SELECT d.term, d.df FROM memories h JOIN "
            "memory_term_df d ON d.element = h.element AND d.term = ANY(h.lex_terms) "
            "WHERE h.element = %s AND h.id = %s AND d.df >= 2 AND d.df <= %s AND NOT "
            f"(d.term = ANY(%s::text[])) ORDER BY d.df, d.term COLLATE \"C\" LIMIT {HOP_WORDS}) "
            f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, m.subject_id, "
            # The rows the postings name, each looked up by its sequence number in the
            # (element, seq) index (one row a number, whatever the planner guesses),
            # then kept to the scope: a statement that let the planner choose walked
            # the scope's rows instead on a table not analysed since a bulk load (all
            # 50k of a general pool at 100k, 0.2-0.6 s: ``bench/hop_plan.py``). LIMIT
            # keeps the lookup apart (the planner neither merges nor reorders it).
            f"{score} FROM unnest(ARRAY(SELECT DISTINCT p.block::int8 * {bm25.BLOCK} + "
            "(get_byte(p.records, 8 * i) << 8 | get_byte(p.records, 8 * i + 1)) FROM "
            "memory_postings p JOIN w ON p.term = w.term, generate_series(0, "
            "length(p.records) / 8 - 1) AS i WHERE p.element = %s)) AS s(seq) CROSS JOIN "
            "LATERAL (SELECT * FROM memories WHERE element = %s AND seq = s.seq LIMIT 1) m "
            f"WHERE m.dim = {t.dim} AND m.v_content IS NOT NULL AND {where_sql}",
            (t.element, top, HOP_SHARE * docs, sorted(set(terms(query))), *col_params,
             *score_params, t.element, t.element, *where_params))
        rows = cur.fetchall()
    if not rows:
        return None
    scored = scored_rows(rows)
    extra = {str(r[0]): float(r[OWNER + 2] or 0.0) for r in rows}
    ordered = sorted(scored.items())
    return as_rows(ordered), np.array([extra[k] for k, _ in ordered], dtype=np.float64)
