"""PostgresMemoryStore: the memories of one element in PostgreSQL + pgvector (a ``MemoryBackend``).

The ops are ``core.MemoryCore``'s, every backend's; this class gives them the storage's
primitives over the tables of ``db.py``: one row per memory in ``memories``, keyed
``(element, id)`` (many elements share the tables), each lane a ``vector`` column with
an HNSW (cosine) index per vector size, and the BM25 terms beside (``bm25.py``). The
modules follow the file store's seams: ``rows.py`` (a row as a memory, the element's
lock), ``writes.py``, ``search.py``, ``listing.py``, ``health.py``.

Writes: every change of an element runs in one transaction holding a transaction-level
advisory lock on the element (``pg_advisory_xact_lock``), so capacity, fair eviction,
sequence numbers and idempotency keys are decided serially across every worker and
thread; the unique index on ``(element, idem_key)`` backs the keys up. A transaction that
does not commit leaves nothing, so a refused or failed call writes nothing. Embedding runs
before the transaction. Returned search results count one access (one statement after
ranking, whose commit does not wait for the WAL flush).
"""

from __future__ import annotations

import logging
import time

import numpy as np
import psycopg
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ..answers_under import cut, join_under, joined, reads_under, told_now
from ..backend import HealthItem, ImportedMemory, Memory, SearchResult, StoreResult
from ..core import MemoryCore, Vectors
from ..decisions import check_keys
from ..embed import Embedder
from ..errors import MemoryCapacity, MemoryNotFound, StoreClosed, StoreFailed
from ..gathered import Ranked
from ..params import IndexParams
from ..query import ListQuery, SearchQuery
from ..ranking import Ranking
from ..recency import Asked, asked_of, newer_first, reorder
from ..later import Version, later_versions
from ..recall import LANES
from ..records import CATEGORIES, MemoryRecord, iso_utc
from ..validation import NewMemory, validate_new
from ..settings import MemorySettings
from ..validity import Change
from . import bm25, health, listing, search, statistics, successors, writes
from .db import SCHEMA_VERSION, Database
from .rows import FIELDS, PUBLIC, Locked, Table, lock_key, public, vector_text

__all__ = ["PostgresMemoryStore"]

logger = logging.getLogger(__name__)

# How often a worker whose element another worker is embedding looks again (seconds).
EMBEDDING_ELSEWHERE_POLL = 0.1


