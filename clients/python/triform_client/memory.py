"""A memory element's ops (docs/api.md, docs/memory-runtime.md).

``store`` and ``store_batch`` carry idempotency keys made fresh for each call and kept
across its retries, so a call tried again after a lost answer stores nothing twice.
``list`` is an iterator that follows the cursor; export and import stream NDJSON and never
hold the whole file in memory.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from typing import IO, Any, cast

from .agents import AgentFacing
from .errors import ValidationError
from .models import (
    JSON,
    Category,
    EvalRun,
    EvalStatus,
    ForgetResult,
    Memory,
    MemoryImport,
    MemoryVersion,
    MemoryPage,
    MemorySource,
    NewMemory,
    SearchResult,
    Stats,
    StoreResult,
    SubjectType,
)
from .transport import op_url

__all__ = ["MemoryElement"]


def _filters(**given: Any) -> dict[str, Any]:
    return {k: v for k, v in given.items() if v is not None}


def _one(memory_id: str, *tail: str) -> str:
    """The op path of one memory; an id holding a slash would name another op."""
    if not isinstance(memory_id, str) or "/" in memory_id:
        raise ValidationError(f"memory id {memory_id!r} must be a string without '/'",
                              code="INVALID_MEMORY_ID")
    return "/".join(("memories", memory_id, *tail))


class MemoryElement(AgentFacing):
    """A memory element: ``client.memory("demo/memory")``."""

    def store(self, content: str, category: Category, *,
              subject_type: SubjectType | None = None, subject_id: str | None = None,
              context: str | None = None, intention: str | None = None,
              agent: str | None = None, metadata: JSON | None = None,
              source: MemorySource | None = None, occurred_at: str | None = None,
              idempotency_key: str | None = None,
              supersedes: Sequence[str] | None = None) -> StoreResult:
        """Store one memory; answer it with the ids it ``evicted`` and ``warnings``.

        ``occurred_at`` (ISO 8601; a date alone is its midnight UTC) is when the remembered
        thing happened, default now. ``supersedes``: current memories of the same subject
        this one replaces (kept for :meth:`history` and ``as_of``, out of default recall).
        ``idempotency_key`` defaults to a fresh UUID: pass your own to make a store you
        repeat later (after a crash, say) return the first result instead of a copy.

        :raise ValidationError: a bad category, subject, size...; nothing stored.
        """
        key = idempotency_key or uuid.uuid4().hex
        body = _filters(content=content, category=category, subject_type=subject_type,
                        subject_id=subject_id, context=context, intention=intention,
                        agent=agent, metadata=metadata, source=source,
                        occurred_at=occurred_at,
                        supersedes=list(supersedes) if supersedes is not None else None)
        return cast(StoreResult, self._post("store", body, safe=True,
                                            headers={"Idempotency-Key": key}))

    def store_batch(self, memories: Sequence[NewMemory]) -> list[StoreResult]:
        """Store up to 256 memories with one embedding pass and one fsync, in order.

        Items without an ``idempotency_key`` get ``<call uuid>-<index>``.

        :raise ValidationError: an item is bad (the message names ``memories[i]``); nothing
            stored.
        """
        call = uuid.uuid4().hex
        items = [{"idempotency_key": f"{call}-{i}", **item} for i, item in enumerate(memories)]
        answer = self._post("store_batch", {"memories": items}, safe=True)
        return cast(list[StoreResult], answer["results"])

    def get(self, memory_id: str) -> Memory:
        """:raise NotFound: no memory has this id (``MEMORY_NOT_FOUND``)."""
        return cast(Memory, self._get(_one(memory_id))["memory"])

    def update(self, memory_id: str, *, content: str | None = None,
               category: Category | None = None, context: str | None = None,
               intention: str | None = None, metadata: JSON | None = None) -> Memory:
        """Change a memory (None leaves a field; ``""`` clears context or intention);
        subject and agent never change."""
        answer = self._post(_one(memory_id, "update"), _filters(
            content=content, category=category, context=context, intention=intention,
            metadata=metadata), safe=True)
        return cast(Memory, answer["memory"])

    def delete(self, memory_id: str) -> None:
        """:raise NotFound: no memory has this id."""
        self._post(_one(memory_id, "delete"), {}, safe=False)

    def retire(self, memory_id: str, reason: str, *, at: str | None = None) -> Memory:
        """The memory no longer holds and nothing replaces it: kept for :meth:`history`
        with ``valid_until`` = ``at`` (ISO 8601; default now), out of default recall.

        :raise Conflict: it was superseded or retired already (``MEMORY_NOT_CURRENT``).
        """
        answer = self._post(_one(memory_id, "update"), _filters(
            retire=True, reason=reason, at=at), safe=True)
        return cast(Memory, answer["memory"])

    def history(self, memory_id: str) -> list[MemoryVersion]:
        """Every version of one memory, oldest first: content, category, validity, and
        what made it (``op``, ``at``, ``source``, ``agent``, ``evaluator``, ``reason``).

        :raise NotFound: no memory has this id (a deleted one's history is gone too).
        """
        return cast(list[MemoryVersion], self._get(_one(memory_id, "history"))["versions"])

    def search(self, query: str, *, context: str | None = None, intention: str | None = None,
               subject_type: SubjectType | None = None, subject_id: str | None = None,
               limit: int | None = None,
               categories: Sequence[Category] | None = None,
               occurred_after: str | None = None,
               occurred_before: str | None = None, as_of: str | None = None,
               include_superseded: bool | None = None) -> SearchResult:
        """Recall by what a memory says, its context and its intention, best first;
        ``occurred_after``/``occurred_before`` (ISO 8601, exclusive) keep only memories of
        what happened then. Current memories only, unless ``as_of`` (ISO 8601: those
        current then) or ``include_superseded``."""
        return cast(SearchResult, self._post("search", _filters(
            query=query, context=context, intention=intention, subject_type=subject_type,
            subject_id=subject_id, limit=limit,
            categories=list(categories) if categories is not None else None,
            occurred_after=occurred_after, occurred_before=occurred_before, as_of=as_of,
            include_superseded=include_superseded), safe=True))

    def list_page(self, *, limit: int | None = None, cursor: str | None = None,
                  category: Category | None = None, subject_type: SubjectType | None = None,
                  subject_id: str | None = None, agent: str | None = None,
                  source: MemorySource | None = None, created_after: str | None = None,
                  created_before: str | None = None, as_of: str | None = None,
                  include_superseded: bool | None = None) -> MemoryPage:
        """One page, newest first; ``next_cursor`` is None on the last. Current memories
        only, unless ``as_of`` or ``include_superseded`` (as :meth:`search`)."""
        return cast(MemoryPage, self._get(
            "memories", limit=limit, cursor=cursor, category=category,
            subject_type=subject_type, subject_id=subject_id, agent=agent, source=source,
            created_after=created_after, created_before=created_before, as_of=as_of,
            include_superseded=None if include_superseded is None
            else str(include_superseded).lower()))

    def list(self, *, page_size: int = 200, category: Category | None = None,
             subject_type: SubjectType | None = None, subject_id: str | None = None,
             agent: str | None = None, source: MemorySource | None = None,
             created_after: str | None = None,
             created_before: str | None = None, as_of: str | None = None,
             include_superseded: bool | None = None) -> Iterator[Memory]:
        """Every memory that matches, newest first, a page at a time as the iteration
        goes. Memories stored meanwhile never shift later pages (docs/memory-runtime.md)."""
        cursor: str | None = None
        while True:
            page = self.list_page(limit=page_size, cursor=cursor, category=category,
                                  subject_type=subject_type, subject_id=subject_id,
                                  agent=agent, source=source, created_after=created_after,
                                  created_before=created_before, as_of=as_of,
                                  include_superseded=include_superseded)
            yield from page["memories"]
            cursor = page["next_cursor"]
            if cursor is None:
                return

    def eval(self, branch: str | None = None, *,
             cases: Sequence[str] | None = None) -> EvalRun:
        """Run the recall cases of ``branch`` (default draft; or demo, live, a commit id)
        with that branch's spec (docs/evals.md): each case's ranks and ``passed``, and the
        ``summary`` (pass rate, R@k, MRR). ``cases`` runs only those (``FILE#ID``), which
        the server does not record as the branch's last eval.

        :raise ValidationError: an eval file is malformed (``SOURCE_EVAL_INVALID``, with
            its file and line).
        :raise TooLarge: more cases x memories than one eval may search.
        """
        return cast(EvalRun, self._post("eval", _filters(
            branch=branch, cases=list(cases) if cases is not None else None), safe=True))

    def eval_status(self) -> EvalStatus:
        """Each branch's last recorded eval beside its tip, and draft's scores minus
        live's (``source_branches``' ``evals``)."""
        return cast(EvalStatus, self.source.branches()["evals"])

    def stats(self) -> Stats:
        """Counts by category and subject, capacity, and what retention just expired."""
        return cast(Stats, self._get("stats"))

    def forget_subject(self, subject_type: SubjectType, subject_id: str, *,
                       confirm: bool) -> ForgetResult:
        """Delete every memory about one subject (general memories stay).

        ``confirm=True`` sends ``X-Confirm: destructive``; without it the server refuses.

        :raise ValidationError: ``MEMORY_CONFIRM_REQUIRED`` when not confirmed.
        """
        headers = {"X-Confirm": "destructive"} if confirm else {}
        return cast(ForgetResult, self._post("forget_subject", {
            "subject_type": subject_type, "subject_id": subject_id}, safe=False,
            headers=headers))

    def export_memories(self, out: IO[bytes], *, vectors: bool = False,
                        category: Category | None = None,
                        subject_type: SubjectType | None = None,
                        subject_id: str | None = None, created_after: str | None = None,
                        created_before: str | None = None, **filters: str) -> int:
        """Write the memories as NDJSON into ``out``, streamed: a header line
        (``format``, ``version``, ``element``, ``model``, ``count``), then one memory a
        line (with ``vectors`` when asked). Answer the bytes written."""
        return self._t.download(op_url(self.path, "export/memories"), out, params=_filters(
            vectors=vectors or None, category=category, subject_type=subject_type,
            subject_id=subject_id, created_after=created_after,
            created_before=created_before, **filters))

    def import_memories(self, ndjson: IO[bytes]) -> MemoryImport:
        """Send what :meth:`export_memories` wrote, streamed from the binary file
        ``ndjson``. Ids and timestamps are kept and a re-import skips, so a seekable file
        is sent again after a lost answer.

        :raise ValidationError: a bad line refuses the whole import (nothing written).
        """
        return cast(MemoryImport, self._t.call(
            "POST", op_url(self.path, "import/memories"), safe=True, content=ndjson,
            headers={"Content-Type": "application/x-ndjson"}))
