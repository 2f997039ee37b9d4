"""The storage primitives a memory backend implements under ``core.MemoryCore``.

``MemoryCore`` (``core.py``) holds every op once; a backend subclasses it and implements
only these ``_``-methods over its storage, each documented here once, and the
:class:`Edit` of one memory opened for an update. A primitive that changes memories
makes its change durable before it returns (or raises having made none, unless it says
which part stays).
"""

from __future__ import annotations

import builtins
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .backend import HealthItem, ImportedMemory, Memory, SearchResult, StoreResult
from .query import ListQuery, SearchQuery
from .ranking import Ranking
from .records import MemoryRecord
from .validation import NewMemory
from .settings import MemorySettings
from .validity import Change

__all__ = ["Storage", "Edit", "Vectors"]

Vectors = dict[str, np.ndarray]


class Edit(Protocol):
    """One memory opened for an update (:meth:`MemoryCore._editing`)."""

    record: MemoryRecord

    def apply(self, fields: dict[str, Any], vectors: Vectors | None,
              to_embed: dict[str, str], to_drop: list[str], change: Change) -> Memory:
        """Change ``fields`` durably and return the memory. ``vectors``: the lanes of
        ``to_embed`` embedded (``{}``: nothing to embed), None: the memory loses every
        vector (embedding failed, or it is embedded behind); ``to_drop``: lanes cleared.
        The memory's history grows by the version ``change`` made
        (``validity.changed``)."""
        ...

    def retire(self, change: Change, until: str) -> Memory:
        """End the (current) memory's validity at ``until`` (never before it began),
        durably, with no successor, its history grown by ``change``; the memory."""
        ...


