"""MemoryCore: every op of a memory backend, written once over the storage's primitives.

``MemoryBackend`` (``backend.py``) is the contract; this class keeps it for both
backends. It validates every call, embeds outside any lock, asks the shared decisions
(``decisions.py``: idempotency, eviction, what an update re-embeds), runs the one ranking
(``ranking.py``), pages lists and exports, and drives the embedding passes (the
embedder, its cache and the passes: :class:`~index.core_embedding.CoreEmbedding`, its
base). A backend subclasses it and implements only its primitives, the
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

from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

from .backend import (
    HealthItem,
    ImportedMemory,
    ImportResult,
    Memory,
    MemoryBackend,
    SearchResult,
    StoreResult,
)
from .core_embedding import CoreEmbedding
from .decisions import lane_texts, update_plan
from .embed import Embedder
from .errors import (
    ConfirmRequired,
    InvalidMemory,
    MemoryNotCurrent,
    MemoryNotFound,
    StoreError,
    StoreFailed,
)
from .asks import asked
from .names import query_names
from .they import they_query
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
from .storage import Edit, Vectors
from .transfer import usable_vectors
from .validity import Change, evaluator_of, history_of

__all__ = ["MemoryCore", "Edit", "Vectors"]


class MemoryCore(CoreEmbedding, MemoryBackend):
    """The ops of ``MemoryBackend`` over a storage (see the module docstring).

    :param embedder, embed_cache: the embedder and its cache (:class:`CoreEmbedding`).
    :param clock: POSIX seconds (timestamps, retention, the spans queries name).
    :param index_params: candidate generation and recall levers (``params.py``).
    :param name: the element, for the background embedder's thread name.
    """

    def __init__(self, embedder: Embedder, *, clock: Callable[[], float],
                 index_params: IndexParams | None, embed_cache: int, name: str) -> None:
        super().__init__(embedder, params=index_params or IndexParams(),
                         embed_cache=embed_cache, name=name)
        self._clock = clock

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
                             asks=asked(request.texts["content"]),
                             they=None if name is None else
                             they_query(request.texts["content"], names))
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

    def compact(self) -> None:
        self._check_open()
        self._compact()

    # -- embedding passes (run by ``core_embedding.py``) -----------------------------------

    def repair_embeddings(self) -> int:
        with self._repairing:
            return self._repair_pass(lambda: False, durable=True)

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        return self._behind.flush(timeout)

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
