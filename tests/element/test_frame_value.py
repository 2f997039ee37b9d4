"""A value told as now in the frame of the old one (its verb, or the words of its object,
said again with another value in the slot) replaces it, the values names the lexicon does
not know (``frame_value.py``); the cleft "X is where I ..." and a role's holder named first
("Dr Okafor is my doctor") are read as the speaker's statements. Another verb of many
frames, no value held in the slot, another person's, an addition or no word of now keeps
both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.frame_value import _matches, mine_last, takes_up, where_cleft
from tests.element.speaker import current, open_store, replaces, tell_after

WHO = "Ana"


@pytest.mark.parametrize("said,plain", [
    ("Lidl's where I get the weekly food now, half the price.",
     "I get the weekly food at Lidl now"),
    ("The lido's where I swim now it's open again.", "I swim at the lido now it's open again"),
    ("YouTube is where I stream these days, the pay is better.",
     "I stream at YouTube these days"),
    ("The kitchen table is where we eat.", "we eat at the kitchen table"),
    ("That is where I work now", None),                # a pointing "that" (``pointed.py``)
])
def test_the_cleft_where_i_is_said_plainly(said: str, plain: str | None) -> None:
    assert where_cleft(said) == plain


@pytest.mark.parametrize("said,plain", [
    ("Dr Okafor is my doctor there.", "my doctor is Dr Okafor there"),
    ("Sarah's my line manager now", "my line manager is Sarah now"),
    ("It is my turn", None),
    ("My sister is a nurse", None),
])
def test_a_roles_holder_named_first_is_said_the_other_way_round(said: str,
                                                                plain: str | None) -> None:
    assert mine_last(said) == plain


@pytest.mark.parametrize("new,old", [
    ("Ana gets the weekly food at Lidl now", "Ana shops at Tesco for the weekly food."),
    ("Ana streams at YouTube these days", "Ana streams on Twitch most evenings."),
    ("Ana swims at the lido now", "Ana swims at the leisure centre."),
])
def test_the_frame_said_again_with_another_value_matches(new: str, old: str) -> None:
    assert _matches(new, old, WHO)


@pytest.mark.parametrize("new,old", [
    ("Ana plays padel now", "Ana plays the guitar."),       # a verb of many frames
    ("Ana works nights now", "Ana works at Tesco."),
    ("Ana swims at the lido now", "Ana swims every morning."),  # no value in the slot
    ("Ana gets her lunch at Pret now", "Ana shops at Tesco for the weekly food."),
    # the words of names and the household as subject are no frame (a read set's control)
    ("Ana's family has got a cockatiel called Pip now and he whistles the Match of the Day "
     "theme.", "Ana's family goes camping every Labor Day weekend."),
])
def test_a_verb_of_many_frames_or_no_value_held_does_not(new: str, old: str) -> None:
    assert not _matches(new, old, WHO)


def test_an_event_of_taking_up_matches_by_its_objects_words_only() -> None:
    assert takes_up("Renewed the car insurance with Admiral")
    assert not takes_up("Got a quote for car insurance from Admiral")
    assert _matches("Ana renewed the car insurance with Admiral",
                    "Ana is with Direct Line for car insurance.", WHO, taken=True)
    assert not _matches("Ana renewed her passport with the Post Office",
                        "Ana is with Direct Line for car insurance.", WHO, taken=True)


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "framevalue")


def test_a_cleft_in_the_old_frame_replaces_the_old_value(store: Any) -> None:
    replaces(store, "I stream on Twitch most evenings.",
             "YouTube is where I stream these days, the pay is better.", "Twitch", "YouTube")


def test_a_renewal_with_another_insurer_replaces_the_old(store: Any) -> None:
    decided = tell_after(store, "I'm with Direct Line for car insurance.",
                         "Renewed the car insurance with Admiral, Direct Line wanted 200 more.")
    assert decided == ["supersede"], current(store)
    now = current(store)
    assert "Admiral" in now and "is with Direct Line" not in now, now


@pytest.mark.parametrize("before,after,old", [
    ("I stream on Twitch.", "My brother streams on YouTube now.", "Twitch"),
    ("I swim every morning.", "I swim at the lido now it's summer.", "every morning"),
    ("I play the guitar.", "I play padel now, on Tuesdays with work people.", "guitar"),
    ("I shop at Tesco for the weekly food.", "My mum gets the weekly food at Lidl now.",
     "Tesco"),
])
def test_anothers_no_value_held_or_another_frame_keeps_the_old(store: Any, before: str,
                                                               after: str, old: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert old in current(store)
