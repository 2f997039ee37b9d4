"""Endings told as events of the speaker's (``told_ended.py``): the grammar that reads them,
and the one memory each retires on a real store with the real model; the controls that
look like them and end nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.rules import clean
from element.agents.told_ended import event_endings
from tests.element.speaker import BACKGROUND, current, open_store, tell


@pytest.mark.parametrize("said,thing", [
    ("Gave the allotment keys back to the committee on Saturday.", "the allotment keys"),
    ("We handed the caravan over to its new owners at Easter.", "the caravan"),
    ("Gave the bees to a keeper in Essex in June.", "the bees"),
    ("Played my last game for the Harriers in May.", "the Harriers"),
    ("Worked my final shift at the depot on Christmas Eve.", "the depot"),
    ("Friday was my last shift at the depot.", "the depot"),
    ("My leaving do at the Infirmary was last Friday.", "the Infirmary"),
    ("The Volvo failed its MOT so badly that I had it scrapped in August.", "The Volvo"),
    ("Marmalade went to live with my aunt in Devon.", "Marmalade"),
    ("The Corsa failed its MOT and went to the scrapyard.", "The Corsa"),
    ("The council took the allotment back in the spring.", "the allotment"),
    ("Someone else runs the under-tens now.", "the under-tens"),
    ("I wrote to the choir director to give up my place.", "my place"),
    ("Locked up the shop for the last time on Friday.", "the shop"),
    ("Said goodbye to the allotment in October.", "the allotment"),
    ("My last day at the bank was Friday.", "the bank"),
    ("We had to rehome Biscuit in the spring, the new flat doesn't allow dogs.", "Biscuit"),
    ("Scrapped the old Fiesta in March.", "the old Fiesta"),
    ("The college axed its evening programme, so that was my final term.",
     "the evening programme"),
    ("That was the end of my time at the bank.", "my time at the bank"),
])
def test_an_ending_told_as_an_event_names_its_thing(said, thing):
    assert [e.thing for e in event_endings(clean(said))] == [thing]


@pytest.mark.parametrize("said", [
    "My brother gave his keys back to the landlord.",          # another's
    "My sister went to live with my aunt in Devon.",           # a person, not a thing
    "No lido for me this week, the pool is shut until Monday.",  # a pause
    "Thinking of selling the Triumph before winter.",         # a plan
    "I tried to cancel my membership but they would not let me.",  # a try
    "I wanted to give up the choir.",                          # a wish
    "Played my last game of the season on Sunday.",            # one of a habit
    "We finished the last chapter of Middlemarch at book club.",  # the, not my, last
    "I gave the dog to my mum for the weekend.",               # a stay
    "We had the boiler serviced in March.",                   # a thing served, kept
    "I gave my sister a lift to the station.",                 # no thing handed on
    "Did you give the keys back?",                             # a question
    "My last day at the bank is Friday.",                      # to come
    "Said goodbye to my mum at the station.",                  # a person
    "Moved to Leeds for good in March.",                       # a move, no object
    "I closed the gate at the allotment.",                     # no disposal
    "The council closed the lido for repairs.",                # a pause, for a reason
])
def test_what_looks_like_an_ending_event_and_is_none(said):
    assert event_endings(clean(said)) == []


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "told_ended")


def test_a_thing_handed_back_retires_the_memory_its_word_names(store):
    """"The allotment keys" and "rents an allotment plot" read .14 apart by the model:
    their distinctive word names the memory; the Saturday of the volunteering does not."""
    for text in (*BACKGROUND, "I rent an allotment plot behind the church."):
        tell(store, text)
    assert "supersede" in tell(store, "Gave the allotment keys back to the committee on "
                                      "Saturday, my knees could not take the digging.")
    now = current(store)
    assert "rents an allotment" not in now and "food bank" in now and "Priya" in now


def test_the_last_time_of_a_thing_retires_it(store):
    for text in (*BACKGROUND, "I play centre-back for the Harriers in the Sunday league.",
                 "I have a cat called Miso."):
        tell(store, text)
    assert "supersede" in tell(store, "Played my last game for the Harriers in May; "
                                      "thirty-eight is old enough for Sunday football.")
    now = current(store)
    assert "centre-back" not in now and "cat called Miso" in now and "food bank" in now


def test_a_thing_had_scrapped_retires_the_memory_it_points_back_at(store):
    for text in (*BACKGROUND, "I drive a silver Volvo estate."):
        tell(store, text)
    assert "supersede" in tell(store, "The Volvo failed its MOT so badly that I had it "
                                      "scrapped in August.")
    assert "drives a silver Volvo" not in current(store)


def test_an_act_whose_purpose_is_the_ending_retires_what_its_complement_names(store):
    """"My place" names nothing; "wrote to the choir director" does: the choir."""
    for text in (*BACKGROUND, "I sing alto in the Halle choir."):
        tell(store, text)
    tell(store, "Rehearsals clashed with my new shifts all autumn. In November I wrote to "
                "the choir director to give up my place.")
    now = current(store)
    assert "sings alto" not in now and "food bank" in now


def test_another_persons_ending_and_a_plan_keep_the_speakers_thing(store):
    for text in (*BACKGROUND, "I own a red Triumph motorbike.", "I run a bakery in Frome."):
        tell(store, text)
    tell(store, "My brother sold his motorbike last month after twenty years.")
    tell(store, "Thinking of selling the Triumph before winter, it mostly sits in the garage.")
    now = current(store)
    assert "red Triumph" in now and "bakery in Frome" in now and "food bank" in now


def test_the_last_of_one_instance_of_a_habit_keeps_it(store):
    for text in (*BACKGROUND, "I play for the Harriers in the Sunday league."):
        tell(store, text)
    tell(store, "Played my last game of the season on Sunday, back training in August.")
    assert "plays for the Harriers" in current(store)
