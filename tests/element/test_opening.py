"""Whose a sentence is, read past what opens it (``element/agents/opening.py``): a
discourse marker, a stance adverb, a time, a phrase before "I", another's opinion set aside
before "but I", another's act done to the speaker, a thing called new, an attribute noun
as the subject ("Home is ...") are the speaker's statements; a relative, a friend or a pet
named first stays theirs. The sentences are written for these tests (none is a case of
``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.fragments import verbless
from element.agents.holders import holder_of
from element.agents.opening import speakers_subject, from_subject
from element.agents.profile import whose
from tests.element.speaker import current, open_store, replaces, tell_after


@pytest.mark.parametrize("sentence", [
    "Turns out I'm gluten intolerant after all",
    "Long story short, I work at Asda now",
    "So yeah, we ended up in Derby",
    "Honestly I'm much happier on nights",
    "Surprisingly, I love running now",
    "Fun fact, I've taken up the harp",
    "Good news: I passed my driving test",
    "Between you and me, I'm job hunting",
    "Instead of the car I get the train now",
    "With the new baby I only work mornings",
    "Without a car, we walk everywhere now",
    "Right now I live with my parents",
    "Mornings I run along the canal now",
    "Wednesday was my first shift at the cafe",
    "Friday evenings are quiz night now",
    "Dad reckons it's a phase, but I've gone vegan",
    "My mum laughed, but I've joined a choir",
    "Got engaged to Priya in June",
    "Been teaching at the college since March",
    "Just finished my first week at the bakery",
    "The council moved us into a flat in Leyton",
    "My boss put me on the night team",
    "They made me head of maths this term",
    "No dairy for me these days",
    "It's Mandarin I'm learning now",
    "First week at the bakery done",
    "Still, I love my job at the bank",
])
def test_the_speakers_own_statement_whatever_opens_it(sentence: str) -> None:
    assert whose(sentence) == ""
    assert holder_of(sentence) == ""


@pytest.mark.parametrize("sentence,holder", [
    ("My sister lives in Cork now", "sister"),
    ("Mum's moved to Spain", "mum"),
    ("Anyway, my brother is a nurse now", "brother"),
    ("Well, Tom's at Lidl now", "tom"),
    ("Rover is gone", "rover"),
    ("Auntie Jo has moved to Dorset", "auntie"),
    ("Dad says he's moving to Spain but I doubt it", "dad"),
    ("My friend put me up in her flat in Brighton", "friend"),
    ("The kids go to Holy Cross now", "kids"),
    ("It's not that I'm unhappy in Leeds", "?"),
])
def test_another_named_first_stays_theirs(sentence: str, holder: str) -> None:
    assert whose(sentence) == holder


def test_the_speaker_with_another_is_the_speaker() -> None:
    assert whose("Tom and I split up") == ""


def test_people_called_new_are_not_the_speakers_thing() -> None:
    assert whose("The new neighbours have a dog") not in ("", "?")


def test_a_marker_that_opens_the_clause_itself_is_kept() -> None:
    # "No" and "Still" without a comma belong to the clause ("No football for me").
    assert from_subject("No football for me this month") == "No football for me this month"
    assert from_subject("Nope, not vegan anymore") == "not vegan anymore"


@pytest.mark.parametrize("sentence", [
    "New job at the library since Monday",
    "The new flat in Hove has a garden",
    "Home is a houseboat in Bristol now",
    "Work's mostly from the Leeds office these days",
    "Lunch is a jacket potato these days",
    "The move to Swindon went fine",
    "Boxes unpacked, we finally live in a house with a garden",
])
def test_a_thing_called_new_or_an_attribute_noun_as_subject_is_the_speakers(
        wordnet: Any, sentence: str) -> None:
    assert whose(sentence) == ""


def test_a_choice_told_in_a_story_keeps_its_opening() -> None:
    # "instead of" a doing, then a past: a choice in a story, no value held now (LoCoMo:
    # "Instead of giving up, I turned it into a learning experience" superseded a book read)
    told = "Instead of giving up, I turned it into a learning experience."
    assert from_subject(told) == told
    assert from_subject("Instead of driving, I cycle in now.") == "I cycle in now."


def test_a_doing_told_as_the_subject_is_no_attribute_of_the_speakers(wordnet: Any) -> None:
    # a gerund describes the doing, it tells no value in place of "I" (LoCoMo: "Dancing
    # is like second nature to me" superseded a plan for a dance studio's floor)
    assert not speakers_subject("Dancing is like second nature to me")
    assert speakers_subject("Home is a houseboat in Bristol now")


@pytest.mark.parametrize("sentence,holder", [
    ("Biscuit is on a raw food diet now", "biscuit"),      # a pet named by a noun
    ("Summer is a nurse now", "summer"),                   # a person said to be one
    ("June's moved to Spain", "june"),                     # a month is a name as often
])
def test_a_name_that_is_a_noun_stays_a_holder(wordnet: Any, sentence: str,
                                               holder: str) -> None:
    assert whose(sentence) == holder


@pytest.mark.parametrize("clause,fragment", [
    ("Grandad drives a Tesla now", False),
    ("Danny works at Aldi now", False),
    ("My aunt lives in Spain now", False),
    ("Yoga classes on Tuesdays now", True),
    ("Pilates sessions on Mondays now", True),
])
def test_a_person_acting_is_a_clause_not_a_fragment(wordnet: Any, clause: str,
                                                    fragment: bool) -> None:
    assert verbless(clause) is fragment


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "opening")


def test_a_change_told_after_an_opening_phrase_replaces_the_old(store: Any) -> None:
    replaces(store, "I take the train to work.", "Instead of the train I cycle to work now.",
             "train to work", "cycle")


def test_a_relatives_news_replaces_nothing_of_the_speakers(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I drive a Honda Jazz.",
                                         "Grandad drives a Mercedes now, would you believe.")
    assert "Honda Jazz" in current(store)