class PostgresMemoryStore(MemoryCore):
    """The memories of one element, kept in a PostgreSQL database (see the module docstring).

    :param database: the shared :class:`Database`, or a URL (the store then owns a pool of
        its own and closes it).
    :param element: the element's key in the tables (the home passes its element id).
    :param embedder: as for ``MemoryStore``; its ``model_id`` and ``dim`` are kept per row,
        and rows embedded by another model lose their vectors on open (``repair_embeddings``
        re-embeds them).
    :param clock: POSIX seconds (retention, timestamps).
    :param index_params: candidate generation (``oversample``...), ``situated_lexical``,
        ``time_weight`` and ``neighbour_*``; the hnswlib-specific fields are unused (``M``
        and ``ef_construction`` are pgvector's defaults, 16 and 64).
    :param migrate: apply missing migrations on open (else a database behind the code
        version is refused).
    :param repair_on_open: rows of the element found without vectors on open (written
        with ``embed_later`` by a worker that stopped before its background embedder got
        to them, an outage, another model's) are embedded in the background at once, as
        ``MemoryStore``'s option does.
    :raise DatabaseUnavailable: the database cannot be reached.
    :raise StoreFailed: the schema is older than this code and ``migrate`` is off.
    """

    def __init__(self, database: Database | str, element: str, embedder: Embedder, *,
                 clock: Callable[[], float] = time.time,
                 index_params: IndexParams | None = None, embed_cache: int = 4096,
                 migrate: bool = True, repair_on_open: bool = False) -> None:
        self.element = str(element)
        super().__init__(embedder, clock=clock, index_params=index_params,
                         embed_cache=embed_cache, name=self.element)
        self._owns = isinstance(database, str)
        self._db = Database(database) if isinstance(database, str) else database
        self._table = Table(self.element, self._model_id, self._dim)
        # The postings blocks this store's searches decoded (``bm25.Postings``).
        self._postings = bm25.Postings()
        self._closed = False
        self._lock_id = lock_key(self.element)
        # One embedding pass at a time in the whole deployment (``_repair_pass``).
        self._embedding_lock_id = lock_key(self.element, "embedding")
        try:
            self._open(migrate)
            if repair_on_open:      # embeds what is unembedded, then warms the names
                self._behind.wake()
        except BaseException:
            if self._owns:
                self._db.close()
            raise

    def _open(self, migrate: bool) -> None:
        if migrate:
            self._db.migrate()
        elif self._db.version() < SCHEMA_VERSION:
            raise StoreFailed("the memory database schema is behind this version: run "
                              "`triform init --database URL`")
        self._db.ensure_dim(self._dim)
        with self._tx() as cur:
            cur.execute("INSERT INTO memory_elements (element) VALUES (%s) "
                        "ON CONFLICT DO NOTHING", (self.element,))
            # Vectors of another model (or size) cannot be compared with this one's.
            cur.execute("UPDATE memories SET v_content = NULL, v_context = NULL, "
                        "v_intention = NULL, embedded = false, model = NULL, dim = NULL "
                        "WHERE element = %s AND (embedded OR v_content IS NOT NULL) AND "
                        "(model IS DISTINCT FROM %s OR dim IS DISTINCT FROM %s)",
                        (self.element, self._model_id, self._dim))
            # Terms of another lexical scheme are written again under the element's lock
            # (checked again there: another worker may have done it first); an element
            # already under this one takes no lock at open.
            behind = writes.scheme_behind(cur, self._table, self._params.situated_lexical)
        if behind:
            with self._tx(lock=True) as cur:
                writes.reterm(cur, self._table, self._params.situated_lexical)

    # -- plumbing --------------------------------------------------------------------------

    def _tx(self, *, lock: bool = False) -> Locked:
        """A transaction (``Database.transaction``); ``lock``: hold the element's lock."""
        self._check_open()
        return Locked(self._db, self._lock_id if lock else None)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed()

    def _release(self) -> None:
        # The shared database pool stays open; an owned one closes.
        if not self._closed:
            self._closed = True
            if self._owns:
                self._db.close()

    def _count(self) -> int:
        with self._tx() as cur:
            cur.execute("SELECT count(*) FROM memories WHERE element = %s", (self.element,))
            row = cur.fetchone()
            return int(row[0]) if row else 0

    def _memory(self, memory_id: str) -> Memory:
        with self._tx() as cur:
            return writes.public_of(cur, self._table, memory_id)

    def _now(self) -> str:
        return iso_utc(self._clock())

    # -- writes ----------------------------------------------------------------------------

    def _earlier(self, new: NewMemory) -> StoreResult | None:
        if new.key is None:
            return None
        with self._tx() as cur:
            return writes.earlier(cur, self._table, new)

    def _check_keys(self, news: Sequence[NewMemory]) -> None:
        with self._tx() as cur:
            check_keys(lambda new: writes.earlier(cur, self._table, new), news)

    def _insert(self, news: Sequence[NewMemory], vectors: Sequence[Vectors | None],
                settings: MemorySettings, *, pending: bool,
                batch: bool) -> list[StoreResult]:
        results: list[StoreResult] = []
        refused: MemoryCapacity | None = None
        with self._tx(lock=True) as cur:
            if batch:
                check_keys(lambda new: writes.earlier(cur, self._table, new), news)
            for new, lanes in zip(news, vectors, strict=True):
                try:
                    results.append(writes.insert(
                        cur, self._table, new, lanes, settings, now=self._now(),
                        situated=self._params.situated_lexical, pending=pending))
                except MemoryCapacity as exc:
                    # The items before it stay: commit them, then report this one.
                    refused = exc
                    break
        if batch:       # a bulk load: the planner learns the table's new size now
            statistics.analyze_after(self._db, len(results))
        if refused is not None:
            raise refused
        return results

    @contextmanager
    def _editing(self, memory_id: str, *, lock: bool) -> Iterator[_Edit]:
        with self._tx(lock=lock) as cur:
            yield _Edit(self, cur, writes.read_record(cur, self._table, memory_id))

    def _delete(self, memory_id: str, hand_on: bool) -> set[str]:
        # The row, its vectors and postings, then ``VACUUM``, as ``_forget`` (what stays
        # on disk: its comment).
        with self._tx(lock=True) as cur:
            texts = writes.erased_rows_texts(cur, self._table, "id = %s", (memory_id,))
            if hand_on:
                successors.take_over(cur, self._table, memory_id, self._now())
            if not writes.delete_rows(cur, self._table, "id = %s", (memory_id,)):
                raise MemoryNotFound(memory_id)
        health.vacuum(self._db, self._table, self._tx, heap_only=True)
        return texts

    def _expire(self, retention: dict[str, float], now: float) -> list[str]:
        conditions, params = list[str](), list[Any]()
        for category, days in retention.items():
            conditions.append("(category = %s AND created_ts <= %s)")
            params.extend([category, now - days * 86_400.0])
        with self._tx(lock=True) as cur:
            return writes.delete_rows(cur, self._table, " OR ".join(conditions), params)

    def _forget(self, subject: tuple[str, str]) -> tuple[list[str], set[str]]:
        # The rows (text, vectors, postings) go in one commit: a crash leaves all or none.
        # ``VACUUM`` then marks their space free; PostgreSQL does not zero freed space, so
        # the bytes stay in the table files (and in WAL segments until they are recycled)
        # until overwritten (``docs/deploy.md``, "What a delete leaves on disk").
        where = "subject_type = %s AND subject_id = %s"
        with self._tx(lock=True) as cur:
            texts = writes.erased_rows_texts(cur, self._table, where, subject)
            ids = writes.delete_rows(cur, self._table, where, subject)
        health.vacuum(self._db, self._table, self._tx)
        return ids, texts

    def _compact(self) -> None:
        # ``VACUUM (ANALYZE)``: reclaim dead rows, refresh the planner's statistics.
        health.vacuum(self._db, self._table, self._tx, analyze=True)

    # -- search and counts -----------------------------------------------------------------

    def _recall(self, request: SearchQuery, queries: Vectors | None, scoping: bool,
                ranking: Ranking, count_access: bool) -> SearchResult:
        self._check_open()
        # Before the transaction: the first search of a model embeds the profile bank once.
        question = asked_of(self._embedder, queries, request.texts["content"], ranking.name,
                            ranking.they)
        with self._db.autocommit() as conn:
            # ``search.gather`` opens the search's read-only REPEATABLE READ transaction
            # in its first pipeline (its statements see one instant); it ends here, with
            # the access count's statement in one round trip when there are hits.
            try:
                ranked = ranking.rank(search.gather(conn, self._table, request, queries,
                                                    scoping, ranking, self._db.spare,
                                                    self._postings))
                # Joining reads the rows and orders them (``settled``), as do rows past
                # the limit (``Ranking.depth``): the access count is of the results as
                # they are shown, after the order has cut them.
                joins = reads_under(question)
                settled = joins or len(ranked.keys) > ranking.limit
                if settled:
                    ranked = self._settle(conn, ranked, question, ranking.limit, joins)
            except BaseException:
                with suppress(psycopg.Error):     # a broken connection has none to end
                    conn.execute("ROLLBACK")
                raise
            if not ranked.keys:
                conn.execute("COMMIT")
                return SearchResult([], ranked.fallback)
            # Rows already ordered (``settled``) need not send their vectors again.
            tail = "NULL, NULL" if settled else _NEWNESS
            with conn.cursor() as cur:
                with conn.pipeline():
                    conn.execute("COMMIT")
                    if count_access:
                        # An access count is a statistic, not an acknowledged write: its
                        # commit need not wait for the WAL flush (a crash may lose the last
                        # counts, never data). ``set_config(..., true)`` lasts for this
                        # statement's own transaction only, so the pooled connection keeps
                        # its setting. Nor does a count wait for a row lock: a hit that
                        # another transaction holds (a writer, the embedder, another
                        # search's count) is read as it is and not counted this time, so
                        # no two transactions wait on each other (locking the hits in
                        # any order deadlocked under load against those writers).
                        cur.execute(f"WITH hit AS (SELECT id AS key FROM memories WHERE "
                                    f"element = %s AND id = ANY(%s) FOR UPDATE SKIP LOCKED), "
                                    f"counted AS (UPDATE memories SET access_count = "
                                    f"access_count + 1, last_accessed_at = %s FROM hit WHERE "
                                    f"element = %s AND id = hit.key AND "
                                    f"set_config('synchronous_commit', 'off', true) = 'off' "
                                    f"RETURNING {PUBLIC}, {tail}) "
                                    f"SELECT * FROM counted UNION ALL SELECT {PUBLIC}, "
                                    f"{tail} FROM memories WHERE element = %s AND "
                                    f"id = ANY(%s) AND id NOT IN (SELECT key FROM hit)",
                                    (self.element, ranked.keys, self._now(), self.element,
                                     self.element, ranked.keys))
                    else:
                        cur.execute(f"SELECT {PUBLIC}, {tail} FROM memories WHERE "
                                    f"element = %s AND id = ANY(%s)",
                                    (self.element, ranked.keys))
                rows = {row[0]: row for row in cur.fetchall()}
                # A result no longer current (``as_of``) is read with its later versions.
                later = [] if settled else _later(cur, self.element,
                                                  [rows.get(k) for k in ranked.keys])
        if not settled:
            ranked = reorder(ranked, _newer_first([rows.get(k) for k in ranked.keys],
                                                  ranked.scores, question, later))
        found = {key: public(row[:len(FIELDS)]) for key, row in rows.items()}
        results = [{"memory": found[memory_id], "score": value, "lanes": lanes}
                   for memory_id, value, lanes in zip(ranked.keys, ranked.scores,
                                                      ranked.lanes, strict=True)
                   if memory_id in found]
        return SearchResult(results, ranked.fallback)

    def _settle(self, conn: Any, ranked: Ranked, question: Asked | None, limit: int,
                joins: bool) -> Ranked:
        """``ranked`` read in the search's transaction, in ``recency.newer_first``'s order
        and cut at ``limit``; with the newer values joined from its rows not chosen
        (``answers_under.py``) when ``joins`` (``answers_under.reads_under``)."""
        keys = ranked.keys + (ranked.under.keys if joins and ranked.under else [])
        with conn.cursor() as cur:
            cur.execute(f"SELECT {PUBLIC}, {_NEWNESS} FROM memories WHERE element = %s AND "
                        f"id = ANY(%s)", (self.element, keys))
            rows = {row[0]: row for row in cur.fetchall()}
            later = _later(cur, self.element, [rows.get(k) for k in ranked.keys])
        # Each row is read once, and a row not chosen has its vector parsed only when its
        # words may make it a newer value (``answers_under.told_now``): parsing a vector's
        # text is most of the reading.
        listed = [rows.get(k) for k in keys]
        chosen = len(ranked.keys)
        width = len(FIELDS)
        rest = told_now([None if r is None else r[FIELDS.index("content")] for r in listed],
                        [None if r is None else r[FIELDS.index("category")] for r in listed],
                        chosen, question)
        read = _read([r if i < chosen or i in rest or r is None else
                      (*r[:width], None, *r[width + 1:]) for i, r in enumerate(listed)])
        ranked = joined(ranked, join_under(*read, chosen, question))
        at = {k: i for i, k in enumerate(keys)}
        picked = [at[k] for k in ranked.keys]
        vectors, owners, newness, contents, categories = read
        return cut(reorder(ranked, newer_first(
            [vectors[i] for i in picked], [owners[i] for i in picked],
            [newness[i] for i in picked], ranked.scores, question=question,
            contents=[contents[i] for i in picked],
            categories=[categories[i] for i in picked],
            later=[later[i] if i < chosen else [] for i in picked])), limit)

    def _counts(self) -> dict[str, Any]:
        with self._tx() as cur:
            cur.execute("SELECT category, count(*) FROM memories WHERE element = %s "
                        "GROUP BY category", (self.element,))
            per_category = {str(c): int(n) for c, n in cur.fetchall()}
            cur.execute("SELECT subject_type, subject_id, count(*) FROM memories WHERE "
                        "element = %s AND subject_type IS NOT NULL GROUP BY 1, 2",
                        (self.element,))
            by_subject = [{"subject_type": t, "subject_id": i, "count": int(n)}
                          for t, i, n in cur.fetchall()]
            cur.execute("SELECT count(*) FILTER (WHERE subject_type IS NULL), "
                        "count(*) FILTER (WHERE NOT embedded) FROM memories "
                        "WHERE element = %s", (self.element,))
            general, unembedded = (int(x) for x in cur.fetchone() or (0, 0))
        by_subject.sort(key=lambda s: (-s["count"], s["subject_type"], s["subject_id"]))
        total = sum(per_category.values())
        return {"total": total,
                "by_category": {c: per_category.get(c, 0) for c in CATEGORIES},
                "by_subject": by_subject, "general": general,
                "embedded": total - unembedded, "unembedded": unembedded}

    # -- embedding passes and health -------------------------------------------------------

    def _repair_pass(self, stop: Callable[[], bool], *, durable: bool) -> int:
        """Embed what is pending, one worker of the deployment at a time.

        Every worker's pass takes every row still without vectors, so two passes at once
        would each run the model over the same rows (the second one's updates then match
        nothing). The pass holds the element's embedding lock (a session lock, released
        when the worker dies); a worker that finds it held waits for the other's pass,
        which takes what this one would have, and then looks for anything left.
        """
        while True:
            self._check_open()
            with self._db.session_lock(self._embedding_lock_id) as mine:
                if mine:
                    return self._embed_pending(stop, durable=durable)
            if stop() or not self._unembedded_count():
                return 0
            time.sleep(EMBEDDING_ELSEWHERE_POLL)

    def _opening_words(self, limit: int) -> list[str]:
        with self._tx() as cur:
            cur.execute("SELECT substring(content from '^[A-Za-z]+') AS word FROM memories "
                        "WHERE element = %s AND content ~ '^[A-Za-z]' GROUP BY word "
                        "ORDER BY count(*) DESC, word LIMIT %s",
                        (self.element, limit))
            return [word for (word,) in cur.fetchall()]

    def _unembedded(self, attempted: set[str],
                    size: int) -> list[tuple[str, dict[str, str]]]:
        with self._tx() as cur:
            cur.execute("SELECT id, content, context, intention FROM memories WHERE "
                        "element = %s AND NOT embedded AND NOT (id = ANY(%s)) "
                        "ORDER BY seq LIMIT %s", (self.element, list(attempted), size))
            rows = cur.fetchall()
        batch = []
        for memory_id, *texts in rows:
            attempted.add(memory_id)
            batch.append((memory_id, {lane: text for lane, text in
                                      zip(LANES, texts, strict=True) if text is not None}))
        return batch

    def _save_vectors(self, batch: list[tuple[str, dict[str, str], Vectors]], *,
                      durable: bool) -> int:
        saved = 0
        with self._tx(lock=True) as cur:
            for memory_id, texts, vectors in batch:
                sets = ", ".join(f"v_{lane} = %s::vector" for lane in texts)
                cur.execute(
                    f"UPDATE memories SET {sets}, embedded = true, model = %s, dim = %s "
                    "WHERE element = %s AND id = %s AND NOT embedded AND content = %s "
                    "AND context IS NOT DISTINCT FROM %s "
                    "AND intention IS NOT DISTINCT FROM %s",
                    (*[vector_text(vectors[lane]) for lane in texts], self._model_id,
                     self._dim, self.element, memory_id, texts["content"],
                     texts.get("context"), texts.get("intention")))
                saved += cur.rowcount
        return saved

    def _unembedded_count(self) -> int:
        with self._tx() as cur:
            cur.execute("SELECT count(*) FROM memories WHERE element = %s AND NOT embedded",
                        (self.element,))
            row = cur.fetchone()
        return int(row[0]) if row else 0

    def _check(self, repair: bool) -> list[HealthItem]:
        return health.check(self._db, self._table, self._tx, repair=repair)

    # -- transfer and lists ----------------------------------------------------------------

    def _matching(self, query: ListQuery) -> list[Any]:
        # The ids are fixed now; each page reads its memories when it is reached (one
        # deleted meanwhile is left out, so the iterator may yield fewer than ``count``:
        # the import of such a file refuses it).
        return [memory["id"] for memory in self._pages(query)]

    def _export_page(self, chosen: list[Any], vectors: bool) -> list[Memory]:
        with self._tx() as cur:
            return listing.export_page(cur, self._table, chosen, vectors)

    def _absent(self, items: Sequence[ImportedMemory]) -> list[ImportedMemory]:
        with self._tx() as cur:
            cur.execute("SELECT id FROM memories WHERE element = %s AND id = ANY(%s)",
                        (self.element, [item.id for item in items]))
            present = {str(row[0]) for row in cur.fetchall()}
        return [item for item in items if item.id not in present]

    def _insert_imported(self, items: Sequence[ImportedMemory],
                         vectors: Sequence[Vectors | None], settings: MemorySettings
                         ) -> list[tuple[int, list[str]]]:
        # One transaction under the element's lock: all of them or none (a MemoryCapacity
        # raised inside rolls the whole transaction back).
        written: list[tuple[int, list[str]]] = []
        with self._tx(lock=True) as cur:
            for i, item in enumerate(items):
                r = item.record
                new = validate_new(
                    content=r["content"], category=r["category"],
                    subject_type=r["subject_type"], subject_id=r["subject_id"],
                    context=r["context"], intention=r["intention"], agent=r["agent"],
                    source=r["source"], metadata=r["metadata"], idempotency_key=None,
                    occurred_at=r.get("occurred_at"))
                done = writes.insert(cur, self._table, new, vectors[i], settings,
                                     now=self._now(), kept=r,
                                     situated=self._params.situated_lexical)
                written.append((i, done.evicted))
        statistics.analyze_after(self._db, len(written))   # import, migrate, restore
        return written

    def _copy_log(self, dest: Path) -> dict[str, Any]:
        # A database backend has no log to copy: its backup is the database's own
        # (``pg_dump``, docs/deploy.md).
        raise StoreFailed("memories in PostgreSQL are backed up with the database "
                          "(pg_dump), not copied as a log")

    def _page(self, query: ListQuery) -> tuple[list[Memory], str | None]:
        with self._tx() as cur:
            return listing.page(cur, self._table, query)


