"""What is told gets written (issue 23: newer statements in ordinary speech wrote
nothing): a value presented after an empty "it's" (``presented.py``), news inside a frame
of surprise (``wondered.py``), clefts of the speaker's and of a person of theirs
(``inverted.py``), a family member placed somewhere (``holders.py``), a fragment opened by
"and"/"plus" (``fragments.told_alone``) and a brief first-person statement of the present
(``brief.py``).

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.brief import brief_statement
from element.agents.fragments import told_alone
from element.agents.holders import holder_of
from element.agents.inverted import inverted
from element.agents.presented import presented
from element.agents.wondered import wondered

from tests.element.speaker import current, open_store, tell_after


@pytest.mark.parametrize("sentence,fragment", [
    ("These days it's rowing twice a week.", "Rowing twice a week these days."),
    ("Nowadays it's Aldi for the weekly shop.", "Aldi for the weekly shop nowadays."),
    ("It's oat milk for me these days, dairy disagrees with me.",
     "Oat milk these days, dairy disagrees with me."),
    ("It's a Skoda Fabia now.", "A Skoda Fabia now."),
])
def test_a_value_after_an_empty_it_is_its_fragment(sentence: str, fragment: str) -> None:
    assert presented(sentence) == fragment


@pytest.mark.parametrize("sentence", [
    "It's quiet these days.",             # how things are, no value
    "It's so busy now.",                  # a degree
    "It's been ages now.",                # a clause
    "These days it's all about the kids.",
    "It's what I do now.",
    "It's raining now.",                  # the weather
    "It's Aldi these days?",              # a question
    "It's Aldi for the weekly shop.",     # no time of the present
])
def test_no_fragment_without_a_noun_phrase_held_now(sentence: str) -> None:
    assert presented(sentence) is None


@pytest.mark.parametrize("said,plain", [
    ("Who'd have thought I'd end up teetotal!", "I am teetotal now."),
    ("Who knew I'd end up in Lincoln, of all places!", "I am in Lincoln now, of all places."),
    ("Never thought I'd be a season ticket holder.", "I am a season ticket holder now."),
    ("Can't believe I'm a grandad now!", "I'm a grandad now."),
])
def test_news_in_a_frame_of_surprise_is_said_plainly(said: str, plain: str) -> None:
    assert wondered(said) == plain


@pytest.mark.parametrize("said", [
    "Who'd have thought you'd be a doctor!",     # the listener's
    "I never thought I'd see the day.",          # what is seen, not what holds
    "Who knew?",
])
def test_no_news_read_into_other_surprise(said: str) -> None:
    assert wondered(said) == said


@pytest.mark.parametrize("said,plain", [
    ("By the way, it's Nationwide I'm with now.", "By the way, I'm with Nationwide now."),
    ("It's my brother who's in Cardiff now, since June.",
     "My brother is in Cardiff now, since June."),
    ("These days it's my grandparents who live in Tenby.",
     "My grandparents live in Tenby these days."),
])
def test_clefts_are_read_as_their_plain_statements(said: str, plain: str) -> None:
    assert inverted(said) == plain


@pytest.mark.parametrize("sentence,holder", [
    ("My brother is in Cardiff now", "brother"),
    ("my parents are out in Portugal these days", "parents"),
    ("My manager is Priya", ""),              # an attribute of the speaker's
    ("my family is in Frome now", ""),        # the household's
])
def test_a_family_member_placed_somewhere_is_theirs(sentence: str, holder: str) -> None:
    assert holder_of(sentence) == holder


def test_a_fragment_opened_by_and_is_kept_as_said() -> None:
    assert told_alone("And a Saturday job at the Curzon, selling tickets.", "Ana") == (
        "Ana: a Saturday job at the Curzon, selling tickets.",
        "And a Saturday job at the Curzon, selling tickets.")
    assert told_alone("Good luck with the Curzon job!", "Ana") is None


@pytest.mark.parametrize("sentence,brief", [
    ("I'm on the early rota.", "I'm on the early rota."),
    ("Oh, I've ended up teetotal.", "I've ended up teetotal."),
    ("I'm so tired.", None),              # a feeling
    ("I went to Leeds.", None),           # a story's past
    ("I'm glad you liked it.", None),
    ("I'll be in Leeds tomorrow.", None),
    ("Am I on the rota?", None),
])
def test_a_brief_statement_is_the_speakers_present(sentence: str, brief: str | None) -> None:
    assert brief_statement(sentence) == brief


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "told_written")


def test_a_cleft_of_another_person_keeps_the_speakers_home(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I live in Swansea.",
                                         "It's my sister who's in Cardiff now, she moved "
                                         "in May."), current(store)
    now = current(store)
    assert "Swansea" in now and "Cardiff" in now


def test_a_value_presented_as_one_more_keeps_the_one_held(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I play badminton.",
                                         "These days it's squash as well as badminton."), \
        current(store)
    now = current(store)
    assert "badminton" in now and "squash" in now


def test_a_cleft_with_im_with_writes_the_provider(store: Any) -> None:
    assert tell_after(store, "I bank with Barclays.",
                      "Just so you know, it's Monzo I'm with now.") != ["nothing"], \
        current(store)
    assert "with Monzo now" in current(store)


def test_news_framed_by_surprise_is_written(store: Any) -> None:
    actions = tell_after(store, "I eat meat.", "Who'd have thought I'd end up teetotal!")
    assert actions and actions != ["nothing"], current(store)
    assert "teetotal" in current(store)


def test_a_fragment_of_a_favourite_now_is_said_as_that_favourite(store: Any) -> None:
    assert "supersede" in tell_after(store, "My favourite drink is cider.",
                                     "Whisky, all the way, these days."), current(store)
    assert "favourite drink is whisky" in current(store)


def test_a_fragment_naming_a_thing_of_the_one_attribute_held_is_framed(store: Any) -> None:
    assert "supersede" in tell_after(store, "I drive a Peugeot 208.",
                                     "A Honda Jazz now, bought it in March."), current(store)
    now = current(store)
    assert "Honda Jazz" in now and "Peugeot" not in now


def test_a_family_member_told_in_passing_keeps_the_speakers_instrument(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I play the clarinet.",
                                         "The kids have taken up the clarinet as well."), \
        current(store)
    now = current(store)
    assert now.count("clarinet") == 2, now


@pytest.mark.parametrize("clause,expected", [
    ("Badminton on Tuesdays and the quiz on Thursdays now", True),   # two fragments
    ("Badminton on Tuesdays and I love it so much now", False),
])
def test_two_fragments_joined_are_verbless(clause: str, expected: bool) -> None:
    from element.agents.verbless import verbless
    assert verbless(clause) is expected


def test_a_reply_word_before_a_colon_opens_nothing() -> None:
    assert told_alone("Both, actually: Leeds in the week and Whitby at weekends.", "Ana") == (
        "Ana: Leeds in the week and Whitby at weekends.",
        "Both, actually: Leeds in the week and Whitby at weekends.")


def test_a_fragment_of_the_present_drops_its_adverb_of_stance(model: Any) -> None:
    from element.agents.fragments import completed
    assert completed("Officially a paramedic!", ["Ana works as a porter"], "Ana", model) \
        == "I work as a paramedic!"


@pytest.mark.parametrize("sentence,fragment", [
    ("Since June, a Vauxhall Corsa.", "A Vauxhall Corsa since June."),
    ("At the moment, earlies.", "Earlies at the moment."),
    ("These days, I cycle.", None),                  # a clause of its own
    ("Right now, the kids are asleep.", None),
])
def test_a_value_told_after_its_time_is_its_fragment(sentence: str,
                                                     fragment: str | None) -> None:
    from element.agents.presented import time_first
    assert time_first(sentence) == fragment


def test_a_value_told_after_its_time_replaces_the_car(store: Any) -> None:
    assert "supersede" in tell_after(store, "I drive a Renault Clio.",
                                     "Since May, a Mazda CX-30."), current(store)
    assert "Mazda" in current(store)


def test_may_the_month_is_no_modal() -> None:
    from element.agents.verbless import verbless
    assert verbless("Lidl since May")
    assert not verbless("I may go")


@pytest.mark.parametrize("said,plain", [
    ("Week one as a sous chef: blisters everywhere.", "I am a sous chef now: blisters everywhere."),
    ("Second week at Waitrose, loving it.", "I am at Waitrose now, loving it."),
    ("My first week at Argos is over.", "My first week at Argos is over."),   # a clause
])
def test_a_counted_time_in_a_new_place_is_the_speaker_there_now(said: str, plain: str) -> None:
    assert inverted(said) == plain


def test_a_hyphenated_adjective_is_no_past() -> None:
    from element.agents.verbless import verbless
    assert verbless("Gluten-free for a month and counting")


def test_a_statement_answering_an_attribute_clear_of_none_is_kept(store: Any) -> None:
    # "has a Kindle" answers phone and computer alike, clear of neither
    assert tell_after(store, "I have a Kindle.",
                      "The Kobo Libra turned up this morning, charging it now.") \
        == ["add"], current(store)
    assert "Kobo" in current(store)


def test_a_name_called_then_spoken_to_frames_no_favourite(model: Any) -> None:
    from element.agents.fragments import completed
    said = "Gemma, you've been so busy lately!"
    assert completed(said, ["Ana's favourite singer is Adele"], "Ana", model) == said
