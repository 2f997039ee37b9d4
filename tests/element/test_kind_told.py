"""A statement told only by what its noun names (WordNet: decaf is a beverage, a double
bass a musical instrument), of the kind a memory of the speaker's holds, is kept when the
turn writes nothing else (issue 23: what is told writes nothing); another's, a thing seen
or wished for, is not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.kind_told import told_by_kind

from tests.element.speaker import current, open_store, tell_after

HELD = ["Ana drinks double espressos.", "Ana plays the bassoon in a wind band.",
        "Ana has a tabby cat."]


@pytest.mark.parametrize("text,kept", [
    ("These days it's decaf only, doctor's orders.", "decaf"),
    ("Lugging a double bass onto the bus for rehearsals is a workout in itself.",
     "double bass"),
    ("Pepper the tortoise is our only pet these days.", "tortoise"),
])
def test_a_thing_of_a_held_kind_is_told(wordnet: Any, text: str, kept: str) -> None:
    told = told_by_kind(text, "Ana", [], HELD)
    assert told is not None and kept in told[0] and "Ana" in told[0]


@pytest.mark.parametrize("text", [
    "My neighbour just got a beagle and it barks all night.",
    "Tom has a new guitar.",
    "Priya's learning the cello.",
    "Saw a gorgeous saxophone in a shop window today.",
    "I'd love a convertible one day.",
    "Do you like lattes?",
    "Traded the Fiesta in for a pickup in March.",   # a kind no memory holds: a car
])
def test_anothers_seen_wished_or_of_no_held_kind_is_not(wordnet: Any, text: str) -> None:
    assert told_by_kind(text, "Ana", [], HELD) is None


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "kindtold")


def test_a_newer_drink_told_by_its_kind_is_stored(store: Any, wordnet: Any) -> None:
    decided = tell_after(store, "I drink double espressos.",
                         "These days it's decaf only, doctor's orders.")
    assert decided != ["nothing"], current(store)
    assert "decaf" in current(store), current(store)


def test_anothers_instrument_replaces_nothing(store: Any, wordnet: Any) -> None:
    decided = tell_after(store, "I play the violin.",
                         "My daughter has taken up the drums, so the house is loud.")
    assert "supersede" not in decided
    assert "violin" in current(store)
