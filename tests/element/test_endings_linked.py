"""Endings that were stored linked to nothing, now linked to the memory they end: a thing
named by a pronoun in the sentence after it was named (``antecedent.py``), by its kind
(``ended_kind.py``), the last round of a course, a thing
taken to the tip; and the controls that look like them and end nothing: a part taken off
the thing, another's thing, a second thing of another kind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.antecedent import resolved
from element.agents.ending_grammar import endings
from element.agents.parts import part_taken_off
from element.agents.rules import clean
from element.agents.told_ended import event_endings
from tests.element.speaker import BACKGROUND, current, ends, keeps, open_store, tell


@pytest.mark.parametrize("said,thing", [
    ("Sold the roof box off the Volvo, we never once used it.", "the roof box"),
    ("We lost Biscuit in March.", "Biscuit"),
    ("Biscuit's no longer with us.", "Biscuit"),
    ("Not smoking any more.", "smoking"),
    ("Not a member of the golf club any longer.", "a member of the golf club"),
    ("The allotment isn't mine any more.", "The allotment"),
    ("No car these days.", "car"),
])
def test_an_ending_names_its_thing(said, thing):
    assert [e.thing for e in endings(clean(said))] == [thing]


@pytest.mark.parametrize("said,thing", [
    ("Finished my final round of chemo on Tuesday and got to ring the bell!", "chemo"),
    ("I've finished my last cycle of the tablets.", "the tablets"),
    ("Took the old Micra to the scrappers on Monday.", "the old Micra"),
    ("We dropped the sofa off at the tip.", "the sofa"),
    ("The car failed its MOT so that's that.", "The car"),
    ("My phone went in the canal and that was the end of it.", "My phone"),
])
def test_an_ending_told_as_an_event_names_its_thing(said, thing):
    assert [e.thing for e in event_endings(clean(said))] == [thing]


@pytest.mark.parametrize("said", [
    "Marcus and I split the bill.",                       # a thing shared, no parting
    "Marcus left me a voicemail.",                        # a thing left, no parting
    "We lost to Arsenal on Saturday.",                    # a match
    "We lost Grandad in March.",                          # a person of theirs
    "I have no idea these days.",                         # nothing had
    "Played my last game of the season on Sunday.",       # one of a habit
    "Had my final session of the week with the trainer.",  # a span, not a course
    "Did my last round of golf at the club.",             # the latest, not the very last
    "Took the car to the garage on Monday.",              # a repair, kept
    "My sister said no, so that's that.",                 # a person, no thing
])
def test_what_looks_like_such_an_ending_and_is_none(said):
    assert endings(clean(said)) == [] and event_endings(clean(said)) == []


def test_a_part_taken_off_a_thing_is_told_apart():
    assert part_taken_off(clean("Sold the roof box off the Volvo."))
    assert part_taken_off(clean("Removed the tow bar from the car."))
    assert not part_taken_off(clean("Sold the Volvo to a dealer."))
    assert not part_taken_off(clean("I came off the sertraline in May."))


@pytest.mark.parametrize("text,expected", [
    ("Had the Fiesta ten years. Scrapped it on Monday.", "I scrapped the Fiesta on Monday"),
    ("I loved my little Golf. Sold it to a lad down the road.",
     "I sold Golf to a lad down the road"),
    ("My dad had the Octavia for twenty years. Sold it last week.", None),  # his
    ("Had that thing for twelve years. Scrapped it on Monday.", None),      # names nothing
    ("The Fiesta was great. It broke down in May.", None),                  # no object
])
def test_a_pronoun_object_is_read_as_the_thing_named_before(text, expected):
    last = clean(text.split(". ")[-1])
    assert resolved(last, text, "Ana") == expected


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "endings_linked")


def test_a_thing_ended_by_a_pronoun_after_its_name_retires_it(store):
    ends(store, "I drive a blue Ford Fiesta.", "Had the Fiesta ten years. Scrapped it on "
                "Monday, the gearbox was shot.", "drives a blue Ford Fiesta")


def test_a_thing_ended_by_its_kind_retires_the_one_memory_of_the_kind(store):
    """"The gym" and the Virgin Active membership read .28 apart; the bank's gym question
    is answered by both."""
    ends(store, "I've got a membership at the Virgin Active in Chiswick.",
         "Finally cancelled the gym. A year of paying for a place I never went to.",
         "Virgin Active")


def test_a_part_taken_off_the_thing_keeps_the_thing(store):
    keeps(store, "I have a Volvo XC60 for the family, a big grey Volvo.",
          "Sold the roof box off the Volvo, we never once used it.")


def test_another_kind_ended_keeps_the_one_held(store):
    keeps(store, "I drive a Volkswagen Golf.", "Sold my bike to a lad down the road for fifty "
                                               "quid.")


def test_anothers_thing_named_before_a_pronoun_keeps_the_speakers(store):
    for text in (*BACKGROUND, "I drive a blue Skoda Octavia."):
        tell(store, text)
    tell(store, "My dad had his Octavia for twenty years. Sold it last week.")
    assert "blue Skoda Octavia" in current(store)


def test_the_kind_told_over_retires_the_one_of_that_kind(store):
    for text in (*BACKGROUND, "I drive a little red Nissan Micra.", "I've got a Samsung "
                                                                    "Galaxy S21."):
        tell(store, text)
    assert "supersede" in tell(store, "My phone went in the canal and that was the end of it.")
    now = current(store)
    assert "Galaxy" not in now and "Nissan Micra" in now and "food bank" in now


def test_none_of_the_kind_retires_the_one_held(store):
    """"Pet" names the kind of an attribute that adds up: with one pet held, it ends."""
    ends(store, "I have a rabbit called Pepper.", "We're a pet-free household these days, "
                "it's been strange since the spring.", "rabbit called Pepper")


def test_one_kind_of_an_attribute_that_adds_up_keeps_another(store):
    keeps(store, "I have a cat called Miso.", "Sold the dog to a farm in Wales in May.")
