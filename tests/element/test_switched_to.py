"""A change told by its verb and the name it went to ("I switched to Superdrug", "I've
moved over to Meta"), or opened by a reply ("No, ...", "Actually, ..."), replaces the one
organisation the speaker is held to be with: their employer or their provider (issue 23:
"switched" is a change word, and the job it changed was kept current beside it). With two
such held, which one is meant is not said, and another's switch is theirs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.cleaning import unmarked

from tests.element.speaker import current as contents
from tests.element.speaker import open_store, tell, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "switched")


@pytest.mark.parametrize("before,after,new,old", [
    ("I work at Boots.", "I switched to Superdrug.", "works at Superdrug", "Boots"),
    ("I work at Google.", "I switched to Meta.", "works at Meta", "Google"),
    ("I'm with Vodafone.", "I switched to EE last month.", "EE", "Vodafone"),
    ("I work at Boots.", "No, I switched to Superdrug in the summer.", "Superdrug", "Boots"),
    ("I drive a Golf.", "No, I sold it and bought a Tesla.", "Tesla", "Golf"),
])
def test_a_switch_to_a_name_replaces_the_one_held(store: Any, before: str, after: str,
                                                   new: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), contents(store)
    now = contents(store)
    assert new in now and old not in now, now
    assert "lives in" not in now


def test_a_home_read_replacing_a_job_is_told_as_the_job(store: Any) -> None:
    # "moved over to" reads as a home by its verb; the memory it replaces is the job, so
    # it is the job's new value, not "lives in Meta".
    tell(store, "I work at Google.")
    assert tell(store, "I've moved over to Meta.") == ["supersede"], contents(store)
    assert contents(store) == "Ana works at Meta"


@pytest.mark.parametrize("after", [
    "I moved to York.",                 # a home: the job stays
    "My sister switched to Aldi.",      # hers
    "I switched to decaf.",             # no organisation named
])
def test_another_switch_keeps_the_job(store: Any, after: str) -> None:
    assert "supersede" not in tell_after(store, "I work at Tesco.", after), contents(store)
    assert "works at Tesco" in contents(store)


def test_with_two_organisations_held_the_job_is_not_guessed(store: Any) -> None:
    tell(store, "I work at Tesco.")
    tell_after(store, "I bank with Barclays.", "I switched to Monzo.")
    assert "works at Tesco" in contents(store)


@pytest.mark.parametrize("said,read", [
    ("No, I switched to Superdrug", "I switched to Superdrug"),
    ("Actually, I moved to York", "I moved to York"),
    ("Nope, I'm vegan now", "I'm vegan now"),
    ("No", "No"),                       # a bare reply: nothing after it to read
    ("No way", "No way"),               # too short to be a clause of its own
    ("I said no", "I said no"),
])
def test_a_reply_marker_opens_the_clause_it_is_read_in(said: str, read: str) -> None:
    assert unmarked(said) == read
