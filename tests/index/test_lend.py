"""A current memory inherits the relevance of the memories it superseded (``lend.py``),
on both backends: a question in the old fact's words finds the new fact first."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

from index import IndexParams, MemorySettings

EVERYTHING = MemorySettings(relevance_threshold=0.0)
SCOPED = MemorySettings(relevance_threshold=0.0, subject_scoping=True)
DAY = 86_400.0
MARIA = {"subject_type": "circle_member", "subject_id": "maria"}
JOAO = {"subject_type": "circle_member", "subject_id": "joao"}
QUESTION = "Is Maria still a strict vegetarian who never eats meat?"
_OPENED = itertools.count()


def _store(make_store, tmp_path, lend: bool = True):
    return make_store(index_params=IndexParams(lend_superseded=lend),
                      directory=tmp_path / f"lend-{next(_OPENED)}")


def _maria(store, clock):
    """Maria's diet changed (said otherwise), beside her other memories, one of which
    shares words with the question."""
    old = store.store(content="Maria is a strict vegetarian and never eats meat",
                      category="fact", **MARIA, settings=EVERYTHING).memory
    clock.advance(DAY)
    store.store(content="Maria never misses her Tuesday yoga class", category="fact",
                **MARIA, settings=EVERYTHING)
    store.store(content="Maria is still a member of the chess club", category="fact",
                **MARIA, settings=EVERYTHING)
    clock.advance(30 * DAY)
    new = store.store(content="Maria started having fish and chicken again",
                      category="fact", **MARIA, supersedes=[old["id"]], agent="helper",
                      source="conscious", settings=EVERYTHING).memory
    return old, new


def _ids(found):
    return [r["memory"]["id"] for r in found.results]


def test_the_new_fact_inherits_the_old_facts_relevance(make_store, clock, tmp_path):
    for lend in (False, True):
        store = _store(make_store, tmp_path, lend)
        old, new = _maria(store, clock)
        found = store.search(query=QUESTION, **MARIA, settings=EVERYTHING)
        ids = _ids(found)
        assert old["id"] not in ids           # the superseded memory stays hidden
        assert (ids[0] == new["id"]) is lend, ids
    # include_superseded reads the versions themselves: nothing is lent.
    both = store.search(query=QUESTION, **MARIA, include_superseded=True,
                        settings=EVERYTHING)
    assert _ids(both)[0] == old["id"]
    then = store.search(query=QUESTION, **MARIA, as_of=old["created_at"],
                        settings=EVERYTHING)
    assert _ids(then)[0] == old["id"] and new["id"] not in _ids(then)


#: A question in the newer version's words (and, by "still", the chess club's).
NEWER_QUESTION = "Is Maria still having fish and chicken again?"


def _after(memory, days: float) -> str:
    """A time ``days`` after ``memory`` was stored (ISO-8601)."""
    at = datetime.fromisoformat(memory["created_at"].replace("Z", "+00:00"))
    return (at + timedelta(days=days)).isoformat()


def test_as_of_a_time_the_version_then_inherits_its_later_ones(make_store, clock,
                                                                tmp_path):
    """Asked as of a time before the update in the newer fact's words, the fact's
    version that held then is found first (the newer lends to it, as an older version
    lends to a current one); the newer itself stays out, and its own search is as before."""
    for lend in (False, True):
        store = _store(make_store, tmp_path, lend)
        old, new = _maria(store, clock)
        then = _ids(store.search(query=NEWER_QUESTION, **MARIA, as_of=_after(old, 2),
                                 settings=EVERYTHING))
        assert new["id"] not in then and old["id"] in then
        assert (then[0] == old["id"]) is lend, then
        assert _ids(store.search(query=NEWER_QUESTION, **MARIA,
                                 settings=EVERYTHING))[0] == new["id"]


def test_as_of_a_time_between_versions_the_one_then_inherits_both(make_store, clock,
                                                                   tmp_path):
    """Of three versions, the middle one, asked as of its time, inherits the first's and
    the last's relevance; another subject's chain lends it nothing."""
    store = _store(make_store, tmp_path)
    old, new = _maria(store, clock)
    clock.advance(30 * DAY)
    last = store.store(content="Maria is vegan now and eats no animal products at all",
                       category="fact", **MARIA, supersedes=[new["id"]], agent="helper",
                       source="conscious", settings=EVERYTHING).memory
    store.store(content="Joao is a strict vegetarian and never eats meat", category="fact",
                **JOAO, settings=EVERYTHING)
    for question in (QUESTION, NEWER_QUESTION, "Is Maria vegan, eating no animal products?"):
        then = _ids(store.search(query=question, **MARIA, as_of=_after(new, 1),
                                 settings=SCOPED))
        assert then[0] == new["id"] and old["id"] not in then and last["id"] not in then


def test_a_store_without_a_superseded_memory_ranks_as_before(make_store, clock, tmp_path):
    """Bit for bit, a retired memory (no successor) and another subject's included."""
    found = []
    for lend in (False, True):
        store = _store(make_store, tmp_path, lend)
        for i, text in enumerate(["Maria is a strict vegetarian", "Maria plays chess",
                                  "Joao never eats meat", "The team eats at noon"]):
            subject = [MARIA, MARIA, JOAO, {}][i]
            memory = store.store(content=text, category="fact", **subject,
                                 settings=EVERYTHING).memory
            clock.advance(DAY)
        store.retire(memory["id"], reason="the team moved lunch")
        found.append([[(r["memory"]["content"], r["score"], r["lanes"]) for r in
                       store.search(query=QUESTION, settings=EVERYTHING, **scope).results]
                      for scope in (MARIA, JOAO, {})])
    assert found[0] == found[1]


def test_a_subject_never_lends_to_another(make_store, clock, tmp_path):
    """A search scoped to Joao neither finds Maria's new fact through her old one nor
    scores Joao's memories otherwise."""
    store = _store(make_store, tmp_path)
    old, new = _maria(store, clock)
    joao = store.store(content="Joao plays the guitar", category="fact", **JOAO,
                       settings=EVERYTHING).memory
    found = store.search(query=QUESTION, **JOAO, settings=SCOPED)
    assert new["id"] not in _ids(found) and old["id"] not in _ids(found)
    plain = _store(make_store, tmp_path, lend=False)
    plain.store(content="Joao plays the guitar", category="fact", **JOAO,
                settings=EVERYTHING)
    assert [r["score"] for r in found.results if r["memory"]["id"] == joao["id"]] == \
        [r["score"] for r in plain.search(query=QUESTION, **JOAO,
                                          settings=SCOPED).results]


def test_deleting_or_forgetting_the_heir_leaves_no_stray(make_store, clock, tmp_path):
    store = _store(make_store, tmp_path)
    old, new = _maria(store, clock)
    store.delete(new["id"])
    # A delete says the heir never was: the old fact is current again and found itself.
    ids = _ids(store.search(query=QUESTION, **MARIA, settings=EVERYTHING))
    assert new["id"] not in ids and ids[0] == old["id"] and len(ids) == 3
    store = _store(make_store, tmp_path)
    old, new = _maria(store, clock)
    store.forget_subject("circle_member", "maria", confirm=True)
    assert store.search(query=QUESTION, **MARIA, settings=EVERYTHING).results == []
    assert store.search(query=QUESTION, settings=EVERYTHING).results == []
