"""The catalog's activity log: every op's events, in the order they committed.

Activity seqs only grow, and become visible in that order in both databases (a follower
reading :meth:`ActivityLog.events_after` never skips one): SQLite has one writer at a
time, and in PostgreSQL :meth:`ActivityLog.record_activity` takes the next seq under a
lock held until its commit (``postgres.py`` says why a sequence would not do). There the
commit also sends ``NOTIFY`` on :data:`ACTIVITY_CHANNEL`, which wakes every worker's event
follower.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .sql import Tables, now_iso

if TYPE_CHECKING:
    from .catalog import Element

__all__ = ["ActivityLog", "ACTIVITY_CHANNEL"]

#: The PostgreSQL channel every activity commit notifies (its payload: the seq).
ACTIVITY_CHANNEL = "triform_activity"


def _event(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"seq": row["seq"], "element_id": row["element_id"], "path": row["path"],
            "circle": row["circle"], "op": row["op"], "principal": row["principal"],
            "detail": json.loads(row["detail"]), "at": row["at"]}


class ActivityLog(Tables):
    """The activity part of the :class:`~element.catalog.Catalog`."""

    #: Called with each activity event after it is committed (the SSE feed subscribes).
    listeners: list[Callable[[dict[str, Any]], None]]

    def wait_for_activity(self, timeout: float, listener: Any = None) -> None:
        """Block up to ``timeout`` seconds, returning early when ``listener`` (from
        :meth:`activity_listener`) hears that another worker committed an event."""
        if listener is None:
            time.sleep(timeout)
        else:
            listener.wait(timeout)

    def activity_listener(self) -> Any:
        """A connection of its own listening to :data:`ACTIVITY_CHANNEL` (close it when
        done), or None for a file (nothing to listen to: read it every so often).

        :raise DatabaseUnavailable: the database cannot be reached.
        """
        if not self.in_database:
            return None
        return self.sql.listener(ACTIVITY_CHANNEL)  # type: ignore[attr-defined]

    def record_activity(self, element: Element, op: str, principal: str | None,
                        detail: dict[str, Any] | None = None) -> dict[str, Any]:
        """Append one activity event, then tell the listeners; returns the event.

        The next seq is taken under the ``activity`` lock, held until the commit, so seqs
        become visible in order to every reader (the module docstring says why)."""
        at = now_iso()
        with self._transaction() as tx:
            tx.lock("activity")
            seq = int(tx.execute(
                "INSERT INTO activity (seq, element_id, circle, op, principal, detail, at) "
                "SELECT COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM activity "
                "RETURNING seq",
                (element.id, element.circle, op, principal, json.dumps(detail or {}),
                 at)).fetchone()["seq"])
            tx.notify(ACTIVITY_CHANNEL, str(seq))
        event = {"seq": seq, "element_id": element.id, "path": element.path,
                 "circle": element.circle, "op": op, "principal": principal,
                 "detail": detail or {}, "at": at}
        for listener in list(self.listeners):
            listener(event)
        return event

    _EVENTS = ("SELECT a.seq, a.element_id, e.path, a.circle, a.op, a.principal, a.detail, "
               "a.at FROM activity a LEFT JOIN elements e ON e.id = a.element_id ")

    def activity(self, *, element_ids: list[str] | None = None, circle: str | None = None,
                 limit: int = 100, before: int | None = None) -> list[dict[str, Any]]:
        """The newest events of some elements, or of a whole circle, newest first;
        ``before`` (a seq, exclusive) pages back through them."""
        bound = 2 ** 63 - 1 if before is None else before
        if element_ids is not None:
            marks = ",".join("?" * len(element_ids)) or "NULL"
            rows = self._query(f"{self._EVENTS} WHERE a.element_id IN ({marks}) "
                               "AND a.seq < ? ORDER BY a.seq DESC LIMIT ?",
                               (*element_ids, bound, limit))
        else:
            rows = self._query(f"{self._EVENTS} WHERE a.circle = ? AND a.seq < ? "
                               "ORDER BY a.seq DESC LIMIT ?", (circle, bound, limit))
        return [_event(r) for r in rows]

    def events_after(self, circle: str | None, element_id: str | None, after: int,
                     limit: int) -> list[dict[str, Any]]:
        """Up to ``limit`` events of ``circle`` (every circle's with None; or one element)
        with seq > ``after``, oldest first: the replay of an event stream, and how a server
        follows what other processes sharing the home commit."""
        sql = f"{self._EVENTS} WHERE a.seq > ?"
        args: list[Any] = [after]
        if circle is not None:
            sql += " AND a.circle = ?"
            args.append(circle)
        if element_id is not None:
            sql += " AND a.element_id = ?"
            args.append(element_id)
        rows = self._query(sql + " ORDER BY a.seq LIMIT ?", (*args, limit))
        return [_event(r) for r in rows]

    def last_seq(self) -> int:
        """The seq of the newest activity event (0 when there is none)."""
        (row,) = self._query("SELECT COALESCE(MAX(seq), 0) AS seq FROM activity")
        return int(row["seq"])
