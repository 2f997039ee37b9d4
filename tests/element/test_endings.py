"""element/agents/endings.py: the grammar of an ending, and the memory it ends found by
meaning when the thing ended is named in other words than the memory's; endings told of
another person end nothing of the speaker's. On both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ending_grammar import endings
from element.agents.meant import activity
from element.agents.holders import holder_of
from element.agents.rules import clean
from tests.element.speaker import BACKGROUND, current, open_store, tell


@pytest.mark.parametrize("said,thing", [
    ("Done with coffee, the jitters weren't worth it.", "coffee"),
    ("I'm off the cigarettes for good now.", "the cigarettes"),
    ("I gave the allotment up in the autumn.", "the allotment"),
    ("My GP took me off the sertraline last month.", "the sertraline"),
    ("I haven't played chess in months.", "played chess"),
    ("I don't do the food bank anymore.", "the food bank"),
    ("No more sugar in my tea for me.", "sugar in my tea"),
    ("Keto's over for me, I missed bread too much.", "Keto"),
    ("Tomasz and I are over.", "Tomasz"),
    ("I've been off the booze since New Year.", "the booze"),
    ("Six months smoke-free today!", "smoke"),
    ("We gave the piano away to a school.", "the piano"),
    ("I'm an ex-smoker now.", "smoker"),
    ("We had to put Max down last month.", "Max"),
    ("Our gym membership was cancelled in May.", "Our gym membership"),
    # Idioms of being done, in words of no cue list.
    ("Yoga classes fell by the wayside when work got busy.", "Yoga classes"),
    ("I fell off the keto wagon at Christmas.", "keto"),
    ("I've stepped back from the parish council to spend more time at home.",
     "the parish council"),
    ("My Spotify subscription expired in May.", "My Spotify subscription"),
    ("Vegetarian no more, I had a steak last night.", "Vegetarian"),
    ("I bowed out of the pub quiz team.", "the pub quiz team"),
    ("I knocked the vaping on the head.", "the vaping"),
    ("A member of the Labour party I am no longer.", "A member of the Labour party"),
    ("Didn't renew my gym membership in January.", "my gym membership"),
    ("I've sworn off chocolate.", "chocolate"),
    ("I put the band behind me last year.", "the band"),
    ("The allotment is no longer part of my life.", "The allotment"),
    ("I tore up my union membership card.", "my union membership card"),
    # A subordinate clause of time or reason tells the ending as a main clause would.
    ("Now that I've cut out dairy, I take my tea black.", "dairy"),
    ("Once we'd sold the campervan, we had our weekends back.", "the campervan"),
    ("Ever since I packed in the night shifts, I sleep like a log.", "the night shifts"),
    # A thing given or handed back.
    ("I handed the allotment by the canal back to the council.", "the allotment by the canal"),
    ("We gave the lease car back in March.", "the lease car"),
    # A thing lost; the passive of an idiom of ending; the speaker's relative clause.
    ("I lost my job at the council in March.", "my job at the council"),
    ("Disney Plus got the chop when the price went up.", "Disney Plus"),
    ("The pilates studio I went to closed down.", "The pilates studio"),
    ("Since the book group folded, my Tuesdays are free.", "the book group"),
    ("My Tuesdays are free now that the book group has finished.", "the book group"),
    ("My stint on the committee came to an end in May.", "My stint on the committee"),
    # A past held up to a calendar date.
    ("I was teetotal until the summer.", "teetotal"),
    ("I coached the under-tens until last season.", "coached the under-tens"),
    ("We had a timeshare in Spain till 2021.", "a timeshare in Spain"),
    ("I handed the scout troop over to another leader in June.", "the scout troop"),
    ("Went cold turkey on the energy drinks in January.", "the energy drinks"),
    ("Ex-vegetarian as of last month!", "vegetarian"),
    # The speaker's job ended by another, the job unsaid.
    ("I got laid off in the autumn.", "my employer or career"),
    ("I took early retirement in the spring.", "my employer or career"),
    # The time since the last one of a thing; a state of doing without, over a span or
    # begun.
    ("It's been a year since my last cigarette.", "cigarette"),
    ("Three months since my last drink!", "drink"),
    ("I've been sober since March.", "drinking alcohol"),
    ("We went vegan in January.", "eating meat and dairy"),
    # Not bothering to renew; a thing returned.
    ("Didn't bother renewing the National Trust membership.", "the National Trust membership"),
    ("The campervan's gone back to the hire company.", "The campervan"),
    # A thing gone as a compound, held "these days".
    ("We're a car-free family these days.", "car"),
])
def test_an_ending_names_the_thing_ended_as_the_speakers(said, thing):
    assert [(e.thing, e.holder) for e in endings(clean(said))] == [(thing, "")]


@pytest.mark.parametrize("said", [
    "My sister quit smoking last month.",
    "My friend Jo left her choir, she said it was cliquey.",
    "I want to quit smoking.",
    "I've given it up.",
    "I stopped going.",
    "I'm gluten-free.",
    "I'm vegetarian.",
    "My son has gone back to the school after half term.",
    "The wheel came off the trolley.",
    "It's been two days since my last gym session, I've had a cold.",
    "I'm sober today, I'm driving.",
    "I put the phone down and cried.",
    "I'm off to go swimming with the kids.",
    "Last week I dropped off the cakes at the shelter.",
    "I just finished with the intro to my script.",
    "We connected over our shared love of basketball.",
    "I used to work at Apple before Spotify.",
    "I fell off the wagon last night.",
    "We ran out of milk.",
    "I cut up some onions.",
    "I put the kids to bed.",
    # A condition, and a person handed back, end nothing of the speaker's.
    "If I quit the choir, I'd have my Thursdays back.",
    "I handed my brother back his keys.",
    "I lost my temper with the printer.",
    "We lost my grandmother in the spring.",
    # A past up to an hour of one day is an episode.
    "I worked until six, then went home.",
    "I stayed until midnight.",
    "My brother was made redundant in May.",
    "I was fired up about the final.",
    "Ex-girlfriend texted me last night.",
])
def test_another_persons_ending_a_plan_or_a_pronoun_ends_nothing_of_the_speakers(said):
    assert [e for e in endings(clean(said)) if e.holder == ""] == []


@pytest.mark.parametrize("said,thing,holder", [
    ("Dad's given up the booze, doctor's orders.", "the booze", "dad"),
    ("Mum has stopped going to aqua aerobics.", "going to aqua aerobics", "mum"),
    ("My husband hasn't set foot in a gym since March.", "a gym", "husband"),
    ("My sister quit smoking last month.", "smoking", "sister"),
])
def test_a_persons_ending_is_read_as_theirs(said, thing, holder):
    """A person of the speaker's ending a thing of theirs: the same grammar, their holder
    (only their memories can be meant)."""
    assert [(e.thing, e.holder) for e in endings(clean(said))] == [(thing, holder)]


def test_a_persons_negated_present_is_theirs():
    """"My dad is not drinking anymore" tells what he does, not who the speaker's dad is
    ("my manager is Dev")."""
    assert holder_of("My dad is not drinking anymore") == "dad"
    assert holder_of("my manager is Dev") == ""


@pytest.mark.parametrize("fact,said", [
    ("I cycle to work every day", "cycling to work every day"),
    ("I run marathons", "running marathons"),
    ("I am a nurse at the Royal Free", "being a nurse at the Royal Free"),
    ("I have a dog called Rufus", "having a dog called Rufus"),
    ("We visit my mum on Sundays", "visiting my mum on Sundays"),
    ("I can't swim", ""),
    ("my sister lives in Hull", ""),
])
def test_a_fact_said_as_its_activity(fact, said):
    """What an ending names ("a cyclist", "nursing") is compared with the memory read as
    its activity too; a modal or another's fact opens on no verb of the speaker's."""
    assert activity(fact) == said


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "endings")


def test_an_ending_in_other_words_ends_the_memory_meant(store):
    """"Done with coffee" names no word of "drinks three espressos a day": by meaning."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I drink three espressos a day.")
    assert tell(store, "Done with coffee, the jitters weren't worth it.") == ["supersede"]
    assert "espressos" not in current(store)


