"""Decisions, and the pool of memories an evaluator decides against.

An evaluator (:class:`Evaluator`) reads an observation and yields :class:`Decision` s (add,
update, supersede, retire, forget, nothing) about the :class:`Pool`: exactly the memories
of the observation's subject (or the general ones), over a live store.

- **supersede**: ``memory_id`` held a value a newer statement (``content``) replaces ("I
  live in Lisbon now"): the new memory is stored and the old one is no longer current.
- **retire**: ``memory_id`` no longer holds ("I'm not allergic to shellfish anymore"),
  and nothing replaces it.
- **forget**: the user asked to erase ``memory_id`` ("forget that I ...").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from index import (Embedder, MemoryNotFound, MemorySettings, MemoryBackend,
                   terms)

from .observation import Observation
from .rules import norm

__all__ = ["ACTIONS", "WRITES", "Decision", "Pool", "Evaluator", "EvaluatorFailed",
           "observe_metadata",
           "KEY_SCAN",
           "SIMILAR_MIN", "REPEAT_MIN", "SIMILAR_WAIT"]

ACTIONS = ("add", "update", "supersede", "retire", "forget", "nothing")
#: Actions that write ``content``.
WRITES = ("add", "update", "supersede")
#: How many of a pool's newest memories are scanned for a candidate's key or duplicate.
KEY_SCAN = 5000
#: The least blended score at which a stored memory counts as "the one meant" by a
#: correction or a "forget ..." that names no key.
SIMILAR_MIN = 0.5
#: The least share of content words two memories have in common (Jaccard, stemmed) for a
#: new episode to count as a repeat of a stored one, which it then updates.
REPEAT_MIN = 0.5
#: Seconds a similarity lookup waits for memories still being embedded behind.
SIMILAR_WAIT = 10.0


# -- decisions --------------------------------------------------------------------------------

@dataclass
class Decision:
    """One evaluator verdict; ``public()`` is its answer form (never vectors, keys or scores)."""

    action: str
    reason: str
    category: str | None = None
    content: str | None = None
    memory_id: str | None = None
    context: str | None = None
    intention: str | None = None
    key: str | None = None
    evicted: list[str] = field(default_factory=list)
    #: When the remembered thing happened (ISO 8601), from the session date.
    occurred_at: str | None = None
    #: A supersede's new memory, once applied.
    superseded_by: str | None = None

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action, "reason": self.reason}
        if self.memory_id:
            out["memory_id"] = self.memory_id
        if self.superseded_by:
            out["superseded_by"] = self.superseded_by
        if self.category:
            out["category"] = self.category
        if self.content and self.action in WRITES:
            out["content"] = self.content
        if self.occurred_at and self.action in WRITES:
            out["occurred_at"] = self.occurred_at
        if self.evicted:
            out["evicted"] = list(self.evicted)
        return out


class Pool:
    """The memories an observation may revise, over a live store.

    Exactly the observation's subject's memories, or the general ones (no subject) when
    none is given, whatever ``subject_scoping`` says: the subconscious hears one person and
    changes only what is about that person. Key and duplicate lookups scan the pool's
    ``KEY_SCAN`` newest memories once (``list``: no access counts touched) and keep the scan
    in step with what the pipeline applies; similarity lookups use ``search``, subject-scoped.
    """

    def __init__(self, store: MemoryBackend, settings: MemorySettings,
                 subject: tuple[str, str] | None) -> None:
        self.store, self.settings, self.subject = store, settings, subject
        self._rows: dict[str, dict[str, Any]] | None = None
        self._terms: dict[str, frozenset[str]] = {}

    def owns(self, memory: Mapping[str, Any]) -> bool:
        found = (memory["subject_type"], memory["subject_id"]) \
            if memory.get("subject_type") is not None else None
        return found == self.subject

    def _scan(self) -> dict[str, dict[str, Any]]:
        if self._rows is None:
            rows: dict[str, dict[str, Any]] = {}
            cursor, seen = None, 0
            filters: dict[str, Any] = {"subject_type": self.subject[0],
                                       "subject_id": self.subject[1]} if self.subject else {}
            while seen < KEY_SCAN:
                page, cursor = self.store.list(**filters, limit=500, cursor=cursor)
                seen += len(page)
                rows.update((m["id"], m) for m in page if self.owns(m))
                if cursor is None:
                    break
            self._rows = rows
        return self._rows

    def by_key(self, key: str) -> dict[str, Any] | None:
        for memory in self._scan().values():
            if ((memory.get("metadata") or {}).get("observe") or {}).get("key") == key:
                return memory
        return None

    def by_content(self, content: str) -> dict[str, Any] | None:
        wanted = norm(content)
        return next((m for m in self._scan().values() if norm(m["content"]) == wanted), None)

    def repeat_of(self, content: str, ignore: Iterable[str] = ()) -> dict[str, Any] | None:
        """The unkeyed pool memory that says mostly the same (content words, stemmed,
        Jaccard >= ``REPEAT_MIN``; ``ignore`` words such as the speaker's name left out),
        the closest if several."""
        # A possessive's "s" ("Injury's been rough") is no word of either.
        skip = set(terms(" ".join(ignore))) | {"s"}
        wanted = set(terms(content)) - skip
        if not wanted:
            return None
        best, best_score = None, REPEAT_MIN
        for memory in self._scan().values():
            if ((memory.get("metadata") or {}).get("observe") or {}).get("key"):
                continue
            have = self._terms.get(memory["id"])
            if have is None:
                have = self._terms[memory["id"]] = frozenset(terms(memory["content"]))
            have_own = have - skip
            union = len(wanted | have_own)
            score = len(wanted & have_own) / union if union else 0.0
            if score >= best_score:
                best, best_score = memory, score
        return best

    def holds(self, memory_id: Any) -> dict[str, Any] | None:
        """The memory if it exists and is in this pool, else None."""
        if not isinstance(memory_id, str):
            return None
        try:
            memory = self.store.get(memory_id)
        except MemoryNotFound:
            return None
        return memory if self.owns(memory) else None

    def similar(self, text: str, limit: int = 5) -> list[tuple[dict[str, Any], float]]:
        """Pool memories closest to ``text`` (content lane), best first, >= ``SIMILAR_MIN``.

        A search counts as an access of what it returns (``MemoryStore.search``). It first
        waits (``SIMILAR_WAIT`` at most) for memories still being embedded behind, so a
        keyless correction or forget compares vectors with vectors as when observe
        embedded inline, rather than with a text score for the newest memories; the wait
        is the model's time, paid only by the observes that make such a lookup. A failing
        model does not make it wait: the search then scores those memories by text.
        """
        self.store.flush_embeddings(SIMILAR_WAIT)
        subject_type, subject_id = self.subject if self.subject else (None, None)
        found = self.store.search(query=text[:4000], subject_type=subject_type,
                                  subject_id=subject_id, limit=20, settings=self.settings)
        hits = [(r["memory"], r["score"]) for r in found.results
                if self.owns(r["memory"]) and r["score"] >= SIMILAR_MIN]
        return hits[:limit]

    def nearest(self, text: str, limit: int = 10) -> list[dict[str, Any]]:
        """Pool memories closest to ``text`` by a search with no score floor, best first.
        Candidates only (the caller compares texts itself): memories still being embedded
        behind are found by their words, without waiting for their vectors."""
        subject_type, subject_id = self.subject if self.subject else (None, None)
        settings = replace(self.settings, relevance_threshold=0.0)
        found = self.store.search(query=text[:4000], subject_type=subject_type,
                                  subject_id=subject_id, limit=limit, settings=settings)
        return [r["memory"] for r in found.results if self.owns(r["memory"])]

    def embedder(self) -> Embedder | None:
        """The store's embedder (both backends have one), for comparing texts."""
        found = getattr(self.store, "embedder", None)
        return found if hasattr(found, "embed") else None

    def memories(self) -> list[dict[str, Any]]:
        """The scanned pool, newest first."""
        return list(self._scan().values())

    def recent(self, n: int) -> list[dict[str, Any]]:
        return list(self._scan().values())[:n]

    def keep(self, memory: dict[str, Any]) -> None:
        self._terms.pop(memory["id"], None)
        rows = self._scan()
        rows.pop(memory["id"], None)
        self._rows = {memory["id"]: memory, **rows}

    def drop(self, memory_ids: Iterable[str]) -> None:
        rows = self._scan()
        for memory_id in memory_ids:
            rows.pop(memory_id, None)


class Evaluator(Protocol):
    """Reads an observation and yields decisions against a pool.

    Decisions may be yielded lazily: the pipeline applies each before asking for the next,
    so a later decision sees what an earlier one changed.
    """

    name: str

    def evaluate(self, observation: Observation, pool: Pool) -> Iterable[Decision]: ...


class EvaluatorFailed(Exception):
    """An evaluator could not decide (endpoint down, timeout, malformed answer)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def observe_metadata(memory: Mapping[str, Any] | None, evaluator: str, key: str | None,
              occurred: str | None = None) -> dict[str, Any]:
    """A memory's metadata with what the subconscious records of its decision."""
    base = dict((memory or {}).get("metadata") or {})
    base["observe"] = {"evaluator": evaluator, **({"key": key} if key else {}),
                       **({"occurred_at": occurred} if occurred else {})}
    return base
