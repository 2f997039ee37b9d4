"""An ending that names its thing in other words finds it (issue 23: retires read as an
episode linked to nothing): a definite noun referring back to a held thing parted with
(``bridged.py``), a token of holding read as the thing it is for (``tokens.py``), a thing
let go, a band's last ever gig; and what looks alike and ends nothing (a thing of the
speaker's brought in by "my", a thing lent, an event reaching its end). On both backends
with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.bridged import refers_back
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


@pytest.mark.parametrize("thing,sentence,back", [
    ("the plot", "I let the plot go in the autumn.", True),
    ("the little hatchback", "The little hatchback went to a dealer in Derby.", True),
    ("the old dog", "We had the old dog put to sleep.", True),
    ("my bike", "Sold my bike to a neighbour.", False),            # "my" brings a thing in
    ("the Fiesta", "The Fiesta went to a dealer.", False),        # a name: read by its words
    ("the concert", "The concert finished at eleven.", False),    # an event ends by itself
    ("the kids", "The kids went to my mum's.", False),            # people
])
def test_a_definite_noun_parted_with_refers_back(thing, sentence, back):
    assert refers_back(thing, clean(sentence)) is back


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
    yield from open_store(request, tmp_path, model, "bridged")


def _told(store: Any, before: str, after: str) -> tuple[list[str], str]:
    for text in (*BACKGROUND, before):
        tell(store, text)
    return tell(store, after), current(store)


def test_a_definite_noun_let_go_retires_the_thing_it_refers_to(store):
    """"The plot" and "an allotment by the railway": .2 apart by the model, under the bar
    of a thing named; the article says it is the one the speaker has told of."""
    actions, now = _told(store, "I have an allotment by the railway bridge.",
                         "I let the plot go at the end of the summer, my knees had had enough.")
    assert "supersede" in actions and "has an allotment" not in now and "food bank" in now


def test_a_token_ended_retires_the_thing_it_was_for(store):
    actions, now = _told(store, "I subscribe to the New Scientist.",
                         "Cancelled the standing order for the magazine last month.")
    assert "supersede" in actions and "subscribes to the New Scientist" not in now


def test_a_thing_of_the_speakers_brought_in_by_my_keeps_another(store):
    actions, now = _told(store, "I play the piano most evenings.",
                         "I gave my old guitar to my nephew, I never touched it.")
    assert "supersede" not in actions and "piano" in now


def test_a_definite_thing_lent_keeps_it(store):
    actions, now = _told(store, "I own a campervan that we take to the coast.",
                         "We've lent the van to my brother for the summer.")
    assert "supersede" not in actions and "campervan" in now
