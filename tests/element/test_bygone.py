"""element/agents/bygone.py: a later sentence that names the thing of one of the speaker's
one-fact memories and, in the same clause, tells it as over (ended, passed out of the
speaker's hands, done for the last time) ends that memory; a pause, another person's
ending, a plan, a question and an ending of another thing keep it. The grammar alone, then
on both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from element.agents.bygone import bygone_target, markers
from tests.element.speaker import current, ends, open_store, tell_after

WHO = "Ana"


def _memories(*contents: str) -> list[dict[str, Any]]:
    return [{"id": f"m{i}", "content": c} for i, c in enumerate(contents)]


#: Ana's memories the sentences below are read against: several things of hers.
HELD = _memories("Ana keeps a caravan at Sandy Bay.", "Ana sings with the Larkhill Singers.",
                 "Ana volunteers at the food bank on Saturdays.",
                 "Ana works at the Brackley bakery.", "Ana has a greenhouse full of chillies.")


@pytest.mark.parametrize("said,meant", [
    ("A retired teacher from Kendal bought the caravan off me in August.", "caravan"),
    ("I handed back the greenhouse keys when we moved the plants out.", "greenhouse"),
    ("I handed back the keys to the greenhouse in May.", "greenhouse"),
    ("The Larkhill Singers gave their farewell concert in June.", "Larkhill"),
    ("Brackley made half the bakers redundant in the spring, me included.", "Brackley"),
    ("The food bank lost its hall, so that was my final Saturday there.", "food bank"),
])
def test_a_thing_named_and_told_as_over_is_the_memory_meant(said: str, meant: str) -> None:
    found = bygone_target(said, HELD, WHO)
    assert found is not None and meant in found["content"], found


@pytest.mark.parametrize("said", [
    # A pause, not an ending.
    "The caravan site is shut until Easter for the new drains.",
    # Another person's ending.
    "My sister sold her caravan in August.",
    # A plan, a question, one more.
    "I might sell the caravan next year.",
    "Should I give back the greenhouse keys?",
    # The marker and the thing in two clauses of their own.
    "I lost my phone at the bakery where I work on Brackley Road.",
    # Where or to whom the marker went, not what ended.
    "We lost to Larkhill Singers in the choir competition.",
    # An ending of another thing, nothing of hers named.
    "I cancelled my Netflix subscription last week.",
    # The thing going on.
    "We had a lovely weekend at the caravan in Sandy Bay.",
])
def test_a_pause_anothers_ending_a_plan_or_another_thing_ends_nothing(said: str) -> None:
    assert bygone_target(said, HELD, WHO) is None


def test_an_answer_naming_nothing_ends_what_the_question_named() -> None:
    memories = _memories("Ana is on the school governors' board.", *(m["content"] for m in HELD))
    found = bygone_target("Stepped down in the summer.", memories, WHO,
                          asked="Are you still on the governors' board?")
    assert found is not None and "governors" in found["content"]
    assert bygone_target("Stepped down in the summer.", memories, WHO) is None


def test_a_name_inside_a_memory_is_no_ending_of_it() -> None:
    """A band called "The Loose Ends" names no ending: its memory may still be ended."""
    memories = _memories("Ana plays drums in a band called The Dead Ends.")
    assert not markers("Ana plays drums in a band called The Dead Ends")
    found = bygone_target("The Dead Ends played their farewell gig last month.", memories, WHO)
    assert found is not None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["I might", "Will I", "I'm going to", "Should I"]),
       st.sampled_from(["sell the caravan", "hand back the greenhouse keys",
                        "leave the Larkhill Singers"]))
def test_a_plan_or_a_question_never_ends_a_memory(opening: str, rest: str) -> None:
    said = f"{opening} {rest}" + ("?" if opening in ("Will I", "Should I") else ".")
    assert bygone_target(said, HELD, WHO) is None


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "bygone")


@pytest.mark.parametrize("before,after,old", [
    ("I keep a caravan at Sandy Bay.", "A retired teacher from Kendal bought the caravan "
     "off me in August.", "keeps a caravan"),
    ("I sing with the Larkhill Singers.", "The Larkhill Singers gave their farewell concert "
     "in June and we all went our separate ways.", "sings with the Larkhill"),
])
def test_a_thing_told_as_over_supersedes_its_memory(store: Any, before: str, after: str,
                                                    old: str) -> None:
    ends(store, before, after, old)


@pytest.mark.parametrize("before,after", [
    ("I keep a caravan at Sandy Bay.", "The site took the caravan off me for the winter "
     "while they relay the pitches."),
    ("I sing with the Larkhill Singers.", "My sister left her choir in June."),
])
def test_a_pause_or_anothers_ending_keeps_the_memory(store: Any, before: str,
                                                     after: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)


def test_an_answer_pointing_at_what_was_asked_ends_it() -> None:
    memories = _memories("Ana is on the school governors' board.", *(m["content"] for m in HELD))
    found = bygone_target("I stepped down from it at the end of the summer term, it was "
                          "taking up every evening.", memories, WHO,
                          asked="Are you still on the governors' board these days?")
    assert found is not None and "governors" in found["content"]
    # A question that does not ask whether it still holds names nothing ended.
    assert bygone_target("I stepped down from it at the end of the summer term.", memories,
                         WHO, asked="How did the governors' board meeting go?") is None


@pytest.mark.parametrize("said", [
    # Words inside others' are no names of them: "last" in "blast", "home" of "home country".
    "I graduated last week!",
    "We have known each other since I moved from my home country.",
])
def test_a_word_inside_another_or_a_time_names_nothing(said: str) -> None:
    memories = _memories("We have a blast together on Fridays.", "Ana wants a loving home for "
                         "kids one day.", "Ana has been busy with a project for veterans.")
    assert bygone_target(said, memories, WHO) is None
