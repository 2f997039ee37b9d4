"""element/agents/passing.py, with the stays (``stays.py``) and one-off pauses (``paused.py``)
read beside it: a statement that gives no lasting value supersedes nothing.

A break taken from a thing, a request made of the speaker, a thing got only for a purpose,
a period spent somewhere and one occasion of a habit called off were each read as a new
value of the memory closest to them: "Tom and I are taking a break from the allotment this
year" superseded "is married to Tom" (issue 23: controls must keep both facts; a wrong
supersede takes a true fact out of recall). The real changes told in the same words still
supersede. The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.passing import passing
from element.agents.paused import paused
from element.agents.stays import bounded

from tests.element.speaker import ends, keeps, open_store, replaces


@pytest.mark.parametrize("said,passes", [
    ("Tom and I are taking a break from the allotment this year", True),
    ("Having a little break from choir till after Christmas", True),
    ("We've had a year off from the caravan", True),
    ("I've been asked to mentor the new trainee teachers this year", True),
    ("They asked me to cover the children's ward next week", True),
    ("Opened a Monzo account just for holiday spending", True),
    ("Picked up a cheap Chromebook purely for the kids' homework", True),
    ("Had a glass of wine for once", True),
    # the break beside a present value, a request taken up, a break for good: changes
    ("I took a break from teaching and now I run a little bakery", False),
    ("They asked me to head up the Manchester office and I said yes", False),
    ("I've taken a break from the choir for good", False),
    ("I switched my current account to Monzo", False),
    ("I work at Tesco just for now", False),
    ("I went with Aviva this time", False),
    ("I work Saturdays now", False),
])
def test_what_gives_no_lasting_value(said: str, passes: bool) -> None:
    assert passing(said) is passes


@pytest.mark.parametrize("clause,pause", [
    ("Zumba was cancelled this week so I went for a swim", True),
    ("five-a-side got rained off last night", True),
    ("the choir is off tonight", True),
    ("Zumba has been cancelled for good", False),
    ("I cancelled my gym membership this week", False),
    ("my contract was cancelled today", False),
    ("the class was cancelled", False),
])
def test_one_occasion_called_off_is_a_pause(clause: str, pause: bool) -> None:
    assert paused(clause) is pause


@pytest.mark.parametrize("said,stay", [
    ("We're spending a month in Lisbon this winter", True),
    ("I spent the summer at my gran's in Skye", True),
    ("Spent six months in Lisbon and loved it so much we moved there for good", False),
    ("I spend my weekends at the allotment", False),
])
def test_a_period_spent_is_a_stay(said: str, stay: bool) -> None:
    assert bounded(said) is stay


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "passing")


@pytest.mark.parametrize("before,after", [
    ("I'm married to Tom.", "Tom and I are taking a break from the allotment this year."),
    ("I'm a teacher.", "I've been asked to mentor the new trainee teachers this year."),
    ("I bank with Nationwide.", "Opened a Monzo account just for holiday spending."),
    ("I live in Norwich.", "We're spending a month in Lisbon this winter."),
    ("I go to Zumba on Mondays.", "Zumba was cancelled this week so I went for a swim."),
    ("I drink oat milk.", "Had regular milk in my tea for once, the café had run out."),
])
def test_no_lasting_value_supersedes_nothing(store: Any, before: str, after: str) -> None:
    keeps(store, before, after)


def test_a_membership_cancelled_this_week_still_ends(store: Any) -> None:
    ends(store, "I go to the gym at PureGym.",
         "I cancelled my PureGym membership this week, too expensive.",
         "goes to the gym at PureGym")


def test_a_stay_that_became_a_move_still_moves(store: Any) -> None:
    replaces(store, "I live in Leeds.",
             "Spent six months in Lisbon last year and loved it so much we moved there for "
             "good.", "Leeds", "Lisbon")
