"""A change told as people text it, without "I": an irregular past ("Sold the motorbike to a
mate"), a base verb and a time that says it holds now ("Work for Arup now", "Speak some
Welsh as well these days"), a standing ("Vegan now"), a belonging ("Member of the Y since
March"), "done with", the speaker's new thing or one of theirs with where it is ("New flat
in Leith has a balcony", "Job at Arup since May"), news of someone the speaker knows
by name ("Marta moved to Porto"), a request to amend a record of theirs ("Update my
employer to Arup"), and a new value named alone after the change ("Sold the Corsa. Kia
Ceed now").
Each is read as the statement it leaves unsaid (``spoken.restore_subject``,
``cleaning.clean``, ``news_of.named_news``), with the tense of a verb from one table of the
irregular verbs (``irregular.py``).

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: such a change is stored and replaces the old value as the statement with "I"
would; an order, a noun subject and a name followed by its own verb stay as said.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, strategies as st

from element.agents.carriers import past_of
from element.agents.cleaning import clean, statements
from element.agents.episode_words import AMBIGUOUS_PAST, PAST
from element.agents.facts import PAST_TENSE
from element.agents.irregular import BASES, IRREGULAR, PASTS, past_of_base
from element.agents.news_of import named_news
from element.agents.spoken import restore_subject
from index import MemoryStore
from tests.element.speaker import background_kept, current, tell, tell_after


# -- one table of the irregular verbs ---------------------------------------------------------

def test_the_past_tables_are_the_one_table() -> None:
    assert PAST_TENSE == PASTS
    assert PAST | AMBIGUOUS_PAST == PASTS and not PAST & AMBIGUOUS_PAST
    assert {"sold", "lost", "bought", "took", "spent", "came"} <= PAST
    assert {"put", "quit", "let", "read"} <= AMBIGUOUS_PAST


@given(st.sampled_from(sorted(IRREGULAR)))
def test_every_irregular_base_has_its_past(base: str) -> None:
    past = past_of_base(base)
    assert past in PASTS and past in IRREGULAR[base][0]


@pytest.mark.parametrize("ing,past", [("selling", "sold"), ("losing", "lost"),
                                      ("swimming", "swam"), ("stealing", "stole")])
def test_a_gerund_has_its_irregular_past(ing: str, past: str) -> None:
    assert past_of(ing) == past


def test_a_regular_verb_is_no_irregular_base() -> None:
    assert past_of_base("move") is None and "move" not in BASES


# -- the statement left unsaid ----------------------------------------------------------------

@pytest.mark.parametrize("said,told", [
    ("Sold the campervan to a neighbour", "I sold the campervan to a neighbour"),
    ("Lost the allotment in the spring", "I lost the allotment in the spring"),
    ("Got lost near Whitby", "I got lost near Whitby"),            # "got" and its passive
    ("Work for Arup now, since the summer", "I work for Arup now, since the summer"),
    ("Speak some Welsh as well these days", "I speak some Welsh as well these days"),
    ("Drive a Mini these days", "I drive a Mini these days"),
    ("Swim at the lido instead", "I swim at the lido instead"),
    ("Live in Falmouth since June", "I live in Falmouth since June"),
    ("Pescatarian these days", "I am pescatarian these days"),          # a standing
    ("Divorced as of March", "I am divorced as of March"),
    ("Done with the rowing club", "I am done with the rowing club"),    # an ending
    ("Member of the Y since March", "I am a member of the Y since March"),
    ("Part of the Arup team now", "I am part of the Arup team now"),
    ("Brand new job at Arup", "I have a brand new job at Arup"),
    ("Over at Arup these days", "I am over at Arup these days"),
    ("Six months at Arup now", "I have been at Arup for six months now"),
    ("Two weeks into the Arup job", "I am two weeks into the Arup job"),
    ("Loving the new flat in Truro", "I am loving the new flat in Truro"),
    ("Guess who works at Arup now", "I work at Arup now"),          # the speaker, as a riddle
    ("Guess who's a homeowner", "I am a homeowner"),
])
def test_a_dropped_subject_before_a_verb_is_put_back(said: str, told: str) -> None:
    assert restore_subject(said) == told


@pytest.mark.parametrize("said", [
    "Rose got a job at the bank",      # a name that is a past: its own verb follows
    "Go to bed now",                   # an order: no name before "now"
    "Take care now",
    "Do it now",                       # a pronoun for the object
    "Eat your dinner these days",      # said to "you"
    "Work is mad these days",          # a noun subject with its verb
    "Spin got cancelled tonight so I ran instead",
    "Drive to work takes an hour now",
    "Let me know",
    "Done with it",                    # what is done is said before
    "Member of staff said no",         # the subject of a verb
    "Part of the problem is money",
    "Six months at the gym now",       # no name: where is not told
    "Loving the colours",              # praise of what the other shared
    "Amazing the difference it makes",  # an adjective before "the"
])
def test_a_name_an_order_or_a_noun_subject_stays_as_said(said: str) -> None:
    assert restore_subject(said) == said


@pytest.mark.parametrize("said,told", [
    ("New flat in Leith has a balcony", "My new flat in Leith has a balcony"),
    ("New job at Arup is busy", "My new job at Arup is busy"),
])
def test_the_speakers_new_thing_and_where_it_is_are_theirs(said: str, told: str) -> None:
    assert clean(said) == told


@pytest.mark.parametrize("said,told", [
    ("Job at Arup since May", "My job is at Arup since May"),
    ("Kids at St Ives Primary now", "My kids are at St Ives Primary now"),
    ("Work at Arup since May", "I work at Arup since May"),       # a verb's base first
    ("Phone number changed to 07700 900777", "My phone number is 07700 900777"),
    ("Surname's Okafor now, since the wedding", "My surname is Okafor now, since the wedding"),
])
def test_a_bare_noun_of_the_speakers_and_where_it_is_now_are_theirs(said: str,
                                                                    told: str) -> None:
    assert clean(said) == told


@pytest.mark.parametrize("said", ["New York is great", "New year in Oslo was wild",
                                  "Job at Arup is hard now", "The name changed to Bob",
                                  "Her number changed to 07700 900777"])
def test_a_name_or_a_time_after_new_stays_as_said(said: str) -> None:
    assert clean(said) == said


@pytest.mark.parametrize("said,told", [
    ("Update my employer to Arup", "My employer is Arup"),
    ("Please change the address on file to 9 Mill Lane, Truro",
     "My address is 9 Mill Lane, Truro"),
    ("Could you update my surname to Okafor?", "My surname is Okafor"),
    ("Change my gym to the Y please", "My gym is the Y"),
])
def test_a_request_to_amend_a_record_tells_its_new_value(said: str, told: str) -> None:
    assert [s for _, s, asks in statements(said) if not asks] == [told]


@pytest.mark.parametrize("said", ["Change the channel to BBC Two", "Set a reminder to call Jo",
                                  "Send post to the Truro address from now on"])
def test_a_request_about_no_record_of_the_speakers_stays_as_said(said: str) -> None:
    assert "My " not in " ".join(s for _, s, _ in statements(said))


def test_a_reply_phrase_before_the_news_is_no_part_of_it() -> None:
    assert [s for _, s, _ in statements("No idea, been at Arup since May.")] == \
        ["I have been at Arup since May"]


@pytest.mark.parametrize("said,news", [
    ("Marta moved to Porto in May", True),
    ("Idris got a flat in Cardiff", True),
    ("Marta said she loved Porto", False),      # reports, the news is hers to tell
    ("Marta moved in May", False),             # no place or thing named
    ("Apple released a phone in May", False),  # "in May" is a time, no place
    ("Then went to Porto", False),             # no name opens it
])
def test_news_of_someone_named(said: str, news: bool) -> None:
    assert named_news(said) is news


@given(st.sampled_from(["Work for", "Speak", "Drive", "Play", "Drink"]),
       st.sampled_from(["Acme", "a bit of Welsh", "the Red Lion team"]),
       st.sampled_from(["these days", "as well", "every week", "nowadays"]))
def test_a_base_verb_with_a_habits_time_is_the_speakers(verb: str, what: str, when: str) -> None:
    said = f"{verb} {what} {when}"
    assert restore_subject(said) == f"I {said[:1].lower()}{said[1:]}"


# -- on a real store ------------------------------------------------------------------------

@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,old,new", [
    ("I work at Boots.", "Work for Superdrug now, since the spring.", "at Boots", "Superdrug"),
    ("I live in Leith.", "New flat in Portobello has a sea view.", "in Leith", "Portobello"),
])
def test_a_change_texted_without_i_replaces_the_old_value(store: Any, before: str, after: str,
                                                          old: str, new: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert new in now and old not in now
    assert background_kept(now)


def test_a_value_named_alone_after_a_change_is_kept_with_it(store: Any) -> None:
    tell(store, "I drive a Vauxhall Corsa.")
    assert "supersede" in tell(store, "Sold the Corsa in June. Kia Ceed now, much comfier.")
    now = current(store)
    assert "Kia Ceed" in now and "drives a Vauxhall Corsa" not in now, now


def test_news_of_someone_named_is_kept_beside_the_speakers_own(store: Any) -> None:
    tell(store, "I live in Leith.")
    assert "add" in tell(store, "Idris got a flat in Cardiff. Big step for him.")
    now = current(store)
    assert "Cardiff" in now and "Leith" in now
