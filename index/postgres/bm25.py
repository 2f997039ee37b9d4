"""BM25 for the PostgreSQL backend: the same scores as the file store's ``lexical.LexicalIndex``.

The same Snowball terms and BM25F weighting (``lexical.term_counts``), the same ``k1``
and ``b`` (``lexical.BM25_K1``/``BM25_B``), so recall matches the file store's rather
than approximating it with PostgreSQL's own text search (``docs/deploy.md`` says why).
``postgres/writes.py`` keeps what these read, through :func:`postings_add` and
:func:`postings_remove`: each row's ``lex_terms``/``lex_tf``/``lex_len``, the postings in
``memory_postings``, the document frequencies in ``memory_term_df`` and the element's
``lex_docs``/``lex_total``.

Two ways to score, for the two plans of a search (``postgres/search.py``): a memory's
BM25 from its own row (:func:`row_sql`: a small pool read whole, candidates), and the
best matches of a large pool from the postings (:class:`Postings`, :func:`top`).

**The postings.** A term's postings are cut into blocks of ``BLOCK`` sequence numbers;
one row per (element, term, block) holds, in a ``bytea``, one 8-byte record per memory
of the block that has the term: big-endian ``offset << 48 | tf << 24 | length``
(``offset`` = seq mod ``BLOCK``). A search reads the rows of its terms (about ``df /
BLOCK`` rows per term, ~1 KB-8 KB each, read inline) and sums BM25 over every posting in
numpy, as the file store does; the client keeps the blocks it decoded and is sent again
only those whose row changed since (:class:`Postings`). Summing in SQL instead, one
executor row per posting, cost ~1 us a posting: 460 ms for the ~360k postings of a query
over 100k memories (``bench/pg_bench.py``). Exact early termination (MaxScore, block-max
WAND) does not pay there: every query term is in ~60% of the memories with about the
same weight, so with the exact 64th best score known in advance MaxScore still leaves
~64k of 100k memories to complete from the other terms' postings, and block-max skips no
block (``bench/bm25_bounds.py``;
``docs/decisions/2026-12-03-postgres-bm25-postings.md``). A block is rewritten by each
write of a memory it holds (a few KB); a delete or an update reads its blocks and writes
them back without the memory's records, under the element's lock.

**Exact, in one order.** :meth:`Postings.scores` computes each contribution with the operations of
:func:`row_sql`, in the same order, and sums a memory's terms in the same (sorted) order,
so both give the same float for a memory, bit for bit; :func:`top` ranks by score, then
by sequence number (older first), and a test holds it to a ranking of every row by
:func:`row_sql` on random corpora (``tests/index/test_postgres_bm25.py``).
"""

from __future__ import annotations

import math
import threading
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import psycopg

from ..lexical import BM25_B, BM25_K1
from ..validation import MAX_CONTENT_BYTES, MAX_CONTEXT_BYTES
from .rows import Table

__all__ = ["row_sql", "average_sql", "Postings", "Asked", "top", "Matches", "Best", "check_sql",
           "postings_add", "postings_remove", "postings_rebuild_sql", "postings_digest",
           "rows_digest", "BLOCK"]

Sql = tuple[str, tuple[Any, ...]]
Cursor = psycopg.Cursor[Any]

# Sequence numbers per postings row. A row of a term that every memory has is 8 KB, the
# most a row holds inline (the table's ``toast_tuple_target``); reading a row costs
# ~5-10 us whatever its size, so fewer larger rows read faster (half the time at 1024
# as at 512, measured at 40k memories); a store rewrites one block per term.
BLOCK = 1024
_FIELD = 24   # bits of tf and of length in a record
# A term's frequency and a memory's length fit a record's fields by construction: at most
# CONTENT_WEIGHT (3) per word of the content plus one per word of the context, and a word
# takes two bytes at least (a character and a separator).
assert 3 * MAX_CONTENT_BYTES // 2 + MAX_CONTEXT_BYTES // 2 < 1 << _FIELD
_MASK = (1 << _FIELD) - 1
# Scores are summed in an array over the matches' span of sequence numbers when it is at
# most 8 per posting plus this (a tenth of a millisecond to zero), else over the matches.
_DENSE_SLACK = 4096
_RECORD = np.dtype(">u8")


