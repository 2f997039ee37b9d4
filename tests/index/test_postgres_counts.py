"""A search's access count on PostgreSQL never waits for a row lock: a hit that another
transaction holds (a writer, the embedder saving a batch) is returned as it is and not
counted that time, so a search neither stalls behind a writer nor deadlocks with one that
takes the same rows in the other order (``store.py``, ``_recall``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import psycopg
import pytest

from index import HashingEmbedder, MemorySettings, SearchResult
from index.postgres import Database, PostgresMemoryStore

SETTINGS = MemorySettings(subject_scoping=True, relevance_threshold=0.0)
HITS = 6


@pytest.fixture
def store(pg_database: Database, tmp_path: Path) -> Iterator[PostgresMemoryStore]:
    opened = PostgresMemoryStore(pg_database, str(tmp_path), HashingEmbedder(256))
    opened.store_many([{"content": f"budget river note {i}", "category": "fact"}
                       for i in range(HITS)], settings=SETTINGS)
    yield opened
    opened.close()


def _ids(store: PostgresMemoryStore) -> list[str]:
    """The element's memory ids in the order the old statement locked them (by id)."""
    with psycopg.connect(store._db.url, autocommit=True) as conn:
        return [str(r[0]) for r in conn.execute(
            "SELECT id FROM memories WHERE element = %s ORDER BY id", (store.element,))]


def _counts(store: PostgresMemoryStore) -> dict[str, int]:
    with psycopg.connect(store._db.url, autocommit=True) as conn:
        return {str(i): int(n) for i, n in conn.execute(
            "SELECT id, access_count FROM memories WHERE element = %s", (store.element,))}


class _Searching(threading.Thread):
    """A search of every memory on its own thread (what it found, or what it raised)."""

    def __init__(self, store: PostgresMemoryStore) -> None:
        super().__init__(daemon=True)
        self.store = store
        self.found: SearchResult | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.found = self.store.search(query="budget river", limit=HITS,
                                           settings=SETTINGS)
        except BaseException as exc:   # reported on the test's thread
            self.error = exc


class _Holder:
    """Another connection holding row locks in an open transaction, as a writer does."""

    def __init__(self, store: PostgresMemoryStore) -> None:
        self.element, self.url = store.element, store._db.url
        self.conn = psycopg.connect(self.url)
        self.pid = self.conn.info.backend_pid
        # Which backends wait for this one's locks, asked on a connection of its own.
        self.watch = psycopg.connect(self.url, autocommit=True)

    def lock(self, memory_id: str) -> None:
        self.conn.execute("SELECT 1 FROM memories WHERE element = %s AND id = %s "
                          "FOR UPDATE", (self.element, memory_id))

    def blocking(self) -> bool:
        """Whether some other backend waits for a lock this transaction holds."""
        row = self.watch.execute("SELECT count(*) FROM pg_stat_activity WHERE "
                                 "%s = ANY(pg_blocking_pids(pid))", (self.pid,)).fetchone()
        return bool(row and row[0])

    def until_done_or_waiting(self, search: _Searching) -> bool:
        """Wait for the search to end or to wait on this transaction's locks; whether
        it waited."""
        while search.is_alive():
            if self.blocking():
                return True
            search.join(0.02)
        return False

    def close(self, search: _Searching) -> None:
        # Ends the transaction (a search that waited then goes on), then the search.
        with suppress(psycopg.Error):
            self.conn.rollback()
        self.conn.close()
        self.watch.close()
        search.join()


def test_a_hit_another_transaction_holds_is_returned_at_once_and_counted_later(
        store: PostgresMemoryStore) -> None:
    """A writer holds one of a search's hits (``SELECT ... FOR UPDATE`` in an open
    transaction): the search does not wait for it; it returns every hit, the held one as
    it is, and counts the others; once the writer's transaction ends, the next search
    counts it too."""
    ids = _ids(store)
    held = ids[len(ids) // 2]
    holder = _Holder(store)
    search = _Searching(store)
    try:
        holder.lock(held)
        search.start()
        waited = holder.until_done_or_waiting(search)
        assert not waited, "the search waited for a row another transaction holds"
        assert search.error is None, search.error
        assert search.found is not None
        returned = {r["memory"]["id"]: r["memory"] for r in search.found.results}
        assert set(returned) == set(ids)
        assert returned[held]["access_count"] == 0
        assert all(returned[i]["access_count"] == 1 for i in ids if i != held)
        assert _counts(store) == {i: 0 if i == held else 1 for i in ids}
    finally:
        holder.close(search)
    store.search(query="budget river", limit=HITS, settings=SETTINGS)
    assert _counts(store) == {i: 1 if i == held else 2 for i in ids}


@pytest.mark.parametrize("first", ["last", "first"])
def test_a_search_and_a_writer_taking_its_hits_in_the_other_order_both_complete(
        store: PostgresMemoryStore, first: str) -> None:
    """A writer's transaction takes one hit (the last by id, or the first), a search of
    the same hits runs, then the writer takes another (the first, or the last) and
    commits: both complete without an error, whichever order a count would lock its
    hits in (one that locked them by id held the first while it waited for the last,
    which the writer held while it waited for the first: a deadlock, and one of the two
    aborted), and the hit the writer held first is not counted by that search."""
    ids = _ids(store)
    one, other = (ids[-1], ids[0]) if first == "last" else (ids[0], ids[-1])
    holder = _Holder(store)
    search = _Searching(store)
    try:
        holder.lock(one)
        search.start()
        holder.until_done_or_waiting(search)
        holder.lock(other)     # a deadlock aborts this statement or the search's
        holder.conn.commit()
        search.join()
        assert search.error is None, search.error
        assert search.found is not None
        assert {r["memory"]["id"] for r in search.found.results} == set(ids)
        assert _counts(store)[one] == 0
    finally:
        holder.close(search)
