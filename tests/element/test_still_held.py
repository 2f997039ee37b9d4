"""element/agents/meaning.py ``still_held``: a statement the finders by meaning match to a
stored fact, that names that fact's value again with no strong cue and nothing ended, is
more about the value held, not a new one in its place. Both facts stay current. A change
that names the old value says so, and still replaces it. On both backends with the real
model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.meaning import still_held
from element.agents.episodes import tell as tell_as
from element.agents.updates import signals
from tests.element.speaker import current, open_store, tell


@pytest.mark.parametrize("old, said, held", [
    ("Ana lives in Leeds", "I do my big shop at the Asda in Leeds now.", True),
    ("Ana works at Google", "I'm at Google in the Dublin office now.", True),
    ("Ana plays tennis at the Leeds club", "I play padel at the Leeds club now.", False),
    ("Ana lives in Leeds", "I live in York now.", False),           # a new value
    ("Ana lives in Leeds", "I moved from Leeds to York.", False),   # the old one ended
    ("Ana drives a Focus", "I traded the Focus in for a Kia Niro.", False),
    ("Ana is a nurse", "I'm a midwife now.", False),                # no value named
])
def test_a_value_named_again_is_still_held(old, said, held):
    """The statement as the finders see it: its cues read from the speaker's words, its
    values from the memory it would be (``tell``)."""
    content = tell_as(said, "Ana")
    assert still_held({"content": old}, content, signals(said), "Ana") is held


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "still_held")


@pytest.mark.parametrize("before, after, old, new", [
    ("I live in Leeds.", "I do my big shop at the Asda in Leeds now.", "Leeds", "Asda"),
    ("I work at Google.", "I'm at Google in the Dublin office now.", "works at Google",
     "Dublin"),
])
def test_more_about_a_value_keeps_it_current(store, before, after, old, new):
    """Before, the finders by meaning read these as a new value and superseded the old."""
    tell(store, before)
    tell(store, after)
    now = current(store)
    assert old in now and new in now


def test_a_move_that_names_the_old_home_still_replaces_it(store):
    tell(store, "I live in Leeds.")
    tell(store, "We moved from Leeds to York in the spring.")
    now = current(store)
    assert "York" in now and "lives in Leeds" not in now


def test_a_birthplace_is_history_a_new_home_replaces_nothing(store):
    """"I was born in Cork" is a past event, not where Ana lives: "Leeds is home now" is a
    home, and the birthplace stays current. Before, the finders by meaning replaced it."""
    tell(store, "I was born in Cork.")
    tell(store, "Leeds is home now.")
    now = current(store)
    assert "born in Cork" in now and "Leeds" in now
