"""The lexical second hop in PostgreSQL (``hop.py``): the memories that say the top hit's
rarest words, as the file store finds them (``search._hop``).

Two statements, after the ranking names its top hit, and only when the element holds
enough memories for a word to be rare (``hop.HOP_SHARE``; the count comes with the
search's first pipeline): the document frequency of each of the top hit's index terms
(its row's ``lex_terms``, from ``memory_term_df``), from which :func:`hop.hop_words`
picks the words, as in the file store; then the rows of the memories those words' postings name (their blocks
decoded in SQL: a record's first two bytes are its offset in the block, ``bm25.py``),
kept to the search's scope and filters, with their scored columns and their BM25 for
the words (``bm25.row_sql``, the sum the file store's ``lexical.matches`` makes).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import psycopg

from ..hop import HOP_SHARE, hop_words
from ..ranking import Rows
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
    with conn.cursor() as cur:
        cur.execute("SELECT d.term, d.df FROM memories m JOIN memory_term_df d ON "
                    "d.element = m.element AND d.term = ANY(m.lex_terms) WHERE "
                    "m.element = %s AND m.id = %s", (t.element, top))
        frequency = {str(term): int(df) for term, df in cur.fetchall()}
        words = hop_words(list(frequency), query,
                          lambda mine: {w: frequency[w] for w in mine if w in frequency},
                          docs)
        if not words:
            return None
        cols, col_params = columns
        score, score_params = bm25.row_sql(t, words, "m")
        where_sql, where_params = where
        cur.execute(
            f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, m.subject_id, "
            f"{score} FROM memories m WHERE m.element = %s AND m.dim = {t.dim} AND "
            f"m.v_content IS NOT NULL AND m.seq IN (SELECT p.block::int8 * {bm25.BLOCK} + "
            "(get_byte(p.records, 8 * i) << 8 | get_byte(p.records, 8 * i + 1)) FROM "
            "memory_postings p, generate_series(0, length(p.records) / 8 - 1) AS i WHERE "
            f"p.element = %s AND p.term = ANY(%s)) AND {where_sql}",
            (*col_params, *score_params, t.element, t.element, words, *where_params))
        rows = cur.fetchall()
    if not rows:
        return None
    scored = scored_rows(rows)
    extra = {str(r[0]): float(r[OWNER + 2] or 0.0) for r in rows}
    ordered = sorted(scored.items())
    return as_rows(ordered), np.array([extra[k] for k, _ in ordered], dtype=np.float64)
