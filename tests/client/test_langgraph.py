"""``triform_client.langgraph.TriformStore``: a LangGraph graph that remembers a user's
preference in one thread and recalls it in another, and every behaviour ``BaseStore``'s
docs promise, against a real server (the hashing embedder: shared words rank first)."""

from __future__ import annotations

import asyncio
import operator
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    PutOp,
    SearchItem,
    SearchOp,
)
from triform_client import Client, Forbidden
from triform_client.langgraph import TriformStore

from tests.helpers import serve


@pytest.fixture
def store(tf: Client) -> TriformStore:
    return TriformStore(tf.memory("demo/memory"))


def memories(tf: Client) -> list[dict[str, Any]]:
    return list(tf.memory("demo/memory").list())


# -- a graph: remember in one thread, recall in another -----------------------------------

class Chat(TypedDict):
    said: str
    answers: Annotated[list[str], operator.add]


@dataclass
class User:
    user_id: str


def remember_or_recall(state: Chat, runtime: Runtime[User]) -> dict[str, Any]:
    """A deterministic agent: "I prefer X" is remembered, a question is answered from the
    store (what an LLM node would do with tools)."""
    assert runtime.store is not None
    namespace = ("preferences", runtime.context.user_id)
    said = state["said"]
    if said.startswith("I prefer "):
        runtime.store.put(namespace, "drink", {"text": said, "likes": said[9:].rstrip(".")})
        return {"answers": ["noted"]}
    hits = runtime.store.search(namespace, query=said, limit=1)
    return {"answers": [hits[0].value["likes"] if hits else "I don't know"]}


def graph(store: TriformStore) -> Any:
    builder = StateGraph(Chat, context_schema=User)
    builder.add_node("agent", remember_or_recall)
    builder.add_edge(START, "agent")
    builder.add_edge("agent", END)
    return builder.compile(checkpointer=InMemorySaver(), store=store)


@pytest.fixture
def meaning(tmp_path: Path) -> Iterator[Client]:
    """An admin client of a server with the real model: recall here is about meaning."""
    srv = serve(tmp_path / "home", "fastembed")
    client = Client(srv.url, srv.tokens["admin"])
    yield client
    client.close()
    srv.close()


def test_a_preference_told_in_one_thread_is_recalled_in_another(meaning: Client) -> None:
    tf = meaning
    app = graph(TriformStore(tf.memory("demo/memory")))
    first = app.invoke({"said": "I prefer green tea."}, {"configurable": {"thread_id": "t1"}},
                       context=User("ana"))
    assert first["answers"] == ["noted"]
    # Another thread, another process's store object: only the server remembers.
    other = graph(TriformStore(tf.memory("demo/memory")))
    second = other.invoke({"said": "what drink do I prefer?"},
                          {"configurable": {"thread_id": "t2"}}, context=User("ana"))
    assert second["answers"] == ["green tea"]
    stranger = other.invoke({"said": "what drink do I prefer?"},
                            {"configurable": {"thread_id": "t3"}}, context=User("ben"))
    assert stranger["answers"] == ["I don't know"]
    # The item is one memory about ana, in the element's own terms.
    [memory] = memories(tf)
    assert (memory["subject_type"], memory["subject_id"]) == ("guest", "ana")
    assert memory["agent"] == "preferences.ana" and memory["content"].startswith("I prefer")


# -- BaseStore's promises --------------------------------------------------------------------

def test_put_get_and_the_item_it_gives(store: TriformStore) -> None:
    assert store.get(("docs", "ana"), "nothing") is None
    store.put(("docs", "ana"), "report", {"memory": "Ana likes AI", "n": 1})
    item = store.get(("docs", "ana"), "report")
    assert isinstance(item, Item)
    assert (item.namespace, item.key, item.value) == (("docs", "ana"), "report",
                                                      {"memory": "Ana likes AI", "n": 1})
    assert item.created_at.tzinfo is not None and item.updated_at >= item.created_at
    assert item.dict()["namespace"] == ["docs", "ana"]


