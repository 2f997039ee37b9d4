"""A change of the speaker's told of the speaker among others, or of a thing they share
(``element/agents/ours.py``), and one another person brought about with the speaker as
the object (``element/agents/aided.py``): "We sold the van and now lease a Kia Niro", "The
family car is a Berlingo these days", "My physio got me onto a low-impact plan", "The
school signed us all up to the swimming club" are the speaker's own changes; "My brother
sold his Golf and now drives a Tesla", "The family next door moved to Didsbury", "We went
to Porto and stayed in a flat" are not. The sentences are written for these tests (none is
a case of ``bench/data``); the store tests run on both backends with the real model.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.aided import aided
from element.agents.ours import family_thing, ours
from element.agents.rules import clean
from tests.element.speaker import current, keeps, open_store, tell_after


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "ours")


@pytest.mark.parametrize("sentence,said", [
    # a clause whose subject is dropped after the speaker's, saying it holds now or changed
    ("We sold the van and now lease a Kia Niro between the two of us.", "I now lease a Kia Niro"),
    ("We cancelled Sky and signed up for Now TV instead.", "I signed up for Now TV instead"),
    ("Me and Jo sold the flat and are renting in Whitstable now.",
     "I am renting in Whitstable now"),
    # a thing of the family's
    ("The family car is a Berlingo these days.", "our family car is a Berlingo these days"),
    ("The household broadband is with Plusnet now; the old router went back.",
     "our household broadband is with Plusnet now"),
    # another's dropped subject, another's family, a story's next step, a subject of its own
    ("My brother sold his Golf and now drives a Tesla.", None),
    ("The family next door moved to Didsbury.", None),
    ("We went to Porto and stayed in a lovely flat by the river.", None),
    ("We sold the van and the kids now cycle to school.", None),
    ("Did you and Tom sell the van and buy a Kia?", None),
    ("I let the allotment go in spring; far too much work these days.", None),
    ("We could go to Whitby, or maybe plan something for the summer instead.", None),
    # another's act on a thing of the speaker's (not on a person, not one not done)
    ("My husband switched our joint account over to Starling.",
     "I switched our joint account over to Starling"),
    ("Mum's moved our broadband to Vodafone.", "I moved our broadband to Vodafone"),
    ("My wife moved my dad into a care home in Ilkley.", None),
    ("My husband is going to move our savings to Starling.", None),
    ("My husband switched his account over to Starling.", None),
    # the speaker's household as the subject, not "my family" (often apart from them)
    ("Our whole family goes to St Aidan's now.", "I go to St Aidan's now"),
    ("Our family has switched to Ocado.", "I have switched to Ocado"),
    ("My family lives in Gdansk.", None),
    ("The family next door goes to St Aidan's.", None),
])
def test_the_speakers_statement_among_others(sentence: str, said: str | None) -> None:
    assert ours(clean(sentence)) == said


def test_a_family_thing_is_not_a_person_of_the_family() -> None:
    assert family_thing("the family caravan is a Bailey at Filey") == \
        "our family caravan is a Bailey at Filey"
    assert family_thing("the family moved to Leeds") is None
    assert family_thing("the family friend is a vet") is None


@pytest.mark.parametrize("sentence,said", [
    ("My physio got me onto a low-impact training plan, with rest two days a week.",
     "I am on a low-impact training plan now"),
    ("The school signed us all up to the Dolphins swimming club.",
     "we are signed up to the Dolphins swimming club now"),
    ("My flatmate talked me into going vegan.", "I went vegan"),
    # a ride, a call, a plan not yet done: no change
    ("My mate got me onto the bus home.", None),
    ("My dad got me onto the phone with the bank.", None),
    ("My flatmate is going to talk me into going vegan.", None),
    ("My mum wants to sign me up for the choir.", None),
    # a thing got for the speaker; a home got is where they live
    ("My grandparents bought a Citroen C3 for me.", "I have a Citroen C3 now"),
    ("The housing trust found us a maisonette in Gorton.",
     "we live in a maisonette in Gorton now"),
    ("My aunt found a studio for me in Leith.", "I live in a studio in Leith now"),
    ("My grandparents bought a Citroen C3 for my cousin.", None),
    ("The housing trust found my nan a bungalow in Gorton.", None),
    ("My GP made me feel a lot calmer.", None),
    # a post got at a place, a move to somewhere not a home, a move that was a must
    ("An agency found me a placement with Arup in Leeds.", "I work at Arup in Leeds now"),
    ("My flatmate talked me into moving to Nationwide.", "I moved to Nationwide"),
    ("My wife's promotion meant we had to move to Swindon.", "we moved to Swindon"),
    ("An agency found my son a placement with Arup.", None),
    # a thing given, said with "have given", its name in an appositive kept
    ("The trust has given me a pool car, a Renault Zoe.", "I have a pool car, a Renault Zoe now"),
    ("The trust has given my husband a pool car.", None),
    # done long ago
    ("When I turned twelve, my uncle signed me up for a judo club in Bury.", None),
])
def test_the_speaker_as_the_object_of_anothers_act(sentence: str, said: str | None) -> None:
    assert aided(clean(sentence)) == said


@pytest.mark.parametrize("before,after,old,new", [
    ("I drive a Vauxhall Astra.", "We traded in both cars last month and now lease a Kia Niro "
     "between the two of us.", "Astra", "Niro"),
    ("I rent a flat in Taunton.", "The family home is in Wellington these days, the dog loves "
     "the garden.", "Taunton", "Wellington"),
    ("I live in Levenshulme.", "The housing trust found us a maisonette in Gorton.",
     "Levenshulme", "Gorton"),
    ("I bank with Santander.", "My husband switched our joint account over to Starling.",
     "Santander", "Starling"),
    ("I bank with Santander.", "My flatmate talked me into moving to Nationwide.",
     "Santander", "Nationwide"),
    ("I go to St Mark's church.", "Our whole family goes to St Aidan's now.", "St Mark",
     "St Aidan"),
    ("I'm on a high-protein diet.", "My physio got me onto a Mediterranean diet, with oily "
     "fish three times a week.", "high-protein", "Mediterranean"),
])
def test_the_speakers_change_among_others_replaces_the_old_value(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now, now


@pytest.mark.parametrize("before,after", [
    ("I drive a Vauxhall Astra.", "My brother sold his Golf and now leases a Kia Niro."),
    ("I rent a flat in Taunton.", "The family next door moved to Wellington."),
    ("I bank with Santander.", "My husband switched his account over to Starling."),
    ("I go to St Mark's church.", "My family goes to St Aidan's in Krakow."),
    ("I live in Levenshulme.", "The housing trust found my nan a bungalow in Gorton."),
    ("I rent a flat in Taunton.", "We went to Wellington for the weekend and stayed in a "
     "lovely cottage."),
])
def test_anothers_change_in_the_same_shape_keeps_both(store: Any, before: str,
                                                      after: str) -> None:
    keeps(store, before, after)
