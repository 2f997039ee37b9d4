"""The memory backend interface: what every implementation of one element's memories offers.

:class:`MemoryBackend` is the one thing a second implementation (PostgreSQL + pgvector,
design.md section 9) has to satisfy; :class:`~index.store.MemoryStore` (JSONL log +
hnswlib) is the first. The upper layers call only these methods, take only these result
types, and catch only :class:`~index.errors.StoreError` subclasses, so they never learn
where or how memories are kept. ``docs/memory-runtime.md`` ("The backend interface") has
the contract in prose.

Rules every implementation keeps:

* a memory is a plain dict, its public form (``Memory``): the record fields of
  design.md section 5, never vectors;
* bad input raises a validation error (``InvalidMemory``, ``InvalidCategory``,
  ``SubjectIncomplete``) before anything is written; a refused call writes nothing;
* a call that returns has made its change durable; a call that raises has made none,
  unless its docstring says which part stays (``store_many`` at capacity);
* ``settings`` are passed on every call rather than stored, so a property change applies
  to the next call;
* safe to call from several threads.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, NotRequired, Protocol, TypedDict, runtime_checkable

import numpy as np

from .settings import MemorySettings

__all__ = ["MemoryBackend", "Memory", "StoreResult", "SearchResult", "HealthItem",
           "ImportedMemory", "ImportResult"]

Memory = dict[str, Any]
"""The public form of one memory (``id``, ``content``, ``category``, ... ``embedded``)."""


@dataclass(frozen=True)
class StoreResult:
    """What ``store`` returns: the memory's public form, evicted ids, warning codes."""

    memory: Memory
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


@dataclass(frozen=True)
class ImportedMemory:
    """One validated memory of an import: the record as it was, and its vectors if any."""

    record: dict[str, Any]
    vectors: dict[str, np.ndarray] | None = None

    @property
    def id(self) -> str:
        return str(self.record["id"])

    @property
    def subject(self) -> tuple[str, str] | None:
        kind, ident = self.record["subject_type"], self.record["subject_id"]
        return None if kind is None else (kind, ident)

    def lane_texts(self) -> dict[str, str]:
        """The lanes that have text, with their text."""
        return {lane: self.record[lane] for lane in ("content", "context", "intention")
                if self.record[lane] is not None}


@dataclass
class ImportResult:
    """What an import did: ids written and skipped (already present), memories evicted to
    make room, and how many were embedded here rather than carried vectors."""

    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    evicted: list[str] = field(default_factory=list)
    embedded_here: int = 0
    unembedded: list[str] = field(default_factory=list)


class HealthItem(TypedDict):
    """One finding of ``verify``: what is wrong, and (when repairing) what was done."""

    problem: str
    fixable: bool
    fixed: NotRequired[bool]
    fix: NotRequired[str]
    fix_failed: NotRequired[str]


