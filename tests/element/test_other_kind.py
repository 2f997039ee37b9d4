"""element/agents/other_kind.py: a change a finder by meaning matched with a stored fact is
refused when its new value is another kind of thing than every thing the fact holds, by
WordNet (issue 23: a wrong supersede takes a true fact out of recall); a change of one kind,
or one naming what WordNet does not know, is left to the finder.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.other_kind import GENERAL_DEPTH, held_nouns, new_value_noun, other_kind

from tests.element.speaker import background_kept, open_store, tell_after
from tests.element.speaker import current as contents

#: Values one attribute takes in turn: they share a kind deeper than a general one (the
#: measure the guard's bar was read from; "artifact", 4, is the shallowest seen).
ONE_KIND = [("car", "motorbike"), ("tea", "coffee"), ("nurse", "midwife"), ("flat", "house"),
            ("cello", "double bass"), ("trainers", "boots"), ("waiter", "bartender"),
            ("van", "pickup"), ("analyst", "teacher"), ("flat", "bungalow"), ("bus", "tram"),
            ("plumber", "electrician"), ("violin", "viola"), ("juice", "milk"),
            ("guitar", "ukulele"), ("teacher", "lecturer"), ("caravan", "houseboat"),
            ("dog", "cat"), ("tennis", "golf"), ("running", "swimming"),
            ("doctor", "dentist"), ("meat", "vegetables"), ("wine", "beer"),
            ("apartment", "house"), ("accountant", "teacher"), ("bank", "building society"),
            ("train", "car"), ("bus", "bike"), ("office", "home")]
#: A change's thing and a fact's thing of other kinds: nothing deeper than "whole" (3).
OTHER_KINDS = [("practice", "jigsaw"), ("horsebox", "pony"), ("dentist", "gym"),
               ("phone", "estate"), ("bank", "piano"), ("boiler", "tomato"),
               ("savings", "spanish"), ("desk", "yoga"), ("tap", "spaniel"),
               ("van", "carpenter"), ("flask", "coffee"), ("insurer", "focus"),
               ("tablet", "chickens"), ("hairdresser", "hatchback"), ("pension", "jumpers"),
               ("train", "cat"), ("kettle", "dog"), ("lawyer", "gym")]


@pytest.mark.parametrize("a,b", ONE_KIND)
def test_values_of_one_attribute_share_a_deep_kind(wordnet: Any, a: str, b: str) -> None:
    assert wordnet.shared_depth(a, b) > GENERAL_DEPTH


@pytest.mark.parametrize("a,b", OTHER_KINDS)
def test_things_of_other_kinds_share_only_a_general_one(wordnet: Any, a: str, b: str) -> None:
    assert wordnet.shared_depth(a, b) <= GENERAL_DEPTH


def test_a_word_wordnet_does_not_know_has_no_depth(wordnet: Any) -> None:
    assert wordnet.shared_depth("Monzo", "bank") is None


@pytest.mark.parametrize("sentence,noun", [
    ("I've changed solicitors, the last one never called back.", "solicitors"),
    ("Swapped the hatchback for an estate car last spring.", "estate car"),
    ("We switched to a heat pump in the autumn.", "heat pump"),
    ("Now I use a thermos instead of a cup at the office.", "thermos"),
    ("I sold the caravan in the spring.", "caravan"),
    ("My wife swapped my armchair for a recliner.", "recliner"),
    ("We replaced the fridge on Friday.", "fridge"),
    ("I've traded the scooter for a bigger one.", "scooter"),
])
def test_the_new_value_is_the_head_of_what_the_clause_says_holds(
        wordnet: Any, sentence: str, noun: str) -> None:
    assert new_value_noun(sentence) == noun


@pytest.mark.parametrize("sentence", [
    "I moved my current account over to Starling.",
    "I switched to a Fairphone.",
    "I've swapped it for something better.",
])
def test_a_name_or_a_pronoun_is_no_value_read(wordnet: Any, sentence: str) -> None:
    assert new_value_noun(sentence) is None


def test_the_memorys_held_things_are_its_phrases_heads_and_its_doer(wordnet: Any) -> None:
    assert held_nouns("Ana sings in a choir at the cathedral every Sunday.", "Ana")[:2] == \
        ["choir", "cathedral"]
    assert "teacher" in held_nouns("Ana teaches chemistry at a sixth form.", "Ana")
    assert "week" not in held_nouns("Ana swims twice a week.", "Ana")


@pytest.mark.parametrize("sentence,memory", [
    ("I've changed solicitors, the last one never called back.",
     "Ana plays the trombone in a brass band."),
    ("Now I use a thermos instead of a cup at the office.", "Ana drinks a lot of cocoa."),
    ("I switched to a different shampoo.", "Ana rides a motorbike to the depot."),
    ("We replaced the fridge on Friday.", "Ana grows leeks on the allotment."),
])
def test_a_thing_of_another_kind_is_refused(wordnet: Any, sentence: str, memory: str) -> None:
    assert other_kind(sentence, memory, "Ana")


@pytest.mark.parametrize("sentence,memory", [
    ("Swapped the hatchback for an estate car last spring.", "Ana drives a hatchback."),
    ("I'm a physiotherapist these days.", "Ana works as a porter at the hospital."),
    ("I've moved into a cottage near the river.", "Ana rents an apartment by the station."),
    ("I switched to herbal tea in the evenings.", "Ana drinks hot chocolate before bed."),
    ("I became a data scientist.", "Ana teaches physics."),
    ("I switched to a Fairphone.", "Ana has a smartphone."),    # a name: not read
    ("I've changed jobs.", "Ana works for Monzo."),             # nothing known held
])
def test_a_thing_of_one_kind_or_unknown_is_left_to_the_finder(
        wordnet: Any, sentence: str, memory: str) -> None:
    assert not other_kind(sentence, memory, "Ana")


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "other_kind")


#: Each superseded its fact without the lexicon (TRIFORM_LEXICON=off): the finder by meaning
#: read a thing the drink is carried in as the drink.
@pytest.mark.parametrize("before,after,held", [
    ("I drink about five teas a day.",
     "Now I use a thermos instead of a mug on the train.", "teas"),
    ("I drink a lot of espresso.", "Now I use a flask instead of a cup at work.", "espresso"),
])
def test_a_change_of_another_kind_keeps_the_fact(store: Any, before: str, after: str,
                                                 held: str) -> None:
    assert "supersede" not in tell_after(store, before, after), contents(store)
    now = contents(store)
    assert held in now and background_kept(now), now
