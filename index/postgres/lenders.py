"""The superseded memories that lend to their heirs, in PostgreSQL (``index/lend.py``).

The counterpart of the file store's ``search._lenders``, by the same rule: the
``LEND_MAX`` newest superseded memories in scope with a content vector that pass the
search's categories and occurred bounds, each with the current memory at the end of its
``superseded_by`` chain (a recursive walk by id), of the same owner, that passes every
filter of the search. A search ``as_of`` a time walks the same chains (:func:`_send_as_of`):
each one's heir is the version that held then, and every other version of it lends (a
later one too). One statement, sent in the search's first pipeline: a scope without a
superseded memory returns no row and lends nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import psycopg

from ..lend import LEND_MAX, Lenders
from ..query import SearchQuery
from ..validity import CURRENT, EVERYTHING
from .rows import Table, filters
from .scored import HITS, Scored, as_rows

__all__ = ["send", "heirs", "read"]

Sql = tuple[str, tuple[Any, ...]]

# A chain longer than this is cut (a fact updated this many times lends from its recent
# versions only); the walk stops on a cycle, which a valid log never holds.
_CHAIN_MAX = 64


def _lending(request: SearchQuery, scope: Sql) -> Sql:
    """Whose superseded memories may lend: the search's scope, or the subject it names
    alone (``search._lending``)."""
    if request.subject is not None:
        return "subject_type = %s AND subject_id = %s", request.subject
    return scope


def _row(cols: str) -> str:
    """A scored row of ``memories m``, its heir column left to fill (``{heir}``)."""
    return (f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, "
            "m.subject_id, {heir} FROM memories m")


def send(cur: psycopg.Cursor[Any], t: Table, request: SearchQuery, scope: Sql,
         columns: Sql) -> None:
    """Ask for the lenders' scored rows (each with its heir's id, column ``HITS``) and
    their heirs' (heir column NULL), read by :func:`read`."""
    if request.valid != CURRENT:
        _send_as_of(cur, t, request, scope, columns)
        return
    cols, col_params = columns
    loose_sql, loose_params = filters(request.cats, request.occurred, "", EVERYTHING)
    strict_sql, strict_params = filters(request.cats, request.occurred, "m.",
                                        request.valid)
    (scope_sql, scope_params), row = _lending(request, scope), _row(cols)
    cur.execute(
        "WITH RECURSIVE p AS MATERIALIZED (SELECT id, superseded_by FROM memories "
        "WHERE element = %s AND superseded_by IS NOT NULL AND v_content IS NOT NULL "
        f"AND dim = {t.dim} AND ({scope_sql}){loose_sql} ORDER BY seq DESC LIMIT %s), "
        "c(id, heir, depth) AS (SELECT id, superseded_by, 0 FROM p UNION ALL "
        "SELECT c.id, m.superseded_by, c.depth + 1 FROM c JOIN memories m ON "
        "m.element = %s AND m.id = c.heir WHERE m.superseded_by IS NOT NULL AND "
        f"c.depth < {_CHAIN_MAX}), "
        "h AS MATERIALIZED (SELECT c.id, c.heir FROM c JOIN memories m ON "
        "m.element = %s AND m.id = c.heir WHERE m.superseded_by IS NULL) "
        + row.format(heir="h.heir") + " JOIN h ON h.id = m.id WHERE m.element = %s "
        "UNION ALL " + row.format(heir="NULL") + " WHERE m.element = %s AND "
        f"m.id IN (SELECT heir FROM h) AND m.dim = {t.dim} AND "
        f"m.v_content IS NOT NULL{strict_sql}",
        (t.element, *scope_params, *loose_params, LEND_MAX, t.element, t.element,
         *col_params, t.element, *col_params, t.element, *strict_params))


def _send_as_of(cur: psycopg.Cursor[Any], t: Table, request: SearchQuery, scope: Sql,
                columns: Sql) -> None:
    """:func:`send` of a search ``as_of`` a time: each chain's members (``c``, the start
    itself at depth 0), its heir the member that held then and passes every filter of the
    search (``hs``), and each other member with a content vector within the search's
    categories and occurred bounds a lender to it (``h``)."""
    cols, col_params = columns
    loose_sql, loose_params = filters(request.cats, request.occurred, "", EVERYTHING)
    lender_sql, lender_params = filters(request.cats, request.occurred, "m.", EVERYTHING)
    strict_sql, strict_params = filters(request.cats, request.occurred, "m.",
                                        request.valid)
    (scope_sql, scope_params), row = _lending(request, scope), _row(cols)
    cur.execute(
        "WITH RECURSIVE p AS MATERIALIZED (SELECT id FROM memories "
        "WHERE element = %s AND superseded_by IS NOT NULL AND v_content IS NOT NULL "
        f"AND dim = {t.dim} AND ({scope_sql}){loose_sql} ORDER BY seq DESC LIMIT %s), "
        "c(id, member, depth) AS (SELECT id, id, 0 FROM p UNION ALL "
        "SELECT c.id, m.superseded_by, c.depth + 1 FROM c JOIN memories m ON "
        "m.element = %s AND m.id = c.member WHERE m.superseded_by IS NOT NULL AND "
        f"c.depth < {_CHAIN_MAX}), "
        "hs AS MATERIALIZED (SELECT DISTINCT c.id, c.member AS heir FROM c JOIN memories m "
        f"ON m.element = %s AND m.id = c.member WHERE m.dim = {t.dim} AND "
        f"m.v_content IS NOT NULL{strict_sql}), "
        "h AS MATERIALIZED (SELECT DISTINCT c.member AS id, hs.heir FROM c JOIN hs ON "
        "hs.id = c.id WHERE c.member <> hs.heir) "
        + row.format(heir="h.heir") + " JOIN h ON h.id = m.id WHERE m.element = %s AND "
        f"m.dim = {t.dim} AND m.v_content IS NOT NULL{lender_sql} "
        "UNION ALL " + row.format(heir="NULL") + " WHERE m.element = %s AND "
        "m.id IN (SELECT heir FROM h)",
        (t.element, *scope_params, *loose_params, LEND_MAX, t.element, t.element,
         *strict_params, *col_params, t.element, *lender_params, *col_params, t.element))


def heirs(found: list[Any]) -> set[str]:
    """The ids of the heirs among :func:`send`'s rows."""
    return {str(r[0]) for r in found if r[HITS] is None}


def read(found: list[Any], bm25_of: Any) -> Lenders | None:
    """The :class:`~index.lend.Lenders` of :func:`send`'s rows (None: none lends);
    ``bm25_of`` turns fetched rows into scored rows by id (the search's BM25 source)."""
    if not found:
        return None
    rows: dict[str, Scored] = bm25_of(found)
    heirs = {str(r[0]) for r in found if r[HITS] is None}
    pairs = [(str(r[0]), str(r[HITS])) for r in found if r[HITS] is not None]
    # An heir of the same owner that passes the search's filters (a subject never lends
    # to another; a retired or filtered-out heir inherits nothing).
    pairs = [(lender, heir) for lender, heir in pairs
             if heir in heirs and rows[heir].owner == rows[lender].owner]
    if not pairs:
        return None
    pairs.sort(key=lambda pair: -rows[pair[0]].seq)
    kept = sorted({heir for _, heir in pairs})
    return Lenders(as_rows([(lender, rows[lender]) for lender, _ in pairs]),
                   np.array([heir for _, heir in pairs], dtype=str),
                   as_rows([(heir, rows[heir]) for heir in kept]))