def test_a_put_with_a_key_is_an_idempotent_upsert(tf: Client, store: TriformStore) -> None:
    store.put(("docs",), "a", {"text": "first"})
    created = store.get(("docs",), "a")
    assert created is not None
    store.put(("docs",), "a", {"text": "first"})          # again, the same: nothing new
    assert len(memories(tf)) == 1
    time.sleep(0.01)
    store.put(("docs",), "a", {"text": "second", "extra": [1, 2]})
    changed = store.get(("docs",), "a")
    assert changed is not None and changed.value == {"text": "second", "extra": [1, 2]}
    assert changed.created_at == created.created_at and changed.updated_at > created.updated_at
    assert len(memories(tf)) == 1
    # A store that never saw the item (another process) upserts the same memory.
    fresh = TriformStore(tf.memory("demo/memory"))
    fresh.put(("docs",), "a", {"text": "third"})
    fresh.put(("docs",), "a", {"text": "first"})          # the first put's body, replayed
    assert [m["metadata"]["langgraph_value"] for m in memories(tf)] == [{"text": "first"}]
    assert store.get(("docs",), "a").value == {"text": "first"}    # its cached id holds


def test_delete_and_a_put_of_none(tf: Client, store: TriformStore) -> None:
    store.put(("docs",), "a", {"text": "gone soon"})
    store.put(("docs",), "b", {"text": "stays"})
    store.delete(("docs",), "a")
    assert store.get(("docs",), "a") is None
    store.delete(("docs",), "a")                          # nothing there: no error
    store.batch([PutOp(("docs",), "b", None)])
    assert store.get(("docs",), "b") is None and memories(tf) == []
    store.put(("docs",), "a", {"text": "back"})           # the key is free again
    assert store.get(("docs",), "a").value == {"text": "back"}


def test_search_by_meaning_with_filters_limit_and_offset(store: TriformStore) -> None:
    store.put(("docs", "ana"), "tea", {"text": "Ana drinks green tea every morning",
                                       "kind": "drink", "rating": 5})
    store.put(("docs", "ana"), "bike", {"text": "Ana rides her bike to work",
                                        "kind": "habit", "rating": 3})
    store.put(("docs", "ana"), "coffee", {"text": "Ana never drinks coffee",
                                          "kind": "drink", "rating": 1})
    store.put(("docs", "ben"), "tea", {"text": "Ben drinks black tea", "kind": "drink"})
    hits = store.search(("docs", "ana"), query="green tea in the morning")
    assert all(isinstance(h, SearchItem) for h in hits)
    assert hits[0].key == "tea" and hits[0].score is not None
    assert [h.score for h in hits] == sorted([h.score for h in hits], reverse=True)
    assert {h.namespace for h in hits} == {("docs", "ana")}        # never ben's
    drinks = store.search(("docs", "ana"), query="drinks", filter={"kind": "drink"})
    assert {h.key for h in drinks} == {"tea", "coffee"}
    rated = store.search(("docs", "ana"), filter={"rating": {"$gte": 3}})
    assert {h.key for h in rated} == {"tea", "bike"} and rated[0].score is None
    assert {h.key for h in store.search(("docs", "ana"), filter={"kind": {"$ne": "drink"}})} \
        == {"bike"}
    assert {h.key for h in store.search(("docs", "ana"),
                                        filter={"rating": {"$lt": 3, "$gt": 0}})} == {"coffee"}
    everything = store.search(("docs", "ana"), limit=10)
    assert [h.key for h in everything] == ["coffee", "bike", "tea"]    # newest first
    assert [h.key for h in store.search(("docs", "ana"), limit=1, offset=1)] == ["bike"]
    assert {h.namespace for h in store.search(("docs",))} == {("docs", "ana"),
                                                              ("docs", "ben")}
    # Recall by meaning is the element's, subject-scoped (demo/memory scopes subjects): a
    # prefix that stops before the user's label recalls only items without a subject.
    assert store.search(("docs",), query="green tea in the morning") == []
    assert store.search(("elsewhere",)) == []


