"""An ending that names its thing by a token of holding finds it (issue 23: retires read
as an episode linked to nothing): the token read as the thing it is for (``tokens.py``), a
thing let go or stolen read as an ending; and what looks alike and ends nothing (a thing of
the speaker's brought in by "my", a thing lent). On both backends with the real model.
(A definite noun referring back, "the little roadster went to a dealer", was tried and
left out: on unseen sets it retired a control's fact.)

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ending_grammar import endings
from element.agents.rules import clean
from element.agents.tokens import held_through
from tests.element.speaker import BACKGROUND, current, open_store, tell


@pytest.mark.parametrize("thing,held", [
    ("the direct debit for the magazine", "the magazine"),
    ("the keys to the flat", "the flat"),
    ("our membership card for the leisure centre", "the leisure centre"),
    ("the lease on the garage", "the garage"),
    ("the bottom of the garden", ""),       # no token: a part of the place itself
    ("the magazine", ""),
])
def test_a_token_of_holding_is_read_as_what_it_is_for(thing, held):
    assert held_through(thing) == held


@pytest.mark.parametrize("said,thing", [
    ("I let the plot go at the end of the summer.", "the plot"),
    ("My phone got pinched on the tube.", "My phone"),
])
def test_a_thing_let_go_or_stolen_is_an_ending(said, thing):
    assert [e.thing for e in endings(clean(said))] == [thing]


def test_the_bare_let_lets_nothing_end():
    assert endings(clean("I let the dog out before breakfast.")) == []


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "tokens")


def _told(store: Any, before: str, after: str) -> tuple[list[str], str]:
    for text in (*BACKGROUND, before):
        tell(store, text)
    return tell(store, after), current(store)


def test_a_token_ended_retires_the_thing_it_was_for(store):
    actions, now = _told(store, "I subscribe to National Geographic.",
                         "Cancelled the standing order for the magazine last month.")
    assert "supersede" in actions and "subscribes to National Geographic" not in now


def test_a_thing_of_the_speakers_brought_in_by_my_keeps_another(store):
    actions, now = _told(store, "I play the piano most evenings.",
                         "I gave my old guitar to my nephew, I never touched it.")
    assert "supersede" not in actions and "piano" in now


def test_a_definite_thing_lent_keeps_it(store):
    actions, now = _told(store, "I own a campervan that we take to the coast.",
                         "We've lent the van to my brother for the summer.")
    assert "supersede" not in actions and "campervan" in now
