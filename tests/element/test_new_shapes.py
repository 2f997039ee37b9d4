"""Changes told in shapes the cue lists lacked (issue 23): a home bought or leased, a role
given by another (a hire, an appointment), reported speech, "can't ... anymore", an
engagement broken off, a pet named with its kind ("our tortoise Gus died"), an age
stated of a named person in words, "I'm at <Org> these days", a fragment answering "What
are you driving?", a "no" to "are you still ...?", a provider chosen ("I've gone with LV");
on both backends with the real model.
Each supersedes (or retires) the one fact it changes; another person's move, a plan, a
holiday home and a question keep it.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ages import birthday
from element.agents.answered import fragment, still_denied
from element.agents.reported import reported
from element.agents.role import workplace
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe

from tests.element.speaker import (BACKGROUND, tell_after, SETTINGS, SUBJECT,
                                   background_kept, current, ends, open_store, tell)


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "shapes")


@pytest.mark.parametrize("before,after,old", [
    ("I live in Swindon.", "We've bought a little two-up two-down terrace in Frome, "
     "completion was Tuesday.", "lives in Swindon"),
    ("I live in Salford.", "I signed a tenancy on a flat in Stockport, I move in next "
     "week.", "lives in Salford"),
    ("I work at a bakery on Station Road.", "The library service took me on as a mobile "
     "librarian in June.", "bakery on Station Road"),
    ("I'm a science teacher at Brook Lane School.", "They made me head of science at Brook "
     "Lane, more paperwork than ever.", "is a science teacher"),
    ("I work for Halifax.", "I told my brother that I'd left Halifax for Nationwide, he "
     "didn't believe me.", "works at Halifax"),
    ("I'm a regular platelet donor.", "The consultant told me I can't donate platelets "
     "anymore after the surgery.", "regular platelet donor"),
    ("I'm engaged to Rupert.", "Rupert and I broke off the engagement in the spring.",
     "engaged to Rupert"),
    ("My son Alfie is eight.", "Alfie's nine now and thinks he's a teenager.",
     "Alfie is eight"),
    ("I work for Accenture.", "Nowadays I'm at Capgemini, better hours.", "Accenture"),
    ("I'm a staff nurse.", "Got bumped up to ward sister at the start of the year.",
     "staff nurse"),
    ("I'm a receptionist at a dental surgery.", "I have just done my first week as a trainee "
     "paramedic, exhausting but brilliant.", "receptionist"),
    ("I'm a buyer at Next.", "My first month at the new job at Boden flew by.", "buyer at Next"),
    ("My home insurance is with Direct Line.", "The premium went silly, so I've gone with "
     "LV this year.", "with Direct Line"),
    ("We have a tortoise called Gus.", "Our tortoise Gus died in his sleep, he was sixty.",
     "tortoise called Gus"),
    ("I've got a hamster named Pip.", "Sadly my little hamster Pip passed away.",
     "hamster named Pip"),
    ("I'm a barista at Costa.", "I'm with Caffe Nero now, the tips are better.", "Costa"),
])
def test_a_change_in_a_new_shape_supersedes_its_fact(store: Any, before: str, after: str,
                                                      old: str) -> None:
    ends(store, before, after, old)


@pytest.mark.parametrize("before,after", [
    ("I live in Exeter.", "My flatmate moved to Plymouth in May, so I'm after someone to "
     "share the bills."),
    ("I live in Exeter.", "My parents bought a bungalow in Torquay."),
    ("I live in Exeter.", "We bought a holiday cottage in Cornwall."),
    ("I live in Exeter.", "We've bought a flat for our daughter near her uni."),
    ("I live in Exeter.", "We signed the lease on a new office for the business."),
    ("I live in Exeter.", "We might buy a house in Taunton next year."),
    ("I work at Tesco.", "My boss told me she's leaving for Asda."),
    ("I work at Tesco.", "That film made me think of my gran."),
    ("My son Alfie is eight.", "Alfie's eight minutes late for the bus again."),
    ("I work at Tesco.", "I'm with Joel now, we met at a wedding."),
    ("I work at Tesco.", "I'm at Heathrow at the moment, the flight's delayed."),
    ("I work at Tesco.", "My husband is at Asda these days."),
    ("I work at Tesco.", "My wife's first week at the new job at Asda went fine."),
    ("I work at Tesco.", "It was my first day at the new gym, I'm aching."),
    ("I work at Tesco.", "On holiday they took us on a boat trip round the bay."),
    ("I work at Tesco.", "Winning the quiz made me proud of the whole team."),
    ("My best friend is Priya Shah.", "My best friend Priya moved away in June."),
    ("My broadband is with Plusnet.", "I've switched to Dev for my lifts to work."),
    ("My broadband is with Plusnet.", "My sister has gone with Sky."),
])
def test_anothers_change_a_plan_or_a_second_home_keeps_the_fact(store: Any, before: str,
                                                                 after: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert before.split()[-1].rstrip(".") in current(store)


def test_the_reported_clause_is_the_speakers() -> None:
    assert reported("I told my mum that I would left Halifax for Nationwide") == \
        "I had left Halifax for Nationwide"
    assert reported("The nurse told me I cannot give blood anymore") == \
        "I cannot give blood anymore"
    assert reported("My boss told me she is leaving") is None
    assert reported("I live in Leeds") is None


def test_an_age_is_read_when_stated_of_a_named_person() -> None:
    assert birthday("Alfie's nine now and thinks he's a teenager") == ("Alfie", "nine")
    assert birthday("Grandad has just turned ninety") == ("Grandad", "ninety")
    assert birthday("Alfie's eight minutes late") is None
    assert birthday("Sarah has two in her class") is None


def _answer(store: Any, question: str, answer: str) -> list[str]:
    obs = Observation((Turn("assistant", question), Turn("user", answer)), SUBJECT,
                      subject_name="Ana", conversation_id=answer)
    return [d.public()["action"] for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def test_a_fragment_answering_what_the_speaker_drives_supersedes(store: Any) -> None:
    for said in (*BACKGROUND, "I drive a Vauxhall Astra."):
        tell(store, said)
    assert "supersede" in _answer(store, "What are you driving these days?",
                                  "A Honda Jazz. The Astra failed its MOT."), current(store)
    now = current(store)
    assert "Jazz" in now and "drives a Vauxhall Astra" not in now


def test_the_fragment_and_the_workplace_shapes() -> None:
    assert fragment("A Honda Jazz. It's great.", "What are you driving these days?") == \
        "I am driving a Honda Jazz these days. It's great."
    assert fragment("Costa.", "Where are you working now?") == "I am working at Costa now."
    assert fragment("Nothing much.", "What are you doing now?") == "Nothing much."
    assert fragment("Yes, loads.", "What are you driving?") == "Yes, loads."
    assert workplace("I am at Capgemini these days") == "Capgemini"
    assert workplace("I am at Capgemini at the moment") is None
    assert workplace("I am with Joel now") is None
    assert workplace("I am at Capgemini") is None


def test_a_no_to_are_you_still_retires_what_was_asked(store: Any) -> None:
    for said in (*BACKGROUND, "I do the early shift at the sorting office."):
        tell(store, said)
    assert "retire" in _answer(store, "Are you still doing the early shift at the sorting "
                               "office?", "Not for ages. Lates only now."), current(store)
    assert "early shift" not in current(store)


def test_what_a_no_to_are_you_still_says() -> None:
    assert still_denied("Nope, not since May.", "Do you still play your bass?") == \
        "I do not play my bass anymore. Nope, not since May."
    assert still_denied("Yes, every week.", "Do you still play bass?") == "Yes, every week."
    assert still_denied("No, we moved to Leeds.", "Are you still in York?") == \
        "No, we moved to Leeds."
    assert still_denied("No idea.", "How are you?") == "No idea."
    # In chat the question drops its subject, and the "no" names the new value bare.
    assert still_denied("Nope, Cardiff since the summer.", "Still in Bristol?") == \
        "I am not in Bristol anymore. I am in Cardiff since the summer."
    assert still_denied("Nah, EE these days.", "You still with Vodafone?") == \
        "I am not with Vodafone anymore. I am with EE these days."
    assert still_denied("Not really.", "Still playing squash?") == \
        "I am not playing squash anymore. Not really."


def test_a_bare_new_value_after_no_to_still_replaces_the_old(store: Any) -> None:
    for said in (*BACKGROUND, "I work at Tesco on the ring road."):
        tell(store, said)
    assert "supersede" in _answer(store, "You still at Tesco?", "No, Lidl now."), \
        current(store)
    now = current(store)
    assert "Lidl" in now and "works at Tesco" not in now and background_kept(now)


@pytest.mark.parametrize("before,after,old", [
    ("I have a Netflix subscription.", "I let Netflix go, we never watched it.",
     "a Netflix subscription"),
    ("I drink a lot of Pepsi Max.", "I've cut the Pepsi Max out completely.",
     "a lot of Pepsi Max"),
    ("I smoke menthols.", "I knocked the menthols on the head at Easter.", "smokes menthols"),
    ("I go to a life drawing class on Tuesdays.", "Not doing life drawing these days.",
     "life drawing class"),
    ("I'm allergic to dogs.", "Turns out I've grown out of the dog allergy.",
     "allergic to dogs"),
])
def test_an_ending_with_its_particle_after_or_its_subject_dropped_ends_the_fact(
        store: Any, before: str, after: str, old: str) -> None:
    assert {"supersede", "retire"} & set(tell_after(store, before, after)), current(store)
    assert old not in current(store)


@pytest.mark.parametrize("before,after", [
    ("We have a dog called Rolo.", "I let the dog out before bed."),
    ("I have a Netflix subscription.", "My sister let Netflix go."),
    ("I drink a lot of Pepsi Max.", "I gave my mum a lift in."),
])
def test_a_particle_verb_of_another_sense_or_another_person_ends_nothing(
        store: Any, before: str, after: str) -> None:
    assert not {"supersede", "retire"} & set(tell_after(store, before, after)), current(store)
