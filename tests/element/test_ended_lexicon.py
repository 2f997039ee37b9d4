"""An ending naming its thing by kind, by another word or by a specific name, linked by
what the thing is (``ended_lexicon.py``, WordNet's nouns) to the one memory it ends; the
grammar that gives such endings their thing (a pet disposed of, a thing stolen, a
pronoun pointing back at the subject of a clause before); and what must not link."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.antecedent import resolved
from element.agents.ended_lexicon import ended_by_what_it_is
from element.agents.rules import clean
from element.agents.told_ended import event_endings
from tests.element.speaker import BACKGROUND, current, open_store, tell

WHO = "Ana"


def _memories(*facts: str) -> list[dict[str, Any]]:
    return [{"id": str(i), "content": fact} for i, fact in enumerate(facts)]


HELD = _memories("Ana volunteers at the food bank on Saturdays.",
                 "Ana's family has got a cocker spaniel called Biscuit.",
                 "Ana drives a Skoda Fabia to work.",
                 "Ana rents a studio in Clapton.",
                 "Ana plays the violin in a string quartet.")


@pytest.mark.parametrize("thing,held", [
    ("the dog", "cocker spaniel"),          # the memory's thing is a kind of the ending's
    ("the car", "Skoda Fabia"),             # a name WordNet does not know: its frame, drive
    ("the vehicle", "Skoda Fabia"),         # ... and a kind the frame's kind is
    ("the flat", "studio"),                 # a studio is a flat
    ("my fiddle", "violin"),                # one thing
])
def test_an_ending_names_the_memory_by_what_its_thing_is(wordnet, thing, held):
    found = ended_by_what_it_is(thing, HELD, WHO)
    assert found is not None and held in found["content"]


@pytest.mark.parametrize("thing", [
    "my old bike",      # a bike is no car
    "the piano",        # kin of the violin, neither a kind of the other
    "the animal",       # a spaniel is an animal, too far up to mean it
    "the place",        # a light, general word
    "the trampoline",   # nothing held
])
def test_a_thing_held_by_no_memory_links_to_none(wordnet, thing):
    assert ended_by_what_it_is(thing, HELD, WHO) is None


def test_two_memories_of_the_kind_link_to_neither(wordnet):
    two = _memories("Ana has a border collie called Nell.", "Ana has a greyhound called Pip.")
    assert ended_by_what_it_is("the dog", two, WHO) is None


def test_a_noun_in_passing_is_no_thing_held(wordnet):
    """"Job training" in what a project gives is no job of the speaker's to lose."""
    passing = _memories("Ana is brainstorming ways to help young people with job training.")
    assert ended_by_what_it_is("my job", passing, WHO) is None


def test_another_persons_memory_and_a_past_are_not_held(wordnet):
    theirs = _memories("Ana's sister has a cocker spaniel.", "Ana used to have a spaniel.")
    assert ended_by_what_it_is("the dog", theirs, WHO) is None


def test_a_frame_reads_only_a_name_it_does_not_know(wordnet):
    """"Play" says instrument of a Stratocaster, not of padel (no name, no kind)."""
    strat = _memories("Ana plays a Fender Stratocaster in a covers band.")
    padel = _memories("Ana plays padel on Thursdays.")
    assert ended_by_what_it_is("my guitar", strat, WHO) is not None
    assert ended_by_what_it_is("my guitar", padel, WHO) is None


def test_without_the_lexicon_nothing_is_found(monkeypatch):
    monkeypatch.setenv("TRIFORM_LEXICON", "off")
    assert ended_by_what_it_is("the dog", HELD, WHO) is None


@pytest.mark.parametrize("said,thing", [
    ("We had to rehome the dog in the end, he was too much with the baby.", "the dog"),
    ("We had the cat put down in May.", "the cat"),
    ("The dog went to live with my aunt in Devon.", "The dog"),
    ("Some idiot nicked my bike from outside the station, so that's that.", "my bike"),
    ("My bike was stolen last week.", "My bike"),
    ("I had my car stolen in March.", "my car"),
    ("Thieves made off with our caravan over the weekend.", "our caravan"),
])
def test_a_pet_disposed_of_and_a_thing_stolen_are_endings(said, thing):
    assert [e.thing for e in event_endings(clean(said))] == [thing]


@pytest.mark.parametrize("said", [
    "My sister had to rehome her dog, he kept biting.",     # another's
    "My son's bike was stolen from school.",                # another's
    "Our neighbour's cat went to live with their daughter.",  # another's pet
    "My bike was stolen but the police found it.",          # had back
    "I nicked my mate's charger for the weekend.",          # the speaker the thief
    "My brother got nicked for speeding.",                  # a person
])
def test_another_persons_thing_and_a_thing_had_back_end_nothing(said):
    assert event_endings(clean(said)) == []


def test_a_pronoun_points_back_at_the_subject_of_the_clause_before():
    said = clean("The motorbike frightened me after the crash, so I sold it.")
    assert resolved(said, said, WHO) == "I sold the motorbike"


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "ended_lexicon")


def test_a_pet_rehomed_by_its_kind_retires_the_memory_of_it(store):
    for text in (*BACKGROUND, "We've got a cocker spaniel called Biscuit."):
        tell(store, text)
    assert "supersede" in tell(store, "We had to rehome the dog in the end, he was too much "
                                      "with the new baby.")
    now = current(store)
    assert "spaniel" not in now and "food bank" in now and "Priya" in now


def test_a_thing_told_of_by_its_kind_then_sold_retires_the_named_one(store):
    for text in (*BACKGROUND, "I ride a Kawasaki Ninja at weekends."):
        tell(store, text)
    assert "supersede" in tell(store, "The motorbike frightened me after the crash, so I "
                                      "sold it.")
    assert "Kawasaki" not in current(store)


def test_a_thing_of_the_same_kind_not_held_keeps_the_memory(store):
    for text in (*BACKGROUND, "I drive a Skoda Octavia."):
        tell(store, text)
    tell(store, "I sold my old bike to the neighbour's kid for twenty quid.")
    assert "Octavia" in current(store)
