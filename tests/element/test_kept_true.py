"""A later statement that is no update keeps the true fact current (issue 23: a false
supersede takes a true fact out of recall): another person named by what they are ("The PE
teacher at Ashfield has just quit", "Our lodger's moved out to Nottingham"); a habit at
another time of day or week ("I drink wine with dinner now" beside coffee in the morning);
one occasion standing in for the usual ("We did the quiz at the Swan last night instead");
a thing of one occasion parted with ("Sold my ticket for Sunday's match"); a thing lost and
found, mended or let fall; an application under way; a first of a kind long past; a
team's defeat, or its sacking of someone. The true updates of the same shapes still replace.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.named import ENDING
from element.agents.other_time import another_time
from element.agents.passing import passing
from element.agents.person_subject import person_subject, theirs_alone
from tests.element.speaker import current, open_store, tell_after


@pytest.mark.parametrize("sentence,memory", [
    ("I drink wine with dinner now", "Ana drinks coffee in the morning."),
    ("Sundays are for long walks these days", "Ana goes swimming on Saturdays."),
    ("Lunch is usually a cheese sandwich at my desk", "Ana has porridge for breakfast."),
    ("Weekends I work at the pub", "Ana works at Tesco on weekdays."),
    ("Evenings I do yoga now", "Ana runs every morning."),
])
def test_a_habit_at_another_time_is_another_habit(sentence: str, memory: str) -> None:
    assert another_time(sentence, memory, "Ana")


@pytest.mark.parametrize("sentence,memory", [
    ("I swim on Sundays now", "Ana goes swimming on Saturdays."),       # the time changed
    ("I run in the evenings now instead of the mornings", "Ana runs in the morning."),
    ("I have toast for breakfast now", "Ana has porridge for breakfast."),
    ("I drink tea now", "Ana drinks coffee in the morning."),         # no time told
    ("I run in the evenings these days", "Ana runs in the morning."),
])
def test_the_same_habit_moved_or_at_the_same_time_is_no_other(sentence: str,
                                                              memory: str) -> None:
    assert not another_time(sentence, memory, "Ana")


@pytest.mark.parametrize("sentence", [
    "We did the quiz at the Swan last night instead",
    "Had a green tea this morning for a change",
    "Sold my ticket for Sunday's match to a mate",
    "Cancelled our table for Saturday night",
    "Thought I'd lost the Casio at the pool, it turned up in my kit bag",
    "Dropped my phone in the bath, it's in rice now",
    "Dropped the Pixel on the patio, the screen's fine though",
    "The Golf's being repaired so I'm on the bus till Friday",
    "I've applied for a job at HSBC, fingers crossed",
    "My first car was a Fiat Uno, loved it",
])
def test_one_occasion_a_mishap_or_a_plan_gives_no_lasting_value(sentence: str) -> None:
    assert passing(sentence)


@pytest.mark.parametrize("sentence", [
    "I switched to Monzo today instead",
    "Went with Aviva this time",
    "Dropped my Galaxy in the bath so I've got an iPhone now",
    "Applied for a transfer and got it, I'm at the York branch now",
    "Lost my job, found a new one at Aldi",
    "I found it hard to leave Tesco but I'm at Asda now",
    "Dropped my phone in the canal on Tuesday. Came out of the shop with a Galaxy S23.",
    "I sold my car on Saturday",
])
def test_a_lasting_change_of_the_same_shape_is_not_passing(sentence: str) -> None:
    assert not passing(sentence)


def test_a_defeat_or_a_thing_let_fall_ends_nothing() -> None:
    for sentence in ("The Falcons lost to the Kestrels at the weekend", "we lost 3-1",
                     "Dropped my phone in the bath", "dropped the kids off at school"):
        assert not ENDING.search(sentence), sentence
    for sentence in ("lost my job", "dropped out of uni", "I dropped Spanish last year"):
        assert ENDING.search(sentence), sentence


def test_a_person_named_by_what_they_are_is_the_subject(wordnet: Any) -> None:
    assert person_subject("The PE teacher at Ashfield has just quit") == "teacher"
    assert person_subject("Our lodger's moved out to Nottingham") == "lodger"
    assert person_subject("Honestly, the hygienist at Riverside handed her notice in") == \
        "hygienist"
    assert person_subject("My GP is Dr Obi now") == ""      # who the speaker's GP is
    assert person_subject("The teacher training course ended") == ""
    assert person_subject("The Civic died on the motorway") == ""
    assert person_subject("My partner and I moved into our new place in Bath") == ""


def test_a_person_acting_on_the_speakers_thing_is_not_theirs_alone(wordnet: Any) -> None:
    assert theirs_alone("The lifeguard at the leisure centre quit last week",
                        "Ana swims at the leisure centre.", "Ana")
    assert theirs_alone("My brother-in-law sold his Golf and got a van", "Ana drives a Golf.",
                        "Ana")
    assert not theirs_alone("A retired teacher from Kendal bought the caravan off me",
                            "Ana keeps a caravan at Sandy Bay.", "Ana")
    assert not theirs_alone("My hairdresser retired", "Ana's hairdresser is Kerry.", "Ana")


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "kept_true")


@pytest.mark.parametrize("before,after,old", [
    ("I teach geography at Ashfield Academy.",
     "The PE teacher at Ashfield has just quit, nobody saw it coming.", "geography"),
    ("I live in Leicester.", "Our lodger's moved out to Nottingham.", "Leicester"),
    ("I'm a member of the National Trust.",
     "Mum's joined English Heritage instead of the Trust.", "National Trust"),
    ("I support Leeds United.", "Leeds sacked the manager yesterday.", "Leeds United"),
    ("I drink coffee in the morning.", "I drink wine with dinner now.", "coffee"),
])
def test_anothers_change_or_another_habit_keeps_the_fact(store: Any, before: str,
                                                         after: str, old: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert old in current(store)


@pytest.mark.parametrize("before,after,old", [
    ("I go swimming on Saturdays.", "I swim on Sundays now, Saturdays got too busy.",
     "swimming on Saturdays"),
    ("My home insurance is with Aviva.", "I went with LV for the home insurance this time.",
     "with Aviva"),
    ("I work at Barclays.", "Lost my job at Barclays, I'm at Lloyds now.", "works at Barclays"),
])
def test_a_true_update_of_the_same_shape_still_replaces(store: Any, before: str, after: str,
                                                        old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    assert old not in current(store)


@pytest.mark.parametrize("before,after,kept", [
    ("We have two rabbits, Flopsy and Mopsy.", "Sadly Mopsy passed away on Sunday.",
     "Flopsy and Mopsy"),
    ("I keep three hens, Ginger, Nugget and Pepper.", "A fox got Nugget last night.",
     "Ginger, Nugget and Pepper"),
])
def test_one_of_several_named_ends_not_the_others(store: Any, before: str, after: str,
                                                  kept: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert kept in current(store)
