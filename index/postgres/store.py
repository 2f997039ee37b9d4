"""PostgresMemoryStore: the memories of one element in PostgreSQL + pgvector (a ``MemoryBackend``).

One row per memory in ``memories`` (``db.py`` has the schema), keyed ``(element, id)``;
many elements share the tables. Each lane has a ``vector`` column with an HNSW (cosine)
index per vector size. The lexical signal is the same BM25 as ``lexical.py`` (same
Snowball terms, same BM25F weighting of content and context), kept as postings in
``memory_terms``, as each row's own ``lex_terms``/``lex_tf``, and as document frequencies
in ``memory_term_df``, and scored in SQL, so recall matches the file-backed store rather
than approximating it with PostgreSQL's own text search (``docs/deploy.md`` says why).

Writes: every change of an element runs in one transaction holding a transaction-level
advisory lock on the element (``pg_advisory_xact_lock``), so capacity, fair eviction,
sequence numbers and idempotency keys are decided serially across every worker and
thread; the unique index on ``(element, idem_key)`` backs the keys up. A transaction that
does not commit leaves nothing, so a refused or failed call writes nothing. Embedding runs
before the transaction.

Search follows ``search.py`` step by step: vector candidates per lane and owner pool,
BM25 candidates in scope, the time window and the named span; then the exact cosines of
all three lanes for the union, and the same pure scoring (``recall.py``) ranks them; the
neighbours of the best hits (the memories stored just before and after each by the same
owner, close in time) join them, found among the rows already read when the hits' pools
were scored whole, else by one more statement, and are pulled toward their hit. Like
the file store's planner, a pool of at most ``EXACT_MAX`` memories is scored whole from
its rows (cosines and BM25 in one read, sent in one pipeline with the pool counts); a
larger one is walked: HNSW per lane with ``hnsw.iterative_scan = relaxed_order`` (a
selective filter still returns the asked number of rows) and the best BM25 matches from
the postings. Returned memories count one access (one statement after ranking, whose
commit does not wait for the WAL flush). ``docs/deploy.md`` ("Search and store speed")
has the round trips and the figures.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import logging
import threading
import time
import uuid
from pathlib import Path
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import psycopg

from ..backend import HealthItem, ImportedMemory, ImportResult, Memory, SearchResult, StoreResult
from ..behind import EmbedBehind
from ..embed import Embedder, normalize_rows
from ..embed_cache import CachedEmbedder
from ..errors import (
    ConfirmRequired,
    EmbeddingFailed,
    IdempotencyKeyReused,
    InvalidMemory,
    MemoryCapacity,
    MemoryNotFound,
    StoreClosed,
    StoreFailed,
)
from ..lanes import IndexParams
from ..lexical import CONTENT_WEIGHT, terms
from ..listing import LIST_LIMIT_MAX, ListQuery, parse_list_query
from ..policy import Occupancy, plan_eviction
from ..recall import (
    LANES,
    blend,
    boost_content,
    boost_neighbours,
    boost_time,
    rank,
    situate,
    text_similarity,
    token_set,
    weight_vector,
)
from ..records import (
    CATEGORIES,
    MemoryRecord,
    NewMemory,
    item_error,
    iso_utc,
    validate_changes,
    validate_items,
    validate_new,
    validate_subject,
)
from ..search import (
    NEIGHBOUR_SCAN,
    SPAN_CANDIDATES_MAX,
    WINDOW_EXACT_MAX,
    SearchQuery,
    parse_search,
)
from ..settings import MemorySettings, require_settings
from ..timespan import TimeSpan, query_span
from ..transfer import usable_vectors
from ..writes import lane_texts, update_plan
from .db import Database

__all__ = ["PostgresMemoryStore"]

logger = logging.getLogger(__name__)

REPAIR_BATCH = 64
# How often a worker whose element another worker is embedding looks again (seconds).
EMBEDDING_ELSEWHERE_POLL = 0.1
# A pool (general, one subject, or everyone) of at most this many memories is scored
# whole from its rows; a larger one is walked through the HNSW indexes and the postings.
# Reading a row and computing its three cosines costs about 10-20 us here (its vectors
# are TOASTed), so 1024 rows are ~15 ms: past that the walks are cheaper.
EXACT_MAX = 1024
BM25_K1, BM25_B = 1.2, 0.75

_PUBLIC = ("id, content, category, subject_type, subject_id, context, intention, agent, "
           "source, metadata, created_at, updated_at, occurred_at, last_accessed_at, "
           "access_count, embedded")
_FIELDS = _PUBLIC.split(", ")

Pool = tuple[str, tuple[Any, ...]]   # an owner pool: SQL condition, its parameters


def _public(row: Sequence[Any]) -> Memory:
    memory = dict(zip(_FIELDS, row, strict=True))
    memory["metadata"] = memory["metadata"] or {}
    memory["access_count"] = int(memory["access_count"])
    return memory


def _vector_text(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{float(x):.8g}" for x in vector) + "]"


def _lock_key(element: str, purpose: str = "") -> int:
    """A stable signed 64-bit advisory lock key for one element (and a purpose other than
    writing, such as embedding)."""
    name = f"triform-memory:{element}" if not purpose else \
        f"triform-memory:{purpose}:{element}"
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def _term_counts(content: str, context: str | None, situated: bool) -> Counter[str]:
    """The BM25F term frequencies ``lexical.LexicalIndex`` indexes a memory with."""
    counts = Counter(terms(content))
    if not situated:
        return counts
    for term in counts:
        counts[term] *= CONTENT_WEIGHT
    if context:
        counts.update(terms(context))
    return counts


@dataclass
class _Lexical:
    """The query's BM25 terms (``lexical.terms``, each once). Their idf and the element's
    average length are read by the statement that scores (``_idf_sql``), from the
    counters every write keeps."""

    words: builtins.list[str]


@dataclass
class _Scored:
    """One candidate's exact similarities: per lane (``present``: the lane takes part),
    the content-context cosine (``situate``), BM25, its pool in the search and its owner
    (``(subject_type, subject_id)``, both None for a general memory)."""

    seq: int
    occurred: float
    pool: int
    sims: builtins.list[float]
    present: builtins.list[bool]
    pair: float
    bm25: float
    owner: tuple[str | None, str | None]


def _scored(r: Sequence[Any]) -> _Scored:
    """A row of ``id, seq, occurred_ts, pool``, :meth:`PostgresMemoryStore._score_columns`
    and ``subject_type, subject_id``."""
    sims = [0.0, 0.0, 0.0]
    present = [False, False, False]
    for j in range(len(LANES)):
        value = r[4 + j]
        if value is not None and np.isfinite(value):
            sims[j], present[j] = float(value), True
    pair = r[7]
    return _Scored(seq=int(r[1]), occurred=float(r[2]), pool=int(r[3] or 0), sims=sims,
                   present=present,
                   pair=float(pair) if pair is not None and np.isfinite(pair) else 0.0,
                   bm25=float(r[8] or 0.0), owner=(r[9], r[10]))


class PostgresMemoryStore:
    """The memories of one element, kept in a PostgreSQL database (see the module docstring).

    :param database: the shared :class:`Database`, or a URL (the store then owns a pool of
        its own and closes it).
    :param element: the element's key in the tables (the home passes its element id).
    :param embedder: as for ``MemoryStore``; its ``model_id`` and ``dim`` are kept per row,
        and rows embedded by another model lose their vectors on open (``repair_embeddings``
        re-embeds them).
    :param clock: POSIX seconds (retention, timestamps).
    :param index_params: candidate generation (``oversample``...), ``situated_*``,
        ``time_weight`` and ``neighbour_*``; the hnswlib-specific fields are unused (``M`` and
        ``ef_construction`` are pgvector's defaults, 16 and 64).
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
        self._owns = isinstance(database, str)
        self._db = Database(database) if isinstance(database, str) else database
        self.element = str(element)
        if embed_cache > 0 and not isinstance(embedder, CachedEmbedder):
            embedder = CachedEmbedder(embedder, max_entries=embed_cache)
        self._embedder: Embedder = embedder
        self._model_id = str(embedder.model_id)
        self._dim = int(embedder.dim)
        self._clock = clock
        self._params = index_params or IndexParams()
        self._closed = False
        self._lock_id = _lock_key(self.element)
        # One embedding pass at a time in this process (``MemoryStore`` says why), and in
        # the whole deployment through a session lock (``_repair_pass``).
        self._repairing = threading.Lock()
        self._embedding_lock_id = _lock_key(self.element, "embedding")
        self._behind = EmbedBehind(self._repair_behind, self.element)
        try:
            self._open(migrate)
            if repair_on_open and self._any_unembedded():
                self._behind.wake()
        except BaseException:
            if self._owns:
                self._db.close()
            raise

    def _open(self, migrate: bool) -> None:
        if migrate:
            self._db.migrate()
        else:
            from .db import SCHEMA_VERSION
            if self._db.version() < SCHEMA_VERSION:
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

    # -- plumbing ------------------------------------------------------------------------

    def _tx(self, *, lock: bool = False) -> Any:
        """A transaction (see ``Database.transaction``); ``lock``: hold the element's lock."""
        self._check_open()
        return _Locked(self._db, self._lock_id if lock else None)

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed()

    def close(self) -> None:
        """Release the store (the shared database pool stays open; an owned one closes).

        The background embedder stops first; rows still without vectors stay so, and the
        next open with ``repair_on_open`` embeds them.
        """
        self._behind.close()
        if not self._closed:
            self._closed = True
            if self._owns:
                self._db.close()

    def __enter__(self) -> PostgresMemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __len__(self) -> int:
        with self._tx() as cur:
            cur.execute("SELECT count(*) FROM memories WHERE element = %s", (self.element,))
            row = cur.fetchone()
            return int(row[0]) if row else 0

    @property
    def embedder(self) -> Embedder:
        """The embedder this store calls."""
        return self._embedder

    @property
    def model_id(self) -> str:
        """The id of the model this store's vectors come from."""
        return self._model_id

    @property
    def dim(self) -> int:
        """How many values each of this store's vectors has."""
        return self._dim

    def _embed_lanes(self, texts: dict[str, str]) -> dict[str, np.ndarray] | None:
        """Embed lane texts in one call; None if the embedder fails in any way."""
        names = list(texts)
        if not names:
            return {}
        try:
            out = np.asarray(self._embedder.embed([texts[n] for n in names]),
                             dtype=np.float32)
            if out.shape != (len(names), self._dim) or not np.all(np.isfinite(out)):
                raise EmbeddingFailed(f"embedder returned shape {out.shape}")
        except Exception as exc:   # any embedder failure degrades, never fails the op
            logger.warning("embedding failed (%s): %s", exc.__class__.__name__, exc)
            return None
        out = normalize_rows(out)
        return {name: out[i].copy() for i, name in enumerate(names)}

    # -- store ---------------------------------------------------------------------------

    def store(self, *, content: str, category: str, subject_type: str | None = None,
              subject_id: str | None = None, context: str | None = None,
              intention: str | None = None, agent: str | None = None, source: str = "api",
              metadata: dict[str, Any] | None = None, idempotency_key: str | None = None,
              occurred_at: str | None = None, settings: MemorySettings,
              embed_later: bool = False) -> StoreResult:
        """Store a new memory, evicting at capacity (``policy.py``), in one transaction.

        ``embed_later``: committed without vectors, embedded by the background embedder
        shortly after (``MemoryStore.store``).

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory: bad input; nothing written.
        :raise IdempotencyKeyReused: the key stored a different memory; nothing written.
        :raise MemoryCapacity: at capacity with an empty pool to evict from (scoping on).
        :raise DatabaseUnavailable, StorageFull, StoreFailed: nothing stored.
        """
        new = validate_new(content=content, category=category, subject_type=subject_type,
                           subject_id=subject_id, context=context, intention=intention,
                           agent=agent, source=source, metadata=metadata,
                           idempotency_key=idempotency_key, occurred_at=occurred_at)
        settings = require_settings(settings)
        if new.key is not None:
            with self._tx() as cur:
                earlier = self._earlier(cur, new)
            if earlier is not None:
                return earlier
        vectors = None if embed_later else self._embed_lanes(lane_texts(new))
        with self._tx(lock=True) as cur:
            result = self._write(cur, new, vectors, settings, pending=embed_later)
        if embed_later and not result.memory["embedded"]:
            self._behind.wake()     # after the commit: the thread must see the row
        return result

    def store_many(self, items: Sequence[Mapping[str, Any]], *,
                   settings: MemorySettings) -> list[StoreResult]:
        """Store several memories with one embedding pass and one transaction.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory, IdempotencyKeyReused:
            an item is bad (its message starts with ``items[i]``); nothing is written.
        :raise MemoryCapacity: item i cannot be stored; the items before it are stored.
        :raise DatabaseUnavailable, StorageFull, StoreFailed: none of the items is stored.
        """
        news = validate_items(items)
        settings = require_settings(settings)
        with self._tx() as cur:
            self._check_keys(cur, news)
        texts = [lane_texts(new) for new in news]
        flat = {f"{i}:{lane}": text for i, lanes in enumerate(texts)
                for lane, text in lanes.items()}
        embedded = self._embed_lanes(flat)
        results: list[StoreResult] = []
        refused: MemoryCapacity | None = None
        with self._tx(lock=True) as cur:
            self._check_keys(cur, news)
            for i, new in enumerate(news):
                vectors = None if embedded is None else \
                    {lane: embedded[f"{i}:{lane}"] for lane in texts[i]}
                try:
                    results.append(self._write(cur, new, vectors, settings))
                except MemoryCapacity as exc:
                    # The items before it stay: commit them, then report this one.
                    refused = exc
                    break
        if refused is not None:
            raise refused
        return results

    def _earlier(self, cur: psycopg.Cursor[Any], new: NewMemory) -> StoreResult | None:
        """The first result of ``new``'s key (None: no key, or a new one).

        :raise IdempotencyKeyReused: the key stored a memory from a different request.
        """
        if new.key is None:
            return None
        cur.execute(f"SELECT {_PUBLIC}, key_fingerprint, key_evicted, key_warnings "
                    "FROM memories WHERE element = %s AND idem_key = %s",
                    (self.element, new.key))
        row = cur.fetchone()
        if row is None:
            return None
        memory = _public(row[:len(_FIELDS)])
        fingerprint, evicted, warnings = row[len(_FIELDS):]
        if fingerprint not in (None, new.fingerprint):
            raise IdempotencyKeyReused(new.key, memory["id"])
        return StoreResult(memory, list(evicted or []), list(warnings or []))

    def _check_keys(self, cur: psycopg.Cursor[Any], news: Sequence[NewMemory]) -> None:
        seen: dict[str, str] = {}
        for i, new in enumerate(news):
            if new.key is None:
                continue
            try:
                self._earlier(cur, new)
            except IdempotencyKeyReused as exc:
                raise item_error(exc, i) from None
            if seen.setdefault(new.key, new.fingerprint) != new.fingerprint:
                raise item_error(IdempotencyKeyReused(new.key, "an earlier item"), i)

    def _write(self, cur: psycopg.Cursor[Any], new: NewMemory,
               vectors: dict[str, np.ndarray] | None,
               settings: MemorySettings, kept: Mapping[str, Any] | None = None,
               pending: bool = False) -> StoreResult:
        """Insert one validated memory under the element's lock, evicting first.

        ``kept``: an imported memory's record, whose id, times and access statistics the
        row keeps instead of minting new ones. ``pending``: without vectors on purpose
        (embedded behind), so no embedding-failure warning.
        """
        earlier = self._earlier(cur, new)
        if earlier is not None:
            return earlier
        # The sequence number and the element's size in one statement. Every memory is
        # one BM25 document: the counter is the element's size, kept under the element's
        # lock (a count(*) per store would grow with the element).
        cur.execute("UPDATE memory_elements SET next_seq = next_seq + 1 WHERE element = %s "
                    "RETURNING next_seq - 1, lex_docs", (self.element,))
        seq_row = cur.fetchone()
        assert seq_row is not None
        evicted = self._evictions(cur, new.subject, settings, int(seq_row[1]))
        now = iso_utc(self._clock())
        occurred = new.occurred_at or now
        warnings = [] if vectors is not None or pending else [EmbeddingFailed.code]
        memory_id = uuid.uuid4().hex
        if kept is not None:
            memory_id, now = str(kept["id"]), str(kept["created_at"])
            occurred = str(kept.get("occurred_at") or now)
        counts = _term_counts(new.content, new.context, self._params.situated_lexical)
        record = MemoryRecord.from_json({"id": memory_id, "seq": 0, "content": "",
                                         "category": "fact", "created_at": now,
                                         "occurred_at": occurred})
        updated, accessed, count = now, None, 0
        if kept is not None:
            updated = kept.get("updated_at") or now
            accessed, count = kept.get("last_accessed_at"), int(kept.get("access_count") or 0)
        conn = cur.connection
        # The row and its postings are sent together (one round trip), inside the
        # transaction; an error in either fails the call as before.
        with conn.pipeline(), conn.cursor() as terms_cur:
            cur.execute(
                "INSERT INTO memories (element, id, seq, content, category, subject_type, "
                "subject_id, context, intention, agent, source, metadata, created_at, "
                "updated_at, occurred_at, created_ts, occurred_ts, embedded, model, dim, "
                "v_content, v_context, v_intention, lex_len, lex_terms, lex_tf, idem_key, "
                "key_fingerprint, key_evicted, key_warnings, last_accessed_at, "
                "access_count) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, "
                "%s, %s, %s, %s, %s, %s, %s, %s::vector, %s::vector, %s::vector, %s, %s, "
                f"%s, %s, %s, %s, %s, %s, %s) RETURNING {_PUBLIC}",
                self._row_values(new, memory_id, int(seq_row[0]), now, updated, occurred,
                                 record, vectors, counts, evicted, warnings)
                + (accessed, count))
            self._index_terms(terms_cur, memory_id, counts)
        row = cur.fetchone()
        assert row is not None
        return StoreResult(_public(row), evicted, warnings)

    def _row_values(self, new: NewMemory, memory_id: str, seq: int, now: str, updated: str,
                    occurred: str, record: MemoryRecord,
                    vectors: dict[str, np.ndarray] | None, counts: Counter[str],
                    evicted: builtins.list[str], warnings: builtins.list[str]
                    ) -> tuple[Any, ...]:
        vec = vectors or {}
        words = sorted(counts)
        return (self.element, memory_id, seq, new.content, new.category,
                new.subject[0] if new.subject else None,
                new.subject[1] if new.subject else None, new.context, new.intention,
                new.agent, new.source, json.dumps(new.metadata), now, updated, occurred,
                record.created_ts, record.occurred_ts, vectors is not None,
                self._model_id if vectors is not None else None,
                self._dim if vectors is not None else None,
                *[_vector_text(vec[lane]) if lane in vec else None for lane in LANES],
                sum(counts.values()), words, [counts[t] for t in words], new.key,
                new.fingerprint if new.key is not None else None,
                json.dumps(evicted) if new.key is not None else None,
                json.dumps(warnings) if new.key is not None else None)

    def _index_terms(self, cur: psycopg.Cursor[Any], memory_id: str,
                     counts: Counter[str]) -> None:
        """Postings, document frequencies and the element's counters of one memory (its
        row holds the same terms in ``lex_terms``/``lex_tf``), in one statement."""
        words = sorted(counts)
        cur.execute("WITH p AS (INSERT INTO memory_terms (element, id, term, tf, len) "
                    "SELECT %s, %s, t, f, %s FROM unnest(%s::text[], %s::int[]) AS u(t, f)), "
                    "d AS (INSERT INTO memory_term_df (element, term, df) SELECT %s, t, 1 "
                    "FROM unnest(%s::text[]) AS t ON CONFLICT (element, term) DO UPDATE "
                    "SET df = memory_term_df.df + 1) "
                    "UPDATE memory_elements SET lex_docs = lex_docs + 1, "
                    "lex_total = lex_total + %s WHERE element = %s",
                    (self.element, memory_id, sum(counts.values()), words,
                     [counts[t] for t in words], self.element, words,
                     sum(counts.values()), self.element))

    def _delete(self, cur: psycopg.Cursor[Any], condition: str,
                params: Sequence[Any]) -> list[str]:
        """Delete the element's rows matching ``condition``; their ids, oldest first."""
        # Each term of a deleted memory loses one document (the postings go with the
        # rows, by the foreign key's cascade).
        cur.execute(f"WITH gone AS (DELETE FROM memories WHERE element = %s AND ({condition}) "
                    "RETURNING id, seq, lex_len, lex_terms), "
                    "d AS (UPDATE memory_term_df f SET df = f.df - c.n FROM (SELECT term, "
                    "count(*) AS n FROM gone, unnest(gone.lex_terms) AS term GROUP BY term) c "
                    "WHERE f.element = %s AND f.term = c.term) "
                    "SELECT id, seq, lex_len FROM gone", (self.element, *params, self.element))
        rows = sorted(cur.fetchall(), key=lambda r: int(r[1]))
        if rows:
            cur.execute("UPDATE memory_elements SET lex_docs = lex_docs - %s, "
                        "lex_total = lex_total - %s WHERE element = %s",
                        (len(rows), sum(int(r[2]) for r in rows), self.element))
        return [str(r[0]) for r in rows]

    def _evictions(self, cur: psycopg.Cursor[Any], subject: tuple[str, str] | None,
                   settings: MemorySettings, total: int) -> list[str]:
        """Evict what capacity calls for before one more store (``policy.plan_eviction``),
        ``total`` memories being in the element.

        :raise MemoryCapacity: the pool that must give way is empty.
        """
        pool_sql, pool_params = self._pool_of(subject)
        pool = 0
        # The pool's size matters for a subject's own cap, or when the element is full.
        if settings.subject_scoping and (subject is not None
                                         or total >= settings.max_memories):
            cur.execute(f"SELECT count(*) FROM memories WHERE element = %s AND {pool_sql}",
                        (self.element, *pool_params))
            pool = int(cur.fetchone()[0])  # type: ignore[index]
        plan = plan_eviction(Occupancy(total=total, pool=pool),
                             scoping=settings.subject_scoping,
                             has_subject=subject is not None,
                             max_memories=settings.max_memories,
                             max_per_subject=settings.max_per_subject)
        if plan.refused:
            raise MemoryCapacity(plan.pool, settings.max_memories, total)
        if plan.count == 0:
            return []
        where, params = ("true", ()) if plan.pool == "all" else (pool_sql, pool_params)
        cur.execute(f"SELECT id FROM memories WHERE element = %s AND {where} "
                    "ORDER BY access_count, seq LIMIT %s",
                    (self.element, *params, plan.count))
        victims = [str(r[0]) for r in cur.fetchall()]
        order = {memory_id: i for i, memory_id in enumerate(victims)}
        deleted = self._delete(cur, "id = ANY(%s)", (victims,))
        return sorted(deleted, key=order.__getitem__)

    @staticmethod
    def _pool_of(subject: tuple[str, str] | None) -> Pool:
        if subject is None:
            return "subject_type IS NULL", ()
        return "subject_type = %s AND subject_id = %s", subject

    # -- read ----------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """One memory. :raise MemoryNotFound: no memory has this id."""
        if not isinstance(memory_id, str):
            raise MemoryNotFound(str(memory_id))
        with self._tx() as cur:
            cur.execute(f"SELECT {_PUBLIC} FROM memories WHERE element = %s AND id = %s",
                        (self.element, memory_id))
            row = cur.fetchone()
        if row is None:
            raise MemoryNotFound(memory_id)
        return _public(row)

    def _record(self, cur: psycopg.Cursor[Any], memory_id: str) -> MemoryRecord:
        if not isinstance(memory_id, str):
            raise MemoryNotFound(str(memory_id))
        cur.execute("SELECT id, seq, content, category, context, intention, embedded, "
                    "metadata, created_at FROM memories WHERE element = %s AND id = %s",
                    (self.element, memory_id))
        row = cur.fetchone()
        if row is None:
            raise MemoryNotFound(memory_id)
        record = MemoryRecord.from_json({
            "id": row[0], "seq": row[1], "content": row[2], "category": row[3],
            "context": row[4], "intention": row[5], "metadata": row[7],
            "created_at": row[8]})
        record.embedded = bool(row[6])
        return record

    # -- update / delete -----------------------------------------------------------------

    def update(self, memory_id: str, *, content: str | None = None,
               category: str | None = None, context: str | None = None,
               intention: str | None = None, metadata: dict[str, Any] | None = None,
               settings: MemorySettings, embed_later: bool = False) -> Memory:
        """Change a memory; a changed text is re-embedded, other vectors are kept.

        Embedding runs outside the transaction; if the memory changed meanwhile, it is
        tried again (three times, the last with the embedding inside the element's lock).
        ``embed_later``: a changed text drops the row's vectors now and the background
        embedder embeds it after the commit.

        :raise MemoryNotFound, InvalidCategory, InvalidMemory: nothing written.
        :raise DatabaseUnavailable, StorageFull, StoreFailed: nothing changed.
        """
        changes = validate_changes(content=content, category=category, context=context,
                                   intention=intention, metadata=metadata)
        require_settings(settings)
        for attempt in range(3):
            # Embedding behind, nothing is embedded first: read and write in one locked
            # transaction.
            with self._tx(lock=attempt == 2 or embed_later) as cur:
                record = self._record(cur, memory_id)
                fields = {k: v for k, v in changes.items() if getattr(record, k) != v}
                if not fields:
                    return self._public_of(cur, memory_id)
                snapshot = (record.content, record.context, record.intention,
                            record.embedded)
                to_embed, to_drop = update_plan(record, fields)
                later = embed_later and bool(to_embed)
                if attempt == 2 or later:
                    vectors = None if later else \
                        self._embed_lanes(to_embed) if to_embed else {}
                    memory = self._apply_update(cur, record, fields, vectors, to_embed,
                                                to_drop)
            if attempt == 2 or later:
                if later:
                    self._behind.wake()     # after the commit: the thread must see the row
                return memory
            vectors = self._embed_lanes(to_embed) if to_embed else {}
            with self._tx(lock=True) as cur:
                record = self._record(cur, memory_id)
                if snapshot != (record.content, record.context, record.intention,
                                record.embedded):
                    continue
                return self._apply_update(cur, record, fields, vectors, to_embed, to_drop)
        raise StoreFailed("the memory kept changing during the update")   # not reached

    def _apply_update(self, cur: psycopg.Cursor[Any], record: MemoryRecord,
                      fields: dict[str, Any], vectors: dict[str, np.ndarray] | None,
                      to_embed: dict[str, str], to_drop: list[str]) -> Memory:
        embedded = vectors is not None and (record.embedded or bool(to_embed))
        sets = [f"{name} = %s" for name in fields]
        params: list[Any] = [json.dumps(v) if name == "metadata" else v
                             for name, v in fields.items()]
        sets.append("updated_at = %s")
        params.append(iso_utc(self._clock()))
        sets.append("embedded = %s")
        params.append(embedded)
        if embedded:
            assert vectors is not None
            for lane, vector in vectors.items():
                sets.append(f"v_{lane} = %s::vector")
                params.append(_vector_text(vector))
            sets.extend(f"v_{lane} = NULL" for lane in to_drop)
            sets.extend(["model = %s", "dim = %s"])
            params.extend([self._model_id, self._dim])
        else:
            sets.extend(["v_content = NULL", "v_context = NULL", "v_intention = NULL",
                         "model = NULL", "dim = NULL"])
        if "content" in fields or "context" in fields:
            content = fields.get("content", record.content)
            context = fields["context"] if "context" in fields else record.context
            counts = _term_counts(content, context, self._params.situated_lexical)
            cur.execute("WITH old AS (SELECT lex_len, lex_terms FROM memories WHERE "
                        "element = %s AND id = %s), "
                        "p AS (DELETE FROM memory_terms WHERE element = %s AND id = %s), "
                        "d AS (UPDATE memory_term_df SET df = df - 1 WHERE element = %s AND "
                        "term IN (SELECT unnest(lex_terms) FROM old)) "
                        "UPDATE memory_elements SET lex_docs = lex_docs - 1, lex_total = "
                        "lex_total - (SELECT lex_len FROM old) WHERE element = %s",
                        (self.element, record.id, self.element, record.id, self.element,
                         self.element))
            self._index_terms(cur, record.id, counts)
            words = sorted(counts)
            sets.extend(["lex_len = %s", "lex_terms = %s", "lex_tf = %s"])
            params.extend([sum(counts.values()), words, [counts[t] for t in words]])
        cur.execute(f"UPDATE memories SET {', '.join(sets)} WHERE element = %s AND id = %s",
                    (*params, self.element, record.id))
        return self._public_of(cur, record.id)

    def _public_of(self, cur: psycopg.Cursor[Any], memory_id: str) -> Memory:
        cur.execute(f"SELECT {_PUBLIC} FROM memories WHERE element = %s AND id = %s",
                    (self.element, memory_id))
        row = cur.fetchone()
        if row is None:
            raise MemoryNotFound(memory_id)
        return _public(row)

    def delete(self, memory_id: str) -> None:
        """Delete one memory (its row, vectors and postings), then ``VACUUM``, as
        :meth:`forget_subject` does (what stays on disk: its docstring).

        :raise MemoryNotFound: no memory has this id.
        """
        if not isinstance(memory_id, str):
            raise MemoryNotFound(str(memory_id))
        with self._tx(lock=True) as cur:
            if not self._delete(cur, "id = %s", (memory_id,)):
                raise MemoryNotFound(memory_id)
        self._vacuum()

    # -- search --------------------------------------------------------------------------

    def search(self, *, query: str, context: str | None = None,
               intention: str | None = None, subject_type: str | None = None,
               subject_id: str | None = None, limit: int = 10,
               categories: list[str] | None = None, occurred_after: str | None = None,
               occurred_before: str | None = None,
               settings: MemorySettings) -> SearchResult:
        """Blended recall over the three lanes, best first (``MemoryStore.search``'s rules).

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: bad input.
        :raise DatabaseUnavailable, StoreFailed: the database failed.
        """
        request = parse_search(query=query, context=context, intention=intention,
                               subject_type=subject_type, subject_id=subject_id, limit=limit,
                               categories=categories, occurred_after=occurred_after,
                               occurred_before=occurred_before)
        settings = require_settings(settings)
        when = query_span(request.texts["content"], self._clock())
        queries = self._embed_lanes(request.texts)
        self._check_open()
        # One connection in autocommit: the reads need no transaction of their own (each
        # statement sees a committed state; a memory deleted between two is left out), and
        # independent statements go out together in a pipeline, so a search on a small
        # scope is three round trips (one more for the neighbours of hits in a walked
        # pool).
        with self._db.autocommit() as conn:
            ids, scores, lanes, fallback = self._rank(conn, request, queries, settings,
                                                      when)
            if not ids:
                return SearchResult([], fallback)
            with conn.cursor() as cur:
                # An access count is a statistic, not an acknowledged write: its commit
                # need not wait for the WAL flush (a crash may lose the last counts, never
                # data). ``set_config(..., true)`` lasts for this statement's own
                # transaction only, so the pooled connection keeps its setting.
                cur.execute(f"UPDATE memories SET access_count = access_count + 1, "
                            f"last_accessed_at = %s WHERE element = %s AND id = ANY(%s) "
                            f"AND set_config('synchronous_commit', 'off', true) = 'off' "
                            f"RETURNING {_PUBLIC}",
                            (iso_utc(self._clock()), self.element, ids))
                found = {row[0]: _public(row) for row in cur.fetchall()}
        results = [{"memory": found[memory_id], "score": value, "lanes": lane}
                   for memory_id, value, lane in zip(ids, scores, lanes, strict=True)
                   if memory_id in found]
        return SearchResult(results, fallback)

    def _scope(self, request: SearchQuery, scoping: bool) -> list[Pool]:
        """The owner pools a search covers (``search.owners_in_scope``)."""
        if not scoping:
            return [("true", ())]
        pools: list[Pool] = [self._pool_of(None)]
        if request.subject is not None:
            pools.append(self._pool_of(request.subject))
        return pools

    @staticmethod
    def _filters(request: SearchQuery, occurred: tuple[float | None, float | None],
                 alias: str = "") -> Pool:
        """Category and occurred-time conditions (AND-ed after the pool's), on the
        columns of ``alias`` (e.g. ``"b."``; none: unqualified)."""
        sql, params = "", builtins.list[Any]()
        if request.cats is not None:
            sql += f" AND {alias}category = ANY(%s)"
            params.append([CATEGORIES[c] for c in request.cats])
        if occurred[0] is not None:
            sql += f" AND {alias}occurred_ts > %s"
            params.append(occurred[0])
        if occurred[1] is not None:
            sql += f" AND {alias}occurred_ts < %s"
            params.append(occurred[1])
        return sql, tuple(params)

    def _rank(self, conn: psycopg.Connection[Any], request: SearchQuery,
              queries: dict[str, np.ndarray] | None, settings: MemorySettings,
              when: TimeSpan | None) -> tuple[list[str], list[float],
                                              list[dict[str, float | None]], str | None]:
        pools = self._scope(request, settings.subject_scoping)
        scope_sql = " OR ".join(f"({sql})" for sql, _ in pools)
        scope_params = tuple(p for _, ps in pools for p in ps)
        extra_sql, extra_params = self._filters(request, request.occurred)
        meta: dict[str, tuple[int, float]] = {}
        ids: list[str] = []
        best = 0.0
        small_rows: dict[str, _Scored] = {}
        sims_parts: list[np.ndarray] = []
        present_parts: list[np.ndarray] = []
        situated = queries is not None and "context" not in queries and \
            self._params.situated_vector
        if queries is not None and situated:
            queries = {**queries, "context": queries["content"]}
        literal = {lane: _vector_text(q) for lane, q in (queries or {}).items()}
        lexical = _Lexical(sorted(set(terms(request.texts["content"]))))
        with conn.cursor() as cur, conn.cursor() as rows_cur, conn.cursor() as text_cur:
            with conn.pipeline():
                # Sent together, one round trip: each pool's size (counted up to
                # EXACT_MAX + 1, which picks its plan), every row of the pools that are
                # small scored whole (a large pool is left out by the same count), and
                # the memories in scope to score by text.
                if queries is not None:
                    self._send_plan(cur, pools, extra_sql, extra_params)
                    self._send_rows(rows_cur, literal, situated, lexical, pools,
                                    extra_sql, extra_params)
                which = "" if queries is None else " AND NOT embedded"
                text_cur.execute(
                    f"SELECT id, seq, occurred_ts, content, context, intention FROM memories "
                    f"WHERE element = %s{which} AND ({scope_sql}){extra_sql}",
                    (self.element, *scope_params, *extra_params))
            text_rows = text_cur.fetchall()
            if queries is not None:
                sizes = self._read_plan(cur, len(pools))
                small_rows = self._read_rows(rows_cur)
                ids, sims, present, best = self._vector_scores(
                    conn, cur, request, queries, literal, situated, pools, sizes,
                    small_rows, lexical, when, meta)
                if ids:
                    sims_parts.append(sims)
                    present_parts.append(present)
        # A memory that changed between two statements is scored once, by its vectors.
        text_rows = [r for r in text_rows if str(r[0]) not in meta]
        text_ids, text_sims, text_present = self._text_scores(text_rows, request, meta)
        fallback = "text" if queries is None or text_ids else None
        if text_ids:
            ids += text_ids
            sims_parts.append(text_sims)
            present_parts.append(text_present)
        if not ids:
            return [], [], [], fallback
        sims = np.clip(np.concatenate(sims_parts), 0.0, 1.0)
        present = np.concatenate(present_parts)
        weights = weight_vector(settings.association_weights)
        scores = self._blend(sims, present, [meta[i][1] for i in ids], weights, when)
        params = self._params
        if (queries is not None and params.neighbour_weight > 0
                and params.fusion == "boost"):
            ids, sims, present, scores = self._with_neighbours(
                conn, request, ids, sims, present, scores, literal=literal,
                situated=situated, lexical=lexical, best=best, weights=weights, when=when,
                meta=meta, whole=small_rows)
        order = rank(scores, settings.relevance_threshold, request.limit,
                     tiebreak=np.array([meta[i][0] for i in ids], dtype=np.int64))
        return ([ids[i] for i in order], [float(scores[i]) for i in order],
                [{lane: (float(sims[i, j]) if present[i, j] else None)
                  for j, lane in enumerate(LANES)} for i in order], fallback)

    def _blend(self, sims: np.ndarray, present: np.ndarray,
               occurred: builtins.list[float], weights: np.ndarray,
               when: TimeSpan | None) -> np.ndarray:
        """The blended score of each row, with the time boost (``search._blend``)."""
        scores = blend(sims, present, weights)
        if when is not None and self._params.time_weight > 0:
            scores = boost_time(scores, np.array(occurred, dtype=np.float64), when.start,
                                when.end, self._params.time_weight)
        return scores

    def _with_neighbours(self, conn: psycopg.Connection[Any], request: SearchQuery,
                         ids: builtins.list[str], sims: np.ndarray, present: np.ndarray,
                         scores: np.ndarray, *, literal: dict[str, str], situated: bool,
                         lexical: _Lexical, best: float, weights: np.ndarray,
                         when: TimeSpan | None, meta: dict[str, tuple[int, float]],
                         whole: dict[str, _Scored]
                         ) -> tuple[builtins.list[str], np.ndarray, np.ndarray,
                                    np.ndarray]:
        """Add the neighbours of the best hits to the rows and pull them toward their hit
        (``search._with_neighbours``, ``recall.boost_neighbours``).

        ``whole``: the rows of the pools scored whole. When every hit is one of them, its
        neighbours (same owner, so same pool) are among them too, and are found here
        without a statement (:meth:`_adjacent`); otherwise one statement finds each hit's
        neighbours and scores them (:meth:`_send_neighbours`)."""
        count = min(self._params.neighbour_hits, len(scores))
        if count <= 0:
            return ids, sims, present, scores
        top = np.argpartition(-scores, count - 1)[:count]
        hits = [ids[i] for i in top]
        pairs: builtins.list[tuple[str, str]]
        if all(hit in whole for hit in hits):
            pairs = self._adjacent(whole, hits)
            scored = {neighbour: whole[neighbour] for _, neighbour in pairs}
        else:
            with conn.cursor() as cur:
                self._send_neighbours(cur, request, hits, literal, situated, lexical)
                found = cur.fetchall()
            pairs = [(str(hit), str(r[0])) for r in found for hit in r[11]]
            scored = {str(r[0]): _scored(r) for r in found}
        if not pairs:
            return ids, sims, present, scores
        at = {memory_id: i for i, memory_id in enumerate(ids)}
        new = [(memory_id, row) for memory_id, row in scored.items() if memory_id not in at]
        if new:
            new_sims, new_present = self._similarities([row for _, row in new], situated,
                                                       best)
            new_sims = np.clip(new_sims, 0.0, 1.0)
            for memory_id, row in new:
                at[memory_id] = len(at)
                meta[memory_id] = (row.seq, row.occurred)
            ids = ids + [memory_id for memory_id, _ in new]
            sims = np.concatenate([sims, new_sims])
            present = np.concatenate([present, new_present])
            scores = np.concatenate([scores, self._blend(
                new_sims, new_present, [row.occurred for _, row in new], weights, when)])
        # Every hit is a row already, and every neighbour one now.
        return ids, sims, present, boost_neighbours(
            scores, np.array([at[hit] for hit, _ in pairs], dtype=np.int64),
            np.array([at[neighbour] for _, neighbour in pairs], dtype=np.int64),
            self._params.neighbour_weight)

    def _adjacent(self, rows: dict[str, _Scored], hits: builtins.list[str]
                  ) -> builtins.list[tuple[str, str]]:
        """``(hit, neighbour)`` pairs among ``rows``, which hold every row of each hit's
        pool that passes the search's filters: the same rule as
        :meth:`_send_neighbours`, looked up by sequence number (at most
        ``2 * NEIGHBOUR_SCAN`` lookups per hit)."""
        by_seq = {row.seq: memory_id for memory_id, row in rows.items()}
        gap = self._params.neighbour_gap
        pairs = []
        for hit in hits:
            h = rows[hit]
            for step in (-1, 1):
                for seq in range(h.seq + step, h.seq + step * (NEIGHBOUR_SCAN + 1), step):
                    memory_id = by_seq.get(seq)
                    if memory_id is None:
                        continue
                    row = rows[memory_id]
                    if (row.owner == h.owner and row.present[0]
                            and abs(row.occurred - h.occurred) <= gap):
                        pairs.append((hit, memory_id))
                        break
        return pairs

    def _send_neighbours(self, cur: psycopg.Cursor[Any], request: SearchQuery,
                         hits: builtins.list[str], literal: dict[str, str], situated: bool,
                         lexical: _Lexical) -> None:
        """Ask for the neighbours of ``hits``, scored as :meth:`_send_rows` scores rows,
        each with the hits it neighbours (column 11).

        A hit's neighbours are, as in ``search._adjacent``, the memory stored just before
        it and the one stored just after it by the same owner (its subject, or the
        general pool) that occurred within ``neighbour_gap`` seconds of it, has a content
        vector and passes the search's category and time filters: at most one each side,
        looked for among the ``NEIGHBOUR_SCAN`` sequence numbers on either side (the file
        store looks as far in labels, which follow creation order as ``seq`` does). Each
        side is one bounded backward or forward scan of the ``(element, seq)`` index per
        hit, so the statement reads at most ``2 * NEIGHBOUR_SCAN`` rows per hit, however
        large the element."""
        d = self._dim
        filter_sql, filter_params = self._filters(request, request.occurred, "b.")
        cols, col_params = self._score_columns(literal, situated, lexical, "m")
        sides = []
        side_params: builtins.list[Any] = []
        for near, far, order in (("<", ">= h.seq -", "DESC"), (">", "<= h.seq +", "ASC")):
            sides.append(
                f"(SELECT b.id FROM memories b WHERE b.element = h.element AND "
                f"b.seq {near} h.seq AND b.seq {far} {NEIGHBOUR_SCAN} AND "
                # The same owner: equal subjects, or both general (NULL subjects).
                "(b.subject_type = h.subject_type AND b.subject_id = h.subject_id OR "
                "h.subject_type IS NULL AND b.subject_type IS NULL) AND "
                f"abs(b.occurred_ts - h.occurred_ts) <= %s::float8 AND "
                f"b.v_content IS NOT NULL AND b.dim = {d}{filter_sql} "
                f"ORDER BY b.seq {order} LIMIT 1)")
            side_params.extend([self._params.neighbour_gap, *filter_params])
        cur.execute(
            "WITH h AS MATERIALIZED (SELECT element, id, seq, occurred_ts, subject_type, "
            "subject_id FROM memories WHERE element = %s AND id = ANY(%s)), "
            f"p AS MATERIALIZED (SELECT h.id AS hit, n.id FROM h CROSS JOIN LATERAL "
            f"({sides[0]} UNION ALL {sides[1]}) n) "
            f"SELECT m.id, m.seq, m.occurred_ts, 0, {cols}, m.subject_type, m.subject_id, "
            "(SELECT array_agg(p.hit) FROM p WHERE p.id = m.id) "
            "FROM memories m WHERE m.element = %s AND m.id IN (SELECT p.id FROM p)",
            (self.element, hits, *side_params, *col_params, self.element))

    def _vector_scores(self, conn: psycopg.Connection[Any], cur: psycopg.Cursor[Any],
                       request: SearchQuery, queries: dict[str, np.ndarray],
                       literal: dict[str, str], situated: bool,
                       pools: builtins.list[Pool], sizes: builtins.list[int],
                       fetched: dict[str, _Scored], lexical: _Lexical,
                       when: TimeSpan | None,
                       meta: dict[str, tuple[int, float]]
                       ) -> tuple[builtins.list[str], np.ndarray, np.ndarray, float]:
        """Candidates and their exact similarities, as ``search.score`` gathers them, and
        the best BM25 in scope (the content boost's scale, :meth:`_similarities`)."""
        params = self._params
        scope_sql = " OR ".join(f"({sql})" for sql, _ in pools)
        scope_params = tuple(p for _, ps in pools for p in ps)
        extra_sql, extra_params = self._filters(request, request.occurred)
        small = [i for i, size in enumerate(sizes) if size <= EXACT_MAX]
        large = [pool for pool, size in zip(pools, sizes, strict=True) if size > EXACT_MAX]
        want = params.candidates_for(request.limit, "content")
        rows: dict[str, _Scored] = {}
        candidates: set[str] = set()
        lexical_top: builtins.list[tuple[float, str]] = []
        if small:
            # A small pool is scored whole from its own rows, as the file store's planner
            # searches a pool below its threshold exactly: each lane's top candidates and
            # the BM25 matches come from this one read.
            rows.update(fetched)
            for lane_index, lane in enumerate(LANES):
                if lane not in queries:
                    continue
                # As ``lanes.LaneSet.candidates``: a query alone takes the content lane's
                # own top, not three times that.
                k = params.candidates_for(request.limit, lane, len(queries))
                for pool_index in small:
                    in_lane = [(row.sims[lane_index], memory_id)
                               for memory_id, row in fetched.items()
                               if row.pool == pool_index and row.present[lane_index]]
                    in_lane.sort(key=lambda pair: -pair[0])
                    candidates.update(memory_id for _, memory_id in in_lane[:k])
            lexical_top += [(row.bm25, memory_id) for memory_id, row in fetched.items()
                            if row.bm25 > 0 and row.present[0]]
        if large:
            found, top = self._walk(conn, request, queries, literal, large, lexical,
                                    extra_sql, extra_params, want)
            candidates |= found
            lexical_top += top
        lexical_top.sort(key=lambda pair: -pair[0])
        best = lexical_top[0][0] if lexical_top else 0.0
        candidates.update(memory_id for _, memory_id in lexical_top[:want])
        if request.occurred != (None, None):
            window = self._vector_pool(cur, scope_sql, scope_params, request,
                                       request.occurred, WINDOW_EXACT_MAX + 1)
            if len(window) <= WINDOW_EXACT_MAX:
                candidates = set(window)
            elif len(candidates) < request.limit:
                candidates |= set(self._vector_pool(cur, scope_sql, scope_params, request,
                                                    request.occurred, None))
        if when is not None and params.time_weight > 0:
            span = self._vector_pool(cur, scope_sql, scope_params, request,
                                     _span_bounds(when, request.occurred),
                                     SPAN_CANDIDATES_MAX + 1)
            if len(span) <= SPAN_CANDIDATES_MAX:
                candidates |= set(span)
        missing = sorted(candidates - rows.keys())
        if missing:
            self._send_rows(cur, literal, situated, lexical, None, "", (), ids=missing)
            rows.update(self._read_rows(cur))
        chosen = sorted(i for i in candidates if i in rows)
        sims, present = self._similarities([rows[i] for i in chosen], situated, best)
        for i in chosen:
            meta[i] = (rows[i].seq, rows[i].occurred)
        return chosen, sims, present, best

    @staticmethod
    def _similarities(rows: builtins.list[_Scored], situated: bool, best: float
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Per-lane similarities of scored rows as ``search._vector_similarities`` makes
        them: the situated context cosine, the content cosine boosted by BM25 against the
        best BM25 match in scope (``best``; 0: no match)."""
        if not rows:
            return np.zeros((0, len(LANES))), np.zeros((0, len(LANES)), dtype=bool)
        sims = np.array([r.sims for r in rows], dtype=np.float64)
        present = np.array([r.present for r in rows], dtype=bool)
        if situated:
            sims[:, 1] = situate(sims[:, 0], sims[:, 1], np.array([r.pair for r in rows]))
        if best > 0:
            sims[:, 0] = boost_content(sims[:, 0], np.array([r.bm25 for r in rows]), best)
        return sims, present

    def _send_plan(self, cur: psycopg.Cursor[Any], pools: builtins.list[Pool],
                   extra_sql: str, extra_params: tuple[Any, ...]) -> None:
        """Ask for each pool's size, counted up to ``EXACT_MAX + 1`` (:meth:`_read_plan`)."""
        counts = ", ".join(self._count_sql(pool_sql, extra_sql) for pool_sql, _ in pools)
        cur.execute(f"SELECT {counts}", self._count_params(pools, extra_params))

    def _count_sql(self, pool_sql: str, extra_sql: str) -> str:
        return (f"(SELECT count(*) FROM (SELECT 1 FROM memories WHERE element = %s AND "
                f"({pool_sql}){extra_sql} LIMIT {EXACT_MAX + 1}) c)")

    def _count_params(self, pools: builtins.list[Pool], extra_params: tuple[Any, ...]
                      ) -> tuple[Any, ...]:
        return tuple(p for _, pool_params in pools
                     for p in (self.element, *pool_params, *extra_params))

    @staticmethod
    def _read_plan(cur: psycopg.Cursor[Any], pools: int) -> builtins.list[int]:
        row = cur.fetchone()
        return [int(n) for n in row] if row else [0] * pools

    def _idf_sql(self, term_sql: str) -> tuple[str, tuple[Any, ...]]:
        """SQL of one term's idf, ``ln(1 + (N - n + .5) / (n + .5))`` as
        ``lexical.LexicalIndex.scores`` (NULL: no memory of the element has it)."""
        return ("(SELECT ln(1 + (e.lex_docs::float8 - d.df + 0.5) / (d.df + 0.5)) FROM "
                "memory_term_df d JOIN memory_elements e ON e.element = d.element WHERE "
                f"d.element = %s AND d.term = {term_sql} AND d.df > 0)", (self.element,))

    def _average_sql(self) -> tuple[str, tuple[Any, ...]]:
        """SQL of the element's average memory length in terms (1 when none)."""
        return ("(SELECT coalesce(nullif(lex_total::float8 / nullif(lex_docs, 0), 0), 1.0) "
                "FROM memory_elements WHERE element = %s)", (self.element,))

    def _bm25_sql(self, lexical: _Lexical, alias: str) -> tuple[str, tuple[Any, ...]]:
        """SQL of one memory's BM25 for the query (0 without a match), from the row's own
        ``lex_terms``/``lex_tf``, as ``lexical.LexicalIndex.scores`` computes it: per
        query term, ``array_position`` finds its frequency in the row (about half the
        cost of joining the unnested arrays per row); a row sharing no term is skipped.
        The idf and the average length are uncorrelated subqueries, computed once."""
        if not lexical.words:
            return "0::float8", ()
        average, average_params = self._average_sql()
        norm = f"%s::float8 * (1 - %s::float8 + %s::float8 * {alias}.lex_len / {average})"
        norm_params = (BM25_K1, BM25_B, BM25_B, *average_params)
        tf = f"{alias}.lex_tf[array_position({alias}.lex_terms, %s::text)]"
        parts, params = [], builtins.list[Any]()
        for term in lexical.words:
            idf, idf_params = self._idf_sql("%s::text")
            parts.append(f"coalesce({idf} * {tf} * %s::float8 / ({tf} + {norm}), 0)")
            params.extend([*idf_params, term, term, BM25_K1 + 1.0, term, *norm_params])
        return (f"CASE WHEN {alias}.lex_terms && %s::text[] THEN " + " + ".join(parts)
                + " ELSE 0 END", (lexical.words, *params))

    def _send_rows(self, cur: psycopg.Cursor[Any], literal: dict[str, str],
                   situated: bool, lexical: _Lexical, pools: builtins.list[Pool] | None,
                   extra_sql: str, extra_params: tuple[Any, ...], *,
                   ids: builtins.list[str] | None = None) -> None:
        """Ask for the exact cosines of every lane the query gives (``lanes.similarities``),
        the pair cosine for ``situate`` and BM25 of every embedded row of the ``pools``
        holding at most ``EXACT_MAX`` memories (or of ``ids``); :meth:`_read_rows`."""
        cols, params = self._score_columns(literal, situated, lexical, "m")
        which_params: tuple[Any, ...]
        case_params: tuple[Any, ...] = ()
        if pools is None:
            which, which_params = "m.id = ANY(%s)", (ids,)
            pool_case = "0"
        else:
            # A pool's count is an uncorrelated subquery: computed once, not per row.
            which = " OR ".join(f"(({sql}) AND {self._count_sql(sql, extra_sql)} <= "
                                f"{EXACT_MAX})" for sql, _ in pools)
            which_params = tuple(p for pool in pools
                                 for p in (*pool[1],
                                           *self._count_params([pool], extra_params)))
            pool_case = "CASE " + " ".join(f"WHEN {sql} THEN {i}"
                                           for i, (sql, _) in enumerate(pools)) + " END"
            case_params = tuple(p for _, ps in pools for p in ps)
        cur.execute(f"SELECT m.id, m.seq, m.occurred_ts, {pool_case}, {cols}, "
                    f"m.subject_type, m.subject_id FROM memories m WHERE m.element = %s "
                    f"AND m.dim = {self._dim} AND ({which}){extra_sql}",
                    (*case_params, *params, self.element, *which_params, *extra_params))

    def _score_columns(self, literal: dict[str, str], situated: bool, lexical: _Lexical,
                       alias: str) -> tuple[str, builtins.list[Any]]:
        """The five scored columns of a row of ``alias`` (:func:`_scored` reads them):
        the cosine of each lane the query gives (NULL for the others), the content-context
        cosine when ``situated``, and BM25."""
        cols = []
        params: list[Any] = []
        for lane in LANES:
            if lane in literal:
                cols.append(f"1 - ({alias}.v_{lane} <=> %s::vector)")
                params.append(literal[lane])
            else:
                cols.append("NULL::float8")
        cols.append(f"1 - ({alias}.v_content <=> {alias}.v_context)" if situated
                    else "NULL::float8")
        bm25_sql, bm25_params = self._bm25_sql(lexical, alias)
        cols.append(bm25_sql)
        params.extend(bm25_params)
        return ", ".join(cols), params

    @staticmethod
    def _read_rows(cur: psycopg.Cursor[Any]) -> dict[str, _Scored]:
        return {str(r[0]): _scored(r) for r in cur.fetchall()}

    def _walk(self, conn: psycopg.Connection[Any], request: SearchQuery,
              queries: dict[str, np.ndarray], literal: dict[str, str],
              pools: builtins.list[Pool], lexical: _Lexical, extra_sql: str,
              extra_params: tuple[Any, ...], want: int
              ) -> tuple[set[str], builtins.list[tuple[float, str]]]:
        """Candidates of large pools: each lane's HNSW walk per pool, and the ``want``
        best BM25 matches with a content vector (``(score, id)``, best first) from the
        postings of the query's terms. One transaction, sent as one pipeline."""
        params = self._params
        d = self._dim
        walks: builtins.list[psycopg.Cursor[Any]] = []
        top = conn.cursor()
        with conn.pipeline(), conn.transaction(), conn.cursor() as settings_cur:
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
                # The file store's walk size (``lanes.LaneSet.candidates``): a query
                # alone walks 64 content candidates, not 192 (ef_search follows).
                k = params.candidates_for(request.limit, lane, len(queries))
                settings_cur.execute(f"SET LOCAL hnsw.ef_search = "
                                     f"{min(1000, max(params.ef_search_min, k))}")
                for pool_sql, pool_params in pools:
                    walk = conn.cursor()
                    walk.execute(
                        f"SELECT id FROM memories WHERE element = %s AND dim = {d} AND "
                        f"({pool_sql}){extra_sql} ORDER BY (v_{lane}::vector({d})) <=> "
                        f"%s::vector({d}) LIMIT %s",
                        (self.element, *pool_params, *extra_params, literal[lane], k))
                    walks.append(walk)
            if lexical.words:
                scope_sql = " OR ".join(f"({sql})" for sql, _ in pools)
                scope_params = tuple(p for _, ps in pools for p in ps)
                idf, idf_params = self._idf_sql("u.term")
                average, average_params = self._average_sql()
                top.execute(
                    # Scored over the postings alone (an index-only scan: the key holds
                    # tf and len), then best first, each match checked against its row
                    # until ``want`` pass: the scope meets a few hundred rows, not every
                    # match. float8 throughout: a bare 1.0 is numeric in SQL, much slower.
                    # Materialized: the idf of each term and the average length are
                    # computed once, not once per posting. Each term's postings are
                    # one index range (``term = w.term``); a second ``term = ANY(...)``
                    # condition here was checked again on every posting, a quarter of
                    # the statement's time when the terms are common (pg_bench).
                    f"WITH w AS MATERIALIZED (SELECT u.term, {idf} AS idf FROM "
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
                    f"m.dim = {d} AND ({scope_sql}){extra_sql}) LIMIT %s",
                    (*idf_params, lexical.words, *average_params, BM25_K1 + 1.0, BM25_K1,
                     BM25_B, BM25_B, self.element, self.element,
                     *scope_params, *extra_params, want))
        found = {str(r[0]) for walk in walks for r in walk.fetchall()}
        best = [(float(r[1]), str(r[0])) for r in top.fetchall()] if lexical.words else []
        for c in (*walks, top):
            c.close()
        return found, best

    def _vector_pool(self, cur: psycopg.Cursor[Any], scope_sql: str,
                     scope_params: tuple[Any, ...], request: SearchQuery,
                     occurred: tuple[float | None, float | None],
                     cap: int | None) -> list[str]:
        """Ids in scope with a content vector that occurred within the bounds (at most
        ``cap``; more than ``cap`` means "too many to score whole")."""
        extra_sql, extra_params = self._filters(request, occurred)
        cur.execute(f"SELECT id FROM memories WHERE element = %s AND dim = {self._dim} AND "
                    f"v_content IS NOT NULL AND ({scope_sql}){extra_sql} ORDER BY seq"
                    + ("" if cap is None else " LIMIT %s"),
                    (self.element, *scope_params, *extra_params,
                     *(() if cap is None else (cap,))))
        return [str(r[0]) for r in cur.fetchall()]

    @staticmethod
    def _text_scores(rows: builtins.list[Any], request: SearchQuery,
                     meta: dict[str, tuple[int, float]]
                     ) -> tuple[builtins.list[str], np.ndarray, np.ndarray]:
        """Text-fallback similarities of ``rows`` (the memories in scope without vectors,
        or all of them when the query has none)."""
        query_tokens = {lane: token_set(request.texts.get(lane)) for lane in LANES}
        sims = np.zeros((len(rows), len(LANES)), dtype=np.float64)
        present = np.zeros((len(rows), len(LANES)), dtype=bool)
        for i, r in enumerate(rows):
            meta[str(r[0])] = (int(r[1]), float(r[2]))
            for j, lane in enumerate(LANES):
                text = r[3 + j]
                if lane in request.texts and text is not None:
                    present[i, j] = True
                    sims[i, j] = text_similarity(query_tokens[lane], token_set(text))
        return [str(r[0]) for r in rows], sims, present

    # -- maintenance ops -----------------------------------------------------------------

    def reap(self, *, settings: MemorySettings) -> list[str]:
        """Delete memories older than their category's retention; their ids, oldest first."""
        settings = require_settings(settings)
        self._check_open()
        if not settings.retention:
            return []
        now = self._clock()
        conditions, params = builtins.list[str](), builtins.list[Any]()
        for category, days in settings.retention.items():
            conditions.append("(category = %s AND created_ts <= %s)")
            params.extend([category, now - days * 86_400.0])
        with self._tx(lock=True) as cur:
            return self._delete(cur, " OR ".join(conditions), params)

    def stats(self, *, settings: MemorySettings) -> dict[str, Any]:
        """Reap, then count: ``total``, ``by_category``, ``by_subject``, ``general``,
        ``capacity``, ``embedded``, ``unembedded``, ``expired``."""
        expired = self.reap(settings=settings)
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
            general, unembedded = (int(x) for x in cur.fetchone() or (0, 0, 0))
        by_subject.sort(key=lambda s: (-s["count"], s["subject_type"], s["subject_id"]))
        total = sum(per_category.values())
        capacity = {"max_memories": settings.max_memories,
                    "max_per_subject": settings.max_per_subject, "used": total}
        return {"total": total,
                "by_category": {c: per_category.get(c, 0) for c in CATEGORIES},
                "by_subject": by_subject, "general": general,
                "embedded": total - unembedded, "unembedded": unembedded,
                "capacity": capacity, "expired": expired}

    def forget_subject(self, subject_type: str, subject_id: str, *,
                       confirm: bool) -> dict[str, Any]:
        """Delete every memory about one subject in one transaction, then ``VACUUM``.

        The rows (text, vectors, postings) go in one commit: a crash leaves all or none.
        ``VACUUM`` then marks their space free; PostgreSQL does not zero freed space, so
        the bytes stay in the table files (and in WAL segments until they are recycled)
        until overwritten (``docs/deploy.md``, "What a delete leaves on disk").

        :raise ConfirmRequired: ``confirm`` is not True.
        :raise SubjectIncomplete, InvalidMemory: a bad subject.
        """
        if confirm is not True:
            raise ConfirmRequired()
        subject = validate_subject(subject_type, subject_id)
        if subject is None:
            raise InvalidMemory("subject_type", "is required")
        with self._tx(lock=True) as cur:
            ids = self._delete(cur, "subject_type = %s AND subject_id = %s", subject)
        self._vacuum()
        return {"deleted": len(ids), "ids": ids}

    def _recount_df(self, cur: psycopg.Cursor[Any]) -> None:
        """Document frequencies of the element counted again from its postings (terms
        no memory holds any more are dropped)."""
        cur.execute("DELETE FROM memory_term_df WHERE element = %s", (self.element,))
        cur.execute("INSERT INTO memory_term_df (element, term, df) SELECT element, term, "
                    "count(*) FROM memory_terms WHERE element = %s GROUP BY element, term",
                    (self.element,))

    def _vacuum(self, analyze: bool = False) -> None:
        with self._tx(lock=True) as cur:
            cur.execute("DELETE FROM memory_term_df WHERE element = %s AND df <= 0",
                        (self.element,))
        with self._db.autocommit() as conn:
            for table in ("memories", "memory_terms", "memory_term_df"):
                conn.execute(f"VACUUM {'(ANALYZE) ' if analyze else ''}{table}".encode())

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        """Wait until the memories written with ``embed_later`` so far have their vectors
        (``MemoryStore.flush_embeddings``)."""
        return self._behind.flush(timeout)

    def repair_embeddings(self) -> int:
        """Embed memories that have no vectors (or another model's); return how many.

        Waits for a pass of the background embedder in flight (one pass at a time).

        :raise EmbeddingFailed: the embedder failed (those repaired before stay repaired).
        """
        with self._repairing:
            return self._repair_pass(lambda: False)

    def _repair_behind(self) -> int:
        """The background embedder's pass: stops before a batch once the store closes."""
        with self._repairing:
            return self._repair_pass(lambda: self._behind.closing)

    def _repair_pass(self, stop: Callable[[], bool]) -> int:
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
                    return self._embed_pending(stop)
            if stop() or not self._any_unembedded():
                return 0
            time.sleep(EMBEDDING_ELSEWHERE_POLL)

    def _any_unembedded(self) -> bool:
        with self._tx() as cur:
            cur.execute("SELECT EXISTS (SELECT 1 FROM memories WHERE element = %s "
                        "AND NOT embedded)", (self.element,))
            row = cur.fetchone()
        return bool(row and row[0])

    def _embed_pending(self, stop: Callable[[], bool]) -> int:
        repaired = 0
        attempted: list[str] = []
        while not stop():
            with self._tx() as cur:
                cur.execute("SELECT id, content, context, intention FROM memories WHERE "
                            "element = %s AND NOT embedded AND NOT (id = ANY(%s)) "
                            "ORDER BY seq LIMIT %s", (self.element, attempted, REPAIR_BATCH))
                rows = cur.fetchall()
            if not rows:
                return repaired
            batch = []
            for memory_id, content, context, intention in rows:
                attempted.append(memory_id)
                texts = {lane: text for lane, text in zip(LANES, (content, context, intention),
                                                          strict=True) if text is not None}
                batch.append((memory_id, texts))
            flat = {f"{i}:{lane}": text for i, (_, texts) in enumerate(batch)
                    for lane, text in texts.items()}
            vectors = self._embed_lanes(flat)
            if vectors is None:
                raise EmbeddingFailed(f"the embedder failed; {repaired} memories were "
                                      "repaired before it did")
            with self._tx(lock=True) as cur:
                for i, (memory_id, texts) in enumerate(batch):
                    sets = ", ".join(f"v_{lane} = %s::vector" for lane in texts)
                    cur.execute(
                        f"UPDATE memories SET {sets}, embedded = true, model = %s, dim = %s "
                        "WHERE element = %s AND id = %s AND NOT embedded AND content = %s "
                        "AND context IS NOT DISTINCT FROM %s "
                        "AND intention IS NOT DISTINCT FROM %s",
                        (*[_vector_text(vectors[f"{i}:{lane}"]) for lane in texts],
                         self._model_id, self._dim, self.element, memory_id,
                         texts["content"], texts.get("context"), texts.get("intention")))
                    repaired += cur.rowcount
        return repaired

    def compact(self) -> None:
        """``VACUUM (ANALYZE)`` the memory tables: reclaim dead rows, refresh statistics."""
        self._check_open()
        self._vacuum(analyze=True)

    # -- health --------------------------------------------------------------------------

    def verify(self, *, repair: bool = False) -> list[HealthItem]:
        """Check the schema, the lane indexes and the vectors; with ``repair``, fix them.

        Finds: a schema behind this code (fix: migrate), a lane index of this model's size
        missing (fix: create it), memories without vectors (fix: ``repair_embeddings``),
        BM25 counters that disagree with the rows (fix: recount).
        """
        from .db import SCHEMA_VERSION, vector_indexes
        items: list[HealthItem] = []
        if self._db.version() < SCHEMA_VERSION:
            item: HealthItem = {"problem": "the memory database schema is behind this "
                                "version", "fixable": True}
            if repair:
                self._db.migrate()
                item["fixed"], item["fix"] = True, "applied the missing migrations"
            items.append(item)
        with self._tx() as cur:
            cur.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'memories' AND "
                        "indexname LIKE %s", (f"memories_hnsw_%_{self._dim}",))
            indexes = int(cur.fetchone()[0])
            cur.execute("SELECT count(*), coalesce(sum(lex_len), 0), count(*) FILTER "
                        "(WHERE NOT embedded) FROM memories WHERE element = %s",
                        (self.element,))
            docs, total, unembedded = (int(x) for x in cur.fetchone() or (0, 0, 0))
            cur.execute("SELECT lex_docs, lex_total FROM memory_elements WHERE element = %s",
                        (self.element,))
            counters = cur.fetchone()
        if indexes < len(vector_indexes(self._dim)):
            item = {"problem": f"lane indexes for {self._dim}-dimensional vectors are "
                    "missing", "fixable": True}
            if repair:
                self._db.ensure_dim(self._dim)
                item["fixed"], item["fix"] = True, "created the lane indexes"
            items.append(item)
        if counters is None or (int(counters[0]), int(counters[1])) != (docs, total):
            item = {"problem": "the lexical index counters disagree with the memories",
                    "fixable": True}
            if repair:
                with self._tx(lock=True) as cur:
                    cur.execute("INSERT INTO memory_elements (element) VALUES (%s) ON "
                                "CONFLICT DO NOTHING", (self.element,))
                    cur.execute("UPDATE memory_elements SET lex_docs = (SELECT count(*) "
                                "FROM memories WHERE element = %s), lex_total = (SELECT "
                                "coalesce(sum(lex_len), 0) FROM memories WHERE element = %s) "
                                "WHERE element = %s", (self.element,) * 3)
                    self._recount_df(cur)
                item["fixed"], item["fix"] = True, "recounted the BM25 counters"
            items.append(item)
        if unembedded:
            vectors: HealthItem = {"problem": f"{unembedded} memories have no vectors "
                                              "(text search only)", "fixable": True}
            if repair:
                try:
                    vectors["fix"] = f"embedded {self.repair_embeddings()} memories"
                    vectors["fixed"] = True
                except EmbeddingFailed as exc:
                    vectors["fix_failed"] = exc.message
            items.append(vectors)
        return items

    # -- list (declared last: below ``def list``, ``list[...]`` would name the method) -----

    def list(self, *, category: str | None = None, subject_type: str | None = None,
             subject_id: str | None = None, agent: str | None = None,
             source: str | None = None, created_after: str | None = None,
             created_before: str | None = None, occurred_after: str | None = None,
             occurred_before: str | None = None, limit: int = 50,
             cursor: str | None = None) -> tuple[list[Memory], str | None]:
        """Memories newest first, filtered; ``(page, next_cursor)`` (``listing.py``'s rules).

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a bad filter or cursor.
        """
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 occurred_after=occurred_after,
                                 occurred_before=occurred_before, limit=limit, cursor=cursor)
        return self._page(query)

    def _page(self, q: ListQuery) -> tuple[builtins.list[Memory], str | None]:
        conditions = ["element = %s"]
        params: builtins.list[Any] = [self.element]
        for column, value in (("category", q.category), ("subject_type", q.subject_type),
                              ("subject_id", q.subject_id), ("agent", q.agent),
                              ("source", q.source)):
            if value is not None:
                conditions.append(f"{column} = %s")
                params.append(value)
        bounds: tuple[tuple[str, str, float | None], ...] = (
            ("created_ts", ">", q.after), ("created_ts", "<", q.before),
            ("occurred_ts", ">", q.occurred_after), ("occurred_ts", "<", q.occurred_before),
            ("seq", "<", q.below_seq))
        for column, op, bound in bounds:
            if bound is not None:
                conditions.append(f"{column} {op} %s")
                params.append(bound)
        with self._tx() as cur:
            cur.execute(f"SELECT {_PUBLIC}, seq FROM memories WHERE "
                        f"{' AND '.join(conditions)} ORDER BY seq DESC LIMIT %s",
                        (*params, q.limit + 1))
            rows = cur.fetchall()
        page = [_public(r[:-1]) for r in rows[:q.limit]]
        cursor = f"s{int(rows[q.limit - 1][-1])}" if len(rows) > q.limit else None
        return page, cursor

    def export(self, *, vectors: bool = False, category: str | None = None,
               subject_type: str | None = None, subject_id: str | None = None,
               agent: str | None = None, source: str | None = None,
               created_after: str | None = None, created_before: str | None = None
               ) -> tuple[int, Iterator[Memory]]:
        """``(count, memories)`` as ``MemoryStore.export``: the matching ids are fixed by
        the call, then read a page at a time (one deleted meanwhile is left out, so the
        iterator may yield fewer than ``count``: the import of such a file refuses it).

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a malformed filter.
        """
        ids = [m["id"] for m in self.iter_memories(
            category=category, subject_type=subject_type, subject_id=subject_id,
            agent=agent, source=source, created_after=created_after,
            created_before=created_before)]
        return len(ids), self._exported(ids, vectors)

    def _exported(self, ids: builtins.list[str], vectors: bool) -> Iterator[Memory]:
        lanes = ", v_content::text, v_context::text, v_intention::text" if vectors else ""
        for start in range(0, len(ids), LIST_LIMIT_MAX):
            chunk = ids[start:start + LIST_LIMIT_MAX]
            with self._tx() as cur:
                cur.execute(f"SELECT {_PUBLIC}{lanes} FROM memories WHERE element = %s "
                            "AND id = ANY(%s)", (self.element, chunk))
                rows = {str(row[0]): row for row in cur.fetchall()}
            for memory_id in chunk:
                row = rows.get(memory_id)
                if row is None:
                    continue
                memory = _public(row[:len(_FIELDS)])
                if vectors and memory["embedded"]:
                    memory["vectors"] = {
                        lane: np.asarray(json.loads(text), dtype=np.float32)
                        for lane, text in zip(LANES, row[len(_FIELDS):], strict=True)
                        if text is not None}
                yield memory

    def import_memories(self, items: Sequence[ImportedMemory], *, model_id: str | None,
                        settings: MemorySettings) -> ImportResult:
        """Add memories as exported (``MemoryBackend.import_memories``), in one
        transaction under the element's lock: all or nothing.

        :raise MemoryCapacity, DatabaseUnavailable, StorageFull, StoreFailed: none of the
            items is stored.
        """
        settings = require_settings(settings)
        result = ImportResult()
        with self._tx() as cur:
            cur.execute("SELECT id FROM memories WHERE element = %s AND id = ANY(%s)",
                        (self.element, [item.id for item in items]))
            present = {str(row[0]) for row in cur.fetchall()}
        fresh = [item for item in items if item.id not in present]
        result.skipped = [item.id for item in items if item.id in present]
        same_model = model_id == self._model_id
        carried = [usable_vectors(item, self._dim) if same_model else None for item in fresh]
        need = {f"{i}:{lane}": text for i, item in enumerate(fresh) if carried[i] is None
                for lane, text in item.lane_texts().items()}
        embedded = self._embed_lanes(need) if need else {}
        with self._tx(lock=True) as cur:
            for i, item in enumerate(fresh):
                record = item.record
                new = validate_new(
                    content=record["content"], category=record["category"],
                    subject_type=record["subject_type"], subject_id=record["subject_id"],
                    context=record["context"], intention=record["intention"],
                    agent=record["agent"], source=record["source"],
                    metadata=record["metadata"], idempotency_key=None,
                    occurred_at=record.get("occurred_at"))
                lanes = carried[i]
                if lanes is None and embedded is not None:
                    lanes = {lane: embedded[f"{i}:{lane}"] for lane in item.lane_texts()}
                    result.embedded_here += 1
                # A MemoryCapacity raised here rolls the whole transaction back.
                done = self._write(cur, new, lanes, settings, kept=record)
                result.imported.append(item.id)
                result.evicted.extend(done.evicted)
                if lanes is None:
                    result.unembedded.append(item.id)
        return result

    def copy_log(self, dest: Path | str) -> dict[str, Any]:
        """A database backend has no log to copy: its backup is the database's own
        (``pg_dump``, docs/deploy.md). :raise StoreFailed: always."""
        raise StoreFailed("memories in PostgreSQL are backed up with the database "
                          "(pg_dump), not copied as a log")

    def iter_memories(self, *, category: str | None = None,
                      subject_type: str | None = None, subject_id: str | None = None,
                      agent: str | None = None, source: str | None = None,
                      created_after: str | None = None,
                      created_before: str | None = None) -> Iterator[Memory]:
        """Every memory :meth:`list` returns for these filters, newest first, one page of
        ``LIST_LIMIT_MAX`` per query as the iterator is consumed.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a malformed filter,
            raised by this call rather than by the first ``next``.
        """
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 limit=LIST_LIMIT_MAX, cursor=None)
        self._check_open()
        return self._pages(query)

    def _pages(self, query: ListQuery) -> Iterator[Memory]:
        while True:
            page, cursor = self._page(query)
            yield from page
            if cursor is None:
                return
            query = query.continued(cursor)


def _span_bounds(when: TimeSpan, occurred: tuple[float | None, float | None]
                 ) -> tuple[float, float]:
    """Exclusive bounds of a half-open span ``[start, end)``, inside ``occurred``."""
    after = float(np.nextafter(when.start, -np.inf))
    if occurred[0] is not None:
        after = max(after, occurred[0])
    before = when.end if occurred[1] is None else min(when.end, occurred[1])
    return after, float(before)


class _Locked:
    """A transaction that first takes the element's advisory lock (when ``key`` is set):
    every writer of the element, in any process, queues here until the holder commits."""

    def __init__(self, db: Database, key: int | None) -> None:
        self._db, self._key = db, key
        self._cm: Any = None

    def __enter__(self) -> psycopg.Cursor[Any]:
        self._cm = self._db.transaction()
        cur: psycopg.Cursor[Any] = self._cm.__enter__()
        if self._key is not None:
            try:
                cur.execute("SELECT pg_advisory_xact_lock(%s)", (self._key,))
            except BaseException as exc:
                self._cm.__exit__(type(exc), exc, exc.__traceback__)
                raise
        return cur

    def __exit__(self, *exc_info: Any) -> Any:
        return self._cm.__exit__(*exc_info)
