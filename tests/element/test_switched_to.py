"""A change told by its verb and the name it went to ("I switched to EE"), or opened by a
reply ("No, ...", "Actually, ..."), replaces the one provider the speaker is held to be
with, "I'm with Vodafone" too (issue 23: "switched" is a change word, and the provider it
changed was kept current beside it). With two held, which one is meant is not said; a
job is not a provider ("I switched to Octopus" is as likely energy); another's switch is
theirs. A home read replacing a job ("I've moved over to Meta") is told as the job."""

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
    ("I'm with Vodafone.", "I switched to EE last month.", "EE", "Vodafone"),
    ("I'm with Vodafone.", "No, I switched to EE in the summer.", "EE", "Vodafone"),
    ("I work at Boots.", "Actually, I'm at Superdrug now.", "Superdrug", "Boots"),
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
    "I switched to Octopus.",           # a supplier as likely as a job
    "My sister switched to Aldi.",      # hers
    "I switched to decaf.",             # no organisation named
])
def test_another_switch_keeps_the_job(store: Any, after: str) -> None:
    assert "supersede" not in tell_after(store, "I work at Tesco.", after), contents(store)
    assert "works at Tesco" in contents(store)


def test_with_two_providers_held_neither_is_guessed(store: Any) -> None:
    tell(store, "I bank with Barclays.")
    tell_after(store, "I'm with Vodafone.", "I switched to Octopus.")
    now = contents(store)
    assert "Barclays" in now and "Vodafone" in now, now


@pytest.mark.parametrize("said,read", [
    ("No, I switched to Superdrug", "I switched to Superdrug"),
    ("Actually, I moved to York", "I moved to York"),
    ("Nope, I'm vegan now", "I'm vegan now"),
    ("No", "No"),                       # a bare reply: nothing after it to read
    ("No way", "No way"),               # too short to be a clause of its own
    ("No more coffee for me", "No more coffee for me"),     # no marker: not set off
    ("I said no", "I said no"),
])
def test_a_reply_marker_opens_the_clause_it_is_read_in(said: str, read: str) -> None:
    assert unmarked(said) == read
