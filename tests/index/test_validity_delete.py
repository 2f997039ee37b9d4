"""Deleting a memory that superseded others (issue 23): a delete says it never was, so the
memories it superseded take over its end, on both backends, durably, with a history entry.

A <- B (B superseded A), B deleted: A is current again. A <- B <- C, B deleted: A is
superseded by C, until C began. A <- B, B retired, then deleted: A ends when B ended.
No memory is ever left naming a successor that is not held.
"""

from __future__ import annotations

import itertools
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import MemoryNotFound, MemorySettings
from index.errors import MemoryNotCurrent
from index.records import iso_utc

EVERYTHING = MemorySettings(relevance_threshold=0.0)
DAY = 86_400.0
MARIA = {"subject_type": "circle_member", "subject_id": "maria"}


def _store(store, content, supersedes=None, **more):
    return store.store(content=content, category="fact", **MARIA, supersedes=supersedes,
                       settings=EVERYTHING, **more).memory


def _held_links(store, **subject):
    """Every memory's successor link, checked to name a memory the store holds."""
    memories = store.list(include_superseded=True, limit=500, **subject)[0]
    ids = {m["id"] for m in memories}
    for m in memories:
        assert m["superseded_by"] is None or m["superseded_by"] in ids, m
    return {m["id"]: m for m in memories}


def test_deleting_the_successor_makes_the_predecessor_current_again(make_store, clock):
    store = make_store()
    porto = _store(store, "Maria lives in Porto")
    clock.advance(30 * DAY)
    lisbon = _store(store, "Maria lives in Lisbon now", [porto["id"]])
    clock.advance(DAY)
    store.delete(lisbon["id"])
    again = store.get(porto["id"])
    assert again["valid_until"] is None and again["superseded_by"] is None
    versions = store.history(porto["id"])
    assert [v["op"] for v in versions] == ["store", "supersede", "delete"]
    assert versions[-1]["at"] == iso_utc(clock()) and lisbon["id"] in versions[-1]["reason"]
    assert versions[-1]["valid_until"] is None
    assert [m["id"] for m in store.list(**MARIA)[0]] == [porto["id"]]
    found = store.search(query="where does Maria live", **MARIA, settings=EVERYTHING)
    assert [r["memory"]["id"] for r in found.results] == [porto["id"]]
    # Current again: it may be updated, superseded and retired as any current memory.
    braga = _store(store, "Maria lives in Braga", [porto["id"]])
    assert store.get(porto["id"])["superseded_by"] == braga["id"]
    assert _held_links(store) and store.verify() == []


def test_a_chain_with_its_middle_deleted_is_superseded_by_the_newest(make_store, clock):
    store = make_store()
    a = _store(store, "Maria works at the bakery")
    clock.advance(10 * DAY)
    b = _store(store, "Maria works at the library now", [a["id"]])
    clock.advance(10 * DAY)
    c = _store(store, "Maria works at the hospital now", [b["id"]])
    store.delete(b["id"])
    old = store.get(a["id"])
    assert old["superseded_by"] == c["id"] and old["valid_until"] == c["valid_from"]
    assert store.get(c["id"])["valid_until"] is None
    # B never was: between B's start and C's, A held.
    between = iso_utc(clock() - 5 * DAY)
    assert [m["id"] for m in store.list(as_of=between, **MARIA)[0]] == [a["id"]]
    assert store.history(a["id"])[-1]["superseded_by"] == c["id"]
    # Deleting C now makes A current.
    store.delete(c["id"])
    assert store.get(a["id"])["valid_until"] is None
    assert [v["op"] for v in store.history(a["id"])] == ["store", "supersede", "delete",
                                                         "delete"]
    assert store.verify() == []


def test_a_retired_successor_deleted_hands_on_its_end(make_store, clock):
    store = make_store()
    a = _store(store, "Maria is allergic to shellfish")
    clock.advance(DAY)
    b = _store(store, "Maria is allergic to shellfish and peanuts", [a["id"]])
    clock.advance(DAY)
    retired = store.retire(b["id"], reason="not allergic anymore")
    store.delete(b["id"])
    old = store.get(a["id"])
    assert old["valid_until"] == retired["valid_until"] and old["superseded_by"] is None
    assert store.list(**MARIA)[0] == []


def test_predecessors_of_one_delete_all_take_over(make_store, clock):
    store = make_store()
    ones = [_store(store, f"Maria has a dog named {name}") for name in ("Rex", "Bo")]
    clock.advance(DAY)
    both = _store(store, "Maria has no dogs now", [m["id"] for m in ones])
    store.delete(both["id"])
    assert {m["id"] for m in store.list(**MARIA)[0]} == {m["id"] for m in ones}


@pytest.mark.file_only("log replay and files on disk")
def test_the_take_over_is_durable_and_the_deleted_reason_leaves_disk(make_store, clock):
    store = make_store()
    a = _store(store, "Maria lives in Porto")
    clock.advance(DAY)
    b = _store(store, "Maria lives in Lisbon now", [a["id"]],
               metadata={"observe": {"evaluator": "rules", "reason": "moved zanzibarword"}})
    clock.advance(DAY)
    c = _store(store, "Maria lives in Faro now", [b["id"]])
    assert store.history(a["id"])[1]["reason"] == "moved zanzibarword"
    store.delete(b["id"])
    assert "reason" not in store.history(a["id"])[1]
    expected = {m: (store.get(m), store.history(m)) for m in (a["id"], c["id"])}
    store.close()
    again = make_store()
    assert {m: (again.get(m), again.history(m)) for m in expected} == expected
    assert again.verify() == []
    files = b"".join(p.read_bytes() for p in again.directory.rglob("*") if p.is_file())
    assert b"Lisbon" not in files and b"zanzibarword" not in files


