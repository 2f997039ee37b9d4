"""BM25 in SQL: the same scores as the file store's ``lexical.LexicalIndex``, from the rows.

The same Snowball terms and BM25F weighting (``lexical.term_counts``), the same ``k1``
and ``b`` (``lexical.BM25_K1``/``BM25_B``), scored in SQL so recall matches the file
store's rather than approximating it with PostgreSQL's own text search
(``docs/deploy.md`` says why). ``postgres/writes.py`` keeps what these read: each row's
``lex_terms``/``lex_tf``, the postings in ``memory_terms``, the document frequencies in
``memory_term_df`` and the element's ``lex_docs``/``lex_total``.

Two ways to score, for the two plans of a search (``postgres/search.py``): a row's BM25
from its own arrays (:func:`row_sql`: a small pool read whole, candidates), and the best
matches of a large pool from the postings (:func:`top_sql`). Both stay in SQL for speed:
reading every posting or row into Python to score it there would move far more data
than the scores. They are the one place BM25's formula is written for this backend.
"""

from __future__ import annotations

from typing import Any

from ..lexical import BM25_B, BM25_K1
from .rows import Table

__all__ = ["row_sql", "top_sql"]

Sql = tuple[str, tuple[Any, ...]]


def _idf_sql(t: Table, term_sql: str) -> Sql:
    """SQL of one term's idf, ``ln(1 + (N - n + .5) / (n + .5))`` as
    ``lexical.LexicalIndex.scores`` (NULL: no memory of the element has it)."""
    return ("(SELECT ln(1 + (e.lex_docs::float8 - d.df + 0.5) / (d.df + 0.5)) FROM "
            "memory_term_df d JOIN memory_elements e ON e.element = d.element WHERE "
            f"d.element = %s AND d.term = {term_sql} AND d.df > 0)", (t.element,))


def _average_sql(t: Table) -> Sql:
    """SQL of the element's average memory length in terms (1 when none)."""
    return ("(SELECT coalesce(nullif(lex_total::float8 / nullif(lex_docs, 0), 0), 1.0) "
            "FROM memory_elements WHERE element = %s)", (t.element,))


def row_sql(t: Table, words: list[str], alias: str) -> Sql:
    """SQL of one memory's BM25 for the query's ``words`` (0 without a match), from the
    row's own ``lex_terms``/``lex_tf``: per query term, ``array_position`` finds its
    frequency in the row (about half the cost of joining the unnested arrays per row);
    a row sharing no term is skipped. The idf and the average length are uncorrelated
    subqueries, computed once."""
    if not words:
        return "0::float8", ()
    average, average_params = _average_sql(t)
    norm = f"%s::float8 * (1 - %s::float8 + %s::float8 * {alias}.lex_len / {average})"
    norm_params = (BM25_K1, BM25_B, BM25_B, *average_params)
    tf = f"{alias}.lex_tf[array_position({alias}.lex_terms, %s::text)]"
    parts, params = [], list[Any]()
    for term in words:
        idf, idf_params = _idf_sql(t, "%s::text")
        parts.append(f"coalesce({idf} * {tf} * %s::float8 / ({tf} + {norm}), 0)")
        params.extend([*idf_params, term, term, BM25_K1 + 1.0, term, *norm_params])
    return (f"CASE WHEN {alias}.lex_terms && %s::text[] THEN " + " + ".join(parts)
            + " ELSE 0 END", (words, *params))


def top_sql(t: Table, words: list[str], scope: Sql, extra: Sql, want: int) -> Sql:
    """The ``want`` best BM25 matches of ``words`` in scope that have a content vector
    (``(id, score)``, best first), scored over the postings alone.

    An index-only scan (the postings' key holds tf and len), then best first, each match
    checked against its row until ``want`` pass: the scope meets a few hundred rows, not
    every match. float8 throughout: a bare 1.0 is numeric in SQL, much slower.
    Materialized: the idf of each term and the average length are computed once, not
    once per posting. Each term's postings are one index range (``term = w.term``); a
    second ``term = ANY(...)`` condition was checked again on every posting, a quarter
    of the statement's time when the terms are common (``bench/pg_bench.py``).
    """
    idf, idf_params = _idf_sql(t, "u.term")
    average, average_params = _average_sql(t)
    return (f"WITH w AS MATERIALIZED (SELECT u.term, {idf} AS idf FROM "
            "unnest(%s::text[]) AS u(term)), "
            f"a AS MATERIALIZED (SELECT {average} AS average), "
            "s AS MATERIALIZED (SELECT t.id, sum(w.idf * t.tf * %s::float8 / "
            "(t.tf + %s::float8 * (1 - %s::float8 + %s::float8 * t.len / "
            "a.average))) AS score FROM memory_terms t JOIN w ON w.term = t.term "
            "CROSS JOIN a WHERE t.element = %s AND "
            "w.idf IS NOT NULL GROUP BY t.id) "
            "SELECT s.id, s.score FROM (SELECT id, score FROM s WHERE score > 0 "
            "ORDER BY score DESC) s WHERE EXISTS (SELECT 1 FROM memories m WHERE "
            f"m.element = %s AND m.id = s.id AND m.v_content IS NOT NULL AND "
            f"m.dim = {t.dim} AND ({scope[0]}){extra[0]}) LIMIT %s",
            (*idf_params, words, *average_params, BM25_K1 + 1.0, BM25_K1, BM25_B, BM25_B,
             t.element, t.element, *scope[1], *extra[1], want))
