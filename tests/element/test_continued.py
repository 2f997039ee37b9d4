"""Guards of the finders by meaning against false supersedes (issue 23: a false supersede
loses a true memory, worse for a person than a missed update): a plan, a wish or an
undertaking under way is kept beside news that neither ends nor names it, a doing told as
going on keeps its memory (``continued.py``); a stay for a bounded time replaces no value
held (``stays.py``); the listener's name called is no value of the speaker's
(``addressed.py``); an ending whose thing names nothing, or another named thing, ends no
memory by meaning (``meant.py``). Real updates told plainly still replace.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from element.agents.addressed import unaddressed, vocatives
from element.agents.continued import continues, plan_kept, undertaking
from element.agents.meant import ended_by_meaning, names_another
from element.agents.stays import bounded

from tests.element.speaker import background_kept, open_store, replaces, tell_after
from tests.element.speaker import current as contents


@pytest.mark.parametrize("fact,plan", [
    ("I'm researching cookery schools in Lyon", True),
    ("I will bring my trifle to the street party", True),
    ("I'm standing for the parish council", True),
    ("I'm saving up for a campervan", True),
    ("I started to hang out with the lads at the darts club", True),
    ("I'm thinking about a move to Norfolk", True),
    ("I live in Hove", False),
    ("I'm working at the Co-op", False),
    ("I'm learning Italian", False),
    ("I'm studying for a law degree at Durham", False),
    ("I played the oboe at school and I'd love to learn the harp, but I play the flute", False),
])
def test_a_plan_or_an_undertaking_is_read_so(fact: str, plan: bool) -> None:
    assert undertaking(fact) is plan


def test_a_plan_is_kept_unless_the_news_ends_or_names_it() -> None:
    plan = {"content": "Ana is standing for the parish council in May."}
    assert plan_kept("I got promoted at the bank!", plan, "Ana")
    assert plan_kept("Hey May, I'm working on a quilt.", plan, "Ana")
    assert not plan_kept("I've given up on standing for the council.", plan, "Ana")
    portugal = {"content": "Ana is going to Portugal for the summer holiday."}
    assert not plan_kept("Change of plan: Croatia instead of Portugal.", portugal, "Ana")
    assert not plan_kept("We've booked Crete.", portugal, "Ana")    # a plan in its place
    # News of the plan itself is left to the finders.
    vegan = {"content": "Ana is trying to go vegan."}
    assert not plan_kept("I'm fully vegan now.", {"content": "Ana wants to go vegan."}, "Ana")
    assert not plan_kept("I'm fully vegan now.", vegan, "Ana")


@pytest.mark.parametrize("sentence,memory,going_on", [
    ("It made me even more keen to kayak.", "Ana is researching kayak clubs.", True),
    ("I'm playing in the chess tournament again.", "Ana started to play chess at the tournament.",
     True),
    ("I'm at the chess club again.", "Ana plays chess at the club.", False),
    ("I started eating fish again, so I'm pescatarian now.", "Ana is vegetarian.", False),
    ("I'm with Vodafone again.", "Ana's phone contract is with EE.", False),
    ("I quit the chess club again.", "Ana plays chess at the club.", False),
])
def test_a_doing_told_as_going_on_is_read_so(sentence: str, memory: str,
                                             going_on: bool) -> None:
    assert continues(sentence, {"content": memory}, "Ana") is going_on


@pytest.mark.parametrize("sentence,stay", [
    ("We're renting a villa in Crete for the whole of August.", True),
    ("I'm staying in a flat in Glasgow until Christmas.", True),
    ("I'm working at a garden centre over the summer holidays.", True),
    ("I've lived in Leeds for six months.", False),
    ("I'm in Leeds for a few months now.", False),
    ("I moved to Leeds for my job.", False),
    ("I sold my car for two thousand pounds.", False),
    ("We relocated to Valencia over the summer.", False),
    # A stay told as over: the value held before holds again.
    ("Back from a week at my aunt's caravan in Tenby.", True),
    ("Just got home from a fortnight in Lisbon.", True),
    ("We moved back from Dubai to Reading.", False),
    ("Back from Perth for good, renting in Dundee.", False),
    ("Back from paternity leave and at Asda now.", False),
])
def test_a_stay_for_a_bounded_time_is_read_so(sentence: str, stay: bool) -> None:
    assert bounded(sentence) is stay


@pytest.mark.parametrize("sentence,names,rest", [
    ("Hey Priya, I'm working on a new project.", {"Priya"}, "Hey I'm working on a new project."),
    ("Thanks, Mel!", {"Mel"}, "Thanks!"),
    ("So happy you found your people, Priya.", {"Priya"}, "So happy you found your people."),
    ("I live in Paris, France.", set(), "I live in Paris, France."),
    ("Hi! I moved to Leeds.", set(), "Hi! I moved to Leeds."),
    ("Tom and I split up.", set(), "Tom and I split up."),
])
def test_the_listeners_name_called_is_read_so(sentence: str, names: set[str],
                                              rest: str) -> None:
    assert vocatives(sentence) == names
    assert unaddressed(sentence) == rest


def test_an_ending_naming_nothing_or_another_thing_ends_no_memory_by_meaning() -> None:
    def embed(texts: list[str]) -> np.ndarray:
        return np.ones((len(texts), 4), dtype=np.float32)     # all alike: only the guards
    thanks = {"id": "a", "content": "Ana is grateful to Priya for the lift."}
    google = {"id": "b", "content": "Ana works at Google."}
    assert ended_by_meaning("got it", [thanks], "Ana", embed) is None
    assert ended_by_meaning("my job at Door Dash", [google], "Ana", embed) is None
    assert ended_by_meaning("my job at Google", [google], "Ana", embed) is google
    assert names_another("my job at Door Dash", google["content"], "Ana")
    assert not names_another("my job at Google", google["content"], "Ana")
    assert not names_another("my job at the bank", google["content"], "Ana")
    # A word of the memory's own, capitalised at the sentence's start, names it.
    netball = {"id": "d", "content": "Ana plays netball on Tuesdays."}
    assert ended_by_meaning("Netball", [netball], "Ana", embed) is netball
    # A name's initials name it too.
    degree = {"id": "c", "content": "Ana is doing an Open University degree in art."}
    assert ended_by_meaning("the OU degree", [degree], "Ana", embed) is degree


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "continued")


@pytest.mark.parametrize("before,after,held", [
    ("I'm researching kayak clubs on the coast.",
     "Last weekend I tried a taster session at one. It made me even more keen to kayak.",
     "researching kayak clubs"),
    ("I will bring some of my cakes so Tomasz and I can both share dessert.",
     "Hey Tomasz, I'm working on a new project - a gritty crime novel set in a small "
     "Cornish town.", "cakes"),
    ("I live in a terrace in Hove.", "We're renting a villa in Crete for the whole of August.",
     "Hove"),
    ("I work at the Co-op.", "I'm working at a garden centre over the summer holidays.",
     "Co-op"),
    ("Knowing I've got people like you cheering me on makes this so much easier.",
     "I finished the quilt for my niece last week. Put in a ton of late nights but finally "
     "got it done.", "cheering"),
    # An ending naming another value of a one-valued attribute ends nothing, by meaning or
    # by the attribute's slot (``endings.ended_memory``'s fallback).
    ("I work at Google.", "Lost my job at Door Dash last week, gutted.", "Google"),
    ("I live in Truro.", "Back from my cousin's barn conversion in Wales, shattered.", "Truro"),
])
def test_news_beside_a_fact_keeps_it(store: Any, before: str, after: str, held: str) -> None:
    decided = tell_after(store, before, after)
    now = contents(store)
    assert "supersede" not in decided and "retire" not in decided, now
    assert held in now and background_kept(now), now


@pytest.mark.parametrize("before,after,old,new", [
    ("I live in a terrace in Hove.", "We've moved to a semi in Worthing.", "Hove", "Worthing"),
    ("I work at the Co-op.", "I've got a job at Lidl now.", "Co-op", "Lidl"),
    ("I live in Bristol.", "I moved back from Bristol to Exeter in the spring.", "Bristol",
     "Exeter"),
])
def test_a_new_value_told_plainly_still_replaces(store: Any, before: str, after: str,
                                                 old: str, new: str) -> None:
    replaces(store, before, after, old, new)