# -- races: a supersede and a delete at once leave one consistent state ------------------

def _race(*calls):
    start = threading.Barrier(len(calls))
    outcome: list[object] = [None] * len(calls)

    def run(i: int, call) -> None:
        start.wait()
        try:
            outcome[i] = call()
        except (MemoryNotFound, MemoryNotCurrent) as exc:
            outcome[i] = exc
    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcome


@pytest.mark.parametrize("rounds", [12])
def test_a_supersede_of_the_deleted_successor_racing_its_delete(make_store, clock,
                                                                backend, rounds):
    """P <- X; at once: store Y superseding X, and delete X. Either Y is refused (X was
    gone) and P is current again, or Y won and P is superseded by Y: one current memory,
    no link to a memory not held. On PostgreSQL the two are two stores (two workers)."""
    first = make_store()
    second = make_store() if backend == "postgres" else first
    for n in range(rounds):
        who = {"subject_type": "circle_member", "subject_id": f"maria-{n}"}
        p = first.store(content="Maria lives in Porto", category="fact", **who,
                        settings=EVERYTHING).memory
        x = first.store(content="Maria lives in Lisbon", category="fact", **who,
                        supersedes=[p["id"]], settings=EVERYTHING).memory
        stored, _ = _race(
            lambda x=x, who=who: second.store(content="Maria lives in Braga",
                                              category="fact", **who, supersedes=[x["id"]],
                                              settings=EVERYTHING).memory,
            lambda x=x: first.delete(x["id"]))
        for store in {id(first): first, id(second): second}.values():
            held = _held_links(store, **who)
            current = [m["id"] for m in held.values() if m["valid_until"] is None]
            if isinstance(stored, dict):
                assert current == [stored["id"]] and set(held) == {p["id"], stored["id"]}
                assert held[p["id"]]["superseded_by"] == stored["id"]
            else:
                assert isinstance(stored, MemoryNotFound) and current == [p["id"]]


@pytest.mark.parametrize("rounds", [12])
def test_a_supersede_of_the_predecessor_racing_the_successor_delete(make_store, clock,
                                                                    backend, rounds):
    """P <- X; at once: store Y superseding P, and delete X. Y first is refused (P was not
    current) and the delete makes P current; the delete first makes P current and Y then
    supersedes it. One current memory either way."""
    first = make_store()
    second = make_store() if backend == "postgres" else first
    for n in range(rounds):
        who = {"subject_type": "circle_member", "subject_id": f"ana-{n}"}
        p = first.store(content="Ana drives a Fiat", category="fact", **who,
                        settings=EVERYTHING).memory
        x = first.store(content="Ana drives a Volvo", category="fact", **who,
                        supersedes=[p["id"]], settings=EVERYTHING).memory
        stored, _ = _race(
            lambda p=p, who=who: second.store(content="Ana drives a Tesla", category="fact",
                                              **who, supersedes=[p["id"]],
                                              settings=EVERYTHING).memory,
            lambda x=x: first.delete(x["id"]))
        for store in {id(first): first, id(second): second}.values():
            held = _held_links(store, **who)
            current = [m["id"] for m in held.values() if m["valid_until"] is None]
            if isinstance(stored, dict):
                assert current == [stored["id"]]
                assert held[p["id"]]["superseded_by"] == stored["id"]
            else:
                assert isinstance(stored, MemoryNotCurrent) and current == [p["id"]]


# -- the law, on both backends: a delete hands its end to what it superseded ----------------

_OPS = st.lists(st.one_of(
    st.tuples(st.just("store"), st.integers(0, 20), st.booleans()),
    st.tuples(st.just("retire"), st.integers(0, 20)),
    st.tuples(st.just("delete"), st.integers(0, 20))), min_size=1, max_size=25)
_examples = itertools.count()


@settings(settings.get_profile("triform-index"), max_examples=20)
@given(ops=_OPS)
def test_a_delete_hands_its_end_to_the_memories_it_superseded(make_store, clock,
                                                              tmp_path, ops):
    store = make_store(directory=tmp_path / f"law{next(_examples)}")
    made: list[str] = []
    for n, op in enumerate(ops):
        clock.advance(3600)
        held = _held_links(store)
        current = [i for i in made if i in held and held[i]["valid_until"] is None]
        if op[0] == "store":
            ids = [current[op[1] % len(current)]] if op[2] and current else None
            made.append(_store(store, f"Maria fact {n}", ids)["id"])
            continue
        if not made:
            continue
        target = made[op[1] % len(made)]
        if target not in held:
            continue
        if op[0] == "retire":
            if held[target]["valid_until"] is None:
                store.retire(target, reason="ended")
            continue
        gone = held[target]
        heir = held.get(gone["superseded_by"] or "")
        olds = [m for m in held.values() if m["superseded_by"] == target]
        store.delete(target)
        after = _held_links(store)
        for old in olds:
            now = after[old["id"]]
            assert now["superseded_by"] == gone["superseded_by"]
            assert now["valid_until"] == (heir["valid_from"] if heir else gone["valid_until"])
            assert store.history(old["id"])[-1]["op"] == "delete"
        assert {i for i, m in after.items() if m["valid_until"] is None} == {
            m["id"] for m in store.list(limit=500)[0]}