def _idf_sql(t: Table, term_sql: str) -> Sql:
    """SQL of one term's idf, ``ln(1 + (N - n + .5) / (n + .5))`` as
    ``lexical.LexicalIndex.scores`` (NULL: no memory of the element has it)."""
    return ("(SELECT ln(1 + (e.lex_docs::float8 - d.df + 0.5) / (d.df + 0.5)) FROM "
            "memory_term_df d JOIN memory_elements e ON e.element = d.element WHERE "
            f"d.element = %s AND d.term = {term_sql} AND d.df > 0)", (t.element,))


def average_sql(t: Table) -> Sql:
    """SQL of the element's average memory length in terms (1 when none)."""
    return ("(SELECT coalesce(nullif(lex_total::float8 / nullif(lex_docs, 0), 0), 1.0) "
            "FROM memory_elements WHERE element = %s)", (t.element,))


def row_sql(t: Table, words: list[str], alias: str) -> Sql:
    """SQL of one memory's BM25 for the query's ``words`` (sorted; 0 without a match),
    from the row's own ``lex_terms``/``lex_tf``: per query term, ``array_position`` finds
    its frequency in the row (about half the cost of joining the unnested arrays per
    row); a row sharing no term is skipped. The idf and the average length are
    uncorrelated subqueries, computed once."""
    if not words:
        return "0::float8", ()
    average, average_params = average_sql(t)
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


# -- the best matches of a large pool -------------------------------------------------------

# The postings this process keeps decoded, per store (:class:`Postings`), at most: 24
# bytes each (a sequence number, a term frequency and a length), so ~48 MB. A query over
# 100k memories of ``pg_bench.py``'s 30 words reads ~360k; every word of that element is
# ~1.8M. Past it the terms read least recently are dropped.
CACHE_POSTINGS = 2_000_000
# Seconds a cached block is trusted without its row being read again at all. A block is
# known by its row's ``xmin`` (the transaction that wrote it); transaction ids wrap after
# 2**32, far more than a server commits in this time, so an unchanged ``xmin`` within it
# is an unchanged row.
CACHE_SECONDS = 600.0


@dataclass(frozen=True)
class _Term:
    """One term's postings as this process last read them: each block's row version and
    records, and every posting's sequence number, frequency and memory length (the blocks
    concatenated, in block order)."""

    versions: dict[int, int]
    packed: dict[int, np.ndarray]
    seq: np.ndarray
    tf: np.ndarray
    length: np.ndarray
    read: float   # time.monotonic() when first read
    # Each posting's BM25 contribution for the last (documents, total length, df) the
    # term was scored with: the same until a write changes one of them.
    scored: dict[tuple[int, int, int], np.ndarray] = field(default_factory=dict)

    def contribution(self, docs: int, total: int, df: int) -> np.ndarray:
        """Each posting's BM25 for the element's ``docs`` and ``total`` length and the
        term's ``df``, as :func:`row_sql` computes it."""
        key = (docs, total, df)
        found = self.scored.get(key)
        if found is None:
            # As average_sql: total / docs, 1 when there is none or it is 0.
            average = (total / docs if docs else 0.0) or 1.0
            # The operations of row_sql in its order, so the floats are the same: its
            # idf (math.log is the C library's ln, as PostgreSQL's) and its
            # tf * (k1 + 1) / norm.
            idf = math.log(1 + (float(docs) - df + 0.5) / (df + 0.5))
            norm = BM25_K1 * (1 - BM25_B + BM25_B * self.length / average)
            found = idf * self.tf * (BM25_K1 + 1.0) / (self.tf + norm)
            self.scored.clear()   # the last only (two threads at once: computed twice)
            self.scored[key] = found
        return found


