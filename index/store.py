"""MemoryStore: the memories of one element in files (a ``MemoryBackend``).

The ops are ``core.MemoryCore``'s, every backend's; this class gives them the storage's
primitives over the durable core in ``engine.py`` (element lock, JSONL log, in-memory
state, checkpoints, compaction; the directory layout is there).

Every mutation builds one log op (``writes.py``) that the engine appends, fsyncs and only
then applies to memory through the same code replay uses (``state.py``); a refused or
failed call writes nothing (a full disk is :class:`~index.errors.StorageFull`). A search
gathers its candidates over the state (``search.py``) and logs one ``access`` line
(written, not fsynced) for the memories it returns; when even that cannot be written, the
search still answers. ``verify`` checks the files against memory and repairs them
(``health.py``).

Thread-safe: one re-entrant lock (the engine's) serializes state changes and searches;
embedding runs outside it.
"""

from __future__ import annotations

import functools
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from .backend import HealthItem, ImportedMemory, Memory, SearchResult, StoreResult
from .core import MemoryCore, Vectors
from .decisions import check_keys, erased_texts, lane_texts
from .embed import Embedder
from .engine import LOCK_NAME, LOG_NAME, Engine
from .errors import MemoryNotFound, StoreFailed
from .health import check
from .listing import list_page, matches
from .log import copy_log_prefix
from .params import IndexParams
from .query import SEARCH_LIMIT_MAX, ListQuery, SearchQuery
from .ranking import Ranking
from .answers_under import cut, join_under, joined, reads_under
from .recency import Asked, asked_of, newer_first, reorder
from .later import Version, later_versions
from .names import opening_word
from .slots import GENERAL
from .records import MemoryRecord, iso_utc
from .validation import NewMemory
from .search import gather
from .settings import MemorySettings
from .state import MemoryState
from .validity import Change, check_supersedes
from .writes import (
    earlier,
    expired_ids,
    import_line,
    store_line,
    subject_ids,
    unembedded_batch,
)

__all__ = ["MemoryStore", "LOG_NAME", "LOCK_NAME", "SEARCH_LIMIT_MAX"]

logger = logging.getLogger(__name__)

#: Labels whose names one step of the read after an open reads under the store's lock
#: (about 2 ms: a search waits at most that long for it).
NAMES_STEP = 128


