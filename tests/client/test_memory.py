"""The memory ops through the client, against the real server."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triform_client import Client, Conflict, NotFound, ValidationError

MEMORY = "demo/memory"


def test_store_get_update_delete(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    stored = memory.store("Ana prefers tea over coffee", "preference",
                          subject_type="guest", subject_id="ana",
                          context="chat about breakfast", intention="plan a morning meeting",
                          metadata={"turn": 3})
    assert stored["evicted"] == [] and stored["warnings"] == []
    first = stored["memory"]
    assert (first["content"], first["category"], first["subject_id"], first["source"]) == \
        ("Ana prefers tea over coffee", "preference", "ana", "api")
    assert memory.get(first["id"]) == first
    changed = memory.update(first["id"], content="Ana prefers green tea", intention="")
    assert changed["content"] == "Ana prefers green tea" and changed["intention"] is None
    assert changed["subject_id"] == "ana" and changed["metadata"] == {"turn": 3}
    memory.delete(first["id"])
    with pytest.raises(NotFound) as lost:
        memory.get(first["id"])
    assert lost.value.code == "MEMORY_NOT_FOUND"


def test_each_store_is_one_memory_and_a_given_key_returns_the_first(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    a = memory.store("same words", "fact")["memory"]
    b = memory.store("same words", "fact")["memory"]
    assert a["id"] != b["id"]      # a fresh key per call: two calls are two memories
    keyed = memory.store("keyed", "fact", idempotency_key="import-42")["memory"]
    again = memory.store("keyed", "fact", idempotency_key="import-42")["memory"]
    assert again["id"] == keyed["id"] and memory.stats()["total"] == 3


def test_store_batch_keeps_order_and_keys(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    results = memory.store_batch([
        {"content": "Ben lives in Lyon", "category": "fact"},
        {"content": "Ben likes jazz", "category": "preference", "subject_type": "guest",
         "subject_id": "ben", "idempotency_key": "mine"}])
    assert [r["memory"]["content"] for r in results] == ["Ben lives in Lyon", "Ben likes jazz"]
    again = memory.store_batch([{"content": "Ben likes jazz", "category": "preference",
                                 "subject_type": "guest", "subject_id": "ben",
                                 "idempotency_key": "mine"}])
    assert again[0]["memory"]["id"] == results[1]["memory"]["id"]
    with pytest.raises(ValidationError) as bad:
        memory.store_batch([{"content": "ok", "category": "fact"},
                            {"content": "x", "category": "gossip"}])   # type: ignore[typeddict-item]
    assert "memories[1]" in bad.value.message and memory.stats()["total"] == 2


def test_search_answers_hits_with_lanes(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    memory.store("Ana prefers tea over coffee", "preference", context="breakfast chat")
    found = memory.search("Ana prefers tea over coffee", context="breakfast chat", limit=5)
    hit = found["results"][0]
    assert hit["memory"]["content"] == "Ana prefers tea over coffee"
    assert set(hit["lanes"]) == {"content", "context", "intention"}
    assert hit["lanes"]["intention"] is None and hit["score"] > 0


def test_forget_subject_needs_confirmation(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    for text in ("Cleo likes cats", "Cleo lives in Oslo"):
        memory.store(text, "fact", subject_type="guest", subject_id="cleo")
    memory.store("The office opens at nine", "fact")
    with pytest.raises(ValidationError) as refused:
        memory.forget_subject("guest", "cleo", confirm=False)
    assert refused.value.code == "MEMORY_CONFIRM_REQUIRED"
    assert memory.stats()["total"] == 3
    forgotten = memory.forget_subject("guest", "cleo", confirm=True)
    assert forgotten["deleted"] == 2 and len(forgotten["ids"]) == 2
    assert [m["content"] for m in memory.list()] == ["The office opens at nine"]


def test_stats_count_what_was_stored(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    memory.store("a fact", "fact")
    memory.store("a preference", "preference", subject_type="guest", subject_id="dan")
    stats = memory.stats()
    assert stats["total"] == 2 and stats["general"] == 1
    assert stats["by_category"]["fact"] == 1
    assert stats["by_subject"] == [{"subject_type": "guest", "subject_id": "dan", "count": 1}]


@pytest.fixture
def thirteen(server: Any, tf: Client) -> list[str]:
    """13 memories, 5 of them about guest eve; their ids newest first."""
    results = tf.memory(MEMORY).store_batch(
        [{"content": f"memory {i}", "category": "fact"} for i in range(8)]
        + [{"content": f"eve {i}", "category": "preference", "subject_type": "guest",
            "subject_id": "eve"} for i in range(5)])
    return [r["memory"]["id"] for r in reversed(results)]


@settings(max_examples=15)
@given(page_size=st.integers(1, 14))
def test_list_walks_every_page_once_newest_first(tf: Client, thirteen: list[str],
                                                 page_size: int) -> None:
    assert [m["id"] for m in tf.memory(MEMORY).list(page_size=page_size)] == thirteen


def test_list_filters_and_pages_by_hand(tf: Client, thirteen: list[str]) -> None:
    memory = tf.memory(MEMORY)
    eve = [m["id"] for m in memory.list(page_size=2, subject_type="guest", subject_id="eve")]
    assert eve == thirteen[:5]
    assert [m["id"] for m in memory.list(category="fact", page_size=3)] == thirteen[5:]
    page = memory.list_page(limit=4)
    assert [m["id"] for m in page["memories"]] == thirteen[:4] and page["next_cursor"]
    rest = memory.list_page(limit=100, cursor=page["next_cursor"])
    assert [m["id"] for m in rest["memories"]] == thirteen[4:] and rest["next_cursor"] is None


def test_a_memory_id_cannot_reach_another_op(tf: Client) -> None:
    memory = tf.memory(MEMORY)
    stored = memory.store("keep me", "fact")["memory"]
    for bad in (f"{stored['id']}/delete", "..", "."):
        with pytest.raises((ValidationError, NotFound)):
            memory.get(bad)
    assert memory.get(stored["id"])["content"] == "keep me"


def test_a_memory_has_its_date_and_search_keeps_a_window(tf: Client) -> None:
    memory = tf.memory("demo/memory")
    old = memory.store("Lea moved to Oslo", "fact", occurred_at="2021-06-01")["memory"]
    memory.store("Lea moved to Bergen", "fact", occurred_at="2024-02-01")
    assert old["occurred_at"].startswith("2021-06-01")
    found = memory.search("Lea moved to Bergen", occurred_before="2023-01-01")
    assert [r["memory"]["id"] for r in found["results"]] == [old["id"]]


def test_supersede_as_of_history_and_retire(tf: Client) -> None:

    memory = tf.memory(MEMORY)
    maria = {"subject_type": "guest", "subject_id": "maria"}
    porto = memory.store("Maria lives in Porto", "fact", **maria,   # type: ignore[arg-type]
                         occurred_at="2024-01-10")["memory"]
    lisbon = memory.store("Maria lives in Lisbon", "fact", **maria,  # type: ignore[arg-type]
                          occurred_at="2024-02-21", supersedes=[porto["id"]])["memory"]
    assert [m["id"] for m in memory.list(**maria)] == [lisbon["id"]]  # type: ignore[arg-type]
    assert [m["id"] for m in memory.list(as_of="2024-02-01", **maria)] == [  # type: ignore[arg-type]
        porto["id"]]
    assert len(list(memory.list(include_superseded=True, **maria))) == 2  # type: ignore[arg-type]
    found = memory.search("Maria lives in", as_of="2024-02-01", **maria)  # type: ignore[arg-type]
    assert [r["memory"]["id"] for r in found["results"]] == [porto["id"]]
    versions = memory.history(porto["id"])
    assert [v["op"] for v in versions] == ["store", "supersede"]
    assert versions[-1]["superseded_by"] == lisbon["id"]
    retired = memory.retire(lisbon["id"], "moved abroad")
    assert retired["valid_until"] is not None
    with pytest.raises(Conflict) as twice:
        memory.retire(lisbon["id"], "again")
    assert twice.value.code == "MEMORY_NOT_CURRENT"