def _term(packed: dict[int, np.ndarray], versions: dict[int, int], read: float) -> _Term:
    blocks = sorted(packed)
    if not blocks:
        empty = np.zeros(0, dtype=np.int64)
        return _Term(versions, packed, empty, empty.astype(np.float64),
                     empty.astype(np.float64), read)
    records = np.concatenate([packed[b] for b in blocks])
    starts = np.repeat(np.array(blocks, dtype=np.int64) * BLOCK,
                       [len(packed[b]) for b in blocks])
    return _Term(versions, packed, starts + (records >> 2 * _FIELD),
                 ((records >> _FIELD) & _MASK).astype(np.float64),
                 (records & _MASK).astype(np.float64), read)


@dataclass(frozen=True)
class Asked:
    """One postings statement sent (:meth:`Postings.send`): the cached terms whose
    block versions it sent (the rows of an unchanged block come back without their
    records)."""

    known: dict[str, _Term]


class Postings:
    """This process's decoded copy of one element's postings blocks, read through.

    A search sends the versions of the blocks it holds for its terms; the server returns
    every block row of those terms with its version, and the records only of the blocks
    whose row changed since or that were not held (a store rewrites the newest block of
    each of its terms, so after one only those come back). A block the server no longer
    returns was deleted. So a search still sees one committed state, as when every block
    came back, without moving 2.4 MB and decoding them per search (``pg_bench.py`` at
    100k); summing BM25 is then the file store's work. Safe to share between threads: a
    term's entry is replaced whole, and a search reads the entries it sent.
    """

    def __init__(self, limit: int = CACHE_POSTINGS, clock: Any = time.monotonic) -> None:
        self._terms: dict[str, _Term] = {}
        self._limit, self._clock = limit, clock
        self._lock = threading.Lock()
        self.decoded = 0   # blocks whose records came back, since made (a statistic)

    def send(self, cur: Cursor, t: Table, words: list[str]) -> Asked:
        """Ask for the postings of ``words`` (sorted) with what scoring them needs, in
        one statement (the blocks, the document frequencies and the element's counters
        of one committed state); :meth:`scores` reads the answer."""
        now = self._clock()
        with self._lock:
            known = {w: self._terms[w] for w in words if w in self._terms
                     and now - self._terms[w].read < CACHE_SECONDS}
        pairs = [(w, block, version) for w, term in known.items()
                 for block, version in term.versions.items()]
        # A block held is looked up in a hash of the versions sent (built once), not
        # the blocks hashed with their records; the frequencies are read by the words,
        # not all hashed (one row per term of the element).
        cur.execute("SELECT p.term, p.block, p.xmin::text::int8, CASE WHEN (p.term, "
                    "p.block, p.xmin::text::int8) IN (SELECT * FROM unnest(%s::text[], "
                    "%s::int[], %s::int8[])) THEN NULL ELSE p.records END, d.df, "
                    "e.lex_docs, e.lex_total FROM memory_elements e JOIN memory_term_df d "
                    "ON d.element = e.element JOIN memory_postings p ON p.element = "
                    "d.element AND p.term = d.term WHERE e.element = %s AND "
                    "d.term = ANY(%s) AND d.df > 0",
                    ([p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs],
                     t.element, words), binary=True)
        return Asked(known)

    def scores(self, cur: Cursor, asked: Asked) -> Matches:
        """BM25 of every memory with a term of the query, from the answer to
        :meth:`send`, as :func:`row_sql` computes it."""
        rows = cur.fetchall()
        if not rows:
            return Matches(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))
        docs, total = int(rows[0][5]), int(rows[0][6])
        versions: dict[str, dict[int, int]] = defaultdict(dict)
        fresh: dict[str, dict[int, np.ndarray]] = defaultdict(dict)
        frequency: dict[str, int] = {}
        for term, block, version, records, df, *_ in rows:
            versions[term][int(block)] = int(version)
            if records is not None:
                fresh[term][int(block)] = np.frombuffer(
                    records, dtype=_RECORD).astype(np.int64)
                self.decoded += 1
            frequency[term] = int(df)
        now = self._clock()
        current: dict[str, _Term] = {}
        for term, blocks in versions.items():
            held = asked.known.get(term)
            if held is not None and held.versions == blocks:
                current[term] = held
                continue
            packed = {b: fresh[term][b] if b in fresh[term] else held.packed[b]
                      for b in blocks} if held is not None else fresh[term]
            current[term] = _term(packed, blocks, held.read if held else now)
        self._keep(current)
        seqs, parts = [], []
        for term in sorted(current):
            seqs.append(current[term].seq)
            parts.append(current[term].contribution(docs, total, frequency[term]))
        every = np.concatenate(seqs)
        low, high = int(every.min()), int(every.max())
        if high - low < 8 * len(every) + _DENSE_SLACK:
            slots, at = np.arange(low, high + 1, dtype=np.int64), every - low
        else:
            # Sequence numbers far apart (many deleted between): index the matches.
            slots, at = np.unique(every, return_inverse=True)
        # Terms in sorted order, as row_sql adds them: bincount adds the weights of a
        # slot in the order they come, from 0.0, as += term after term would.
        summed = np.bincount(at, weights=np.concatenate(parts), minlength=len(slots))
        matched = np.flatnonzero(summed > 0)
        return Matches(slots[matched], summed[matched])

    def _keep(self, current: dict[str, _Term]) -> None:
        """Hold ``current`` (the terms just read), dropping the terms read least
        recently while the postings held pass the limit."""
        with self._lock:
            for term, held in current.items():
                self._terms.pop(term, None)
                self._terms[term] = held   # last in the dict: the most recent
            size = sum(len(held.seq) for held in self._terms.values())
            for term in list(self._terms):
                if size <= self._limit:
                    break
                size -= len(self._terms.pop(term).seq)


