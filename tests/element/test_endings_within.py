"""Endings stored as episodes linked to nothing, now linked to the memory they end: a
pronoun whose thing a clause before it in the same sentence named (``antecedent.py``), a
thing handed on in the perfect or with its particle first (``told_ended.py``), a thing
named by the modifier of a light head ("the low-carb thing", ``light_head.py``), and a
negation in a clause after "and I" read as that clause's (``polarity.py``); with the
controls that look like them and end nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.antecedent import resolved
from element.agents.light_head import modifier_of_light
from element.agents.polarity import ends_another
from element.agents.rules import clean
from element.agents.told_ended import event_endings
from tests.element.speaker import current, ends, keeps, open_store, tell, tell_after


@pytest.mark.parametrize("text,expected", [
    ("The hives were too much work with the new baby, so we've given them to a neighbour.",
     "we have given the hives to a neighbour"),
    ("I loved my little Golf, but sold it to a lad down the road.",
     "sold Golf to a lad down the road"),
    ("My dad had the Octavia for twenty years, so he sold it last week.", None),   # his
    ("Had that thing for twelve years, so I scrapped it.", None),    # names nothing
    ("The Fiesta was great, but it broke down in May.", None),       # no object pronoun
])
def test_a_pronoun_object_is_read_as_the_thing_a_clause_before_named(text, expected):
    assert resolved(clean(text), text, "Ana") == expected


@pytest.mark.parametrize("said,things", [
    ("We have given the hives to a neighbour.", ["the hives"]),
    ("Gave away the old bike to a neighbour.", ["the old bike"]),
    ("Handed back my season ticket at the club office.", ["my season ticket"]),
    ("I gave the bees to a keeper in Essex.", ["the bees"]),
    ("I gave back my sister's car.", []),         # a person's, given back to them
    ("I gave the dog a bath.", []),               # no transfer of the thing
])
def test_a_thing_handed_on_is_read_in_the_perfect_and_with_its_particle_first(said, things):
    assert [e.thing for e in event_endings(clean(said))] == things


@pytest.mark.parametrize("thing,modifier", [
    ("the low-carb thing", "low-carb"),
    ("that streaming thing", "streaming"),
    ("the whole vegan lark", "vegan"),
    ("the gym membership", ""),      # its head names the thing
    ("that thing", ""),              # nothing but the light head
    ("the old thing", ""),
])
def test_a_light_head_gives_its_modifier(thing, modifier):
    assert modifier_of_light(thing) == modifier


def test_a_negation_after_and_i_is_its_own_clauses():
    """"I haven't replaced it" is negated, not the theft before it: the theft of "my
    camera" ends the camera, whatever the other names of the sentence ("Bristol")."""
    camera = "Ana owns a Canon EOS camera that Ana takes everywhere."
    assert not ends_another(clean("My camera got nicked from the car in Bristol and I haven't "
                                  "replaced it."), camera, "Ana")
    assert ends_another(clean("My wife doesn't work from home anymore and I go in too."),
                        "Ana works from home on Fridays.", "Ana")


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "endings_within")


def test_a_thing_given_away_by_a_pronoun_in_the_same_sentence_retires_it(store):
    ends(store, "I keep bees at the bottom of the garden.",
         "The hives were too much work with the new baby, so we've given them to a "
         "neighbour.", "keeps bees")


def test_a_thing_stolen_and_not_replaced_retires_it(store):
    ends(store, "I own a Canon EOS camera that I take everywhere.",
         "My camera got nicked from the car in Bristol and I haven't replaced it.",
         "Canon EOS")


def test_a_diet_ended_by_the_modifier_of_a_light_head_retires_it(store):
    decided = tell_after(store, "I'm following the keto diet at the moment.",
                         "I'm not doing the low-carb thing any more, I missed bread too much.")
    assert "supersede" in decided or "retire" in decided, current(store)
    assert "following the keto diet" not in current(store)


def test_anothers_thing_given_away_in_the_same_sentence_keeps_the_speakers(store):
    for text in ("I volunteer at the food bank on Saturdays.", "I drive a blue Skoda Octavia."):
        tell(store, text)
    tell(store, "My dad had his Octavia for twenty years, so he gave it to a neighbour.")
    assert "blue Skoda Octavia" in current(store)


def test_a_thing_of_another_kind_given_away_keeps_the_one_held(store):
    keeps(store, "I have a black cat called Shadow.",
          "The rabbit hutch was falling apart, so we've given it to a neighbour.")
