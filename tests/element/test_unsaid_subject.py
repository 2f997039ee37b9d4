"""A change told without "I": a dropped subject before a verbless state ("Sober for six
months now"), a nominal sentence ("New flat in Leith"), one of the speaker's things or
people as a bare subject ("Computer's a ThinkPad now", "Grandma's in Hove these days"), a
place or company told by its preposition alone ("At the Co-op these days"), an answer that
names only the new value and its time ("Still with Vodafone?" / "Three now, since June."),
and a return from a visit ("Back from a week in Oslo"). Each is read as the
statement it leaves unsaid, so the rules store it (``spoken.restore_subject``,
``cleaning.clean``, ``elided.elided``).

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: such a change replaces the old value as the statement with "I" would; another
person's thing, a possessive, a judgement and a question about something else stay as said.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.cleaning import clean
from element.agents.elided import elided
from element.agents.spoken import restore_subject
from index import MemoryStore
from tests.element.speaker import background_kept, current, tell, tell_after


# -- the statement left unsaid ----------------------------------------------------------------

@pytest.mark.parametrize("said,told", [
    ("Sober for six months now", "I have been sober for six months now"),
    ("Totally gluten-free for a year", "I have been totally gluten-free for a year"),
    ("New flat in Leith since March", "I have a new flat in Leith since March"),
    ("New role as deputy head, starting in June", "I have a new role as deputy head, starting "
                                                  "in June"),
    ("Back from a week in Oslo", "I am back from a week in Oslo"),
    ("At the Co-op these days, since June", "I am at the Co-op these days, since June"),
    ("With Octopus now, much cheaper", "I am with Octopus now, much cheaper"),
])
def test_a_dropped_subject_is_put_back(said: str, told: str) -> None:
    assert restore_subject(said) == told


@pytest.mark.parametrize("said", [
    "Oslo for a week",                   # a place, no state: no "now" says it still holds
    "New year in Oslo",                  # a time, not a thing the speaker has
    "New shoes from the market",         # plural: no "a"
    "New job at the bank is great",      # the noun phrase is the subject of a verb
    "New York is great",
    "Back in the day we had a van",
    "In May we moved, now it is quiet",  # a time, then a clause of its own
    "In March I joined Boots and now I manage it",
    "On nights now",                     # no name after the preposition
])
def test_what_is_no_dropped_subject_stays_as_said(said: str) -> None:
    assert restore_subject(said) == said


@pytest.mark.parametrize("said,told", [
    ("Computer's a ThinkPad now", "My computer is a ThinkPad now"),
    ("Grandma's in Hove these days", "My grandma is in Hove these days"),
    ("Dentist is Dr Shah now", "My dentist is Dr Shah now"),
    ("Commute is by tram now", "My commute is by tram now"),
    ("Work's at the Co-op these days", "My work is at the Co-op these days"),
    ("Dr Shah's the new dentist", "My new dentist is Dr Shah"),
    ("Nationwide is the bank now, since May", "My bank is Nationwide now, since May"),
])
def test_a_bare_noun_of_the_speakers_is_theirs(said: str, told: str) -> None:
    assert clean(said) == told


@pytest.mark.parametrize("said", [
    "Grandad's got a new Skoda",        # "has got": another person's thing
    "Grandma's car is a Fiat now",        # a possessive: the grandmother's car
    "Job's great now",                   # a judgement, no value
    "Car's a wreck these days",
    "Ravi's at Google now",              # a name, not a noun of the speaker's
    "Ravi's the manager",                # no "new", no "now": who it is, not a change
    "Grey is the new black",             # an idiom: no noun of the speaker's
])
def test_another_persons_thing_or_a_judgement_stays_as_said(said: str) -> None:
    assert clean(said) == said


@pytest.mark.parametrize("question,answer,told", [
    ("Still with Vodafone?", "Three now, since June.",
     "I am not with Vodafone anymore. I am with Three now, since June."),
    ("Are you still at the Co-op?", "Lidl these days. Better hours.",
     "I am not at the Co-op anymore. I am at Lidl these days. Better hours."),
    ("Where are you working now?", "Deliveroo, since the spring.",
     "I am working at Deliveroo now, since the spring."),
    ("Do you still live in Harrogate?", "Ripon now, since May.",
     "I do not live in Harrogate anymore. I live in Ripon now, since May."),
    ("Still driving the Astra?", "A Skoda Karoq these days.",
     "I am not driving the Astra anymore. I am driving a Skoda Karoq these days."),
    # A new activity told by its gerund is no thing in the frame ("on Cycling"); after
    # "in" a word in -ing is a place.
    ("Still on the bus?", "Cycling now, since March.",
     "I am not on the bus anymore. I am cycling now, since March."),
    ("Still in Slough?", "Reading now, since May.",
     "I am not in Slough anymore. I am in Reading now, since May."),
])
def test_an_answer_naming_only_the_new_value_is_written_in_the_questions_frame(
        question: str, answer: str, told: str) -> None:
    assert elided(answer, question) == told


@pytest.mark.parametrize("question,answer", [
    ("Nice weekend?", "Whitby, since Friday."),          # no frame to put it in
    ("Still with Vodafone?", "Vodafone, since 2019."),   # the same value said back
    ("Still with Vodafone?", "Yes, since 2019."),        # a reply word, no value
    ("Still together?", "Sam now, since June."),         # no verb or place to frame it in
    ("Where are you working now?", "Deliveroo."),        # no time: answered.fragment's
    (None, "Three now, since June."),
])
def test_an_answer_without_a_frame_or_a_new_value_stays_as_said(question: str | None,
                                                                 answer: str) -> None:
    assert elided(answer, question) == answer


@given(st.text(max_size=80), st.one_of(st.none(), st.text(max_size=60)))
def test_elided_never_loses_the_answer(answer: str, question: str | None) -> None:
    out = elided(answer, question)
    assert isinstance(out, str)
    if out != answer:
        assert answer.strip()[:1] and out.strip()


# -- on a real store ------------------------------------------------------------------------

@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,old,new", [
    ("I drive a Vauxhall Astra.", "Car's a Skoda Karoq now, much roomier.", "Astra", "Karoq"),
    ("I work at Boots.", "New job at Superdrug since Monday, early days.", "at Boots",
     "Superdrug"),
    ("I'm pescatarian.", "Fully vegetarian for two years now.", "pescatarian", "vegetarian"),
])
def test_a_change_without_i_replaces_the_old_value(store: Any, before: str, after: str,
                                                   old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now
    assert background_kept(now)


def test_an_answer_naming_only_the_new_value_ends_the_old(store: Any) -> None:
    from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
    from tests.element.speaker import SETTINGS, SUBJECT
    tell(store, "I'm with Vodafone for my phone.")
    obs = Observation((Turn("assistant", "Still with Vodafone?"),
                       Turn("user", "Three now, since June.")), SUBJECT, subject_name="Ana",
                      conversation_id="elided")
    observe(store, SETTINGS, obs, RuleEvaluator())
    now = current(store)
    assert "Three" in now and "with Vodafone for" not in now, now


def test_a_relatives_thing_told_so_replaces_nothing_of_the_speakers(store: Any) -> None:
    said = tell_after(store, "I drive a Vauxhall Astra.", "Grandad's got a new Skoda!")
    assert "supersede" not in said, current(store)
    assert "Astra" in current(store)
