"""element/agents/parts.py and its two guards: a statement about a part or an accessory of
a thing the speaker has ("my phone case is from Etsy") and the ending of something the
stored fact never named ("gave up on the gym") give the stored fact no new value, so it
stays current (issue 23: a false supersede takes a true fact out of default recall).

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.parts import nouns, part_of
from index import ATTRIBUTES

from tests.element.speaker import tell_after, background_kept, open_store
from tests.element.speaker import current as contents

_BY_NAME = {attribute.name: attribute for attribute in ATTRIBUTES}


@pytest.mark.parametrize("text,attribute", [
    ("Ana's phone cover is from a market stall in Camden.", "phone"),
    ("Ana bought a new battery pack for their phone at Currys.", "phone"),
    ("Ana's laptop bag was a gift from Rhian.", "computer"),
    ("Ana's car's roof box came from eBay.", "vehicle"),
    ("Ana ordered seat covers for the car from Halfords.", "vehicle"),
])
def test_a_part_or_an_accessory_of_the_thing_is_read_so(text: str, attribute: str) -> None:
    assert part_of(text, _BY_NAME[attribute])


@pytest.mark.parametrize("text,attribute", [
    ("Ana's new phone is a Pixel 8.", "phone"),
    ("Ana's phone plan is with Vodafone now.", "phone"),
    ("The phone Ana has is a Nokia.", "phone"),
    ("Ana is sick of their car, so Ana bought a Kia.", "vehicle"),
    ("Ana is on their third laptop this year.", "computer"),
    ("Ana treated themselves to a Galaxy S24, the old one is in a drawer.", "phone"),
    ("Ana is on Lebara for their mobile, all the calls abroad they like.", "phone"),
])
def test_the_thing_itself_is_no_part(text: str, attribute: str) -> None:
    assert not part_of(text, _BY_NAME[attribute])


def test_an_attributes_nouns_are_its_questions_nouns_not_their_verbs() -> None:
    assert "car" in nouns(_BY_NAME["vehicle"]) and "drive" not in nouns(_BY_NAME["vehicle"])
    assert {"computer", "laptop"} <= nouns(_BY_NAME["computer"])


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "parts")


@pytest.mark.parametrize("before,after,held", [
    ("I have an iPhone 12.", "My phone cover is from a market stall in Camden, it has "
     "tiny cacti on it.", "iPhone"),
    ("I have a Google Pixel 6.", "I bought a battery pack for my phone at Currys.", "Pixel"),
    ("I'm the secretary of our book club.", "I gave up on the choir, I paint instead.",
     "secretary"),
])
def test_a_part_or_an_ending_of_something_else_keeps_the_fact(
        store: Any, before: str, after: str, held: str) -> None:
    assert "supersede" not in tell_after(store, before, after), contents(store)
    current = contents(store)
    assert held in current
    assert background_kept(current)
