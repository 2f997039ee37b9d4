"""Plain present statements about the speaker or a thing of theirs that wrote nothing
(issue 23, ``mine_told.py``): a thing or an attribute told without its owner ("Rent's
£1,050 now", "The car's a Kia now"), a thing of theirs and its own verb ("Our house has
three bedrooms"), another subject with the speaker in the predicate ("Jo runs my team
now", "Cider's my drink these days"), and "I'm" + a measure or a trait.

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: the fact is stored in the third person and a newer value replaces the old one;
a verdict, a feeling of the moment, the listener, a wish, the past and another person's
thing store nothing new.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.mine_told import (lasting, mine_does, mine_in_predicate, mine_written,
                                      trait_of_speaker)
from index import MemoryStore
from tests.element.speaker import current, tell


def _nothing_read(_: str) -> bool:
    return False


@pytest.mark.parametrize("said,written", [
    ("Rent's £1,050 now, which hurts.", "My rent is £1,050 now, which hurts."),
    ("Rent's about nine hundred a month.", "My rent is about nine hundred a month."),
    ("Work's fully remote now.", "My work is fully remote now."),
    ("My hair's short now.", "My hair is short now."),
    ("The car's a Kia now.", "My car is a Kia now."),
    ("Honestly, the gym's Anytime Fitness these days.",
     "Honestly, my gym is Anytime Fitness these days."),
    ("Cider's my drink these days.", "My drink is cider these days."),
])
def test_a_thing_told_without_its_owner_is_the_speakers(wordnet: Any, said: str,
                                                        written: str) -> None:
    assert mine_written(said, _nothing_read) == written


@pytest.mark.parametrize("said", [
    "The gym is great.",                          # a verdict
    "The weather's grim these days.",             # the world around one
    "The house is a mess.",                       # "the": the talk's, nothing held now
    "The film was great.",                        # the past
    "Work's been mad this week.",                 # a moment
    "Your garden is lovely.",                     # the listener's
    "Maybe the bank's Starling now.",             # a guess
    "Dogs are great these days.",                 # everyone's
    "Pepper's a rescue.",                         # a name a pet may have
    "My daughter's vegan now.",                   # hers: the rules read it as it is
    "Music's my thing now.",                      # no value of a thing
    "The ukulele's my new side thing too.",       # another of the kind
    "Husband's car is a Tesla now.",              # a possessive: his
])
def test_no_lasting_value_of_the_speakers_is_left_as_said(wordnet: Any, said: str) -> None:
    assert mine_written(said, _nothing_read) == said


def test_a_sentence_the_rules_read_is_left_as_said(wordnet: Any) -> None:
    assert mine_written("Home's Bristol now.", lambda _: True) == "Home's Bristol now."


def test_a_turn_about_someone_else_is_left_as_said(wordnet: Any) -> None:
    said = "My sister moved last month. The car's a Kia now, she says."
    assert mine_written(said, _nothing_read) == said


@pytest.mark.parametrize("said,read", [
    ("Our house has three bedrooms", ("house", "has")),
    ("My commute takes an hour now", ("commute", "takes")),
    ("My knee hurts today", None),                # a moment
    ("My phone keeps dying", None),               # a moment's verb
    ("My parents live in Leeds", None),           # people, the rules' own
])
def test_a_thing_of_the_speakers_and_its_verb(said: str, read: Any) -> None:
    assert mine_does(said) == read


@pytest.mark.parametrize("said,keyed", [
    ("Jo runs my team now", False),
    ("Dr Lam looks after my teeth now", False),
    ("The bus gets me to work these days", False),
    ("Coffee's my only vice", True),
])
def test_the_speaker_in_the_predicate(said: str, keyed: bool) -> None:
    read = mine_in_predicate(said)
    assert read is not None and bool(read[1]) is keyed


@pytest.mark.parametrize("said", [
    "That reminds me of my childhood", "It means a lot to me", "You remind me of my sister",
    "Jo ran my team for years", "This makes me so happy",
])
def test_a_remark_to_the_speaker_is_no_fact(said: str) -> None:
    assert mine_in_predicate(said) is None


@pytest.mark.parametrize("said,key", [
    ("I am six months pregnant already", "pregnant"), ("I am five foot six", "foot"),
    ("I am thirty-two weeks along", "along"), ("I am left-handed", "left-handed"),
    ("I am self-employed", "self-employed"),
])
def test_a_measure_or_a_trait_of_the_speaker(said: str, key: str) -> None:
    assert trait_of_speaker(said) == key


@pytest.mark.parametrize("said", [
    "I am so tired today", "I am exhausted", "I am really excited", "I am nervous",
    "I am not left-handed",
])
def test_a_feeling_of_the_moment_is_no_trait(said: str) -> None:
    assert trait_of_speaker(said) is None


def test_a_wish_a_moment_or_the_listener_is_not_lasting() -> None:
    assert lasting("The car's a Kia now")
    assert lasting("Gym is the leisure centre on Hope Street now")    # a name, no wish
    assert not lasting("I wish the car was a Kia")
    assert not lasting("Lunch is a sandwich today")
    assert not lasting("Your car is a Kia now")


@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,old,new", [
    ("I drive a Vauxhall Corsa.", "The car's a Skoda Fabia now.", "Corsa", "Fabia"),
    ("I pay £700 a month in rent.", "Rent is £900 a month these days, ouch.", "700", "900"),
    ("My bank is Barclays.", "The bank's Monzo now.", "Barclays", "Monzo"),
    ("I'm four months pregnant.", "I'm seven months pregnant!", "four", "seven"),
])
def test_the_newer_value_replaces_the_old(wordnet: Any, store: Any, before: str, after: str,
                                          old: str, new: str) -> None:
    tell(store, before)
    assert "supersede" in tell(store, after), current(store)
    now = current(store)
    assert new in now and old not in now, now


def test_a_feeling_writes_nothing_new(wordnet: Any, store: Any) -> None:
    tell(store, "I drive a Vauxhall Corsa.")
    assert tell(store, "The car is so annoying today.") != ["supersede"]
    assert "Corsa" in current(store)
