"""element/agents/lasted.py: a span counted up to now ("for forty years now") tells how
long a state has held. Its "now" is no cue of change, and its number is no age: "Dad's
been on the same allotment for forty years now" superseded "my dad is 64", "We've had
Bramble for a year now" superseded "our dog Bramble is two" (issue 23: controls must keep
both facts). A change told with a span still supersedes. The sentences are written for
these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.lasted import no_age, span_days, unlasted

from tests.element.speaker import keeps, open_store, replaces


@pytest.mark.parametrize("said,bare", [
    ("Dad's been on the same allotment for forty years now.",
     "Dad's been on the same allotment for forty years."),
    ("We've had Bramble for a year now, best decision ever.",
     "We've had Bramble for a year, best decision ever."),
    ("We've been married twenty years now", "We've been married twenty years"),
    ("I've been vegan for ages now", "I've been vegan for ages"),
    ("I live in Leeds now", "I live in Leeds now"),                 # the present: kept
    ("It's been 3 months now that I work here", "It's been 3 months now that I work here"),
])
def test_the_now_closing_a_span_is_no_present(said: str, bare: str) -> None:
    assert unlasted(said) == bare


@pytest.mark.parametrize("said,days", [
    ("Dad's been on the same allotment for forty years now", 40 * 365),
    ("I've had the Jazz for ten years and it's never let me down", 10 * 365),
    ("I've been vegan for about a fortnight now", 14),
    ("I've been knitting for ages", 730),
    ("I went to Spain for two weeks", None),          # a past stay, not up to now
    ("I live in Leeds now", None),
])
def test_how_long_a_span_counted_up_to_now_lasts(said: str, days: int | None) -> None:
    assert span_days(said) == days


@pytest.mark.parametrize("content,spared", [
    ("Ana's dad is 64", True), ("Ana is 45 years old", True),
    ("Ana has a 2-year-old son", True), ("Ana lives in Bath", False),
])
def test_a_span_leaves_an_age_true(content: str, spared: bool) -> None:
    memory = {"id": "m", "content": content}
    assert no_age("I've been running for 20 years now", memory) is spared
    assert no_age("I went running on Sunday", memory) is False


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "lasted")


@pytest.mark.parametrize("before,after", [
    ("My dad is 64.", "Dad's been on the same allotment for forty years now."),
    ("Our dog Bramble is two.", "We've had Bramble for a year now, best decision ever."),
    ("I'm 45.", "I've been running for 20 years now, ever since my first 10k."),
    ("I drive a Honda Jazz.", "I've had the Jazz for ten years now and it's never let me down."),
])
def test_a_span_counted_up_to_now_supersedes_nothing(store: Any, before: str,
                                                     after: str) -> None:
    keeps(store, before, after)


def test_a_change_told_with_a_span_still_supersedes(store: Any) -> None:
    replaces(store, "I work at Amazon.", "I switched to Google, been there two weeks now.",
             "Amazon", "Google")
