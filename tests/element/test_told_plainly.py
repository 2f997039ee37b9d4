"""A newer value told plainly, with no word of change or time, replaces the value held of
an attribute with one value at a time (issue 23): a role of one value named in passing
("my fiancé Rafael", ``role_noun.py``), a plain statement of how things stand naming a
value, a thing of the speaker's named by its make ("my Galaxy S23", ``present.py``); never
a role of many, another's, one more, a past or a plan."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.present import named_possession, present_state, where_said
from element.agents.role_noun import role_apposed

from tests.element.speaker import tell_after, background_kept, open_store
from tests.element.speaker import current as contents


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "plainly")


@pytest.mark.parametrize("before,after,old,new", [
    ("My fiancé is called Duncan.",
     "Wedding planning with my fiancé Rafael is taking over our weekends.", "Duncan", "Rafael"),
    ("My dentist is Dr Okafor.", "My dentist Dr Lindqvist says I grind my teeth.",
     "Okafor", "Lindqvist"),
    ("I've got a Motorola phone.", "The battery on my Galaxy S23 lasts two whole days.",
     "Motorola", "Galaxy"),
    ("I live in Durham.", "The pubs in Whitby, where we live, are packed in August.",
     "Durham", "Whitby"),
])
def test_a_value_told_plainly_replaces_the_value_held(store: Any, before: str, after: str,
                                                      old: str, new: str) -> None:
    assert tell_after(store, before, after) == ["supersede"], contents(store)
    current = contents(store)
    assert new in current and old not in current
    assert background_kept(current)


@pytest.mark.parametrize("before,after", [
    ("My best friend is called Tom.", "My friend Sam came round for dinner."),
    ("My husband is called Tom.", "My sister's husband Jake is a plumber."),
    ("My manager is Priya.", "I had lunch with my old manager Dorothy yesterday."),
    ("I drive a Ford Focus.", "My sister's Volvo broke down on the motorway."),
    ("I live in York.", "I'm hoping to live in Whitby one day."),
    ("I speak French.", "I also speak Italian, badly."),
    ("I live in Leeds.", "The beaches in Cornwall, where I grew up, are the best."),
    ("I live in Leeds.", "The traffic round York, where my sister works, is awful."),
])
def test_a_role_of_many_anothers_a_past_or_one_more_keeps_both(store: Any, before: str,
                                                               after: str) -> None:
    assert "supersede" not in tell_after(store, before, after)
    assert before.rstrip(".").split()[-1] in contents(store)


@pytest.mark.parametrize("sentence,pair", [
    ("Wedding planning with my fiancé Rafael is fun", ("fiancé", "Rafael")),
    ("My line manager Helga signed it off", ("line manager", "Helga")),
    ("My sister's husband Jake is a plumber", None),            # hers
    ("My manager Priya's team is moving", None),                # a possessor, not a value
    ("My boss Ann and my partner Joe agree", None),            # two: which is meant?
])
def test_what_names_a_role_in_passing(sentence: str, pair: tuple[str, str] | None) -> None:
    assert role_apposed(sentence) == pair


@pytest.mark.parametrize("sentence,kind", [
    ("I drive a Skoda because it fits the dog", "plain"),
    ("My broadband is with Sky", "plain"),
    ("I'm reading a great book by Le Carré", None),      # a doing, not a value held
    ("I love Thai food", None),                          # a taste adds up
    ("I am thankful to the Pride group", None),          # a feeling, not a value held
    ("I'd live in Bath if I could", None),               # a wish
    ("I went to Bath", None),                            # an event
    ("My sister lives in Bath", None),                   # another's
])
def test_what_tells_how_things_stand(sentence: str, kind: str | None) -> None:
    assert present_state(sentence) == kind


def test_a_thing_named_by_its_make_is_the_speakers_alone() -> None:
    assert named_possession("The boot of my Volvo estate is huge") == "Volvo estate"
    assert named_possession("My sister's Volvo broke down") is None
    assert named_possession("I used to love my Nokia") is None


def test_a_clause_told_with_where_is_a_statement_about_the_name() -> None:
    assert where_said("The pubs in Whitby, where we live, are packed") == ["we live at Whitby"]
    assert where_said("The canteen at Aviva, where I've been working since May, is good") == \
        ["I've been working at Aviva since May"]
    assert where_said("The traffic round York, where my sister works, is awful") == []
