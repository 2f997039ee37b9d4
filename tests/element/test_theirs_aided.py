"""A change of the speaker's another person brought about, told with that person as the
subject (``element/agents/aided.py``): "My brother helped me move into my own flat in
Woking", "My dad sold me his old Volvo", "A mate got me into his side, the Red Lions", "My
partner got a job in Cardiff, so we've moved there" are the speaker's own changes; "my
mum helped my brother move", "my sister bought herself a Tesla", an offer, a plan, a stay
or one thing more are not. The sentences are written for these tests (none is a case of
``bench/data``); the store tests run on both backends with the real model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.aided import aided
from element.agents.rules import clean
from tests.element.speaker import background_kept, current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "aided")


@pytest.mark.parametrize("sentence,said", [
    ("My cousin helped me move all my boxes into a studio in Didsbury on Sunday.",
     "I live in a studio in Didsbury now"),
    ("Mum helped us move into the new bungalow in Filey.",
     "we live in the new bungalow in Filey now"),
    ("My supervisor helped me switch my project to marine biology.",
     "I switched my project to marine biology"),
    ("My aunt talked me into joining the Harrogate Ramblers.",
     "I am in the Harrogate Ramblers now"),
    ("My old boss poached me to join his team at Deloitte.", "I am in his team at Deloitte now"),
    ("A lad from the gym got me into his rugby club, the Otley Otters, so I train there now.",
     "I am in his rugby club, the Otley Otters now"),
    ("My granddad sold me his old Land Rover.", "I have his old Land Rover now"),
    ("My friend Jo got me a job at her florist's.", "I have a job at her florist's now"),
    ("My colleague gives me a lift to the depot every day now.",
     "I get a lift to the depot every day now"),
    ("My line manager told me last week that I've been made team leader.",
     "I am team leader now"),
    ("My partner got a job in Exeter, so we've moved there.", "we have moved to Exeter"),
    ("My wife's new post means we've relocated to Norwich.", "we have relocated to Norwich"),
    # another's own change, an offer, a wish, a stay, one thing more: nobody's change of the
    # speaker's
    ("My mum helped my brother move into his new flat in Hull.", None),
    ("My sister bought herself a Mini.", None),
    ("My dad wants to sell me his old Land Rover.", None),
    ("My uncle offered to get me a job at his garage.", None),
    ("My boss didn't help me move.", None),
    ("My friend lent me her cottage in Whitby for the week.", None),
    ("My work gave me an iPhone, so I carry two phones now.", None),
    ("My son helped me paint the fence.", None),
    ("My sister told me she has moved to Leeds.", None),
    ("Did your brother help you move?", None),
])
def test_the_speakers_own_statement_of_a_change_another_brought_about(sentence: str,
                                                                      said: str | None) -> None:
    assert aided(clean(sentence)) == said


@pytest.mark.parametrize("before,after,old,new", [
    ("I live in a bedsit in Salford.",
     "My cousin helped me move all my boxes into a studio in Didsbury on Sunday.",
     "Salford", "Didsbury"),
    ("I live in Harrogate.", "My partner got a job in Exeter, so we've moved there.",
     "Harrogate", "Exeter"),
    ("I walk to work.", "My colleague gives me a lift to work every day now.", "walk", "lift"),
])
def test_a_change_another_brought_about_replaces_the_speakers_value(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    """The old value no longer current, the new one current (restated as the speaker's
    own, the sentence told whole beside it), the background kept."""
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now, now
    assert background_kept(now), now


@pytest.mark.parametrize("before,after", [
    ("I drive a Nissan Note.", "My sister bought herself a Mini."),
    ("I live in Salford.", "My friend lent me her cottage in Whitby for the week."),
    ("I work at Halfords.", "My son got a job at the garage in Wigan."),
])
def test_another_persons_change_in_the_same_shape_keeps_the_speakers(store: Any, before: str,
                                                                     after: str) -> None:
    keeps(store, before, after)
