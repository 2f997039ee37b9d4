"""A current memory inherits the relevance of the memories it superseded (``lend.py``),
on both backends: a question in the old fact's words finds the new fact first."""

from __future__ import annotations

import itertools

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
    # as_of and include_superseded read the versions themselves: nothing is lent.
    both = store.search(query=QUESTION, **MARIA, include_superseded=True,
                        settings=EVERYTHING)
    assert _ids(both)[0] == old["id"]
    then = store.search(query=QUESTION, **MARIA, as_of=old["created_at"],
                        settings=EVERYTHING)
    assert old["id"] in _ids(then) and new["id"] not in _ids(then)


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
