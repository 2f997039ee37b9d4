"""Endings told as what became of the thing (``thing_fate.py``): it ceased to be or to be
had, an act on it told final, it was done away with by someone's hand, the whole of a
flock lost; and the one memory each retires on a real store with the real model, while a
pet that came back, one of several, another's, a while and a plan keep it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ending_grammar import endings
from element.agents.rules import clean
from tests.element.speaker import BACKGROUND, current, open_store, tell


def _things(said: str) -> list[str]:
    return [e.thing for e in endings(clean(said)) if e.holder == ""]


@pytest.mark.parametrize("said,thing", [
    ("The choir wound up in January, not enough tenors.", "The choir"),
    ("Long story short, the chorus wound up over the summer when the conductor retired.",
     "the chorus"),
    ("Turns out the knitting circle dissolved after Christmas, nobody turned up.",
     "the knitting circle"),
    ("The Rovers merged with the Plough's side, and I didn't sign for them.", "The Rovers"),
    ("The Harriers merged into another club and the name's gone.", "The Harriers"),
    ("The rowing boat sank in the storm, nothing left of it.", "The rowing boat"),
    ("Mango flew off when my daughter opened the cage outside.", "Mango"),
    ("Speedy wandered off in the heatwave and we never found her.", "Speedy"),
    ("The shed burnt down on bonfire night, a stray firework.", "The shed"),
    ("The bees didn't survive the cold snap in January.", "The bees"),
    ("The caravan got washed away in the floods last winter.", "The caravan"),
    ("Both budgies flew off when the aviary door blew open.", "budgies"),
    ("The Volvo went to the scrapyard after the head gasket blew.", "The Volvo"),
    ("Noodle went to sleep for the last time in the vivarium on Sunday.", "Noodle"),
    ("We loaned the pony out to a riding school for good, she's theirs now.", "the pony"),
    ("My nephew sat on the iPad and smashed it beyond repair.", "the iPad"),
    ("My brother-in-law cracked the hot tub beyond repair at the barbecue.", "the hot tub"),
    ("Mum paved over the veg patch for a patio.", "the veg patch"),
    ("I lost every last one of the quail to rats over the winter.", "the quail"),
    ("The tank cracked and I lost every one of the fish.", "the fish"),
])
def test_what_became_of_a_thing_names_it_ended(said, thing):
    assert thing in _things(said)


@pytest.mark.parametrize("said", [
    "Pumpkin went missing for three days but came home on Sunday.",       # came back
    "Mango flew out of the cage for an hour yesterday.",                  # a while
    "Thumper escaped again but we got him back from under the shed.",     # again, back
    "The chorus nearly wound up last year but a new conductor saved it.",  # not done
    "The darts team might wind up next year if we can't find a fourth.",  # a plan
    "Duke went to the farm vet for his teeth on Monday.",                 # not the farm
    "Book club disbanded for the summer, back in September.",             # a while
    "I moved to Leeds for good in May.",                                  # taken up
    "We're staying in Leeds for good now, the kids love it.",             # a stay
    "The bees survived the winter, amazingly.",                           # lived
    "A heron had one of the koi out of the pond yesterday.",              # one of them
])
def test_what_looks_like_a_things_fate_and_ends_nothing(said):
    assert _things(said) == []


def test_a_person_fine_after_a_thing_written_off_is_the_driver(wordnet):
    assert _things("My son wrote the Mini off on the ring road, thankfully he's fine.") == \
        ["the Mini"]
    assert _things("Next door's terrier got Biscuit by the ear but she's fine.") == []
    assert _things("My brother-in-law went off to Spain for good.") == []


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "thing_fate")


def test_what_became_of_the_thing_retires_the_fact_that_held_it(store):
    for text in (*BACKGROUND, "I sing alto in the Hexham Community Chorus.",
                 "I have a budgie called Kiwi.", "I drive a Honda Civic."):
        tell(store, text)
    assert "supersede" in tell(store, "The chorus wound up over the summer when the "
                                      "conductor retired.")
    assert "supersede" in tell(store, "Kiwi flew out the window when my son left it open.")
    now = current(store)
    assert "Hexham" not in now and "budgie" not in now and "Civic" in now


def test_a_pet_come_back_one_of_several_and_a_plan_keep_the_fact(store):
    for text in (*BACKGROUND, "I have a cat called Pumpkin.", "I keep six hens in the garden.",
                 "I play in a darts team at the Plough."):
        tell(store, text)
    tell(store, "Pumpkin went missing for three days but came home on Sunday.")
    tell(store, "One of the hens died last night, the other five seem fine.")
    tell(store, "The darts team might wind up next year if we can't find a fourth player.")
    now = current(store)
    assert "Pumpkin" in now and "six hens" in now and "darts team at the Plough" in now


@pytest.mark.parametrize("said,thing", [
    ("So the hens all went to a sanctuary when we moved into the flat.", "the hens"),
    ("The Raleigh got crushed under a van in the car park, beyond repair.", "The Raleigh"),
    ("Storm Eunice, the polytunnel blew away, never found most of it.", "the polytunnel"),
    ("The quartet sort of fizzled when our bass moved to Canada.", "The quartet"),
    ("The greenhouse blew down in the gales, glass everywhere.", "The greenhouse"),
    ("The birds all flew off during the fireworks, not one came back.", "The birds"),
    ("Pepper crossed the rainbow bridge in August, fourteen years old.", "Pepper"),
    ("Gus passed on Tuesday, very peacefully.", "Gus"),
    ("Somebody cut the canoe loose and it drifted off, never seen again.", "the canoe"),
    ("Honestly, none of the tomatoes survived the frost.", "the tomatoes"),
    ("Not one of the pigeons came back after the race.", "the pigeons"),
])
def test_a_things_end_in_the_words_people_use_names_it(said, thing):
    assert thing in _things(said)


@pytest.mark.parametrize("said", [
    "Gus passed his driving test on Tuesday.",
    "The Golf passed its MOT.",
    "We took the kayak out and it nearly sank.",
    "My brother borrowed the van and it was fine.",
    "I was worried none of the hens would survive the fox.",
])
def test_a_pass_or_a_near_miss_ends_nothing(said):
    assert _things(said) == []
