"""Answers (asks.py, recall.boost_answers): a question that asks when prefers the memories
that say a time, and one that asks for a thing by a noun the memories that say a name, on
either backend; PostgreSQL reads "says a time" and "says a name" as the file store does.

The memories below say the same thing, one of them with its time: without the lever the
shorter one ranks first (more of it matches the question); asked when, the one that says
when comes first; asked anything else, the order is the words'.
"""

from __future__ import annotations

import itertools

import numpy as np
import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import IndexParams, MemorySettings
from index.asks import NAME_PATTERN, TIME_PATTERN, asked, asks_time, says_name, says_time
from index.recall import boost_answers

PROFILE = settings.get_profile("triform-index")
_OPENED = itertools.count()
EVERYTHING = MemorySettings(relevance_threshold=0.0)
PLAIN = "Caroline adopted the dog from the shelter"
TIMED = "Caroline adopted the dog from the shelter yesterday"


@pytest.mark.parametrize("query", [
    "When did Caroline adopt the dog?", "when was it?", "  When, exactly?",
    "What year did Jon move?", "Which month is the party?", "How long ago did it start?",
    "How long has Nate had his turtles?", "For how long did she live there?",
    "How many weeks passed between the two trips?", "In which month did he move?"])
def test_a_query_that_asks_when(query):
    assert asks_time(query)


@pytest.mark.parametrize("query", [
    "Where did Caroline adopt the dog?", "What did Jon say when he left?", "Whenever",
    "How long is the trail?", "How long are the films?", "How many dogs does she have?",
    "What daycare does she use?", "", None])
def test_a_query_that_does_not_ask_when(query):
    assert not asks_time(query)


@pytest.mark.parametrize("text", [
    "I went there yesterday", "Two weeks ago we moved", "We met last summer",
    "this past weekend was fun", "It opens on Monday", "Back in 2019 I lived in Oslo",
    "I've had him for 10 years", "a few days later", "We married in June",
    "next Friday works", "TONIGHT!"])
def test_a_memory_that_says_a_time(text):
    assert says_time(text)


@pytest.mark.parametrize("text", [
    "I love my dog", "May I come?", "We played 3000 games", "the weekday crowd",
    "Agon is a game", "I walked a few miles", "Sundayish vibes", "lastly"])
def test_a_memory_that_says_no_time(text):
    assert not says_time(text)


@pytest.mark.parametrize(("query", "kind"), [
    ("What books has Melanie read?", "name"), ("Which cities has Jon visited?", "name"),
    ("What kind of music does she like?", "name"), ("  what game was it?", "name"),
    ("What sport does Kofi do?", "name"),
    ("What year did Jon move?", "time"), ("When did she go?", "time"),
    ("What is Jon's job?", None), ("What did Jon say when he left?", None),
    ("What inspired her to paint?", None), ("Which would she prefer?", None),
    ("Who did John go to yoga with?", None), ("Where is it?", None), ("", None),
    (None, None)])
def test_what_a_query_asks_for(query, kind):
    """A time first; else a thing, where "what" or "which" comes before a noun (not an
    auxiliary, a modal or a past tense)."""
    assert asked(query) == kind


@pytest.mark.parametrize("text", [
    'I just finished "A Dance with Dragons"', "we went to Paris last year",
    "Caroline: a game called Xenoblade", "I read it to Max", "the 'Hobbit' again"])
def test_a_memory_that_says_a_name(text):
    assert says_name(text)


@pytest.mark.parametrize("text", [
    "Caroline: Thanks, Melanie!", "I love reading", "Paris is lovely", "Bye Joanna!",
    "Yes. It was great", "I think so", "we went to PARIS", ""])
def test_a_memory_that_says_no_name(text):
    """A sentence's first word, "I", a name set off as an address, or a word in capitals
    is no name said within a sentence."""
    assert not says_name(text)


_PIECES = ["last", "next", "this", "past", "week", "weeks", "weekend", "summer", "ago",
           "yesterday", "Monday", "mondays", "June", "may", "2023", "1899", "20", "19",
           "two", "a", "few", "couple", "of", "days", "years", "x", "lastly", "10",
           ",", ".", "!", "-", "'", "day"]


@settings(PROFILE, max_examples=60)
@given(texts=st.lists(st.lists(st.sampled_from(_PIECES), max_size=6).flatmap(
    lambda words: st.sampled_from([" ", "", "  "]).map(lambda sep: sep.join(words))),
    min_size=1, max_size=40))
def test_postgres_reads_a_time_as_the_file_store_does(pg_server, texts):
    """``TIME_PATTERN`` is one expression for Python's ``re`` and PostgreSQL's ``~``: on
    every text, they agree (``asks.says_time`` against the database's reading)."""
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        found = conn.execute("SELECT t ~ %s FROM unnest(%s::text[]) WITH ORDINALITY "
                             "AS u(t, i) ORDER BY i", (TIME_PATTERN, texts)).fetchall()
    assert [bool(r[0]) for r in found] == [says_time(t) for t in texts]


_NAME_PIECES = ["we", "went", "to", "Paris", "PARIS", "I", "i", "Dune", "called", "x",
                '"', "'", '"A', "'Hobbit'", ",", ".", ":", "Caroline:", "3", "a1", "Éva",
                "the"]


@settings(PROFILE, max_examples=60)
@given(texts=st.lists(st.lists(st.sampled_from(_NAME_PIECES), max_size=6).flatmap(
    lambda words: st.sampled_from([" ", "", "  "]).map(lambda sep: sep.join(words))),
    min_size=1, max_size=40))
