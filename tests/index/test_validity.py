"""Validity and history (issue 23): supersede, retire, as_of, history, on both backends."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, InvalidMemory, MemoryNotFound, MemorySettings, MemoryStore
from index.errors import MemoryNotCurrent
from index.records import iso_utc
from tests.index.test_properties import Clock

EVERYTHING = MemorySettings(relevance_threshold=0.0)

DAY = 86_400.0
MARIA = {"subject_type": "circle_member", "subject_id": "maria"}
JOAO = {"subject_type": "circle_member", "subject_id": "joao"}


def _porto_then_lisbon(store, clock):
    porto = store.store(content="Maria lives in Porto", category="fact", **MARIA,
                        settings=EVERYTHING).memory
    clock.advance(30 * DAY)
    lisbon = store.store(content="Maria lives in Lisbon now", category="fact", **MARIA,
                         supersedes=[porto["id"]], agent="helper", source="conscious",
                         settings=EVERYTHING).memory
    return porto, lisbon


def _contents(found):
    return [r["memory"]["content"] for r in found.results]


def test_a_supersede_keeps_the_old_memory_out_of_default_recall(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    old = store.get(porto["id"])
    assert old["valid_until"] == lisbon["valid_from"] == lisbon["occurred_at"]
    assert old["superseded_by"] == lisbon["id"]
    assert lisbon["valid_until"] is None and lisbon["superseded_by"] is None
    assert _contents(store.search(query="where does Maria live", **MARIA,
                                  settings=EVERYTHING)) == ["Maria lives in Lisbon now"]
    listed, _ = store.list(**MARIA)
    assert [m["id"] for m in listed] == [lisbon["id"]]
    everything, _ = store.list(**MARIA, include_superseded=True)
    assert {m["id"] for m in everything} == {porto["id"], lisbon["id"]}
    found = store.search(query="where does Maria live", **MARIA, include_superseded=True,
                         settings=EVERYTHING)
    assert {r["memory"]["id"]: r["memory"]["valid_until"] for r in found.results} == {
        porto["id"]: lisbon["valid_from"], lisbon["id"]: None}


def test_as_of_answers_what_was_current_then(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    before = iso_utc(clock() - DAY)
    assert _contents(store.search(query="where does Maria live", **MARIA, as_of=before,
                                  settings=EVERYTHING)) == ["Maria lives in Porto"]
    listed, _ = store.list(**MARIA, as_of=before)
    assert [m["id"] for m in listed] == [porto["id"]]
    assert _contents(store.search(query="where does Maria live", **MARIA,
                                  as_of=iso_utc(clock() + 1),
                                  settings=EVERYTHING)) == ["Maria lives in Lisbon now"]
    # Before either was stored: nothing.
    assert store.search(query="where does Maria live", **MARIA,
                        as_of=iso_utc(clock() - 60 * DAY), settings=EVERYTHING).results == []


def test_as_of_reads_valid_time_whenever_the_memory_was_stored(make_store, clock):
    """The documented choice (docs/memory-runtime.md): a memory stored late about an
    earlier time answers ``as_of`` that time, although the store did not hold it then."""
    store = make_store()
    clock.now = 1_717_200_000.0                                     # 2024-06-01
    late = store.store(content="Maria lived in Porto", category="fact", **MARIA,
                       occurred_at="2023-03-01T00:00:00Z", settings=EVERYTHING).memory
    for as_of, found in (("2023-06-01T00:00:00Z", [late["id"]]),
                         ("2023-01-01T00:00:00Z", [])):
        assert [m["id"] for m in store.list(**MARIA, as_of=as_of)[0]] == found
        assert [r["memory"]["id"] for r in store.search(
            query="where did Maria live", **MARIA, as_of=as_of,
            settings=EVERYTHING).results] == found


def test_history_shows_every_version_and_what_changed_it(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    history = store.history(porto["id"])
    assert [(v["op"], v["content"], v["valid_until"]) for v in history] == [
        ("store", "Maria lives in Porto", None),
        ("supersede", "Maria lives in Porto", lisbon["valid_from"])]
    assert history[1]["superseded_by"] == lisbon["id"]
    assert (history[1]["source"], history[1]["agent"]) == ("conscious", "helper")
    clock.advance(DAY)
    store.update(lisbon["id"], content="Maria lives in Lisbon (Alfama)", category="fact",
                 settings=EVERYTHING, source="conscious", agent="helper", reason="detail")
    versions = store.history(lisbon["id"])
    assert [(v["op"], v["content"]) for v in versions] == [
        ("store", "Maria lives in Lisbon now"), ("update", "Maria lives in Lisbon (Alfama)")]
    assert versions[1]["reason"] == "detail" and versions[1]["at"] == iso_utc(clock())


def test_retire_ends_validity_without_successor(make_store, clock):
    store = make_store()
    allergy = store.store(content="Maria is allergic to shellfish", category="fact", **MARIA,
                          settings=EVERYTHING).memory
    clock.advance(DAY)
    retired = store.retire(allergy["id"], reason="not allergic anymore",
                           source="subconscious", evaluator="rules")
    assert retired["valid_until"] == iso_utc(clock()) and retired["superseded_by"] is None
    assert store.search(query="allergic", **MARIA, settings=EVERYTHING).results == []
    last = store.history(allergy["id"])[-1]
    assert (last["op"], last["reason"], last["evaluator"]) == (
        "retire", "not allergic anymore", "rules")
    with pytest.raises(MemoryNotCurrent):
        store.retire(allergy["id"], reason="again")
    with pytest.raises(MemoryNotCurrent):
        store.update(allergy["id"], content="x", settings=EVERYTHING)


def test_bad_supersedes_are_refused_and_write_nothing(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    joao = store.store(content="Joao lives in Braga", category="fact", **JOAO,
                       settings=EVERYTHING).memory
    general = store.store(content="Lisbon is a city", category="fact",
                          settings=EVERYTHING).memory
    before = store.list(include_superseded=True, limit=500)[0]
    cases = [
        ([joao["id"]], MemoryNotFound),          # another subject: not revealed
        ([general["id"]], MemoryNotFound),       # a general memory is not Maria's
        (["0" * 32], MemoryNotFound),            # none (or another element's)
        ([porto["id"]], MemoryNotCurrent),       # superseded already
        ([lisbon["id"], lisbon["id"]], InvalidMemory),
        ("not-a-list", InvalidMemory),
        ([7], InvalidMemory),
    ]
    for ids, error in cases:
        with pytest.raises(error):
            store.store(content="Maria lives in Faro", category="fact", **MARIA,
                        supersedes=ids, settings=EVERYTHING)
    assert store.list(include_superseded=True, limit=500)[0] == before
    assert store.get(lisbon["id"])["valid_until"] is None


@pytest.mark.parametrize("bad", ["yesterday", "", 12, "2023-13-01"])
def test_a_malformed_as_of_is_refused(make_store, bad):
    store = make_store()
    with pytest.raises(InvalidMemory) as caught:
        store.search(query="x", as_of=bad, settings=EVERYTHING)
    assert caught.value.field == "as_of"
    with pytest.raises(InvalidMemory):
        store.list(as_of=bad)
    with pytest.raises(InvalidMemory):
        store.list(include_superseded="yes")


def test_delete_and_forget_take_the_history_along(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    store.delete(porto["id"])
    with pytest.raises(MemoryNotFound):
        store.history(porto["id"])
    store.forget_subject("circle_member", "maria", confirm=True)
    with pytest.raises(MemoryNotFound):
        store.history(lisbon["id"])
    assert store.list(include_superseded=True)[0] == []


@pytest.mark.file_only("log and checkpoint files")
def test_deleted_versions_leave_the_log(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    store.update(lisbon["id"], content="Maria lives in Lisbon secretly", settings=EVERYTHING)
    store.delete(lisbon["id"])
    text = b"".join(p.read_bytes() for p in store.directory.rglob("*") if p.is_file())
    assert b"Lisbon" not in text
    assert b"Porto" in text       # the superseded one stays, with its history


@pytest.mark.file_only("log replay")
def test_validity_and_history_survive_reopen_and_compaction(make_store, clock, tmp_path):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    store.retire(lisbon["id"], reason="moved away")
    expected = {m: store.history(m) for m in (porto["id"], lisbon["id"])}
    listed = store.list(include_superseded=True)[0]
    store.close()
    again = make_store()
    assert {m: again.history(m) for m in expected} == expected
    assert again.list(include_superseded=True)[0] == listed
    again.compact()
    again.close()
    (tmp_path / "mem" / "sidecar").exists()
    third = make_store()
    assert {m: third.history(m) for m in expected} == expected
    assert third.list(include_superseded=True)[0] == listed
    assert third.list()[0] == []


def test_caps_evict_superseded_memories_first(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    tight = MemorySettings(relevance_threshold=0.0, max_memories=2)
    clock.advance(1)
    result = store.store(content="Maria likes tea", category="preference", **MARIA,
                         settings=tight)
    assert result.evicted == [porto["id"]]


@pytest.mark.parametrize("rounds", [30])
def test_a_supersede_racing_a_delete_leaves_one_consistent_state(make_store, clock, rounds):
    store = make_store()
    for _ in range(rounds):
        old = store.store(content="Maria lives in Porto", category="fact", **MARIA,
                          settings=EVERYTHING).memory
        outcome: dict[str, object] = {}

        def supersede(old: dict = old, outcome: dict = outcome) -> None:
            try:
                outcome["new"] = store.store(content="Maria lives in Lisbon", category="fact",
                                             **MARIA, supersedes=[old["id"]],
                                             settings=EVERYTHING).memory
            except MemoryNotFound:
                outcome["new"] = None

        def delete(old: dict = old) -> None:
            try:
                store.delete(old["id"])
            except MemoryNotFound:
                pass
        threads = [threading.Thread(target=supersede), threading.Thread(target=delete)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        with pytest.raises(MemoryNotFound):
            store.get(old["id"])
        new = outcome["new"]
        if new is not None:
            assert store.get(new["id"])["valid_until"] is None   # type: ignore[index]
            store.delete(new["id"])                              # type: ignore[index]
        assert store.list(include_superseded=True, **MARIA)[0] == []


@pytest.mark.parametrize("rounds", [20])
def test_two_supersedes_racing_one_wins_and_the_other_writes_nothing(make_store, clock,
                                                                    backend, rounds):
    """Two writers supersede one memory at once: exactly one wins, the other is refused
    MEMORY_NOT_CURRENT (409, a conflict) and leaves nothing behind. On PostgreSQL the two
    are two stores on one element, each with its own connections, as two workers are."""
    first = make_store()
    second = make_store() if backend == "postgres" else first
    for n in range(rounds):
        maria = {"subject_type": "circle_member", "subject_id": f"maria-{n}"}
        old = first.store(content="Maria lives in Porto", category="fact", **maria,
                          settings=EVERYTHING).memory
        both = threading.Barrier(2)
        outcome: dict[str, object] = {}

        def supersede(store, city: str, old: dict = old, maria: dict = maria,
                      outcome: dict = outcome, both: threading.Barrier = both) -> None:
            both.wait()
            try:
                outcome[city] = store.store(content=f"Maria lives in {city}",
                                            category="fact", **maria,
                                            supersedes=[old["id"]],
                                            settings=EVERYTHING).memory
            except MemoryNotCurrent as exc:
                outcome[city] = exc
        threads = [threading.Thread(target=supersede, args=(store, city))
                   for store, city in ((first, "Lisbon"), (second, "Braga"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        won = {city: m for city, m in outcome.items() if isinstance(m, dict)}
        lost = [e for e in outcome.values() if isinstance(e, MemoryNotCurrent)]
        assert len(won) == 1 and len(lost) == 1, outcome
        assert lost[0].code == "MEMORY_NOT_CURRENT" and lost[0].error_class == "conflict"
        (city, winner), = won.items()
        for store in {id(first): first, id(second): second}.values():
            assert store.get(old["id"])["superseded_by"] == winner["id"]
            assert [v["op"] for v in store.history(old["id"])] == ["store", "supersede"]
            kept = store.list(include_superseded=True, **maria)[0]
            assert sorted(m["content"] for m in kept) == sorted(
                ["Maria lives in Porto", f"Maria lives in {city}"])
            found = _contents(store.search(query=f"where does Maria live, {city}?",
                                           **maria, settings=EVERYTHING))
            assert found[0] == f"Maria lives in {city}" and "Maria lives in Porto" not in found


# -- replay equals live, with supersede, retire, update, delete and forget interleaved --------

_SUBJECTS = [("guest", "ann"), ("guest", "ben")]
_OP = st.one_of(
    st.tuples(st.just("store"), st.sampled_from(_SUBJECTS), st.integers(0, 30),
              st.booleans()),
    st.tuples(st.just("retire"), st.integers(0, 30)),
    st.tuples(st.just("update"), st.integers(0, 30)),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("forget"), st.sampled_from(_SUBJECTS)),
    st.tuples(st.just("advance"), st.integers(1, 5 * 86_400)),
    st.just(("compact",)))


def _seen(store):
    memories = store.list(include_superseded=True, limit=500)[0]
    return {m["id"]: (m, store.history(m["id"])) for m in memories}


@settings(settings.get_profile("triform-index"), max_examples=25)
@given(ops=st.lists(_OP, min_size=1, max_size=40))
def test_replay_equals_live_and_forgotten_history_is_gone(ops):
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "mem"
        store = MemoryStore(directory, HashingEmbedder(64), clock=clock)
        made: list[str] = []
        forgotten: list[str] = []
        n = 0
        for op in ops:
            current = [m["id"] for m in store.list(limit=500)[0]]
            if op[0] == "store":
                _, who, pick, supersede = op
                n += 1
                same = [m for m in current if
                        store.get(m)["subject_id"] == who[1]]
                ids = [same[pick % len(same)]] if supersede and same else None
                made.append(store.store(content=f"{who[1]} fact {n}", category="fact",
                                        subject_type=who[0], subject_id=who[1],
                                        supersedes=ids, settings=EVERYTHING).memory["id"])
            elif op[0] in ("retire", "update", "delete") and made:
                target = made[op[1] % len(made)]
                try:
                    if op[0] == "retire":
                        store.retire(target, reason="ended")
                    elif op[0] == "update":
                        n += 1
                        who = store.get(target)["subject_id"]
                        store.update(target, content=f"{who} fact {n}", settings=EVERYTHING)
                    else:
                        store.delete(target)
                except (MemoryNotFound, MemoryNotCurrent):
                    pass
            elif op[0] == "forget":
                gone = store.list(include_superseded=True, subject_type=op[1][0],
                                  subject_id=op[1][1], limit=500)[0]
                forgotten += [v["content"] for m in gone for v in store.history(m["id"])]
                store.forget_subject(*op[1], confirm=True)
            elif op[0] == "advance":
                clock.advance(op[1])
            elif op[0] == "compact":
                store.compact()
        live = _seen(store)
        # A delete hands its end on (``test_validity_delete.py``): no link dangles.
        assert all(m["superseded_by"] in (None, *live) for m, _ in live.values())
        store.close()
        again = MemoryStore(directory, HashingEmbedder(64), clock=clock)
        try:
            assert _seen(again) == live
            again.compact()
        finally:
            again.close()
        files = b"".join(p.read_bytes() for p in directory.rglob("*") if p.is_file())
        kept = {v["content"] for _, versions in live.values() for v in versions}
        for text in set(forgotten) - kept:
            assert f'"{text}"'.encode() not in files, text


def test_of_two_near_duplicates_both_current_the_newer_ranks_first(make_store, clock):
    """An update the rules did not catch: both stay current; recall answers the newer."""
    store = make_store()
    old = store.store(content="Maria lives in the city of Porto now", category="fact", **MARIA,
                      settings=EVERYTHING).memory
    clock.advance(30 * DAY)
    new = store.store(content="Maria lives in the city of Lisbon", category="fact",
                      **MARIA, settings=EVERYTHING).memory
    clock.advance(DAY)
    other = store.store(content="Maria likes green tea", category="preference", **MARIA,
                        settings=EVERYTHING).memory
    found = store.search(query="Maria lives in the city", **MARIA, settings=EVERYTHING)
    scores = {r["memory"]["id"]: r["score"] for r in found.results}
    assert 0 < scores[old["id"]] - scores[new["id"]] <= 0.06    # the old one scores higher
    ids = [r["memory"]["id"] for r in found.results]
    assert ids.index(new["id"]) < ids.index(old["id"])
    assert other["id"] in ids       # not a near-duplicate: its place is its score's
    # A query that tells them apart keeps its order.
    named = store.search(query="Maria lives in the city of Porto", **MARIA,
                         settings=EVERYTHING)
    assert named.results[0]["memory"]["id"] == old["id"]


def test_general_near_duplicates_keep_the_order_of_their_scores(make_store, clock):
    """Newer-first groups memories about one subject only: general memories (a team's, a
    conversation's turns) are not one person's changing facts, and keep their order."""
    store = make_store()
    old = store.store(content="The office lives in the city of Porto now", category="fact",
                      settings=EVERYTHING).memory
    clock.advance(30 * DAY)
    new = store.store(content="The office lives in the city of Lisbon", category="fact",
                      settings=EVERYTHING).memory
    found = store.search(query="The office lives in the city", settings=EVERYTHING)
    ids = [r["memory"]["id"] for r in found.results]
    scores = [r["score"] for r in found.results]
    assert {old["id"], new["id"]} <= set(ids) and scores == sorted(scores, reverse=True)


def test_export_and_import_carry_validity_and_history(make_store, clock, tmp_path):
    from index import validate_imported
    from index.log import encode_vector
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    store.retire(lisbon["id"], reason="moved abroad")
    count, exported = store.export(vectors=True)
    memories = list(exported)
    assert count == 2 and all("history" in m for m in memories)
    items = [validate_imported({**{k: v for k, v in m.items() if k != "vectors"},
                                "vectors": {lane: encode_vector(v)
                                            for lane, v in m.get("vectors", {}).items()}},
                               dim=store.dim) for m in memories]
    other = make_store(directory=tmp_path / "other")
    result = other.import_memories(items, model_id=store.model_id, settings=EVERYTHING)
    assert sorted(result.imported) == sorted([porto["id"], lisbon["id"]])
    for memory_id in (porto["id"], lisbon["id"]):
        assert other.history(memory_id) == store.history(memory_id)
        mine, theirs = store.get(memory_id), other.get(memory_id)
        assert {k: theirs[k] for k in ("valid_from", "valid_until", "superseded_by")} == \
            {k: mine[k] for k in ("valid_from", "valid_until", "superseded_by")}
    assert other.list()[0] == []
    assert [m["id"] for m in other.list(as_of=iso_utc(clock() - 15 * DAY),
                                         **MARIA)[0]] == [porto["id"]]


@pytest.mark.parametrize("bad", [
    {"superseded_by": "not-an-id", "valid_until": "2024-01-01"},
    {"superseded_by": "a" * 32},                                    # no valid_until
    {"superseded_by": "b" * 32, "valid_until": "2024-02-01"},       # itself
    {"valid_from": "2024-02-01", "valid_until": "2024-01-01"},      # ends before it begins
    {"history": "nope"},
    {"history": [{"op": "fly", "content": "x", "category": "fact",
                  "valid_from": "2024-01-01", "at": "2024-01-01"}]},
    {"history": [{"op": "store", "content": "", "category": "fact",
                  "valid_from": "2024-01-01", "at": "2024-01-01"}]},
])
def test_an_import_with_bad_validity_is_refused(bad):
    from index import validate_imported
    base = {"id": "b" * 32, "content": "x", "category": "fact",
            "created_at": "2024-01-01T00:00:00Z"}
    with pytest.raises(InvalidMemory):
        validate_imported({**base, **bad})


def test_a_retire_may_say_when_it_stopped_holding(make_store, clock):
    store = make_store()
    vegan = store.store(content="Maria is vegan", category="fact", **MARIA,
                        occurred_at="2024-01-10", settings=EVERYTHING).memory
    retired = store.retire(vegan["id"], reason="no longer vegan", at="2024-03-06")
    assert retired["valid_until"] == "2024-03-06T00:00:00.000000Z"
    assert store.list(**MARIA, as_of="2024-03-01")[0][0]["id"] == vegan["id"]
    assert store.list(**MARIA, as_of="2024-04-01")[0] == []
    assert store.history(vegan["id"])[-1]["at"] == iso_utc(clock())   # when it was said
    early = store.store(content="Maria has a cat", category="fact", **MARIA,
                        occurred_at="2024-01-10", settings=EVERYTHING).memory
    ended = store.retire(early["id"], reason="x", at="2023-01-01")   # before it began
    assert ended["valid_until"] == ended["valid_from"]
    other = store.store(content="Maria has a bike", category="fact", **MARIA,
                        settings=EVERYTHING).memory
    for bad in ("soon", 5):
        with pytest.raises(InvalidMemory):
            store.retire(other["id"], reason="x", at=bad)
    with pytest.raises(InvalidMemory):
        store.retire(other["id"], reason="")
    assert store.get(other["id"])["valid_until"] is None


def test_a_batch_with_a_bad_supersede_writes_nothing(make_store, clock):
    store = make_store()
    porto, lisbon = _porto_then_lisbon(store, clock)
    before = store.list(include_superseded=True)[0]
    ok = {"content": "Maria likes tea", "category": "preference", **MARIA}
    for bad, error in (([porto["id"]], MemoryNotCurrent), (["0" * 32], MemoryNotFound)):
        with pytest.raises(error):
            store.store_many([ok, {**ok, "content": "Maria lives in Faro",
                                   "supersedes": bad}], settings=EVERYTHING)
    twice = {**ok, "content": "Maria lives in Faro", "supersedes": [lisbon["id"]]}
    with pytest.raises(InvalidMemory):
        store.store_many([twice, twice], settings=EVERYTHING)
    assert store.list(include_superseded=True)[0] == before
    done = store.store_many([ok, twice], settings=EVERYTHING)
    assert store.get(lisbon["id"])["superseded_by"] == done[1].memory["id"]
