"""Endings told as what befell the thing (``befallen.py``): another's act that did away
with it, the speaker put out of a place by another, the thing's own fate in a passive or
an idiom (``ending_grammar``); and the one memory each retires on a real store with the
real model, while another's, one of several, a part, a pause or a plan keep it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.befallen import JOB
from element.agents.ending_grammar import endings
from element.agents.one_of_several import one_of_several
from element.agents.rules import clean
from tests.element.speaker import BACKGROUND, current, open_store, tell


def _things(said: str) -> list[str]:
    return [e.thing for e in endings(clean(said)) if e.holder == ""]


@pytest.mark.parametrize("said,thing", [
    ("A mink got into the run last week and killed the ducks.", "the ducks"),
    ("The gales in February tore the polytunnel to shreds.", "the polytunnel"),
    ("The neighbour's bonfire got out of hand and burnt down the summer house.",
     "the summer house"),
    ("The council cut down the pear tree because its roots got into the drains.",
     "the pear tree"),
    ("A lorry ploughed into the old banger on the ring road and the insurance wrote it off.",
     "the old banger"),
    ("The bank repossessed the Transit in March.", "the Transit"),
    ("Harlow's let me go just before Christmas, said trade was too slow.", JOB),
    ("The Golden Fleece laid me off when they cut the kitchen staff.", JOB),
    ("They let me go from Grind last month, budget cuts apparently.", "Grind"),
    ("The Ramblers kicked me out over the fees I owed.", "The Ramblers"),
    ("At the AGM they voted me out as treasurer.", "treasurer"),
    ("They replaced me as secretary at the last meeting.", "secretary"),
    ("The band was disbanded after the funding dried up.", "The band"),
    ("Heron Lane shelter went into administration in the spring.", "Heron Lane shelter"),
    ("The Tuesday Singers called it a day after twenty years.", "The Tuesday Singers"),
    ("Tideway got wound up in the summer, not enough members.", "Tideway"),
    ("The Economist sub got cut off when my card expired.", "The Economist sub"),
    ("Flogged the Peloton, it was just a clothes horse.", "the Peloton"),
])
def test_an_ending_that_befell_the_thing_names_it(said, thing):
    assert _things(said) == [thing]


@pytest.mark.parametrize("said", [
    "A fox got my neighbour's hens last night.",                      # another's
    "A fox killed one of the hens last night.",                       # one of them
    "The fox nearly got the chickens but the dog chased it off.",     # not done
    "They let my brother go from the warehouse last week.",           # another let go
    "They might let me go if sales don't pick up.",                   # not done
    "Apparently the Lanes are going to let me go in the new year.",   # a plan
    "The storm brought a branch down on the Focus and dented the bonnet.",  # a part
    "The insurers didn't write the car off in the end.",              # negated
    "We killed the bottle of wine on Friday.",                        # the speaker's idiom
    "They replaced me as captain for one game while I was injured.",  # for a while
    "The neighbours' dog got our cat on Tuesday but she survived.",   # survived
    "The council cut down the tree outside the library.",             # a public thing
    "The orchestra is off for the summer, back in September.",        # a pause
    "The choir was disbanded for the summer holidays, back in September.",  # a while
    "The Hammers got flattened 9-0 on Tuesday.",                      # a game's result
    "The Hammers destroyed the Harriers in the cup final.",           # a game's result
    "My phone got cut off mid-call with my mum.",                     # a call cut short
])
def test_what_looks_like_an_ending_that_befell_a_thing_and_is_none(said):
    assert _things(said) == []


def test_a_thing_said_with_a_possessor_of_no_person_is_its_head():
    assert _things("The Sundays' tour bus got repossessed, so we drive ourselves.") == \
        ["tour bus"]
    assert _things("The choir's concert got cancelled because of snow.") == ["concert"]
    assert _things("Harlow's Bakery closed down in May.") == ["Harlow's Bakery"]


def test_a_name_listed_beside_another_is_one_of_several():
    assert one_of_several("Flopsy", "Ana's family has two rabbits, Flopsy and Bun.")
    assert not one_of_several("Flopsy", "Ana has a rabbit called Flopsy.")
    assert not one_of_several("Marks & Spencer", "Ana works at Marks and Spencer.")


def test_an_animals_kill_names_what_it_got(wordnet):
    assert _things("A fox got the last of the chickens on Sunday night.") == ["the chickens"]
    assert _things("Next door's cat got Nibbles, poor thing.") == ["Nibbles"]
    assert _things("My mum got the last of the cake.") == []
    assert _things("They chucked us out of the pub at closing time.") == []  # a place


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
          wordnet: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "befallen")


def test_what_another_did_to_the_thing_retires_it(store):
    for text in (*BACKGROUND, "We keep four ducks on the pond out back.",
                 "I drive a Nissan Micra."):
        tell(store, text)
    assert "supersede" in tell(store, "A mink got into the run last week and killed the "
                                      "ducks.")
    now = current(store)
    assert "four ducks" not in now and "Micra" in now and "food bank" in now


def test_the_speaker_let_go_retires_where_they_work(store):
    for text in (*BACKGROUND, "I work at Harlow's bakery on the high street."):
        tell(store, text)
    assert "supersede" in tell(store, "Harlow's let me go just before Christmas, said trade "
                                      "was too slow.")
    assert "bakery" not in current(store)


def test_anothers_one_of_several_and_a_plan_keep_the_speakers_thing(store):
    for text in (*BACKGROUND, "We keep four hens in the back garden.",
                 "We have two rabbits, Flopsy and Bun.", "I work at the Co-op on Mill Road."):
        tell(store, text)
    tell(store, "A fox got my neighbour's hens last night, so I've locked ours in early.")
    tell(store, "A fox got Flopsy last night, Bun's hiding in the hutch.")
    tell(store, "Apparently they are going to let me go in the new year.")
    now = current(store)
    assert "four hens" in now and "Flopsy and Bun" in now and "Co-op" in now
