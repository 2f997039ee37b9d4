"""MemoryStore: the memory runtime of one element, as a plain library (a ``MemoryBackend``).

The ops of ``backend.MemoryBackend`` over the durable core in ``engine.py`` (element lock,
JSONL log, in-memory state, checkpoints, compaction; the directory layout is there).

Every mutation validates first, then builds one log op that the engine appends, fsyncs
and only then applies to memory through the same code replay uses (``state.py``); a
refused or failed call writes nothing (a full disk is
:class:`~index.errors.StorageFull`). Embedding runs outside the store's lock. A search
logs one ``access`` line (written, not fsynced) for the memories it returns; when even
that cannot be written, the search still answers. :meth:`MemoryStore.verify` checks the
files against memory and repairs them (``health.py``).

Thread-safe: one re-entrant lock (the engine's) serializes state changes and searches.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .backend import HealthItem, ImportedMemory, ImportResult, Memory, SearchResult, StoreResult
from .behind import EmbedBehind
from .embed import Embedder, normalize_rows
from .embed_cache import CachedEmbedder
from .engine import LOCK_NAME, LOG_NAME, Engine
from .errors import (
    ConfirmRequired,
    EmbeddingFailed,
    InvalidMemory,
    MemoryNotFound,
    StoreFailed,
)
from .health import verify
from .lanes import IndexParams
from .listing import LIST_LIMIT_MAX, ListQuery, list_page, matches, parse_list_query
from .recall import weight_vector
from .transfer import (
    copy_log_prefix,
    import_line,
    usable_vectors,
)
from .records import (
    MemoryRecord,
    NewMemory,
    iso_utc,
    validate_changes,
    validate_items,
    validate_new,
    validate_subject,
)
from .search import SEARCH_LIMIT_MAX, owners_in_scope, parse_search, score
from .settings import MemorySettings, require_settings
from .state import MemoryState
from .timespan import query_span
from .writes import (
    check_keys,
    earlier_result,
    expired_ids,
    lane_texts,
    store_line,
    subject_ids,
    unembedded_batch,
    update_plan,
)

__all__ = ["MemoryStore", "LOG_NAME", "LOCK_NAME", "SEARCH_LIMIT_MAX"]

logger = logging.getLogger(__name__)

REPAIR_BATCH = 64


class MemoryStore:
    """Durable memories of one element in ``directory`` (see the module docstring).

    :param directory: the element's runtime directory; created if missing, made 0700.
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
    :param restore_log: when the log is missing (or empty) beside a checkpoint of
        memories, write the log back from that checkpoint (changes made after it are
        lost) instead of refusing to open. ``open_report["log_restored"]`` counts the
        memories restored.
    :param repair_on_open: memories found without vectors when the store opens (written
        with ``embed_later`` before a crash or a close, an embedder outage, another
        model's vectors) are embedded by the background embedder at once (``behind.py``),
        as the home's stores do; off (the library's default), they wait for
        :meth:`repair_embeddings` or the next ``embed_later`` write.
    :raise StoreLocked: another process holds the element past ``lock_timeout``.
    :raise LogCorrupt: the log is damaged somewhere other than its last line.
    :raise LogMissing: the log is gone beside a checkpoint of memories (and
        ``restore_log`` is off, or the checkpoint cannot be used).
    """

    def __init__(self, directory: Path | str, embedder: Embedder, *,
                 clock: Callable[[], float] = time.time, lock_timeout: float = 10.0,
                 index_params: IndexParams | None = None,
                 checkpoint_every: int | None = None, restore_log: bool = False,
                 embed_cache: int = 4096, repair_on_open: bool = False) -> None:
        self.directory = Path(directory)
        if embed_cache > 0 and not isinstance(embedder, CachedEmbedder):
            embedder = CachedEmbedder(embedder, max_entries=embed_cache)
        self._embedder: Embedder = embedder
        self._model_id = str(embedder.model_id)
        self._dim = int(embedder.dim)
        self._clock = clock
        self._engine = Engine(
            self.directory, model_id=self._model_id, dim=self._dim,
            params=index_params or IndexParams(), lock_timeout=lock_timeout,
            checkpoint_every=None if checkpoint_every is None else max(1, int(checkpoint_every)),
            restore_log=restore_log,
            model_line={"op": "model", "model_id": self._model_id, "dim": self._dim,
                        "at": iso_utc(clock())})
        self._lock = self._engine.lock
        self.open_report: dict[str, Any] = self._engine.open_report
        # One embedding pass at a time, background or asked for: two would embed the same
        # memories twice. Never taken with ``_lock`` held (the pass takes ``_lock``).
        self._repairing = threading.Lock()
        self._behind = EmbedBehind(
            lambda: self._repair(durable=False, stop=lambda: self._behind.closing),
            self.directory.name)
        if repair_on_open and self.open_report["unembedded"]:
            self._behind.wake()

    @property
    def _state(self) -> MemoryState:
        return self._engine.state

    def close(self) -> None:
        """Checkpoint if anything changed, close the log and release the element (idempotent).

        A log deleted from the directory while the store was open is first written back
        from memory, so the next start finds it. The background embedder stops first (a
        batch it has computed is committed); memories still without vectors stay so in the
        log, and the next open embeds them again.
        """
        self._behind.close()
        self._engine.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __len__(self) -> int:
        with self._lock:
            return len(self._state)

    @property
    def model_id(self) -> str:
        """The id of the model this store's vectors come from."""
        return self._model_id

    @property
    def dim(self) -> int:
        """How many values each of this store's vectors has."""
        return self._dim

    @property
    def embedder(self) -> Embedder:
        """The embedder this store calls (a :class:`CachedEmbedder` unless turned off)."""
        return self._embedder

    def _check_open(self) -> None:
        self._engine.check_open()

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
        """Store a new memory, evicting at capacity (``policy.py``).

        ``occurred_at`` (ISO-8601; a naive time is UTC) is when the remembered thing
        happened; it defaults to the store time.

        ``embed_later``: acknowledge the memory once its log line is fsynced, without
        vectors (``embedded`` False, no warning), and let the background embedder give it
        them shortly after (``behind.py``); searches meanwhile find it by text.

        Embedding failure still stores the memory, with ``embedded`` False and warning
        ``MEMORY_EMBEDDING_FAILED``. A repeated ``idempotency_key`` with the same request
        returns the first result and stores nothing; with a different request it is
        refused. Keys live as long as the memory they created.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory: bad input; nothing written.
        :raise IdempotencyKeyReused: the key stored a different memory; nothing written.
        :raise MemoryCapacity: at capacity with an empty pool to evict from (scoping on).
        :raise StorageFull, StoreFailed: the log write failed; nothing stored.
        """
        new = validate_new(content=content, category=category, subject_type=subject_type,
                           subject_id=subject_id, context=context, intention=intention,
                           agent=agent, source=source, metadata=metadata,
                           idempotency_key=idempotency_key, occurred_at=occurred_at)
        settings = require_settings(settings)
        with self._lock:
            self._check_open()
            earlier = earlier_result(self._state, new)
            if earlier is not None:
                return earlier
        vectors = None if embed_later else self._embed_lanes(lane_texts(new))
        with self._lock:
            self._check_open()
            result = self._write(new, vectors, settings, durable=True, pending=embed_later)
            self._engine.maintain()
        if embed_later and not result.memory["embedded"]:
            self._behind.wake()
        return result

    def store_many(self, items: Sequence[Mapping[str, Any]], *,
                   settings: MemorySettings) -> list[StoreResult]:
        """Store several memories with one embedding pass and one fsync (group commit).

        Each item takes the keyword arguments of :meth:`store` (``source`` and
        ``idempotency_key`` included). All items are validated, keys included, before
        anything is embedded or written; then they are stored in order, exactly as
        :meth:`store` would (evictions, idempotency), and acknowledged together once the
        log is fsynced.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory, IdempotencyKeyReused:
            an item is bad (its message starts with ``items[i]``); nothing is written.
        :raise MemoryCapacity: item i cannot be stored; the items before it are stored and
            durable, none after it.
        :raise StorageFull, StoreFailed: the log write or fsync failed; none of the items
            is stored (the log is cut back to where it was).
        """
        news = validate_items(items)
        settings = require_settings(settings)
        with self._lock:
            self._check_open()
            check_keys(self._state, news)
        texts = [lane_texts(new) for new in news]
        flat = {f"{i}:{lane}": text for i, lanes in enumerate(texts)
                for lane, text in lanes.items()}
        embedded = self._embed_lanes(flat)
        results: list[StoreResult] = []
        with self._lock:
            self._check_open()
            check_keys(self._state, news)
            start = self._engine.log.size
            try:
                try:
                    for i, new in enumerate(news):
                        vectors = None if embedded is None else \
                            {lane: embedded[f"{i}:{lane}"] for lane in texts[i]}
                        results.append(self._write(new, vectors, settings, durable=False))
                finally:
                    # Also when item i is refused (capacity): the ones before it stay.
                    if results:
                        self._engine.log.sync()
            except StoreFailed:
                self._engine.rollback(start)
                raise
            self._engine.maintain()
        return results

    def _write(self, new: NewMemory, vectors: dict[str, np.ndarray] | None,
               settings: MemorySettings, *, durable: bool,
               pending: bool = False) -> StoreResult:
        """Log and apply one validated memory (or return the earlier result of its key);
        ``pending``: stored without vectors on purpose (embedded behind), not a failure."""
        earlier = earlier_result(self._state, new)
        if earlier is not None:
            return earlier
        entry = store_line(self._state, new, vectors, settings, iso_utc(self._clock()),
                           pending=pending)
        self._engine.commit([entry], durable=durable)
        return StoreResult(self._state.records[entry["record"]["id"]].public(),
                           entry["evicted"], entry["warnings"])

    # -- read ----------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """The public form of one memory.

        :raise MemoryNotFound: no memory has this id.
        """
        with self._lock:
            return self._live_record(memory_id).public()

    def _live_record(self, memory_id: str) -> MemoryRecord:
        self._check_open()
        record = self._state.records.get(memory_id) if isinstance(memory_id, str) else None
        if record is None:
            raise MemoryNotFound(str(memory_id))
        return record

    # -- update / delete -----------------------------------------------------------------

    def update(self, memory_id: str, *, content: str | None = None,
               category: str | None = None, context: str | None = None,
               intention: str | None = None, metadata: dict[str, Any] | None = None,
               settings: MemorySettings, embed_later: bool = False) -> Memory:
        """Change a memory; a changed text is re-embedded, other vectors are kept.

        None leaves a field as it is; an empty ``context``/``intention`` clears it;
        ``metadata`` replaces the whole object. Subject and agent never change. When
        embedding fails the memory loses its vectors (``embedded`` False, text fallback)
        until ``repair_embeddings``. Nothing to change: nothing is written.
        ``embed_later``: a changed text drops the memory's vectors now and the background
        embedder gives it new ones (as for :meth:`store`).

        :raise MemoryNotFound: no memory has this id.
        :raise InvalidCategory, InvalidMemory: bad input; nothing written.
        :raise StorageFull, StoreFailed: the log write failed; nothing changed.
        """
        changes = validate_changes(content=content, category=category, context=context,
                                   intention=intention, metadata=metadata)
        require_settings(settings)
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
                    to_embed, to_drop = update_plan(record, fields)
                later = embed_later and bool(to_embed)
                vectors = None if later else \
                    self._embed_lanes(to_embed) if to_embed else {}
                with self._lock:
                    record = self._live_record(memory_id)
                    if snapshot != (record.content, record.context, record.intention,
                                    record.embedded):
                        continue
                    embedded = vectors is not None and (record.embedded or bool(to_embed))
                    lane_vectors: dict[str, np.ndarray | None] = dict(vectors or {})
                    lane_vectors.update({lane: None for lane in to_drop})
                    self._engine.commit([{"op": "update", "id": memory_id,
                                   "at": iso_utc(self._clock()), "fields": fields,
                                   "embedded": embedded,
                                   "vectors": lane_vectors if embedded else {}}])
                    result = self._state.records[memory_id].public()
                    self._engine.maintain()
                if later:
                    self._behind.wake()
                return result
            finally:
                if hold:
                    self._lock.release()
        raise StoreFailed("the memory kept changing during the update")   # not reached

    def delete(self, memory_id: str) -> None:
        """Delete one memory and erase it from disk before returning: a tombstone line,
        then a compaction (the log rewritten without the memory's text, every earlier
        version of it included, and a fresh checkpoint; its vectors overwritten inside
        hnswlib first), as ``forget_subject`` does. A crash between the two finishes the
        compaction on the next open. Costs a compaction: about 65 us a live memory.

        :raise MemoryNotFound: no memory has this id.
        :raise StorageFull, StoreFailed: the log write failed (nothing deleted) or the
            compaction did (deleted; its text leaves the disk when the store next opens).
        """
        with self._lock:
            self._live_record(memory_id)
            self._engine.commit([{"op": "delete", "ids": [memory_id], "reason": "delete"}])
            self._engine.compact()

    # -- search --------------------------------------------------------------------------

    def search(self, *, query: str, context: str | None = None,
               intention: str | None = None, subject_type: str | None = None,
               subject_id: str | None = None, limit: int = 10,
               categories: list[str] | None = None, occurred_after: str | None = None,
               occurred_before: str | None = None,
               settings: MemorySettings) -> SearchResult:
        """Blended-association recall, best first (candidates and scoring: ``search.py``).

        Memories without vectors in scope are scored by text (``fallback="text"``); if the
        query itself cannot be embedded, everything in scope is.

        Scope: scoping off, every memory; on, general memories plus the given subject's
        (only general ones when no subject is given); ``occurred_after`` and
        ``occurred_before`` (exclusive ISO-8601 bounds) keep memories that occurred between
        them. A time the query's words name ("last week", "in May 2023";
        ``timespan.py``, relative to the store's clock) boosts memories that occurred then
        (``recall.boost_time``). Results under
        ``relevance_threshold`` are dropped; returned memories get ``access_count`` + 1 and
        ``last_accessed_at`` now (the memory objects returned already show it). When that
        bookkeeping cannot be written (a full disk), the results come back uncounted.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: bad input.
        """
        request = parse_search(query=query, context=context, intention=intention,
                               subject_type=subject_type, subject_id=subject_id, limit=limit,
                               categories=categories, occurred_after=occurred_after,
                               occurred_before=occurred_before)
        settings = require_settings(settings)
        when = query_span(request.texts["content"], self._clock())
        queries = self._embed_lanes(request.texts)
        with self._lock:
            self._check_open()
            state = self._state
            owners = owners_in_scope(state, request.subject, settings.subject_scoping)
            ranked = score(state, queries=queries, texts=request.texts, owners=owners,
                           cats=request.cats,
                           weights=weight_vector(settings.association_weights),
                           threshold=settings.relevance_threshold, limit=request.limit,
                           occurred=request.occurred, when=when)
            if ranked.ids:
                try:
                    self._engine.commit([{"op": "access", "ids": ranked.ids,
                                          "at": iso_utc(self._clock())}], durable=False)
                except StoreFailed as exc:
                    logger.warning("search access counts not recorded: %s", exc.message)
            results = [{"memory": state.records[memory_id].public(), "score": value,
                        "lanes": lanes}
                       for memory_id, value, lanes in zip(ranked.ids, ranked.scores,
                                                          ranked.lanes, strict=True)]
            if ranked.ids:
                self._engine.maintain()
            return SearchResult(results, ranked.fallback)

    # -- maintenance ops -----------------------------------------------------------------

    def reap(self, *, settings: MemorySettings) -> list[str]:
        """Delete memories older than their category's TTL; return their ids, oldest first."""
        settings = require_settings(settings)
        with self._lock:
            self._check_open()
            if not settings.retention:
                return []
            ids = expired_ids(self._state, settings.retention, self._clock())
            if not ids:
                return []
            self._engine.commit([{"op": "delete", "ids": ids, "reason": "expire"}])
            self._engine.maintain()
            return ids

    def stats(self, *, settings: MemorySettings) -> dict[str, Any]:
        """Run the reaper, then count memories by category and subject, with capacity."""
        expired = self.reap(settings=settings)
        with self._lock:
            self._check_open()
            counts = self._state.counts()
        capacity = {"max_memories": settings.max_memories,
                    "max_per_subject": settings.max_per_subject, "used": counts["total"]}
        return {**counts, "capacity": capacity, "expired": expired}

    def forget_subject(self, subject_type: str, subject_id: str, *,
                       confirm: bool) -> dict[str, Any]:
        """Delete every memory about one subject, then compact so its text leaves the disk.

        General memories are untouched. The compaction runs even when nothing matches now,
        so text of this subject's memories deleted earlier is gone from disk too; their
        vectors are overwritten inside hnswlib before the checkpoint is saved.

        :raise ConfirmRequired: ``confirm`` is not True.
        :raise SubjectIncomplete, InvalidMemory: the subject is incomplete or malformed.
        :raise StorageFull, StoreFailed: the deletion (nothing deleted) or the compaction
            (deleted, text still on disk until the next open compacts) failed.
        """
        if confirm is not True:
            raise ConfirmRequired()
        subject = validate_subject(subject_type, subject_id)
        if subject is None:
            raise InvalidMemory("subject_type", "is required")
        with self._lock:
            self._check_open()
            ids = subject_ids(self._state, subject)
            if ids:
                self._engine.commit([{"op": "delete", "ids": ids, "reason": "forget"}])
            self._engine.compact()
            return {"deleted": len(ids), "ids": ids}

    def repair_embeddings(self) -> int:
        """Embed memories stored without vectors (or with another model's); return how many.

        Waits for a pass of the background embedder in flight (one pass at a time).

        :raise EmbeddingFailed: the embedder failed (memories repaired before stay repaired).
        """
        return self._repair(durable=True)

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        """Wait until the memories written with ``embed_later`` so far have their vectors.

        :return: True then (at once when none was pending); False when the embedder failed
            meanwhile (they stay pending and are retried), the store closed, or ``timeout``
            seconds passed.
        """
        return self._behind.flush(timeout)

    def _repair(self, *, durable: bool, stop: Callable[[], bool] = lambda: False) -> int:
        """The embedding pass of :meth:`repair_embeddings` and of the background embedder.

        ``durable=False`` (the background's) appends the ``embed`` lines without an fsync
        of their own, so a pass holds the store's lock for microseconds rather than a disk
        flush: a line lost in a crash only means the memory is embedded again on reopen,
        and the next fsync (any write, checkpoint or close) makes them durable. ``stop``:
        checked before each batch (the background's: the store is closing).
        """
        with self._repairing:
            return self._repair_pass(durable, stop)

    def _repair_pass(self, durable: bool, stop: Callable[[], bool]) -> int:
        repaired = 0
        attempted: set[str] = set()   # each memory is tried once per call: no endless loop
        while not stop():
            with self._lock:
                self._check_open()
                batch = unembedded_batch(self._state, attempted, REPAIR_BATCH)
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
                    current = self._state.records.get(memory_id)
                    if current is None or current.embedded or texts != lane_texts(current):
                        continue
                    entries.append({"op": "embed", "id": memory_id, "vectors": {
                        lane: vectors[f"{i}:{lane}"] for lane in texts}})
                if entries:
                    self._engine.commit(entries, durable=durable)
                    repaired += len(entries)
                    self._engine.maintain()
        return repaired

    def compact(self) -> None:
        """Rewrite the log as one store line per live memory, then checkpoint.

        :raise StorageFull, StoreFailed: the log could not be rewritten (it is unchanged).
        """
        with self._lock:
            self._check_open()
            self._engine.compact()

    # -- health --------------------------------------------------------------------------

    def verify(self, *, repair: bool = False) -> list[HealthItem]:
        """Check the files against the loaded memories; with ``repair``, fix them
        (``health.verify``).

        Finds: the log file gone from the directory; a log that does not read back (at any
        offset, not only past the checkpoint) or that replays to other memories than the
        loaded ones; a sidecar that is missing, stale or fails its checksums; memories
        without vectors. All are fixable: the log and sidecar by rewriting both from the
        loaded memories (a compaction), the vectors by :meth:`repair_embeddings`. The log
        is read and replayed outside the store's lock; the lock is held to compare (about
        0.3 s per 20k memories, measured).

        :return: one item per problem, ``{"problem", "fixable"}`` plus, when ``repair``,
            ``"fixed": True`` and ``"fix"``, or ``"fix_failed"`` with the reason.
        """
        return verify(self._engine, repair=repair, repair_embeddings=self.repair_embeddings)

    # -- transfer (``transfer.py``) ----------------------------------------------------

    def export(self, *, vectors: bool = False, category: str | None = None,
               subject_type: str | None = None, subject_id: str | None = None,
               agent: str | None = None, source: str | None = None,
               created_after: str | None = None, created_before: str | None = None
               ) -> tuple[int, Iterator[Memory]]:
        """``(count, memories)``: the memories :meth:`list` would return, newest first, as
        they are when the call is made, streamed.

        The matching records are fixed under the lock by the call (a reference each, no
        copy), so the iterator yields exactly ``count`` memories; each is read under the
        lock when its page is reached (an update made meanwhile shows). With ``vectors``
        an embedded memory carries ``"vectors": {lane: float32 array}``; one deleted
        meanwhile comes without them. Touches no access statistics.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a malformed filter.
        """
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 limit=LIST_LIMIT_MAX, cursor=None)
        with self._lock:
            self._check_open()
            state = self._state
            chosen = [state.records[state.by_seq[seq]] for seq in reversed(state.seqs)]
            chosen = [record for record in chosen if matches(record, query)]
        return len(chosen), self._exported(chosen, vectors)

    def _exported(self, records: list[MemoryRecord], vectors: bool) -> Iterator[Memory]:
        for start in range(0, len(records), LIST_LIMIT_MAX):
            with self._lock:
                state = self._state
                page = []
                for record in records[start:start + LIST_LIMIT_MAX]:
                    memory = record.public()
                    if vectors and record.embedded and \
                            state.records.get(record.id) is record:
                        memory["vectors"] = state.vectors_of(record.id)
                    page.append(memory)
            yield from page

    def import_memories(self, items: Sequence[ImportedMemory], *, model_id: str | None,
                        settings: MemorySettings) -> ImportResult:
        """Add memories as they were exported: ids, timestamps and access statistics kept.

        An id already present is skipped (a re-import changes nothing). Carried vectors
        are used when ``model_id`` is this store's model and they cover every lane with
        text; otherwise the texts are embedded here (one pass). Capacity and eviction
        apply as for :meth:`store`. The items are written in order (give them oldest
        first: the order becomes :meth:`list`'s) with one fsync, all or nothing.

        :raise MemoryCapacity, StorageFull, StoreFailed: none of the items was stored.
        """
        settings = require_settings(settings)
        result = ImportResult()
        with self._lock:
            self._check_open()
            fresh = [item for item in items if item.id not in self._state.records]
        same_model = model_id == self._model_id
        carried = [usable_vectors(item, self._dim) if same_model else None
                   for item in fresh]
        need = {f"{i}:{lane}": text for i, item in enumerate(fresh) if carried[i] is None
                for lane, text in item.lane_texts().items()}
        embedded = self._embed_lanes(need) if need else {}
        with self._lock:
            self._check_open()
            start = self._engine.log.size
            written = 0
            try:
                try:
                    for i, item in enumerate(fresh):
                        if item.id in self._state.records:
                            continue
                        vectors = carried[i]
                        if vectors is None and embedded is not None:
                            vectors = {lane: embedded[f"{i}:{lane}"]
                                       for lane in item.lane_texts()}
                            result.embedded_here += 1
                        entry = import_line(self._state, item, vectors, settings)
                        self._engine.commit([entry], durable=False)
                        written += 1
                        result.imported.append(item.id)
                        result.evicted.extend(entry["evicted"])
                        if vectors is None:
                            result.unembedded.append(item.id)
                finally:
                    if written:
                        self._engine.log.sync()
            except BaseException:
                # Whatever failed (capacity, the disk, a value no check foresaw), nothing
                # of this call stays: an import is all or nothing.
                self._engine.rollback(start)
                raise
            self._engine.maintain()
        imported = set(result.imported)
        result.skipped = [item.id for item in items if item.id not in imported]
        return result

    def copy_log(self, dest: Path | str) -> dict[str, Any]:
        """Copy the memory log up to its size now, taken under the store's lock, to
        ``dest`` (a backup): every write acknowledged before this call is in the copy.

        :return: ``{"bytes", "sha256", "memories"}`` (memories: live ones at that instant).
        """
        with self._lock:
            self._check_open()
            self._engine.log.sync()
            reader = self._engine.log.reader()
            if reader is None:
                raise StoreFailed("the memory log is not readable")
            handle, size = reader
            count = len(self._state)
        try:
            written, digest = copy_log_prefix(handle, size, Path(dest))
        finally:
            handle.close()
        return {"bytes": written, "sha256": digest, "memories": count}

    # -- list (declared last: below ``def list``, ``list[...]`` would name the method) -----

    def list(self, *, category: str | None = None, subject_type: str | None = None,
             subject_id: str | None = None, agent: str | None = None,
             source: str | None = None, created_after: str | None = None,
             created_before: str | None = None, occurred_after: str | None = None,
             occurred_before: str | None = None, limit: int = 50,
             cursor: str | None = None) -> tuple[list[Memory], str | None]:
        """Memories newest first, filtered; returns ``(page, next_cursor)`` (``listing.py``).

        Filters combine with AND; ``subject_type`` alone matches every subject of that type
        (``subject_id`` needs ``subject_type``); ``created_after``/``created_before`` are
        exclusive ISO-8601 bounds, and so are ``occurred_after``/``occurred_before``. Pages
        stay stable while memories are added or deleted. ``next_cursor`` is None on the
        last page.

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

    def iter_memories(self, *, category: str | None = None,
                      subject_type: str | None = None, subject_id: str | None = None,
                      agent: str | None = None, source: str | None = None,
                      created_after: str | None = None,
                      created_before: str | None = None) -> Iterator[Memory]:
        """Every memory :meth:`list` returns for these filters, newest first, read one page
        of ``LIST_LIMIT_MAX`` at a time as the iterator is consumed (the store's lock is
        held per page, never between pages). Touches no access statistics.

        Like :meth:`list`'s pages, a memory that exists throughout is yielded exactly once;
        one stored meanwhile is not yielded, one deleted meanwhile may or may not be.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a malformed filter,
            raised by this call rather than by the first ``next``.
        """
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 limit=LIST_LIMIT_MAX, cursor=None)
        return self._pages(query)

    def _pages(self, query: ListQuery) -> Iterator[Memory]:
        while True:
            with self._lock:
                self._check_open()
                page, cursor = list_page(self._state, query)
            yield from page
            if cursor is None:
                return
            query = query.continued(cursor)

