"""Endings naming their thing by a pronoun or not at all (``unnamed_ending.py``,
``bare_ending.py``): read as the speaker's one held thing of the pronoun's kind, their one
activity, their one partner; and what looks like such an ending and ends nothing: a plan,
a pause, another person's act, a pronoun after a thing named before it, two things it
could mean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.bare_ending import bare_ending
from element.agents.rules import clean
from element.agents.slots import another_value
from element.agents.unnamed_ending import names_a_thing, unnamed_endings
from tests.element.speaker import current, ends, keeps, open_store, tell


@pytest.mark.parametrize("said,pronoun", [
    ("We had to have him put to sleep last week, the house is so quiet.", "him"),
    ("We found him a new home with a reptile rescue.", "him"),
    ("Long story short, we sold it to a couple from Leeds.", "it"),
    ("Turns out I can't afford it, so I've cancelled it.", "it"),
    ("Gave it up in the end, couldn't keep on top of the weeds.", "it"),
    ("She passed away on Sunday.", "She"),
    ("It failed its MOT so badly that I had it scrapped.", "it"),
])
def test_an_ending_by_a_pronoun_is_read(said, pronoun):
    assert [e.pronoun for e in unnamed_endings(clean(said))] == [pronoun]


@pytest.mark.parametrize("said", [
    "I've stopped, my eyes can't cope with the tiny pieces any more.",
    "Doctor says no more contact sport after the concussion, so that's me done.",
    "Not doing that any more, my back's sorted now.",
    "I'm done with all that.",
    "Called it a day last month, after ten years.",
])
def test_an_ending_of_nothing_named_is_read(said):
    assert [e.pronoun for e in unnamed_endings(clean(said))] == [""]


@pytest.mark.parametrize("said", [
    "My sister sold it.",                           # another's act
    "I lent it to my brother for the summer.",      # a loan
    "I'm thinking of selling it.",                  # a plan
    "I want to stop.",                              # a wish
    "I've stopped for the summer.",                 # a pause
    "My wife has stopped, she says it's boring.",   # another's
    "I'm done for today.",                          # a day's task
    "She said we should break up.",                 # a suggestion
])
def test_what_looks_like_such_an_ending_and_is_none(said):
    assert unnamed_endings(clean(said)) == []


def test_a_parting_with_no_one_named_is_read():
    assert [e.parting for e in unnamed_endings(clean("Honestly, we broke up, he wanted to "
                                                     "move abroad."))] == [True]
    assert unnamed_endings(clean("My sister and her husband split up.")) == []


def test_bare_ending_beside_another_clause():
    assert bare_ending("so that is me done")
    assert not bare_ending("that is me done with the washing up")


def test_a_thing_named_before_a_pronoun_is_what_it_means():
    assert names_a_thing("My first car was a Mini")
    assert names_a_thing("I bought a new phone")
    assert not names_a_thing("It failed its MOT")          # the same thing, by a pronoun
    assert not names_a_thing("it has been a hard week")    # a time
    assert not names_a_thing("")


def test_a_subscription_is_no_value_of_itself():
    assert not another_value("the streaming stuff", "I have a Netflix subscription")
    assert another_value("the streaming", "I have a gym membership")


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "unnamed_ending")


def test_a_pet_ended_by_a_pronoun_retires_it(store, wordnet):
    ends(store, "We have an old greyhound called Pip.",
         "We had to have him put to sleep last week, the house is so quiet.", "greyhound")


def test_a_pronoun_with_two_pets_held_ends_neither(store, wordnet):
    for text in ("I have a dog called Rolo.", "I have a cat called Mittens."):
        tell(store, text)
    tell(store, "We had to have her put down last week.")
    now = current(store)
    assert "Rolo" in now and "Mittens" in now, now


def test_a_thing_ended_by_it_retires_the_one_held(store):
    ends(store, "I've got a Vauxhall Corsa.", "It failed its MOT so badly that I had it "
                                              "scrapped.", "Corsa")


def test_a_pronoun_after_another_thing_named_keeps_the_held_one(store):
    keeps(store, "I drive a Honda Civic.",
          "I got a new laptop for work, but honestly I sold it after a week.")


def _ends_alone(store: Any, before: str, after: str, old: str) -> None:
    """``after``, told after ``before`` alone (the background holds an activity of its
    own), supersedes the memory holding ``old``."""
    tell(store, before)
    assert "supersede" in tell(store, after), current(store)
    assert old not in current(store), current(store)


def test_stopping_with_one_activity_held_retires_it(store):
    _ends_alone(store, "I do a jigsaw every evening.",
                "I've stopped, my eyes can't cope with the tiny pieces any more.", "jigsaw")


def test_stopping_beside_the_backgrounds_activity_ends_neither(store):
    keeps(store, "I do a jigsaw every evening.", "I've stopped, my eyes can't cope with the "
                                                 "tiny pieces any more.")


def test_stopping_with_two_activities_held_ends_neither(store):
    for text in ("I play squash on Mondays.", "I go swimming every Friday."):
        tell(store, text)
    tell(store, "I've stopped, it was getting too expensive.")
    now = current(store)
    assert "squash" in now and "swimming" in now, now


def test_done_beside_anothers_negation_retires_the_activity(store):
    _ends_alone(store, "I play rugby for the Old Boys on Saturdays.",
                "Doctor says no more contact sport after the concussion, so that's me done.",
                "rugby")


def test_a_parting_retires_the_one_partner(store):
    ends(store, "I'm seeing a guy called Idris.", "Honestly, we broke up, he wanted to move "
                                                  "abroad.", "seeing a guy called Idris")


def test_a_loose_word_of_a_subscription_retires_it(store):
    ends(store, "I have a Netflix subscription.", "Cancelled the streaming stuff to save money.",
         "Netflix subscription")