#: What ``recency.newer_first`` reads of a result row, after its public columns.
_NEWNESS = "v_content::text, coalesce(valid_from_ts, occurred_ts)"


def _newer_first(rows: list[Any], scores: list[float], question: Asked | None,
                 later: list[list[np.ndarray]]) -> list[int]:
    """``recency.newer_first`` over the ranked rows (None: deleted meanwhile)."""
    vectors, owners, newness, contents, categories = _read(rows)
    return newer_first(vectors, owners, newness, scores, question=question,
                       contents=contents, categories=categories, later=later)


def _later(cur: Any, element: str, rows: list[Any]) -> list[list[np.ndarray]]:
    """``later.later_versions`` of result rows (None: deleted meanwhile): of each row no
    longer current, its ``superseded_by`` chain read by id, one statement a link (none
    when every row is current)."""
    at = FIELDS.index("superseded_by")
    owners = [None if row is None or row[4] is None else (row[3], row[4]) for row in rows]

    def fetch(ids: list[str]) -> dict[str, Version]:
        cur.execute("SELECT id, superseded_by, v_content::text, subject_type, subject_id "
                    "FROM memories WHERE element = %s AND id = ANY(%s)", (element, ids))
        return {str(key): (None if after is None else str(after), None if text is None else
                           np.array(text[1:-1].split(","), dtype=np.float32),
                           None if kind is None else (kind, owner))
                for key, after, text, kind, owner in cur.fetchall()}
    return later_versions([None if row is None or row[at] is None else str(row[at])
                           for row in rows], owners, fetch)


