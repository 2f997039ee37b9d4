"""MemoryCore: every op of a memory backend, written once over the storage's primitives.

``MemoryBackend`` (``backend.py``) is the contract; this class keeps it for both
backends. It validates every call, embeds outside any lock, asks the shared decisions
(``decisions.py``: idempotency, eviction, what an update re-embeds), runs the one ranking
(``ranking.py``), pages lists and exports, and drives the embedding passes
(``behind.py``). A backend subclasses it and implements only its primitives, the
``_``-methods of :class:`~index.storage.Storage`, each documented there once:

* :class:`~index.store.MemoryStore`: JSONL log + in-memory state + hnswlib (``engine.py``);
* :class:`~index.postgres.PostgresMemoryStore`: PostgreSQL + pgvector (``postgres/``).

A primitive that changes memories makes its change durable before it returns (or raises
having made none, unless it says which part stays). The core takes no lock of the
storage's (its own lock only keeps one embedding pass at a time), so each backend decides
how its reads and writes are serialized. The docstrings of
the public methods are ``MemoryBackend``'s (``inspect.getdoc`` finds them there).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from .backend import (
    HealthItem,
    ImportedMemory,
    ImportResult,
    Memory,
    MemoryBackend,
    SearchResult,
    StoreResult,
)
from .behind import EmbedBehind
from .decisions import lane_texts, update_plan
from .embed import Embedder, embed_for_lanes, normalize_rows
from .embed_cache import CachedEmbedder
from .errors import (
    ConfirmRequired,
    EmbeddingFailed,
    InvalidMemory,
    MemoryNotCurrent,
    MemoryNotFound,
    StoreError,
    StoreFailed,
)
from .lexical import STOPWORDS
from .asks import asked
from .names import first_name, query_names, without_names
from .params import IndexParams
from .query import LIST_LIMIT_MAX, ListQuery, parse_list_query, parse_search
from .ranking import Ranking
from .records import iso_utc
from .validation import (
    validate_changes,
    validate_occurred_at,
    validate_items,
    validate_new,
    validate_subject,
)
from .settings import MemorySettings, require_settings
from .timespan import query_span
from .storage import Edit, Storage, Vectors
from .transfer import usable_vectors
from .validity import Change, evaluator_of, history_of

__all__ = ["MemoryCore", "Edit", "Vectors", "REPAIR_BATCH"]

logger = logging.getLogger(__name__)
# The key of the query without its first name among a search's texts to embed: embedded with
# the content lane's model (``embed.lane_of``), never a lane of its own.
_WITHOUT_NAMES = "without-names:content"
# The key of the query's first name alone (``IndexParams.name_projection``), the same way.
_NAME = "name:content"

# Memories embedded per model call by a repair or background pass.
REPAIR_BATCH = 64
# The names a store knows embedded into the cache after it opens (``_warm_names``): the
# most frequent at most, and how many per model call (a short hold of the model's lock).
WARM_NAMES = 256
WARM_BATCH = 32

class MemoryCore(Storage, MemoryBackend):
    """The ops of ``MemoryBackend`` over a storage (see the module docstring).

    :param embedder: turns texts into unit vectors; wrapped in a
        :class:`~index.embed_cache.CachedEmbedder` of ``embed_cache`` texts unless it is
        one already or ``embed_cache`` is 0.
    :param clock: POSIX seconds (timestamps, retention, the spans queries name).
    :param index_params: candidate generation and recall levers (``params.py``).
    :param name: the element, for the background embedder's thread name.
    """

    def __init__(self, embedder: Embedder, *, clock: Callable[[], float],
                 index_params: IndexParams | None, embed_cache: int, name: str) -> None:
        if embed_cache > 0 and not isinstance(embedder, CachedEmbedder):
            embedder = CachedEmbedder(embedder, max_entries=embed_cache)
        self._embedder: Embedder = embedder
        self._model_id = str(embedder.model_id)
        self._dim = int(embedder.dim)
        self._clock = clock
        self._params = index_params or IndexParams()
        # One embedding pass at a time, background or asked for: two would embed the same
        # memories twice. Never taken inside a primitive's lock (a pass takes it).
        self._repairing = threading.Lock()
        self._behind = EmbedBehind(self._repair_behind, name)
        self._names_warmed = False

    # -- plumbing --------------------------------------------------------------------------

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def embedder(self) -> Embedder:
        """The embedder this store calls (a :class:`CachedEmbedder` unless turned off)."""
        return self._embedder

    def close(self) -> None:
        # The background embedder stops first (a batch it computed is written); memories
        # still without vectors stay so, and the next open embeds them.
        self._behind.close()
        self._release()

    def __enter__(self) -> MemoryCore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def __len__(self) -> int:
        return self._count()

    def _embed_lanes(self, texts: dict[str, str]) -> Vectors | None:
        """Embed lane texts in one call; None if the embedder fails in any way."""
        names = list(texts)
        if not names:
            return {}
        try:
            out = np.asarray(embed_for_lanes(self._embedder, names,
                                             [texts[n] for n in names]), dtype=np.float32)
            if out.shape != (len(names), self._dim) or not np.all(np.isfinite(out)):
                raise EmbeddingFailed(f"embedder returned shape {out.shape}")
        except Exception as exc:   # any embedder failure degrades, never fails the op
            logger.warning("embedding failed (%s): %s", exc.__class__.__name__, exc)
            return None
        out = normalize_rows(out)
        return {name: out[i].copy() for i, name in enumerate(names)}

    def _embed_query(self, texts: dict[str, str], names: tuple[str, ...]
                     ) -> tuple[Vectors | None, bool, np.ndarray | None]:
        """A search's lane vectors (``_embed_lanes``); whether the content lane's is not
        the query's own: with ``query_without_names``, it is the mean of the query's and
        of the query without its first name (``names.without_names``); and, with
        ``name_projection``, the vector of the query's first name alone (None: not
        asked, or the query says nothing but the name), all embedded in the same call
        (a name recurs: most often its vector comes from the embedding cache)."""
        extra: dict[str, str] = {}
        plain = without_names(texts["content"], names) \
            if self._params.query_without_names else None
        if plain is not None:
            extra[_WITHOUT_NAMES] = plain
        name = first_name(texts["content"], names) if self._params.name_projection > 0 \
            else None
        if name is not None:
            extra[_NAME] = name
        if not extra:
            return self._embed_lanes(texts), False, None
        queries = self._embed_lanes({**texts, **extra})
        if queries is None:
            return None, False, None
        name_vector = queries.pop(_NAME, None)
        unnamed = queries.pop(_WITHOUT_NAMES, None)
        if unnamed is not None:
            queries["content"] = normalize_rows((queries["content"] + unnamed)[None, :])[0]
        return queries, unnamed is not None, name_vector

    # -- store -----------------------------------------------------------------------------

    def store(self, *, content: str, category: str, subject_type: str | None = None,
              subject_id: str | None = None, context: str | None = None,
              intention: str | None = None, agent: str | None = None, source: str = "api",
              metadata: dict[str, Any] | None = None, idempotency_key: str | None = None,
              occurred_at: str | None = None, settings: MemorySettings,
              embed_later: bool = False, supersedes: Sequence[str] | None = None
              ) -> StoreResult:
        new = validate_new(content=content, category=category, subject_type=subject_type,
                           subject_id=subject_id, context=context, intention=intention,
                           agent=agent, source=source, metadata=metadata,
                           idempotency_key=idempotency_key, occurred_at=occurred_at,
                           supersedes=supersedes)
        settings = require_settings(settings)
        earlier = self._earlier(new)
        if earlier is not None:
            return earlier
        vectors = None if embed_later else self._embed_lanes(lane_texts(new))
        result = self._insert([new], [vectors], settings, pending=embed_later,
                              batch=False)[0]
        if embed_later and not result.memory["embedded"]:
            self._behind.wake()     # after the write: the pass must see the memory
        return result

    def store_many(self, items: Sequence[Mapping[str, Any]], *,
                   settings: MemorySettings) -> list[StoreResult]:
        news = validate_items(items)
        settings = require_settings(settings)
        named: set[str] = set()
        for i, new in enumerate(news):
            if named & set(new.supersedes):
                raise InvalidMemory(f"items[{i}].supersedes", "names a memory an item "
                                    "before it supersedes")
            named.update(new.supersedes)
        self._check_keys(news)
        texts = [lane_texts(new) for new in news]
        flat = {f"{i}:{lane}": text for i, lanes in enumerate(texts)
                for lane, text in lanes.items()}
        embedded = self._embed_lanes(flat)
        vectors = [None if embedded is None else
                   {lane: embedded[f"{i}:{lane}"] for lane in lanes}
                   for i, lanes in enumerate(texts)]
        return self._insert(news, vectors, settings, pending=False, batch=True)

    # -- read ------------------------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        return self._memory(self._checked_id(memory_id))

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        with self._editing(self._checked_id(memory_id), lock=False) as edit:
            return history_of(edit.record)

    @staticmethod
    def _checked_id(memory_id: object) -> str:
        if not isinstance(memory_id, str):
            raise MemoryNotFound(str(memory_id))
        return memory_id

    # -- update / delete -------------------------------------------------------------------

    def update(self, memory_id: str, *, content: str | None = None,
               category: str | None = None, context: str | None = None,
               intention: str | None = None, metadata: dict[str, Any] | None = None,
               settings: MemorySettings, embed_later: bool = False, source: str = "api",
               agent: str | None = None, reason: str | None = None) -> Memory:
        changes = validate_changes(content=content, category=category, context=context,
                                   intention=intention, metadata=metadata)
        require_settings(settings)
        memory_id = self._checked_id(memory_id)
        # Checked now, timed when written: the version the update makes is in history.
        Change.checked("update", "", source=source, agent=agent, reason=reason)

        def change() -> Change:
            return Change("update", iso_utc(self._clock()), source, agent,
                          evaluator_of(changes.get("metadata") or {}), reason)
        for attempt in range(3):
            # Embed outside the storage's lock; if the memory changed meanwhile, try
            # again, and on the last attempt hold the lock throughout so the update cannot
            # starve. Embedding behind, nothing is embedded first: read and write at once.
            hold = attempt == 2
            with self._editing(memory_id, lock=hold or embed_later) as edit:
                record = edit.record
                if not record.current:
                    raise MemoryNotCurrent(memory_id, record.superseded_by)
                fields = {k: v for k, v in changes.items() if getattr(record, k) != v}
                if not fields:
                    return record.public()
                snapshot = (record.content, record.context, record.intention,
                            record.embedded)
                to_embed, to_drop = update_plan(record, fields)
                later = embed_later and bool(to_embed)
                if hold or later:
                    vectors = None if later else \
                        self._embed_lanes(to_embed) if to_embed else {}
                    memory = edit.apply(fields, vectors, to_embed, to_drop, change())
            if hold or later:
                if later:
                    self._behind.wake()     # after the write: the pass must see it
                return memory
            vectors = self._embed_lanes(to_embed) if to_embed else {}
            with self._editing(memory_id, lock=True) as edit:
                record = edit.record
                if not record.current:
                    raise MemoryNotCurrent(memory_id, record.superseded_by)
                if snapshot != (record.content, record.context, record.intention,
                                record.embedded):
                    continue
                return edit.apply(fields, vectors, to_embed, to_drop, change())
        raise StoreFailed("the memory kept changing during the update")   # not reached

    def delete(self, memory_id: str, *, hand_on: bool = True) -> None:
        self._uncache(self._delete(self._checked_id(memory_id), hand_on))

    def retire(self, memory_id: str, *, reason: str, source: str = "api",
               agent: str | None = None, evaluator: str | None = None,
               at: str | None = None) -> Memory:
        if reason is None:
            raise InvalidMemory("reason", "is required")
        change = Change.checked("retire", "", source=source, agent=agent,
                                evaluator=evaluator, reason=reason)
        ended = validate_occurred_at(at, "at")
        memory_id = self._checked_id(memory_id)
        with self._editing(memory_id, lock=True) as edit:
            if not edit.record.current:
                raise MemoryNotCurrent(memory_id, edit.record.superseded_by)
            now = iso_utc(self._clock())
            return edit.retire(Change("retire", now, change.source, change.agent,
                                      change.evaluator, change.reason), ended or now)

    # -- search ----------------------------------------------------------------------------

    def search(self, *, query: str, context: str | None = None,
               intention: str | None = None, subject_type: str | None = None,
               subject_id: str | None = None, limit: int = 10,
               categories: list[str] | None = None, occurred_after: str | None = None,
               occurred_before: str | None = None,
               settings: MemorySettings, now: float | None = None,
               count_access: bool = True, as_of: str | None = None,
               include_superseded: bool | None = None) -> SearchResult:
        request = parse_search(query=query, context=context, intention=intention,
                               subject_type=subject_type, subject_id=subject_id, limit=limit,
                               categories=categories, occurred_after=occurred_after,
                               occurred_before=occurred_before, as_of=as_of,
                               include_superseded=include_superseded)
        settings = require_settings(settings)
        when = query_span(request.texts["content"], self._clock() if now is None else now)
        names = query_names(request.texts["content"])
        queries, mixed, name = self._embed_query(request.texts, names)
        ranking = Ranking.of(self._params, settings, request.limit, when, names,
                             exact=request.texts["content"] if mixed else None, name=name,
                             query=None if queries is None else queries["content"],
                             asks=asked(request.texts["content"]))
        return self._recall(request, queries, settings.subject_scoping, ranking,
                            count_access)

    # -- maintenance -----------------------------------------------------------------------

    def reap(self, *, settings: MemorySettings) -> list[str]:
        settings = require_settings(settings)
        self._check_open()
        if not settings.retention:
            return []
        return self._expire(settings.retention, self._clock())

    def stats(self, *, settings: MemorySettings) -> dict[str, Any]:
        expired = self.reap(settings=settings)
        counts = self._counts()
        capacity = {"max_memories": settings.max_memories,
                    "max_per_subject": settings.max_per_subject, "used": counts["total"]}
        return {**counts, "capacity": capacity, "expired": expired}

    def forget_subject(self, subject_type: str, subject_id: str, *,
                       confirm: bool) -> dict[str, Any]:
        if confirm is not True:
            raise ConfirmRequired()
        subject = validate_subject(subject_type, subject_id)
        if subject is None:
            raise InvalidMemory("subject_type", "is required")
        ids, texts = self._forget(subject)
        self._uncache(texts)
        return {"deleted": len(ids), "ids": ids}

    def _uncache(self, texts: set[str]) -> None:
        """Erasure reaches the embedding cache too: the texts of memories just deleted
        leave it (a pass or a call computing meanwhile caches nothing: ``_erasures``)."""
        if texts and isinstance(self._embedder, CachedEmbedder):
            self._embedder.forget(texts)

    def _erasures(self) -> int:
        """The cache's count of erasures (``CachedEmbedder.erasures``; 0 without one)."""
        return self._embedder.erasures if isinstance(self._embedder, CachedEmbedder) else 0

    def compact(self) -> None:
        self._check_open()
        self._compact()

    # -- embedding passes ------------------------------------------------------------------

    def repair_embeddings(self) -> int:
        with self._repairing:
            return self._repair_pass(lambda: False, durable=True)

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        return self._behind.flush(timeout)

    def _repair_behind(self) -> int:
        """The background embedder's pass: stops before a batch once the store closes;
        the first pass then does the work after an open (``_after_open``) and warms the
        names (``_warm_names``)."""
        with self._repairing:
            repaired = self._repair_pass(lambda: self._behind.closing, durable=False)
        if not self._names_warmed:
            self._names_warmed = True
            self._after_open(lambda: self._behind.closing)
            self._warm_names(lambda: self._behind.closing)
        return repaired

    def _after_open(self, stop: Callable[[], bool]) -> None:
        """Work a backend does once after the store opens, on the background embedder's
        first pass (the file store reads its memories' names, ``MemoryStore``); ``stop``
        says the store is closing. Nothing here."""

    def _warm_names(self, stop: Callable[[], bool]) -> None:
        """Embed into the cache the names the store's memories open with, as they write
        them ("Maria"), the most frequent first, at most ``WARM_NAMES``: a search naming
        someone embeds that name alone (``name_projection``), a second text that costs
        the model ~60% more when the cache lacks it; the people a store holds are the
        ones its users ask about, so that name is then a cache hit from the first search
        on. Best effort: a failing model leaves the cache as it was."""
        if not isinstance(self._embedder, CachedEmbedder) or self._params.name_projection <= 0:
            return
        erasures = self._erasures()
        names = [word for word in self._opening_words(2 * WARM_NAMES)
                 if word[0].isupper() and word.lower() not in STOPWORDS][:WARM_NAMES]
        for start in range(0, len(names), WARM_BATCH):
            batch = names[start:start + WARM_BATCH]
            if stop() or self._embed_lanes({f"{i}:content": name
                                            for i, name in enumerate(batch)}) is None:
                return
            if self._erasures() != erasures:
                # A memory was erased since the names were read: it may have been the one
                # a name came from, so the names embedded leave the cache, and warming ends.
                self._uncache(set(names[:start + WARM_BATCH]))
                return

    def _repair_pass(self, stop: Callable[[], bool], *, durable: bool) -> int:
        """One embedding pass (a backend may wrap it, e.g. in a deployment-wide lock)."""
        return self._embed_pending(stop, durable=durable)

    def _embed_pending(self, stop: Callable[[], bool], *, durable: bool) -> int:
        """Embed the memories without vectors, ``REPAIR_BATCH`` per model call, each tried
        once per pass (no endless loop); ``stop`` is checked before each batch.

        :raise EmbeddingFailed: the embedder failed (those embedded before stay so).
        """
        repaired = 0
        attempted: set[str] = set()
        while not stop():
            erasures = self._erasures()
            batch = self._unembedded(attempted, REPAIR_BATCH)
            if not batch:
                return repaired
            flat = {f"{i}:{lane}": text for i, (_, texts) in enumerate(batch)
                    for lane, text in texts.items()}
            vectors = self._embed_lanes(flat)
            if vectors is None:
                raise EmbeddingFailed(f"the embedder failed; {repaired} memories were "
                                      "repaired before it did")
            # ``_save_vectors`` writes none for a memory erased meanwhile (it looks under
            # the storage's lock); the cache is told here, after the model call that may
            # have cached its texts: any erasure since the batch was read drops them.
            repaired += self._save_vectors(
                [(memory_id, texts, {lane: vectors[f"{i}:{lane}"] for lane in texts})
                 for i, (memory_id, texts) in enumerate(batch)], durable=durable)
            if self._erasures() != erasures:
                self._uncache(set(flat.values()))
        return repaired

    # -- health ----------------------------------------------------------------------------

    def verify(self, *, repair: bool = False) -> list[HealthItem]:
        items = self._check(repair)
        unembedded = self._unembedded_count()
        if unembedded:
            vectors: HealthItem = {"problem": f"{unembedded} memories have no vectors "
                                              "(text search only)", "fixable": True}
            if repair:
                try:
                    vectors["fix"] = f"embedded {self.repair_embeddings()} memories"
                    vectors["fixed"] = True
                except StoreError as exc:   # any failure of the repair is reported
                    vectors["fix_failed"] = exc.message
            items.append(vectors)
        return items

    # -- transfer --------------------------------------------------------------------------

    def export(self, *, vectors: bool = False, category: str | None = None,
               subject_type: str | None = None, subject_id: str | None = None,
               agent: str | None = None, source: str | None = None,
               created_after: str | None = None, created_before: str | None = None
               ) -> tuple[int, Iterator[Memory]]:
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 limit=LIST_LIMIT_MAX, cursor=None, include_superseded=True)
        chosen = self._matching(query)
        return len(chosen), self._exported(chosen, vectors)

    def _exported(self, chosen: list[Any], vectors: bool) -> Iterator[Memory]:
        for start in range(0, len(chosen), LIST_LIMIT_MAX):
            yield from self._export_page(chosen[start:start + LIST_LIMIT_MAX], vectors)

    def import_memories(self, items: Sequence[ImportedMemory], *, model_id: str | None,
                        settings: MemorySettings) -> ImportResult:
        settings = require_settings(settings)
        result = ImportResult()
        fresh = self._absent(items)
        same_model = model_id == self._model_id
        carried = [usable_vectors(item, self._dim) if same_model else None
                   for item in fresh]
        need = {f"{i}:{lane}": text for i, item in enumerate(fresh) if carried[i] is None
                for lane, text in item.lane_texts().items()}
        embedded = self._embed_lanes(need) if need else {}
        vectors = [carried[i] if carried[i] is not None or embedded is None else
                   {lane: embedded[f"{i}:{lane}"] for lane in item.lane_texts()}
                   for i, item in enumerate(fresh)]
        for i, evicted in self._insert_imported(fresh, vectors, settings):
            result.imported.append(fresh[i].id)
            result.evicted.extend(evicted)
            if vectors[i] is None:
                result.unembedded.append(fresh[i].id)
            elif carried[i] is None:
                result.embedded_here += 1
        imported = set(result.imported)
        result.skipped = [item.id for item in items if item.id not in imported]
        return result

    def copy_log(self, dest: Path | str) -> dict[str, Any]:
        return self._copy_log(Path(dest))

    # -- list (declared last: below ``def list``, ``list[...]`` would name the method) -----

    def list(self, *, category: str | None = None, subject_type: str | None = None,
             subject_id: str | None = None, agent: str | None = None,
             source: str | None = None, created_after: str | None = None,
             created_before: str | None = None, occurred_after: str | None = None,
             occurred_before: str | None = None, limit: int = 50,
             cursor: str | None = None, as_of: str | None = None,
             include_superseded: bool | None = None) -> tuple[list[Memory], str | None]:
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 occurred_after=occurred_after,
                                 occurred_before=occurred_before, limit=limit, cursor=cursor,
                                 as_of=as_of, include_superseded=include_superseded)
        return self._page(query)

    def iter_memories(self, *, category: str | None = None,
                      subject_type: str | None = None, subject_id: str | None = None,
                      agent: str | None = None, source: str | None = None,
                      created_after: str | None = None,
                      created_before: str | None = None) -> Iterator[Memory]:
        query = parse_list_query(category=category, subject_type=subject_type,
                                 subject_id=subject_id, agent=agent, source=source,
                                 created_after=created_after, created_before=created_before,
                                 limit=LIST_LIMIT_MAX, cursor=None, include_superseded=True)
        self._check_open()
        return self._pages(query)

    def _pages(self, query: ListQuery) -> Iterator[Memory]:
        # One page per call: the storage is locked (or read) per page, never between.
        while True:
            page, cursor = self._page(query)
            yield from page
            if cursor is None:
                return
            query = query.continued(cursor)
