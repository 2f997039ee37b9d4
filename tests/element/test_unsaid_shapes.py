"""Statements that wrote nothing (issue 23): what happened to a thing of the speaker's told
with "the" and no owner ("A fox got the last of the hens", ``held_things.py``), what is
new at their home told as what is there ("There's a kitten in the house now",
``household_news.py``), and a role another gave them ("The PTA roped me in as treasurer",
``given_role.py``).

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: such a statement is kept as a memory beside the old one; a sight or a state of
the moment, a thing nobody said was theirs, and a way of seeing the speaker keep nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.given_role import given_role
from element.agents.held_things import happened, held_things
from element.agents.household_news import household_news
from index import MemoryStore
from tests.element.speaker import current, tell, tell_after


@pytest.mark.parametrize("memory,named", [
    ("Ana keeps hens in the back garden.", "the hens"),
    ("Ana's family keeps chickens in the back garden", "the chickens"),
    ("Ana and others keep two rabbits in a hutch", "the rabbit"),
    ("Ana grows a fig tree in a big pot on the patio.", "the fig tree"),
    ("Ana goes to a salsa class on Thursday nights.", "the salsa classes"),
    ("Ana is in a book club that meets at the library.", "the club"),
    ("Ana has a cat called Sooty.", "Sooty"),
    ("Ana has a Golf.", "Golf"),
    ("Ana's dog is a rescue greyhound.", "The dog"),
])
def test_a_thing_a_memory_holds_is_named_with_the(memory: str, named: str) -> None:
    assert named in held_things([memory], "Ana")


@pytest.mark.parametrize("memory", [
    "Ana went to the beach with the kids.",      # an event: no thing of theirs
    "Ana loves the kids.",                       # a taste
    "Ana lives in Leeds",                        # a place, named
    "Ben keeps hens.",                           # someone else's
])
def test_no_thing_is_held_from_an_event_a_taste_or_another(memory: str) -> None:
    assert not {n for n in held_things([memory], "Ana") if n.startswith("the ")}


@pytest.mark.parametrize("said,told", [
    ("A fox got the last of the hens in the spring.", True),
    ("The van got repossessed in the autumn.", True),
    ("The book club fizzled out over the summer.", True),
    ("The gym was packed tonight.", False),
    ("The flat is freezing today.", False),
    ("The garden looks lovely today.", False),
])
def test_what_happened_is_not_a_state_of_the_moment(said: str, told: bool) -> None:
    assert happened(said) is told


@pytest.mark.parametrize("said", [
    "There's a baby on the way, due in April.",
    "There are three beehives at the bottom of the garden now.",
    "There's a kitten in the house too now, a tabby called Pepper.",
    "A new tenant is in the granny flat, a student called Ravi.",
    "Honestly, there's a new lodger in the spare room, a nurse from Madrid.",
    "Long story short, there are chickens in the back garden these days.",
])
def test_what_is_new_at_home(said: str) -> None:
    assert household_news(said)


@pytest.mark.parametrize("said", [
    "There's a fox in the garden.",                  # a sight of the moment
    "There's a new cafe in town.",                   # the town's news
    "There's a leak in the kitchen again.",
    "There's a lot going on at home now.",
    "There are roadworks outside the house now, it's so noisy.",
    "There was a fox in the garden last night.",
])
def test_a_sight_or_the_worlds_news_is_not_the_homes(said: str) -> None:
    assert not household_news(said)


@pytest.mark.parametrize("said,given", [
    ("The church choir signed me up as an alto.", True),
    ("The PTA roped me in as treasurer.", True),
    ("The parish council elected me as chair.", True),
    ("The company let me go in March.", True),
    ("She treated me as a friend.", False),
    ("The kids see me as a taxi service.", False),
    ("The film made me cry.", False),
])
def test_a_role_given_to_the_speaker(said: str, given: bool) -> None:
    assert given_role(said) is given


@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,new", [
    ("We keep chickens in the back garden.",
     "A fox got the last of the chickens in the spring.", "fox"),
    ("I drive a Vauxhall Corsa.", "The Corsa got repossessed in the end.", "repossessed"),
    ("I keep a rowing boat on the river.", "Long story short, the boat sank in the floods.",
     "sank"),
    ("I have a cat called Miso.", "There's a baby on the way, due in April.", "baby"),
    ("I play tennis on Saturdays.", "The church choir signed me up as an alto.", "alto"),
])
def test_the_statement_is_kept_beside_the_old(store: Any, before: str, after: str,
                                             new: str) -> None:
    assert tell_after(store, before, after) != ["nothing"], current(store)
    assert new in current(store)


@pytest.mark.parametrize("before,after", [
    ("I go to the gym on Mondays.", "The gym was packed tonight."),
    ("I live in a flat in Leeds.", "The flat is freezing today."),
    ("I have a garden full of roses.", "There's a fox in the garden."),
])
def test_a_moment_keeps_nothing(store: Any, before: str, after: str) -> None:
    assert tell_after(store, before, after) == ["nothing"], current(store)


def test_a_thing_nobody_said_was_theirs_keeps_nothing(store: Any) -> None:
    assert tell(store, "Rust finally killed the old Land Rover.") == ["nothing"]