class MemoryStore(MemoryCore):
    """Durable memories of one element in ``directory`` (see the module docstring).

    :param directory: the element's runtime directory; created if missing, made 0700.
    :param embedder: turns texts into unit vectors; its ``model_id`` and ``dim`` are
        recorded in the log and sidecar.
    :param clock: POSIX seconds; injectable so retention and timestamps are testable.
    :param lock_timeout: seconds to wait for another process to release the element.
    :param index_params: hnswlib and candidate-generation tuning, recall levers.
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
        ``repair_embeddings`` or the next ``embed_later`` write.
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
        super().__init__(embedder, clock=clock, index_params=index_params,
                         embed_cache=embed_cache, name=self.directory.name)
        self._engine = Engine(
            self.directory, model_id=self._model_id, dim=self._dim, params=self._params,
            lock_timeout=lock_timeout,
            checkpoint_every=None if checkpoint_every is None else max(1, int(checkpoint_every)),
            restore_log=restore_log,
            model_line={"op": "model", "model_id": self._model_id, "dim": self._dim,
                        "at": iso_utc(clock())})
        self._lock = self._engine.lock
        self.open_report: dict[str, Any] = self._engine.open_report
        if repair_on_open:      # embeds what is unembedded, reads and warms the names
            self._behind.wake()

    def _after_open(self, stop: Callable[[], bool]) -> None:
        """Every memory's names read (``SlotTable.read_names``), ``NAMES_STEP`` labels at a
        time under the lock, once after the open, until the store closes. A search reads
        the names of the memories it scores that are not read yet (``slots.py``); just
        after an open that is all of them, which cost the first thousand searches of a
        6,000-memory store 0.07 to 0.11 ms each at p50 (issue 29). A cold start still
        reads none before it answers; a memory stored or changed later is read by the
        first search that scores it."""
        low = 0
        try:
            while not stop():
                with self._lock:
                    if self._engine.closed or low >= self._state.slots.high_water:
                        return
                    state = self._state
                    labels = state.slots.unread(low, low + NAMES_STEP)
                    if len(labels):
                        state.slots.read_names(labels, functools.partial(_content, state))
                low += NAMES_STEP
                time.sleep(0)       # a search waiting for the lock may take it
        except Exception:   # the searches read what is left, as they would have anyway
            logger.exception("%s: reading the memories' names failed", self.directory.name)

    @property
    def _state(self) -> MemoryState:
        return self._engine.state

    def _check_open(self) -> None:
        self._engine.check_open()

    def _release(self) -> None:
        # A log deleted from the directory while the store was open is first written back
        # from memory, so the next start finds it; then a checkpoint if anything changed.
        self._engine.close()

    def _count(self) -> int:
        with self._lock:
            return len(self._state)

    def _live_record(self, memory_id: str) -> MemoryRecord:
        self._check_open()
        record = self._state.records.get(memory_id)
        if record is None:
            raise MemoryNotFound(memory_id)
        return record

    def _memory(self, memory_id: str) -> Memory:
        with self._lock:
            return self._live_record(memory_id).public()

    # -- writes ----------------------------------------------------------------------------

    def _earlier(self, new: NewMemory) -> StoreResult | None:
        with self._lock:
            self._check_open()
            return earlier(self._state, new)

    def _check_keys(self, news: Sequence[NewMemory]) -> None:
        with self._lock:
            self._check_open()
            check_keys(lambda new: earlier(self._state, new), news)

    def _insert(self, news: Sequence[NewMemory], vectors: Sequence[Vectors | None],
                settings: MemorySettings, *, pending: bool,
                batch: bool) -> list[StoreResult]:
        with self._lock:
            self._check_open()
            if not batch:
                result = self._write(news[0], vectors[0], settings, durable=True,
                                     pending=pending)
                self._engine.maintain()
                return [result]
            check_keys(lambda new: earlier(self._state, new), news)
            for new in news:
                # All of them before any is written: a refused supersede writes nothing.
                if earlier(self._state, new) is None:
                    check_supersedes(new.supersedes, new.subject, self._state.records.get)
            # One fsync for the batch (group commit); a failed one cuts the log back.
            results: list[StoreResult] = []
            start = self._engine.log.size
            # The batch's vectors go into each HNSW graph in one multi-threaded insert at the
            # end (as a replay does), not one by one: about half of a batch's cost otherwise.
            graphs = self._state.lanes
            graphs.set_deferred(True)
            try:
                try:
                    for new, lanes in zip(news, vectors, strict=True):
                        results.append(self._write(new, lanes, settings, durable=False,
                                                   pending=pending))
                finally:
                    graphs.set_deferred(False)
                    # Also when item i is refused (capacity): the ones before it stay.
                    if results:
                        self._engine.log.sync()
            except StoreFailed:
                self._engine.rollback(start)
                raise
            self._engine.maintain()
        return results

    def _write(self, new: NewMemory, vectors: Vectors | None, settings: MemorySettings, *,
               durable: bool, pending: bool) -> StoreResult:
        """Log and apply one validated memory (or return the earlier result of its key)."""
        found = earlier(self._state, new)
        if found is not None:
            return found
        check_supersedes(new.supersedes, new.subject, self._state.records.get)
        entry = store_line(self._state, new, vectors, settings, iso_utc(self._clock()),
                           pending=pending)
        self._engine.commit([entry], durable=durable)
        return StoreResult(self._state.records[entry["record"]["id"]].public(),
                           entry["evicted"], entry["warnings"])

    @contextmanager
    def _editing(self, memory_id: str, *, lock: bool) -> Iterator[_Edit]:
        # The store's lock guards every read of the state, so it is held either way.
        with self._lock:
            yield _Edit(self, self._live_record(memory_id))

    def _delete(self, memory_id: str, hand_on: bool) -> set[str]:
        # A tombstone line, then a compaction, as ``_forget``: the log is rewritten without
        # the memory's text (every earlier version of it included) and a fresh checkpoint
        # saved, its vectors overwritten inside hnswlib first. A crash between the two
        # finishes the compaction on the next open (``ERASING`` in ``state.py``). Costs a
        # compaction: about 65 us a live memory.
        with self._lock:
            texts = _erased(self._live_record(memory_id))
            # ``at``: when the memories it superseded take over its end (``state.py``).
            self._engine.commit([{"op": "delete", "ids": [memory_id], "reason": "delete",
                                  **({"at": iso_utc(self._clock())} if hand_on else {})}])
            self._engine.compact()
            return texts

    def _expire(self, retention: dict[str, float], now: float) -> list[str]:
        with self._lock:
            self._check_open()
            ids = expired_ids(self._state, retention, now)
            if not ids:
                return []
            self._engine.commit([{"op": "delete", "ids": ids, "reason": "expire"}])
            self._engine.maintain()
            return ids

    def _forget(self, subject: tuple[str, str]) -> tuple[list[str], set[str]]:
        # The compaction runs even when nothing matches now, so text of this subject's
        # memories deleted earlier is gone from disk too; their vectors are overwritten
        # inside hnswlib before the checkpoint is saved.
        with self._lock:
            self._check_open()
            ids = subject_ids(self._state, subject)
            texts = set().union(*(_erased(self._state.records[i]) for i in ids))
            if ids:
                self._engine.commit([{"op": "delete", "ids": ids, "reason": "forget"}])
            self._engine.compact()
            return ids, texts

    def _compact(self) -> None:
        # The log rewritten as one store line per live memory, then a checkpoint.
        with self._lock:
            self._check_open()
            self._engine.compact()

    # -- search and counts -----------------------------------------------------------------

    def _recall(self, request: SearchQuery, queries: Vectors | None, scoping: bool,
                ranking: Ranking, count_access: bool) -> SearchResult:
        # Before the lock: the first search of a model embeds the profile bank once.
        question = asked_of(self._embedder, queries, request.texts["content"], ranking.name,
                            ranking.they)
        with self._lock:
            self._check_open()
            state = self._state
            ranked = ranking.rank(gather(state, request, queries, scoping, ranking))
            if reads_under(question):
                labels = ranked.keys + (ranked.under.keys if ranked.under is not None else [])
                ranked = joined(ranked, join_under(*self._read(labels), len(ranked.keys),
                                                   question))
            ranked = reorder(ranked, self._newer_first(ranked.keys, ranked.scores, question))
            ranked = cut(ranked, ranking.limit)
            ids = [str(state.slots.ids[label]) for label in ranked.keys]
            if ids and count_access:
                try:
                    self._engine.commit([{"op": "access", "ids": ids,
                                          "at": iso_utc(self._clock())}], durable=False)
                except StoreFailed as exc:
                    logger.warning("search access counts not recorded: %s", exc.message)
            results = [{"memory": state.records[memory_id].public(), "score": value,
                        "lanes": lanes}
                       for memory_id, value, lanes in zip(ids, ranked.scores,
                                                          ranked.lanes, strict=True)]
            if ids and count_access:
                self._engine.maintain()
            return SearchResult(results, ranked.fallback)

    def _newer_first(self, labels: list[Any], scores: list[float],
                     question: Asked | None) -> list[int]:
        """``recency.newer_first`` over the ranked labels (under the lock)."""
        vectors, owners, newness, contents, categories = self._read(labels)
        state = self._state
        # A result no longer current (``as_of``) is read with its later versions.
        nexts = [state.records[str(state.slots.ids[label])].superseded_by
                 for label in labels]
        return newer_first(vectors, owners, newness, scores, question=question,
                           contents=contents, categories=categories,
                           later=later_versions(nexts, owners, self._versions))

    def _versions(self, ids: list[str]) -> dict[str, Version]:
        """``later.later_versions``'s read of versions by id (under the lock)."""
        state = self._state
        lane = state.lanes["content"]
        out: dict[str, Version] = {}
        for memory_id in ids:
            record, label = state.records.get(memory_id), state.labels.get(memory_id)
            if record is None or label is None:
                continue
            owner = state.slots.owner_list[label]
            out[memory_id] = (record.superseded_by,
                              lane.vectors[label] if label < len(lane.has) and
                              lane.has[label] else None,
                              None if owner == GENERAL else owner)
        return out

    def _read(self, labels: list[Any]) -> tuple[
            list[np.ndarray | None], list[Any], list[float], list[str | None],
            list[str | None]]:
        """What ``recency`` reads of the labels' memories: content vectors, owners (None:
        general), ``valid_from``, contents and categories."""
        state = self._state
        slots, lane = state.slots, state.lanes["content"]
        records = [state.records[str(slots.ids[label])] for label in labels]
        return ([lane.vectors[label] if label < len(lane.has) and lane.has[label] else None
                 for label in labels],
                [None if (owner := slots.owner_list[label]) == GENERAL else owner
                 for label in labels],
                [float(slots.valid_from[label]) for label in labels],
                [r.content for r in records], [r.category for r in records])

    def _counts(self) -> dict[str, Any]:
        with self._lock:
            self._check_open()
            return self._state.counts()

    # -- embedding passes and health -------------------------------------------------------

    def _unembedded(self, attempted: set[str],
                    size: int) -> list[tuple[str, dict[str, str]]]:
        with self._lock:
            self._check_open()
            return unembedded_batch(self._state, attempted, size)

    def _opening_words(self, limit: int) -> list[str]:
        with self._lock:
            self._check_open()
            contents = [record.content for record in self._state.records.values()]
        counts = Counter(word for content in contents
                         if (word := opening_word(content)) is not None)
        return [word for word, _ in counts.most_common(limit)]

    def _save_vectors(self, batch: list[tuple[str, dict[str, str], Vectors]], *,
                      durable: bool) -> int:
        # ``durable`` False (the background pass's) appends the ``embed`` lines without an
        # fsync of their own, so a pass holds the lock for microseconds rather than a disk
        # flush: a line lost in a crash only means the memory is embedded again on reopen,
        # and the next fsync (any write, checkpoint or close) makes them durable.
        with self._lock:
            self._check_open()
            entries = []
            for memory_id, texts, vectors in batch:
                current = self._state.records.get(memory_id)
                if current is None or current.embedded or texts != lane_texts(current):
                    continue
                entries.append({"op": "embed", "id": memory_id, "vectors": vectors})
            if entries:
                self._engine.commit(entries, durable=durable)
                self._engine.maintain()
            return len(entries)

    def _unembedded_count(self) -> int:
        with self._lock:
            self._check_open()
            return len(self._state.unembedded)

    def _check(self, repair: bool) -> list[HealthItem]:
        return check(self._engine, repair=repair)

    # -- transfer and lists ----------------------------------------------------------------

    def _matching(self, query: ListQuery) -> list[Any]:
        # References to the records (no copy): each page reads them under the lock when
        # it is reached, so an update made meanwhile shows.
        with self._lock:
            self._check_open()
            state = self._state
            chosen = [state.records[state.by_seq[seq]] for seq in reversed(state.seqs)]
            return [record for record in chosen if matches(record, query)]

    def _export_page(self, chosen: list[Any], vectors: bool) -> list[Memory]:
        with self._lock:
            state = self._state
            page = []
            for item in chosen:
                record: MemoryRecord = item
                memory = record.public()
                if record.history:
                    memory["history"] = [dict(v) for v in record.history]
                if vectors and record.embedded and state.records.get(record.id) is record:
                    memory["vectors"] = state.vectors_of(record.id)
                page.append(memory)
            return page

    def _absent(self, items: Sequence[ImportedMemory]) -> list[ImportedMemory]:
        with self._lock:
            self._check_open()
            return [item for item in items if item.id not in self._state.records]

    def _insert_imported(self, items: Sequence[ImportedMemory],
                         vectors: Sequence[Vectors | None], settings: MemorySettings
                         ) -> list[tuple[int, list[str]]]:
        # One fsync for all of them, as ``store_many``; all of them or none.
        written: list[tuple[int, list[str]]] = []
        with self._lock:
            self._check_open()
            start = self._engine.log.size
            try:
                try:
                    for i, item in enumerate(items):
                        if item.id in self._state.records:
                            continue
                        entry = import_line(self._state, item, vectors[i], settings)
                        self._engine.commit([entry], durable=False)
                        written.append((i, entry["evicted"]))
                finally:
                    if written:
                        self._engine.log.sync()
            except BaseException:
                # Whatever failed (capacity, the disk, a value no check foresaw), nothing
                # of this call stays: an import is all or nothing.
                self._engine.rollback(start)
                raise
            self._engine.maintain()
        return written

    def _copy_log(self, dest: Path) -> dict[str, Any]:
        # The log up to its size now, taken under the lock: every write acknowledged
        # before the call is in the copy; "memories" counts the live ones at that instant.
        with self._lock:
            self._check_open()
            self._engine.log.sync()
            reader = self._engine.log.reader()
            if reader is None:
                raise StoreFailed("the memory log is not readable")
            handle, size = reader
            count = len(self._state)
        try:
            written, digest = copy_log_prefix(handle, size, dest)
        finally:
            handle.close()
        return {"bytes": written, "sha256": digest, "memories": count}

    def _page(self, query: ListQuery) -> tuple[list[Memory], str | None]:
        with self._lock:
            self._check_open()
            return list_page(self._state, query)


