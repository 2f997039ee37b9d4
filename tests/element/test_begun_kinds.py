"""A change told as the event that made it, read by what the event's grammar says of its
thing (``element/agents/begun.py``): a thing got for oneself ("Got myself a Pixel 8"), a
job begun by its noun ("took a post at", "landed a role at": where one works), being taken
on in the passive ("got taken on as a paralegal"); and a thing bought beside the one held
(a watch, earbuds, a games console) read faintly by the bank, which replaces nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from element.agents.milestones import milestone
from element.agents.begun import begun_result, results
from element.agents.result_target import POSSESSION_MIN, _possession

from tests.element.speaker import keeps, open_store, replaces


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "begun_kinds")


@pytest.mark.parametrize("clause,result", [
    # A thing got for oneself or the household: the benefactive between verb and thing.
    ("Got myself a Google Pixel 8 for my birthday in June", "Ann has a Google Pixel 8"),
    ("Got us a Kia Sportage in March", "Ann has a Kia Sportage"),
    ("I bought myself a MacBook Air in the January sales", "Ann has a MacBook Air"),
    # Another person given the thing: theirs.
    ("Got my son a Nintendo Switch for Christmas", None),
    # A job begun, told by its noun: where one works; a course: where one studies.
    ("Took a post at Whittington Hospital in March", "Ann works at Whittington Hospital"),
    ("Landed a role at KPMG in the spring", "Ann works at KPMG"),
    ("Started a new job at Lidl in May", "Ann works at Lidl"),
    ("Accepted a position with Morrisons in April", "Ann works at Morrisons"),
    ("Started a new course at Leeds College in September", "Ann studies at Leeds College"),
    # A job's place is where one works, named or not; a job beside it is none.
    ("Took a day job at the council", "Ann works at the council"),
    ("Took a weekend job at the pub", None),
    ("Started a new job at the hospital in May", "Ann works at the hospital"),
    ("I started a job hunt", None),
    ("Got a teaching job at St Luke's and started in September", "Ann works at St Luke's"),
    ("Took a teaching post at Leeds Grammar", "Ann works at Leeds Grammar"),
    ("Got a weekend job at the Odeon", None),
    ("Landed a summer job at Butlins", None),
    ("I took a hard look at the job", None),
    # No job noun: the beginning in its own words, a school's as often as a firm's.
    ("I started at Deloitte on Monday", "Ann started at Deloitte"),
    # Taken on, in the passive: a job.
    ("Got taken on as a paralegal at Irwin Mitchell in June",
     "Ann works as a paralegal at Irwin Mitchell"),
    ("I was hired as a shift lead at the Co-op", "Ann works as a shift lead at the Co-op"),
    # An upgrade, a lease: a thing held in place of the one before; the keys to a thing
    # that is no dwelling: had, not lived in.
    ("Upgraded my phone to a Pixel 8 last week", "Ann has a Pixel 8"),
    ("Leased a Tesla Model Y in March", "Ann has a Tesla Model Y"),
    ("Got the keys to my new Golf on Friday", "Ann has a Golf"),
    ("Got the keys to a two-bed in Leyton", "Ann lives in a two-bed in Leyton"),
    ("Took on the lease of a flat in Leith in May", "Ann lives in a flat in Leith"),
    ("Upgraded to first class on the way back", None),
    ("Took on the lease of a shop in Headingley in March", None),
    ("Leased a little workshop in Ancoats for the business", None),
    # A couple made: the person, not where.
    ("Married Oliver at the registry office in Leeds last month", "Ann is married to Oliver"),
    ("Got engaged to Dominic over Christmas", "Ann is engaged to Dominic"),
    ("We married in 2010", None),
    # A place on a course or at a university: studied, not lived in.
    ("Got a place at Durham to do a master's", "Ann studies at Durham"),
])
def test_what_the_events_grammar_leaves(clause: str, result: str | None) -> None:
    assert begun_result(clause, "Ann") == result


def test_a_second_job_or_a_hire_leaves_no_state() -> None:
    assert results("Started a Saturday job at the Odeon in March.", "Ann") == []
    assert results("Hired myself a Transit van on Saturday.", "Ann") == []


def test_a_possession_reads_clearly_as_one_kind() -> None:
    assert _possession(np.array([POSSESSION_MIN + 0.1, 0.3, 0.2], dtype=np.float32))
    # Faint, or near two kinds at once (a phone and a computer): a thing beside them.
    assert not _possession(np.array([POSSESSION_MIN - 0.01, 0.2], dtype=np.float32))
    assert not _possession(np.array([0.40, 0.39, 0.2], dtype=np.float32))
    assert _possession(np.array([0.36, 0.26, 0.2], dtype=np.float32))
    # A many-valued attribute near it (a Kia Sportage read as a sport) is no other thing held.
    single = np.array([True, False, True])
    assert _possession(np.array([0.47, 0.42, 0.27], dtype=np.float32), single)
    assert not _possession(np.array([0.47, 0.42, 0.27], dtype=np.float32))


@pytest.mark.parametrize("before,after,old,new", [
    ("I use an iPhone 11.", "Got myself a Google Pixel 8 for my birthday in June.",
     "iPhone", "Pixel"),
    ("I work as a nurse at the Royal Free.", "Took a post at Whittington Hospital in March.",
     "Royal Free", "Whittington"),
    ("I work as a cashier at Tesco.", "Took a day job at the council.", "Tesco", "council"),
    ("I use an iPhone 12.", "Upgraded to a Galaxy S24 in March.", "iPhone", "Galaxy"),
    ("My boyfriend is called Ben.", "Married Oliver at the registry office in Leeds last month.",
     "Ben", "Oliver"),
    ("I'm studying at Leeds Beckett.",
     "Got a place at Durham to do a master's, started in October.", "Beckett", "Durham"),
])
def test_a_thing_got_or_a_job_taken_replaces_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I use an iPhone 13.", "Bought myself a pair of AirPods in the sales."),
    ("I drive a Volvo XC60.", "Got myself a Brompton folding bike for the commute in May."),
    ("I work for Deloitte.", "Took a weekend role at the Red Cross shop in June."),
    ("I use a Dell laptop.", "Got myself a PlayStation 5 for Christmas."),
    ("I work at the council.", "Started a placement at the hospital as part of my degree."),
    ("I live in Leeds.", "Took on the lease of a shop in Headingley in March."),
])
def test_a_thing_beside_the_one_held_or_a_second_role_keeps_both(
        store: Any, before: str, after: str) -> None:
    keeps(store, before, after)


def test_a_job_taken_is_news_however_few_its_words() -> None:
    assert milestone("I took a day job at the council")
    assert milestone("I accepted a new job at the hospital")
    assert not milestone("I took the bus to work")


@pytest.mark.parametrize("sentence,result", [
    # The dropped subject of a clause is the nearest one said before it.
    ("The Ka failed its MOT badly, so last Saturday we went to the dealer in Bury and drove "
     "away in a Honda Jazz.", ["Ann drives a Honda Jazz"]),
    ("My brother sold his Golf and bought a Tesla.", []),
    ("My brother sold his Golf, so we went to the dealer and he bought a Tesla.", []),
    # An opening phrase of time or circumstance, the speaker the subject after it.
    ("After six interviews I finally landed a role at Arup, and the commute is a nightmare.",
     ["Ann works at Arup"]),
])
def test_whose_a_clause_in_a_story_is(sentence: str, result: list[str]) -> None:
    assert results(sentence, "Ann") == result
