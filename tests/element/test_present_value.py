"""A present value of a remembered single-valued attribute, told without "moved" or
"switched", supersedes the value held (``element/agents/present_value.py``): "I'm a
postman now" after "I work at the Tesco on the ring road", "My boss is a woman called
Dorothy ..." after "My manager is Helen"; never one more of a many-valued attribute,
another person's value, a stay, an occasion or a condition."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.episodes import tell as tell_of
from element.agents.present_value import REASON, _parts, _tells_present, occasional
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe

from tests.element.speaker import SETTINGS, SUBJECT, keeps, open_store, replaces, tell


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "present_value")


@pytest.mark.parametrize("before,after,old,new", [
    ("I work at the Tesco on the ring road.", "I'm a postman now.", "Tesco", "postman"),
    ("I'm a dental nurse.", "I'm on the tills at Sainsbury's these days.", "dental nurse",
     "Sainsbury"),
    ("My manager is Helen.", "My boss is a woman called Dorothy who used to run the Leeds "
     "branch.", "Helen", "Dorothy"),
    ("I live in Norwich.", "My flat in Leeds is freezing and the landlord won't fix the "
     "boiler.", "Norwich", "Leeds"),
    # a network named before "for my mobile" is the phone's value, not an accessory of it
    ("My phone contract is with O2.", "I'm on Giffgaff for my mobile, ten pounds a month "
     "all in.", "O2", "Giffgaff"),
])
def test_a_present_value_of_the_same_attribute_supersedes(store: Any, before: str, after: str,
                                                          old: str, new: str) -> None:
    replaces(store, before, after, old, new)


def test_the_reason_says_what_was_read(store: Any) -> None:
    for said in ("I volunteer at the food bank on Saturdays.", "I work at the Tesco on the "
                 "ring road."):
        tell(store, said)
    obs = Observation((Turn("user", "I'm a postman now."),), SUBJECT, subject_name="Ana",
                      conversation_id="now")
    decisions = [d.public() for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]
    assert [(d["action"], d["reason"]) for d in decisions] == [("supersede", REASON)]


@pytest.mark.parametrize("before,after", [
    ("I play the guitar.", "I play the drums in the church band."),          # many-valued
    ("I work at the library on Church Street.", "My husband works at the leisure centre."),
    ("I live in Swindon.", "I'm staying at my brother's in Bath this week while our kitchen "
     "is redone."),                                                           # a stay
    ("I cycle to work.", "When the roads are icy I take the train."),          # a condition
    ("I work at Tesco.", "Sometimes I do a shift at the Co-op on Sundays."),  # an occasion
    ("I work at Tesco.", "I also do a shift at the Co-op on Sundays."),       # one more
    ("I support Aston Villa.", "I'm a huge fan of it."),                      # no value named
    ("I work at Siemens.", "My online clothing store has been a roller coaster."),  # a judgement
])
def test_one_more_anothers_a_stay_or_an_occasion_keeps_both(store: Any, before: str,
                                                           after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("sentence,occasion", [
    ("Sometimes I get the bus", True),
    ("When it rains I take the train", True),
    ("I'm working from the Birmingham office this week", True),
    ("I'm staying with my parents", True),
    ("I'm a postman now", False),
    ("I've been at Aviva since March", False),
])
def test_what_tells_an_occasion_or_a_stay(sentence: str, occasion: bool) -> None:
    assert occasional(sentence) is occasion


def test_the_parts_read_are_the_speakers_present() -> None:
    # The value cut from what is told beside it; the past clause left out.
    assert ("I am back to full time", "Ana is back to full time.") in \
        _parts("I'm back to full time now that the twins have started school.", "Ana")
    assert _parts("My phone contract is with EE, I signed up in the summer.", "Ana") == \
        [("My phone contract is with EE", "Ana's phone contract is with EE.")]
    assert _parts("I used to be a nurse.", "Ana") == []                # a past
    assert _parts("I'd love to live in Bath.", "Ana") == []           # a wish
    assert _parts("Are you still at Tesco?", "Ana") == []             # a question
    assert _parts("I moved in May. I love it here.", "Ana") == []     # two sentences


@pytest.mark.parametrize("part,sentence,present", [
    ("I am a postman now", "I'm a postman now.", True),                       # a word of now
    ("I have been getting the train in", "Since May I've been getting the train in.", True),
    ("I have been using the app", "I've been using the app.", False),          # no span
    ("My boss is a woman called Dorothy", "My boss is a woman called Dorothy.", True),
    ("We rock as a team", "We rock as a team.", False),                        # no value named
])
def test_what_tells_a_present_value(part: str, sentence: str, present: bool) -> None:
    told = tell_of(part, "Ana") or ""
    assert _tells_present(part, told, sentence, "Ana", frozenset()) is present