def test_an_ending_naming_the_role_ends_the_habit(store):
    """"Not much of a swimmer these days" names the role, the memory the habit ("swims at
    the lido every morning")."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I swim at the lido every morning.")
    tell(store, "I have a cat called Miso.")
    assert tell(store, "I'm not much of a swimmer these days, my shoulder's bad.") == \
        ["supersede"]
    now = current(store)
    assert "swims at the lido" not in now
    assert "cat called Miso" in now and "food bank" in now and "Priya" in now


def test_an_ending_of_another_kind_keeps_the_habit(store):
    """"A car-free household" names none of the speaker's memories: the cat stays."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I have a cat called Miso.")
    tell(store, "We're a car-free household these days.")
    assert "cat called Miso" in current(store)


def test_an_ending_naming_the_memorys_own_word_ends_it(store):
    """"The allotment" names a word of one memory only ("rents an allotment by the
    river"; the model reads them .28 apart): that memory; "the squash club" names a word
    ("club") of another club's, not all of its words."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I rent an allotment by the canal.")
    tell(store, "I'm a member of the rugby club.")
    tell(store, "I quit the squash club.")
    assert "rugby club" in current(store)
    assert tell(store, "The allotment's gone back to the council.") == ["supersede"]
    now = current(store)
    assert "rents an allotment" not in now and "rugby club" in now and "Priya" in now


def test_a_job_lost_without_naming_it_ends_the_speakers_employer(store):
    """"I was let go in March" names no job: the speaker's one employer is the one meant,
    as "I don't have a car anymore" ends the car; the volunteering is no employer."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I work at Halfords.")
    tell(store, "I was let go in March, so I'm looking around.")
    now = current(store)
    assert "Ana works at Halfords" not in now
    assert "food bank" in now and "Priya" in now


