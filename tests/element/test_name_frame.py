"""A new name told in the frame of the old one (``element/agents/name_frame.py``): a brand or
proper name carries no kind to the model, so what it is to the speaker is read from its
frame ("went with Lyca in the end" after "I'm with Three for my phone"); a person one is
with now, a holiday chosen, a firm joined, a drink switched to, another's switch, a second
account are not the provider held."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.name_frame import CHOSE, HELD_NOW, JOINED, SWITCHED, chosen_name, held_name

from tests.element.speaker import background_kept
from tests.element.speaker import current as contents
from tests.element.speaker import open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "name_frame")


@pytest.mark.parametrize("before,after,new,old", [
    ("I'm with Three for my phone.", "Went with Lyca in the end, half the price.",
     "Lyca", "Three"),
    ("I'm on Three for my phone.", "I'm on Smarty now, half the price for the same data.",
     "Smarty", "Three"),
    ("My phone contract is with EE.", "I'm on Smarty for my phone now.", "Smarty", "EE"),
    ("I bank with Barclays.", "moved everything over to monzo now tbh", "monzo", "Barclays"),
    ("My gas and electricity come from British Gas.",
     "We switched to E.ON Next in the spring, the bills were getting silly.",
     "E.ON Next", "British Gas"),
    ("I run with the Harrogate Harriers.",
     "I've joined the Knaresborough Striders instead, their Sunday runs suit me better.",
     "Striders", "Harriers"),
])
def test_a_name_in_the_frame_of_the_held_one_replaces_it(store: Any, before: str, after: str,
                                                         new: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), contents(store)
    now = contents(store)
    assert new in now and old not in now, now
    assert background_kept(now), now


@pytest.mark.parametrize("before,after", [
    ("I'm with HSBC.", "I'm with Toby now, he moved in last week."),     # a person
    ("I bank with HSBC.", "I'm with Tom now, we got together over the summer."),
    ("I'm with Three for my phone.", "We went with Jet2 this year, Tenerife was lovely."),
    ("I bank with Barclays.", "I switched to decaf now."),              # a drink
    ("I bank with Barclays.", "I switched my phone over to Vodafone."),  # another thing
    ("I bank with Barclays.", "I've joined Accenture now."),            # a firm
    ("I bank with Lloyds.", "I also opened a savings account with Chase."),
    ("Our energy is with Bulb.", "Mum switched to Octopus last week."),  # hers
    # what the speaker is on now is no thing's network unless said: a medicine, an app
    ("My phone is on Vodafone.", "I'm on Ozempic now."),
    ("I'm with EE for my phone.", "I'm on Ozempic now."),
    ("My phone contract is with EE.", "I'm on Hinge now."),
])
def test_a_name_in_another_frame_keeps_the_held_one(store: Any, before: str,
                                                    after: str) -> None:
    assert "supersede" not in tell_after(store, before, after), contents(store)


@pytest.mark.parametrize("clause,read", [
    ("I went with Lyca in the end, half the price", ("Lyca", "", CHOSE, "")),
    ("I ported my number across to giffgaff yesterday",
     ("giffgaff", "my number", SWITCHED, "")),
    ("We have gone over to Octopus for our energy", ("Octopus", "our energy", SWITCHED, "")),
    ("I have joined the Knaresborough Striders instead",
     ("Knaresborough Striders", "", JOINED, "")),
    ("I am on Smarty now, half the price", ("Smarty", "", HELD_NOW, "on")),
    ("I am on Smarty", None),                           # no word of now: may be a visit
    ("I moved to Leeds", None),                         # a home
    ("I went with Sarah to the cinema", None),          # more after the name than a time
    ("We went with Jet2 this year, Tenerife was lovely", None),     # another name after it
    ("I switched to it", None),                         # no name
])
def test_a_name_chosen_is_read_with_its_frame(clause: str, read: Any) -> None:
    assert chosen_name(clause) == read


@pytest.mark.parametrize("said,frame", [
    ("my phone contract is with EE", "be"),
    ("I am on Vodafone", "be"),
    ("I bank with Nationwide", "verb"),
    ("I am a member of the Wendover Golf Club", "member"),
    ("my gas and electricity come from British Gas", "verb"),
    ("I live in Leeds", None),                          # a home is no provider
    ("I work with Accenture", None),                    # nor a job
])
def test_a_name_held_is_read_with_its_frame(said: str, frame: str | None) -> None:
    assert held_name(said) == frame
