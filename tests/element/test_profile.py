"""element/agents/profile.py: a change said in words no rule knows, found by the profile
question both statements answer, on both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``): each gives
an attribute of the speaker's a new value without a change word a rule reads, or only a
weak one ("now", "these days"), and some say it beside a reason in a clause of its own.
The guards are the ones a user relies on: another person's fact, a visit, one more, a
plan and a taste never replace what is stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.profile import profile_target, values, whose
from index import HashingEmbedder

from tests.element.speaker import tell_after, open_store
from tests.element.speaker import replaces
from tests.element.speaker import current as contents


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "profile")


@pytest.mark.parametrize("before,after,old,new", [
    ("I use a Samsung Galaxy S10.",
     "Got myself a Pixel 8 last week and the camera is brilliant now.", "Galaxy", "Pixel"),
    ("My home insurance is with LV.",
     "The premiums kept going up, so I'm insured with Direct Line now.", "LV", "Direct Line"),
    ("I drive a Ford Focus.", "These days I get around in a little Fiat 500.", "Focus", "Fiat"),
    ("My daughter is in Year 2 at St Anne's.", "My daughter went up to Year 3 this September.",
     "Year 2", "Year 3"),
    # Another's act on the speaker is the speaker's change.
    ("I take lisinopril for my blood pressure.", "The cardiologist switched me to amlodipine.",
     "lisinopril", "amlodipine"),
    ("I work at the Leeds branch of Barclays.", "Head office transferred me to their Glasgow "
     "branch.", "Leeds", "Glasgow"),
    # Told beside what came with it, and read less clearly than the stored fact: its
    # attribute (residence) said by the memory it replaces.
    ("I live in Norwich.", "First weekend in our new flat in Exeter, still living out of "
     "boxes.", "Norwich", "Exeter"),
    # A role named by its person ("my GP is Dr. X") is the speaker's attribute.
    ("My dentist is Dr. Morley.", "My old practice closed, I'm seeing Dr. Achebe now.",
     "Morley", "Achebe"),
    # What the value itself does is about the speaker's attribute it is the value of.
    ("I'm dating a man called Ewan.", "Ewan asked me to marry him in Mull and I said yes!",
     "dating a man", "marry"),
    # A story longer than a statement: its clause of a statement's length.
    ("I live in Norwich.", "Big news: we've bought a house in Exeter, the kids have started "
     "at the school round the corner and I've finally got a garden to potter about in!",
     "Norwich", "Exeter"),
])
def test_a_new_value_in_words_no_rule_knows_supersedes_the_one_fact(
        store: Any, before: str, after: str, old: str, new: str) -> None:
    replaces(store, before, after, old, new)


@pytest.mark.parametrize("before,after", [
    ("I live in Oxford.", "We spent a lovely weekend in Brighton by the sea."),
    ("I live in Oxford.", "My brother has a flat in Brighton now."),
    ("I have a cat called Miso.", "We have two kittens as well now, Pip and Dot."),
    ("I use a Samsung Galaxy S10.", "My work gave me an iPhone, so I carry two phones now."),
    ("I'm learning Spanish.", "I'm learning Japanese now too."),
    ("I work at Unilever.", "I'm thinking about applying to Google next year."),
    ("My favourite band is Radiohead.", "I've been listening to Arctic Monkeys a lot lately."),
    ("I live in Oxford.", "My friend put me up in her flat in Brighton."),
    ("I live in Oxford.", "I dream of a little house by the sea in Cornwall one day."),
    ("I live in Oxford.", "We're toying with the idea of moving out to Bath at some point."),
    ("My dentist is Dr. Morley.", "My dad's dentist is Dr. Achebe, he swears by her."),
    ("My manager is Gemma.", "Gemma has a new puppy called Bo, she showed us photos."),
    ("I live in Oxford.", "We had the best long weekend, drove down to Brighton on Friday, "
     "ate far too much fish and chips and walked the pier twice before heading home."),
    # where one grew up is history: no home, allotment or job told later replaces it
    ("I grew up in Swansea.", "I live in Porto."),
    ("I grew up in Swansea.", "I have an allotment on Mill Lane."),
])
def test_a_visit_another_holder_one_more_a_plan_or_a_taste_keeps_both(
        store: Any, before: str, after: str) -> None:
    assert "supersede" not in tell_after(store, before, after)
    first = before.split()[-1].rstrip(".")
    assert first in contents(store)


def test_values_are_names_and_numbers_not_the_subject() -> None:
    assert values("Ana's daughter is in Year 2 at St Anne's.", "Ana") == {"year", "2", "st",
                                                                         "anne"}
    assert values("Ana loves fantasy novels and sci-fi films.", "Ana") == set()
    assert values("Ana's youngest is two already.", "Ana") == {"two"}
    assert values("Leo started third grade.", "Ana") == {"third"}
    assert values("Ana's first day went well.", "Ana") == set()     # a beginning, no rank


@pytest.mark.parametrize("sentence,holder", [
    ("My brother has a flat in Brighton now", "brother"),
    ("my daughter is in Year 2", "daughter"),
    ("My son Jaxon is in 2nd grade", "son jaxon"),      # named: "Jaxon started ..." is his
    ("My sister's Toyota died", "sister"),               # her car, not her name
    ("My husband and I live in Leeds", ""),
    ("I drive a Ford Focus", ""),
    ("our broadband provider is Sky", ""),
    ("my line manager is Deborah", ""),                  # who the speaker's manager is
    ("my dad's GP is Dr. Reid", "dad"),
    ("First night in our new flat in Leeds", ""),
])
def test_whose_a_statement_is(sentence: str, holder: str) -> None:
    assert whose(sentence) == holder


def test_without_a_named_value_nothing_is_embedded() -> None:
    """A taste or a doing names no value: found by meaning, it costs no model call."""
    class Refusing(HashingEmbedder):
        def embed(self, texts: Any) -> Any:
            raise AssertionError("embedded")
    memory = {"id": "m1", "content": "Ana loves fantasy novels."}
    assert profile_target([("Ana is reading a great book.", "", False)], [memory], "Ana",
                          Refusing(64)) is None
