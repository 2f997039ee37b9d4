"""A statement about a part of a thing the speaker has ("my car's battery is flat again")
names the thing already held: it gives the thing no new value, so the memory of the thing
stays current (issue 23: a false supersede is a fact lost from recall). Told in the third
person, "I need" agrees: "Ana needs a jump start"."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.episodes import narrate

from tests.element.speaker import tell_after, open_store
from tests.element.speaker import current as contents


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "partof")


@pytest.mark.parametrize("before,after,held", [
    ("I drive a Ford Focus.", "My car's battery is flat again, I need a jump start.",
     "Ford Focus"),
    ("I live in a flat in Leeds.", "My flat's boiler broke again, the landlord is useless.",
     "flat in Leeds"),
    ("I work at Google.", "My company's office moved to King's Cross.", "Google"),
])
def test_a_part_of_a_thing_keeps_the_thing(store: Any, before: str, after: str,
                                           held: str) -> None:
    assert "supersede" not in tell_after(store, before, after), contents(store)
    assert held in contents(store)


def test_a_new_value_of_the_thing_still_replaces_it(store: Any) -> None:
    assert tell_after(store, "I drive a Ford Focus.", "I drive a Tesla now.") == ["supersede"]
    assert "Tesla" in contents(store) and "Ford Focus" not in contents(store)


@pytest.mark.parametrize("said,told", [
    ("I need a jump start.", "Ana needs a jump start."),
    ("My car is flat, I need a jump start.", "Ana's car is flat, Ana needs a jump start."),
    ("I need not worry about it.", "Ana need not worry about it."),
])
def test_need_agrees_unless_need_not(said: str, told: str) -> None:
    assert narrate(said, "Ana") == told


@pytest.mark.parametrize("said,part", [
    ("My car's battery is flat again.", True),
    ("My phone's screen cracked again.", True),
    ("My membership's at David Lloyd now.", False),    # "'s" is "is"
    ("My car's a Tesla now.", False),
    ("My car's been great.", False),                    # "'s" is "has"
    ("My sister's car broke down.", False),             # a person's: hers
])
def test_a_part_is_a_possessive_with_a_verb_after_its_noun(said: str, part: bool) -> None:
    from element.agents.parts import part_of_thing
    assert part_of_thing(said) is part
