"""Copy a catalog whole from one backend to the other (``triform migrate``, and the backup
of a catalog kept in PostgreSQL), then check the copy.

:func:`catalog_snapshot` reads every table in one ``REPEATABLE READ`` transaction and
leaves it open for the block, so a backup reads the memories on the same connection, at
the same instant; :func:`write_rows` then makes a catalog (the backup's ``catalog.db``)
hold exactly those rows.

The target becomes the source, table by table, row for row (activity seqs, ids and JSON
text kept as they are), in one transaction: a copy never leaves half a catalog. A catalog
is small next to its memories (a few rows per element, one per activity event), so each
table is read whole. Rate windows are not copied: they forget within their window anyway.

Re-runnable: a table whose rows already match is not written, so a second run changes
nothing. And safe to run the wrong way round: a target that recorded activity after the
source's newest event (the home was served on it since the last copy) is refused rather
than overwritten with older rows (:class:`CatalogAhead`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..errors import ElementError
from .evals import COLUMNS

if TYPE_CHECKING:
    from .catalog import Catalog

__all__ = ["TABLES", "CatalogAhead", "copy_catalog", "catalog_snapshot", "write_rows",
           "Rows"]

#: Every table's rows, as :func:`catalog_snapshot` reads them.
Rows = dict[str, list[tuple[Any, ...]]]

#: Each table, its columns (those both backends share) and the order rows are read in.
TABLES: dict[str, tuple[tuple[str, ...], str]] = {
    "elements": (("id", "path", "circle", "slug", "name", "element_type", "form",
                  "parent_id", "state", "description", "properties", "meta", "version",
                  "created_at", "updated_at"), "id"),
    "versions": (("element_id", "version", "spec", "message", "created_at"),
                 "element_id, version"),
    "tokens": (("id", "token_hash", "circle", "role", "name", "created_at", "revoked_at"),
               "id"),
    "activity": (("seq", "element_id", "circle", "op", "principal", "detail", "at"), "seq"),
    # Attach order matters (it breaks ties of priority): read in it, written in it.
    "attachments": (("id", "target_id", "source_id", "source_version", "priority",
                     "cascade_policy", "is_modifier", "created_by", "created_at"),
                    "priority, {insertion}"),
    "observed_turns": (("element_id", "digest", "subject", "at"), "element_id, digest"),
    "forgotten_subjects": (("element_id", "subject_type", "subject_id", "at"),
                           "element_id, subject_type, subject_id"),
    "spec_mirror": (("element_id", "blob", "commit_id", "status", "at"), "element_id"),
    # Read in seq order and inserted in it, without the seq (each backend numbers its own
    # rows: a PostgreSQL identity does not move past values written into it).
    "eval_runs": (COLUMNS[1:], "seq"),
}
# Children before parents when deleting; parents first when inserting.
_DELETE_ORDER = ("eval_runs", "attachments", "versions", "observed_turns", "forgotten_subjects",
                 "spec_mirror", "activity", "tokens", "elements")


class CatalogAhead(ElementError):
    """The target catalog recorded activity the source lacks: copying would lose it."""

    code = "CATALOG_AHEAD"
    error_class = "conflict"
    retryable = False

    def __init__(self, target_seq: int, source_seq: int) -> None:
        super().__init__(
            f"the target catalog is ahead of the source (activity up to seq {target_seq}, "
            f"the source's ends at {source_seq}): the home was served on it since it was "
            "copied there, and copying now would lose that; migrate the other way")
        self.target_seq, self.source_seq = target_seq, source_seq


def _select(in_database: bool, table: str) -> str:
    columns, order = TABLES[table]
    insertion = "pos" if in_database else "rowid"
    return f"SELECT {', '.join(columns)} FROM {table} ORDER BY " \
        + order.format(insertion=insertion)


def _read(catalog: Catalog) -> Rows:
    """Every table's rows, read in one snapshot."""
    with catalog.sql.transaction() as tx:
        if catalog.in_database:
            tx.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _tables(tx, catalog.in_database)


def _tables(tx: Any, in_database: bool) -> Rows:
    return {table: [_values(row, TABLES[table][0])
                    for row in tx.execute(_select(in_database, table)).fetchall()]
            for table in TABLES}


@contextmanager
def catalog_snapshot(catalog: Catalog) -> Iterator[tuple[Rows, Any]]:
    """``(rows, connection)``: every table of a catalog kept in PostgreSQL, read in one
    read-only ``REPEATABLE READ`` transaction that stays open for the block, and the
    connection it runs on: what else is read there sees the same instant.

    :raise ValueError: the catalog is a file (SQLite's online backup is its snapshot).
    """
    if not catalog.in_database:
        raise ValueError("a catalog file is backed up with SQLite's online backup")
    from .postgres import PostgresSql
    assert isinstance(catalog.sql, PostgresSql)
    with catalog.sql.snapshot() as tx:
        yield _tables(tx, True), tx.connection


def _values(row: Mapping[str, Any], columns: Sequence[str]) -> tuple[Any, ...]:
    # A NUL in a file catalog's text (PostgreSQL keeps none: issue 26) travels as U+FFFD,
    # on both sides of the comparison, so a copy of such a catalog still checks out.
    return tuple(row[column].replace("\x00", "\ufffd") if isinstance(row[column], str)
                 else row[column] for column in columns)


def copy_catalog(source: Catalog, target: Catalog) -> dict[str, Any]:
    """Make ``target`` a copy of ``source``; then read both back and compare.

    Returns ``tables`` (per table: ``rows`` in the source, ``written``: rows inserted,
    0 when the table matched already, ``replaced``: the rows the target held before, which
    the copy replaced) and ``verified`` (every table of the target now equals the
    source's).

    :raise CatalogAhead: the target holds newer activity than the source.
    """
    return write_rows(_read(source), target)


def write_rows(rows: Rows, target: Catalog) -> dict[str, Any]:
    """Make ``target`` hold exactly ``rows`` (as :func:`copy_catalog`, which see)."""
    before = _read(target)
    source_seq = max((row[0] for row in rows["activity"]), default=0)
    target_seq = max((row[0] for row in before["activity"]), default=0)
    if target_seq > source_seq:
        raise CatalogAhead(target_seq, source_seq)
    changed = [table for table in TABLES if rows[table] != before[table]]
    report: dict[str, dict[str, int]] = {
        table: {"rows": len(rows[table]), "written": 0, "replaced": 0} for table in TABLES}
    if changed:
        with target.sql.transaction() as tx:
            # Every table that changed, and those whose rows point at them, are rewritten.
            for table in _DELETE_ORDER:
                if table in changed or "elements" in changed:
                    report[table]["replaced"] = len(before[table])
                    tx.execute(f"DELETE FROM {table}")
            for table in reversed(_DELETE_ORDER):
                if table in changed or "elements" in changed:
                    columns = TABLES[table][0]
                    if rows[table]:
                        tx.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES "
                                       f"({', '.join('?' * len(columns))})", rows[table])
                    report[table]["written"] = len(rows[table])
    after = _read(target)
    return {"tables": report, "verified": all(after[t] == rows[t] for t in TABLES)}
