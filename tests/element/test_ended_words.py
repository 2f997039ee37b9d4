"""An ending that finds the memory it ends (issue 23: retires read as an episode linked to
nothing): the thing named in a word of one family with the memory's
(``ended_words.py``), a thing's span told in the past, a thing gone to a person, a thing
told harmless ending an allergy; and what looks like an ending and ends nothing now (an
ending long past, another's, a stay). On both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ended_words import similar_words
from element.agents.ending_grammar import endings, long_past_ending
from element.agents.rules import clean
from element.agents.told_ended import event_endings
from tests.element.speaker import BACKGROUND, current, open_store, tell


@pytest.mark.parametrize("a,b,alike", [
    ("member", "membership", True),     # a noun and its derivation
    ("gym", "easygym", True),           # a brand compound ending in the common noun
    ("golf", "golf", True),
    ("car", "oscar", False),            # too short a head for so short a compound
    ("run", "runner", False),           # three letters are no prefix of weight
    ("sing", "single", False),          # no derivational ending
    ("piano", "keyboard", False),
])
def test_words_of_one_family(a, b, alike):
    assert similar_words(a, b) is alike


@pytest.mark.parametrize("said,thing", [
    ("The allotment lasted a couple of summers, my back could not take the digging.",
     "The allotment"),
    ("The specialist says gluten is fine for me after all.", "allergic to gluten"),
    ("Turns out nuts are OK for me now.", "allergic to nuts"),
    ("Finally off the sertraline after three years.", "the sertraline"),
    ("No Netflix in this house since Christmas, we read instead.", "Netflix"),
    ("The saxophone is gathering dust in the loft.", "The saxophone"),
    ("Our quiz team fizzled out when the pub changed hands.", "Our quiz team"),
    ("Handed the Tesla back at the end of the lease and didn't get another car.",
     "the Tesla"),
])
def test_an_ending_told_without_a_verb_of_ending_names_its_thing(said, thing):
    assert [e.thing for e in endings(clean(said))] == [thing]


def test_a_persons_team_ended_is_theirs():
    assert [(e.thing, e.holder) for e in endings(clean("My sister's team folded."))] == \
        [("My sister's team", "sister")]


@pytest.mark.parametrize("said", [
    "The meeting lasted three hours.",                 # no span of a thing held
    "My brother says dairy is fine for him.",          # another's
    "It is fine for me.",                              # a pronoun names nothing
    "I quit the piano as a kid.",                      # long past, told in passing
    "I gave up driving to work years ago.",
    "No problem since Monday.",                        # a thing never had
    "No tennis for me for a month while my wrist heals.",  # a pause
    "Off to Spain tomorrow.",                          # a going, not an ending
    "I'm off the hook.",
])
def test_what_ends_nothing_of_the_speakers_now(said):
    assert [e for e in endings(clean(said)) if e.holder == ""] == []


def test_an_ending_long_past_is_told_in_passing():
    assert long_past_ending(clean("I quit the piano as a kid and came back to music later."))
    assert not long_past_ending(clean("I quit the piano in March."))


@pytest.mark.parametrize("said,things", [
    ("The Ercol went to my cousin in Leeds when we moved.", ["The Ercol"]),
    ("The old piano went to a collector in York.", ["The old piano"]),
    ("Bramble went to my sister's for the weekend while we were away.", []),   # a stay
    ("My son went to my aunt last week.", []),                                 # a person
])
def test_a_thing_gone_to_a_person_is_handed_on(said, things):
    assert [e.thing for e in event_endings(clean(said))] == things


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "ended_words")


def _told(store: Any, before: str, after: str) -> tuple[list[str], str]:
    for text in (*BACKGROUND, before):
        tell(store, text)
    return tell(store, after), current(store)


def test_an_ending_in_a_word_of_the_memorys_family_retires_it(store):
    """"The gym membership" and "a member of EasyGym": too far apart by meaning, one
    family by their words."""
    actions, now = _told(store, "I'm a member of EasyGym by the station.",
                         "Packed in the gym membership, I run outside now.")
    assert "supersede" in actions and "EasyGym" not in now and "food bank" in now


def test_a_things_span_told_in_the_past_retires_it(store):
    actions, now = _told(store, "I rent an allotment plot behind the church.",
                         "The allotment lasted a couple of summers, my back could not "
                         "take the digging.")
    assert "supersede" in actions and "rents an allotment" not in now and "Priya" in now


def test_a_thing_gone_to_a_person_retires_it(store):
    actions, now = _told(store, "I own a vintage Ercol sofa.",
                         "The Ercol went to my cousin in Leeds when we moved.")
    assert "supersede" in actions and "owns a vintage Ercol" not in now


def test_a_thing_told_harmless_ends_the_allergy(store):
    actions, now = _told(store, "I'm allergic to gluten.",
                         "The specialist says gluten is fine for me after all.")
    assert "supersede" in actions and "allergic to gluten" not in now


def test_a_thing_told_harmless_keeps_a_habit_of_it(store):
    actions, now = _told(store, "I bake sourdough bread every weekend.",
                         "Turns out gluten is fine for me, the tests were clear.")
    assert "supersede" not in actions and "sourdough" in now


def test_an_ending_long_past_keeps_the_present(store):
    actions, now = _told(store, "I play the keyboard in a covers band.",
                         "I quit the piano as a kid and only came back to music in my "
                         "thirties.")
    assert "supersede" not in actions and "keyboard" in now


def test_a_job_lost_keeps_a_memory_naming_jobs_in_passing(store):
    """"Job" in a list of what a project gives is no job of the speaker's to end."""
    actions, now = _told(store, "We are brainstorming ways to help young people get "
                                "mentoring, job training and help with CVs.",
                         "I lost my job at the packaging company.")
    assert "brainstorming" in now


def test_another_persons_ending_in_the_memorys_words_keeps_it(store):
    actions, now = _told(store, "I'm a member of EasyGym by the station.",
                         "My flatmate packed in his gym membership.")
    assert "supersede" not in actions and "EasyGym" in now
