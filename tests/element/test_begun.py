"""A change told as the event that made it replaces the value held
(``element/agents/begun.py``): "Joined the Anytime Fitness last week" after "I'm a member of
PureGym" is who one's gym is; a visit, a hire, a meal, another person's event, a plan or
one more of a kind leaves the old value current."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.begun import begun_result, results

from tests.element.speaker import open_store
from tests.element.speaker import replaces, keeps


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "begun")


@pytest.mark.parametrize("before,after,old,new", [
    ("I work at Tesco head office.",
     "Had my first day at Sainsbury's on Monday, the induction was three hours of fire safety.",
     "Tesco", "Sainsbury"),
    ("I bank with NatWest.", "Opened an account with Monzo last month and moved my salary over.",
     "NatWest", "Monzo"),
    ("I drive a Vauxhall Astra.", "Collected my Kia Picanto from the garage on Tuesday.",
     "Astra", "Picanto"),
])
def test_an_event_that_leaves_a_state_replaces_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I live in Bristol.", "Spent a long weekend in Lisbon with my sister, we got back on Sunday."),
    ("I drive a Toyota Yaris.", "Hired a Transit van on Saturday to help a friend shift a sofa."),
    ("I work at Barclays.", "My husband started at HSBC on Monday, his first new job in years."),
    ("I work at Barclays.", "I'm going to start at HSBC in the spring."),
    ("I've got a Samsung Galaxy.", "I bought my mum an iPhone for her birthday."),
    ("I have a spaniel called Rufus.", "We brought home a rescue greyhound called Pepper."),
])
def test_a_visit_a_hire_anothers_event_or_a_plan_keeps_both(store: Any, before: str,
                                                            after: str) -> None:
    keeps(store, before, after)


@pytest.mark.parametrize("clause,result", [
    ("Had my first day at Sainsbury's on Monday", "Ann started at Sainsbury's"),
    ("I started at Deloitte on Monday after three years at PwC", "Ann started at Deloitte"),
    ("Joined the Anytime Fitness on Station Road last week",
     "Ann is a member of the Anytime Fitness on Station Road"),
    ("I registered with the Riverside Practice in the summer",
     "Ann is registered with the Riverside Practice"),
    ("Collected my Kia Picanto from the garage", "Ann has a Kia Picanto"),
    ("We got the keys to a terraced house in Ripon last Thursday",
     "Ann lives in a terraced house in Ripon"),
    ("the school took me on as a Year 4 class teacher for the new term",
     "Ann is a Year 4 class teacher"),
    ("Ported my number to Giffgaff last week", "Ann is with Giffgaff"),
    # No state left, or not the speaker's present.
    ("Spent a long weekend in Lisbon", None),
    ("Hired a Transit van on Saturday", None),
    ("I had lunch at Nando's with Sam", None),
    ("My husband started at HSBC on Monday", None),
    ("I'm going to join the Labour party next year", None),
    ("We bought a second car, a Toyota Aygo", None),
    ("I didn't get the job at Aviva", None),
    ("I used to work at Tesco before I started at Aldi", None),
    ("I started in March", None),
    ("I bought my mum an iPhone for her birthday", None),
])
def test_the_state_an_event_leaves(clause: str, result: str | None) -> None:
    assert begun_result(clause, "Ann") == result


def test_a_story_is_read_clause_by_clause() -> None:
    story = ("It took four interviews and a very awkward lesson observation, but I began at "
             "Castle Grove Academy after half term, teaching maths to Year 9s.")
    assert results(story, "Ann") == ["Ann began at Castle Grove Academy"]


@given(st.sampled_from(["I'm going to", "I might", "I'd love to", "I used to"]),
       st.sampled_from(["join Lloyds", "start at Lloyds", "buy a Tesla", "sign up with Lloyds"]))
def test_a_plan_a_wish_or_a_past_habit_leaves_no_state(modal: str, act: str) -> None:
    assert begun_result(f"{modal} {act}", "Ann") is None


@pytest.mark.parametrize("sentence,result", [
    # An event set under another clause, its state holding since.
    ("My forearms ache since I joined the Castle climbing centre, but the coffee is great.",
     ["Ann is a member of the Castle climbing centre"]),
    ("Got into Exeter! Freshers' week was wild.", ["Ann studies at Exeter"]),
    # "make" as "become", a bare role after it.
    ("Made partner!!! Eight years of billable hours finally paid off.", ["Ann is partner"]),
    ("Made dinner for the whole street last night.", []),
    ("Monday was my first shift at the Co-op, my feet are killing me.",
     ["Ann started working at the Co-op"]),
    # A shift is worked, a term studied; a day may be either.
    ("Finished my first term at Exeter, loving it.", ["Ann started studying at Exeter"]),
    ("Monday was my first day at Sainsbury's.", ["Ann started at Sainsbury's"]),
    # The event told as the subject: its thing ends at the verb after it.
    ("My first shift at the Waitrose deli was on Thursday.",
     ["Ann started working at the Waitrose deli"]),
    ("My first week on the wards at Guy's went better than I feared.",
     ["Ann started on the wards at Guy's"]),
    ("Bought a Kia Niro that was ex-demo.", ["Ann has a Kia Niro"]),
    ("After starting at Deloitte I barely see the kids.", ["Ann started at Deloitte"]),
    ("Landed a job at Arup last month!", ["Ann works at Arup"]),
    ("I started seeing Tom in June.", ["Ann is dating Tom"]),
    ("Took over as head of maths in September.", ["Ann is head of maths"]),
    ("I got to Leeds at six.", []),
    ("Got into trouble at work.", []),
    ("Picked up my sister from Heathrow.", []),
])
def test_what_an_event_leaves_in_a_sentence(sentence: str, result: list[str]) -> None:
    assert results(sentence, "Ann") == result


@pytest.mark.parametrize("sentence,result", [
    # A home come into.
    ("We completed on a little cottage in Whitstable last Friday and the van came on Saturday.",
     ["Ann lives in a little cottage in Whitstable"]),
    ("We exchanged on the house in Bath on Friday.", ["Ann lives in the house in Bath"]),
    ("Moved into my flat in Leith in March.", ["Ann lives in a flat in Leith"]),
    # A club signed for.
    ("Signed for Ashford Town last week.", ["Ann plays for Ashford Town"]),
    # A contract signed with a provider; a first lecture, its owner unsaid.
    ("Signed the contract with Aviva this morning.", ["Ann is with Aviva"]),
    ("My sister signed a contract with Aviva.", []),
    ("First lecture at Sheffield Hallam this morning, what a campus.",
     ["Ann started studying at Sheffield Hallam"]),
    ("Her first lecture at Keele went well.", []),
    # A job got, told by its role; an offer taken.
    ("I got the team leader job.", ["Ann works as a team leader"]),
    ("Got offered the deputy manager job at the store and said yes on the spot.",
     ["Ann works as a deputy manager"]),
    ("Landed the new assistant head role at last!", ["Ann works as an assistant head"]),
    # The thing told first, the speaker's event after it.
    ("The hybrid Toyota Yaris we picked up on Saturday does twice the miles to the gallon.",
     ["Ann has the hybrid Toyota Yaris"]),
    # An arrival with the right to stay is a move.
    ("Finally got my visa approved and we flew into Vancouver in May.",
     ["Ann lives in Vancouver"]),
    # No state left: an offer not taken, a job applied for or not got, another's event, a
    # trip, a hire, a test drive.
    ("I was offered the manager job at Argos but turned it down.", []),
    ("I applied for the team leader job at Argos.", []),
    ("I didn't get the team leader job.", []),
    ("My sister got the head of year job at her school.", []),
    ("Got my visa for the conference and flew into Boston on Monday.", []),
    ("My brother got his visa and flew into Sydney last week.", []),
    ("The villa in Crete we rented for the week had a pool.", []),
    ("Took a Tesla Model 3 for a test drive at the weekend.", []),
    ("Had an interview for a practice manager role in Taunton on Wednesday.", []),
    ("Got the keys to the new flat.", []),
    ("Got the keys to my mum's new flat in Harrogate so I can water her plants.", []),
    ("The Volvo estate we bought for my daughter is already full of her stuff.", []),
    ("We completed on a holiday cottage in Cornwall last month.", []),
    # A home bought is lived in; a role joined as is worked; a job offer taken.
    ("We bought a three-bed semi in Chorlton in April.",
     ["Ann lives in a three-bed semi in Chorlton"]),
    ("Handed in my notice at Boots and joined Superdrug as an assistant manager.",
     ["Ann works as an assistant manager at Superdrug"]),
    ("I accepted an offer from Deloitte and started there in September.",
     ["Ann works at Deloitte"]),
    ("Passed my driving test and bought a little Corsa the next day.", ["Ann has a little Corsa"]),
    # A couple's event: the two are a couple.
    ("I met Tom at my cousin's wedding in June and we've been together ever since.",
     ["Ann is dating Tom"]),
    ("Me and Rafael celebrated six months together on Friday.", ["Ann is dating Rafael"]),
    ("My parents celebrated forty years together.", []),
    # Leaving with a thing.
    ("Went to the dealer on Saturday and drove home in a Mazda MX-5.", ["Ann drives a Mazda MX-5"]),
    ("Came out of the shop with a Galaxy S23.", ["Ann has a Galaxy S23"]),
    ("Came home with a cold after the wedding.", []),
    ("Drove home in my dad's Volvo.", []),
    ("Me and Sarah celebrated her birthday at Nando's.", []),
    ("I met Priya at uni and we've been friends ever since.", []),
])
def test_more_events_that_leave_a_state(sentence: str, result: list[str]) -> None:
    assert results(sentence, "Ann") == result


@pytest.mark.parametrize("before,after,old,new", [
    ("I rent a flat above a chip shop in Margate.",
     "We completed on a little cottage in Whitstable last Friday and the removal van came on "
     "Saturday.", "Margate", "Whitstable"),
    ("I play centre-back for Hythe Town.",
     "Signed for Folkestone Invicta at the end of August after their manager watched me twice.",
     "Hythe", "Folkestone"),
    ("I work as a cashier at the Lidl in Swindon.",
     "Got offered the deputy manager job at the store and said yes on the spot; I've been "
     "running the early shift since Monday.", "cashier", "deputy manager"),
])
def test_an_event_that_brings_a_state_replaces_the_value_held(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I live in Brighton.",
     "Went back to Swansea for a weekend to see where I grew up; the old chip shop has gone."),
    ("I work as a receptionist at a dental practice in Exeter.",
     "Had an interview for a practice manager role at a clinic in Taunton on Wednesday."),
    ("I drive a Honda Jazz.",
     "Took a Tesla Model 3 for a test drive at the weekend; lovely, but out of my budget."),
    ("I play centre-back for Hythe Town.", "My brother signed for Folkestone Invicta in August."),
])
def test_an_event_that_leaves_no_state_keeps_both(store: Any, before: str, after: str) -> None:
    keeps(store, before, after)
