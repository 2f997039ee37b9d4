"""What someone does for a living, told by its title or by the work itself
(``index/occupation.py``, read by ``element/agents/profile.py``), is read as the job: "I'm
a bus driver in Leicester these days" after "I work as a receptionist at a dental surgery"
replaces the job (the bank alone read it as a home or a commute), never a hobby, a
volunteer role, a second job, a past one or another person's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index import job_title, tells_job
from element.agents.profile import profiles

from tests.element.speaker import keeps, open_store, replaces


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "occupation")


@pytest.mark.parametrize("text,job", [
    ("is a bus driver in Leicester.", True),            # a title with a place
    ("a postie.", True),                                # "Ana's a postie"
    ("works as a radiographer at the county hospital.", True),
    ("is back on the wards as a staff nurse.", True),   # "as a <title>"
    ("delivers parcels for DPD.", True),                # work for an employer
    ("teaches history at St Anne's.", True),
    ("works for Deloitte in the audit team.", True),
    ("is working for a firm in Derby.", False),         # no employer named, no work
    ("is working on a project for Ericsson.", False),   # a project
    ("teaches year 4 at St Anne's.", False),            # the year taught: the bank's
    ("does the accounts for a builder's merchant.", True),
    ("runs their own cleaning business.", True),
    ("is a keen gardener.", False),                     # a taste
    ("is a nervous driver.", False),
    ("is a vegan.", False),
    ("is a member of the golf club.", False),
    ("volunteers at the charity shop.", False),         # unpaid
    ("fixes up old bikes for fun.", False),
    ("daughter works as a hairdresser in Leeds.", False),   # another person's
    ("shops at Lidl.", False),
    ("works at the Leeds office.", False),              # where, not what
])
def test_what_tells_a_job(text: str, job: bool) -> None:
    assert tells_job(text) is job


def test_the_title_is_the_noun_phrase_named() -> None:
    assert job_title("is a train guard on the line out of Manchester.") == "train guard"
    assert job_title("is a retired teacher.") is None


def test_a_job_told_by_title_or_work_reads_as_the_job(model: Any) -> None:
    read = profiles(["Sam is a postman in Derby.", "Sam drives delivery vans for Ocado.",
                     "Sam teaches maths at a secondary school.", "Sam is a keen gardener."],
                    "Sam", model)
    assert [p.attribute.name if p.attribute else None for p in read][:3] == ["job"] * 3
    assert read[3].attribute is None or read[3].attribute.name != "job"


@pytest.mark.parametrize("before,after,old,new", [
    ("I work as a receptionist at a vets.", "I'm a bus driver in Coventry these days.",
     "receptionist", "bus driver"),
    ("I'm a chef at a pub in town.", "I drive for Uber now.", "chef", "Uber"),
    ("I'm an accountant at a firm in Leeds.", "I teach history at a sixth form college.",
     "accountant", "history"),
])
def test_a_new_job_told_by_title_or_work_supersedes(store: Any, before: str, after: str,
                                                    old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I'm a plumber.", "My wife is a paramedic with the ambulance service."),     # another's
    ("I'm a teaching assistant.", "I also do shifts behind the bar at the Swan."),  # one more
    ("I'm a pharmacist.", "I was a lifeguard at the baths when I was at college."),  # past
    ("I'm a project manager at an engineering firm.", "I volunteer at the food bank."),
    ("I'm a civil servant.", "I'm a keen baker these days."),                     # a taste
])
def test_a_hobby_a_second_or_past_or_anothers_job_keeps_both(store: Any, before: str,
                                                             after: str) -> None:
    keeps(store, before, after)
