"""element/agents/negated.py: a habit the speaker does without ("I don't eat meat") is a
fact of theirs, stored and later ended by its affirmation; a negated thought, feeling,
occasion or reaction ("I don't know", "I can't make it tonight") is none. The journeys on
both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.negated import negated_habit
from tests.element.speaker import BACKGROUND, current, open_store, tell, tell_after


@pytest.mark.parametrize("said,memory", [
    ("I don't eat pork.", "Ana does not eat pork"),
    ("I never drink coffee after lunch.", "Ana never drinks coffee after lunch"),
    ("I can't ride a bike.", "Ana cannot ride a bike"),
    ("I do not drive.", "Ana does not drive"),
    ("I don't really watch football.", "Ana does not watch football"),
])
def test_a_negated_habit_of_the_speakers_is_a_fact(said: str, memory: str) -> None:
    found = negated_habit(said, "Ana")
    assert found is not None and found[0] == memory


@pytest.mark.parametrize("said", [
    "I don't know.",                        # a thought
    "I can't wait for the weekend!",        # a feeling
    "I can't make it tonight.",             # an occasion: a time phrase
    "I don't work tomorrow.",
    "I don't blame you.",                   # at the listener
    "I can't stand it.",                    # pointing back
    "I never went to college.",             # a past
    "My brother doesn't eat pork.",         # another person's
])
def test_a_negated_thought_occasion_or_reaction_is_no_habit(said: str) -> None:
    assert negated_habit(said, "Ana") is None


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "negated")


def test_a_habit_done_without_is_stored_and_ended_by_its_affirmation(store):
    for text in (*BACKGROUND, "I don't eat red meat."):
        tell(store, text)
    assert "Ana does not eat red meat" in current(store)
    tell(store, "I eat red meat again these days, my doctor said I needed the iron.")
    now = current(store)
    assert "Ana does not eat red meat" not in now
    assert "food bank" in now and "Priya" in now


def test_the_same_negated_habit_told_twice_is_one_memory(store):
    tell_after(store, "I don't drink alcohol.", "I don't drink alcohol.")
    assert current(store).count("does not drink alcohol") == 1


def test_a_change_replaces_the_value_it_changes_never_a_habit_done_without(store):
    """"... I joined the bouldering gym instead": the gym is a new value of where Ana
    trains; "cannot swim very well" holds none, and the change skips it for the memory
    it does change."""
    for text in (*BACKGROUND, "I can't swim very well.", "I go to the Riverside Leisure Centre."):
        tell(store, text)
    tell(store, "My Riverside membership ran out in May and I joined the bouldering gym instead.")
    now = current(store)
    assert "Ana cannot swim very well" in now
    assert "bouldering gym" in now and "Ana goes to the Riverside Leisure Centre" not in now
