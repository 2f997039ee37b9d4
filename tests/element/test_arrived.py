"""A change told as an event supersedes the value held when the event's grammar says what
it makes true now: a thing of the speaker's arriving ("The new Corsa arrived on Friday",
``element/agents/arrived.py``), a thing got in exchange ("Part-exchanged the Fabia for a
Seat Leon"), a home settled into or come to with the removal van, a first week counted
("Week one at Octopus Energy done"), a probation passed, a vehicle driven home
(``begun.py``), the speaker's new flat in a place (``linked.py``). Another person's
arrival, a place arrived at, a hotel settled into, a friend helped with a removal keep
the old value current."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.arrived import arrived_result
from element.agents.begun import results
from element.agents.linked import linked_results

from tests.element.speaker import keeps, open_store, replaces


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "arrived")


@pytest.mark.parametrize("before,after,old,new", [
    ("I drive a Vauxhall Zafira.", "Our new Skoda Kodiaq was delivered yesterday!",
     "Zafira", "Kodiaq"),
    ("I drive a Fiat 500.", "Drove my new Mini home from the showroom today.", "Fiat", "Mini"),
    ("I live in Walsall.", "Arrived in Lichfield with the removal van at noon.",
     "Walsall", "Lichfield"),
])
def test_an_event_that_makes_a_value_true_supersedes_the_old(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I drive a Ford Focus.", "My sister's new Corsa arrived on Friday."),
    ("I live in Leeds.", "Helped my brother with the removal van and we arrived in Wakefield."),
    ("I drive a Golf.", "Our new Dyson arrived on Tuesday."),
])
def test_anothers_arrival_or_a_thing_of_another_kind_keeps_both(store: Any, before: str,
                                                                 after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("clause,result", [
    ("The new Corsa arrived on Friday", "Ann has a Corsa"),
    ("Our new Fiesta was delivered this morning!", "Ann has a Fiesta"),
    ("My new Pixel 8 came yesterday", "Ann has a Pixel 8"),
    ("The new Octavia is finally on the drive", "Ann has a Octavia"),
    # Not the speaker's new thing, not named, not arrived, a place arrived at.
    ("The Corsa arrived on Friday", None),
    ("The new sofa arrived on Friday", None),
    ("My dad's new Volvo arrived", None),
    ("Our new baby Rosie arrived on Monday", None),
    ("My Amazon parcel arrived", None),
    ("The new Kindle should arrive tomorrow", None),
    ("My new Pixel hasn't arrived", None),
    ("The new Aldi came to town", None),
    ("The new Lidl is finally here", None),
    ("The new Fiat 500 arrived for my daughter", None),
])
def test_the_thing_an_arrival_leaves_had(clause: str, result: str | None) -> None:
    assert arrived_result(clause, "Ann") == result


@pytest.mark.parametrize("sentence,result", [
    # An exchange: the thing got for the one given up.
    ("Traded the Astra in for a Kia Niro.", ["Ann has a Kia Niro"]),
    ("Part-exchanged the Fabia for a Seat Leon yesterday.", ["Ann has a Seat Leon"]),
    # A home settled into, or arrived at with the removal van (the speaker's own).
    ("After three weeks of boxes we're finally settled into the cottage in Frome.",
     ["Ann lives in the cottage in Frome"]),
    ("We're all settled in Ripon now.", ["Ann lives in Ripon now"]),
    ("Settled into the new job at KPMG.", []),
    ("Arrived in Lichfield with the removal van at noon.", ["Ann lives in Lichfield"]),
    ("Helped my sister with the removal van and arrived in Bath at six.", []),
    # A first counted by its number; a probation passed; a passing-out; a wedding.
    ("Week one at Octopus Energy done.", ["Ann started at Octopus Energy"]),
    ("Passed my probation at Arup today!", ["Ann works at Arup"]),
    ("Survived week one at Currys!", ["Ann started at Currys"]),
    ("She survived week one at Currys.", []),
    # Taken on, told in the passive with where; a home's keys, "moved in to" spelt apart.
    ("Got hired at Primark last week.", ["Ann works at Primark"]),
    ("My daughter got hired at Costa.", []),
    ("Hired a van at the weekend.", []),
    ("Got our keys to the house in Ripon!", ["Ann lives in the house in Ripon"]),
    ("We moved in to the semi in Sale on Friday.", ["Ann lives in the semi in Sale"]),
    ("Just passed out as a firefighter.", ["Ann is a firefighter"]),
    ("Tied the knot with Aisha in May!", ["Ann is married to Aisha"]),
    # A vehicle got from a dealer, or driven away in: driven.
    ("Picked up my new Kia Sportage from the dealer this morning.",
     ["Ann drives a Kia Sportage"]),
    ("Picked up my new specs from Boots.", []),
])
def test_what_an_event_makes_true_now(sentence: str, result: list[str]) -> None:
    assert results(sentence, "Ann") == result


@pytest.mark.parametrize("sentence,result", [
    ("Just unpacked the last box in the new flat in Hove.", ["Ann lives in Hove"]),
    ("Drove my new Mini home from the showroom today.", ["Ann drives a Mini"]),
    ("Drove my dad's Volvo home from the station.", []),
    ("Went to see the new flat in Hove.", []),
])
def test_the_speakers_new_home_or_vehicle_named(sentence: str, result: list[str]) -> None:
    assert linked_results(sentence, "Ann") == result