def test_a_job_left_without_naming_it_ends_the_speakers_occupation(store):
    """"I retired in July" names no job: the speaker's occupation ("works as a teacher at
    ...") is the one meant; volunteering is no job, and a parent's retirement not hers."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I work as a teacher at Northgate Primary.")
    tell(store, "My dad retired in the spring.")
    assert "teacher at Northgate" in current(store)
    tell(store, "I retired in July after thirty years.")
    now = current(store)
    assert "works as a teacher" not in now
    assert "food bank" in now and "Priya" in now


def test_a_persons_ending_in_other_words_ends_their_memory_not_the_speakers(store):
    """"Dad's given up the booze" after "my dad drinks a lot of whisky": his memory, by
    meaning; the speaker's own wine is not his."""
    for text in (*BACKGROUND, "I have a glass of wine with dinner.",
                 "My dad drinks a lot of whisky."):
        tell(store, text)
    tell(store, "Dad's given up the booze, doctor's orders.")
    now = current(store)
    assert "drinks a lot of whisky" not in now
    assert "glass of wine" in now and "food bank" in now


def test_another_persons_ending_keeps_the_speakers_memory(store):
    tell(store, "I drink a glass of wine with dinner.")
    tell(store, "My dad is not drinking anymore, doctor's orders.")
    assert "glass of wine" in current(store)


def test_the_speakers_choice_said_with_it_replaces_what_it_names(store):
    """"It's green tea for me these days" names no attribute and has no "I": the value by
    meaning ("green tea" and "drinks black coffee all day")."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I drink black coffee all day.")
    assert tell(store, "It's green tea for me these days.") == ["supersede"]
    assert "black coffee" not in current(store)


def test_a_thing_taken_up_again_ends_the_memory_of_giving_it_up(store):
    """"I'm eating red meat again" names the thing and no ending: the memory of doing
    without it is what no longer holds."""
    tell(store, "My best friend is called Priya.")
    tell(store, "I gave up red meat in the spring.")
    assert tell(store, "I'm eating red meat again, I was anaemic.") == ["supersede"]
    now = current(store)
    assert "gave up red meat" not in now and "again" in now and "Priya" in now


def test_another_person_taking_a_thing_up_again_keeps_the_speakers_ending(store):
    tell(store, "I quit smoking last year.")
    tell(store, "My dad is smoking again, it drives me mad.")
    assert "quit smoking" in current(store)


def test_an_ending_whose_replacement_is_of_another_kind_keeps_the_memory(store):
    """"I quit Netflix; I watch YouTube instead" beside "loves a good spy
    novel": the bare name reads near the memory, what replaced it does not
    (``meant.replaced_unlike``); beside a memory of its kind it still ends it."""
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I love a good spy novel.")
    assert "supersede" not in tell(store, "I quit Netflix; I watch YouTube instead.")
    assert "spy novel" in current(store)


def test_an_ending_whose_replacement_is_of_its_kind_ends_the_memory(store):
    for text in BACKGROUND:
        tell(store, text)
    tell(store, "I go to boxercise twice a week.")
    assert "supersede" in tell(store, "I've packed in the boxercise, I do aqua aerobics now.")
    assert "goes to boxercise" not in current(store)
