"""What the speaker tells of their world is stored whatever shape it is told in (issue 23):
a question asking whether the news was told already ("Did I mention we got a second
cat?"), a statement opening on a name, a place or a thing, news with no first-person word
at all; while small talk, questions back and opinions about nothing still store nothing.
Through the rule evaluator's candidates, as ``observe`` gets them."""

from __future__ import annotations

import pytest

from element.agents.observation import parse_observation
from element.agents.rule_evaluator import RuleEvaluator
from element.agents.sentences import untag


def said(text: str, name: str = "Maria") -> list[str]:
    observation = parse_observation({"turns": [{"role": "user", "content": text,
                                                "name": name}]})
    found, _ = RuleEvaluator().candidates(observation)
    return [c.content for c in found]


@pytest.mark.parametrize("text,news", [
    ("Did I mention we got a second cat?", "we got a second cat"),
    ("Have I mentioned the Fiesta's gone?", "The Fiesta's gone"),
    ("Did I say the choir and I parted ways after Christmas?",
     "The choir and I parted ways after Christmas"),
    ("Did I mention that Mum moved in with us?", "Mum moved in with us"),
    ("Did you know I moved to Leeds?", "I moved to Leeds"),
])
def test_a_question_whether_the_news_was_told_tells_it(text: str, news: str) -> None:
    assert untag(text) == (news, False)


@pytest.mark.parametrize("text", [
    "Did I mention it to you?", "Did I say something wrong?", "Did I say you could come?",
    "Have I told you about my new job?", "Did I mention how much I love it?",
    "Did you know octopuses have three hearts?",
])
def test_a_real_question_about_what_was_said_still_asks(text: str) -> None:
    assert untag(text)[1] is True


def test_news_in_a_did_i_mention_question_is_stored() -> None:
    assert said("Did I mention we got a second cat?") == ["Maria's family got a second cat."]
    assert said("Did I say the choir and I parted ways after Christmas?") == [
        "The choir and Maria parted ways after Christmas."]
