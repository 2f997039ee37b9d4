"""Statements of the speaker's own life that stored nothing (issue 23), stored as the facts
they are: news under a label ("Gym update: ...", "New job: ...", "new car!! ..."),
a habit of the household or of an uncommon verb ("We shop at Lidl", "I keep bees", "I
breed spaniels"), a diet taken up texted ("Gone fully vegan"), news carried by a question
("... now that I live here?", "the Samsung I got yesterday", "my new flat in York"), a
short answer with a clause after its comma ("Pilates now, my back likes it better"), and a
texted English turn once read as French by its "car".

The sentences are written for these tests (none is a case of ``bench/data``). What a user
relies on: the newer value exists (and replaces the old where it is one value); what is
chatter or another person's stays as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.habits import habit_verb_of
from element.agents.labelled import labelled
from element.agents.language import is_english
from element.agents.questioned import told_in_question
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import MemoryStore
from tests.element.speaker import BACKGROUND, SETTINGS, SUBJECT, current, tell, tell_after


@pytest.mark.parametrize("said,written", [
    ("Gym update: Bannatyne near work.", "My gym is now Bannatyne near work."),
    ("Home now: a little flat in Hove.", "My home is now a little flat in Hove."),
    ("Car update - bought a Tesla.", "bought a Tesla."),
    ("new car!! silver Honda Jazz, love it", "My new car is silver Honda Jazz, love it"),
    ("Big news: I'm a grandad!", "I'm a grandad!"),
])
def test_a_label_is_written_as_the_speakers_statement(said: str, written: str) -> None:
    assert labelled(said) == written


@pytest.mark.parametrize("said", [
    "Big news from my husband: new job at Rolls-Royce!",    # another's news
    "Mum: call me back",                                     # a person
    "Monday: gym",                                           # a time
    "Work: crazy busy",                                      # a judgement, no value
    "Wow! That is great",                                    # an exclamation
])
def test_what_is_no_label_stays_as_said(said: str) -> None:
    assert labelled(said) == said


@pytest.mark.parametrize("verb,obj,subject,habit", [
    ("keep", "bees", "i", True), ("keep", "chickens", "we", True),
    ("keep", "going", "i", False), ("keep", "it up", "i", False),
    ("breed", "spaniels", "i", True), ("walked", "the dog", "i", False),
    ("shop", "at Lidl", "we", True), ("make", "a great team", "we", False),
    ("push", "each other to improve", "we", False), ("are", "Lidl people", "we", False),
])
def test_which_verbs_tell_a_habit(verb: str, obj: str, subject: str, habit: bool) -> None:
    assert habit_verb_of(verb, obj, subject) is habit


@pytest.mark.parametrize("said,news", [
    ("What's the best way to meet people in Bristol now that I live here?",
     "I live in Bristol."),
    ("How do I move my photos over to the Samsung I got yesterday?",
     "I got the Samsung yesterday."),
    ("Any ideas for decorating my new flat in York?", "I have a new flat in York."),
    ("What should I pack for my first week at Aldi?", "My first week at Aldi."),
])
def test_a_question_carries_the_speakers_news(said: str, news: str) -> None:
    assert told_in_question(said) == f"{said} {news}"


@pytest.mark.parametrize("said", [
    "Have you been well since I last saw you?",     # the other person
    "Did you like the book I got you?",             # got for another
    "What do you think, as I said before?",         # saying
    "Any tips now that I live there?",              # where is not named
])
def test_a_question_of_no_news_stays_as_asked(said: str) -> None:
    assert told_in_question(said) == said


def test_texted_english_with_a_word_spelt_as_french_is_english() -> None:
    assert is_english("new car!! silver Honda Jazz, totally love it")
    assert is_english("Nope, Tesla Model Y since March.")
    assert not is_english("je suis très content avec mon chien")
    assert not is_english("ma ha detto che non viene")


# -- on a real store ------------------------------------------------------------------------

@pytest.fixture
def store(tmp_path: Path, model: Any) -> Iterator[Any]:
    with MemoryStore(tmp_path / "m", model) as opened:
        yield opened


@pytest.mark.parametrize("before,after,new", [
    ("I go to PureGym.", "Gym update: The Gym Group by the station, half the price.",
     "Gym Group"),
    ("I work as a waiter at Nando's.", "New job: barista at Pret.", "Pret"),
    ("I keep hens.", "I keep bees now.", "bees"),
    ("I shop at Tesco.", "We shop at Lidl.", "Lidl"),
    ("I'm vegetarian.", "Gone totally vegan since Easter.", "vegan"),
    ("I live in Leeds.", "Any tips for getting around Bristol now that I've moved here?",
     "Bristol"),
    ("I use an iPhone.", "How do I set up WhatsApp on my new Pixel?", "Pixel"),
    ("I drive a Ford Fiesta.", "new car!! silver Honda Jazz, love it to bits", "Honda"),
])
def test_the_newer_value_is_stored(store: Any, before: str, after: str, new: str) -> None:
    actions = tell_after(store, before, after)
    assert set(actions) & {"add", "supersede"}, (actions, current(store))
    assert new in current(store), current(store)


@pytest.mark.parametrize("question,answer,old,new", [
    ("Are you still going to Zumba on Fridays?", "Spin now, my knees prefer it.",
     "Zumba", "Spin"),
    ("Where do you live these days?", "Harrogate, moved in June.", "Leeds", "Harrogate"),
    ("Did the house move happen?", "It did, we're in the Ripon place now and loving it.",
     "Leeds", "Ripon"),
])
def test_a_short_answer_with_a_clause_stores_its_value(store: Any, question: str, answer: str,
                                                      old: str, new: str) -> None:
    before = "I do Zumba on Friday nights." if old == "Zumba" else "I live in Leeds."
    for said in (*BACKGROUND, before):
        tell(store, said)
    obs = Observation((Turn("assistant", question), Turn("user", answer)), SUBJECT,
                      subject_name="Ana", conversation_id="answer")
    observe(store, SETTINGS, obs, RuleEvaluator())
    now = current(store)
    assert new in now, now


@pytest.mark.parametrize("before,after,old,new", [
    ("I play the violin.", "Learning the banjo as well, just for a laugh.", "violin", "banjo"),
    ("I grow carrots in the garden.", "We grow beans there too now, heaps of them.",
     "carrots", "beans"),
])
def test_an_addition_keeps_both(store: Any, before: str, after: str, old: str,
                                new: str) -> None:
    assert "supersede" not in tell_after(store, before, after), current(store)
    now = current(store)
    assert old in now and new in now, now


def test_another_persons_labelled_news_is_not_the_speakers(store: Any) -> None:
    tell_after(store, "I work at the Royal Infirmary.",
               "Big news from my husband: new job at Rolls-Royce, starts Monday!")
    assert "Royal Infirmary" in current(store), current(store)
