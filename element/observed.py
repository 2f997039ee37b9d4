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
``observed.sqlite3`` beside the memory element's log, so it survives restarts, and is
shared by every agent that observes into that memory (``forget_subject`` drops a subject's
identities with their memories). It is written after an observe's
decisions are applied: a crash in between lets a re-send apply its turns again (adds of the
same text are then "already remembered").
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import weakref
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = ["turn_identities", "own_text_identities", "TurnLedger", "LEDGER_NAME"]

LEDGER_NAME = "observed.sqlite3"


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
    return "" if subject is None else f"{subject[0]}\x00{subject[1]}"


class TurnLedger:
    """The observed-turn digests of one memory element (a SQLite file in its runtime dir).

    :meth:`beside` gives the ledger of an open store, kept open as long as the store is
    (opening and closing SQLite per observe costs a checkpoint each time). Thread-safe; the
    caller serializes observes of one memory. Commits are WAL with ``synchronous=NORMAL``:
    a power cut may lose the last records, never corrupt the file (a lost record only lets
    a re-sent turn be evaluated again).
    """

    _open: weakref.WeakKeyDictionary[Any, TurnLedger] = weakref.WeakKeyDictionary()
    _open_lock = threading.Lock()

    @classmethod
    def beside(cls, store: Any) -> TurnLedger:
        """The ledger in ``store.directory``, one per store object, closed with it."""
        with cls._open_lock:
            ledger = cls._open.get(store)
            if ledger is None:
                ledger = cls._open[store] = cls(Path(store.directory))
                weakref.finalize(store, ledger.close)
            return ledger

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(directory / LEDGER_NAME, timeout=30,
                                   isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA secure_delete=ON")   # a forgotten subject leaves no pages
        self._db.execute("CREATE TABLE IF NOT EXISTS observed (digest TEXT PRIMARY KEY, "
                         "subject TEXT NOT NULL, at TEXT NOT NULL)")
        self._db.execute("CREATE INDEX IF NOT EXISTS observed_subject ON observed(subject)")

    def __enter__(self) -> TurnLedger:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def seen(self, digests: Iterable[str]) -> set[str]:
        """Those of ``digests`` recorded before."""
        wanted = list(dict.fromkeys(digests))
        found: set[str] = set()
        with self._lock:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                rows = self._db.execute(
                    "SELECT digest FROM observed WHERE digest IN "
                    f"({','.join('?' * len(chunk))})", chunk)
                found.update(row[0] for row in rows)
        return found

    def record(self, digests: Iterable[str], subject: tuple[str, str] | None) -> None:
        """Remember ``digests`` as observed for ``subject`` (durably: synchronous commit)."""
        at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        rows = [(d, _subject_key(subject), at) for d in dict.fromkeys(digests)]
        if rows:
            with self._lock, self._db:
                self._db.execute("BEGIN")
                self._db.executemany("INSERT OR IGNORE INTO observed VALUES (?, ?, ?)", rows)

    def forget_subject(self, subject: tuple[str, str]) -> int:
        """Drop a subject's identities (with their memories); returns how many."""
        with self._lock, self._db:
            self._db.execute("BEGIN")
            cursor = self._db.execute("DELETE FROM observed WHERE subject = ?",
                                      (_subject_key(subject),))
        return cursor.rowcount
