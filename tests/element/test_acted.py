"""element/agents/acted.py: who an ending is done by, and to what. A value named before a
verb of ending with an object after it is its agent ("Barclays closed our local branch");
a third party's own leaving of the speaker's thing ends it for them only ("Tom quit the
choir"); "left" after a count is what remains ("the only tenor left"). The finders of an
ending by name (``named.py``, ``bygone.py``) leave the memory alone, and still end it when
the value is what ended (issue 23: a control keeps both facts).

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.acted import acts_on, left_by_another, remaining
from element.agents.cues import signals
from element.agents.named import ended_target

from tests.element.speaker import background_kept, ends, open_store, tell_after
from tests.element.speaker import current as contents


@pytest.mark.parametrize("sentence,at,agent", [
    ("Nationwide closed our branch on Queen Street", 1, True),
    ("Aldi shut all its smaller stores", 1, True),
    ("the branch on Queen Street was closed", 5, False),
    ("Priya has retired", 2, False),
    ("the quiz league folded in May", 3, False),
    # a going to a next keeper: its object is the keeper, not what ended
    ("Pickle went to live with my aunt", 1, False),
])
def test_a_value_before_a_verb_with_an_object_is_its_agent(sentence: str, at: int,
                                                           agent: bool) -> None:
    assert acts_on(sentence.split(), at, at + 1) is agent


@pytest.mark.parametrize("clause,value,theirs", [
    ("Dev quit the allotment society", {"allotment", "societi"}, True),
    ("the canteen ran out of flapjacks", {"flapjack"}, True),
    ("I quit the allotment society", {"allotment"}, False),
    ("Priya left the salon", {"priya"}, False),
    ("Priya left last month", {"salon"}, False),
])
def test_a_third_partys_own_leaving_is_theirs(clause: str, value: set[str],
                                              theirs: bool) -> None:
    assert left_by_another(clause, value) is theirs


def test_left_after_a_count_is_what_remains() -> None:
    assert remaining("I'm the only alto left") == "I'm the only alto remaining"
    assert remaining("there are three days left") == "there are three days remaining"
    assert remaining("I left the choir") == "I left the choir"
    assert remaining("only Jo left for Leeds") == "only Jo left for Leeds"


def test_the_agent_of_an_ending_is_not_what_ended() -> None:
    assert signals("Nationwide closed our branch, so I use the app now.").ended == ()
    assert signals("Priya retired, so I go to Sam now.").ended == ("Priya",)
    memory = {"id": "m1", "content": "Ana sings alto in the Grange choir."}
    assert ended_target("Dev quit the Grange choir", [memory], "Ana") is None
    assert ended_target("I'm the only alto left", [memory], "Ana") is None
    assert ended_target("I quit the Grange choir", [memory], "Ana") is memory


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "acted")


@pytest.mark.parametrize("before,after,held", [
    ("I sing alto in the Grange choir.", "Dev quit the choir, so I'm the only alto left.",
     "alto"),
    ("I bank with Nationwide.", "Nationwide closed our branch on Queen Street, so I use "
     "the app now.", "banks with Nationwide"),
])
def test_anothers_ending_keeps_the_speakers_fact(store: Any, before: str, after: str,
                                                 held: str) -> None:
    decided = tell_after(store, before, after)
    now = contents(store)
    assert "supersede" not in decided, now
    assert held in now and background_kept(now), now


def test_the_value_ended_by_another_still_ends(store: Any) -> None:
    ends(store, "I swim at the Westgate baths.", "The council shut the Westgate baths, so "
         "I swim at the lido now.", "swims at the Westgate baths")
