"""A new value of a many-valued attribute told as what holds now, of the old value's kind
(``kin_values.py``, WordNet's nouns), replaces it; an addition, another's, a living thing,
a shallow kind or no word of the present keeps both. And an opening word of the present
("These days ...") is kept for the readers of change (``cleaning.clean``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.kin_values import of_a_kind
from element.agents.rules import statements
from tests.element.speaker import current, open_store, replaces, tell_after

WHO = "Ana"


@pytest.mark.parametrize("new,old", [
    ("Ana plays squash now.", "Ana plays tennis at the club."),
    ("It is the trumpet Ana practises every night these days.",
     "Ana plays the clarinet in a wind band."),
    ("Ana drinks oat milk lattes now.", "Ana always orders a cappuccino."),
    ("Ana is on the viola nowadays.", "Ana plays the violin."),
    ("Saturday mornings are all badminton now.", "Ana plays football on Saturdays."),
])
def test_a_value_of_the_old_ones_kind_told_as_now_is_of_a_kind(wordnet: Any, new: str,
                                                                old: str) -> None:
    assert of_a_kind(new, old, WHO)


@pytest.mark.parametrize("new,old", [
    ("Ana plays squash on Tuesdays.", "Ana plays tennis at the club."),     # no "now"
    ("Ana walks the dog every morning now.", "Ana has a cat."),             # a living thing
    ("Ana has a puppy now.", "Ana has a cat called Mog."),
    ("Ana drinks wine with dinner now.", "Ana drinks coffee in the morning."),  # "beverage"
    ("Ana's mornings start with an hour on the river now.", "Ana runs every morning."),
    ("Ana plays padel now.", "Ana plays tennis."),      # a word WordNet does not know
    ("Ana plays the cello now.", "Ana plays the cello in an orchestra."),   # the same value
])
def test_another_kind_a_living_thing_or_no_now_is_not(wordnet: Any, new: str,
                                                      old: str) -> None:
    assert not of_a_kind(new, old, WHO)


@pytest.mark.parametrize("said,read", [
    ("These days it's the trumpet I practise every night.",
     "it is the trumpet I practise every night these days"),
    ("Nowadays I play squash.", "I play squash nowadays"),
    ("Now that the kids are older we go out more.", "that the kids are older we go out more"),
    ("I live in Leeds now.", "I live in Leeds now"),
])
def test_an_opening_word_of_the_present_is_kept_after_the_statement(said: str,
                                                                    read: str) -> None:
    assert [clause for _, clause, _ in statements(said)] == [read]


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "kinvalues")


def test_a_sport_of_the_same_kind_now_replaces_the_old(store: Any, wordnet: Any) -> None:
    replaces(store, "I play tennis at the club.", "I play squash now.", "tennis", "squash")


def test_an_instrument_told_these_days_first_replaces_the_old(store: Any,
                                                              wordnet: Any) -> None:
    decided = tell_after(store, "I play the clarinet in a wind band.",
                         "These days it's the trumpet I practise every night.")
    assert decided == ["supersede"], current(store)
    now = current(store)
    assert "trumpet" in now and "clarinet" not in now, now


@pytest.mark.parametrize("before,after,old", [
    ("I play the piano.", "I've started learning the guitar too.", "piano"),
    ("I have a cat.", "I walk the dog every morning now.", "cat"),
    ("I play tennis on Sundays.", "My son plays squash now.", "tennis"),
])
def test_an_addition_a_pet_or_anothers_keeps_the_old(store: Any, wordnet: Any, before: str,
                                                     after: str, old: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert old in current(store)
