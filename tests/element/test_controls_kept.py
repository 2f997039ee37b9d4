"""A control's newer fact stored, the old one kept (issue 23): news of a person of the
speaker's told in few words ("My brother got into the police", "Grandad still goes
fishing every weekend") is a memory of theirs, told by the speaker, and replaces nothing of
the speaker's; a time long past opening a sentence ("Back in my twenties I had a Land
Rover") is a memory, not a return; in-laws and grandparents are people of the speaker's;
a stay in another's home ("house-sitting for a friend in Brighton") is a stay, not a move;
a search under way ("We're looking at houses in Frome") replaces no home; a move into a
home in a named place ("moved into our new place in Bath") is a move; what
"we" keep ("We have two rabbits", "We have a border collie") is kept. Chat of the same
build ("My kids loved it", "My husband is amazing with the kids") still writes nothing.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.episodes import episode
from element.agents.relatives import kin_named, relative_news
from element.agents.rules import extract
from element.agents.spoken import restore_subject
from element.agents.stays import bounded
from element.agents.updates import moved_to
from tests.element.speaker import background_kept, open_store, tell_after
from tests.element.speaker import current as contents


@pytest.mark.parametrize("text,memory", [
    ("My brother got into the police!", "Sam's brother got into the police"),
    ("Guess what, my girlfriend got a cat.", "Sam's girlfriend got a cat"),
    ("My sister is a vet, do you think I should ask her about the dog's cough?",
     "Sam's sister is a vet"),
    ("Grandad still goes fishing every weekend at the reservoir.", "fishing"),
    ("Nan does aqua aerobics on Thursdays.", "aqua aerobics"),
    ("Mum's just got a new puppy.", "puppy"),
    ("The boys have started karate.", "karate"),
    ("The wife has gone back to work at the school.", "work at the school"),
])
def test_a_relatives_news_in_few_words_is_a_memory(text: str, memory: str) -> None:
    told = episode(text, "Sam")
    assert told is not None and memory in told.content, told


@pytest.mark.parametrize("text", [
    "My kids loved it.", "My mum is so proud of me.", "My husband is amazing with the kids.",
    "My friends are coming over tonight.", "My daughter was so happy with her gift.",
    "Dad jokes are the worst.", "The kids are asleep.", "My son has been really busy lately.",
])
def test_chat_about_a_relative_is_no_news(text: str) -> None:
    sentence = text.rstrip(".!")
    assert not relative_news(sentence)


def test_a_kin_word_is_a_name_only_as_a_subject() -> None:
    assert kin_named("Grandad still goes fishing")
    assert kin_named("The kids have started swimming")
    assert not kin_named("Dad jokes are the worst")
    assert not kin_named("grandad still goes fishing")     # not called by name


@pytest.mark.parametrize("text", [
    "Back in my twenties I had a Land Rover", "Back in 2009 we lived in Spain",
    "Back in the nineties I worked at Woolworths", "Back in my school days I played rugby",
])
def test_a_time_long_past_is_no_return(text: str) -> None:
    assert restore_subject(text) == text


@pytest.mark.parametrize("text", ["Back in Leeds now", "Back at the office on Monday"])
def test_back_somewhere_is_still_the_speaker(text: str) -> None:
    assert restore_subject(text).startswith("I am back")


@pytest.mark.parametrize("text", [
    "I am currently house-sitting for a friend in Brighton",
    "I'm staying with my mum in Stoke", "Crashing at Tom's in Hackney, the flat is flooded",
    "We're dog-sitting at my sister's",
])
def test_a_stay_in_anothers_home_is_bounded(text: str) -> None:
    assert bounded(text)


@pytest.mark.parametrize("text", [
    "We've been at my in-laws' in Shrewsbury all week because our boiler packed in",
    "I'm at my sister's place in Leeds",
])
def test_a_stay_at_anothers_home_told_by_its_owner_is_bounded(text: str) -> None:
    assert bounded(text)


@pytest.mark.parametrize("text", ["I'm living with my parents now", "I live in Brighton",
                                  "I work at my dad's garage",
                                  "I've been at my brother's wedding"])
def test_a_home_is_no_stay(text: str) -> None:
    assert not bounded(text)


def test_a_move_into_a_home_in_a_named_place_is_a_move() -> None:
    assert moved_to("My partner and I finally moved into our new place in Bath last month")
    assert not moved_to("We moved into the spare room while the kitchen was done")


@pytest.mark.parametrize("text,kept", [
    ("We have two rabbits.", "Sam's family has two rabbits"),
    ("We have a border collie.", "Sam's family has a border collie"),
    ("We have two guinea pigs.", "Sam's family has two guinea pigs"),
])
def test_what_we_keep_is_a_fact(text: str, kept: str) -> None:
    assert [c.content for c in extract(text, 0, "Sam")] == [kept]


def test_what_we_have_that_is_no_thing_kept_is_not() -> None:
    assert extract("We have a problem.", 0, "Sam") == []
    assert extract("We have a fish pie on Fridays.", 0, "Sam") == []


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "relatives")


@pytest.mark.parametrize("before,after,old,new", [
    ("I live in Norwich.", "My in-laws have moved to a bungalow in Cromer.", "Norwich",
     "Cromer"),
    ("I work as a receptionist at a vet's.", "Guess what, my brother got into the police!",
     "receptionist", "police"),
    ("I drive a Honda Jazz.", "Back in my twenties I had a battered old Land Rover.",
     "Honda Jazz", "Land Rover"),
    ("I do a lot of baking.", "Grandad still goes fishing every weekend at the reservoir.",
     "baking", "fishing"),
    ("I live in Croydon.", "Currently house-sitting for a friend in Brighton, lovely to be "
     "by the sea.", "Croydon", "Brighton"),
    ("I live in Bath.", "We're looking at houses in Frome, nothing decided yet.", "Bath",
     "Frome"),
    ("I play tennis.", "I've been doing a bit of golf with my father-in-law too.", "tennis",
     "golf"),
])
def test_a_control_keeps_both_facts(store: Any, before: str, after: str, old: str,
                                    new: str) -> None:
    decided = tell_after(store, before, after)
    now = contents(store)
    assert "supersede" not in decided and "retire" not in decided, now
    assert old in now and new in now and background_kept(now), now
