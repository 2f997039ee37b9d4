"""An answer read with the question it answers, a value named before the change that
brought it, and the openers of a reply (issue 23: each wrote no memory of the new value):
"Is the Corsa still going?" / "Nah, sold it. Skoda Fabia these days." says the speaker
drives a Skoda Fabia (``framed.py``); "Whereabouts are you based now?" / "Exeter." and
"Where's your daughter living now?" / "Glasgow." are read in the question's frame, the
second as the daughter's home (``answered.py``); "Harrogate now, we moved in June" is the
move to Harrogate (``valued.py``); "Good thanks," and "Not much," open a reply.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.answered import answered
from element.agents.framed import framed
from element.agents.spoken import clean
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from element.agents.valued import valued

from tests.element.speaker import BACKGROUND, SETTINGS, SUBJECT, current, open_store, tell


@pytest.mark.parametrize("question,answer,memories,said", [
    # the question names the thing; the memory holding it gives the verb and the frame
    ("Is the Corsa still going?", "Nah, sold it. Skoda Fabia these days.",
     ["Ana drives a red Vauxhall Corsa", "Ana walks to work"],
     "Nah, sold it. I drive a Skoda Fabia these days."),
    # the question asks the memory's verb ("work"): the name after it is replaced; of the
    # two memories that hold "work", the one whose verb is asked
    ("How's work at the surgery?", "Boots now actually, since March.",
     ["Ana works as a receptionist at Hillside Surgery", "Ana walks to work"],
     "I work as a receptionist at Boots now actually, since March."),
    ("How is the job going?", "Aldi now, loving it.", ["Ana works at Tesco"],
     "I work at Aldi now, loving it."),
    # interjections before the "no"
    ("Still a Rovers fan?", "Ha, no, City since I moved.", ["Ana supports Bristol Rovers"],
     "I support City since I moved."),
])
def test_a_value_alone_is_said_in_the_frame_of_the_memory_asked_about(
        question: str, answer: str, memories: list[str], said: str) -> None:
    assert framed(answer, question, memories, "Ana") == said


@pytest.mark.parametrize("question,answer,memories", [
    ("How's work?", "Busy now.", ["Ana works at Tesco"]),                 # no name
    ("How's your son?", "Leeds now, loving it.", ["Ana lives in York"]),  # another person
    ("Still at Tesco?", "Same as ever! I joined the choir.", ["Ana works at Tesco"]),
    ("Is the Corsa still going?", "Fabia.", ["Ana drives a Corsa"]),      # no "now", no "no"
    ("How's the gym?", "Leeds now.", ["Ana has a sister", "Ana lives in York"]),  # nothing asked
    ("How's work?", "Aldi now.", ["Maria works at Tesco"]),              # not the speaker's
])
def test_no_frame_is_read_without_a_value_told_as_now_of_the_speakers_memory(
        question: str, answer: str, memories: list[str]) -> None:
    assert framed(answer, question, memories, "Ana") == answer


@pytest.mark.parametrize("question,answer,said", [
    ("Whereabouts are you living now?", "Exeter, since the spring.",
     "I am living in Exeter now. Since the spring."),
    ("Where's your daughter living these days?", "Glasgow, she loves it.",
     "My daughter is living in Glasgow these days. She loves it."),
    ("Where's your brother working now?", "Asda.", "My brother is working at Asda now."),
    ("What's your son studying?", "Law.", "My son is studying Law."),
    ("What's your favourite film?", "Paddington 2.", "My favourite film is Paddington 2."),
])
def test_a_fragment_answering_where_or_what_is_said_in_the_questions_frame(
        question: str, answer: str, said: str) -> None:
    assert answered(answer, question) == said


@pytest.mark.parametrize("text,said", [
    ("Good thanks, Harrogate now, we moved in June.", "We moved to Harrogate in June."),
    ("Yes! KPMG now, started in March.", "Yes! I started at KPMG in March."),
    ("Lovely to hear from you. So, Bristol these days, moved in May. How are you?",
     "Lovely to hear from you. I moved to Bristol in May. How are you?"),
    ("Leeds now, loving it.", "Leeds now, loving it."),          # no change told
    ("Tesco now, started to like it.", "Tesco now, started to like it."),
])
def test_a_value_named_before_its_change_is_the_changes_object(text: str, said: str) -> None:
    assert valued(text) == said


@pytest.mark.parametrize("sentence,cleaned", [
    ("Good thanks, Harrogate now.", "Harrogate now"),
    ("Not much, new car though, a Mazda 3.", "I have a new car though, a Mazda 3"),
    ("New job: Deloitte!", "I have a new job: Deloitte"),
    ("New year, new me.", "New year, new me"),
    ("Thanks, Maria.", "Thanks, Maria"),     # thanks for what was said: the turn goes on
    ("Thanks to the new job I can afford it.", "Thanks to the new job I can afford it"),
])
def test_the_openers_of_a_reply(sentence: str, cleaned: str) -> None:
    assert clean(sentence, None)[0] == cleaned


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "frames")


def _answer(store: Any, question: str, answer: str) -> list[str]:
    obs = Observation((Turn("assistant", question), Turn("user", answer)), SUBJECT,
                      subject_name="Ana", conversation_id=answer)
    return [d.public()["action"] for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def test_a_value_alone_answering_about_the_car_supersedes_it(store: Any) -> None:
    for said in (*BACKGROUND, "I drive a red Vauxhall Corsa."):
        tell(store, said)
    assert "supersede" in _answer(store, "Is the Corsa still going?",
                                  "Nah, sold it. Skoda Fabia these days."), current(store)
    now = current(store)
    assert "Fabia" in now and "drives a red Vauxhall Corsa" not in now


def test_where_another_lives_keeps_the_speakers_home(store: Any) -> None:
    for said in (*BACKGROUND, "I live in Taunton."):
        tell(store, said)
    _answer(store, "Where's your daughter living these days?", "Glasgow, she loves it.")
    now = current(store)
    assert "lives in Taunton" in now and "Glasgow" in now
