"""A change of the speaker's told as a noun said to be done supersedes the value held
(``element/agents/change_done.py``): "The move to Walthamstow went smoothly" after "I rent a
room in Camden" is where one lives now; another person's move, a move called off, one long
past, and a new thing of a kind one holds several of ("our new kitten" beside the dog) keep
both."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.change_done import change_done, told_done

from tests.element.speaker import background_kept, current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "change_done")


@pytest.mark.parametrize("before,after,old,new", [
    ("I rent a room in a shared house in Camden.",
     "The move to Walthamstow went smoothly and the new flatmates are lovely.",
     "Camden", "Walthamstow"),
    ("My phone contract is with EE.",
     "The switch to Giffgaff took ten minutes and my bill has halved.", "with EE", "Giffgaff"),
    ("I live in Exeter.",
     "Moving day to Topsham was exhausting, but the cottage already feels like home.",
     "Exeter", "Topsham"),
    ("I live in Leeds.", "Moving day done, finally settled in York.", "Leeds", "York"),
    # A fragment telling an event whose result holds (``begun.py``), not kept apart.
    ("I study at Leeds Beckett.",
     "First lecture at Sheffield Hallam this morning, what a campus.",
     "Leeds Beckett", "Sheffield Hallam"),
])
def test_a_change_told_as_a_noun_said_to_be_done_supersedes_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now, now
    assert background_kept(now), now


@pytest.mark.parametrize("before,after", [
    ("I live in Norwich.", "My brother's move to Cambridge went smoothly, his new flat is lovely."),
    ("I live in Norwich.", "The move to Cambridge went smoothly for my brother."),
    ("I live in Bristol.", "The move to Bath fell through at the last minute."),
    ("I have a Labrador called Biscuit.",
     "Picked up our new kitten yesterday, a little tabby called Pepper."),
])
def test_anothers_move_one_called_off_or_one_more_pet_keeps_both(
        store: Any, before: str, after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("sentence,said", [
    ("The move to Walthamstow went smoothly", "I moved to Walthamstow"),
    ("the switch to Giffgaff took ten minutes and my bill has halved", "I switched to Giffgaff"),
    ("I am moving day to Topsham was exhausting", "I moved to Topsham"),
    ("The big move to Cardiff is done", "I moved to Cardiff"),
    ("Our transfer to the Leeds office finally went through", "I transferred to the Leeds office"),
    ("So the move from Camden to Walthamstow went fine", "I moved to Walthamstow"),
    ("The move to the new office in Manchester went smoothly", None),
    ("The move's finally over and we're settled into our new place in Hove", "I moved to Hove"),
    # Another's, not done, long past, of the future, a kind not named, a thing that moves.
    ("My brother's move to Cambridge went smoothly", None),
    ("The move to Leeds went well for mum", None),
    ("The move to Bath fell through", None),
    ("The move to Bath was postponed", None),
    ("The move to Bath was years ago", None),
    ("The move to Leeds back in 2009 was hard", None),
    ("The move to Leeds is next month", None),
    ("The switch to decaf went fine", None),
    ("The office move to Canary Wharf went fine", None),
    ("Did the move to Leeds go well?", None),
    ("My brother's move is finally over, he's settled in Hove", None),
])
def test_the_speakers_statement_of_a_change_told_as_a_noun(sentence: str,
                                                            said: str | None) -> None:
    assert change_done(sentence) == said


def test_the_statement_is_said_before_its_sentence_which_is_kept() -> None:
    assert told_done("Big news. The move to Leith went smoothly!") == \
        "Big news. I moved to Leith. The move to Leith went smoothly!"
    assert told_done("We might move to Bath.") == "We might move to Bath."
