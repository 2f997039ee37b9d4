"""Memories no longer current never crowd a current one out of a search (issue 23), on
both backends, on the exact path (a small pool) and the walked one (a pool past the exact
threshold: the file store's hnswlib walk, PostgreSQL's HNSW walk).

A person's fact superseded many times leaves many old versions that all resemble the
question; the current memory, worded otherwise, must still be found. A real model: the
question and the current memory share meaning, not words, so the lexical lane cannot
find it instead (that would hide the hole).
"""

from __future__ import annotations

from typing import Any

import pytest

from index import MemorySettings

# Caps above what the test stores: a cap evicts superseded memories first, which would
# hide the hole. Scoping on: Maria's own pool is searched (walked with an owner filter).
EVERYTHING = MemorySettings(relevance_threshold=0.0, subject_scoping=True,
                            max_memories=5000, max_per_subject=5000)
MARIA = {"subject_type": "circle_member", "subject_id": "maria"}
DAY = 86_400.0

# Other current memories of Maria's, on other matters: with 1,100 of them her pool is
# past both backends' exact threshold (1,024), so it is walked.
_TOPICS = ["the quarterly budget review went well", "the printer on floor two jammed again",
           "a recipe for lemon cake needs three eggs", "the football match ended in a draw",
           "the team retrospective ran long", "a new laptop arrived for the intern",
           "the train to the airport was delayed", "the library book is due on Friday",
           "the garden tomatoes need more water", "the tax form asks for last year's total",
           "the violin lesson moved to Thursday"]


@pytest.fixture(scope="module")
def model(model_cache: Any) -> Any:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


@pytest.mark.parametrize("others", [0, 1100], ids=["exact", "walked"])
def test_many_superseded_versions_do_not_crowd_out_the_current_memory(make_store, clock,
                                                                      model, others):
    store = make_store(embedder=model)
    if others:
        store.store_many([{"content": f"Note {i}: {_TOPICS[i % len(_TOPICS)]}",
                           "category": "context", **MARIA} for i in range(others)],
                         settings=EVERYTHING)
    previous: list[str] = []
    for number in range(200):
        clock.advance(DAY)
        previous = [store.store(content=f"Maria lives at number {number} on Rua Augusta "
                                "in Porto", category="fact", **MARIA, supersedes=previous,
                                settings=EVERYTHING).memory["id"]]
    clock.advance(DAY)
    current = store.store(content="Her home these days is a small flat by the river in "
                          "Lisbon", category="fact", **MARIA, supersedes=previous,
                          settings=EVERYTHING).memory
    found = store.search(query="Where does Maria live?", **MARIA, limit=5,
                         settings=EVERYTHING)
    assert found.results[0]["memory"]["id"] == current["id"]
    # Asked as of a day when an old version held, that version answers, not the current.
    then = store.get(previous[0])
    found = store.search(query="Where does Maria live?", **MARIA, limit=5,
                         as_of=then["valid_from"], settings=EVERYTHING)
    assert found.results[0]["memory"]["id"] == previous[0]