class Storage(ABC):
    """The primitives of one storage (the module docstring)."""

    @abstractmethod
    def _check_open(self) -> None:
        """:raise StoreClosed: the store was closed."""

    @abstractmethod
    def _release(self) -> None:
        """Make everything durable and release the storage (idempotent)."""

    @abstractmethod
    def _count(self) -> int:
        """How many memories there are."""

    @abstractmethod
    def _memory(self, memory_id: str) -> Memory:
        """One memory's public form. :raise MemoryNotFound: none has this id."""

    @abstractmethod
    def _earlier(self, new: NewMemory) -> StoreResult | None:
        """``decisions.earlier_result`` of ``new`` over what is stored now.

        :raise IdempotencyKeyReused: the key stored a different request.
        """

    @abstractmethod
    def _check_keys(self, news: Sequence[NewMemory]) -> None:
        """``decisions.check_keys`` of a batch over what is stored now."""

    @abstractmethod
    def _insert(self, news: Sequence[NewMemory], vectors: Sequence[Vectors | None],
                settings: MemorySettings, *, pending: bool,
                batch: bool) -> builtins.list[StoreResult]:
        """Store validated memories in order, serialized with every other writer: for
        each, the earlier result of its key if any, else the evictions capacity calls for
        (``decisions.evictions``) and the memory with ``vectors[i]`` (None: without
        vectors, warned ``MEMORY_EMBEDDING_FAILED`` unless ``pending``: embedded behind).
        ``batch``: ``store_many``'s (keys checked again under the lock, made durable
        together).

        :raise MemoryCapacity: item i cannot be stored; the items before it are durable.
        :raise StorageFull, StoreFailed: none was stored.
        """

    @abstractmethod
    def _editing(self, memory_id: str, *, lock: bool) -> AbstractContextManager[Edit]:
        """The memory, read for an update (:class:`Edit`). ``lock``: the edit may write,
        so the element's writers are held off until the context ends (the file store
        holds its lock for any read).

        :raise MemoryNotFound: no memory has this id.
        """

    @abstractmethod
    def _delete(self, memory_id: str, hand_on: bool) -> set[str]:
        """Delete one memory and erase it from storage before returning, as
        :meth:`_forget` does (a delete is erasure: issue 26); its texts
        (``decisions.erased_texts``), read in the same step, for the core to drop from the
        embedding cache. ``hand_on``: the memories it superseded take over its end in
        the same write (``MemoryBackend.delete``).

        :raise MemoryNotFound: no memory has this id.
        :raise StorageFull, StoreFailed: nothing deleted, or (said by the message) deleted
            and its erasure left to the storage's next maintenance.
        """

    @abstractmethod
    def _recall(self, request: SearchQuery, queries: Vectors | None, scoping: bool,
                ranking: Ranking, count_access: bool) -> SearchResult:
        """Gather the candidates of ``request`` (``queries``: its lanes' vectors, None
        when it could not be embedded), rank them with ``ranking.rank``, count one access
        for each memory returned (unless ``count_access`` is False: then write nothing),
        and return them."""

    @abstractmethod
    def _expire(self, retention: dict[str, float], now: float) -> builtins.list[str]:
        """Delete memories past their category's retention; their ids, oldest first."""

    @abstractmethod
    def _counts(self) -> dict[str, Any]:
        """``total``, ``by_category``, ``by_subject`` (most memories first), ``general``,
        ``embedded``, ``unembedded``."""

    @abstractmethod
    def _forget(self, subject: tuple[str, str]) -> tuple[builtins.list[str], set[str]]:
        """Delete the subject's memories and their text from storage; their ids, oldest
        first, and their texts (``decisions.erased_texts``, read in the same step), for the
        core to drop from the embedding cache."""

    @abstractmethod
    def _compact(self) -> None:
        """Reclaim the space of deleted memories and history."""

    @abstractmethod
    def _unembedded(self, attempted: set[str],
                    size: int) -> builtins.list[tuple[str, dict[str, str]]]:
        """Up to ``size`` memories without vectors and not in ``attempted`` (which grows
        by them), oldest first, with their lane texts."""

    @abstractmethod
    def _save_vectors(self, batch: builtins.list[tuple[str, dict[str, str], Vectors]], *,
                      durable: bool) -> int:
        """Give memories their vectors, each only if it is still without vectors and its
        lane texts are still those embedded; how many were given. ``durable`` False: the
        background pass's, which may leave the flush to the next write."""

    @abstractmethod
    def _opening_words(self, limit: int) -> builtins.list[str]:
        """The words the memories' contents open with (``names.opening_name``, as the
        content writes it), most frequent first, at most ``limit``."""

    @abstractmethod
    def _unembedded_count(self) -> int:
        """How many memories have no vectors."""

    @abstractmethod
    def _check(self, repair: bool) -> builtins.list[HealthItem]:
        """The storage's own health findings (``verify``), repaired when asked."""

    @abstractmethod
    def _matching(self, query: ListQuery) -> builtins.list[Any]:
        """Handles of the memories ``query`` lists, newest first, fixed now (an export)."""

    @abstractmethod
    def _export_page(self, chosen: builtins.list[Any], vectors: bool) -> builtins.list[Memory]:
        """The memories of ``chosen`` handles as they are now, with ``"vectors"`` when
        asked and embedded (one deleted meanwhile: without vectors, or left out)."""

    @abstractmethod
    def _absent(self, items: Sequence[ImportedMemory]) -> builtins.list[ImportedMemory]:
        """The items whose id is not stored."""

    @abstractmethod
    def _insert_imported(self, items: Sequence[ImportedMemory],
                         vectors: Sequence[Vectors | None], settings: MemorySettings
                         ) -> builtins.list[tuple[int, builtins.list[str]]]:
        """Store imported memories as they were (ids, times, statistics), in order, with
        the evictions capacity calls for; an id stored meanwhile is skipped. ``(item
        index, evicted ids)`` of each one written. All of them or none: whatever fails,
        nothing of the call stays (issue 26).

        :raise MemoryCapacity, StorageFull, StoreFailed: none was stored.
        """

    @abstractmethod
    def _copy_log(self, dest: Path) -> dict[str, Any]:
        """``copy_log``: a backup of the memories as of now, or why there is none."""

    @abstractmethod
    def _page(self, query: ListQuery) -> tuple[builtins.list[Memory], str | None]:
        """One page of ``query``, newest first, and the next page's cursor (None: last)."""