@runtime_checkable
class MemoryBackend(Protocol):
    """The memories of one element. Every method raises only ``StoreError`` subclasses.

    Each method's contract is its docstring here; ``MemoryStore`` documents how it keeps
    it (files, locks, costs).
    """

    def store(self, *, content: str, category: str, subject_type: str | None = None,
              subject_id: str | None = None, context: str | None = None,
              intention: str | None = None, agent: str | None = None, source: str = "api",
              metadata: dict[str, Any] | None = None, idempotency_key: str | None = None,
              occurred_at: str | None = None, settings: MemorySettings,
              embed_later: bool = False, supersedes: Sequence[str] | None = None
              ) -> StoreResult:
        """Store a new memory, evicting at capacity (memories no longer current first,
        oldest first; then least accessed, then oldest).

        ``occurred_at`` (ISO-8601) is when the remembered thing happened; default now. It
        is also the memory's ``valid_from``.

        ``supersedes``: current memories of the same subject (or, for a general memory,
        general ones) this one replaces, in the same durable write: each gets
        ``valid_until`` = this memory's ``valid_from`` and ``superseded_by`` = its id, and
        is kept for history and ``as_of``, out of default recall.

        ``embed_later``: the memory is made durable without vectors (``embedded`` False, no
        warning) and the store's background embedder embeds it shortly after; until then
        searches find it by text (``fallback: "text"``). See :meth:`flush_embeddings`.

        A memory that cannot be embedded is still stored (``embedded`` False, warning
        ``MEMORY_EMBEDDING_FAILED``). An ``idempotency_key`` seen before with the same
        request returns the first result and stores nothing; with a different request it
        is refused. A key lives as long as the memory it created.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory: bad input.
        :raise MemoryNotFound: a superseded id names no memory, or one of another subject.
        :raise MemoryNotCurrent: a superseded id names a memory no longer current.
        :raise IdempotencyKeyReused: the key was used for a different memory.
        :raise MemoryCapacity: full, and the pool that would give way is empty.
        :raise StorageFull, StoreFailed: nothing was stored.
        """
        ...

    def store_many(self, items: Sequence[Mapping[str, Any]], *,
                   settings: MemorySettings) -> list[StoreResult]:
        """Store several memories (each item takes :meth:`store`'s keywords), in order.

        All items are validated (keys and superseded ids included; no two items may
        supersede one memory) before anything is written.

        :raise InvalidCategory, SubjectIncomplete, InvalidMemory, IdempotencyKeyReused:
            item i is bad (the message starts with ``items[i]``); nothing is written.
        :raise MemoryNotFound, MemoryNotCurrent: an item's ``supersedes``; nothing is
            written.
        :raise MemoryCapacity: item i cannot be stored; the items before it are stored.
        :raise StorageFull, StoreFailed: nothing of the batch was stored.
        """
        ...

    def get(self, memory_id: str) -> Memory:
        """One memory. :raise MemoryNotFound: no memory has this id."""
        ...

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """Every version of one memory, oldest first, the current one last: ``content``,
        ``category``, ``valid_from``, ``valid_until``, ``superseded_by``, and what made
        the version: ``op`` (store, update, supersede, retire), ``at``, ``source``,
        ``agent``, and ``evaluator``/``reason`` when known. Kept with the memory; a delete
        or a forget erases it.

        :raise MemoryNotFound: no memory has this id.
        """
        ...

    def retire(self, memory_id: str, *, reason: str, source: str = "api",
               agent: str | None = None, evaluator: str | None = None,
               at: str | None = None) -> Memory:
        """The memory no longer holds and nothing replaces it: ``valid_until`` = ``at``
        (ISO-8601, when it stopped holding; default now; never before its ``valid_from``),
        kept for history and ``as_of``, out of default recall; the reason in its history.

        :raise MemoryNotFound: no memory has this id.
        :raise MemoryNotCurrent: it was superseded or retired already.
        :raise InvalidMemory: a bad reason, source or agent.
        """
        ...

    def update(self, memory_id: str, *, content: str | None = None,
               category: str | None = None, context: str | None = None,
               intention: str | None = None, metadata: dict[str, Any] | None = None,
               settings: MemorySettings, embed_later: bool = False, source: str = "api",
               agent: str | None = None, reason: str | None = None) -> Memory:
        """Change a memory and return it; a changed text is re-embedded (with
        ``embed_later``, behind, as for :meth:`store`: its vectors go until then).

        None keeps a field; an empty context or intention clears it; ``metadata``
        replaces the whole object. Nothing to change: nothing is written. The version
        before stays in the memory's history; ``source``, ``agent`` and ``reason`` say
        who changed it and why.

        :raise MemoryNotFound, InvalidCategory, InvalidMemory: nothing written.
        :raise MemoryNotCurrent: it was superseded or retired: nothing written.
        :raise StorageFull, StoreFailed: nothing changed.
        """
        ...

    def delete(self, memory_id: str, *, hand_on: bool = True) -> None:
        """Delete one memory and erase it before returning, as :meth:`forget_subject`
        does: the file store compacts its log (the memory's text leaves the files, every
        earlier version of it included; its vectors are overwritten in hnswlib), the
        database store vacuums after the delete (what each leaves on disk:
        ``docs/deploy.md``). The memories it superseded take over its end in the same
        write (``validity.successor_deleted``): a delete says it never was. ``hand_on``
        false: they keep it (a version about to be replaced under the same id, as
        ``migrate`` replaces one, takes nothing back).

        :raise MemoryNotFound: no memory has this id.
        :raise StorageFull, StoreFailed: nothing deleted, or (the file store) deleted and
            its compaction failed: the text leaves the disk when the store next opens.
        """
        ...

    def search(self, *, query: str, context: str | None = None,
               intention: str | None = None, subject_type: str | None = None,
               subject_id: str | None = None, limit: int = 10,
               categories: list[str] | None = None, occurred_after: str | None = None,
               occurred_before: str | None = None,
               settings: MemorySettings, now: float | None = None,
               count_access: bool = True, as_of: str | None = None,
               include_superseded: bool | None = None) -> SearchResult:
        """Blended recall over the content, context and intention lanes, best first.

        Current memories only, unless ``as_of`` (ISO-8601: those current then, i.e.
        ``valid_from <= as_of < valid_until``, whenever they were stored: valid time, not
        what the store knew then) or ``include_superseded`` (every memory, each with its
        validity).

        Scoping on: general memories plus the given subject's, never another's.
        ``occurred_after``/``occurred_before`` are exclusive ISO-8601 bounds; a time the
        query names boosts what happened then, read from ``now`` (POSIX seconds; default
        the store's clock). Results under ``relevance_threshold`` are dropped; returned
        memories count one access, unless ``count_access`` is False (an eval: nothing is
        written, so what eviction chooses does not change).

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: bad input.
        """
        ...

    def reap(self, *, settings: MemorySettings) -> list[str]:
        """Delete memories older than their category's retention; their ids, oldest first."""
        ...

    def stats(self, *, settings: MemorySettings) -> dict[str, Any]:
        """Reap, then count: ``total``, ``by_category``, ``by_subject``, ``general``,
        ``capacity``, ``embedded``, ``unembedded``, ``expired``."""
        ...

    def forget_subject(self, subject_type: str, subject_id: str, *,
                       confirm: bool) -> dict[str, Any]:
        """Delete every memory about one subject, and its text from storage:
        ``{"deleted": n, "ids": [...]}``.

        :raise ConfirmRequired: ``confirm`` is not True.
        :raise SubjectIncomplete, InvalidMemory: a bad subject.
        """
        ...

    def repair_embeddings(self) -> int:
        """Embed memories that have no vectors (or another model's); return how many.

        :raise EmbeddingFailed: the embedder failed (those repaired before stay repaired).
        """
        ...

    def flush_embeddings(self, timeout: float | None = None) -> bool:
        """Wait until every memory written with ``embed_later`` before the call has its
        vectors: True then (at once when none is pending); False when the embedder failed
        meanwhile (they stay pending, retried in the background), the store closed, or
        ``timeout`` seconds passed. Never raises for the embedder.
        """
        ...

    def compact(self) -> None:
        """Reclaim the space of deleted memories and history (may do nothing)."""
        ...

    def verify(self, *, repair: bool = False) -> list[HealthItem]:
        """Check the stored memories and their indexes; with ``repair``, fix what can be.

        Returns one :class:`HealthItem` per problem found (none: healthy). Read-only
        unless ``repair``.
        """
        ...

    @property
    def model_id(self) -> str:
        """The id of the model this backend's vectors come from."""
        ...

    @property
    def dim(self) -> int:
        """How many values each vector has."""
        ...

    def export(self, *, vectors: bool = False, category: str | None = None,
               subject_type: str | None = None, subject_id: str | None = None,
               agent: str | None = None, source: str | None = None,
               created_after: str | None = None, created_before: str | None = None
               ) -> tuple[int, Iterator[Memory]]:
        """``(count, memories)``: what :meth:`list` returns for these filters, newest
        first, fixed when called (the iterator yields exactly ``count``), streamed (never
        all in memory at once). With ``vectors``, an embedded memory carries
        ``"vectors": {lane: float32 array}``. Touches no access statistics.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a bad filter.
        """
        ...

    def import_memories(self, items: Sequence[ImportedMemory], *, model_id: str | None,
                        settings: MemorySettings) -> ImportResult:
        """Add memories as exported (``validate_imported``): ids, created/updated/
        occurred/last-accessed times and access counts kept. Ids already present are
        skipped. Vectors are used when ``model_id`` is the backend's and they cover
        every lane with text; otherwise the texts are embedded. Capacity and eviction as
        :meth:`store`; items are written in the order given (oldest first), all or
        nothing.

        :raise MemoryCapacity, StorageFull, StoreFailed: none of the items was stored.
        """
        ...

    def copy_log(self, dest: Path | str) -> dict[str, Any]:
        """A backup of the memories as of now (every acknowledged write in it), written
        to the file ``dest`` in a form :class:`~index.store.MemoryStore` opens as its
        log: ``{"bytes", "sha256", "memories"}``. (A database backend writes an export of
        every memory with vectors in the log form, or documents that its database's own
        backup is used instead.)
        """
        ...

    def close(self) -> None:
        """Make everything durable and release the element (idempotent)."""
        ...

    def __len__(self) -> int:
        """How many memories there are."""
        ...

    def __enter__(self) -> MemoryBackend: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None: ...

    # Declared last: below this method, ``list`` in an annotation would name it.
    def list(self, *, category: str | None = None, subject_type: str | None = None,
             subject_id: str | None = None, agent: str | None = None,
             source: str | None = None, created_after: str | None = None,
             created_before: str | None = None, occurred_after: str | None = None,
             occurred_before: str | None = None, limit: int = 50,
             cursor: str | None = None, as_of: str | None = None,
             include_superseded: bool | None = None) -> tuple[list[Memory], str | None]:
        """One page of memories, newest first, filtered; and the next page's cursor.
        Current memories only, unless ``as_of`` or ``include_superseded`` (as
        :meth:`search`).

        Filters combine with AND; ``subject_type`` alone matches every subject of that
        type; ``created_after``/``created_before`` and ``occurred_after``/
        ``occurred_before`` are exclusive ISO-8601 bounds. Pages
        never repeat or skip a memory that exists throughout. ``limit`` is 1..500; the
        cursor is None on the last page. Touches no access statistics.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a bad filter or cursor.
        """
        ...

    def iter_memories(self, *, category: str | None = None,
                      subject_type: str | None = None, subject_id: str | None = None,
                      agent: str | None = None, source: str | None = None,
                      created_after: str | None = None,
                      created_before: str | None = None) -> Iterator[Memory]:
        """Every memory :meth:`list` would return for these filters, in the same order,
        superseded and retired ones included, fetched page by page as the iterator is
        consumed. Touches no access statistics.

        :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a bad filter (raised by
            the call, before iterating).
        """
        ...
