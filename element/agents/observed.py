"""Which conversation turns a memory element has already observed, so a re-sent turn
changes nothing (agents re-send a sliding window of the conversation).

**A turn's identity** (``turn_identities``), always within one subject (the same words from
two people are two turns):

- with a client id (``turns[i].id``): the conversation id (``conversation_id``, else none),
  that id, and the turn's role and text. An edited turn (same id, new text) is a new turn.
- without one: the conversation id (if given), the turn's role and text, and the role and
  text of the turn right before it in the same observe. The first turn of an observe has no
  turn before it and is identified by its own role and text alone.

The rule fits a sliding window: a turn first arrives last in its window, with its
predecessor, and later windows show it with the same predecessor (or, once it is first, with
none, and its own-text identity was recorded with it). Its limits: without ids or a
conversation id, the same exchange repeated later ("Yes." after the same question, "I went
for a run." sent alone on two days) counts as already observed; give turn ids (or at least
a ``conversation_id`` per conversation) where repeats are meaningful.

**The ledger** (:class:`TurnLedger`) keeps the identities (SHA-256 digests, never text) in
the catalog (``Catalog.observed``), per memory element, so it survives restarts, travels
with a backup of the home, and is shared by every agent that observes into that memory
(``forget_subject`` drops a subject's identities with their memories). It is written after
an observe's decisions are applied: a crash in between lets a re-send apply its turns again
(adds of the same text are then "already remembered").
"""

from __future__ import annotations

import hashlib
import json
import threading
import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..catalog import Catalog

__all__ = ["turn_identities", "own_text_identities", "Ledger", "TurnLedger", "MemoryLedger"]


def _digest(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def turn_identities(turns: Sequence[tuple[str, str, str | None]],
                    subject: tuple[str, str] | None,
                    conversation_id: str | None) -> list[str]:
    """One identity per turn ``(role, text, client id or None)``, in order (see module)."""
    out = []
    for i, (role, text, ident) in enumerate(turns):
        if ident is not None:
            out.append(_digest("id", subject, conversation_id, ident, role, text))
        elif i == 0:
            out.append(_digest("solo", subject, conversation_id, role, text))
        else:
            before = turns[i - 1]
            out.append(_digest("pair", subject, conversation_id, before[0], before[1], role,
                               text))
    return out


def own_text_identities(turns: Sequence[tuple[str, str, str | None]],
                        subject: tuple[str, str] | None,
                        conversation_id: str | None) -> list[str]:
    """The identity each id-less turn would have as the first turn of an observe; recorded
    with the turn so a later window that opens with it knows it."""
    return [_digest("solo", subject, conversation_id, role, text)
            for role, text, ident in turns if ident is None]


def _subject_key(subject: tuple[str, str] | None) -> str:
    # The unit separator, not NUL (as before): PostgreSQL text cannot hold NUL. A subject
    # type never holds either, so the key names one subject. A catalog file's older keys
    # are rewritten once when it opens (``catalog.py``, ``_upgrade_file``).
    return "" if subject is None else f"{subject[0]}\x1f{subject[1]}"


class Ledger(Protocol):
    """Where a memory's observed turn identities are kept."""

    def seen(self, digests: Iterable[str]) -> set[str]: ...

    def record(self, digests: Iterable[str], subject: tuple[str, str] | None) -> None: ...


class MemoryLedger:
    """A ledger in this process's memory, one per store object: what a library caller
    without a catalog gets (the op path uses :class:`TurnLedger`, which survives restarts)."""

    _of: weakref.WeakKeyDictionary[object, MemoryLedger] = weakref.WeakKeyDictionary()
    _lock = threading.Lock()

    def __init__(self) -> None:
        self._seen: dict[str, str] = {}

    @classmethod
    def of(cls, store: object) -> MemoryLedger:
        with cls._lock:
            return cls._of.setdefault(store, cls())

    def seen(self, digests: Iterable[str]) -> set[str]:
        return {d for d in digests if d in self._seen}

    def record(self, digests: Iterable[str], subject: tuple[str, str] | None) -> None:
        for digest in digests:
            self._seen.setdefault(digest, _subject_key(subject))


class TurnLedger:
    """The observed-turn digests of one memory element, kept in the catalog."""

    def __init__(self, catalog: Catalog, element_id: str) -> None:
        self.catalog, self.element_id = catalog, element_id

    def seen(self, digests: Iterable[str]) -> set[str]:
        """Those of ``digests`` recorded before."""
        return self.catalog.observed(self.element_id, list(dict.fromkeys(digests)))

    def record(self, digests: Iterable[str], subject: tuple[str, str] | None) -> None:
        """Remember ``digests`` as observed for ``subject`` (one durable transaction)."""
        self.catalog.record_observed(self.element_id, list(dict.fromkeys(digests)),
                                     _subject_key(subject))

    def forget_subject(self, subject: tuple[str, str]) -> int:
        """Drop a subject's identities (with their memories); returns how many."""
        return self.catalog.forget_observed(self.element_id, _subject_key(subject))
