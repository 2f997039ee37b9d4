"""The catalog: elements, versions, tokens and activity, in a SQLite file of the home
(``catalog.db``, WAL mode) or, with a database URL, in PostgreSQL.

Layout (the same tables in both)::

    elements(id, path UNIQUE, circle, slug, name, element_type, form, parent_id, state,
             description, properties JSON, meta JSON, version, created_at, updated_at)
    versions(element_id, version, spec JSON, message, created_at)   PK(element_id, version)
    tokens(id, token_hash UNIQUE, circle, role, name, created_at, revoked_at)
    activity(seq, element_id, circle, op, principal, detail JSON, at)
    attachments(id, target_id, source_id, source_version, priority, cascade_policy,
                is_modifier, created_by, created_at)   UNIQUE(target_id, source_id)
    spec_mirror(element_id, blob, commit_id, status, at)   the draft spec last mirrored
    observed_turns(element_id, digest, subject, at)   turns the subconscious has observed
    forgotten_subjects(element_id, subject_type, subject_id, at)   forget_subject's record,
                which memory import and restore honour (docs/backup.md)
    eval_runs(...)   each recall eval's score (``evals.py``, its own module)

A circle's path is its name; every other element's path is ``<circle>/<slug>``.

One class, one SQL text for both databases: the statements use what SQLite and PostgreSQL
share, and what differs (placeholders, rows, locks, errors, notifications) is the seam of
``sql.py``; ``postgres.py`` holds the PostgreSQL schema. Two copies of these methods would
drift apart one fix at a time; the seam is a few lines. The SQL of the element layer is in
this module, ``activity.py``, ``bookkeeping.py``, ``sql.py``/``postgres.py`` (the seam and
the schema), ``transfer.py`` (table copies) and ``governance/ratelimit.py`` (the windows):
the rest of ``element/`` asks the catalog in its own terms.

A transaction that reads a row and writes what it read into it (``merge_meta``, a new
version, the mirror's compare-and-swap) first takes :meth:`Tx.lock` on the element: a
no-op in SQLite, whose ``BEGIN IMMEDIATE`` already excludes every other writer, and in
PostgreSQL (READ COMMITTED) what keeps two workers from both reading version N.

The class is cut along what it keeps: this module has the elements, their versions and
attachments, and the tokens; ``activity.py`` the activity log (whose seqs become visible
in commit order, and whose commits notify other workers); ``bookkeeping.py`` what the
element layer records about its own work (the spec mirror, observed turns, forgotten
subjects). All of them run their SQL through ``sql.py``'s seam.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ElementNotFound, SlugTaken
from .activity import ACTIVITY_CHANNEL, ActivityLog
from .bookkeeping import Bookkeeping
from .evals import EvalRuns
from .sql import Conflict, Sql, SqliteSql, now_iso

# ACTIVITY_CHANNEL and now_iso are the package's from here (``activity.py``, ``sql.py``).
__all__ = ["Catalog", "Element", "backup_database", "ACTIVITY_CHANNEL", "now_iso"]


_SCHEMA = """
CREATE TABLE IF NOT EXISTS elements (
    id TEXT PRIMARY KEY, path TEXT NOT NULL UNIQUE, circle TEXT NOT NULL, slug TEXT,
    name TEXT NOT NULL, element_type TEXT NOT NULL, form TEXT NOT NULL, parent_id TEXT,
    state TEXT NOT NULL DEFAULT 'ready', description TEXT, properties TEXT NOT NULL,
    meta TEXT NOT NULL, version INTEGER NOT NULL, created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS elements_circle ON elements(circle);
CREATE TABLE IF NOT EXISTS versions (
    element_id TEXT NOT NULL, version INTEGER NOT NULL, spec TEXT NOT NULL,
    message TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (element_id, version));
CREATE TABLE IF NOT EXISTS tokens (
    id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, circle TEXT NOT NULL,
    role TEXT NOT NULL, name TEXT, created_at TEXT NOT NULL, revoked_at TEXT);
CREATE TABLE IF NOT EXISTS activity (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, element_id TEXT, circle TEXT NOT NULL,
    op TEXT NOT NULL, principal TEXT, detail TEXT NOT NULL, at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS activity_element ON activity(element_id, seq);
CREATE TABLE IF NOT EXISTS attachments (
    id TEXT PRIMARY KEY,
    target_id TEXT NOT NULL REFERENCES elements(id) ON DELETE CASCADE,
    source_id TEXT NOT NULL REFERENCES elements(id) ON DELETE CASCADE,
    source_version INTEGER, priority INTEGER NOT NULL, cascade_policy TEXT NOT NULL,
    is_modifier INTEGER NOT NULL, created_by TEXT, created_at TEXT NOT NULL,
    UNIQUE (target_id, source_id));
CREATE INDEX IF NOT EXISTS attachments_source ON attachments(source_id);
CREATE TABLE IF NOT EXISTS observed_turns (
    element_id TEXT NOT NULL, digest TEXT NOT NULL, subject TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (element_id, digest));
CREATE INDEX IF NOT EXISTS observed_turns_subject ON observed_turns(element_id, subject);
CREATE TABLE IF NOT EXISTS forgotten_subjects (
    element_id TEXT NOT NULL, subject_type TEXT NOT NULL, subject_id TEXT NOT NULL,
    at TEXT NOT NULL, PRIMARY KEY (element_id, subject_type, subject_id));
CREATE TABLE IF NOT EXISTS spec_mirror (
    element_id TEXT PRIMARY KEY, blob TEXT, commit_id TEXT, status TEXT NOT NULL, at TEXT);
CREATE TABLE IF NOT EXISTS console_sessions (
    id_hash TEXT PRIMARY KEY, token_id TEXT NOT NULL, expires_at TEXT NOT NULL);
"""


_ATTACHMENT_COLUMNS = ", ".join(f"a.{c}" for c in (
    "id", "target_id", "source_id", "source_version", "priority", "cascade_policy",
    "is_modifier", "created_by", "created_at"))


@dataclass
class Element:
    id: str
    path: str
    circle: str
    slug: str | None
    name: str
    element_type: str
    form: str
    parent_id: str | None
    state: str
    description: str | None
    properties: dict[str, Any]
    meta: dict[str, Any]
    version: int
    created_at: str
    updated_at: str
    #: The element's spec mirror state read in the same statement as this row
    #: (:meth:`Catalog.element_at_mirrored`; ``{"element_id": None, ...}``: no mirror row),
    #: else None. ``spec/mirror.py``'s cheap path trusts a row read with its state (a ref
    #: read after both finds any push since); ``dataclasses.replace`` drops it.
    mirror: dict[str, Any] | None = field(default=None, init=False, repr=False,
                                          compare=False)

    def public(self) -> dict[str, Any]:
        """The JSON form answered by the API."""
        return {k: getattr(self, k) for k in (
            "id", "path", "circle", "slug", "name", "element_type", "form", "parent_id",
            "state", "description", "properties", "meta", "version", "created_at",
            "updated_at")}


def _row_to_element(row: Mapping[str, Any]) -> Element:
    data = dict(row)
    data["properties"] = json.loads(data["properties"])
    data["meta"] = json.loads(data["meta"])
    return Element(**data)


def _version(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"version": row["version"], "label": f"v{row['version']}",
            "spec": json.loads(row["spec"]), "message": row["message"],
            "created_at": row["created_at"]}


class Catalog(ActivityLog, Bookkeeping):
    """The catalog of one data home: the SQLite file at ``path``, or with ``database`` (an
    ``index`` ``Database``) the home's PostgreSQL database (its tables migrated on open).
    Thread-safe."""

    def __init__(self, path: Path | None = None, *, database: Any = None) -> None:
        #: Called with each activity event after it is committed (the SSE feed subscribes).
        self.listeners: list[Callable[[dict[str, Any]], None]] = []
        self.sql: Sql
        if database is not None:
            from .postgres import PostgresSql   # psycopg only when a home has a database
            self.path: Path | None = None
            self.sql = PostgresSql(database)
        elif path is not None:
            self.path = Path(path)
            self.sql = SqliteSql(self.path, _SCHEMA)
            _upgrade_file(self.sql)
        else:
            raise ValueError("a catalog needs a path or a database")
        #: The elements' eval runs (``evals.py``: its own table and module).
        self.evals = EvalRuns(self.sql)

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        self.sql.close()

    # -- elements ---------------------------------------------------------------------
    def insert_element(self, element: Element, spec: dict[str, Any], message: str) -> None:
        """Insert an element and its first version entry, atomically.

        :raise SlugTaken: the path is in use.
        """
        try:
            with self._transaction() as tx:
                tx.execute(
                    "INSERT INTO elements VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (element.id, element.path, element.circle, element.slug, element.name,
                     element.element_type, element.form, element.parent_id, element.state,
                     element.description, json.dumps(element.properties),
                     json.dumps(element.meta), element.version, element.created_at,
                     element.updated_at))
                tx.execute("INSERT INTO versions VALUES (?,?,?,?,?)",
                            (element.id, element.version, json.dumps(spec), message,
                            element.created_at))
        except Conflict as exc:
            raise SlugTaken(element.path) from exc

    def element_at(self, path: str) -> Element:
        """:raise ElementNotFound: nothing lives at ``path``."""
        rows = self._query("SELECT * FROM elements WHERE path = ?", (path,))
        if not rows:
            raise ElementNotFound(path)
        return _row_to_element(rows[0])

    def element_id_at(self, path: str) -> str | None:
        """The id of the element at ``path``, or None: one indexed lookup (the git mount)."""
        rows = self._query("SELECT id FROM elements WHERE path = ?", (path,))
        return str(rows[0]["id"]) if rows else None

    def element(self, element_id: str) -> Element:
        rows = self._query("SELECT * FROM elements WHERE id = ?", (element_id,))
        if not rows:
            raise ElementNotFound(element_id)
        return _row_to_element(rows[0])

    def element_mirrored(self, element_id: str) -> tuple[Element, dict[str, Any] | None]:
        """The element and its spec mirror's state (:meth:`mirror_state`), in one statement:
        the row is the one that mirror left, or newer (``spec/mirror.py``'s cheap path)."""
        element = self._mirrored("e.id", element_id)
        state = element.mirror
        element.mirror = None
        return element, state if state and state["element_id"] is not None else None

    def element_at_mirrored(self, path: str) -> Element:
        """:meth:`element_at`, its spec mirror's state read in the same statement
        (``Element.mirror``): the op path reads both once a request (issue 29).

        :raise ElementNotFound: nothing lives at ``path``.
        """
        return self._mirrored("e.path", path)

    def _mirrored(self, column: str, value: str) -> Element:
        rows = self._query("SELECT e.*, m.element_id AS mirror_of, m.blob AS mirror_blob, "
                           "m.commit_id AS mirror_commit, m.status AS mirror_status, "
                           "m.at AS mirror_at FROM elements e LEFT JOIN spec_mirror m "
                           f"ON m.element_id = e.id WHERE {column} = ?", (value,))
        if not rows:
            raise ElementNotFound(value)
        data = dict(rows[0])
        state = {key: data.pop(f"mirror_{name}") for key, name in (
            ("element_id", "of"), ("blob", "blob"), ("commit_id", "commit"),
            ("status", "status"), ("at", "at"))}
        element = _row_to_element(data)
        element.mirror = state
        return element

    def elements(self, circle: str | None = None) -> list[Element]:
        if circle is None:
            rows = self._query("SELECT * FROM elements ORDER BY path")
        else:
            rows = self._query("SELECT * FROM elements WHERE circle = ? ORDER BY path", (circle,))
        return [_row_to_element(r) for r in rows]

    def count_elements(self, circle: str) -> int:
        """How many elements (deleted ones aside) ``circle`` holds, itself included."""
        rows = self._query("SELECT COUNT(*) AS n FROM elements WHERE circle = ? AND "
                           "state != 'deleted'", (circle,))
        return int(rows[0]["n"])

    def children(self, element: Element) -> list[Element]:
        rows = self._query("SELECT * FROM elements WHERE parent_id = ? ORDER BY path",
                           (element.id,))
        return [_row_to_element(r) for r in rows]

    def update_element(self, element_id: str, **fields: Any) -> Element:
        """Set columns of one element; dict values are stored as JSON."""
        fields["updated_at"] = now_iso()
        cols = ", ".join(f"{k} = ?" for k in fields)
        values = [json.dumps(v) if isinstance(v, dict) else v for v in fields.values()]
        with self._transaction() as tx:
            tx.execute(f"UPDATE elements SET {cols} WHERE id = ?", (*values, element_id))
        return self.element(element_id)

    def merge_meta(self, element_id: str, patch: dict[str, Any], *,
                   drop: tuple[str, ...] = (), **fields: Any) -> Element:
        """Shallow-merge ``patch`` into meta (removing ``drop`` keys) and set ``fields``.

        Read and write happen in one transaction, so concurrent merges of different keys
        both survive. The version is not bumped.
        """
        with self._transaction() as tx:
            tx.lock(f"element:{element_id}")
            row = tx.execute("SELECT meta FROM elements WHERE id = ?",
                             (element_id,)).fetchone()
            if row is None:
                raise ElementNotFound(element_id)
            meta = {k: v for k, v in json.loads(row["meta"]).items() if k not in drop}
            meta.update(patch)
            fields.update(meta=json.dumps(meta), updated_at=now_iso())
            cols = ", ".join(f"{k} = ?" for k in fields)
            tx.execute(f"UPDATE elements SET {cols} WHERE id = ?",
                       (*fields.values(), element_id))
        return self.element(element_id)

    def delete_element(self, element_id: str) -> None:
        with self._transaction() as tx:
            tx.execute("DELETE FROM observed_turns WHERE element_id = ?", (element_id,))
            tx.execute("DELETE FROM versions WHERE element_id = ?", (element_id,))
            tx.execute("DELETE FROM elements WHERE id = ?", (element_id,))

    # -- versions ---------------------------------------------------------------------
    def add_version(self, element_id: str, spec: dict[str, Any], message: str,
                    **fields: Any) -> int:
        """Record a new version of an element's spec and bump its version; returns N."""
        with self._transaction() as tx:
            tx.lock(f"element:{element_id}")
            version = int(tx.execute("SELECT version FROM elements WHERE id = ?",
                                     (element_id,)).fetchone()["version"]) + 1
            tx.execute("INSERT INTO versions VALUES (?,?,?,?,?)",
                       (element_id, version, json.dumps(spec), message, now_iso()))
            fields.update(version=version, updated_at=now_iso())
            cols = ", ".join(f"{k} = ?" for k in fields)
            values = [json.dumps(v) if isinstance(v, dict) else v for v in fields.values()]
            tx.execute(f"UPDATE elements SET {cols} WHERE id = ?", (*values, element_id))
        return version

    def versions(self, element_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """An element's versions, newest first."""
        rows = self._query("SELECT * FROM versions WHERE element_id = ? ORDER BY version DESC "
                           "LIMIT ?", (element_id, limit))
        return [_version(r) for r in rows]

    def version_entry(self, element_id: str, version: int) -> dict[str, Any] | None:
        """One version of an element (number, label, spec, message, time), or None."""
        rows = self._query("SELECT * FROM versions WHERE element_id = ? AND version = ?",
                            (element_id, version))
        return _version(rows[0]) if rows else None

    def spec_at(self, element_id: str, version: int) -> dict[str, Any] | None:
        """The spec of one version of an element, or None if it has no such version."""
        rows = self._query("SELECT spec FROM versions WHERE element_id = ? AND version = ?",
                           (element_id, version))
        return json.loads(rows[0]["spec"]) if rows else None

    # -- attachments ------------------------------------------------------------------
    def attachments(self, *, target_id: str | None = None, circle: str | None = None,
                    cascading: bool = False) -> list[dict[str, Any]]:
        """Attachment rows on one target, or on every element of ``circle``.

        ``cascading`` keeps only rows whose cascade policy is not ``none``. Ordered by
        priority (lower first), then attach order.
        """
        sql = (f"SELECT {_ATTACHMENT_COLUMNS} FROM attachments a JOIN elements e "
               "ON e.id = a.target_id WHERE 1 = 1")
        args: tuple[Any, ...] = ()
        if target_id is not None:
            sql, args = sql + " AND a.target_id = ?", (*args, target_id)
        if circle is not None:
            sql, args = sql + " AND e.circle = ?", (*args, circle)
        if cascading:
            sql += " AND a.cascade_policy != 'none'"
        order = "a.pos" if self.in_database else "a.rowid"
        return [dict(r) for r in self._query(sql + f" ORDER BY a.priority, {order}",
                                            args)]

    def governing_attachments(self, element: Element) -> tuple[list[dict[str, Any]],
                                                              list[dict[str, Any]]]:
        """:meth:`attachments` on ``element``, and the cascading ones on the other elements
        of its circle, in one query (each list in that method's order)."""
        rows = self._query(f"SELECT {_ATTACHMENT_COLUMNS} FROM attachments a JOIN elements e "
                           "ON e.id = a.target_id WHERE e.circle = ? AND (a.target_id = ? "
                           "OR a.cascade_policy != 'none') ORDER BY a.priority, "
                           f"{'a.pos' if self.in_database else 'a.rowid'}",
                           (element.circle, element.id))
        own = [dict(r) for r in rows if r["target_id"] == element.id]
        return own, [dict(r) for r in rows if r["target_id"] != element.id]

    def move_attachments(self, old_id: str, new_id: str) -> None:
        """Every attachment to or from ``old_id`` now names ``new_id`` (an element replaced
        by an import keeps what governs it and what it governs)."""
        with self._transaction() as tx:
            tx.execute("UPDATE attachments SET target_id = ? WHERE target_id = ?",
                       (new_id, old_id))
            tx.execute("UPDATE attachments SET source_id = ? WHERE source_id = ?",
                       (new_id, old_id))

    def change_attachments(self, target_id: str, add: list[dict[str, Any]],
                           remove: list[str]) -> None:
        """Delete ``remove`` (attachment ids of ``target_id``), then insert ``add``: at once.

        :raise KeyError: an id in ``remove`` is not attached to ``target_id`` (nothing
            changes).
        :raise ValueError: a source in ``add`` is already attached to ``target_id``
            (nothing changes).
        """
        cols = ("id", "target_id", "source_id", "source_version", "priority",
                "cascade_policy", "is_modifier", "created_by", "created_at")
        with self._transaction() as tx:
            for attachment_id in remove:
                cur = tx.execute("DELETE FROM attachments WHERE id = ? AND target_id = ?",
                                  (attachment_id, target_id))
                if cur.rowcount != 1:
                    raise KeyError(attachment_id)
            for row in add:
                try:
                    tx.execute(f"INSERT INTO attachments ({', '.join(cols)}) VALUES "
                               f"({', '.join('?' * len(cols))})",
                               tuple(int(row[c]) if c == "is_modifier" else row[c]
                                     for c in cols))
                except Conflict as exc:
                    raise ValueError(row["source_id"]) from exc

    def element_counts(self, element_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Per element: activity events (and the last one's time), attachments, children
        and versions, by one GROUP BY query each."""
        counts = {i: {"activity": 0, "last_activity_at": None, "attachments": 0,
                      "children": 0, "versions": 0} for i in element_ids}
        if not element_ids:
            return counts
        marks = ",".join("?" * len(element_ids))
        queries = {
            "activity": f"SELECT element_id AS id, COUNT(*) AS n, MAX(at) AS last FROM "
                        f"activity WHERE element_id IN ({marks}) GROUP BY element_id",
            "attachments": f"SELECT target_id AS id, COUNT(*) AS n, NULL AS last FROM "
                           f"attachments WHERE target_id IN ({marks}) GROUP BY target_id",
            "children": f"SELECT parent_id AS id, COUNT(*) AS n, NULL AS last FROM elements "
                        f"WHERE parent_id IN ({marks}) GROUP BY parent_id",
            "versions": f"SELECT element_id AS id, COUNT(*) AS n, NULL AS last FROM versions "
                        f"WHERE element_id IN ({marks}) GROUP BY element_id",
        }
        for key, sql in queries.items():
            for r in self._query(sql, tuple(element_ids)):
                counts[r["id"]][key] = r["n"]
                if key == "activity":
                    counts[r["id"]]["last_activity_at"] = r["last"]
        return counts

    # -- tokens -----------------------------------------------------------------------
    def add_token(self, token_id: str, token_hash: str, circle: str, role: str,
                  name: str | None) -> None:
        with self._transaction() as tx:
            tx.execute("INSERT INTO tokens VALUES (?,?,?,?,?,?,NULL)",
                       (token_id, token_hash, circle, role, name, now_iso()))

    def token_by_hash(self, token_hash: str) -> dict[str, Any] | None:
        rows = self._query("SELECT * FROM tokens WHERE token_hash = ? AND revoked_at IS NULL",
                           (token_hash,))
        return dict(rows[0]) if rows else None

    def tokens(self, circle: str | None = None) -> list[dict[str, Any]]:
        sql, args = "SELECT * FROM tokens", tuple[str, ...]()
        if circle is not None:
            sql, args = sql + " WHERE circle = ?", (circle,)
        return [{k: r[k] for k in ("id", "circle", "role", "name", "created_at", "revoked_at")}
                for r in self._query(sql + " ORDER BY created_at", args)]

    # -- console sessions: an opaque id (stored hashed) standing for a token ------------
    def add_session(self, id_hash: str, token_id: str, expires_at: str) -> None:
        """Record a console session (and forget the expired ones)."""
        with self._transaction() as tx:
            tx.execute("DELETE FROM console_sessions WHERE expires_at < ?", (now_iso(),))
            tx.execute("INSERT INTO console_sessions VALUES (?,?,?)",
                       (id_hash, token_id, expires_at))

    def session_token(self, id_hash: str) -> dict[str, Any] | None:
        """The token row of a live session whose token is not revoked, else None."""
        rows = self._query(
            "SELECT t.* FROM console_sessions s JOIN tokens t ON t.id = s.token_id "
            "WHERE s.id_hash = ? AND s.expires_at > ? AND t.revoked_at IS NULL",
            (id_hash, now_iso()))
        return dict(rows[0]) if rows else None

    def end_session(self, id_hash: str) -> None:
        with self._transaction() as tx:
            tx.execute("DELETE FROM console_sessions WHERE id_hash = ?", (id_hash,))

    def revoke_token(self, token_id: str) -> bool:
        with self._transaction() as tx:
            cur = tx.execute("UPDATE tokens SET revoked_at = ? WHERE id = ? AND "
                             "revoked_at IS NULL", (now_iso(), token_id))
            return cur.rowcount == 1

    def backup(self, dest: Path) -> None:
        """Copy the catalog to the new SQLite file ``dest``: one consistent snapshot while
        other connections (this process's or a server's) keep writing (SQLite's online
        backup, or from PostgreSQL a copy read in one snapshot)."""
        if self.path is not None:
            backup_database(self.path, dest)
            return
        from .transfer import copy_catalog
        with tempfile.TemporaryDirectory(dir=Path(dest).parent) as scratch:
            copy = Catalog(Path(scratch) / "catalog.db")
            try:
                copy_catalog(self, copy)
            finally:
                copy.close()
            backup_database(Path(scratch) / "catalog.db", dest)


def _upgrade_file(sql: Sql) -> None:
    """Bring a catalog file's rows up to this version, once (its ``user_version``; a
    PostgreSQL catalog has its migrations in ``postgres.py``). Safe when several
    processes open the file at once: the first does it, under ``BEGIN IMMEDIATE``."""
    with sql.transaction() as tx:
        if int(tx.execute("PRAGMA user_version").fetchone()["user_version"]) >= 1:
            return
        # 1: observed turns' subject keys were "type NUL id"; PostgreSQL text cannot hold
        # NUL, so both backends now use "type US id" (element/agents/observed.py).
        rows = tx.execute("SELECT element_id, digest, subject FROM observed_turns").fetchall()
        tx.executemany("UPDATE observed_turns SET subject = ? WHERE element_id = ? AND "
                       "digest = ?", [(r["subject"].replace("\x00", "\x1f"), r["element_id"],
                                       r["digest"]) for r in rows if "\x00" in r["subject"]])
        tx.execute("PRAGMA user_version = 1")


def backup_database(source: Path, dest: Path) -> None:
    """SQLite's online backup of the database at ``source`` into a new file ``dest``,
    fsynced; safe while another process writes it (WAL)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
    try:
        out = sqlite3.connect(dest)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")
        finally:
            out.close()
    finally:
        src.close()
    with open(dest, "rb") as f:
        os.fsync(f.fileno())
