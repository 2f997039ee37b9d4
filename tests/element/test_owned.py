"""A thing of the speaker's told with its owner left out (``element/agents/implicit.py``):
"The new flat in Truro has a garden", "Cycling club membership cancelled last week",
"Third cat arrived on Friday" are the speaker's own news, written with "my"; a thing of
theirs named by its name as their memories hold it ("The Clio needs a new clutch") is
theirs too; a named person's thing ("Idris's new flat is in Cardiff") is that person's
news, kept beside the speaker's own.

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: such news is stored, a new value of the speaker's replaces the old one, and a
sentence about the world, a time or someone else is left as said.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.implicit import held, others_named, owned
from element.agents.news_of import named_news
from index import MemoryStore
from tests.element.speaker import background_kept, current, tell, tell_after


@pytest.mark.parametrize("said,told", [
    ("The new flat in Truro has a garden.", "My new flat in Truro has a garden."),
    ("The new Fairphone 5 arrived on Monday.", "My new Fairphone 5 arrived on Monday."),
    ("New bike is parked outside.", "My new bike is parked outside."),
    ("The new flat overlooks the docks.", "My new flat overlooks the docks."),
    ("The new boots arrived today.", "My new boots arrived today."),
    ("Oh, new bike arrived today!", "Oh, my new bike arrived today!"),
    ("Pilates class membership cancelled last week.",
     "My pilates class membership cancelled last week."),
    ("Third cat arrived on Friday, a tabby.", "My third cat arrived on Friday, a tabby."),
    ("Open University course finally finished in May.",
     "My Open University course finally finished in May."),
    ("The job at Arup starts on Monday.", "My job at Arup starts on Monday."),
])
def test_a_thing_of_the_speakers_is_written_with_my(said: str, told: str) -> None:
    assert owned(said) == told


@pytest.mark.parametrize("said", [
    "New year in Oslo was wild.",               # a time
    "New York is great.",                       # a name
    "New Zealand was amazing.",
    "Traffic eased off by noon.",               # the world around one, one word
    "Heavy rain flooded the road.",             # the world's event, with its object
    "Tom arrived on Saturday.",                 # a name, one word
    "The weather turned cold today.",           # "the" before no "new"
    "The kids had a blast.",                    # people: whose is not said
    "The gym is great.",                        # no name: which gym is the talk's
    "Dinner went well.",                        # one word: may be a name
    "The new flat you found looks great.",      # the other person's
    "My new flat has a garden.",                # said with "my" already
    "Excited about it all.",                    # no noun
])
def test_the_world_a_time_or_someone_else_stays_as_said(said: str) -> None:
    assert owned(said) == said


@pytest.mark.parametrize("turn", [
    "Jess is moving. The new flat in Leith has a view.",    # a third person in the turn
    "Her new flat in Leith has a view.",
    "Jess's new flat in Leith has a view.",
])
def test_a_turn_about_someone_else_is_left_as_said(turn: str) -> None:
    assert others_named(turn) and owned(turn) == turn


@given(st.sampled_from(["flat in Truro", "Fairphone 5", "job at Arup", "car"]),
       st.sampled_from(["has a garden", "arrived today", "is great", "starts on Monday"]))
def test_the_new_thing_opening_a_turn_is_the_speakers(thing: str, rest: str) -> None:
    assert owned(f"The new {thing} {rest}.") == f"My new {thing} {rest}."


def test_the_names_of_what_the_speaker_has() -> None:
    memories = ["Ana drives a Renault Clio", "Ana uses a Fairphone 5", "Ana has a cat called Miso",
                "Ana lives in Truro", "Ana's sister is called Bea", "Ana has a canal boat"]
    # the names of the things had by a verb of having and using; not a person's or a pet's
    # ("has a cat called Miso"), nor what is not had ("lives in Truro")
    assert held(memories, "Ana") == {"Renault", "Clio", "Fairphone"}


@pytest.mark.parametrize("said,news", [
    ("Idris's new flat is in Cardiff", True),
    ("Idris's job at the Royal Mint starts in June", True),
    ("Idris's got a job at the Royal Mint", True),     # "'s" for "has"
    ("Idris has moved to Cardiff", True),
    ("Idris is at the Royal Mint now", True),           # where he is
    ("Idris is moving to Cardiff", False),              # no news yet
    ("Idris is in a mood", False),                      # no place named
    ("Idris's hilarious", False),               # no thing of his, no place
    ("Idris's flat is lovely", False),          # no place or thing named
])
def test_a_named_persons_thing_is_their_news(said: str, news: bool) -> None:
    assert named_news(said) is news


# -- on a real store ------------------------------------------------------------------------

@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


def test_the_new_thing_replaces_the_old_value(store: Any) -> None:
    assert "supersede" in tell_after(store, "I live in Truro.",
                                     "The new flat in Falmouth has a garden at last."), \
        current(store)
    now = current(store)
    assert "Falmouth" in now and "lives in Truro" not in now
    assert background_kept(now)


def test_a_named_persons_thing_is_kept_beside_the_speakers(store: Any) -> None:
    tell(store, "I live in Truro.")
    assert "add" in tell(store, "Idris's new flat is in Cardiff, near the bay.")
    now = current(store)
    assert "Cardiff" in now and "Truro" in now


def test_a_thing_of_the_speakers_named_alone_is_stored_beside_it(store: Any) -> None:
    tell(store, "I drive a Renault Clio.")
    assert "add" in tell(store, "The Clio needs a new clutch before the winter.")
    now = current(store)
    assert "clutch" in now and "drives a Renault Clio" in now