def _content(state: MemoryState, label: int) -> str:
    """The content of the memory at ``label``."""
    return state.records[str(state.slots.ids[label])].content


def _erased(record: MemoryRecord) -> set[str]:
    return erased_texts(record.content, record.context, record.intention, record.history)


class _Edit:
    """A memory of the file store opened for an update (``core.Edit``), under its lock."""

    def __init__(self, store: MemoryStore, record: MemoryRecord) -> None:
        self._store = store
        self.record = record

    def apply(self, fields: dict[str, Any], vectors: Vectors | None,
              to_embed: dict[str, str], to_drop: list[str], change: Change) -> Memory:
        store, record = self._store, self.record
        embedded = vectors is not None and (record.embedded or bool(to_embed))
        lanes: dict[str, np.ndarray | None] = dict(vectors or {})
        lanes.update({lane: None for lane in to_drop})
        store._engine.commit([{"op": "update", "id": record.id,
                               "at": change.at, "fields": fields,
                               "change": change.to_json(), "embedded": embedded,
                               "vectors": lanes if embedded else {}}])
        result = store._state.records[record.id].public()
        store._engine.maintain()
        return result

    def retire(self, change: Change, until: str) -> Memory:
        store = self._store
        store._engine.commit([{"op": "retire", "id": self.record.id, "valid_until": until,
                               "change": change.to_json()}])
        result = store._state.records[self.record.id].public()
        store._engine.maintain()
        return result
