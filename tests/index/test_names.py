"""Names (names.py, recall.boost_named): a question that names someone prefers the memories
about that person (that open with the name, or say it otherwise than as an address), on
either backend.

Every test below asks about Caroline among memories that all say "Caroline" and the same
other words: the one Caroline said (or that is about her) comes first; one that merely
addresses her does not pass it.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import IndexParams, MemorySettings
import re

from index.lexical import STOPWORDS
from index.names import (
    MAX_NAMES,
    first_name,
    named_in,
    opening_name,
    query_names,
    said_sql,
    without_names,
)
from index.recall import boost_named, without_name
from index.slots import GENERAL, UNREAD, SlotTable

PROFILE = settings.get_profile("triform-index")
_OPENED = itertools.count()
EVERYTHING = MemorySettings(relevance_threshold=0.0)
SCOPED = MemorySettings(relevance_threshold=0.0, subject_scoping=True)
# The same bag of words: equal vectors (the hashing embedder) and equal BM25, so only the
# name boost tells them apart (without it, the newer one ranks first).
ABOUT_HER = "Caroline: Melanie, I researched adoption agencies"
MENTIONS_HER = "Melanie: Caroline, I researched adoption agencies"


def test_the_names_of_a_question_are_its_capitalised_words_that_are_not_stopwords():
    assert query_names("What did Caroline research?") == ("caroline",)
    assert query_names("When did Melanie paint Caroline's sunrise in Paris?") == (
        "melanie", "caroline", "paris")
    assert query_names("Caroline's dog?") == ("caroline",)
    assert query_names("Is I what When Where") == ()
    assert query_names("what did caroline research") == ()
    assert query_names("") == () and query_names(None) == ()


def test_a_long_list_of_names_counts_its_first_ones():
    names = [f"Name{chr(97 + i)}" for i in range(20)]
    assert query_names(" ".join(names)) == tuple(n.lower() for n in names[:MAX_NAMES])


def test_a_memory_opens_with_its_first_run_of_letters():
    assert opening_name("Caroline: I researched agencies") == "caroline"
    assert opening_name("Caroline's dog loves the beach") == "caroline"
    assert opening_name("caroline likes tea") == "caroline"
    assert opening_name(" Caroline: hi") is None
    assert opening_name("9am: Caroline called") is None
    assert opening_name("") is None


_TEXT = st.text(st.sampled_from("abcAB K\u212a\u00e9:'1 "), max_size=8)


@settings(PROFILE, max_examples=150)
@given(steps=st.lists(st.tuples(st.sampled_from(["store", "change", "delete", "ask"]),
                                st.integers(0, 7), _TEXT), max_size=30),
       names=st.lists(st.text(st.sampled_from("abk"), min_size=1, max_size=3), max_size=3))
def test_the_opening_name_column_is_the_rule_whatever_the_history(steps, names):
    """The file store reads each memory's opening name once into a column
    (``SlotTable.opens_named``); through stores, changes of text, deletes that free a
    label for reuse and searches of other names in between, the column answers what the
    rule says of the text each label holds now."""
    slots = SlotTable()
    texts: dict[int, str] = {}
    for action, at, text in steps:
        live = sorted(texts)
        if action == "store":
            label = slots.allocate(f"m{len(texts)}-{at}", owner=GENERAL, category="fact",
                                   seq=len(steps), created=0.0, access=0)
            texts[label] = text
        elif action == "change" and live:
            label = live[at % len(live)]
            texts[label] = text
            slots.opening[label] = UNREAD
        elif action == "delete" and live:
            label = live[at % len(live)]
            slots.release(label)
            del texts[label]
        elif live:
            # Each search asks its own names (some of them), and is answered by the rule.
            asked = tuple(names[:at % (len(names) + 1)])
            found = slots.opens_named(np.array(live), asked, texts.__getitem__)
            assert found.tolist() == [not set(asked).isdisjoint(named_in(texts[label]))
                                      for label in live]
    live = np.array(sorted(texts), dtype=np.int64)
    found = slots.opens_named(live, tuple(names), texts.__getitem__)
    assert found.tolist() == [not set(names).isdisjoint(named_in(texts[label]))
                              for label in live.tolist()]


def test_a_memory_is_about_the_names_it_says_but_not_those_it_addresses():
    assert named_in("First night in Agnes's new apartment in Vancouver") \
        >= {"agnes", "vancouver"}
    assert "nikhil" in named_in("Noodle went to a rescue, and Nikhil's family has one")
    assert "agnes" in named_in("Tom met Agnes at the station")
    assert "caroline" in named_in("caroline likes tea")
    assert "caroline" not in named_in("Melanie: Caroline, that's great!")
    assert "mel" not in named_in("Caroline: Thanks, Mel!")
    assert "mel" not in named_in("Is that so, Mel?")
    assert "tea" not in named_in("Caroline likes tea")


@settings(PROFILE, max_examples=300)
@given(text=st.text(st.sampled_from("AaGgNnSs :,!?.'x\n-1"), max_size=24),
       name=st.text(st.sampled_from("agns"), min_size=1, max_size=4))
def test_the_sql_rule_reads_a_name_as_the_file_store_does(text, name):
    """PostgreSQL reads whether a content is about a name by ``OPENING_SQL`` or
    ``said_sql``'s expression (the same expression in Python's ``re`` here); the file
    store by ``named_in``: they agree on every text."""
    if name in STOPWORDS:
        return
    said = re.search(said_sql((name,)), text) is not None
    assert (name in named_in(text)) == (opening_name(text) == name or said)


@settings(PROFILE, max_examples=80)
@given(scores=st.lists(st.floats(0, 1), min_size=1, max_size=12), data=st.data(),
       weight=st.floats(0, 1))
def test_the_boost_lifts_named_memories_only_and_keeps_each_sides_order(scores, data,
                                                                      weight):
    s = np.array(scores)
    named = np.array(data.draw(st.lists(st.booleans(), min_size=len(s), max_size=len(s))))
    out = boost_named(s, named, weight)
    assert np.array_equal(out[~named], s[~named])
    assert np.all(out >= s - 1e-12) and np.all(out <= 1.0 + 1e-12)
    for i in range(len(s)):
        for j in range(len(s)):
            if named[i] == named[j] and s[i] < s[j]:
                assert out[i] <= out[j]


def _ask(make_store, tmp_path, weight: float, query: str, *,
         subject=None) -> list[str]:
    store = make_store(index_params=IndexParams(name_weight=weight),
                       directory=tmp_path / f"names-{next(_OPENED)}")
    settings_ = SCOPED if subject else EVERYTHING
    who = {"subject_type": subject[0], "subject_id": subject[1]} if subject else {}
    store.store(content=ABOUT_HER, category="context", settings=settings_, **who)
    store.store(content=MENTIONS_HER, category="context", settings=settings_, **who)
    store.store(content="Jon: the bakery opens at six", category="context",
                settings=settings_, **who)
    found = store.search(query=query, limit=3, settings=settings_,
                         **({"subject_type": subject[0], "subject_id": subject[1]}
                            if subject else {}))
    return [r["memory"]["content"] for r in found.results]


def test_a_question_naming_someone_finds_what_they_said_first(make_store, tmp_path):
    question = "What did Caroline research?"
    assert _ask(make_store, tmp_path, 0.0, question)[0] == MENTIONS_HER
    assert _ask(make_store, tmp_path, IndexParams().name_weight, question)[0] == ABOUT_HER


def test_the_name_counts_in_a_subjects_scope_too(make_store, tmp_path):
    assert _ask(make_store, tmp_path, IndexParams().name_weight,
                "What did Caroline research?", subject=("guest", "g1"))[0] == ABOUT_HER


@pytest.mark.parametrize("query", ["what did caroline research?",
                                   "What did they research?"])
def test_a_question_naming_nobody_keeps_the_order_of_the_words(make_store, tmp_path, query):
    # Lower case is not a name: the boost needs the capital a name is written with.
    assert _ask(make_store, tmp_path, IndexParams().name_weight, query)[0] == MENTIONS_HER


def test_the_name_reorders_and_never_hides(make_store, tmp_path):
    found = _ask(make_store, tmp_path, IndexParams().name_weight,
                 "What did Caroline research?")
    assert sorted(found[:2]) == sorted([ABOUT_HER, MENTIONS_HER]) and len(found) == 3


def test_a_memory_is_named_by_what_its_text_opens_with_now(make_store, tmp_path):
    """After its text changes, and after the store is opened again, a memory is boosted
    by the name its text opens with then. The older memory wins only through the boost
    (equal words rank the newer first), so a stale opening name would show."""
    directory = tmp_path / "renamed"
    store = make_store(directory=directory)
    older = store.store(content=MENTIONS_HER, category="context", settings=EVERYTHING).memory
    newer = store.store(content=ABOUT_HER, category="context", settings=EVERYTHING).memory

    def first() -> str:
        return str(store.search(query="What did Caroline research?", limit=2,
                                settings=EVERYTHING).results[0]["memory"]["id"])

    assert first() == newer["id"]
    store.update(older["id"], content=ABOUT_HER, settings=EVERYTHING)
    store.update(newer["id"], content=MENTIONS_HER, settings=EVERYTHING)
    assert first() == older["id"]
    store.close()
    store = make_store(directory=directory)
    assert first() == older["id"]
    store.update(older["id"], content=MENTIONS_HER, settings=EVERYTHING)
    store.update(newer["id"], content=ABOUT_HER, settings=EVERYTHING)
    assert first() == newer["id"]


def test_the_query_without_its_names_finds_what_was_asked_over_the_name(make_store,
                                                                         tmp_path):
    """The content lane searches with the mean of the query's vector and that of the
    query without its names: a memory that says what was asked gains on one that only
    says the name (names.without_names)."""
    assert without_names("What did Caroline's sister research?", ("caroline",)) == \
        "What did sister research?"
    # The first name only: a later one is often what is asked.
    assert without_names("Did Maria move to Porto? Maria said so", ("maria", "porto")) \
        == "Did move to Porto? said so"
    assert without_names("Caroline?", ("caroline",)) is None
    sims = {}
    for on in (False, True):
        store = make_store(index_params=IndexParams(query_without_names=on, name_weight=0,
                                                    name_projection=0.0),
                           directory=tmp_path / f"unnamed-{on}")
        for text in ("Caroline Caroline Caroline", "sister research adoption"):
            store.store(content=text, category="fact", settings=EVERYTHING)
        found = store.search(query="What did Caroline's sister research?", limit=2,
                             settings=EVERYTHING).results
        sims[on] = {r["memory"]["content"]: r["lanes"]["content"] for r in found}
    assert sims[True]["sister research adoption"] > sims[False]["sister research adoption"]
    assert sims[True]["Caroline Caroline Caroline"] < sims[False]["Caroline Caroline Caroline"]


def _unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@settings(PROFILE, max_examples=80)
@given(seed=st.integers(0, 2**32 - 1), share=st.floats(0, 0.95))
def test_without_the_name_the_same_text_scores_1_and_the_name_alone_0(seed, share):
    """recall.without_name is the cosine of the residuals once the name's direction is
    out of both sides: the query against itself stays 1, against the name alone 0, and
    it stays a cosine (in [-1, 1])."""
    rng = np.random.default_rng(seed)
    name = _unit(rng.normal(size=16))
    query = _unit(share * name + (1 - share) * _unit(rng.normal(size=16)))
    memories = np.array([_unit(rng.normal(size=16)) for _ in range(6)] + [query, name])
    a = float(query @ name)
    out = without_name(memories @ query, memories @ name, a)
    assert out[-2] == pytest.approx(1.0, abs=1e-6)
    assert out[-1] == pytest.approx(0.0, abs=1e-6)
    assert np.all(np.abs(out) <= 1.0)
    # It is the cosine of the projected vectors.
    rest = lambda v: v - (v @ name) * name   # noqa: E731
    for m, value in zip(memories[:6], out[:6], strict=True):
        assert value == pytest.approx(float(_unit(rest(query)) @ _unit(rest(m))), abs=1e-6)


def test_the_name_to_take_out_is_the_first_as_the_query_writes_it():
    question = "What did MELANIE tell Caroline?"
    assert first_name(question, query_names(question)) == "MELANIE"
    assert first_name("What did Caroline's sister research?", ("caroline",)) == "Caroline"
    assert first_name("Caroline?", ("caroline",)) is None
    assert first_name("What did she research?", ()) is None


def test_a_memory_that_says_what_was_asked_gains_on_one_that_says_the_name(make_store,
                                                                             tmp_path):
    """The more of the content cosine is read with the name's direction out
    (name_projection: none, half, the default share, all of it), the more a memory that
    says what was asked gains on one that only says the name: on both backends alike."""
    sims = {}
    for share in sorted({0.0, 0.5, IndexParams().name_projection, 1.0}):
        store = make_store(index_params=IndexParams(name_projection=share, name_weight=0),
                           directory=tmp_path / f"projection-{share}")
        for text in ("Caroline Caroline Caroline", "sister research adoption"):
            store.store(content=text, category="fact", settings=EVERYTHING)
        found = store.search(query="What did Caroline's sister research?", limit=2,
                             settings=EVERYTHING).results
        sims[share] = {r["memory"]["content"]: r["lanes"]["content"] for r in found}
    shares = sorted(sims)
    for less, more in zip(shares, shares[1:], strict=False):
        assert sims[more]["sister research adoption"] > sims[less]["sister research adoption"]
        assert sims[more]["Caroline Caroline Caroline"] < \
            sims[less]["Caroline Caroline Caroline"]


@pytest.mark.parametrize("params", [IndexParams(query_without_names=True),
                                    IndexParams(name_projection=1.0)],
                         ids=["query-without-names", "name-projection"])
def test_with_the_name_out_the_querys_own_text_still_scores_1(make_store, tmp_path, params):
    """The query's vector is not its own once the name is taken out (of half of it, or of
    both sides' cosine); a memory of exactly its text still scores 1, and threshold 1
    still finds it."""
    store = make_store(index_params=params, directory=tmp_path / "exact")
    text = "Caroline lives in Bergen"
    mine = store.store(content=text, category="fact", settings=EVERYTHING).memory
    store.store(content="Caroline lives in Oslo", category="fact", settings=EVERYTHING)
    found = store.search(query=text, settings=MemorySettings(relevance_threshold=1.0))
    assert [r["memory"]["id"] for r in found.results] == [mine["id"]]
    assert found.results[0]["score"] >= 1.0 - 1e-5


@pytest.mark.parametrize("weight", [0.0, IndexParams().name_weight])
def test_a_memory_that_says_the_name_anywhere_is_about_them(make_store, tmp_path, weight):
    """An update told as it was said ("I love Agnes, the new flat") is about Agnes though
    it opens with the speaker; one that only addresses her is not. The same words: without
    the boost the newer (the address) ranks first."""
    store = make_store(index_params=IndexParams(name_weight=weight),
                       directory=tmp_path / f"anywhere-{next(_OPENED)}")
    says = "Tom: I love Agnes, the new flat"
    addresses = "Tom: Agnes, I love the new flat"
    store.store(content=says, category="context", settings=EVERYTHING)
    store.store(content=addresses, category="context", settings=EVERYTHING)
    found = store.search(query="What does Agnes love?", limit=2, settings=EVERYTHING)
    first = found.results[0]["memory"]["content"]
    assert first == (says if weight else addresses)


def test_a_served_file_store_reads_every_memorys_names_after_it_opens(tmp_path):
    """A store opened to serve (``repair_on_open``) reads the names of all its memories
    on its background thread just after it opens (``MemoryStore._after_open``), so no search
    pays for them; a search then answers what a store reading them lazily answers."""
    import time

    from index import HashingEmbedder, MemoryStore
    contents = ["Maria planted tomatoes", "Melanie: Caroline, that's great!", "Jon sings",
                "First night in Agnes's new apartment", "the garden needs water",
                "When did Maria move? Last May"] * 50
    with MemoryStore(tmp_path / "mem", HashingEmbedder(64)) as store:
        for i, content in enumerate(contents):
            store.store(content=f"{content} {i}", category="fact", settings=EVERYTHING)
    with MemoryStore(tmp_path / "mem", HashingEmbedder(64)) as lazy:
        slots = lazy._state.slots
        live = slots.unread(0, slots.high_water)
        assert len(live) == len(contents)     # a cold start reads none
        expected = lazy.search(query="When did Maria plant tomatoes?", limit=20,
                               settings=EVERYTHING, count_access=False).results
    with MemoryStore(tmp_path / "mem", HashingEmbedder(64), repair_on_open=True) as served:
        slots = served._state.slots
        deadline = time.monotonic() + 30
        while len(slots.unread(0, slots.high_water)) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not len(slots.unread(0, slots.high_water))
        found = served.search(query="When did Maria plant tomatoes?", limit=20,
                              settings=EVERYTHING, count_access=False).results
    assert [(r["memory"]["id"], r["score"]) for r in found] == \
        [(r["memory"]["id"], r["score"]) for r in expected]
