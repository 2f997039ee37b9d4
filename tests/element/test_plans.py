"""element/agents/plans.py: a plan, wish or intention of the speaker's is kept as one (a
context memory with no key) and replaces nothing; a taste, a request of the other person
or a question is no plan. On both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.plans import plan
from element.agents.rules import clean
from tests.element.speaker import SUBJECT, current, open_store, tell


@pytest.mark.parametrize("said", [
    "One day I'd love to run a little campsite in Wales.",
    "I'm hoping to move to Edinburgh once the kids leave home.",
    "We're saving up for a camper van.",
    "Thinking of retraining as a plumber next year.",
    "My dream is to walk the Camino de Santiago.",
    "I want to learn to play the harp one day.",
    "Sometimes I wish I'd studied medicine.",
])
def test_a_plan_or_wish_is_told_as_the_speakers(said):
    told = plan(clean(said), "Ana")
    assert told is not None and told.startswith(("Ana", "One day Ana", "Sometimes Ana"))


@pytest.mark.parametrize("said", [
    "I love to bake on Sundays.",
    "I'd like you to remind me about the dentist.",
    "I want to know what you think.",
    "Would you like to come?",
    "I want it.",
    "I live in Leeds.",
    "I might be late tomorrow.",
    "I'd like to book a table for four.",
    "I want to cancel my order.",
    "I wish you were here.",
])
def test_a_taste_a_request_or_a_statement_is_no_plan(said):
    assert plan(clean(said), "Ana") is None


@pytest.mark.parametrize("said", [
    "I'd love to see more of your photos someday.",
    "We would love to have you over again.",
    "I'd love to try making it sometime.",
    "One day I hope to explore them properly.",
    "I'd love to build something like this next.",
    "I wish I could have been there.",
    "I've been dreaming of this for a while.",
    "I wish I was that patient.",
    "Wish I had a holiday lined up.",
])
def test_a_wish_that_points_into_the_conversation_is_no_plan(said):
    """Out of its conversation, a wish about the listener or about "it"/"them"/"like this"
    names nothing of the speaker's life: no memory."""
    assert plan(clean(said), "Ana") is None


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "plans")


def test_a_wish_is_kept_and_replaces_nothing(store):
    """"I'd love to live by the sea" is no new home: Leeds stays, and the wish is kept."""
    tell(store, "I live in Leeds.")
    assert tell(store, "Someday I'd love to live by the sea in Cornwall.") == ["add"]
    now = current(store)
    assert "Leeds" in now and "Cornwall" in now
    wish = [m for m in store.list(subject_type=SUBJECT[0], subject_id=SUBJECT[1],
                                  limit=10)[0] if "Cornwall" in m["content"]]
    assert wish[0]["category"] == "context"


@pytest.mark.parametrize("before,after,held", [
    ("I work at Lloyds Bank.", "My new job at Nationwide starts on Monday.", "Lloyds Bank"),
    ("I work at Lloyds Bank.", "I start at Nationwide in a fortnight.", "Lloyds Bank"),
    ("I live in York.", "We move into the new house in Leeds in two weeks.", "York"),
])
def test_a_start_or_move_to_come_replaces_nothing_yet(store, before, after, held):
    """A start or move told with its time to come is a plan: the value held stays current
    until then (as of today the job is still at Lloyds), and the plan is kept."""
    tell(store, before)
    assert tell(store, after) == ["add"], current(store)
    now = current(store)
    assert held in now and len(now.split(" | ")) == 2, now


@pytest.mark.parametrize("before,after,new", [
    ("I work at Lloyds Bank.", "I started at Nationwide on Monday.", "Nationwide"),
    ("I live in York.", "We moved into the new house in Leeds two weeks ago.", "Leeds"),
])
def test_a_start_or_move_told_done_still_replaces(store, before, after, new):
    tell(store, before)
    assert tell(store, after) == ["supersede"], current(store)
    assert new in current(store)
