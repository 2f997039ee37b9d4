"""A search sees the store at one instant, whatever the background embedder does meanwhile
(both backends): a memory being given its vectors is found, by its words before or by
its vectors after, never lost between the two.

On PostgreSQL a search reads the rows with vectors and the rows without in separate
statements; each in a snapshot of its own, a row embedded between them was in neither
(``test_profile.py`` added instead of superseding, one run in a few under load). No gate
can stop the embedder between two statements of a search, so writes that are embedded
behind race searches for a few seconds here: before the fix about one search in a
hundred lost a memory.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from index import MemorySettings

EVERYTHING = MemorySettings(relevance_threshold=0.0, max_memories=100_000)
#: The race is run for at least this long and this many searches: a count, not only a
#: span, so that a loaded machine (a search a few hundred ms) still races enough of them.
SECONDS = 2.0
SEARCHES = 30


@pytest.mark.parametrize("walked", [False, True])
def test_a_memory_being_embedded_is_never_missing_from_a_search(
        make_store: Any, backend: str, walked: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``walked``: on PostgreSQL every pool is walked (HNSW, on the spare connection when
    one is free, beside the postings) instead of scored whole."""
    if walked:
        if backend != "postgres":
            pytest.skip("PostgreSQL's walked pools")
        from index.postgres import search as pg_search
        monkeypatch.setattr(pg_search, "EXACT_MAX", 0)
    store = make_store()
    stop = threading.Event()
    stored: list[str] = []

    def write() -> None:
        i = 0
        while not stop.is_set():
            stored.append(store.store(content=f"Ana keeps parcel {i} in the shed",
                                      category="fact", settings=EVERYTHING,
                                      embed_later=True).memory["id"])
            i += 1
            time.sleep(0.002)

    writer = threading.Thread(target=write)
    writer.start()
    lost: list[str] = []
    searches = 0
    try:
        deadline = time.monotonic() + SECONDS
        while time.monotonic() < deadline or searches < SEARCHES:
            before = set(stored)
            found = store.search(query="where does Ana keep the parcel", limit=100,
                                 settings=EVERYTHING, count_access=False)
            seen = {r["memory"]["id"] for r in found.results}
            if len(seen) < 100:      # every memory fits: none may be missing
                lost.extend(before - seen)
            searches += 1
    finally:
        stop.set()
        writer.join()
    assert searches >= SEARCHES and len(stored) > 0
    assert lost == []


def test_the_walks_on_the_spare_connection_see_the_search_s_instant(
        make_store: Any, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A large pool's HNSW walks run on a second connection (``Database.spare``): memories
    committed between the search's first statements and those walks, nearer the query
    than any before, filled the walk in its own later snapshot; read at the search's
    instant they were not there, and the memories the walk pushed out were lost (here
    every one: the search found nothing)."""
    if backend != "postgres":
        pytest.skip("PostgreSQL's walks on a spare connection")
    from index.postgres import search as pg_search
    monkeypatch.setattr(pg_search, "EXACT_MAX", 0)        # every pool walked
    store = make_store()
    for i in range(12):      # no word of the query: found by their vectors only
        store.store(content=f"crate {i} of lemons", category="fact", settings=EVERYTHING)
    walk_beside = pg_search._Search._walk_beside
    later = make_store()     # the same element, its own connections

    def after_writes(self: Any, *args: Any) -> None:
        if not getattr(after_writes, "done", False):
            after_writes.done = True    # type: ignore[attr-defined]
            later.store_many([{"content": "where does Ana keep the parcel",
                               "category": "fact"} for _ in range(80)],
                             settings=EVERYTHING)
        walk_beside(self, *args)
    monkeypatch.setattr(pg_search._Search, "_walk_beside", after_writes)
    found = store.search(query="where does Ana keep the parcel", limit=10,
                         settings=EVERYTHING, count_access=False)
    assert getattr(after_writes, "done", False)             # the walks ran on the spare
    # At its instant the element held the crates only: the ten nearest of them.
    assert len(found.results) == 10
    assert {r["memory"]["content"] for r in found.results} <= \
        {f"crate {i} of lemons" for i in range(12)}
