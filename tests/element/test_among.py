"""The speaker as one of a group told as the subject or the object, read as the speaker's
own change (``element/agents/among.py``): "Everyone on the ward got moved to days, me too",
"We all moved up to Glasgow", "The landlord signed the whole building up with Octopus
Energy, our flat too"; never a group that leaves the speaker out ("the rest of my team got
moved onto nights, but not me") nor another person's change ("my sister switched to EE
too")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.among import among, shares, speaker_object
from element.agents.holders import holder_of
from element.agents.narration import narrate
from element.agents.opening import done_to_speaker
from element.agents.profile import whose
from element.agents.rules import clean
from element.agents.together import together
from element.agents.undergone import undergone

from tests.element.speaker import current, keeps, open_store, replaces, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "among")


@pytest.mark.parametrize("sentence,said", [
    ("Everyone on the ward got moved to days, me too.", "they moved me to days"),
    ("The whole team got relocated to Reading last month, me included.",
     "they relocated me to Reading last month"),
    ("Long story short, the whole squad joined the Saturday league club, me too.",
     "I joined the Saturday league club"),
    ("Half the nurses got redeployed to A&E last month, me among them.",
     "they redeployed me to A&E last month"),
    ("The whole team's moved to the new office in Leeds, me included.",
     "I have moved to the new office in Leeds"),
    ("Everybody at work uses Slack now, me too.", "I use Slack now"),
    ("My sister switched to EE, me too.", "I switched to EE"),
    ("We all moved up to Glasgow in the spring.", "I moved up to Glasgow in the spring"),
    ("We both go to the Y now.", "I go to the Y now"),
    ("Our whole street is on fibre now.", "we are on fibre now"),
    # a group leaving the speaker out, another's own, a group said without the speaker
    ("The rest of my team all got moved onto nights, but not me.", ""),
    ("Everyone in my family has moved to Bristol except me.", ""),
    ("Everyone at the office got moved to the new building, but I stayed in the old one.", ""),
    ("My sister switched to EE too.", ""),
    ("The whole team got relocated to Reading last month.", ""),
    ("My kids all go to St Mary's now.", ""),
])
def test_a_group_the_speaker_is_in_is_said_of_the_speaker(sentence: str, said: str) -> None:
    assert among(clean(sentence)) == said
    assert shares(clean(sentence)) == bool(said)


@pytest.mark.parametrize("sentence,holder", [
    ("Everyone on the ward got moved to days, me too.", ""),
    ("The whole office got free David Lloyd memberships, me included.", ""),
    ("They've moved the lot of us altos into the soprano line, me included.", ""),
    ("The landlord signed the whole building up with Octopus Energy, our flat too.", ""),
    ("The club's handed me the boys' basketball squad this year.", ""),
    ("The club handed the under-12s to me this season.", ""),
    ("They've given me Year 6 this September.", ""),
    ("Wednesday nights my brother-in-law and I play padel now.", ""),
    ("The rest of my team all got moved onto nights, but not me.", "rest"),
    ("My sister switched to EE too.", "sister"),
    ("They handed the under-16s to my mate Dave this season.", "?"),
    ("The council moved all the tenants to a new block, my neighbour included.", "council"),
])
def test_whose_a_group_or_a_giving_is(sentence: str, holder: str) -> None:
    assert holder_of(clean(sentence)) == holder
    assert (whose(clean(sentence)) == "") == (holder == "")


@pytest.mark.parametrize("sentence,said", [
    ("The landlord signed the whole building up with Octopus Energy, our flat too.",
     "The landlord signed us up with Octopus Energy"),
    ("They've moved the lot of us altos into the soprano line, me included.",
     "They've moved us into the soprano line"),
    ("Work switched all of us over to Macs.", "Work switched us over to Macs"),
    ("The council moved all the tenants to a new block, my neighbour included.", None),
    ("They moved my mum into a care home, and my aunt too.", None),
])
def test_a_group_object_the_speaker_is_in_is_us(sentence: str, said: str | None) -> None:
    s = clean(sentence)
    assert speaker_object(s) == (s if said is None else said)


def test_a_group_the_speaker_is_in_reads_as_a_change_done_to_them() -> None:
    assert undergone(clean("Everyone on the ward got moved to days, me too.")) == \
        "I am on days now"
    assert undergone(clean("The whole team got relocated to Reading, me included.")) == \
        "I am based in Reading now"
    assert undergone(clean("They've moved the lot of us altos into the soprano line.")) == \
        "we are in the soprano line now"
    assert done_to_speaker("The club handed the under-12s to me this season")
    assert not done_to_speaker("They gave the under-16s to Dave")


def test_the_speaker_with_another_after_a_time_is_the_speakers() -> None:
    assert together(clean("Wednesday nights my brother-in-law and I play padel now.")) == \
        "I play padel now"
    assert together(clean("We all went to Spain for a week.")) == ""


def test_a_pair_after_a_conjunction_keeps_its_plural_verb() -> None:
    assert narrate("The pool shut, so Jen and I do aqua aerobics at the Y now.", "Ana") == \
        "The pool shut, so Jen and Ana do aqua aerobics at the Y now."
    assert narrate("The kids and I go to St Mary's now.", "Ana") == \
        "The kids and Ana go to St Mary's now."


@pytest.mark.parametrize("before,after,old,new", [
    ("I work nights at the hospital.", "Everyone on the ward got moved to days, me too.",
     "nights", "days"),
    ("I'm on the day shift at the warehouse.", "The whole team got put on nights, me included.",
     "day shift", "nights"),
])
def test_a_group_the_speaker_is_in_replaces_their_value(store: Any, before: str, after: str,
                                                        old: str, new: str) -> None:
    replaces(store, before, after, old, new)


def test_we_all_moving_replaces_where_the_speaker_lives(store: Any) -> None:
    actions = tell_after(store, "I live in Bristol.", "We all moved out to Bath in the summer.")
    assert "supersede" in actions, current(store)
    now = current(store)
    assert "Bath" in now and "Bristol" not in now, now


@pytest.mark.parametrize("before,after", [
    ("I work days at the warehouse.", "The rest of my team all got moved onto nights, but not me."),
    ("I live in Bath.", "Everyone in my family has moved to Bristol except me."),
    ("I'm with Vodafone for my phone.", "My sister switched to EE too."),
])
def test_a_group_without_the_speaker_keeps_theirs(store: Any, before: str, after: str) -> None:
    keeps(store, before, after)
