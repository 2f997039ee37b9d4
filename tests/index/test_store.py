"""MemoryStore ops end to end on a real directory (index/store.py)."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from index import (
    ConfirmRequired,
    EmbeddingFailed,
    HashingEmbedder,
    IndexParams,
    InvalidCategory,
    InvalidMemory,
    MemoryCapacity,
    MemoryNotFound,
    MemorySettings,
    MemoryStore,
    StoreClosed,
    StoreLocked,
    SubjectIncomplete,
)
from index.store import LOG_NAME
from tests.helpers import files_holding

EVERYTHING = MemorySettings(relevance_threshold=0.0)
SCOPED = MemorySettings(subject_scoping=True, relevance_threshold=0.0)


def log_bytes(store: MemoryStore) -> bytes:
    return (store.directory / LOG_NAME).read_bytes()


def ids(results) -> list[str]:
    return [r["memory"]["id"] for r in results.results]


# -- store / get -------------------------------------------------------------------------

def test_store_and_get(make_store, defaults, clock):
    store = make_store()
    result = store.store(content="Alice likes green tea", category="preference",
                         subject_type="guest", subject_id="alice", context="drinks chat",
                         intention="learn tastes", agent="a1", source="subconscious",
                         metadata={"turn": 3}, settings=defaults)
    memory = result.memory
    assert result.evicted == [] and result.warnings == []
    assert memory["embedded"] and memory["access_count"] == 0
    assert memory["last_accessed_at"] is None
    assert memory["created_at"] == memory["updated_at"] == "2023-11-14T22:13:20.000000Z"
    assert store.get(memory["id"]) == memory
    assert len(store) == 1
    with pytest.raises(MemoryNotFound) as info:
        store.get("nope")
    assert info.value.code == "MEMORY_NOT_FOUND" and info.value.error_class == "not_found"
    with pytest.raises(MemoryNotFound):
        store.get(None)


@pytest.mark.parametrize("kwargs,error", [
    ({"category": "facts"}, InvalidCategory),
    ({"subject_type": "guest"}, SubjectIncomplete),
    ({"subject_type": "alien", "subject_id": "x"}, InvalidMemory),
    ({"content": ""}, InvalidMemory),
    ({"content": "x" * 20000}, InvalidMemory),
    ({"metadata": [1]}, InvalidMemory),
    ({"source": "other"}, InvalidMemory),
    ({"idempotency_key": ""}, InvalidMemory),
])
@pytest.mark.file_only("asserts the log file's bytes (PG: test_postgres.py)")
def test_rejected_stores_write_nothing(make_store, defaults, kwargs, error):
    store = make_store()
    before = log_bytes(store)
    args = {"content": "a fact", "category": "fact"}
    args.update(kwargs)
    with pytest.raises(error):
        store.store(settings=defaults, **args)
    assert log_bytes(store) == before and len(store) == 0


@pytest.mark.file_only("asserts the log file's bytes")
def test_rejected_reads_and_updates_write_nothing(make_store, defaults):
    store = make_store()
    memory = store.store(content="a fact", category="fact", settings=defaults).memory
    before = log_bytes(store)
    for call in (lambda: store.search(query="x", limit=0, settings=defaults),
                 lambda: store.search(query="x", limit=101, settings=defaults),
                 lambda: store.search(query="", settings=defaults),
                 lambda: store.search(query="x", categories=["nope"], settings=defaults),
                 lambda: store.search(query="x", subject_id="a", settings=defaults),
                 lambda: store.update(memory["id"], category="bad", settings=defaults),
                 lambda: store.update(memory["id"], content=" ", settings=defaults),
                 lambda: store.list(cursor="garbage"), lambda: store.list(limit=0),
                 lambda: store.list(created_after="soon"),
                 lambda: store.forget_subject("guest", None, confirm=True),
                 lambda: store.forget_subject("guest", "a", confirm=False)):
        with pytest.raises((InvalidMemory, InvalidCategory, SubjectIncomplete,
                            ConfirmRequired)):
            call()
    assert log_bytes(store) == before


@pytest.mark.file_only("the JSONL log line")
def test_store_line_is_fsynced_json_with_vectors(make_store, defaults):
    store = make_store()
    memory = store.store(content="tea", category="fact", context="ctx",
                         settings=defaults).memory
    line = json.loads(log_bytes(store).splitlines()[-1])
    assert line["op"] == "store" and line["record"]["id"] == memory["id"]
    assert set(line["vectors"]) == {"content", "context"}
    assert list(line)[-1] == "vectors"


# -- list ----------------------------------------------------------------------------

def test_list_filters_newest_first(make_store, defaults, clock):
    store = make_store()
    made = []
    for i in range(6):
        clock.advance(10)
        made.append(store.store(
            content=f"memory {i}", category="fact" if i % 2 else "preference",
            subject_type="guest" if i < 3 else None, subject_id=f"g{i % 2}" if i < 3 else None,
            agent="a" if i % 3 == 0 else "b", source="api" if i < 5 else "fixture",
            settings=defaults).memory)
    page, cursor = store.list()
    assert [m["id"] for m in page] == [m["id"] for m in reversed(made)] and cursor is None
    assert {m["id"] for m in store.list(category="fact")[0]} == {made[i]["id"] for i in (1, 3, 5)}
    assert {m["id"] for m in store.list(subject_type="guest")[0]} == \
        {made[i]["id"] for i in range(3)}
    assert {m["id"] for m in store.list(subject_type="guest", subject_id="g0")[0]} == \
        {made[0]["id"], made[2]["id"]}
    assert {m["id"] for m in store.list(agent="a")[0]} == {made[0]["id"], made[3]["id"]}
    assert [m["id"] for m in store.list(source="fixture")[0]] == [made[5]["id"]]
    middle = made[2]["created_at"]
    assert [m["id"] for m in store.list(created_after=middle)[0]] == \
        [m["id"] for m in reversed(made[3:])]
    assert [m["id"] for m in store.list(created_before=middle)[0]] == \
        [made[1]["id"], made[0]["id"]]
    with pytest.raises(SubjectIncomplete):
        store.list(subject_id="g0")


def test_list_pages_are_stable_under_concurrent_inserts_and_deletes(make_store, defaults):
    store = make_store()
    first = [store.store(content=f"m{i}", category="fact", settings=defaults).memory["id"]
             for i in range(25)]
    seen, cursor = [], None
    for round_ in range(10):
        page, cursor = store.list(limit=4, cursor=cursor)
        seen += [m["id"] for m in page]
        store.store(content=f"new {round_}", category="fact", settings=defaults)
        if round_ == 2:
            store.delete(first[5])     # not yet listed: simply never shows up
        if cursor is None:
            break
    expected = [i for i in reversed(first) if i != first[5]]
    assert seen == expected


# -- update / delete -----------------------------------------------------------------

def test_update_reembeds_content_and_keeps_other_lanes(make_store, defaults, clock):
    store = make_store()
    memory = store.store(content="the wifi password is swordfish", category="fact",
                         context="talking about the office network",
                         intention="help connect", settings=defaults).memory
    clock.advance(60)
    updated = store.update(memory["id"], content="the wifi password is marlin",
                           category="correction", metadata={"v": 2}, settings=defaults)
    assert updated["content"].endswith("marlin") and updated["category"] == "correction"
    assert updated["metadata"] == {"v": 2} and updated["embedded"]
    assert updated["updated_at"] > updated["created_at"]
    assert updated["context"] == "talking about the office network"
    hit = store.search(query="wifi password marlin",
                       context="talking about the office network",
                       settings=EVERYTHING).results[0]
    assert hit["memory"]["id"] == memory["id"]
    assert hit["lanes"]["content"] > 0.7 and hit["lanes"]["context"] > 0.99
    assert store.search(query="x", categories=["fact"], settings=EVERYTHING).results == []
    cleared = store.update(memory["id"], context="", settings=defaults)
    assert cleared["context"] is None
    hit = store.search(query="wifi", context="office network", settings=EVERYTHING).results[0]
    assert hit["lanes"]["context"] is None


@pytest.mark.file_only("asserts the log file's bytes")
def test_noop_update_writes_nothing(make_store, defaults):
    store = make_store()
    memory = store.store(content="c", category="fact", settings=defaults).memory
    before = log_bytes(store)
    assert store.update(memory["id"], content="c", category="fact", settings=defaults) == memory
    assert store.update(memory["id"], settings=defaults) == memory
    assert log_bytes(store) == before
    with pytest.raises(MemoryNotFound):
        store.update("missing", content="x", settings=defaults)


@pytest.mark.file_only("the log after a delete")
def test_delete_leaves_no_line_of_the_memory_in_the_log(make_store, defaults):
    store = make_store()
    memory = store.store(content="bye", category="fact", settings=defaults).memory
    store.delete(memory["id"])
    assert len(store) == 0
    lines = [json.loads(line) for line in log_bytes(store).splitlines()]
    assert [line["op"] for line in lines] == ["header"]       # compacted: no tombstone
    assert memory["id"].encode() not in log_bytes(store)
    assert store.search(query="bye", settings=EVERYTHING).results == []
    with pytest.raises(MemoryNotFound):
        store.delete(memory["id"])


# -- search ----------------------------------------------------------------------------

def test_search_ranks_filters_and_counts_access(make_store, defaults, clock):
    store = make_store()
    tea = store.store(content="Alice drinks green tea every morning", category="preference",
                      settings=defaults).memory
    coffee = store.store(content="Bob drinks black coffee", category="preference",
                         settings=defaults).memory
    rule = store.store(content="Deploys happen on Tuesdays", category="procedure",
                       settings=defaults).memory
    result = store.search(query="green tea morning", settings=EVERYTHING)
    assert result.fallback is None
    assert ids(result)[0] == tea["id"] and set(ids(result)) == {tea["id"], coffee["id"],
                                                                 rule["id"]}
    scores = [r["score"] for r in result.results]
    assert scores == sorted(scores, reverse=True)
    assert ids(store.search(query="green tea", limit=1, settings=EVERYTHING)) == [tea["id"]]
    assert ids(store.search(query="tea", categories=["procedure"], settings=EVERYTHING)) == \
        [rule["id"]]
    exact = store.search(query="Deploys happen on Tuesdays",
                         settings=MemorySettings(relevance_threshold=1.0))
    assert ids(exact) == [rule["id"]]
    assert store.search(query="quantum physics", settings=defaults).results == []
    clock.advance(5)
    hit = store.get(tea["id"])
    assert hit["access_count"] == 2 and hit["last_accessed_at"] == "2023-11-14T22:13:20.000000Z"
    returned = store.search(query="green tea", limit=1, settings=EVERYTHING).results[0]
    assert returned["memory"]["access_count"] == 3
    assert returned["memory"]["last_accessed_at"] == "2023-11-14T22:13:25.000000Z"


def test_a_search_that_counts_no_access_writes_nothing(make_store, defaults):
    """What a recall eval reads with: the same results, no access counted, so eviction
    (least-accessed first) picks as it would have."""
    store = make_store()
    memory = store.store(content="remember me", category="fact", settings=defaults).memory
    quiet = store.search(query="remember me", settings=defaults, count_access=False)
    assert [r["memory"]["id"] for r in quiet.results] == [memory["id"]]
    assert quiet.results[0]["memory"]["access_count"] == 0
    assert store.get(memory["id"])["access_count"] == 0
    assert store.get(memory["id"])["last_accessed_at"] is None


def test_access_counts_survive_a_restart(make_store, defaults, tmp_path):
    store = make_store()
    memory = store.store(content="remember me", category="fact", settings=defaults).memory
    for _ in range(3):
        store.search(query="remember me", settings=defaults)
    store.close()
    again = make_store()
    assert again.get(memory["id"])["access_count"] == 3


def test_context_lane_recalls_by_situation(make_store, defaults):
    store = make_store()
    formed = store.store(content="Prefers aisle seats", category="preference",
                         context="booking flights to Tokyo for the conference",
                         settings=defaults).memory
    store.store(content="Prefers window seats on trains", category="preference",
                settings=defaults)
    weights = MemorySettings(relevance_threshold=0.3,
                             association_weights={"content": 0.2, "context": 0.8})
    result = store.search(query="what should I book", context="flights to Tokyo conference",
                          settings=weights)
    assert ids(result)[0] == formed["id"]
    lanes = result.results[0]["lanes"]
    assert lanes["context"] > 0.5 and lanes["intention"] is None


def test_lane_drop_out_does_not_penalise_a_memory_without_context(make_store):
    store = make_store()
    bare = store.store(content="the cat is called Miso", category="fact",
                       settings=EVERYTHING).memory
    result = store.search(query="the cat is called Miso", context="pets", intention="recall",
                          settings=EVERYTHING).results[0]
    assert result["memory"]["id"] == bare["id"]
    assert result["lanes"] == {"content": pytest.approx(1.0, abs=1e-5), "context": None,
                               "intention": None}
    assert result["score"] == pytest.approx(1.0, abs=1e-5)


def test_subject_scoping(make_store):
    store = make_store()
    general = store.store(content="office wifi is on floor two", category="fact",
                          settings=SCOPED).memory["id"]
    alice = store.store(content="alice wifi trouble at home", category="fact",
                        subject_type="guest", subject_id="alice", settings=SCOPED).memory["id"]
    bob = store.store(content="bob wifi router is old", category="fact",
                      subject_type="guest", subject_id="bob", settings=SCOPED).memory["id"]
    entity = store.store(content="wifi vendor alice corp", category="fact",
                         subject_type="entity", subject_id="alice",
                         settings=SCOPED).memory["id"]
    def found(**kw):
        return set(ids(store.search(query="wifi", limit=50, **kw)))
    assert found(subject_type="guest", subject_id="alice", settings=SCOPED) == {general, alice}
    assert found(subject_type="guest", subject_id="carol", settings=SCOPED) == {general}
    assert found(settings=SCOPED) == {general}
    assert found(settings=EVERYTHING) == {general, alice, bob, entity}
    assert found(subject_type="guest", subject_id="bob", settings=EVERYTHING) == \
        {general, alice, bob, entity}


@pytest.mark.parametrize("params", [IndexParams(), IndexParams(exact_below=0)],
                         ids=["adaptive", "hnsw-filter"])
def test_a_rare_subject_among_thousands_is_recalled(make_store, params):
    store = make_store(index_params=params)
    roomy = MemorySettings(subject_scoping=True, relevance_threshold=0.0, max_memories=10_000)
    for i in range(3000):
        store.store(content=f"note {i} about project {i % 37} and budget {i % 11}",
                    category="fact", subject_type="guest", subject_id=f"g{i % 500}",
                    settings=roomy)
    mine = {store.store(content=f"carol likes {w}", category="preference",
                        subject_type="circle_member", subject_id="carol",
                        settings=roomy).memory["id"] for w in ("jazz", "chess", "rain")}
    result = store.search(query="project budget note", subject_type="circle_member",
                          subject_id="carol", settings=roomy)
    assert set(ids(result)) == mine


def test_categories_filter_with_many_rows(make_store):
    store = make_store(index_params=IndexParams(exact_below=0))
    roomy = MemorySettings(relevance_threshold=0.0, max_memories=10_000)
    for i in range(1500):
        store.store(content=f"fact number {i} about topic {i % 13}",
                    category="correction" if i % 300 == 0 else "fact", settings=roomy)
    result = store.search(query="fact about topic", categories=["correction"], limit=10,
                          settings=roomy)
    assert len(result.results) == 5
    assert all(r["memory"]["category"] == "correction" for r in result.results)


# -- capacity ------------------------------------------------------------------------

@pytest.mark.file_only("reads the log (test_postgres.py covers eviction on PG)")
def test_at_capacity_the_least_accessed_oldest_is_evicted(make_store, clock):
    cap = MemorySettings(max_memories=3, relevance_threshold=0.0)
    store = make_store()
    a = store.store(content="alpha", category="fact", settings=cap).memory["id"]
    b = store.store(content="beta", category="fact", settings=cap).memory["id"]
    c = store.store(content="gamma", category="fact", settings=cap).memory["id"]
    store.search(query="alpha", limit=1, settings=cap)      # a is used: it stays
    result = store.store(content="delta", category="fact", settings=cap)
    assert result.evicted == [b]
    assert {m["id"] for m in store.list()[0]} == {a, c, result.memory["id"]}
    line = json.loads(log_bytes(store).splitlines()[-1])
    assert line["op"] == "store" and line["evicted"] == [b]
    lowered = MemorySettings(max_memories=1)
    assert len(store.store(content="epsilon", category="fact", settings=lowered).evicted) == 3
    assert len(store) == 1


@pytest.mark.file_only("reads the log (test_postgres.py covers fair eviction on PG)")
def test_scoped_capacity_evicts_only_within_the_pool(make_store):
    s = MemorySettings(subject_scoping=True, max_memories=6, max_per_subject=2)
    store = make_store()
    def put(content, who=None):
        return store.store(content=content, category="fact",
                           subject_type="guest" if who else None, subject_id=who, settings=s)
    a1, a2 = put("a1", "ann").memory["id"], put("a2", "ann").memory["id"]
    g1 = put("g1").memory["id"]
    a3 = put("a3", "ann")
    assert a3.evicted == [a1]                       # ann's own oldest, per-subject cap
    b1 = put("b1", "ben").memory["id"]
    g2 = put("g2").memory["id"]                     # 6 rows: a2 a3 g1 b1 g2 + ...
    assert len(store) == 5
    g3 = put("g3")
    assert g3.evicted == [] and len(store) == 6
    g4 = put("g4")
    assert g4.evicted == [g1]                       # general pool gives way, not ann/ben
    b2 = put("b2", "ben")
    assert b2.evicted == [b1]                       # total cap: ben's own row
    before = log_bytes(store)
    with pytest.raises(MemoryCapacity) as info:     # carol has no rows to give
        put("c1", "carol")
    assert info.value.code == "MEMORY_CAPACITY" and info.value.error_class == "conflict"
    assert info.value.pool == "subject"
    assert log_bytes(store) == before and len(store) == 6
    assert {g2, a2} <= {m["id"] for m in store.list()[0]}   # neither pool was touched


def test_general_store_is_refused_when_only_subjects_fill_the_store(make_store):
    s = MemorySettings(subject_scoping=True, max_memories=2)
    store = make_store()
    store.store(content="x", category="fact", subject_type="guest", subject_id="a", settings=s)
    store.store(content="y", category="fact", subject_type="guest", subject_id="b", settings=s)
    with pytest.raises(MemoryCapacity) as info:
        store.store(content="z", category="fact", settings=s)
    assert info.value.pool == "general"


# -- retention and stats -------------------------------------------------------------

@pytest.mark.file_only("reads the log (test_postgres.py covers retention on PG)")
def test_reaper_removes_expired_by_category(make_store, clock):
    s = MemorySettings(retention={"context": 1, "preference": 30})
    store = make_store()
    ctx = store.store(content="user is in a meeting", category="context", settings=s).memory
    pref = store.store(content="likes tea", category="preference", settings=s).memory
    fact = store.store(content="born in 1990", category="fact", settings=s).memory
    clock.advance(86_399)
    assert store.reap(settings=s) == []
    clock.advance(1)
    assert store.reap(settings=s) == [ctx["id"]]
    clock.advance(40 * 86_400)
    stats = store.stats(settings=s)
    assert stats["expired"] == [pref["id"]]
    assert stats["total"] == 1 and store.get(fact["id"])
    assert json.loads(log_bytes(store).splitlines()[-1])["reason"] == "expire"


def test_stats_counts(make_store):
    s = MemorySettings(max_memories=50, max_per_subject=5)
    store = make_store()
    for i in range(4):
        store.store(content=f"a{i}", category="fact", subject_type="guest", subject_id="ann",
                    settings=s)
    store.store(content="p", category="preference", subject_type="entity", subject_id="acme",
                settings=s)
    store.store(content="g", category="procedure", settings=s)
    stats = store.stats(settings=s)
    assert stats["total"] == 6 and stats["general"] == 1 and stats["expired"] == []
    assert stats["by_category"] == {"fact": 4, "preference": 1, "procedure": 1,
                                    "context": 0, "correction": 0}
    assert stats["by_subject"] == [
        {"subject_type": "guest", "subject_id": "ann", "count": 4},
        {"subject_type": "entity", "subject_id": "acme", "count": 1}]
    assert stats["capacity"] == {"max_memories": 50, "max_per_subject": 5, "used": 6}
    assert stats["embedded"] == 6 and stats["unembedded"] == 0


# -- embedding failure ---------------------------------------------------------------

@pytest.mark.file_only("open_report of a log replay")
def test_embedding_outage_degrades_then_repairs(make_store, defaults, make_flaky):
    flaky = make_flaky(failing=True)
    store = make_store(embedder=flaky)
    result = store.store(content="the spare key is under the blue pot", category="fact",
                         context="house sitting instructions", settings=defaults)
    assert result.warnings == ["MEMORY_EMBEDDING_FAILED"] and not result.memory["embedded"]
    store.store(content="the dog eats at six", category="fact", settings=defaults)
    found = store.search(query="where is the spare key", settings=EVERYTHING)
    assert found.fallback == "text"
    assert found.results[0]["memory"]["id"] == result.memory["id"]
    with pytest.raises(EmbeddingFailed):
        store.repair_embeddings()
    flaky.failing = False
    mixed = store.search(query="spare key", settings=EVERYTHING)
    assert mixed.fallback == "text"                 # query embedded, memories are not
    assert ids(mixed)[0] == result.memory["id"]
    assert store.repair_embeddings() == 2
    assert store.get(result.memory["id"])["embedded"]
    healed = store.search(query="spare key blue pot", context="house sitting instructions",
                          settings=EVERYTHING)
    assert healed.fallback is None and ids(healed)[0] == result.memory["id"]
    assert healed.results[0]["lanes"]["context"] > 0.99
    assert store.repair_embeddings() == 0
    store.close()
    again = make_store(embedder=flaky)
    assert again.get(result.memory["id"])["embedded"] and again.open_report["unembedded"] == 0


def test_update_during_an_outage_drops_vectors_until_repair(make_store, defaults, make_flaky):
    flaky = make_flaky()
    store = make_store(embedder=flaky)
    memory = store.store(content="old text", category="fact", context="c",
                         settings=defaults).memory
    flaky.failing = True
    updated = store.update(memory["id"], content="new text", settings=defaults)
    assert not updated["embedded"]
    flaky.failing = False
    assert store.search(query="new text", settings=EVERYTHING).fallback == "text"
    assert store.repair_embeddings() == 1
    assert store.search(query="new text", settings=EVERYTHING).fallback is None


def test_a_broken_embedder_result_counts_as_failure(make_store, defaults):
    class Wrong(HashingEmbedder):
        def embed(self, texts):
            return super().embed(texts)[:, :3]
    store = make_store(embedder=Wrong(64))
    assert store.store(content="x", category="fact", settings=defaults).warnings == \
        ["MEMORY_EMBEDDING_FAILED"]


@pytest.mark.file_only("open_report of a log replay")
def test_another_model_marks_vectors_stale_until_repaired(make_store, defaults, tmp_path):
    store = make_store()
    memory = store.store(content="lives in Oslo", category="fact", settings=defaults).memory
    store.close()
    other = make_store(embedder=HashingEmbedder(32))
    assert other.open_report["stale_vectors"] == 1 and other.open_report["rebuilt"]
    assert not other.get(memory["id"])["embedded"]
    assert other.search(query="Oslo", settings=EVERYTHING).fallback == "text"
    assert other.repair_embeddings() == 1
    other.close()
    again = make_store(embedder=HashingEmbedder(32))
    assert again.get(memory["id"])["embedded"] and again.open_report["sidecar"] == "loaded"


# -- idempotency ---------------------------------------------------------------------

@pytest.mark.file_only("reads the log (test_postgres.py covers keys on PG)")
def test_idempotency_key_returns_the_first_result_across_restarts(make_store, defaults):
    cap = MemorySettings(max_memories=1)
    store = make_store()
    old = store.store(content="first", category="fact", settings=cap).memory
    first = store.store(content="second", category="fact", idempotency_key="k1", settings=cap)
    assert first.evicted == [old["id"]]
    before = log_bytes(store)
    again = store.store(content="second", category="fact", idempotency_key="k1", settings=cap)
    assert again == first and log_bytes(store) == before
    store.close()
    reopened = make_store()
    assert reopened.store(content="second", category="fact", idempotency_key="k1",
                          settings=cap) == first
    reopened.compact()
    reopened.close()
    assert make_store().store(content="second", category="fact", idempotency_key="k1",
                              settings=cap) == first


# -- forget_subject ------------------------------------------------------------------

@pytest.mark.file_only("greps the element's files")
def test_forget_subject_erases_the_text_from_every_file(make_store, defaults):
    store = make_store()
    secret = "Zanzibar-7731 is Dana's locker code"
    kept = store.store(content="the office closes at six", category="fact",
                       settings=defaults).memory
    dana = [store.store(content=f"{secret} ({i})", category="fact", subject_type="guest",
                        subject_id="dana", context="Dana-private-context",
                        settings=defaults).memory["id"] for i in range(3)]
    earlier = store.store(content="Dana-deleted-earlier", category="fact",
                          subject_type="guest", subject_id="dana", settings=defaults).memory
    store.delete(earlier["id"])
    store.update(dana[0], content="Dana-updated-away replaced", settings=defaults)
    store.store(content="Eve likes chess", category="fact", subject_type="guest",
                subject_id="eve", settings=defaults)
    store.close()       # a checkpoint now holds Dana's text too
    store = make_store()
    with pytest.raises(ConfirmRequired):
        store.forget_subject("guest", "dana", confirm=False)
    result = store.forget_subject("guest", "dana", confirm=True)
    assert result == {"deleted": 3, "ids": dana}
    assert store.get(kept["id"]) and len(store) == 2
    for needle in (b"Zanzibar-7731", b"Dana-private-context", b"Dana-deleted-earlier",
                   b"Dana-updated-away", b"dana"):
        for path in store.directory.iterdir():
            assert needle not in path.read_bytes(), (needle, path.name)
    for word in ("Zanzibar", "locker", "private"):       # the lexical index's terms too
        assert files_holding(store.directory, word) == [], word
    assert store.forget_subject("guest", "nobody", confirm=True) == {"deleted": 0, "ids": []}
    store.close()
    reopened = make_store()
    assert len(reopened) == 2 and reopened.open_report["sidecar"] == "loaded"


@pytest.mark.file_only("what a delete leaves in the runtime files")
def test_delete_erases_the_memorys_text_and_vectors_from_disk(make_store, defaults) -> None:
    """Issue 26: a deleted memory's text stayed in the log (and the checkpoint) until a
    later compaction; the sheet says delete "permanently removes"."""
    store = make_store()
    kept = store.store(content="the office closes at six", category="fact",
                       settings=defaults).memory
    gone = store.store(content="Grace-secret-9921", category="fact",
                       context="Grace-private-context", settings=defaults).memory
    store.update(gone["id"], content="Grace-updated-secret", settings=defaults)
    store.close()               # a checkpoint now holds the text too
    assert [f for f in files_holding(store.directory, "Grace") if f.startswith("lexical")]
    store = make_store()
    store.delete(gone["id"])
    for needle in (b"Grace-secret-9921", b"Grace-private-context", b"Grace-updated-secret",
                   gone["id"].encode()):
        for path in store.directory.iterdir():
            if path.is_file():
                assert needle not in path.read_bytes(), (needle, path.name)
    assert files_holding(store.directory, "Grace") == []
    assert store.get(kept["id"]) and len(store) == 1
    store.close()
    reopened = make_store()
    assert len(reopened) == 1 and reopened.open_report["sidecar"] == "loaded"


@pytest.mark.file_only("an old log's deletes, erased on open")
def test_a_log_with_deletes_from_before_is_compacted_on_open(make_store, defaults,
                                                             tmp_path) -> None:
    """A log written before delete erased (a delete line, the text still in an earlier
    store line) is compacted once when opened, so old deleted text leaves the disk too."""
    import json
    store = make_store()
    old = store.store(content="Heidi-old-secret", category="fact", settings=defaults).memory
    store.close()
    log = tmp_path / "mem" / LOG_NAME
    with open(log, "a") as f:
        f.write(json.dumps({"op": "delete", "ids": [old["id"]], "reason": "delete"}) + "\n")
    for path in (tmp_path / "mem").iterdir():
        if path.name not in (LOG_NAME, "lock"):
            path.unlink()
    reopened = make_store()
    assert len(reopened) == 0
    assert b"Heidi-old-secret" not in log.read_bytes()


@pytest.mark.file_only("a forget cut between log and compaction")
def test_an_interrupted_forget_is_finished_on_open(make_store, defaults, tmp_path):
    import shutil
    store = make_store()
    store.store(content="Frank-secret", category="fact", subject_type="guest",
                subject_id="frank", settings=defaults)
    # Log the forget exactly as forget_subject does, then "crash" before compaction:
    # copy the directory as the disk would be.
    frank = store.list()[0][0]["id"]
    with store._lock:
        store._engine.commit([{"op": "delete", "ids": [frank], "reason": "forget"}])
    crashed = tmp_path / "crashed"
    shutil.copytree(store.directory, crashed, ignore=shutil.ignore_patterns("lock"))
    assert b"Frank-secret" in (crashed / LOG_NAME).read_bytes()
    recovered = make_store(directory=crashed)
    assert len(recovered) == 0
    for path in crashed.iterdir():
        assert b"Frank-secret" not in path.read_bytes()


# -- compaction ----------------------------------------------------------------------

@pytest.mark.file_only("the log's compaction")
def test_compaction_keeps_state_and_drops_history(make_store, defaults):
    store = make_store()
    keep = [store.store(content=f"keep {i}", category="fact", settings=defaults).memory["id"]
            for i in range(20)]
    for i in range(20):
        store.delete(store.store(content=f"drop {i}", category="fact",
                                 settings=defaults).memory["id"])
    store.search(query="keep", settings=defaults)
    before = store.list(limit=500)[0]
    size = len(log_bytes(store))
    store.compact()
    assert len(log_bytes(store)) < size
    assert b"drop" not in log_bytes(store)
    assert store.list(limit=500)[0] == before
    store.close()
    assert make_store().list(limit=500)[0] == before
    assert keep


@pytest.mark.file_only("the log's compaction")
def test_dead_lines_trigger_automatic_compaction(make_store, defaults, monkeypatch):
    import index.engine as engine_module
    monkeypatch.setattr(engine_module, "COMPACT_MIN_DEAD", 30)
    store = make_store()
    memory = store.store(content="x", category="fact", settings=defaults).memory
    for _ in range(40):
        store.search(query="x", settings=defaults)
    assert len(log_bytes(store).splitlines()) < 35
    assert store.get(memory["id"])["access_count"] == 40


# -- lifecycle and concurrency -------------------------------------------------------

def test_closed_store_refuses_ops(make_store, defaults):
    store = make_store()
    store.close()
    store.close()
    with pytest.raises(StoreClosed):
        store.store(content="x", category="fact", settings=defaults)
    with pytest.raises(StoreClosed):
        store.get("x")


def test_threads_storing_concurrently_lose_nothing(make_store, defaults):
    store = make_store(checkpoint_every=25)
    got: list[str] = []
    errors: list[BaseException] = []
    def worker(n):
        try:
            for i in range(40):
                got.append(store.store(content=f"thread {n} item {i}", category="fact",
                                       settings=defaults).memory["id"])
                if i % 10 == 0:
                    store.search(query=f"thread {n}", settings=defaults)
        except BaseException as exc:   # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(got)) == 320 == len(store)
    store.close()
    again = make_store()
    assert {m["id"] for m in again.list(limit=500)[0]} == set(got)


def _child_holds_store(directory, ready_w, release_r):
    store = MemoryStore(directory, HashingEmbedder(64))
    os.write(ready_w, b"1")
    os.read(release_r, 1)
    store.close()


def test_a_second_process_waits_for_the_lock(tmp_path):
    directory = tmp_path / "mem"
    ready_r, ready_w = os.pipe()
    release_r, release_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            _child_holds_store(directory, ready_w, release_r)
        finally:
            os._exit(0)
    try:
        assert os.read(ready_r, 1) == b"1"
        started = time.monotonic()
        with pytest.raises(StoreLocked) as info:
            MemoryStore(directory, HashingEmbedder(64), lock_timeout=0.3)
        assert time.monotonic() - started >= 0.3
        assert info.value.code == "MEMORY_STORE_FAILED" and info.value.retryable
        threading.Timer(0.3, lambda: os.write(release_w, b"1")).start()
        with MemoryStore(directory, HashingEmbedder(64), lock_timeout=10) as store:
            assert len(store) == 0
    finally:
        os.write(release_w, b"1")
        os.waitpid(pid, 0)


@pytest.mark.file_only("the element's file lock (PG elements have many writers)")
def test_a_second_store_in_the_same_process_is_locked_out_too(make_store):
    make_store()
    with pytest.raises(StoreLocked):
        make_store(lock_timeout=0.05)


# -- store_many (group commit) -------------------------------------------------------------

def test_store_many_stores_in_order_with_one_embedding_pass(tmp_path) -> None:
    from index import HashingEmbedder, MemorySettings, MemoryStore

    class Counting(HashingEmbedder):
        calls = 0

        def embed(self, texts):
            Counting.calls += 1
            return super().embed(texts)

    settings = MemorySettings(max_memories=3)
    with MemoryStore(tmp_path, Counting()) as store:
        results = store.store_many(
            [{"content": f"fact {i}", "category": "fact", "context": f"talk {i}"}
             for i in range(4)] + [{"content": "fact 0 again", "category": "fact",
                                    "idempotency_key": "k"}],
            settings=settings)
        assert Counting.calls == 1
        assert [r.memory["content"] for r in results] == \
            ["fact 0", "fact 1", "fact 2", "fact 3", "fact 0 again"]
        assert results[3].evicted == [results[0].memory["id"]]   # the cap applies in order
        assert len(store) == 3
        again = store.store_many([{"content": "fact 0 again", "category": "fact",
                                   "idempotency_key": "k"}], settings=settings)
        assert again[0].memory["id"] == results[4].memory["id"]
    with MemoryStore(tmp_path, HashingEmbedder()) as reopened:
        assert sorted(m["content"] for m in reopened.list()[0]) == \
            ["fact 0 again", "fact 2", "fact 3"]


def test_store_many_writes_nothing_when_one_item_is_bad(tmp_path) -> None:
    import pytest

    from index import HashingEmbedder, InvalidCategory, InvalidMemory, MemorySettings, MemoryStore
    settings = MemorySettings()
    with MemoryStore(tmp_path, HashingEmbedder()) as store:
        with pytest.raises(InvalidCategory, match=r"items\[1\]"):
            store.store_many([{"content": "ok", "category": "fact"},
                              {"content": "bad", "category": "gossip"}], settings=settings)
        with pytest.raises(InvalidMemory, match=r"items\[0\]"):
            store.store_many([{"content": "ok", "category": "fact", "colour": "red"}],
                             settings=settings)
        assert len(store) == 0
