"""Statements of the speaker's lasting present that wrote nothing (issue 23): what the
speaker is with its "I am" left out ("Cubs leader now"), a cleft of their value ("It's
green tea I drink now"), a standing naming one thing ("I'm in the Ramblers"), a habit
told by a verb whose past is its present ("I read on a Kindle"), and a bare value of one
kind with a memory's by what its nouns name ("Fountain pen ..." of "a biro").

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: the fact is stored, in the third person; a feeling, an occasion, a meal, a
judgement and another's fact are not read so.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.alike_kinds import one_of_a_kind
from element.agents.named_standing import named_standing
from element.agents.rules import extract
from element.agents.said_plainly import restated, uncleft, what_i_am
from index import MemoryStore
from tests.element.speaker import current, tell


@pytest.mark.parametrize("said,plain", [
    ("Scout leader these days, Tuesday nights.", "I am a scout leader these days, Tuesday nights."),
    ("Vegetarian, for about six years now.", "I am a vegetarian, for about six years now."),
    ("Honestly, a Swansea City fan these days.", "I am a Swansea City fan these days."),
    ("Officially a freelancer since April.", "I am a freelancer since April."),
    ("Dog walker for half the street now.", "I am a dog walker for half the street now."),
    ("Methodists now, the chapel's closer.", "I am a methodist now, the chapel's closer."),
])
def test_what_the_speaker_is_is_said_with_its_i_am(wordnet: Any, said: str, plain: str) -> None:
    assert what_i_am(said, "Ana") == plain


@pytest.mark.parametrize("said", [
    "Lunch at the Italian place now.",            # a meal: no kind of person
    "Coffee with Mum now, then the shops.",       # "Mum" is no head of the fragment
    "Best man at Ravi's wedding next month.",     # an occasion
    "Tom now.",                                   # a name alone
    "Pilot?",                                     # a question
    "A nurse.",                                   # no word of the present
])
def test_no_standing_of_the_speakers_is_left_alone(wordnet: Any, said: str) -> None:
    assert what_i_am(said, "Ana") is None


@pytest.mark.parametrize("said,plain", [
    ("It's oat milk I use now, the dairy upset me.", "I use oat milk now, the dairy upset me."),
    ("It's Lidl I go to these days.", "I go to Lidl these days."),
    ("It's the tram I take now.", "I take the tram now."),
    ("It's earlies I work now.", "I work earlies now."),
])
def test_a_cleft_of_the_speakers_value_is_said_in_order(said: str, plain: str) -> None:
    assert uncleft(said) == plain


@pytest.mark.parametrize("said", [
    "It's a shame I missed it.", "It's time I went.", "It's a wonder I slept.",
    "It's you I love.", "It's true I said that.", "It's lovely I think.",
])
def test_a_judgement_or_a_clause_is_no_cleft(said: str) -> None:
    assert uncleft(said) is None


def test_a_sentence_the_rules_read_is_left_as_said(wordnet: Any) -> None:
    said = "Scout leader these days."
    assert restated(said, "Ana", lambda _s, _w: False) == said
    assert restated(said, "Ana", lambda _s, _w: True) == "I am a scout leader these days."


@pytest.mark.parametrize("said,named", [
    ("I am in the Ramblers", True), ("We are with Octopus now", True),
    ("I am in bed", False), ("I am at work", False), ("I am on it", False),
    ("I am with Ana", False), ("I am on statins", True), ("I am in Paris", False),
    ("I am at Starbucks", False), ("I am on holiday", False),
])
def test_a_standing_naming_one_thing(wordnet: Any, said: str, named: bool) -> None:
    assert named_standing(said, {"ana"}) is named


@pytest.mark.parametrize("said,content", [
    ("I read on a Kindle.", "Ana reads on a Kindle"),
    ("I read in bed every night.", "Ana reads in bed every night"),
])
def test_a_habit_told_by_read_is_of_the_present(said: str, content: str) -> None:
    assert [c.content for c in extract(said, 0, "Ana")] == [content]


@pytest.mark.parametrize("said", [
    "I read that book last year.", "I read in the paper that the mayor quit.", "I read it.",
    "I read on the train yesterday.", "I read a great article about bees.",
])
def test_a_reading_done_once_is_no_habit(said: str) -> None:
    assert extract(said, 0, "Ana") == []


def test_values_of_one_kind_by_what_their_nouns_name(wordnet: Any) -> None:
    assert one_of_a_kind("Fountain pen", ["a biro"]) == 0
    assert one_of_a_kind("Day routes", ["the school run", "the night bus route"]) == 1
    assert one_of_a_kind("Lunch at Dishoom", ["the night bus route", "a biro"]) is None
    assert one_of_a_kind("Cubs leader", ["the Scouts as a leader"]) is None    # a person


@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("said,kept", [
    ("I'm in the Ramblers.", "Ramblers"),
    ("I read on a Kindle.", "reads on a Kindle"),
    ("Scout leader these days, would you believe.", "scout leader"),
    ("It's decaf I drink now.", "drinks decaf"),
])
def test_the_statement_is_stored(wordnet: Any, store: Any, said: str, kept: str) -> None:
    assert "add" in tell(store, said)
    assert kept in current(store)


@pytest.mark.parametrize("said", [
    "Hope you have a lovely weekend!", "Do you work nights?",
    "Congratulations on the new job!", "Good morning!",
])
def test_chit_chat_stays_unwritten(wordnet: Any, store: Any, said: str) -> None:
    assert tell(store, said) == ["nothing"]
