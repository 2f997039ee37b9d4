"""Whose a change is, read by who takes the new value (issue 23): a child of the speaker's
named by their order of birth ("our youngest", "my eldest") is another holder, and a new
thing another person got ("my wife got a new job at KPMG", "my son bought a new car") is
theirs, never the speaker's job or car. The sentences are written for these tests (none is
a case of ``bench/data``); the store tests run on both backends with the real model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.aided import aided
from element.agents.holders import by_order, holder_of
from element.agents.profile import anothers_clause, holds_thing, whose
from element.agents.rules import clean
from element.agents.slots import owner
from tests.element.speaker import current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "whosetakes")


@pytest.mark.parametrize("sentence,holder", [
    ("Our youngest started at Kingsway Primary this term", "youngest"),
    ("my eldest is at Leeds uni now", "eldest"),
    ("our middle one has a new phone", "middle one"),
    ("My oldest, Ruth, lives in Perth", "oldest"),
    # a kin word names the person; a thing is no child
    ("my eldest brother lives in Hull", ""),
    ("my oldest car was a Mini", ""),
    ("I started at Kingsway this term", ""),
])
def test_a_child_named_by_order_of_birth(sentence: str, holder: str) -> None:
    assert by_order(sentence) == holder


@pytest.mark.parametrize("sentence", [
    "Our youngest started at Kingsway Primary this term",
    "My eldest has got a job at the Co-op now",
])
def test_a_child_by_order_of_birth_holds_the_sentence(sentence: str) -> None:
    assert whose(sentence) == holder_of(sentence) == owner(sentence) != ""


def test_a_person_said_to_be_what_a_noun_names_holds_it() -> None:
    """"my wife is now an architect" is her job; "my boss is a woman called Dorothy" is who
    the speaker's boss is, "my son is a year old" his age as "my son is two" says it."""
    assert holder_of("My wife is now an architect") == "wife"
    assert holder_of("My fiance is a nurse at the Royal Infirmary") == "fiance"
    assert whose("My boss is a woman called Dorothy") == holder_of(
        "My boss is a woman called Dorothy") == ""
    assert holder_of("My son is a year old") == holder_of("My son is two") == ""
    assert holder_of("My pet is a corn snake named Biscuit") == ""


@pytest.mark.parametrize("sentence,thing,memory,mine", [
    ("My wife got a new job at KPMG last month", "job", "Ana works at Deloitte.", False),
    ("My son bought a new car, a Honda Civic", "car", "Ana drives a Skoda.", False),
    ("My new phone is a Pixel 8", "phone", "Ana's phone is an iPhone.", True),
    ("My wife and I bought a new car", "car", "Ana drives a Skoda.", True),
    ("Tamsin's been replaced, my new director is Olu", "director", "Ana's director is Tamsin.",
     True),
    ("Please use my new address, ana@fastmail.com", "address", "Ana's email is a@b.com.", True),
    ("My son's new school is Hillcrest", "school", "Ana works at Oakfield school.", False),
    ("Noor switched schools, she's at Hillcrest now", "school",
     "Ana's daughter Noor goes to Oakfield.", True),
])
def test_whose_new_thing_it_is(sentence: str, thing: str, memory: str, mine: bool) -> None:
    assert holds_thing(sentence, thing, memory, "Ana") is mine


@pytest.mark.parametrize("sentence,said", [
    ("My neighbour got me connected to the village broadband.",
     "I connected to the village broadband"),
])
def test_a_participle_after_an_aid_is_not_made_past_again(sentence: str, said: str) -> None:
    assert aided(clean(sentence)) == said


@pytest.mark.parametrize("before,after", [
    ("I work as a surveyor at Savills.", "My wife got a new job at Knight Frank last month."),
    ("I drive a Skoda Fabia.", "My son bought a new car, a Ford Puma."),
    ("My phone is a Samsung Galaxy.", "My daughter got a new phone, a Google Pixel."),
    ("I work at the Greenacre library.", "Our eldest has started at the Riverside cafe on "
     "Saturdays."),
    ("I work as a paramedic in Swindon.", "My fiance is a paramedic in Oxford now."),
])
def test_a_new_thing_of_anothers_keeps_the_speakers(store: Any, before: str,
                                                     after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("sentence,holder", [
    ("I can't believe my eldest is nine already", "eldest"),
    ("I heard my cousin has moved to Penzance", "cousin"),
    ("I'm so proud that our daughter got into Exeter", "daughter"),
    ("Can you believe I'm a sophomore already", ""),
    ("I think my line manager is Rhiannon", ""),
])
def test_a_frame_of_the_speakers_leaves_its_clause_whose_it_is(sentence: str,
                                                               holder: str) -> None:
    assert whose(sentence) == holder


def test_a_new_value_in_a_frame_of_the_speakers_replaces_the_persons(store: Any) -> None:
    """"I can't believe my son is three already" is the son's age, as his memory holds."""
    assert "supersede" in tell_after(store, "My son is two.",
                                     "I can't believe my son is three already."), \
        current(store)
    now = current(store)
    assert "three" in now and "two" not in now, now


@pytest.mark.parametrize("sentence,said", [
    ("The Sky engineer came round and got us connected on superfast fibre last Tuesday.",
     "we are with Sky for superfast fibre now"),
    ("The Hyperoptic guy hooked me up on Friday.", "I am with Hyperoptic now"),
    # not done, not the speaker, not a set-up
    ("The Sky engineer is coming to connect us next week.", None),
    ("The Sky engineer never got us connected.", None),
    ("The Sky engineer set up my neighbour with fibre.", None),
    ("The Sky guy fixed the dish.", None),
])
def test_a_firms_worker_who_set_the_speaker_up_names_their_provider(sentence: str,
                                                                   said: str | None) -> None:
    assert aided(clean(sentence)) == said


def test_a_firms_worker_who_set_the_speaker_up_replaces_the_provider(store: Any) -> None:
    assert "supersede" in tell_after(
        store, "I get my broadband from TalkTalk.",
        "The Sky engineer came round and got us connected on superfast fibre last Tuesday."), \
        current(store)
    assert "TalkTalk" not in current(store), current(store)


@pytest.mark.parametrize("clause,sentence,theirs", [
    ("bought a Tesla", "My brother sold his Golf and bought a Tesla", True),
    ("went with Three", "My dad ditched Vodafone and went with Three", True),
    ("bought a Tesla", "Sold the Golf and bought a Tesla", False),
    ("so I got a Kia", "My brother sold me his Golf, so I got a Kia", False),
])
def test_a_clause_without_its_subject_is_the_sentences_subjects(clause: str, sentence: str,
                                                                 theirs: bool) -> None:
    assert anothers_clause(clause, sentence) is theirs


@pytest.mark.parametrize("sentence,holder", [
    ("Sold the Golf in the end", ""), ("Started at Aldi on Monday", ""),
    ("Fred moved to York", "fred"), ("Ted's left the choir", "ted"),
    # the speaker with others
    ("Both of us are vegan now", ""), ("The two of us moved to Leeds", ""),
])
def test_a_sentence_opening_on_a_verb_is_the_speakers(sentence: str, holder: str) -> None:
    assert holder_of(sentence) == holder


def test_another_persons_second_act_keeps_the_speakers(store: Any) -> None:
    keeps(store, "I drive a VW Polo.", "My brother sold his Polo and bought a Tesla.")
