"""News that names a held fact's words without giving it a new value keeps the fact (issue
23: a false supersede loses a true memory). Seen on crowded pools, where a chat's turns
meet a person's facts: a relative clause about another person gave the speaker an
attribute ("a guy called Tom who works in IT" read as a job, then ended by "lost my job"),
seeing a counsellor or seeing how something went was read as a partner, a promotion told
without its role replaced the job and the commute, the ending of one thing of many (piano
lessons) replaced another (the cello), a job ended at one place replaced volunteering at
another or a job at a place apart, a trip replaced the home. Real changes told plainly
still replace.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.continued import promoted_only
from element.agents.holding import ends_another
from element.agents.meant import places_apart
from element.agents.slots import another_value, slots_of
from element.agents.stays import visit
from element.agents.undergone import undergone

from tests.element.speaker import background_kept, open_store, replaces, tell_after
from tests.element.speaker import current as contents


def _slots(sentence: str) -> set[str]:
    return {slot.name for slot in slots_of(sentence)}


def test_a_relative_clause_about_someone_gives_the_speaker_no_attribute() -> None:
    assert "employer" not in _slots("I'm seeing a lad called Rhys who works at the council")
    assert "partner" in _slots("I'm seeing a lad called Rhys who works at the council")
    assert "employer" not in _slots("My aunt, whose husband works at Boots, visits on Sundays")
    assert "employer" in _slots("I work at the council, which is fine")


def test_seeing_a_carer_or_how_things_go_is_no_partner() -> None:
    assert "partner" not in _slots("I'm seeing a counsellor on Tuesdays now")
    assert "partner" not in _slots("I'm seeing a new physio for my shoulder")
    assert "partner" in _slots("I'm seeing a lad from the climbing wall")
    assert "partner" in _slots("I am seeing someone new")


def test_another_value_of_an_attribute_that_adds_up() -> None:
    assert another_value("my guitar lessons", "I play the oboe in a wind band")
    assert another_value("the yoga", "I go to spin class on Mondays")
    assert not another_value("the oboe", "I play the oboe in a wind band")
    assert not another_value("my swimming", "I swim at the lido every morning")
    # Of a single-valued attribute the word is its kind: "my car" ends the Golf.
    assert not another_value("my car", "I drive a Golf")
    memory = {"content": "Ana plays the oboe in a wind band."}
    # Sentences as the rules read them (``rules.clean``: "I've" -> "I have").
    assert ends_another("I have stopped my guitar lessons for now.", memory, "Ana")
    assert not ends_another("I have stopped playing the oboe.", memory, "Ana")


def test_a_promotion_without_its_role_is_news_of_the_job() -> None:
    # Where it happened is no place the speaker is now ("at work now" replaced a commute).
    assert undergone("I got promoted at work") is None
    assert undergone("I got promoted to ward manager") == "I am ward manager now"
    assert promoted_only("I got promoted at work!")
    assert promoted_only("I have been promoted at last!")
    assert not promoted_only("I got promoted to station officer.")
    assert not promoted_only("I got promoted and quit the band.")
    assert not promoted_only("I got promoted at work, I'm a team lead now")


def test_a_trip_is_a_place_visited_not_a_home() -> None:
    assert visit("Here's a photo from one of my trips to Tallinn, such a pretty old town")
    assert visit("Our holiday in Crete was the best yet")
    assert not visit("We moved to Lisbon after a trip there last spring")
    assert not visit("Tallinn is home now, I'm here for good")
    assert not visit("Once the trip to Kyoto was booked, I switched to learning Japanese")


def test_two_places_told_apart_by_their_words() -> None:
    assert places_apart("my job at the garden centre", "Ana volunteers at the food bank.")
    assert not places_apart("my job at the garden centre",
                            "Ana works at the garden centre on the ring road.")
    assert not places_apart("my job", "Ana volunteers at the food bank.")


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "kept_beside")


@pytest.mark.parametrize("before,after,held", [
    ("I'm seeing a lad called Rhys who works at the council.",
     "Lost my job at the garden centre on Friday.", "Rhys"),
    ("I'm a paramedic.", "I got promoted at work!", "paramedic"),
    ("I take the bus to work.", "I got promoted at work.", "bus"),
    ("I work at the Leeds Building Society.", "I lost my job at the engineering company.",
     "Building Society"),
    ("I play the oboe in a wind band.", "I've stopped my guitar lessons for now.", "oboe"),
    ("I'm seeing a lad called Finn.", "I'm seeing a counsellor every Tuesday now, it helps.",
     "Finn"),
    ("I'm seeing Finn.", "I'm seeing how far I can push the running.", "Finn"),
    ("I live in Norwich.", "I love exploring old towns, here's a photo from one of my trips "
     "to Tallinn.", "Norwich"),
])
def test_news_beside_a_fact_keeps_it(store: Any, before: str, after: str, held: str) -> None:
    decided = tell_after(store, before, after)
    now = contents(store)
    assert "supersede" not in decided and "retire" not in decided, now
    assert held in now and background_kept(now), now


@pytest.mark.parametrize("said,kept", [
    ("I'm seeing a counsellor every Tuesday now, it helps.", "counsellor"),
    ("I've been seeing a physio for my shoulder.", "physio"),
])
def test_seeing_a_carer_is_written(store: Any, said: str, kept: str) -> None:
    """Not read as a partner, it is still the speaker's fact."""
    assert tell_after(store, "I like my tea strong.", said) == ["add"], contents(store)
    assert kept in contents(store)


@pytest.mark.parametrize("before,after,old,new", [
    ("I'm a staff nurse.", "I got promoted to ward manager.", "staff nurse", "ward manager"),
    ("I play the cello.", "I stopped the cello, I play the viola now.", "plays the cello",
     "viola"),
    ("I'm seeing Finn.", "I'm seeing Aiden now, things with Finn are over.", "seeing Finn",
     "Aiden"),
])
def test_a_change_told_plainly_still_replaces(store: Any, before: str, after: str,
                                              old: str, new: str) -> None:
    replaces(store, before, after, old, new)
