"""element/agents/carriers.py: the clauses that carry a chat sentence's facts, its build
undone (a fronted participle or subordinate clause, an apposition, a colon, a trailing
relative clause, emoji), and what the rules then keep of such a sentence on a real store.

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: a fact told inside a build replaces the old value as the plain statement would;
a plan, a condition or a past "when" inside the same builds replaces nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.carriers import carriers, past_of
from element.agents.cleaning import statements
from index import MemoryStore
from tests.element.speaker import background_kept, current, tell_after


# -- the clauses ----------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,expected", [
    # a perfect participle fronted: the speaker's act, told before the main clause as
    # chat coordinates two acts
    ("Having sold the van, I've bought an e-bike",
     ["I have sold the van and I've bought an e-bike"]),
    # a gerund after "since"/"after": the event told as having happened, in the past
    ("Since joining the choir, I sing every week", ["I joined the choir and I sing every week"]),
    ("after getting a dog we walk more", ["we got a dog and we walk more"]),
    ("I cook far more since moving to Derby", ["I moved to Derby", "I cook far more"]),

    # a finite clause after a subordinator that tells it as true
    ("Now that I work from home, my commute is gone", ["I work from home and my commute is gone"]),
    ("Now that I work from home, the commute is gone", ["I work from home", "the commute is gone"]),
    # a present participle fronted with another subject after it: the speaker's act
    ("Working nights at the depot now, sleep is a luxury",
     ["I am working nights at the depot now", "sleep is a luxury"]),
    ("Driving back from Hull, I hit a pothole",
     ["I was driving back from Hull and I hit a pothole"]),
    # a name and the speaker's relation to it, in apposition
    ("Priti, my flatmate, left for Oslo", ["My flatmate is Priti", "Priti left for Oslo"]),
    # an interjection or a time before a statement whose subject is dropped
    ("Ugh, swapped to a Fairphone in May", ["swapped to a Fairphone in May"]),
    ("Last month, started at the library", ["Last month, I started at the library"]),
    ("Honestly, since joining the choir, I sing every week",
     ["I joined the choir and I sing every week"]),
    # a colon between two statements; emoji
    ("Big decision: sold my drum kit 🥁", ["Big decision", "sold my drum kit"]),

])
def test_a_built_sentence_gives_the_clauses_that_carry_its_facts(
        sentence: str, expected: list[str]) -> None:
    assert carriers(sentence) == expected


@pytest.mark.parametrize("sentence", [
    "If I move to Leeds, I will cycle to work",          # a condition
    "When I lived in Leeds, I cycled everywhere",        # a past "when"
    "After moving to Perth, I'll find a job",            # a plan after the fronted clause
    "Since March, I've lived in Leeds",                  # a time, no clause
    "Speaking of trips, we went to Rome",                # a participle framing the talk
    "My new number is: 0161 496 0000",                   # a colon introducing a value
    "My new GP: Dr Lamb, she is great",                  # a value after a colon
    "I got a new car, which is a Tesla",                 # the value in a relative clause
    "I live in Leeds and work in York",                  # no build to undo
    "I take the tram now that my ankle is bad",          # a cause after the statement
    "Since the office moved, I just walk in",            # another's clause: the scene
    "After the shop closed we opened a cafe",
    "Honestly I live in Leeds",                          # the subject said: read already
    "Actually, moved to Leeds",                          # a correction's marker stays
    "Also got a cat last week",                          # so does an addition's
])
def test_a_sentence_of_no_such_build_is_given_back_whole(sentence: str) -> None:
    assert carriers(sentence) == [sentence]


@pytest.mark.parametrize("ing,past", [("moving", "moved"), ("getting", "got"),
                                      ("stopping", "stopped"), ("studying", "studied"),
                                      ("taking", "took"), ("joining", "joined"),
                                      ("morning", None), ("sing", None)])
def test_past_of_a_gerund(ing: str, past: str | None) -> None:
    assert past_of(ing) == past


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=120))
def test_carriers_are_never_empty(text: str) -> None:
    out = carriers(text)
    assert out and all(isinstance(c, str) for c in out)
    if text.strip():
        assert all(c.strip() for c in out) or out == [text]


@given(st.lists(st.sampled_from("I we live work in at Leeds York the a and now".split()),
                min_size=1, max_size=12))
def test_words_of_no_build_come_back_unchanged(words: list[str]) -> None:
    sentence = " ".join(words)
    assert carriers(sentence) == [sentence]


def test_the_rules_read_the_clauses_of_a_built_sentence() -> None:
    said = [s for _, s, _ in statements("Honestly, since moving to Derby, I cook far more!")]
    assert said == ["I moved to Derby", "I cook far more"]


# -- on a real store ------------------------------------------------------------------------

@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,old,new", [
    ("I live in Exeter.", "Since moving to Truro in May, I cycle to the office!",
     "lives in Exeter", "Truro"),
    ("I play tennis on Sundays.", "Having done my ankle in, I've switched to badminton.",
     "tennis on Sundays", "badminton"),
    ("I drive a Skoda Fabia.", "Having sold the Fabia, I've got a Renault Zoe.",
     "drives a Skoda", "Zoe"),
    ("My girlfriend is Marta.", "Ines, my girlfriend, made us a curry last night.",
     "girlfriend is Marta", "Ines"),
    ("I work at Greggs.", "Working at Costa since June, the early shifts are brutal.",
     "work at Greggs", "Costa"),
])
def test_a_fact_told_inside_a_build_replaces_the_old_value(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now.replace("works at", "work at")
    assert background_kept(now)


@pytest.mark.parametrize("before,after,old", [
    ("I live in Exeter.", "After moving to Truro next year, I'll get a dog.", "Exeter"),
    ("I live in Exeter.", "If I move to Truro, I will cycle to the office.", "Exeter"),
    ("My girlfriend is Marta.", "Leo, my brother, made us a curry last night.", "Marta"),
])
def test_a_plan_a_condition_or_another_persons_apposition_replaces_nothing(
        store: Any, before: str, after: str, old: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert old in current(store)


@pytest.mark.parametrize("said,told", [
    ("Having borrowed my dad's van for a week, I miss it", None),   # a perfect participle
    ("Having a lovely week in Crete", "I am having a lovely week in Crete"),
])
def test_a_perfect_participle_opening_is_not_told_as_i_am_having(said: str,
                                                                told: str | None) -> None:
    from element.agents.spoken import restore_subject
    assert restore_subject(said) == (told or said)
