"""element/agents/retire.py: a statement that something no longer holds retires the memory
that held it, and is kept as said when none did; on both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.element.speaker import BACKGROUND, current, open_store, tell


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "retire")


@pytest.mark.parametrize("said,kept", [
    ("I'm not drinking coffee anymore, it's green tea for me these days.",
     "Ana is not drinking coffee anymore"),
    ("I no longer work at the bakery.", "Ana no longer works at the bakery"),
    ("I don't eat red meat anymore.", "Ana does not eat red meat anymore"),
])
def test_an_ending_of_something_not_remembered_is_kept_as_said(store, said, kept):
    """Nothing held it, so there is nothing to retire: the agent still learns that it no
    longer holds (an offer of coffee would be wrong), in the third person, the ending's
    own clause only."""
    for text in BACKGROUND:
        tell(store, text)
    assert tell(store, said)[0] == "add"
    memories = current(store).split(" | ")
    assert kept in memories, memories


def test_the_value_beside_an_ending_is_kept_too(store):
    """"..., it's green tea for me these days": the clause beside the ending is read
    alone, as the new value (``choice.beside_ending``, ``choice.choice_change``)."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I'm not drinking coffee anymore, it's green tea for me these days.")
    assert "green tea for Ana these days" in current(store)


def test_an_ending_of_something_remembered_retires_it_and_adds_nothing(store):
    tell(store, "I drink way too much coffee, four cups a day.")
    assert tell(store, "I'm not drinking coffee anymore.") == ["retire"]
    assert "coffee" not in current(store)