def test_postgres_reads_a_name_as_the_file_store_does(pg_server, texts):
    """``NAME_PATTERN`` is one expression for Python's ``re`` and PostgreSQL's ``~``: on
    every text, they agree (``asks.says_name`` against the database's reading)."""
    with psycopg.connect(pg_server.url, autocommit=True) as conn:
        found = conn.execute("SELECT t ~ %s FROM unnest(%s::text[]) WITH ORDINALITY "
                             "AS u(t, i) ORDER BY i", (NAME_PATTERN, texts)).fetchall()
    assert [bool(r[0]) for r in found] == [says_name(t) for t in texts]


@settings(PROFILE, max_examples=60)
@given(values=st.lists(st.floats(0, 1), min_size=1, max_size=12), data=st.data(),
       weight=st.floats(0, 1))
def test_the_boost_lifts_the_memories_that_say_it_only_and_keeps_each_sides_order(
        values, data, weight):
    s = np.array(values)
    says = np.array(data.draw(st.lists(st.booleans(), min_size=len(s), max_size=len(s))))
    out = boost_answers(s, says, weight)
    assert np.array_equal(out[~says], s[~says])
    assert np.all(out >= s - 1e-12) and np.all(out <= 1.0 + 1e-12)
    order = np.argsort(s[says], kind="stable")
    assert np.all(np.diff(out[says][order]) >= -1e-12)


def _ask(store, query: str) -> list[str]:
    found = store.search(query=query, limit=2, settings=EVERYTHING)
    return [r["memory"]["content"] for r in found.results]


def _store(make_store, tmp_path, weight: float):
    store = make_store(index_params=IndexParams(answer_weight=weight),
                       directory=tmp_path / f"asks-{next(_OPENED)}")
    store.store(content=TIMED, category="context", settings=EVERYTHING)
    store.store(content=PLAIN, category="context", settings=EVERYTHING)
    return store


def test_a_question_that_asks_when_finds_the_memory_that_says_when_first(make_store,
                                                                          tmp_path):
    question = "When did Caroline adopt the dog from the shelter?"
    assert _ask(_store(make_store, tmp_path, 0.0), question) == [PLAIN, TIMED]
    assert _ask(_store(make_store, tmp_path, IndexParams().answer_weight),
                question) == [TIMED, PLAIN]


def test_a_question_that_asks_something_else_keeps_the_order_of_the_words(make_store,
                                                                          tmp_path):
    store = _store(make_store, tmp_path, IndexParams().answer_weight)
    assert _ask(store, "Where did Caroline adopt the dog from?") == [PLAIN, TIMED]


def test_a_memory_says_a_time_by_what_its_text_says_now(make_store, tmp_path):
    """After its text changes, and after the store is opened again, a memory is lifted
    by what its text says then (the file store reads it once per text)."""
    directory = tmp_path / "retimed"
    store = make_store(directory=directory)
    timed = store.store(content=TIMED, category="context", settings=EVERYTHING).memory
    plain = store.store(content=PLAIN, category="context", settings=EVERYTHING).memory
    question = "When did Caroline adopt the dog from the shelter?"
    assert _ask(store, question) == [TIMED, PLAIN]
    store.update(timed["id"], content=PLAIN + " in the rain", settings=EVERYTHING)
    store.update(plain["id"], content=PLAIN + " last week", settings=EVERYTHING)
    assert _ask(store, question)[0] == PLAIN + " last week"
    store.close()
    store = make_store(directory=directory)
    assert _ask(store, question)[0] == PLAIN + " last week"


# Six ways of saying the question's words; the named memory, said otherwise, ranks after
# them without the lift.
ON_THE_TRAIN = ["Caroline read a book on the train home",
                "Caroline read a book on the train to work",
                "Caroline read a book on the train at night",
                "Caroline read a book on the train with tea",
                "Caroline read a book on the train again",
                "Caroline read a book on the train today"]
NAMED = "Caroline read a novel called Dune on the train"
OTHERS = ["Caroline read a magazine on the long train ride back",
          "Caroline read the news on the bus"]


def _listed(make_store, tmp_path, weight: float, query: str) -> list[str]:
    store = make_store(index_params=IndexParams(answer_weight=weight),
                       directory=tmp_path / f"asks-{next(_OPENED)}")
    for content in [*ON_THE_TRAIN[:5], NAMED, *OTHERS, ON_THE_TRAIN[5]]:
        store.store(content=content, category="context", settings=EVERYTHING)
    found = store.search(query=query, limit=10, settings=EVERYTHING).results
    scores = [r["score"] for r in found]
    assert scores == sorted(scores, reverse=True)
    return [r["memory"]["content"] for r in found]


def test_a_question_that_asks_for_things_lifts_a_named_memory_past_the_first_five(
        make_store, tmp_path):
    """The first five places are the words'; after them the memory that names a thing
    comes before the one that says the same words without a name, and the scores still
    never rise down the list."""
    question = "What books did Caroline read on the train?"
    before = _listed(make_store, tmp_path, 0.0, question)
    after = _listed(make_store, tmp_path, IndexParams().answer_weight, question)
    assert after[:5] == before[:5]
    assert before.index(NAMED) > 5 and after.index(NAMED) == 5


def test_a_question_that_asks_no_things_keeps_the_order_of_the_words(make_store, tmp_path):
    question = "Where did Caroline read a book on the train?"
    assert _listed(make_store, tmp_path, 0.0, question) == \
        _listed(make_store, tmp_path, IndexParams().answer_weight, question)
