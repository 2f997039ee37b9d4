"""A present state of the speaker's own, told as now, replaces the value held
(``element/agents/present.py``): "I'm vegan these days" after "I eat a lot of red meat",
"Finally caved and got an iPhone" after "I've got a Samsung Galaxy"; never another's
fact, one more of a many-valued attribute, a stay, a past or a wish."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.inverted import inverted
from element.agents.present import present_state

from tests.element.speaker import open_store
from tests.element.speaker import replaces, keeps


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "present")


@pytest.mark.parametrize("before,after,old,new", [
    ("I've got a Samsung Galaxy.", "Finally caved and got an iPhone.", "Samsung", "iPhone"),
    ("My laptop is an old Dell.", "Picked up a MacBook Air in the sale.", "Dell", "MacBook"),
    ("I eat a lot of red meat.", "I'm vegan these days.", "red meat", "vegan"),
])
def test_a_present_state_of_the_speakers_replaces_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I'm a teacher.", "My sister is a nurse these days."),
    ("I live in Leeds.", "I'm staying with my parents at the moment."),
    ("I've got a Samsung Galaxy.", "I bought my mum an iPhone for her birthday."),
    ("I drive a Ford Focus.", "My son got a Vauxhall Corsa."),
    ("I have a cat called Miso.", "Got a puppy now!"),
    ("I've got a Samsung Galaxy.", "Work gave me an iPhone as well, so I'm juggling two phones."),
    ("I work as a paralegal.", "I'm really busy at work at the moment."),
])
def test_anothers_fact_a_stay_or_one_more_keeps_both(store: Any, before: str,
                                                     after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("sentence,kind", [
    ("I'm a health visitor these days", "now"),
    ("I've been at Aviva since March", "now"),
    ("Finally caved and got an iPhone", "acquired"),
    ("I used to be a nurse, these days I'm retired", None),      # a past
    ("I'd love to live in Bath one day", None),                   # a wish
    ("I'm not at KPMG these days", None),                         # a negation
    ("I'm in Paris right now", None),                             # a moment
    ("I also got a Kindle", None),                                # one more
    ("My sister is a nurse these days", None),                    # another's
])
def test_what_tells_a_present_state(sentence: str, kind: str | None) -> None:
    assert present_state(sentence) == kind


def test_the_time_told_first_is_read_after_the_statement() -> None:
    assert inverted("These days I'm at KPMG, Deloitte were never going to promote me.") == \
        "I'm at KPMG these days, Deloitte were never going to promote me."
    assert inverted("Nowadays, we rent in Hove.") == "We rent in Hove nowadays."
    # a cleft with no verb: being there is living there
    assert inverted("York's where we are now.") == "We live in York now."
    assert inverted("York is where we are going.") == "York is where we are going."
    assert inverted("These days the kids are big.") == "These days the kids are big."
