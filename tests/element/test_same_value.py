"""element/agents/profile.py: a single-valued attribute's value said again with more about
it ("Tom and I have been together twelve years" after "I'm married to Tom") is kept beside
the memory, not put in its place; "the oldest one" names no number. On both backends with
the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.profile import same_value, values
from tests.element.speaker import BACKGROUND, current, open_store, tell


def test_one_standing_for_a_thing_is_no_number():
    assert values("Ana's college is the oldest one at the university", "Ana") == frozenset()
    assert values("Ana has one son", "Ana") == frozenset({"one"})


def test_the_same_names_are_the_same_value():
    assert same_value("Ana is married to Tom", "Tom and Ana have been together twelve years",
                      "Ana")
    assert not same_value("Ana lives in Leeds", "Ana lives in York", "Ana")
    assert not same_value("Ana is vegan", "Ana eats fish", "Ana")


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "samevalue")


def test_a_value_said_again_keeps_the_memory(store):
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I'm married to Tom.")
    assert tell(store, "Tom and I have been together twelve years.") == ["add"]
    memories = current(store)
    assert "married to Tom" in memories and "twelve years" in memories, memories


def test_a_new_value_still_replaces(store):
    tell(store, "I live in Leeds.")
    assert tell(store, "I live in York.") == ["supersede"]
    assert "Leeds" not in current(store)