def test_list_namespaces(store: TriformStore) -> None:
    for namespace in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"),
                      ("a", "b", "f"), ("a", "c", "f"), ("x", "y")]:
        store.put(namespace, "k", {"text": "."})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("x",)]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d", "e"),
                                                        ("a", "b", "d", "i")]


def test_batch_runs_in_order_and_answers_each_op(store: TriformStore) -> None:
    results = store.batch([
        PutOp(("n",), "k", {"text": "one"}),
        GetOp(("n",), "k"),
        SearchOp(("n",), query="one"),
        ListNamespacesOp(),
        PutOp(("n",), "k", None),
        GetOp(("n",), "k"),
    ])
    assert results[0] is None and results[4] is None and results[5] is None
    assert isinstance(results[1], Item) and results[1].value == {"text": "one"}
    assert [h.key for h in results[2]] == ["k"]
    assert results[3] == [("n",)]


def test_the_async_twins(store: TriformStore) -> None:
    async def journey() -> tuple[Any, ...]:
        await store.aput(("async", "ana"), "k", {"text": "async tea"})
        got = await store.aget(("async", "ana"), "k")
        found = await store.asearch(("async", "ana"), query="tea")
        spaces = await store.alist_namespaces(prefix=("async",))
        await store.adelete(("async", "ana"), "k")
        return got, found, spaces, await store.aget(("async", "ana"), "k")
    got, found, spaces, gone = asyncio.run(journey())
    assert got.value == {"text": "async tea"} and [h.key for h in found] == ["k"]
    assert spaces == [("async", "ana")] and gone is None


def test_invalid_namespaces_and_ttls_are_refused(store: TriformStore) -> None:
    for bad in [(), ("langgraph", "x")]:
        with pytest.raises(InvalidNamespaceError):
            store.put(bad, "k", {"a": 1})
    for bad in [("a.b",), ("",), ("a", 3)]:
        with pytest.raises(InvalidNamespaceError):
            store.get(bad, "k")          # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.batch([PutOp(bad, "k", {"a": 1})])      # type: ignore[arg-type]
    with pytest.raises(NotImplementedError):
        store.put(("a",), "k", {"a": 1}, ttl=5)


def test_items_of_a_forgotten_user_are_gone_and_other_memories_are_left_alone(
        tf: Client, store: TriformStore) -> None:
    tf.memory("demo/memory").store("The office opens at nine", "fact")    # not an item
    store.put(("prefs", "ana"), "drink", {"text": "tea"})
    store.put(("prefs", "ben"), "drink", {"text": "coffee"})
    assert store.search(("prefs",)) != [] and len(store.search(())) == 2
    tf.memory("demo/memory").forget_subject("guest", "ana", confirm=True)
    assert store.get(("prefs", "ana"), "drink") is None
    assert store.get(("prefs", "ben"), "drink").value == {"text": "coffee"}
    assert store.list_namespaces() == [("prefs", "ben")]


def test_the_mapping_can_be_told_where_the_user_is(tf: Client) -> None:
    store = TriformStore(tf.memory("demo/memory"), subject_at=0, subject_type="entity",
                         category="preference", fields=["likes"])
    store.put(("ana", "memories"), "k", {"likes": "jasmine tea", "note": "not embedded"})
    [memory] = memories(tf)
    assert (memory["subject_type"], memory["subject_id"], memory["category"]) == \
        ("entity", "ana", "preference")
    assert memory["content"] == "jasmine tea"
    # The item is found whatever the mapping of the store that reads it: by its agent.
    found = TriformStore(tf.memory("demo/memory"), subject_at=None).get(("ana", "memories"), "k")
    assert found is not None and found.value["likes"] == "jasmine tea"


def test_a_refusal_is_the_servers_error(connect: Any) -> None:
    viewer = TriformStore(connect("viewer").memory("demo/memory"))
    with pytest.raises(Forbidden):
        viewer.put(("docs",), "k", {"text": "no"})
