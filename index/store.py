"""MemoryStore: the memory runtime of one element, as a plain library.

Directory layout (``runtime/<element-id>/``)::

    lock                 flock'ed while a store is open: one writer per element
    memories.jsonl       the op log, source of truth (``log.py``)
    sidecar.json, ...    checkpoint of the in-memory state at a log offset (``sidecar.py``)

Opening takes the lock (waiting up to ``lock_timeout`` seconds for another process to
close, then :class:`~index.errors.StoreLocked`), truncates a torn last log line, loads the
sidecar and replays the log past the offset it covers, or, when the sidecar is missing,
corrupt, stale or from another model, rebuilds everything from the log without
re-embedding. What happened is in :attr:`MemoryStore.open_report`.

Every mutation validates first, then builds one log op, appends and fsyncs it, and only
then applies it to memory through the same code replay uses (``state.py``); a refused
call writes nothing. Embedding runs outside the store's lock. A search logs one ``access``
line (written, not fsynced) for the memories it returns.

Maintenance runs inline after mutations: a checkpoint every ``max(500, memories // 20)``
index changes (``checkpoint_every``; a restart after a crash replays at most that many
ops), and a compaction when the log holds more dead lines than ``max(live memories,
4096)``. Both also run on demand (``close``
checkpoints, ``compact``, ``forget_subject``).

Thread-safe: one re-entrant lock serializes state changes and searches.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .embed import Embedder, normalize_rows
from .embed_cache import CachedEmbedder
from .errors import (ConfirmRequired, EmbeddingFailed, InvalidMemory, MemoryCapacity,
                     MemoryNotFound, StoreClosed, StoreError, StoreFailed)
from .lanes import IndexParams
from .listing import LIST_LIMIT_MAX, list_page, parse_list_query
from .lockfile import ElementLock
from .log import MemoryLog
from .policy import Occupancy, expired_mask, least_valuable, plan_eviction
from .recall import LANES, weight_vector
from .records import (CATEGORIES, MAX_CONTENT_BYTES, MAX_CONTEXT_BYTES, MAX_INTENTION_BYTES,
                      MAX_QUERY_BYTES, iso_utc, parse_time, validate_category,
                      validate_limit,
                      validate_metadata, validate_new, validate_optional_text,
                      validate_subject, validate_text)
from .recovery import recover
from .search import owners_in_scope, score
from .settings import MemorySettings
from .sidecar import latest_generation, remove_sidecar, write_sidecar
from .slots import CATEGORY_CODES, FREE, GENERAL
from .timespan import query_span

__all__ = ["MemoryStore", "StoreResult", "SearchResult", "LOG_NAME", "LOCK_NAME",
           "SEARCH_LIMIT_MAX", "LIST_LIMIT_MAX"]

logger = logging.getLogger(__name__)

LOG_NAME = "memories.jsonl"
LOCK_NAME = "lock"
SEARCH_LIMIT_MAX = 100
COMPACT_MIN_DEAD = 4096
REPAIR_BATCH = 64


@dataclass(frozen=True)
class StoreResult:
    """What ``store`` returns: the memory's public form, evicted ids, warning codes."""

    memory: dict[str, Any]
    evicted: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What ``search`` returns: ``{"memory", "score", "lanes"}`` items best first.

    ``fallback`` is ``"text"`` when some or all scores came from text matching because
    vectors were unavailable (the query could not be embedded, or memories in scope are
    not embedded), else None.
    """

    results: list[dict[str, Any]]
    fallback: str | None = None


def _check_settings(settings: object) -> MemorySettings:
    if not isinstance(settings, MemorySettings):
        raise TypeError("settings must be a MemorySettings")
    return settings


def _validate_categories(categories: object) -> list[int] | None:
    if categories is None:
        return None
    if isinstance(categories, str) or not isinstance(categories, Sequence):
        raise InvalidMemory("categories", "must be a list of categories")
    codes = sorted({CATEGORY_CODES[validate_category(c)] for c in categories})
    # An empty list is "no filter", like leaving it out, rather than "match nothing".
    return codes or None


_STORE_DEFAULTS: dict[str, Any] = {
    "subject_type": None, "subject_id": None, "context": None, "intention": None,
    "agent": None, "source": "api", "metadata": None, "idempotency_key": None,
    "occurred_at": None}


def _lane_texts(new: Any) -> dict[str, str]:
    """The lane texts of a validated memory that has them."""
    texts = {"content": new.content, "context": new.context, "intention": new.intention}
    return {lane: text for lane, text in texts.items() if text is not None}


class MemoryStore:
    """Durable memories of one element in ``directory`` (see the module docstring).

    :param directory: the element's runtime directory; created if missing.
    :param embedder: turns texts into unit vectors; its ``model_id`` and ``dim`` are
        recorded in the log and sidecar.
    :param clock: POSIX seconds; injectable so retention and timestamps are testable.
    :param lock_timeout: seconds to wait for another process to release the element.
    :param index_params: hnswlib and candidate-generation tuning.
    :param embed_cache: texts whose vectors are kept for reuse (``embed_cache.py``; a
        window is embedded for every memory of one observe and again for the search of
        that turn); 0 turns the cache off. An embedder that is already a
        :class:`~index.embed_cache.CachedEmbedder` is used as it is (shared by its stores).
    :param checkpoint_every: index-changing ops between sidecar checkpoints; None (the
        default) adapts to the size: ``max(500, memories // 20)``. A checkpoint at 100k
        writes about a gigabyte, so a fixed small interval would dominate store cost,
        while the interval bounds what a restart after a crash must replay.
    :raise StoreLocked: another process holds the element past ``lock_timeout``.
    :raise LogCorrupt: the log is damaged somewhere other than its last line.
    """

    def __init__(self, directory: Path | str, embedder: Embedder, *,
                 clock: Callable[[], float] = time.time, lock_timeout: float = 10.0,
                 index_params: IndexParams | None = None,
                 checkpoint_every: int | None = None, embed_cache: int = 4096) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        if embed_cache > 0 and not isinstance(embedder, CachedEmbedder):
            embedder = CachedEmbedder(embedder, max_entries=embed_cache)
        self._embedder = embedder
        self._model_id = str(embedder.model_id)
        self._dim = int(embedder.dim)
        self._clock = clock
        self._params = index_params or IndexParams()
        self._checkpoint_every = None if checkpoint_every is None \
            else max(1, int(checkpoint_every))
        self._lock = threading.RLock()
        self._closed = True
        self._element_lock = ElementLock(self.directory / LOCK_NAME, lock_timeout)
        try:
            self._open()
        except BaseException:
            self._release()
            raise
        self._closed = False

    # -- open / close --------------------------------------------------------------------

    def _open(self) -> None:
        self._log = MemoryLog(self.directory / LOG_NAME, model_id=self._model_id,
                              dim=self._dim)
        self._generation = latest_generation(self.directory)
        state, report = recover(self.directory, self._log, model_id=self._model_id,
                                dim=self._dim, params=self._params)
        self._state = state
        self._tail = report["replayed"]
        self._dirty = report["replayed"] > 0
        if state.log_model != self._model_id:
            self._commit([{"op": "model", "model_id": self._model_id, "dim": self._dim,
                           "at": iso_utc(self._clock())}])
        report["stale_vectors"] = state.stale_vectors
        report["memories"] = len(state)
        report["unembedded"] = len(state.unembedded)
        if state.saw_forget:
            # A forget_subject was logged but its compaction did not finish: finish it now,
            # so the forgotten text leaves the disk.
            self._compact_locked()
        elif report["rebuilt"] or self._tail >= self._checkpoint_interval():
            self._try_checkpoint()
        self.open_report = report

    def _release(self) -> None:
        self._element_lock.release()

    def close(self) -> None:
        """Checkpoint if anything changed, close the log and release the element (idempotent)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                if self._dirty:
                    self._try_checkpoint()
            finally:
                self._log.close()
                self._release()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __len__(self) -> int:
        with self._lock:
            return len(self._state)

    @property
    def embedder(self) -> Embedder:
        """The embedder this store calls (a :class:`CachedEmbedder` unless turned off)."""
        return self._embedder

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed()

    # -- the write path ------------------------------------------------------------------

    def _commit(self, entries: list[dict[str, Any]], *, durable: bool = True) -> None:
        """Log ``entries`` (fsynced when ``durable``), then apply them. Caller holds the lock."""
        self._log.append(entries, durable=durable)
        for entry in entries:
            self._state.apply(entry)
            if entry["op"] not in ("access", "model"):
                self._tail += 1
        self._dirty = True

    def _maintain(self) -> None:
        """Compact or checkpoint when due; failures are logged, never raised to the op."""
        try:
            if self._state.dead_lines > max(len(self._state), COMPACT_MIN_DEAD):
                self._compact_locked()
            elif self._tail >= self._checkpoint_interval():
                self._try_checkpoint()
        except StoreFailed as exc:
            logger.warning("memory store maintenance failed: %s", exc.message)

    def _checkpoint_interval(self) -> int:
        if self._checkpoint_every is not None:
            return self._checkpoint_every
        return max(500, len(self._state) // 20)

    def _try_checkpoint(self) -> None:
        try:
            self._log.sync()
            state = self._state
            meta = {"generation": self._generation + 1, "log_id": self._log.log_id,
                    "log_offset": self._log.size, "log_lines": state.lines,
                    "model_id": self._model_id, "dim": self._dim,
                    "log_model": state.log_model, "next_seq": state.next_seq,
                    "high_water": state.slots.high_water, "count": len(state)}
            write_sidecar(self.directory, meta, state.snapshot_columns(), state.lanes,
                          state.lexical)
        except (OSError, StoreFailed, RuntimeError) as exc:
            logger.warning("memory sidecar checkpoint failed (the log is intact): %s", exc)
            return
        self._generation += 1
        self._tail = 0
        self._dirty = False

    def _compact_locked(self) -> None:
        state = self._state
        self._log.rewrite(state.store_entries(), model_id=self._model_id, dim=self._dim,
                          next_seq=state.next_seq)
        state.lines = len(state) + 1
        state.log_model = self._model_id
        state.saw_forget = False
        self._dirty = True
        self._try_checkpoint()
        if self._dirty:
            # The old checkpoint covers a log that no longer exists (and may hold text a
            # forget_subject just removed): drop it rather than leave it behind.
            remove_sidecar(self.directory)

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
              occurred_at: str | None = None, settings: MemorySettings) -> StoreResult:
        """Store a new memory, evicting at capacity (``policy.py``).

        ``occurred_at`` (ISO-8601; a naive time is UTC) is when the remembered thing
        happened; it defaults to the store time.

        Embedding failure still stores the memory, with ``embedded`` False and warning
        ``MEMORY_EMBEDDING_FAILED``. A repeated ``idempotency_key`` returns the first
        result and stores nothing (keys live as long as the memory they created).

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory: bad input; nothing written.
        :raise MemoryCapacity: at capacity with an empty pool to evict from (scoping on).
        :raise StoreFailed: the log write failed; nothing stored.
        """
        new = validate_new(content=content, category=category, subject_type=subject_type,
                           subject_id=subject_id, context=context, intention=intention,
                           agent=agent, source=source, metadata=metadata,
                           idempotency_key=idempotency_key, occurred_at=occurred_at)
        settings = _check_settings(settings)
        with self._lock:
            self._check_open()
            earlier = self._earlier_result(new.key)
            if earlier is not None:
                return earlier
        vectors = self._embed_lanes(_lane_texts(new))
        with self._lock:
            self._check_open()
            result = self._write(new, vectors, settings, durable=True)
            self._maintain()
            return result

    def store_many(self, items: Sequence[Mapping[str, Any]], *,
                   settings: MemorySettings) -> list[StoreResult]:
        """Store several memories with one embedding pass and one fsync (group commit).

        Each item takes the keyword arguments of :meth:`store` (``source`` and
        ``idempotency_key`` included). All items are validated before anything is
        embedded or written; then they are stored in order, exactly as :meth:`store`
        would (evictions, idempotency), and acknowledged together once the log is fsynced.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory: an item is bad (its
            message starts with ``items[i]``); nothing is written.
        :raise MemoryCapacity: item i cannot be stored; the items before it are stored and
            durable, none after it.
        :raise StoreFailed: the log write or fsync failed.
        """
        news = []
        for i, item in enumerate(items):
            try:
                news.append(validate_new(**{**_STORE_DEFAULTS, **item}))
            except TypeError as exc:
                raise InvalidMemory(f"items[{i}]", str(exc)) from None
            except StoreError as exc:
                exc.message = f"items[{i}]: {exc.message}"
                exc.args = (exc.message,)
                raise
        settings = _check_settings(settings)
        texts = [_lane_texts(new) for new in news]
        flat = {f"{i}:{lane}": text for i, lanes in enumerate(texts)
                for lane, text in lanes.items()}
        embedded = self._embed_lanes(flat)
        results: list[StoreResult] = []
        with self._lock:
            self._check_open()
            try:
                for i, new in enumerate(news):
                    vectors = None if embedded is None else \
                        {lane: embedded[f"{i}:{lane}"] for lane in texts[i]}
                    results.append(self._write(new, vectors, settings, durable=False))
            finally:
                if results:
                    self._log.sync()
            self._maintain()
        return results

    def _write(self, new: Any, vectors: dict[str, np.ndarray] | None,
               settings: MemorySettings, *, durable: bool) -> StoreResult:
        """Log and apply one validated memory (or return the earlier result of its key)."""
        earlier = self._earlier_result(new.key)
        if earlier is not None:
            return earlier
        warnings = [] if vectors is not None else [EmbeddingFailed.code]
        evicted = self._choose_evictions(new.subject, settings)
        now = iso_utc(self._clock())
        memory_id = uuid.uuid4().hex
        record = {
            "id": memory_id, "seq": self._state.next_seq, "content": new.content,
            "category": new.category,
            "subject_type": new.subject[0] if new.subject else None,
            "subject_id": new.subject[1] if new.subject else None,
            "context": new.context, "intention": new.intention, "agent": new.agent,
            "source": new.source, "metadata": new.metadata, "created_at": now,
            "updated_at": now, "occurred_at": new.occurred_at or now,
            "last_accessed_at": None, "access_count": 0}
        self._commit([{"op": "store", "record": record, "key": new.key,
                       "evicted": evicted, "warnings": warnings, "vectors": vectors or {}}],
                     durable=durable)
        return StoreResult(self._state.records[memory_id].public(), evicted, warnings)

    def _earlier_result(self, key: str | None) -> StoreResult | None:
        if key is None or key not in self._state.keys:
            return None
        record = self._state.records[self._state.keys[key]]
        return StoreResult(record.public(), list(record.key_evicted),
                           list(record.key_warnings))

    def _choose_evictions(self, subject: tuple[str, str] | None,
                          settings: MemorySettings) -> list[str]:
        slots = self._state.slots
        owner = slots.subject_code(subject, create=False)
        plan = plan_eviction(
            Occupancy(total=slots.live, pool=slots.pool_size(owner) if owner != FREE else 0),
            scoping=settings.subject_scoping, has_subject=subject is not None,
            max_memories=settings.max_memories, max_per_subject=settings.max_per_subject)
        if plan.refused:
            raise MemoryCapacity(plan.pool, settings.max_memories, slots.live)
        if plan.count == 0:
            return []
        labels = slots.pool_labels(None if plan.pool == "all" else owner)
        order = least_valuable(slots.access[labels], slots.seq[labels], plan.count)
        return [str(slots.ids[int(label)]) for label in labels[order]]

    # -- read ----------------------------------------------------------------------------

    def get(self, memory_id: str) -> dict[str, Any]:
        """The public form of one memory.

        :raise MemoryNotFound: no memory has this id.
        """
        with self._lock:
            self._check_open()
            record = self._state.records.get(memory_id) if isinstance(memory_id, str) \
                else None
            if record is None:
                raise MemoryNotFound(str(memory_id))
            return record.public()

    def list(self, *, category: str | None = None, subject_type: str | None = None,
             subject_id: str | None = None, agent: str | None = None,
             source: str | None = None, created_after: str | None = None,
             created_before: str | None = None, occurred_after: str | None = None,
             occurred_before: str | None = None, limit: int = 50,
             cursor: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """Memories newest first, filtered; returns ``(page, next_cursor)`` (``listing.py``).

        Filters combine with AND; ``subject_type`` alone matches every subject of that type
        (``subject_id`` needs ``subject_type``); ``created_after``/``created_before`` are
        exclusive ISO-8601 bounds, and so are ``occurred_after``/``occurred_before``. Pages
        stay stable while memories are added or deleted.
        ``next_cursor`` is None on the last page.

        :raise InvalidMemory: a malformed filter, limit or cursor.
        """
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 occurred_after=occurred_after,
                                 occurred_before=occurred_before, limit=limit, cursor=cursor)
        with self._lock:
            self._check_open()
            return list_page(self._state, query)

    # -- update / delete -----------------------------------------------------------------

    def update(self, memory_id: str, *, content: str | None = None,
               category: str | None = None, context: str | None = None,
               intention: str | None = None, metadata: dict[str, Any] | None = None,
               settings: MemorySettings) -> dict[str, Any]:
        """Change a memory; a changed text is re-embedded, other vectors are kept.

        None leaves a field as it is; an empty ``context``/``intention`` clears it;
        ``metadata`` replaces the whole object. Subject and agent never change. When
        embedding fails the memory loses its vectors (``embedded`` False, text fallback)
        until ``repair_embeddings``. Nothing to change: nothing is written.

        :raise MemoryNotFound: no memory has this id.
        :raise InvalidCategory, InvalidMemory: bad input; nothing written.
        """
        changes: dict[str, Any] = {}
        if content is not None:
            changes["content"] = validate_text(content, "content", MAX_CONTENT_BYTES)
        if category is not None:
            changes["category"] = validate_category(category)
        if context is not None:
            changes["context"] = validate_optional_text(context, "context",
                                                        MAX_CONTEXT_BYTES)
        if intention is not None:
            changes["intention"] = validate_optional_text(intention, "intention",
                                                          MAX_INTENTION_BYTES)
        if metadata is not None:
            changes["metadata"] = validate_metadata(metadata)
        _check_settings(settings)
        for attempt in range(3):
            # Embed outside the lock; if the memory changed meanwhile, try again, and on
            # the last attempt hold the lock throughout so the update cannot starve.
            hold = attempt == 2
            if hold:
                self._lock.acquire()
            try:
                with self._lock:
                    record = self._live_record(memory_id)
                    fields = {k: v for k, v in changes.items() if getattr(record, k) != v}
                    if not fields:
                        return record.public()
                    snapshot = (record.content, record.context, record.intention,
                                record.embedded)
                    after = {lane: fields[lane] if lane in fields else record.lane_text(lane)
                             for lane in LANES}
                    if record.embedded:
                        to_embed = {lane: text for lane, text in after.items()
                                    if lane in fields and text is not None}
                        to_drop = [lane for lane in LANES
                                   if lane in fields and after[lane] is None]
                    else:
                        to_embed = {k: v for k, v in after.items() if v is not None}
                        to_drop = []
                vectors = self._embed_lanes(to_embed) if to_embed else {}
                with self._lock:
                    record = self._live_record(memory_id)
                    if snapshot != (record.content, record.context, record.intention,
                                    record.embedded):
                        continue
                    embedded = vectors is not None and (record.embedded or bool(to_embed))
                    lane_vectors: dict[str, np.ndarray | None] = dict(vectors or {})
                    lane_vectors.update({lane: None for lane in to_drop})
                    self._commit([{"op": "update", "id": memory_id,
                                   "at": iso_utc(self._clock()), "fields": fields,
                                   "embedded": embedded,
                                   "vectors": lane_vectors if embedded else {}}])
                    result = self._state.records[memory_id].public()
                    self._maintain()
                    return result
            finally:
                if hold:
                    self._lock.release()
        raise StoreFailed("the memory kept changing during the update")   # not reached

    def _live_record(self, memory_id: str) -> Any:
        self._check_open()
        record = self._state.records.get(memory_id) if isinstance(memory_id, str) else None
        if record is None:
            raise MemoryNotFound(str(memory_id))
        return record

    def delete(self, memory_id: str) -> None:
        """Delete one memory (a tombstone line).

        :raise MemoryNotFound: no memory has this id.
        """
        with self._lock:
            self._live_record(memory_id)
            self._commit([{"op": "delete", "ids": [memory_id], "reason": "delete"}])
            self._maintain()

    # -- search --------------------------------------------------------------------------

    def search(self, *, query: str, context: str | None = None,
               intention: str | None = None, subject_type: str | None = None,
               subject_id: str | None = None, limit: int = 10,
               categories: list[str] | None = None, occurred_after: str | None = None,
               occurred_before: str | None = None,
               settings: MemorySettings) -> SearchResult:
        """Blended-association recall (``recall.py``), best first.

        Candidates: for each lane the query gives (content always; context when a window
        is given; intention when a goal is given) and each owner pool in scope, the lane's
        top ``max(4 * limit, 64)`` (three times that for content) from hnswlib or, for small
        pools, an exact scan (``lanes.py``); the union is rescored exactly on the stored
        vectors of all lanes. Memories without vectors in scope are scored by text (``fallback="text"``);
        if the query itself cannot be embedded, everything in scope is.

        Scope: scoping off, every memory; on, general memories plus the given subject's
        (only general ones when no subject is given); ``occurred_after`` and
        ``occurred_before`` (exclusive ISO-8601 bounds) keep memories that occurred between
        them. A time the query's words name ("last week", "in May 2023";
        ``timespan.py``, relative to the store's clock) boosts memories that occurred then
        (``recall.boost_time``). Results under
        ``relevance_threshold`` are dropped; returned memories get ``access_count`` + 1 and
        ``last_accessed_at`` now (the memory objects returned already show it).

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: bad input.
        """
        text = validate_text(query, "query", MAX_QUERY_BYTES)
        window = validate_optional_text(context, "context", MAX_CONTEXT_BYTES)
        goal = validate_optional_text(intention, "intention", MAX_INTENTION_BYTES)
        subject = validate_subject(subject_type, subject_id)
        limit = validate_limit(limit, "limit", SEARCH_LIMIT_MAX)
        cats = _validate_categories(categories)
        occurred = (None if occurred_after is None
                    else parse_time(occurred_after, "occurred_after"),
                    None if occurred_before is None
                    else parse_time(occurred_before, "occurred_before"))
        settings = _check_settings(settings)
        when = query_span(text, self._clock())
        texts = {k: v for k, v in (("content", text), ("context", window),
                                   ("intention", goal)) if v is not None}
        queries = self._embed_lanes(texts)
        with self._lock:
            self._check_open()
            state = self._state
            ranked = score(state, queries=queries, texts=texts,
                           owners=owners_in_scope(state, subject, settings.subject_scoping),
                           cats=cats, weights=weight_vector(settings.association_weights),
                           threshold=settings.relevance_threshold, limit=limit,
                           occurred=occurred, when=when)
            if ranked.ids:
                self._commit([{"op": "access", "ids": ranked.ids,
                               "at": iso_utc(self._clock())}], durable=False)
            results = [{"memory": state.records[memory_id].public(), "score": value,
                        "lanes": lanes}
                       for memory_id, value, lanes in zip(ranked.ids, ranked.scores,
                                                          ranked.lanes)]
            if ranked.ids:
                self._maintain()
            return SearchResult(results, ranked.fallback)

    # -- maintenance ops -----------------------------------------------------------------

    def reap(self, *, settings: MemorySettings) -> list[str]:
        """Delete memories older than their category's TTL; return their ids, oldest first."""
        settings = _check_settings(settings)
        with self._lock:
            self._check_open()
            if not settings.retention:
                return []
            slots = self._state.slots
            hw = slots.high_water
            live = slots.owner[:hw] != FREE
            mask = live & expired_mask(slots.created[:hw], slots.cat[:hw],
                                       settings.retention, self._clock())
            labels = np.flatnonzero(mask)
            if len(labels) == 0:
                return []
            labels = labels[np.argsort(slots.seq[labels], kind="stable")]
            ids = [str(slots.ids[int(label)]) for label in labels]
            self._commit([{"op": "delete", "ids": ids, "reason": "expire"}])
            self._maintain()
            return ids

    def stats(self, *, settings: MemorySettings) -> dict[str, Any]:
        """Run the reaper, then count memories by category and subject, with capacity."""
        expired = self.reap(settings=settings)
        with self._lock:
            self._check_open()
            state = self._state
            slots = state.slots
            hw = slots.high_water
            live = slots.owner[:hw] != FREE
            counts = np.bincount(slots.cat[:hw][live].astype(np.int64),
                                 minlength=len(CATEGORIES))
            by_subject = [
                {"subject_type": subject[0], "subject_id": subject[1],
                 "count": len(slots.owner_labels[code])}
                for subject, code in slots.subject_codes.items()
                if slots.owner_labels.get(code)]
            by_subject.sort(key=lambda s: (-s["count"], s["subject_type"], s["subject_id"]))
            total = len(state)
            return {
                "total": total,
                "by_category": {c: int(counts[i]) for i, c in enumerate(CATEGORIES)},
                "by_subject": by_subject,
                "general": slots.pool_size(GENERAL),
                "capacity": {"max_memories": settings.max_memories,
                             "max_per_subject": settings.max_per_subject, "used": total},
                "embedded": total - len(state.unembedded),
                "unembedded": len(state.unembedded),
                "expired": expired,
            }

    def forget_subject(self, subject_type: str, subject_id: str, *,
                       confirm: bool) -> dict[str, Any]:
        """Delete every memory about one subject, then compact so its text leaves the disk.

        General memories are untouched. The compaction runs even when nothing matches now,
        so text of this subject's memories deleted earlier is gone from disk too; their
        vectors are overwritten inside hnswlib before the checkpoint is saved.

        :raise ConfirmRequired: ``confirm`` is not True.
        :raise SubjectIncomplete, InvalidMemory: the subject is incomplete or malformed.
        """
        if confirm is not True:
            raise ConfirmRequired()
        subject = validate_subject(subject_type, subject_id)
        if subject is None:
            raise InvalidMemory("subject_type", "is required")
        with self._lock:
            self._check_open()
            slots = self._state.slots
            code = slots.subject_code(subject, create=False)
            labels = sorted(slots.owner_labels.get(code, ()), key=lambda l: slots.seq[l]) \
                if code != FREE else []
            ids = [str(slots.ids[label]) for label in labels]
            if ids:
                self._commit([{"op": "delete", "ids": ids, "reason": "forget"}])
            self._compact_locked()
            return {"deleted": len(ids), "ids": ids}

    def repair_embeddings(self) -> int:
        """Embed memories stored without vectors (or with another model's); return how many.

        :raise EmbeddingFailed: the embedder failed (memories repaired before stay repaired).
        """
        repaired = 0
        attempted: set[str] = set()   # each memory is tried once per call: no endless loop
        while True:
            with self._lock:
                self._check_open()
                state = self._state
                batch = []
                for label in sorted(state.unembedded):
                    record = state.records[str(state.slots.ids[label])]
                    if record.id in attempted:
                        continue
                    if len(batch) == REPAIR_BATCH:
                        break
                    attempted.add(record.id)
                    batch.append((record.id, {lane: record.lane_text(lane) for lane in LANES
                                              if record.lane_text(lane) is not None}))
            if not batch:
                return repaired
            flat = {f"{i}:{lane}": text for i, (_, texts) in enumerate(batch)
                    for lane, text in texts.items()}
            vectors = self._embed_lanes(flat)
            if vectors is None:
                raise EmbeddingFailed(f"the embedder failed; {repaired} memories were "
                                      "repaired before it did")
            with self._lock:
                self._check_open()
                entries = []
                for i, (memory_id, texts) in enumerate(batch):
                    record = self._state.records.get(memory_id)
                    if record is None or record.embedded or texts != {
                            lane: record.lane_text(lane) for lane in LANES
                            if record.lane_text(lane) is not None}:
                        continue
                    entries.append({"op": "embed", "id": memory_id, "vectors": {
                        lane: vectors[f"{i}:{lane}"] for lane in texts}})
                if entries:
                    self._commit(entries)
                    repaired += len(entries)
                    self._maintain()

    def compact(self) -> None:
        """Rewrite the log as one store line per live memory, then checkpoint."""
        with self._lock:
            self._check_open()
            self._compact_locked()
