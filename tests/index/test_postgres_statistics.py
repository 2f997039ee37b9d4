"""A bulk write on PostgreSQL leaves the memory tables analysed (``statistics.py``), so
the next search is planned for the table's new size, not for the empty table it was."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from index import HashingEmbedder, MemorySettings
from index.postgres import Database, PostgresMemoryStore
from index.postgres.statistics import TABLES, due
from tests.index.test_postgres_plans import hop_plans

SETTINGS = MemorySettings(subject_scoping=True, relevance_threshold=0.0,
                          max_memories=100_000, max_per_subject=100_000)
WORDS = ("garden coffee office beach budget river violin doctor school mountain painting "
         "concert window table market letter bridge station").split()


def _items(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        item: dict[str, Any] = {
            "content": f"{WORDS[i % 18]} {WORDS[i * 7 % 18]} {WORDS[i * 5 % 17]} note{i}",
            "category": "fact"}
        if i % 2:
            item.update(subject_type="guest", subject_id=f"g{i % 40}")
        out.append(item)
    return out


def _reltuples(conn: psycopg.Connection[Any], table: str) -> float:
    row = conn.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass",
                       (table,)).fetchone()
    assert row is not None
    return float(row[0])


def test_the_rule_is_autovacuums_on_the_estimated_rows() -> None:
    """A table never analysed (``-1``) counts as empty; else the share of its rows."""
    assert due(50, -1.0, 50, 0.1) and not due(49, -1.0, 50, 0.1)
    assert due(350, 3000.0, 50, 0.1) and not due(349, 3000.0, 50, 0.1)


def test_a_bulk_write_leaves_the_tables_analysed_and_the_search_on_its_indexes(
        pg_server: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """After ``store_many`` of 3000 memories into a fresh table (autovacuum off, so only
    the store can have analysed it) the planner knows the tables' size and columns, and
    the hop's statement reads the rows its postings name through ``memories_seq``."""
    url = pg_server.create_database("bulk_analysed")
    db = Database(url)
    plans = hop_plans(monkeypatch)
    store = PostgresMemoryStore(db, "bulk", HashingEmbedder(256))
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            for table in TABLES:
                conn.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = off)".encode())
            assert _reltuples(conn, "memories") < 0        # never analysed
            store.store_many(_items(3000), settings=SETTINGS)
            for table in TABLES:
                assert _reltuples(conn, table) > 0, table
            assert _reltuples(conn, "memories") == pytest.approx(3000, rel=0.05)
            columns = {str(r[0]) for r in conn.execute(
                "SELECT attname FROM pg_stats WHERE tablename = 'memories'")}
            assert {"element", "seq", "subject_type"} <= columns
        store.search(query="violin doctor note7", limit=10, settings=SETTINGS)
        assert plans, "the search made no hop"
        for plan in plans:
            assert "memories_seq" in plan, plan
            assert "Seq Scan on memories" not in plan, plan
    finally:
        store.close()
        db.close()
