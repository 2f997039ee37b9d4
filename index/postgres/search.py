"""Search in PostgreSQL: the database's half of a search, gathering.

The counterpart of the file store's ``search.py``, by the same rules (``ranking.py``):
the owner pools of the scope, vector candidates per lane and pool, the best BM25 matches
in scope, the time window and the named span, then the exact cosines of the three lanes
and BM25 for the union; the memories without vectors scored by text; the neighbours of
the best hits. ``ranking.Ranking.rank`` then ranks them, as it does the file store's.

Like the file store's planner, a pool of at most ``EXACT_MAX`` memories is scored whole
from its rows (cosines and BM25 in one read, sent in one pipeline with the pool counts);
a larger one is walked: HNSW per lane with ``hnsw.iterative_scan = relaxed_order`` (a
selective filter still returns the asked number of rows) and the best BM25 matches from
the postings (``bm25.py``). A hit's neighbours are found among the rows already read
when its pool was scored whole or when it was among the likely hits of a walked pool,
else by one more statement. The search runs on one connection in one read-only
``REPEATABLE READ`` transaction (one instant; its BEGIN and COMMIT go out with other
statements), independent statements together in a pipeline: a search on a small scope
is two round trips with the access count. A walked pool's HNSW walks run on a second
connection, when one is free, in the search's snapshot, beside the postings (the store
keeps the blocks it decoded: ``bm25.Postings``); its best BM25 matches are checked and
scored in the round trip of the other candidates' rows, with the neighbours of the
likely hits (``NEAR_GUESS``), and those sums are every candidate's BM25.
``docs/deploy.md`` ("Search and store speed") has the round trips and the figures.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import numpy as np
import psycopg
from psycopg import sql

from ..gathered import (
    SPAN_CANDIDATES_MAX,
    WINDOW_EXACT_MAX,
    Gathered,
    Rows,
    pools_in_scope,
    text_rows,
    window_plan,
)
from ..lexical import terms
from ..query import Bounds, SearchQuery
from ..ranking import Ranking
from ..recall import LANES, token_set
from . import bm25
from . import hop as hop_sql
from . import lenders as lenders_sql
from . import neighbours
from .columns import scored_columns
from .rows import Table, filters, pool_sql, scope_sql, validity_sql, vector_text
from .scored import HITS, LOOKED, STEPS, Scored, adjacent, as_rows, scored

__all__ = ["gather", "EXACT_MAX"]

# A pool (general, one subject, or everyone) of at most this many memories is scored
# whole from its rows; a larger one is walked through the HNSW indexes and the postings.
# Reading a row and computing its three cosines costs about 10-20 us here (its vectors
# are TOASTed), so 1024 rows are ~15 ms: past that the walks are cheaper.
EXACT_MAX = 1024
# The first ids of each walk and of the best BM25 matches of a walked pool whose
# neighbours are read with the candidates' rows, before the ranking names its hits: at
# 100k on ``pg_bench.py`` the 5 hits are among the first 12 of either on about 9
# queries in 10 (a hit outside costs the statement it always cost).
NEAR_GUESS = 12

# A search's statements see one instant (apart, a memory embedded between two was in
# neither: ``tests/index/test_search_instant.py``); queued in the first pipeline.
BEGIN = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"

Sql = tuple[str, tuple[Any, ...]]
Cursor = psycopg.Cursor[Any]
Spare = Callable[[], AbstractContextManager[psycopg.Connection[Any] | None]]


def gather(conn: psycopg.Connection[Any], t: Table, request: SearchQuery,
           queries: dict[str, np.ndarray] | None, scoping: bool,
           ranking: Ranking, spare: Spare | None = None,
           postings: bm25.Postings | None = None) -> Gathered:
    """The candidates of one search on ``conn`` (autocommit), scored for ``ranking.rank``
    (``spare``: a second connection, if one is free, to walk a large pool on beside the
    postings; ``db.Database.spare``; ``postings``: the store's decoded postings, else
    every block is read). Its first statement opens a transaction (``BEGIN``) that the
    caller ends after the ranking, whose neighbours are read in it too."""
    return _Search(conn, t, request, queries, scoping, ranking, spare,
                   postings or bm25.Postings()).gather()


class _Search:
    """The statements of one search."""

    def __init__(self, conn: psycopg.Connection[Any], t: Table, request: SearchQuery,
                 queries: dict[str, np.ndarray] | None, scoping: bool,
                 ranking: Ranking, spare: Spare | None, postings: bm25.Postings) -> None:
        self.conn, self.t, self.request, self.queries = conn, t, request, queries
        self.ranking, self.spare, self.scoping = ranking, spare, scoping
        self.postings = postings
        self.pools = [pool_sql(pool) for pool in pools_in_scope(request.subject, scoping)]
        self.scope = scope_sql(self.pools)
        self.extra = filters(request.cats, request.occurred, valid=request.valid)
        self.literal = {lane: vector_text(q) for lane, q in (queries or {}).items()}
        self.words = sorted(set(terms(request.texts["content"])))
        self.whole: dict[str, Scored] = {}
        self.background: list[Scored] | None = None
        # Every memory's BM25 from the postings, once a large pool's were read.
        self.matches: bm25.Matches | None = None
        # The hits whose neighbours were read before the ranking asked (ids), and
        # those neighbours: scored rows, (hit, neighbour, step) triples.
        self.guess: set[str] = set()
        self.near: tuple[dict[str, Scored], list[tuple[str, str, int]]] = ({}, [])
        # The current memories that superseded ones lend to (``lend.py``).
        self.heirs: set[str] = set()
        # The element's memory count (``lex_docs``), read with the pools' sizes.
        self.docs = 0

    def gather(self) -> Gathered:
        conn, t = self.conn, self.t
        chosen: dict[str, Scored] = {}
        best = 0.0
        lenders = None
        lend = self.queries is not None and not self.request.valid.everything \
            and self.ranking.params.lend_superseded
        with conn.cursor() as cur, conn.cursor() as rows_cur, conn.cursor() as text_cur, \
                conn.cursor() as lend_cur:
            with conn.pipeline():
                # Sent together, one round trip: BEGIN, each pool's size (counted up to
                # EXACT_MAX + 1, which picks its plan), every row of the pools that are
                # small scored whole (a large pool is left out by the same count), and
                # the memories in scope to score by text.
                cur.execute(BEGIN)
                if self.queries is not None:
                    counts = ", ".join(self._count_sql(sql) for sql, _ in self.pools)
                    # And the element's memory count, which says whether a word can be
                    # rare enough for the second hop (``hop.py``).
                    cur.execute(f"SELECT {counts}, (SELECT lex_docs FROM memory_elements "
                                "WHERE element = %s)",
                                (*self._count_params(self.pools), t.element))
                    self._send_rows(rows_cur, self.pools)
                if lend:
                    # The superseded memories that lend to their heirs (``lend.py``).
                    lenders_sql.send(lend_cur, t, self.request, self.scope,
                                     self._columns("m"))
                which = "" if self.queries is None else " AND NOT embedded"
                text_cur.execute(
                    "SELECT id, seq, occurred_ts, content, context, intention FROM "
                    f"memories WHERE element = %s{which} AND ({self.scope[0]})"
                    f"{self.extra[0]}", (t.element, *self.scope[1], *self.extra[1]))
            text = text_cur.fetchall()
            if self.queries is not None:
                row = cur.fetchone()
                sizes = [int(n) for n in row[:-1]] if row else [0] * len(self.pools)
                self.docs = int(row[-1] or 0) if row else 0
                self.whole = self._read_rows(rows_cur)
                lending = lend_cur.fetchall() if lend else []
                # An heir may become a hit that a walk did not find first: its
                # neighbours are guessed too.
                self.heirs = lenders_sql.heirs(lending)
                chosen, best = self._candidates(cur, self.queries, sizes)
                lenders = lenders_sql.read(lending, self._scored_rows)
        # A memory that changed between two statements is scored once, by its vectors.
        text = [r for r in text if str(r[0]) not in chosen]
        text_scored = text_rows(
            np.array([str(r[0]) for r in text], dtype=str), [int(r[1]) for r in text],
            [float(r[2]) for r in text],
            [[None if lane is None else token_set(lane) for lane in r[3:6]] for r in text],
            self.request.texts)
        if self.queries is None:
            return Gathered(None, text_scored)
        background = None if self.background is None else \
            as_rows([(str(row.seq), row) for row in self.background])
        hop = self._hop if self.ranking.hops and hop_sql.rare_enough(self.docs) else None
        return Gathered(as_rows(sorted(chosen.items())), text_scored, best, self._neighbours,
                        background, lenders, hop)

    def _hop(self, top: str) -> tuple[Rows, np.ndarray] | None:
        """``ranking.HopFinder`` (``hop.py``), in the search's transaction."""
        return hop_sql.find(self.conn, self.t, str(top), self.request.texts["content"],
                            self.docs, (f"({self.scope[0]}){self.extra[0]}",
                                        (*self.scope[1], *self.extra[1])),
                            self._columns("m"), self._scored_rows)

    # -- candidates ------------------------------------------------------------------------

    def _candidates(self, cur: Cursor, queries: dict[str, np.ndarray], sizes: list[int]
                    ) -> tuple[dict[str, Scored], float]:
        """Candidates and their exact similarities, and the best BM25 in scope (the
        content boost's scale)."""
        ranking, request = self.ranking, self.request
        small = [i for i, size in enumerate(sizes) if size <= EXACT_MAX]
        large = [pool for pool, size in zip(self.pools, sizes, strict=True)
                 if size > EXACT_MAX]
        want = ranking.lexical_candidates()
        rows: dict[str, Scored] = {}
        candidates: set[str] = set()
        lexical_top: list[tuple[float, str]] = []
        if small:
            # A small pool is scored whole from its own rows, as the file store's planner
            # searches a pool below its threshold exactly: each lane's top candidates and
            # the BM25 matches come from this one read.
            rows.update(self.whole)
            for lane_index, lane in enumerate(LANES):
                if lane not in queries:
                    continue
                k = ranking.lane_candidates(lane, len(queries))
                for pool_index in small:
                    in_lane = [(row.sims[lane_index], memory_id)
                               for memory_id, row in self.whole.items()
                               if row.pool == pool_index and row.present[lane_index]]
                    in_lane.sort(key=lambda pair: -pair[0])
                    candidates.update(memory_id for _, memory_id in in_lane[:k])
            lexical_top += [(row.bm25, memory_id) for memory_id, row in self.whole.items()
                            if row.bm25 > 0 and row.present[0]]
        span = ranking.span(request.occurred)
        best_large: bm25.Best | None = None
        if large:
            walked, matches = self._walk(queries, large)
            candidates |= {memory_id for walk in walked for memory_id in walk}
            self.guess = {memory_id for walk in walked for memory_id in walk[:NEAR_GUESS]}
            self.guess |= self.heirs
            self.matches = matches
            if matches is not None:
                best_large = bm25.Best(matches, want, want + want // 8 + 1)
                if request.occurred != (None, None) or span is not None:
                    # The window's plan counts the candidates: the best matches first.
                    lexical_top += bm25.top(self.conn, self.t, matches, scope_sql(large),
                                            self.extra, want, best_large)
        if best_large is None or not best_large.pending():
            lexical_top.sort(key=lambda pair: -pair[0])
            candidates.update(memory_id for _, memory_id in lexical_top[:want])
            if large:
                # The best BM25 matches are hits as often as the walks' first.
                self.guess |= {memory_id for _, memory_id in lexical_top[:NEAR_GUESS]}
        if request.occurred != (None, None):
            window = self._vector_pool(cur, request.occurred, WINDOW_EXACT_MAX + 1)
            plan = window_plan(len(candidates), len(window), ranking.depth)
            if plan == "window":
                candidates = set(window)
                if large and len(window) <= NEAR_GUESS:
                    # A window as small as the guess is guessed whole: its hits may lie
                    # outside the walks (which ignore the window) and the best matches.
                    self.guess |= candidates
            elif plan == "add":
                candidates |= set(self._vector_pool(cur, request.occurred, None))
        if span is not None:
            found_span = self._vector_pool(cur, span, SPAN_CANDIDATES_MAX + 1)
            if len(found_span) <= SPAN_CANDIDATES_MAX:
                candidates |= set(found_span)
        missing = sorted(candidates - rows.keys())
        size = ranking.background_size
        # The calibration's background: from the rows read whole when they hold the whole
        # scope with no filter but validity, else one statement, sent with the
        # candidates' rows. A search that names a subject reads the subject's own.
        whole_scope = not large and request.cats is None and request.occurred == (None,
                                                                                   None)
        if size and whole_scope:
            subject = self._subject()
            newest = sorted((row for row in self.whole.values() if row.present[0]),
                            key=lambda row: -row.seq)
            mine = [row for row in newest if row.owner == subject]
            self.background = (mine or newest)[:size]
        folded = best_large if best_large is not None and best_large.pending() else None
        # The hits whose neighbours the ranking will ask for are not known until these
        # rows are scored; those of a walked pool are nearly always among the first
        # of its walks and of its best BM25 matches: their neighbours come back with
        # the rows, and only a hit outside them needs a statement of its own after.
        guess = bool(large) and NEAR_GUESS > 0 and self.ranking.params.neighbour_hits > 0 \
            and self.ranking.params.neighbour_weight > 0
        background = bool(size) and not whole_scope
        best_seqs: list[int] = []
        # A pipeline syncs on exit, a round trip even when empty (a small scope's search
        # has nothing to send here).
        sending = folded is not None or missing or background or guess
        with self.conn.cursor() as background_cur, self.conn.cursor() as best_cur, \
                self.conn.cursor() as near_cur:
            with self.conn.pipeline() if sending else nullcontext():
                if folded is not None:
                    # The best matches' first batch checked and scored in the same round
                    # trip as the other candidates' rows: its rows that pass come back.
                    best_seqs = self._send_best(best_cur, folded, large)
                if missing:
                    self._send_rows(cur, None, ids=missing)
                if background:
                    self._send_background(background_cur, size)
                if guess:
                    self._send_neighbours(near_cur, sorted(self.guess),
                                          best_seqs[:NEAR_GUESS])
            if folded is not None:
                checked = self._read_rows(best_cur)
                folded.passed({row.seq: memory_id for memory_id, row in checked.items()})
                rows.update(checked)
            if missing:
                rows.update(self._read_rows(cur))
            if background:
                self.background = list(self._read_rows(background_cur).values())
            if guess:
                near = near_cur.fetchall()
                # The walks' ids were looked for, found or not; the best matches'
                # (asked by sequence number) are named by the rows that came back.
                self.guess |= {str(hit) for r in near for hit in r[LOOKED]}
                self.near = self._scored_rows(near), _triples(near)
        if folded is not None:
            # Fewer passed than wanted (a selective filter): the next batches alone.
            lexical_top += bm25.top(self.conn, self.t, folded.matches, scope_sql(large),
                                    self.extra, want, folded)
            lexical_top.sort(key=lambda pair: -pair[0])
            lexical = {memory_id for _, memory_id in lexical_top[:want]}
            candidates |= lexical
            later = sorted(lexical - rows.keys())
            if later:
                self._send_rows(cur, None, ids=later)
                rows.update(self._read_rows(cur))
        best = lexical_top[0][0] if lexical_top else 0.0
        return {i: rows[i] for i in candidates if i in rows}, best

    def _count_sql(self, pool: str) -> str:
        return (f"(SELECT count(*) FROM (SELECT 1 FROM memories WHERE element = %s AND "
                f"({pool}){self.extra[0]} LIMIT {EXACT_MAX + 1}) c)")

    def _count_params(self, pools: list[Sql]) -> tuple[Any, ...]:
        return tuple(p for _, params in pools
                     for p in (self.t.element, *params, *self.extra[1]))

    def _columns(self, alias: str) -> Sql:
        """The scored columns of a row of ``alias`` (``columns.scored_columns``; BM25 left
        out when the postings gave every memory's already: :meth:`_read_rows` fills it
        in)."""
        return scored_columns(alias, self.t, self.literal, self.words, self.ranking,
                              postings=self.matches is not None)

    def _subject(self) -> tuple[str, str] | None:
        """The subject whose memories a search's background reads first: the one it
        names, when scoping puts it in scope (None: no subject)."""
        pools = pools_in_scope(self.request.subject, self.scoping)
        subject = pools[-1]
        return subject if isinstance(subject, tuple) else None

    def _send_background(self, cur: Cursor, size: int) -> None:
        """Ask for the lanes' cosines and BM25 of the calibration's background: the
        ``size`` newest memories in scope with a content vector that the search could
        return (its validity, whatever its other filters; ``gathered.Gathered.background``):
        the
        named subject's own, the general pool's when it has none (the ``(element, seq)``
        and ``(element, subject_type, subject_id, seq)`` indexes read backwards)."""
        cols, params = self._columns("m")
        valid_sql, valid_params = validity_sql(self.request.valid, "m.")
        subject = self._subject()

        def newest(where: str, where_params: tuple[Any, ...], limit: str) -> Sql:
            return (f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, "
                    f"m.subject_id FROM memories m WHERE m.element = %s AND "
                    f"m.dim = {self.t.dim} AND m.v_content IS NOT NULL AND ({where})"
                    f"{valid_sql} ORDER BY m.seq DESC LIMIT {limit}",
                    (*params, self.t.element, *where_params, *valid_params))
        if subject is None:
            sql, sql_params = newest(*self.scope, "%s")
            cur.execute(sql, (*sql_params, size))
            return
        mine, mine_params = newest("m.subject_type = %s AND m.subject_id = %s", subject,
                                   "%s")
        general, general_params = newest("m.subject_type IS NULL", (),
                                         "CASE WHEN EXISTS (SELECT FROM s) THEN 0 "
                                         "ELSE %s END")
        cur.execute(f"WITH s AS MATERIALIZED ({mine}) SELECT * FROM s UNION ALL "
                    f"({general})", (*mine_params, size, *general_params, size))

    def _send_rows(self, cur: Cursor, pools: list[Sql] | None, *,
                   ids: list[str] | None = None) -> None:
        """Ask for the scored columns of every embedded row of the ``pools`` holding at
        most ``EXACT_MAX`` memories (or of ``ids``), read by :meth:`_read_rows`."""
        cols, params = self._columns("m")
        which_params: tuple[Any, ...]
        case_params: tuple[Any, ...] = ()
        extra_sql, extra_params = self.extra if pools is not None else ("", ())
        if pools is None:
            which, which_params = "m.id = ANY(%s)", (ids,)
            pool_case = "0"
        else:
            # A pool's count is an uncorrelated subquery: computed once, not per row.
            which = " OR ".join(f"(({sql}) AND {self._count_sql(sql)} <= {EXACT_MAX})"
                                for sql, _ in pools)
            which_params = tuple(p for pool in pools
                                 for p in (*pool[1], *self._count_params([pool])))
            pool_case = "CASE " + " ".join(f"WHEN {sql} THEN {i}"
                                           for i, (sql, _) in enumerate(pools)) + " END"
            case_params = tuple(p for _, ps in pools for p in ps)
        # Each pool read holds at most EXACT_MAX rows, so the limit cuts nothing: it
        # keeps the planner from a parallel scan of a large pool that its count then
        # leaves out (the workers' start cost 8-16 ms at 100k for no row).
        limit = "" if pools is None else f" LIMIT {EXACT_MAX * len(pools)}"
        cur.execute(f"SELECT m.id, m.seq, m.occurred_ts, {pool_case}, {cols}, "
                    f"m.subject_type, m.subject_id FROM memories m WHERE m.element = %s "
                    f"AND m.dim = {self.t.dim} AND ({which}){extra_sql}{limit}",
                    (*case_params, *params, self.t.element, *which_params, *extra_params))

    def _send_best(self, cur: Cursor, best: bm25.Best, pools: list[Sql]) -> list[int]:
        """Ask for the scored columns of the rows of ``best``'s next batch that pass its
        check (``bm25.check_sql``), read by :meth:`_read_rows`; the batch's sequence
        numbers, best first."""
        cols, params = self._columns("m")
        where, where_params = bm25.check_sql(self.t, scope_sql(pools), self.extra)
        batch = best.batch()
        cur.execute(f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, "
                    f"m.subject_id FROM memories m WHERE {where}",
                    (*params, *where_params, batch))
        return batch

    def _walk(self, queries: dict[str, np.ndarray], pools: list[Sql]
              ) -> tuple[list[list[str]], bm25.Matches | None]:
        """Candidates of large pools: each lane's HNSW walk per pool (its ids, nearest
        first), and every BM25 match of the query's terms, scored from their postings
        (``bm25.py``; None without terms); the best matches are checked against their
        rows after (:meth:`_candidates`). The two are independent: with a second connection free
        (``spare``), the walks run on it in a thread of their own while this one reads
        and sums the postings (the server walks while the client sums); else both go out
        in one pipeline."""
        conn, t = self.conn, self.t
        if self.words and self.spare is not None:
            with self.spare() as spare:
                if spare is not None:
                    # The walks see the search's instant (one round trip).
                    row = conn.execute("SELECT pg_export_snapshot()").fetchone()
                    walked: list[list[list[str]] | BaseException] = []
                    thread = threading.Thread(target=self._walk_beside, args=(
                        spare, str(row[0]) if row else "", queries, pools, walked))
                    thread.start()
                    try:
                        with conn.cursor() as top:
                            asked = self.postings.send(top, t, self.words)
                            summed = self.postings.scores(top, asked)
                    finally:
                        thread.join()
                    if isinstance(walked[0], BaseException):
                        raise walked[0]
                    return walked[0], summed
        top = conn.cursor()
        with conn.pipeline():
            walks = self._send_walks(conn, queries, pools)
            sent = self.postings.send(top, t, self.words) if self.words else None
        found = [[str(r[0]) for r in walk.fetchall()] for walk in walks]
        matches = self.postings.scores(top, sent) if sent is not None else None
        for c in (*walks, top):
            c.close()
        return found, matches

    def _walk_beside(self, spare: psycopg.Connection[Any], snapshot: str,
                     queries: dict[str, np.ndarray], pools: list[Sql],
                     walked: list[list[list[str]] | BaseException]) -> None:
        """:meth:`_send_walks` on ``spare`` (a thread's target) in the search's
        ``snapshot``: the ids found, or the error, appended to ``walked`` (an error leaves
        ``spare`` in its transaction: ``db.Database.spare`` drops it)."""
        try:
            with spare.pipeline():
                spare.execute(BEGIN)
                spare.execute(sql.SQL("SET TRANSACTION SNAPSHOT {}").format(
                    sql.Literal(snapshot)))
                walks = self._send_walks(spare, queries, pools, own=False)
                spare.execute("COMMIT")
            walked.append([[str(r[0]) for r in walk.fetchall()] for walk in walks])
            for c in walks:
                c.close()
        except BaseException as exc:   # raised again by the search's own thread
            walked.append(exc)

    def _send_walks(self, conn: psycopg.Connection[Any], queries: dict[str, np.ndarray],
                    pools: list[Sql], *, own: bool = True) -> list[Cursor]:
        """Send each lane's HNSW walk per pool in one transaction on ``conn`` (in
        pipeline mode; ``own``: a transaction or savepoint of their own, else the one
        the caller opened): their cursors, read after the pipeline's sync."""
        t, d = self.t, self.t.dim
        extra_sql, extra_params = self.extra
        walks: list[Cursor] = []
        with conn.transaction() if own else nullcontext(), conn.cursor() as settings_cur:
            settings_cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            # A sequential scan would compute (and detoast) every row's distance: leave
            # the planner the HNSW walk or, for a selective filter, the btree and a sort.
            settings_cur.execute("SET LOCAL enable_seqscan = off")
            # A large pool is walked, not read and sorted: right after a bulk load the
            # statistics may still call it a few rows, and a plan that reads every row
            # of the pool and sorts them costs its whole size.
            settings_cur.execute("SET LOCAL enable_bitmapscan = off")
            settings_cur.execute("SET LOCAL enable_sort = off")
            for lane in queries:
                # The file store's walk size: a query alone walks 64 content candidates,
                # not 192 (ef_search follows).
                k = self.ranking.lane_candidates(lane, len(queries))
                ef = min(1000, max(self.ranking.params.ef_search_min, k))
                settings_cur.execute(f"SET LOCAL hnsw.ef_search = {ef}")
                for pool_sql_, pool_params in pools:
                    walk = conn.cursor()
                    walk.execute(
                        f"SELECT id FROM memories WHERE element = %s AND dim = {d} AND "
                        f"({pool_sql_}){extra_sql} ORDER BY (v_{lane}::vector({d})) <=> "
                        f"%s::vector({d}) LIMIT %s",
                        (t.element, *pool_params, *extra_params, self.literal[lane], k))
                    walks.append(walk)
        return walks

    def _vector_pool(self, cur: Cursor, occurred: Bounds, cap: int | None) -> list[str]:
        """Ids in scope with a content vector that occurred within the bounds (at most
        ``cap``; more than ``cap`` means "too many to score whole")."""
        extra_sql, extra_params = filters(self.request.cats, occurred,
                                          valid=self.request.valid)
        scope_sql_, scope_params = self.scope
        cur.execute(f"SELECT id FROM memories WHERE element = %s AND dim = {self.t.dim} "
                    f"AND v_content IS NOT NULL AND ({scope_sql_}){extra_sql} ORDER BY seq"
                    + ("" if cap is None else " LIMIT %s"),
                    (self.t.element, *scope_params, *extra_params,
                     *(() if cap is None else (cap,))))
        return [str(r[0]) for r in cur.fetchall()]

    def _read_rows(self, cur: Cursor) -> dict[str, Scored]:
        return self._scored_rows(cur.fetchall())

    def _scored_rows(self, found: list[Any]) -> dict[str, Scored]:
        """Rows of the scored columns (:meth:`_columns`), by id; their BM25 from the
        postings when :meth:`_columns` left it out."""
        rows = {str(r[0]): scored(r) for r in found}
        if self.matches is not None and rows:
            scores = self.matches.of(np.array([row.seq for row in rows.values()],
                                             dtype=np.int64))
            for row, score in zip(rows.values(), scores.tolist(), strict=True):
                row.bm25 = score
        return rows

    # -- neighbours ------------------------------------------------------------------------

    def _neighbours(self, hits: np.ndarray, known: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Rows]:
        """``ranking.NeighbourFinder``. When every hit is a row of a pool scored whole,
        its neighbours (same owner, so same pool) are among those rows too, and are found
        without a statement (``scored.adjacent``); otherwise one statement finds each hit's
        neighbours and scores them (:meth:`_send_neighbours`, ``neighbours.send``)."""
        ids = [str(hit) for hit in hits.tolist()]
        triples: list[tuple[str, str, int]]
        if all(hit in self.whole for hit in ids):
            triples = adjacent(self.whole, ids, self.ranking.params.neighbour_gap,
                               self.ranking.params.neighbour_reach)
            scored = {neighbour: self.whole[neighbour] for _, neighbour, _ in triples}
        else:
            near, near_triples = self.near
            triples = [triple for triple in near_triples if triple[0] in ids]
            scored = {n: near[n] for _, n, _ in triples}
            ask = [hit for hit in ids if hit not in self.guess]
            if ask:
                with self.conn.cursor() as cur:
                    self._send_neighbours(cur, ask)
                    found = cur.fetchall()
                triples += _triples(found)
                scored.update(self._scored_rows(found))
        seen = set(known.tolist())
        return (np.array([h for h, _, _ in triples], dtype=str),
                np.array([n for _, n, _ in triples], dtype=str),
                np.array([step for _, _, step in triples], dtype=np.int64),
                as_rows(sorted((k, row) for k, row in scored.items() if k not in seen)))

    def _send_neighbours(self, cur: Cursor, hits: list[str], seqs: Sequence[int] = ()
                         ) -> None:
        """Ask for the neighbours of ``hits`` (and of the memories ``seqs``), scored as
        :meth:`_send_rows` scores rows (``neighbours.send``)."""
        neighbours.send(cur, self.t, self.request, self.ranking.params.neighbour_gap,
                        self._columns("m"), hits, seqs, self.ranking.params.neighbour_reach)


def _triples(found: list[Any]) -> list[tuple[str, str, int]]:
    """``(hit, neighbour, step)`` of each hit a row of ``neighbours.send`` neighbours."""
    return [(str(hit), str(r[0]), int(step)) for r in found
            for hit, step in zip(r[HITS], r[STEPS], strict=True)]
