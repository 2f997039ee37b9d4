"""The lexical second hop (``index/hop.py``): a memory that shares only the top hit's rare
word comes up in places 8-10, the first 7 places never move, scores still read in order,
and PostgreSQL finds and ranks the same memories as the file store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import HashingEmbedder, IndexParams, MemorySettings, MemoryStore
from index.hop import HOP_KEEP, hop_order, hop_words, shown

SETTINGS = MemorySettings(subject_scoping=True, relevance_threshold=0.0, max_memories=1000,
                          max_per_subject=1000)
QUESTION = "which team sport"
TOP = "team sport kickboxing on tuesdays"
# A word of the question among many others, and the top hit's rare word.
SHARES = "kickboxing gloves arrived for the sport season at the club this week"
ELSEWHERE = "kickboxing gloves for the guest"  # the same, another subject's


def _items() -> list[dict[str, Any]]:
    """300 memories: 40 that say a word of the question, the rest other words; the top
    hit, and two that share only its rare word (one of a guest's)."""
    rng = np.random.default_rng(7)
    common = ("garden coffee office beach budget river violin doctor school mountain "
              "painting concert window table market letter bridge station").split()
    items: list[dict[str, Any]] = []
    for i in range(297):
        if i < 40:
            # A word of the question said 1-3 times among 1-14 others: no two of these
            # score alike (equal scores could swap between the backends' floats).
            words = ["team" if i % 2 else "sport"] * (1 + i % 3) \
                + list(rng.choice(common, 1 + i // 3, replace=False))
        else:
            words = list(rng.choice(common, 2 + i % 5))
        items.append({"content": " ".join(words) + f" note{i}", "category": "fact"})
    items.insert(150, {"content": TOP, "category": "fact"})
    items.insert(20, {"content": SHARES, "category": "fact"})
    items.append({"content": ELSEWHERE, "category": "fact", "subject_type": "guest",
                  "subject_id": "g"})
    return items


def _contents(found: Any) -> list[str]:
    return [r["memory"]["content"] for r in found.results]


def test_the_words_are_the_top_hits_rarest_that_the_query_lacks() -> None:
    frequency = {"team": 40, "sport": 3, "kickbox": 2, "tuesday": 1, "glove": 5}
    def count(words: list[str]) -> dict[str, int]:
        return {w: frequency[w] for w in words if w in frequency}
    # "sport" is the query's, "tuesday" the top hit's alone, "team" too common.
    assert hop_words(["team", "sport", "kickbox", "tuesday", "glove"], "which sport?",
                     count, 500) == ["glove", "kickbox"]
    assert hop_words(["kickbox"], "which sport?", count, 199) == []   # none can be rare


def test_the_merge_keeps_the_first_places_and_reads_in_order() -> None:
    first = np.array([.9, .8, .7, .6, .55, .5, .45, .4, .35, .3, .2, .1])
    second = first.copy()
    second[11] = .95                                 # the hop's find, last in the first
    seq = np.arange(12)
    order = np.argsort(-first)
    merged = hop_order(order, order, np.array([11]), first, second[[11]], seq, 3)
    assert merged[:HOP_KEEP].tolist() == order[:HOP_KEEP].tolist()
    assert 11 in merged[HOP_KEEP:HOP_KEEP + 3].tolist()
    assert sorted(merged.tolist()) == sorted(order.tolist())
    scores = shown(first[merged])
    assert np.all(np.diff(scores) <= 0)
    lifted = scores != first[merged]
    assert merged[lifted].tolist() == [11]
    assert scores[merged.tolist().index(11)] <= first[order[HOP_KEEP]]


def test_a_memory_sharing_the_top_hits_rare_word_comes_up_in_the_last_places(
        make_store: Any, tmp_path: Path) -> None:
    off = make_store(directory=tmp_path / "off", index_params=IndexParams(hop_places=0))
    on = make_store(directory=tmp_path / "on")
    for store in (off, on):
        store.store_many(_items(), settings=SETTINGS)
    plain = _contents(off.search(query=QUESTION, limit=10, settings=SETTINGS))
    found = on.search(query=QUESTION, limit=10, settings=SETTINGS)
    hopped = _contents(found)
    assert plain[0] == hopped[0] == TOP
    assert SHARES not in plain and SHARES in hopped[HOP_KEEP:]
    assert hopped[:HOP_KEEP] == plain[:HOP_KEEP]
    assert ELSEWHERE not in hopped                   # another subject's, out of scope
    scores = [r["score"] for r in found.results]
    assert scores == sorted(scores, reverse=True)
    # A search of 7 results has no place for the hop.
    assert _contents(on.search(query=QUESTION, limit=7, settings=SETTINGS)) == plain[:7]
    # Outside its filters the hop finds nothing: a category it is not in.
    kept = on.search(query=QUESTION, limit=10, settings=SETTINGS, categories=["preference"])
    assert SHARES not in _contents(kept)


@pytest.mark.parametrize("exact_max", [1024, 0], ids=["scored-whole", "walked"])
def test_postgres_hops_as_the_file_store(pg_database: Any, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         exact_max: int) -> None:
    """The same words, the same memories, the same order and scores on both backends, on
    either plan of PostgreSQL (a walked pool's BM25 comes from the postings)."""
    from index.postgres import PostgresMemoryStore
    from index.postgres import search as pg_search
    monkeypatch.setattr(pg_search, "EXACT_MAX", exact_max)
    file_store = MemoryStore(tmp_path / "file", HashingEmbedder(256))
    store = PostgresMemoryStore(pg_database, str(tmp_path), HashingEmbedder(256))
    try:
        for backend in (file_store, store):
            backend.store_many(_items(), settings=SETTINGS)
        searches: list[dict[str, Any]] = [
            {"query": QUESTION}, {"query": "team sport", "limit": 12},
            {"query": QUESTION, "subject_type": "guest", "subject_id": "g"},
            {"query": "team sport club", "context": "garden coffee"}]
        for search in searches:
            search.setdefault("limit", 10)
            want = file_store.search(settings=SETTINGS, **search)
            got = store.search(settings=SETTINGS, **search)
            assert [r["score"] for r in got.results] == \
                pytest.approx([r["score"] for r in want.results], abs=1e-5), search

            def ranked(found: Any) -> list[tuple[float, str]]:
                return sorted((-round(r["score"], 5), r["memory"]["content"])
                              for r in found.results)
            assert ranked(got) == ranked(want), search
        assert SHARES in _contents(store.search(query=QUESTION, limit=10,
                                                settings=SETTINGS))
    finally:
        file_store.close()
        store.close()
