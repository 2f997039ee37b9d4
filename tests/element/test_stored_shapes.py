"""Newer statements that wrote nothing, or wrote another person's value, stored as the
speaker's (issue 23): a value the speaker's days are given to ("Tuesdays are swimming
now"), a value exclaimed before the change that brought it ("Sheffield! Moved in April"),
a fragment naming its value by a short name in capitals ("PR now"), by what the speaker
is by it ("Coffee person now!") or by when it began ("Full-time from this month"), the
work of caring told by its phrasal verb ("I look after elderly people"), and a
bare value whose elided subject is the speaker, not a person of theirs with a memory of
the same kind ("Plymouth now" beside a brother in Exeter).

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: the newer value is stored and replaces the old one; a person of theirs keeps
their own value; weather, moods and cheers store nothing of the kind.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.days_held import told_by_days
from element.agents.habits import habit_verb_of
from element.agents.valued import valued
from element.agents.verbless import verbless
from index import MemoryStore
from tests.element.speaker import current, tell


@pytest.mark.parametrize("said", [
    "Tuesdays are swimming now.", "Evenings are chess these days, with my grandson.",
    "Weekends are football nowadays.",
])
def test_a_value_the_days_are_given_to_is_the_speakers_routine(said: str) -> None:
    assert told_by_days(said)


@pytest.mark.parametrize("said", [
    "Mornings are dark now.",                   # the light, no value
    "Mondays are the worst these days.",        # how the day is
    "Weekends are busy now.",                   # a state
    "Fridays are so quiet now.",                # a degree
    "Saturdays are for golf now.",              # what the day is for: ``routine``'s
    "Tuesdays are swimming.",                   # no present: a habit told, no change
])
def test_how_the_days_are_is_no_value(said: str) -> None:
    assert not told_by_days(said)


@pytest.mark.parametrize("said,written", [
    ("Sheffield! Moved in April.", "I moved to Sheffield in April."),
    ("Nationwide now!! We switched in March, much better.",
     "We switched to Nationwide in March, much better."),
    ("Fantastic! Started last week.", "Fantastic! Started last week."),   # a cheer
    ("Woohoo! Joined in May.", "Woohoo! Joined in May."),                 # a cheer
    ("Sheffield! Moved house in April.", "Sheffield! Moved house in April."),   # its object
    ("Cardiff! Moved there for uni years ago.", "Cardiff! Moved there for uni years ago."),
    ("Madrid! Started planning the trip.", "Madrid! Started planning the trip."),
])
def test_a_value_exclaimed_before_its_change_is_the_changes_object(said: str,
                                                                    written: str) -> None:
    assert valued(said) == written


@pytest.mark.parametrize("verb,obj,habit", [
    ("look", "after elderly people in their own homes", True),
    ("care", "for stroke patients", True),
    ("look", "after my mum on Sundays", True),
    ("look", "after myself", False),          # no one named
    ("look", "at the stars", False),          # a glance
    ("care", "about the planet", False),      # a feeling
    ("look", "forward to it", False),
])
def test_the_work_of_caring_is_a_habit(verb: str, obj: str, habit: bool) -> None:
    assert habit_verb_of(verb, obj) is habit


def test_a_name_in_capitals_is_a_fragments_value() -> None:
    assert verbless("PR now")
    assert verbless("EE these days")
    assert not verbless("It now")


@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


def _told(store: Any, *said: str) -> list[str]:
    """Each of ``said`` told in turn: the actions the last one decided."""
    actions: list[str] = []
    for text in said:
        actions = tell(store, text)
    return actions


@pytest.mark.parametrize("before,after,new,old", [
    ("I drink tea.", "Coffee person now!", "coffee", "drinks tea"),
    ("I work in a warehouse as a packer.", "I look after stroke patients as a carer now.",
     "stroke patients", "packer"),
    ("I work part-time.", "Full-time from this month.", "full-time", "part-time"),
    ("I work in sales.", "PR now, would you believe.", "PR", "in sales"),
    ("I live in Hull.", "Sheffield! Moved in April.", "Sheffield", "Hull"),
])
def test_a_fragment_of_the_newer_value_replaces_the_old(store: Any, before: str, after: str,
                                                        new: str, old: str) -> None:
    assert _told(store, before, after) == ["supersede"], current(store)
    now = current(store)
    assert new in now and old not in now, now


def test_a_value_the_days_are_given_to_is_stored(store: Any) -> None:
    assert "nothing" not in _told(store, "I go to the gym on Tuesdays.",
                                  "Tuesdays are swimming now.")
    assert "swimming" in current(store)


def test_a_bare_value_is_the_speakers_not_a_relatives(store: Any) -> None:
    assert _told(store, "My brother lives in Exeter.", "My sister lives in Cardiff.",
                 "I live in Truro.", "Plymouth now, and loving it.") == ["supersede"]
    now = current(store)
    assert "Ana lives in Plymouth" in now and "Truro" not in now, now
    assert "brother lives in Exeter" in now and "sister lives in Cardiff" in now, now


def test_a_value_of_another_kind_is_no_relatives_new_home(store: Any) -> None:
    _told(store, "My sister lives in Cardiff.", "I bank with Barclays.", "yeah, monzo now tho")
    assert "sister lives in Cardiff" in current(store)


def test_a_time_of_day_the_speaker_is_replaces_no_habit(store: Any) -> None:
    assert "supersede" not in _told(store, "I go running in the evenings.",
                                    "Morning person now, believe it or not.")
    assert "running in the evenings" in current(store)
