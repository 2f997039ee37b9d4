"""Whose a sentence is (``element/agents/holders.py``), and the change statements that
reading lets find the memory they replace; on both backends with the real model.

A thing named after a person or an animal ("our pet insurance"), a preference or a
record ("my favourite singer", "my longest swim") and a pronoun naming the speaker's value
("she's my favourite singer now") are the speaker's; a short statement of the present
that is far closer to one of the speaker's memories than to any other replaces it
(``updates.NOW_CLOSE``). The sentences are written for these tests (none is a case of
``bench/data``). The guards a user relies on: another person's statement keeps what is
stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.holders import holder_of, kin_modifier, memory_holder
from tests.element.speaker import BACKGROUND, tell_after, background_kept, current, open_store, tell


@pytest.mark.parametrize("sentence,holder", [
    ("our pet insurance is with Bupa", ""), ("my dog walker is Sam", ""),
    ("she is my favourite singer now", ""), ("that is my longest now", ""),
    ("it is hot water for me from now on", ""),
    ("my brother-in-law lives in Derby", "brother in law"),
    ("my sister lives in Madrid", "sister"), ("It was a great night", "?"),
])
def test_whose_sentence_it_is(sentence: str, holder: str) -> None:
    assert holder_of(sentence) == holder


@pytest.mark.parametrize("sentence,holder", [
    # the main clause after a subordinate one is whose the sentence is
    ("Since the depot moved out to Crawley I take the bus every morning", ""),
    ("Since the merger, Olga is my manager", "olga"),
    ("Because the lease ran out we found a flat in Roath", ""),
    ("Since the merger Olga runs the team", "?"),
    # a phrase of comparison or cause before the subject: the main clause's
    ("Like my dad, I'm all about Terry Pratchett these days", ""),
    ("Thanks to my brother I'm working at his garage now", ""),
    ("Despite my knee, I run 5k every morning", ""),
    ("Like my mum, my sister is a nurse", "sister"),
    # an act opening the sentence is the speaker's, a name ending "-ing" is not an act
    ("Being a paramedic means my weekends are never free", ""),
    ("Packing boxes at the Amazon depot these days, the shifts are long", ""),
    ("Irving is my boss now", "irving"),
    # the speaker with another, "me" said for "I"
    ("My fiancee and me bought a flat in Roath", ""), ("Dev and me moved to Hove", ""),
    ("My sister and her husband moved to Hove", "sister"),
])
def test_whose_by_the_clause_and_the_act(sentence: str, holder: str) -> None:
    assert holder_of(sentence) == holder


@pytest.mark.parametrize("sentence,modifier", [
    ("my pet insurance is with Bupa", True), ("our dog food is expensive", True),
    ("my sister really is kind", False), ("my cousin Priya is getting married", False),
    ("my sister lives in Madrid", False),
])
def test_a_kin_word_before_a_noun_is_a_modifier(sentence: str, modifier: bool) -> None:
    assert kin_modifier(sentence) is modifier


@pytest.mark.parametrize("sentence,holder", [
    ("my favourite singer is Adele", ""), ("my longest swim is 2 km", ""),
    ("my best friend lives in York", "best"),
    ("my favourite cousin Jo lives in Leeds", "favourite"),
])
def test_a_preference_or_a_record_is_the_speakers(sentence: str, holder: str) -> None:
    assert memory_holder(sentence) == holder


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "holders")


@pytest.mark.parametrize("before,after,old", [
    # The cause first, the speaker's present after "so": far closer to the job than to
    # anything else Ana said.
    ("I work as a plumber.", "My knees gave up, so these days I am teaching plumbing at "
     "the technical college.", "works as a plumber"),
    # "she is my favourite singer now": the speaker's favourite, said with a pronoun.
    ("My favourite singer is Adele.", "I have had Dua Lipa on repeat all month, she is my "
     "favourite singer now.", "Adele"),
    # "that is my longest now": the speaker's record.
    ("My longest swim is 2 km.", "I swam 5 km in the lake on Saturday, so that is my "
     "longest now.", "2 km"),
])
def test_a_statement_of_the_present_far_closest_to_a_fact_supersedes_it(
        store: Any, before: str, after: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now and background_kept(now)


@pytest.mark.parametrize("before,after,kept", [
    ("My favourite singer is Adele.", "My sister has had Dua Lipa on repeat all month, she "
     "is her favourite singer now.", "Adele"),
    ("I work as a plumber.", "My brother works as a roofer these days.", "works as a plumber"),
])
def test_anothers_statement_of_the_present_keeps_the_fact(store: Any, before: str,
                                                          after: str, kept: str) -> None:
    assert "supersede" not in tell_after(store, before, after)
    assert kept in current(store)


def test_a_strong_change_of_another_slot_keeps_the_fact_far_from_it(store: Any) -> None:
    # "divorced" is about a partner; "live in" is where one lives: however near their
    # texts (a shared name, "two kids"), the home is not what ended.
    for said in (*BACKGROUND, "We live in Bath with Tom and our two kids."):
        tell(store, said)
    assert "supersede" not in tell(store, "Tom and I are divorced now.")
    assert "in Bath" in current(store)


@pytest.mark.parametrize("before,after,old,kept", [
    # a change done to a person of the speaker's is a change of that person's attribute
    ("My daughter goes to Hillside Primary.",
     "We moved my daughter to Brook Lane School in September, she loves it.",
     "goes to Hillside Primary", "Brook Lane"),
    ("My dad lives in Whitby.", "We moved my dad into a care home in York last month.",
     "lives in Whitby", "care home in York"),
])
def test_a_change_done_to_a_person_of_the_speakers_supersedes_their_fact(
        store: Any, before: str, after: str, old: str, kept: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now and kept in now and background_kept(now)


def test_a_change_done_to_a_person_of_the_speakers_keeps_the_speakers_own_fact(
        store: Any) -> None:
    for said in (*BACKGROUND, "I live in Leeds.", "My son goes to Oakfield Primary."):
        tell(store, said)
    tell(store, "We moved my son to St Anne's after Easter.")
    now = current(store)
    assert "lives in Leeds" in now and "Oakfield" not in now


@pytest.mark.parametrize("sentence,holder", [
    # a thing of the family's is the speaker's household's; a person of it is not
    ("The family caravan is at Filey these days", ""),
    ("the household broadband is with Plusnet now", ""),
    ("The family next door moved to Hove", "family"),
    ("The family friend is a vet in Ripon", "family"),
    ("My family motivates me to keep going", "family"),
    # a name said to be the speaker's person after a subordinate opening with no comma
    ("Since the merger Olga is my manager", "olga"),
])
def test_whose_a_family_thing_and_a_main_clause_without_comma_are(sentence: str,
                                                                  holder: str) -> None:
    assert holder_of(sentence) == holder


@pytest.mark.parametrize("sentence", [
    "Since the merger Olga is my manager", "After the reorg, Tunde is our team lead",
])
def test_a_person_named_as_the_speakers_after_a_subordinate_opening_is_the_speakers(
        sentence: str) -> None:
    from element.agents.profile import whose
    assert whose(sentence) == ""