def _read(rows: list[Any]) -> tuple[list[np.ndarray | None], list[Any], list[float],
                                    list[str | None], list[str | None]]:
    """What ``recency`` reads of result rows (None: deleted meanwhile): content vectors,
    owners (None: general), newness, contents and categories."""
    width = len(FIELDS)
    vectors = [None if row is None or row[width] is None else
               np.array(row[width][1:-1].split(","), dtype=np.float32) for row in rows]
    owners = [None if row is None or row[4] is None else (row[3], row[4]) for row in rows]
    newness = [0.0 if row is None else float(row[width + 1]) for row in rows]
    return (vectors, owners, newness,
            [None if row is None else row[FIELDS.index("content")] for row in rows],
            [None if row is None else row[FIELDS.index("category")] for row in rows])


class _Edit:
    """A memory of the database opened for an update (``core.Edit``), in its transaction."""

    def __init__(self, store: PostgresMemoryStore, cur: Any, found: MemoryRecord) -> None:
        self._store, self._cur = store, cur
        self.record = found

    def apply(self, fields: dict[str, Any], vectors: Vectors | None,
              to_embed: dict[str, str], to_drop: list[str], change: Change) -> Memory:
        store = self._store
        return writes.apply_update(self._cur, store._table, self.record, fields, vectors,
                                   to_embed, to_drop, now=store._now(),
                                   situated=store._params.situated_lexical, change=change)

    def retire(self, change: Change, until: str) -> Memory:
        return writes.retire(self._cur, self._store._table, self.record, change, until)
