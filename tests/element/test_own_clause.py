"""The speaker's change told in a sentence that names another person: as the one whose
counsel or help it was ("On my brother's advice I moved to First Direct"), the cause told
first ("Since Jo and I broke up I've been living ..."), the possessor of the place or firm
("living at my mum's in Wakefield", "joined my dad's firm, Hartley Plumbing": ``own_clause``),
the giver ("passed his Samsung on to me", "surprised me with a Mini"), the one who got the
speaker a job or a place ("got me a job as a mechanic", "got me a place at Leeds uni",
"got me in at Asda"), whose post took the household somewhere ("My partner's job took us to
Bristol": ``aided``). Another's own change, a stay, a visit, a habit keep the speaker's
value. The sentences are written for these tests (none is a case of ``bench/data``); the
store tests run on both backends with the real model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.aided import aided
from element.agents.own_clause import own_clause, without_possessor
from element.agents.rules import clean
from tests.element.speaker import current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "own_clause")


@pytest.mark.parametrize("sentence,said", [
    ("On my aunt's advice I moved my savings over to Nationwide.",
     "I moved my savings over to Nationwide"),
    ("With Dad's help, we bought a terrace in Morley.", "we bought a terrace in Morley"),
    ("Since Kim and I split up I've been living at my gran's in Pudsey.",
     "I have been living in Pudsey"),
    ("I've joined my uncle's firm, Booth Roofing.", "I have joined Booth Roofing"),
    # another's own change, a stay, a visit, a habit, a firm's name: nothing of the speaker's
    ("On my advice my sister moved to Ripon.", ""),
    ("I stayed at my brother's in Hull for the weekend.", ""),
    ("I've been going to my mum's in Selby every Sunday.", ""),
    ("My dad's firm, Booth Roofing, has won a contract.", ""),
    ("I work at Sainsbury's in Leeds now.", ""),
    ("Is it true you're living at your mum's in Pudsey?", ""),
])
def test_the_speakers_clause_without_the_other_person(sentence: str, said: str) -> None:
    assert own_clause(clean(sentence)) == said


def test_a_place_another_holds_is_said_by_its_name() -> None:
    assert without_possessor("I am in her gym, the Village in Leeds now") == \
        "I am in the Village in Leeds now"


@pytest.mark.parametrize("sentence,said", [
    ("My cousin got me a job as a plasterer at his firm.", "I work as a plasterer at his firm now"),
    ("My tutor got me a place at Leeds uni.", "I am at Leeds uni now"),
    ("My mate got me in at Morrisons.", "I work at Morrisons now"),
    ("My nan gave me her old Micra when she stopped driving.", "I have her old Micra now"),
    ("My sister passed her Pixel 7 on to me when she upgraded.", "I have her Pixel 7 now"),
    ("My wife surprised me with a Honda Jazz for my birthday.", "I have a Honda Jazz now"),
    ("My friend set me up with Callum.", "I am with Callum now"),
    ("My husband's job took us to Norwich last year.", "we moved to Norwich"),
    ("I followed my girlfriend up to Dundee.", "I moved to Dundee"),
    # a trip, a treat, another given the thing, an offer: no change of the speaker's
    ("Work took me to Berlin last week.", None),
    ("My dad took us to Blackpool on Saturday.", None),
    ("My friend treated me to a coffee.", None),
    ("My mum gave her old Micra to my brother.", None),
    ("My uncle offered to get me a job as a plasterer.", None),
    ("My aunt found us a place in Hove.", "we live in a place in Hove now"),
])
def test_the_speakers_change_another_brought_about(sentence: str, said: str | None) -> None:
    assert aided(clean(sentence)) == said


@pytest.mark.parametrize("before,after,old,new", [
    ("I bank with Lloyds.", "On my aunt's advice I moved my savings over to Nationwide.",
     "Lloyds", "Nationwide"),
    ("I live in Horsforth.", "Since Kim and I split up I've been living at my gran's in Pudsey.",
     "Horsforth", "Pudsey"),
    ("I work at Tesco.", "I've joined my uncle's firm, Booth Roofing.", "Tesco", "Booth Roofing"),
    ("I drive a Ford Ka.", "My nan gave me her old Nissan Micra when she stopped driving.", "Ka",
     "Micra"),
])
def test_the_speakers_change_beside_another_replaces_their_value(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and f" {old}" not in now.replace(new, ""), now


@pytest.mark.parametrize("before,after", [
    ("I live in Horsforth.", "I stayed at my brother's in Hull for the weekend."),
    ("I live in Horsforth.", "I've been going to my mum's in Selby every Sunday."),
    ("I live in Horsforth.", "I'm spending Christmas at my gran's in Pudsey."),
    ("I bank with Lloyds.", "On my advice my sister moved her savings to Nationwide."),
    ("I work at Tesco.", "My brother has joined his mate's firm, Booth Roofing."),
])
def test_another_persons_change_beside_the_speaker_keeps_theirs(store: Any, before: str,
                                                               after: str) -> None:
    keeps(store, before, after)