@dataclass(frozen=True)
class Matches:
    """Every memory matching a query: sequence numbers (ascending) and BM25 (> 0)."""

    seqs: np.ndarray
    scores: np.ndarray

    def best(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``count`` best (or every one when fewer): sequence numbers and scores,
        best first; equal scores in sequence order (the older first)."""
        seqs, found = self.seqs, self.scores
        if count < len(found):
            # The count-th best score, and every match at least as good (ties included,
            # so the order among them is decided below, not by the partition).
            kth = np.partition(found, len(found) - count)[len(found) - count]
            chosen = np.flatnonzero(found >= kth)
            seqs, found = seqs[chosen], found[chosen]
        order = np.lexsort((seqs, -found))[:count]
        return seqs[order], found[order]

    def of(self, seqs: np.ndarray) -> np.ndarray:
        """BM25 of the memories ``seqs`` (0 for one that matches nothing); ``seqs`` of
        the matches are ascending, as :meth:`Postings.scores` makes them."""
        at = np.minimum(np.searchsorted(self.seqs, seqs), max(len(self.seqs) - 1, 0))
        if not len(self.seqs):
            return np.zeros(len(seqs), dtype=np.float64)
        return np.where(self.seqs[at] == seqs, self.scores[at], 0.0)


class Best:
    """The ``want`` best of ``matches`` that pass a check against their rows (scope,
    filters, a content vector), found a batch at a time, best first: each next batch is
    sized by how many of the last passed. :func:`top` sends each batch's check; a search
    may send the first with statements of its own (``postgres/search.py``) and hand the
    rows that passed to :meth:`passed`."""

    def __init__(self, matches: Matches, want: int, first: int | None = None) -> None:
        self.matches, self.want = matches, want
        self.found: list[tuple[float, str]] = []   # (score, id), best first
        self._size, self._seen = first or max(2 * want, 32), 0
        self._batch = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))

    def pending(self) -> bool:
        """Whether another batch is to be checked."""
        return len(self.found) < self.want and self._seen < len(self.matches.seqs)

    def batch(self) -> list[int]:
        """The sequence numbers of the next batch, best first."""
        seqs, best = self.matches.best(self._seen + self._size)
        self._batch = (seqs[self._seen:], best[self._seen:])
        return self._batch[0].tolist()

    def passed(self, ids: dict[int, str]) -> None:
        """The rows of the last batch that passed: their ids by sequence number (others
        are ignored)."""
        batch, batch_scores = self._batch
        found = [(score, ids[seq]) for seq, score in
                 zip(batch.tolist(), batch_scores.tolist(), strict=True) if seq in ids]
        self.found += found
        self._seen += len(batch)
        share = max(len(found), 1) / max(len(batch), 1)
        self._size = min(max(int((self.want - len(self.found)) / share * 1.5), 32), 1 << 16)

    def result(self) -> list[tuple[float, str]]:
        """``(score, id)`` of the best that passed, best first, ties in sequence order."""
        return self.found[:self.want]


def check_sql(t: Table, scope: Sql, extra: Sql) -> Sql:
    """The condition a best match's row passes (on ``memories`` unqualified; followed by
    the batch's sequence numbers as one more parameter, ``seq = ANY(%s)``)."""
    return (f"element = %s AND v_content IS NOT NULL AND dim = {t.dim} AND ({scope[0]})"
            f"{extra[0]} AND seq = ANY(%s)", (t.element, *scope[1], *extra[1]))


def top(conn: psycopg.Connection[Any], t: Table, matches: Matches, scope: Sql, extra: Sql,
        want: int, best: Best | None = None) -> list[tuple[float, str]]:
    """The ``want`` best of ``matches`` in scope that have a content vector
    (``(score, id)``, best first, ties in sequence order), checked against their rows a
    batch at a time (:class:`Best`; ``best``: one whose first batches were checked)."""
    best = best or Best(matches, want)
    where, params = check_sql(t, scope, extra)
    with conn.cursor() as cur:
        while best.pending():
            cur.execute(f"SELECT seq, id FROM memories WHERE {where}",
                        (*params, best.batch()))
            best.passed({int(seq): str(memory_id) for seq, memory_id in cur.fetchall()})
    return best.result()


# -- keeping the postings -----------------------------------------------------------------

def _records(seq: int, terms: Iterable[tuple[str, int]], length: int
             ) -> list[tuple[str, int, bytes]]:
    offset = (seq % BLOCK) << 2 * _FIELD
    return [(term, seq // BLOCK, (offset | tf << _FIELD | length).to_bytes(8, "big"))
            for term, tf in terms]


def postings_add(cur: Cursor, t: Table, memories: list[tuple[int, list[str], list[int]]]
                 ) -> None:
    """Append the records of ``memories`` (``(seq, terms, tfs)``) to their blocks."""
    rows = [r for seq, words, tfs in memories
            for r in _records(seq, zip(words, tfs, strict=True), sum(tfs))]
    if not rows:
        return
    cur.execute("INSERT INTO memory_postings AS p (element, term, block, records) "
                "SELECT %s, u.term, u.block, string_agg(u.record, ''::bytea) FROM "
                "unnest(%s::text[], %s::int[], %s::bytea[]) AS u(term, block, record) "
                "GROUP BY u.term, u.block "
                "ON CONFLICT (element, term, block) DO UPDATE "
                "SET records = p.records || EXCLUDED.records",
                (t.element, [r[0] for r in rows], [r[1] for r in rows],
                 [r[2] for r in rows]))


def postings_remove(cur: Cursor, t: Table, memories: list[tuple[int, list[str]]]) -> None:
    """Take the records of ``memories`` (``(seq, terms)``) out of their blocks: each
    block read and written back without them (a block left empty is deleted)."""
    offsets: dict[tuple[str, int], set[int]] = defaultdict(set)
    for seq, words in memories:
        for term in words:
            offsets[(term, seq // BLOCK)].add(seq % BLOCK)
    if not offsets:
        return
    keys = sorted(offsets)
    # FOR UPDATE: a block is read and written back in this transaction, so no other
    # writer's append can fall between (writers of an element also hold its lock).
    cur.execute("SELECT p.term, p.block, p.records FROM memory_postings p JOIN "
                "unnest(%s::text[], %s::int[]) AS u(term, block) ON p.term = u.term "
                "AND p.block = u.block WHERE p.element = %s FOR UPDATE OF p",
                ([k[0] for k in keys], [k[1] for k in keys], t.element))
    kept: list[tuple[str, int, bytes]] = []
    for term, block, records in cur.fetchall():
        packed = np.frombuffer(bytes(records), dtype=_RECORD)
        gone = np.isin((packed >> np.uint64(2 * _FIELD)).astype(np.int64),
                       list(offsets[(term, int(block))]))
        kept.append((term, int(block), packed[~gone].tobytes()))
    cur.execute("DELETE FROM memory_postings p USING unnest(%s::text[], %s::int[]) AS "
                "u(term, block) WHERE p.element = %s AND p.term = u.term AND "
                "p.block = u.block",
                ([k[0] for k in kept if not k[2]], [k[1] for k in kept if not k[2]],
                 t.element))
    cur.execute("UPDATE memory_postings p SET records = u.records FROM unnest(%s::text[], "
                "%s::int[], %s::bytea[]) AS u(term, block, records) WHERE p.element = %s "
                "AND p.term = u.term AND p.block = u.block",
                ([k[0] for k in kept if k[2]], [k[1] for k in kept if k[2]],
                 [k[2] for k in kept if k[2]], t.element))


def postings_rebuild_sql(where: str = "true") -> str:
    """SQL that writes the postings of the memories matching ``where`` (on ``memories``)
    from their rows' ``lex_terms``/``lex_tf``/``lex_len``, records in sequence order
    (a migration fills the table with it, a repair rebuilds an element's)."""
    return ("INSERT INTO memory_postings (element, term, block, records) "
            f"SELECT m.element, u.term, (m.seq / {BLOCK})::int, "
            # Every operator parenthesized: SQL gives << and | one precedence; mod(), not
            # %, which a statement with parameters would read as a placeholder.
            f"string_agg(int8send((mod(m.seq, {BLOCK}) << {2 * _FIELD}) | "
            f"(u.tf::int8 << {_FIELD}) | m.lex_len::int8), ''::bytea ORDER BY m.seq) "
            "FROM memories m, unnest(m.lex_terms, m.lex_tf) AS u(term, tf) "
            f"WHERE {where} GROUP BY m.element, u.term, m.seq / {BLOCK}")


# -- checking the postings (verify) -------------------------------------------------------

Digest = dict[str, tuple[int, int, int, int]]


def postings_digest(cur: Cursor, t: Table) -> Digest:
    """Per term of the element's postings: how many records, and the sums of their
    sequence numbers, term frequencies and lengths. Equal to :func:`rows_digest` when
    the postings hold each memory's terms once, as its row has them: a record missing,
    extra, repeated or with a wrong field changes a count or a sum."""
    cur.execute("SELECT term, block, records FROM memory_postings WHERE element = %s",
                (t.element,), binary=True)
    by_term: dict[str, dict[int, np.ndarray]] = defaultdict(dict)
    for term, block, records in cur.fetchall():
        by_term[term][int(block)] = np.frombuffer(records, dtype=_RECORD).astype(np.int64)
    digest: Digest = {}
    for term, blocks in by_term.items():
        found = _term(blocks, {}, 0.0)
        if len(found.seq):
            digest[term] = (len(found.seq), int(found.seq.sum()), int(found.tf.sum()),
                            int(found.length.sum()))
    return digest


def rows_digest(cur: Cursor, t: Table) -> Digest:
    """:func:`postings_digest` as the rows' own ``lex_terms``/``lex_tf``/``lex_len``
    give it."""
    cur.execute("SELECT u.term, count(*), sum(m.seq), sum(u.tf), sum(m.lex_len) FROM "
                "memories m, unnest(m.lex_terms, m.lex_tf) AS u(term, tf) WHERE "
                "m.element = %s GROUP BY u.term", (t.element,))
    return {str(term): (int(n), int(seqs), int(tfs), int(lengths))
            for term, n, seqs, tfs, lengths in cur.fetchall()}
