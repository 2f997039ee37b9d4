"""A newer value of a person or an animal of the speaker's, read as that one's own statement
(``element/agents/theirs.py``): "My husband is a driving instructor now" after "my husband
works as a postman", "we moved Mum into a care home in Ripon" after "my mum lives in
Harrogate"; never a fact of another person than the memory's (a sister against a brother,
a second child), nor a stay ("my son is at school now")."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.theirs import revoiced

from tests.element.speaker import background_kept, open_store, tell_after
from tests.element.speaker import current as contents


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "theirs")


@pytest.mark.parametrize("clause,holder,said", [
    ("My husband is a driving instructor now.", "husband", "I am a driving instructor now."),
    ("my husband Ravi is a postman", "husband ravi", "I am a postman"),
    ("he's a driving instructor these days", "ravi", "I'm a driving instructor these days"),
    ("Callum's in Glasgow these days", "callum", "I'm in Glasgow these days"),
    ("Mum's got a new Fiat", "mother", "I've got a new Fiat"),
    ("My son goes to Ashgrove now", "son", "I go to Ashgrove now"),
    ("Ravi's car is a Tesla now", "ravi", "my car is a Tesla now"),
    ("We moved Mum into a care home in Ripon", "mother", "they moved me into a care home in Ripon"),
    ("The vet has put Mabel on a kidney diet", "mabel", "The vet has put me on a kidney diet"),
    # not the holder's: another person, the speaker
    ("My sister lives in Cardiff", "brother", None),
    ("I live in Leeds", "mother", None),
])
def test_a_clause_is_said_again_by_its_holder(clause: str, holder: str,
                                              said: str | None) -> None:
    assert revoiced(clause, holder) == said


@given(st.text(alphabet="abcdefghij ", min_size=1, max_size=40))
def test_a_clause_of_the_speakers_is_nobody_elses(rest: str) -> None:
    assert revoiced("I " + rest, "sister") is None


@pytest.mark.parametrize("before,after,old,new", [
    ("My husband works as a postman.", "My husband is a driving instructor now.",
     "postman", "driving instructor"),
    ("My mum lives in Harrogate.", "We moved Mum into a care home in Ripon last month.",
     "Harrogate", "Ripon"),
    ("Our dog Bramble is registered with the vet on Church Road.",
     "We've switched Bramble over to Parkside Vets since the Church Road practice shut.",
     "vet on Church Road", "Parkside"),
])
def test_a_new_value_of_a_person_of_the_speakers_replaces_theirs(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), contents(store)
    current = contents(store)
    assert new in current and old not in current
    assert background_kept(current)


@pytest.mark.parametrize("before,after", [
    ("My brother lives in Bristol.", "My sister has just moved to Cardiff."),
    ("My daughter goes to St Anne's Primary.", "Our son Alfie started at Little Acorns nursery."),
    ("I work at the Leeds office.", "My husband moved to the Bradford office this year."),
    ("My son goes to Brookfield Primary.", "My son is at school now."),
])
def test_another_persons_fact_or_a_stay_keeps_both(store: Any, before: str, after: str) -> None:
    assert "supersede" not in tell_after(store, before, after), contents(store)


def test_the_speaker_told_with_others_is_the_speaker(store: Any) -> None:
    assert "supersede" in tell_after(store, "I live in Leith.",
                                     "The kids and I are in Portobello now."), contents(store)
    assert "Leith" not in contents(store)
