"""element/agents/meaning.py ``several``: several of a thing held at once ("two phones") is
one more, no new value in place of the old; a span of time is no thing held ("finally
qualified after four years"), so it does not stop a change from replacing the old value.
On both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.meaning import several
from tests.element.speaker import current, open_store, tell


@pytest.mark.parametrize("sentence, held", [
    ("I'm carrying two phones around now.", True),
    ("We have two dogs now, Rex and Bella.", True),
    ("I've got a couple of old bikes in the shed.", True),
    ("I'm an electrician now, finally qualified after four years.", False),
    ("Three weeks at the new gym and I can feel it.", False),
    ("Two full years at Aviva this month.", False),
    ("I go swimming three times a week.", False),
])
def test_several_things_held_not_a_span_of_time(sentence: str, held: bool) -> None:
    assert several(sentence) is held


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "several")


def test_a_new_trade_after_years_of_training_replaces_the_old(store: Any) -> None:
    """Before, "four years" read as several things held: both trades stayed current."""
    tell(store, "I work as a plumber.")
    tell(store, "I'm an electrician now, finally qualified after four years.")
    now = current(store)
    assert "electrician" in now and "plumber" not in now


def test_a_second_dog_is_one_more(store: Any) -> None:
    tell(store, "I have a dog called Rex.")
    tell(store, "We have two dogs now, Rex and Bella.")
    now = current(store)
    assert "dog called Rex" in now and "Bella" in now
