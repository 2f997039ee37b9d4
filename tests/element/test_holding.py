"""element/agents/holding.py: a statement the finders by meaning match with a stored fact
gives it no new value when it tells a permission, a loan or a repair, the speaker as a
customer of a place where the fact holds where they work or live, a part or an accessory
of the fact's thing, or when the fact holds a person of the speaker's (issue 23: a false
supersede takes a true fact out of recall). A new value told plainly still replaces.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.holding import (accessory_of, another_thing, as_customer, holds_person,
                                    kept_meanwhile, kept_named, office_beside, place_for_use)
from element.agents.shared_value import shared_value
from element.agents.stays import bounded

from tests.element.speaker import background_kept, open_store, replaces, tell_after
from tests.element.speaker import current as contents


@pytest.mark.parametrize("sentence", [
    "I let my nephew drive the Polo at weekends now.",
    "We've allowed our lodger to use the bike while she's here.",
    "My dad is borrowing the campervan for his fishing trip.",
    "I lent the drill to Gareth next door.",
    "The Vespa is in the garage for a new exhaust.",
    "I'm getting my laptop repaired, so I'm on the library computers.",
])
def test_a_permission_a_loan_or_a_repair_is_read_so(sentence: str) -> None:
    assert kept_meanwhile(sentence)


@pytest.mark.parametrize("sentence", [
    "I drive a Polo now.",
    "Got myself a Vespa last month.",
    "I took out a mortgage on a flat in Hove.",
])
def test_a_thing_held_is_no_loan(sentence: str) -> None:
    assert not kept_meanwhile(sentence)


@pytest.mark.parametrize("sentence,customer", [
    ("I buy my veg from the Riverside market now.", True),
    ("We do our big shop at Asda these days.", True),
    ("I get all my books from Waterstones.", True),
    ("I shop at the Co-op on the corner.", True),
    ("I got a job at Asda.", False),
    ("I get the bus from Headingley.", False),
    ("I work at the Co-op now.", False),
])
def test_a_customers_place_is_read_so(sentence: str, customer: bool) -> None:
    assert as_customer(sentence) is customer


def test_a_person_of_the_speakers_is_no_value_of_theirs() -> None:
    sister = {"content": "Ana has a younger sister in Glasgow."}
    assert holds_person(sister, "Ana", "I live in a flat in Hove.")
    assert not holds_person(sister, "Ana", "My sister moved to Perth.")
    assert not holds_person({"content": "Ana has a boyfriend in Leeds."}, "Ana",
                            "I'm seeing Tomasz now.")
    assert not holds_person({"content": "Ana lives in Leeds."}, "Ana", "I live in Hove.")


@pytest.mark.parametrize("sentence,memory,part", [
    ("Ordered a new case for my Kindle from Amazon.", "Ana reads on a Kindle Paperwhite.", True),
    ("The Kindle's screen cracked on the train.", "Ana reads on a Kindle Paperwhite.", True),
    ("Fitted new pedals on the bike at the weekend.", "Ana rides a Raleigh bike.", True),
    ("I read on a Kobo now.", "Ana reads on a Kindle Paperwhite.", False),
    ("I swapped my Kindle for a Kobo.", "Ana reads on a Kindle Paperwhite.", False),
])
def test_a_part_of_the_memorys_own_thing_is_read_so(sentence: str, memory: str,
                                                     part: bool) -> None:
    assert accessory_of(sentence, {"content": memory}, "Ana") is part


@pytest.mark.parametrize("sentence,use", [
    ("I've rented a room above the bakery to work from.", True),
    ("We've taken on a unit on the trading estate for my upholstering.", True),
    ("I got a lock-up in Gorton to keep the canoes in.", True),
    ("We've rented a house in Sale now.", False),
    ("We bought a cottage in Hebden Bridge to live in.", False),
    ("We rented a flat in Leeds to be near my mum.", False),
])
def test_a_place_taken_for_a_use_is_no_home(sentence: str, use: bool) -> None:
    assert place_for_use(sentence, {"content": "Ana lives in a terrace in Levenshulme."},
                         "Ana") is use
    assert not place_for_use(sentence, {"content": "Ana plays the fiddle."}, "Ana")


@pytest.mark.parametrize("sentence,memory,beside", [
    ("I'm on the committee of the tenants' association now.", "Ana lives in Kendal.", True),
    ("I'm the treasurer of the darts club these days.", "Ana plays darts on Fridays.", True),
    ("I'm a trustee of the food bank now.", "Ana works as a plumber.", True),
    ("I'm the chair of the darts club now.", "Ana is the secretary of the darts club.",
     False),
    ("I'm a plasterer these days.", "Ana works as a plumber.", False),
])
def test_an_office_in_a_body_replaces_only_another_office(sentence: str, memory: str,
                                                          beside: bool) -> None:
    assert office_beside(sentence, {"content": memory}) is beside


@pytest.mark.parametrize("sentence,memory,kept", [
    ("The Corsa is off the road, so I'm getting the bus.", "Ana drives a Vauxhall Corsa.",
     True),
    ("Badminton is on hold till my wrist heals, so I'm walking instead.",
     "Ana plays badminton on Thursdays.", True),
    ("The Corsa went for scrap, so I'm getting the bus.", "Ana drives a Vauxhall Corsa.",
     False),
    ("The Corsa is off the road, so I'm getting the bus.", "Ana plays badminton.", False),
])
def test_a_clause_keeping_the_memorys_own_thing_is_read_so(sentence: str, memory: str,
                                                           kept: bool) -> None:
    assert kept_named(sentence, {"content": memory}, "Ana") is kept


@pytest.mark.parametrize("sentence,memory,other", [
    ("I changed the pads at last, I went with Shimano ones.", "Ana rides a road bike.", True),
    ("Santa brought me a Casio keyboard.", "Ana plays the clarinet.", True),
    ("I ride a Trek bike these days.", "Ana rides a road bike.", False),
    ("I've switched to Yorkshire tea.", "Ana drinks peppermint tea every evening.", False),
    ("I've switched to Lavazza coffee.", "Ana drinks peppermint tea.", False),
])
def test_a_value_of_another_thing_is_no_new_value(sentence: str, memory: str,
                                                  other: bool) -> None:
    assert another_thing(sentence, {"content": memory}, "Ana") is other


@pytest.mark.parametrize("sentence,stay", [
    ("I'm on paternity leave until June.", True),
    ("I'm on sick leave with my back.", True),
    ("We're living at my brother's while the roof gets done.", True),
    ("I'm helping at the café while Mum recovers from her fall.", True),
    ("I work in Leeds while my husband works in York.", False),
    ("I listen to podcasts while I cook.", False),
])
def test_a_leave_or_a_state_held_while_another_lasts_is_a_stay(sentence: str,
                                                               stay: bool) -> None:
    assert bounded(sentence) is stay


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "holding")


@pytest.mark.parametrize("before,after,held", [
    ("I drive a Skoda Fabia.", "I let my son drive the Fabia now.", "drives a Skoda"),
    ("I work at the Greggs in Leeds.", "I pick up my shopping at Iceland now.", "Greggs"),
    ("I work at Currys.", "I do my food shop at Waitrose now.", "Currys"),
    ("I use a Lenovo ThinkPad.", "Got a new charger for my ThinkPad from Currys.",
     "uses a Lenovo"),
    ("I have a sister in Glasgow.", "I live in a terrace in Hove.", "sister in Glasgow"),
    ("I live in a terrace in Levenshulme.", "I've rented a room above the bakery in Gorton "
     "to work from.", "Levenshulme"),
    ("I live in a terrace in Kendal.", "I'm on the committee of the tenants' association now.",
     "Kendal"),
    ("I drive a Vauxhall Corsa.", "The Corsa is off the road, so I'm getting the bus to work.",
     "Corsa"),
    ("I work as a pharmacist at Boots.", "I'm on paternity leave now, our boy arrived Tuesday!",
     "pharmacist"),
    ("I live in Manchester.", "My brother just moved to Manchester too, so we're neighbours "
     "now!", "lives in Manchester"),
    ("I drink oat milk.", "Ran out of oat milk so had regular in my tea this morning.",
     "drinks oat milk"),
])
def test_no_new_value_keeps_the_fact(store: Any, before: str, after: str, held: str) -> None:
    decided = tell_after(store, before, after)
    now = contents(store)
    assert "supersede" not in decided, now
    assert held in now and background_kept(now), now


@pytest.mark.parametrize("before,after,old,new", [
    ("I work at Morrisons.", "I've got a job at Lidl now.", "Morrisons", "Lidl"),
    ("I drive a Kia Picanto.", "I get about in a Toyota Aygo now.", "Picanto", "Aygo"),
])
def test_a_new_value_told_plainly_still_replaces(store: Any, before: str, after: str,
                                                 old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("sentence,shared", [
    ("My brother just moved to Manchester too, so we're neighbours now!", True),
    ("My best mate works at Arup as well.", True),
    ("I moved from Manchester to Leeds too.", False),       # a new value named beside it
    ("I moved to Leeds, my brother is still in Manchester.", False),    # nothing adds
])
def test_the_value_held_told_again_as_anothers_too_is_shared(sentence: str,
                                                            shared: bool) -> None:
    memory = {"content": "Ana lives in Manchester" if "Manchester" in sentence
              else "Ana works at Arup"}
    assert shared_value(sentence, memory, "Ana") is shared


def test_a_loan_or_a_purchase_in_a_story_is_one_clause_of_several() -> None:
    story = ("Sold the Fiesta at last and the new Golf comes on Friday, so until then "
             "I'm borrowing my dad's van for the school run and the shopping.")
    assert not kept_meanwhile(story)
    assert not as_customer("Started at the big Lidl on Monday and it's lovely, the team "
                           "is friendly and I get my lunch from the Greggs next door.")
