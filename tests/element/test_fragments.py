"""Verbless fragments said whole (issue 23: a newer statement with no verb and no subject
wrote nothing at all): a topic asked and answered by the speaker ("Favourite band?
Elbow, always."), a bare value said to hold now, completed from the one memory it answers
("Brighton these days" of "Ana lives in Croydon"), and a fragment told alone in passing,
kept as said and replacing nothing (``fragments.py``).

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.fragments import completed, told_alone, told_plainly
from element.agents.verbless import topic_answered, verbless

from tests.element.speaker import current, open_store, tell, tell_after


@pytest.mark.parametrize("clause,expected", [
    ("Brighton these days", True),
    ("On earlies now", True),
    ("a bit of Welsh too", True),          # "bit" after an article is a noun
    ("Proud owner of a Mini", True),
    ("It's a real gift", False),           # a contraction of "is"
    ("Life's all about balance", False),
    ("I moved to Hove", False),
    ("Amazing now", False),                # a word of reaction names nothing
    ("They're priceless", False),
])
def test_a_verbless_clause_has_no_verb_no_subject_and_a_word_of_content(
        clause: str, expected: bool) -> None:
    assert verbless(clause) is expected


@pytest.mark.parametrize("sentences,said", [
    (["Favourite band?", "Elbow, always."], ["My favourite band is Elbow, always."]),
    (["Our Tom?", "Nine in March."], ["Our Tom is nine in March."]),
    (["My sister?", "A midwife, nights mostly."], ["My sister is a midwife, nights mostly."]),
    # a person's answer that does not say how it is theirs: left for ``told_alone``
    (["My sister?", "Leeds now, loves it."], ["My sister?", "Leeds now, loves it."]),
])
def test_a_topic_asked_and_answered_is_one_statement(sentences: list[str],
                                                     said: list[str]) -> None:
    assert topic_answered(sentences, "Ana") == said


@pytest.mark.parametrize("sentences", [
    ["Really?", "No way."],                      # no topic, a reaction
    ["Guess what?", "Tickets for Glastonbury!"],  # a verb in the question
    ["How are you?", "Fine, thanks."],
    ["Favourite band?", "I would say Elbow."],   # the answer has its own verb
    ["Me?", "Tired."],
])
def test_no_topic_is_read_into_a_question_that_asks_something_else(
        sentences: list[str]) -> None:
    assert topic_answered(sentences, "Ana") == sentences


@pytest.mark.parametrize("text,told", [
    ("Cornwall for half-term, glorious sunsets.",
     "Ana: Cornwall for half-term, glorious sunsets."),
    ("Hire van in Leeds: a huge Transit, terrifying.",
     "Ana: Hire van in Leeds: a huge Transit, terrifying."),
    ("Courtesy car this week, a little Polo.", "Ana: Courtesy car this week, a little Polo."),
    # a topic of another's the answer does not say how: theirs, as said
    ("My sister? Leeds now, loves it.", "Ana's sister: Leeds now, loves it."),
])
def test_a_fragment_naming_a_value_is_kept_as_said(text: str, told: str) -> None:
    found = told_alone(text, "Ana", ["Maria"])
    assert found is not None and found[0] == told


@pytest.mark.parametrize("text", [
    "Thanks, Maria!", "Good luck with the Marathon!", "<3.", "Next Friday works.",
    "Maria, I'm glad you're finding it fun.", "It's a real gift.", "Sounds great.",
    "Gather documents like references.", "Welcome back, Maria!",
    "Tea at the Ritz now.",                   # "now" alone: the moment, not what holds
])
def test_chat_is_no_fragment_told_alone(text: str) -> None:
    assert told_alone(text, "Ana", ["Maria"]) is None


def test_without_a_model_only_the_topic_form_is_completed() -> None:
    assert completed("Brighton these days.", ["Ana lives in Croydon"], "Ana", None) == \
        "Brighton these days."
    assert completed("Favourite band? Elbow.", [], "Ana", None) == "My favourite band is Elbow."


# -- with the real model: the memory a fragment answers ----------------------------------

@pytest.mark.parametrize("text,memories,said", [
    ("Brighton these days, since the spring.", ["Ana lives in Croydon", "Ana supports Arsenal"],
     "I live in Brighton these days, since the spring."),
    ("Tottenham all the way now.", ["Ana lives in Croydon", "Ana supports Arsenal"],
     "I support Tottenham all the way now."),
    ("On the day shift now, finally.", ["Ana works nights", "Ana lives in Croydon"],
     "I work on the day shift now, finally."),
    ("Mornings now, finally.", ["Ana works nights", "Ana lives in Croydon"],
     "I work mornings now, finally."),
    ("Three kids now!", ["Ana has two kids", "Ana lives in Croydon"], "I have three kids now!"),
    # a person's memory: the fragment is theirs
    ("Two now, and into everything.", ["Ana's son is 18 months", "Ana lives in Croydon"],
     "My son is two now, and into everything."),
    ("And a bit of Welsh too, since the move.", ["Ana speaks Spanish"],
     "I speak a bit of Welsh too, since the move."),
    # an article opening the value is no name
    ("A bit of Welsh these days.", ["Ana speaks Spanish"], "I speak a bit of Welsh these days."),
    # a make and a model: an episode would keep it as said, news of no one; it is the car
    ("Kia Picanto these days.", ["Ana drives a Vauxhall Astra", "Ana lives in Croydon"],
     "I drive a Kia Picanto these days."),
])
def test_a_value_said_to_hold_now_is_said_in_the_frame_of_the_memory_it_answers(
        model: Any, text: str, memories: list[str], said: str) -> None:
    assert completed(text, memories, "Ana", model) == said


@pytest.mark.parametrize("text,memories", [
    ("Tottenham all the way now.", ["Ana lives in Croydon"]),   # a team, not a home
    ("Brighton for the weekend.", ["Ana lives in Croydon"]),    # nothing says "now"
    ("Brighton these days.", ["Ana's sister lives in Croydon"]),  # another's memory
    ("Brighton these days.", []),
])
def test_no_frame_without_the_memory_of_that_attribute_and_the_present(
        model: Any, text: str, memories: list[str]) -> None:
    assert completed(text, memories, "Ana", model) == text


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "fragments")


def test_a_fragment_of_the_present_supersedes_the_home_it_answers(store: Any) -> None:
    assert "supersede" in tell_after(store, "I live in Croydon.",
                                     "Brighton these days, since the spring; so much calmer."), \
        current(store)
    now = current(store)
    assert "Brighton" in now and "Croydon" not in now


def test_a_car_named_as_a_fragment_after_a_pronouns_ending_supersedes_the_car(
        store: Any) -> None:
    assert "supersede" in tell_after(store, "I drive a Vauxhall Astra.",
                                     "Nah, part-exchanged it. Kia Picanto these days."), \
        current(store)
    now = current(store)
    assert "Picanto" in now and "Astra" not in now


def test_a_topic_answered_supersedes_the_favourite(store: Any) -> None:
    assert "supersede" in tell_after(store, "My favourite band is Blur.",
                                     "Favourite band? Elbow, no contest."), current(store)
    now = current(store)
    assert "Elbow" in now and "Blur" not in now


def test_a_fragment_about_another_person_keeps_the_speakers_job(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I work as a pharmacist.",
                                         "My brother? Plumber, his own business."), \
        current(store)
    now = current(store)
    assert "pharmacist" in now and "lumber" in now


def test_a_fragment_of_another_persons_topic_keeps_the_speakers_home(store: Any) -> None:
    assert "supersede" not in tell_after(store, "I live in Croydon.",
                                         "My brother? Leeds now, loves it."), current(store)
    now = current(store)
    assert "lives in Croydon" in now and "Ana's brother: Leeds now" in now


@pytest.mark.parametrize("before,after,held", [
    ("I speak French.", "Some Italian too these days, from the café job.", "speaks French"),
    ("I speak Polish.", "A little Czech too nowadays, for work.", "speaks Polish"),
])
def test_a_fragment_adding_a_value_too_keeps_the_one_held(store: Any, before: str, after: str,
                                                          held: str) -> None:
    """"too" before a time word is one more ("some Italian too these days"), not a change."""
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert held in current(store)


def test_a_fragment_told_in_passing_is_kept_and_replaces_nothing(store: Any) -> None:
    assert tell_after(store, "I live in Croydon.", "Cornwall for half-term, glorious sunsets.") \
        == ["add"], current(store)
    now = current(store)
    assert "Croydon" in now and "Cornwall" in now
    assert tell(store, "Cornwall for half-term, glorious sunsets.") != ["add"]    # a repeat


# -- a statement of an attribute the speaker has a memory of, kept as said ----------------

def test_a_plain_statement_of_a_remembered_attribute_is_kept_as_said(model: Any) -> None:
    found = told_plainly("Her cousin Olly turned six at the weekend.", "Ana", [],
                         ["Ana's son Rafe is five", "Ana lives in Croydon"], model)
    assert found is not None and found[0] == "Ana: Her cousin Olly turned six at the weekend."


@pytest.mark.parametrize("text", [
    "That bowl is awesome, Maria!",                  # the other's thing, appraised
    "The Name of the Rose sounds cool.",
    "Did Olly turn six at the weekend?",             # a question
    "Olly turned six, did you know?",
    "Your cousin Olly turned six at the weekend.",   # about the listener's
    "Haven't talked in a few days.",                 # no value named
])
def test_chat_is_not_kept_as_said(model: Any, text: str) -> None:
    assert told_plainly(text, "Ana", ["Maria"], ["Ana's son Rafe is five"], model) is None


def test_without_a_memory_of_its_attribute_nothing_is_kept(model: Any) -> None:
    assert told_plainly("Her cousin Olly turned six at the weekend.", "Ana", [],
                        ["Ana lives in Croydon"], model) is None
    assert told_plainly("Her cousin Olly turned six at the weekend.", "Ana", [],
                        ["Ana's son Rafe is five"], None) is None
