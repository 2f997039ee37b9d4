"""Endings the rules read in a new shape (issue 23): an answer's ending pointing back at
what the other speaker asked about (``answered.py``), the new value told in the sentence
after an ending (``afterwards.py``), a person's act that is theirs (``holders.py``), a
holiday that is a date (``named.py``), a dropped subject and hedges before "anymore"
(``endings.py``, ``retire.py``), a value told first (``inverted.py``). On both backends
with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.answered import answered
from element.agents.ending_grammar import endings
from element.agents.holders import holder_of
from element.agents.inverted import inverted
from element.agents.restated import introduced
from element.agents.rules import clean
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from tests.element.speaker import (BACKGROUND, SETTINGS, SUBJECT, background_kept, current,
                                   open_store, tell)


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "answered")


@pytest.mark.parametrize("question,answer,written", [
    ("How are things at Boots?", "Oh I left there in May, I'm at Superdrug now.",
     "Oh I left Boots in May, I'm at Superdrug now."),
    ("Are you still at the florist on King Street?", "No, I packed that in last year.",
     "No, I packed in the florist on King Street last year."),
    ("Still living in Croydon?", "I'm not there anymore, we moved to Bromley.",
     "I'm not in Croydon anymore, we moved to Bromley."),
    ("Do you still work for your uncle?", "I don't work there any more.",
     "I don't work for my uncle any more."),
    # A bare "not anymore" denies the question's "still": it tells no change of its own.
    ("Are you still going to spin class on Fridays?", "Not anymore.",
     "I am not going to spin class on Fridays anymore. Not anymore."),
    ("Do you still sing with the Bach choir?", "Nope, not any more.",
     "I do not sing with the Bach choir anymore. Nope, not any more."),
    # A thing asked after as the subject of how it goes.
    ("How's the bee-keeping course going?", "Gave it up in the end, too many stings.",
     "Gave up the bee-keeping course in the end, too many stings."),
    ("How is your darts league getting on?", "I packed that in ages ago.",
     "I packed in my darts league ages ago."),
    # A verb of going negated alone leaves its place to the question.
    ("See you at the climbing wall on Friday?", "I don't go anymore, my shoulder's gone.",
     "I don't go to the climbing wall on Friday anymore, my shoulder's gone."),
])
def test_an_answers_ending_names_what_the_question_asked(question: str, answer: str,
                                                         written: str) -> None:
    assert answered(answer, question) == written


@pytest.mark.parametrize("question,answer", [
    ("How are things at Boots?", "Yes, I was there all day."),    # no ending
    ("How's it going?", "I left that behind me."),                # the question names nothing
    (None, "I left there in May."),                               # no question
    # The answer tells the change itself: read as told.
    ("Are you still going to spin class?", "Not anymore, I moved to Cardiff."),
    # A person asked after is no thing the answer ends.
    ("How's your nephew doing?", "I gave it up last year."),
    # A verb with a meaning of its own leaves nothing to the question.
    ("Are you at the pub tonight?", "I don't drink anymore."),
])
def test_an_answer_that_ends_nothing_asked_is_left_as_said(question: str | None,
                                                           answer: str) -> None:
    assert answered(answer, question) == answer


def test_an_answer_leaving_the_place_asked_about_replaces_it(store: Any) -> None:
    for said in (*BACKGROUND, "I work at Boots on the high street."):
        tell(store, said)
    turns = (Turn("assistant", "How are things at Boots?"),
             Turn("user", "Oh I left there in May, I'm at Superdrug now."))
    obs = Observation(turns, SUBJECT, subject_name="Ana", conversation_id="answered")
    actions = [d.public()["action"]
               for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]
    assert "supersede" in actions, current(store)
    now = current(store)
    assert "works at Boots" not in now and "Superdrug" in now
    assert background_kept(now)


def test_the_new_value_after_an_ending_replaces_the_old_with_it(store: Any) -> None:
    for said in (*BACKGROUND, "I drive a Ford Fiesta."):
        tell(store, said)
    assert "supersede" in tell(store, "The Fiesta got written off on the motorway. I've "
                                      "been driving my mum's old Clio since."), current(store)
    now = current(store).split(" | ")
    replaced = [m for m in now if "written off" in m]
    assert replaced and "Clio" in replaced[0], now
    assert not any("drives a Ford Fiesta" in m for m in now)


@pytest.mark.parametrize("old,said,new", [
    ("I live in Sheffield.", "Sheffield is a closed chapter, we moved to York in April.",
     "York"),
    ("I work as a nurse.", "I stopped nursing last summer, I'm a librarian now.",
     "librarian"),
])
def test_one_turn_ending_the_old_value_and_giving_the_new_is_one_memory(
        store: Any, old: str, said: str, new: str) -> None:
    for told in (*BACKGROUND, old):
        tell(store, told)
    before = current(store).split(" | ")
    tell(store, said)
    now = current(store).split(" | ")
    fresh = [m for m in now if m not in before]
    # One current memory says the new value (with what ended); the old is kept for history.
    assert len(fresh) == 1 and new in fresh[0], now
    assert not any(m in now for m in before if m not in BACKGROUND and "food bank" not in m
                   and "Priya" not in m), now
    everything = store.list(subject_type=SUBJECT[0], subject_id=SUBJECT[1], limit=100,
                            include_superseded=True)[0]
    assert any(m["superseded_by"] for m in everything), everything


def test_anothers_statement_after_an_ending_is_not_the_new_value(store: Any) -> None:
    for said in (*BACKGROUND, "I drive a Ford Fiesta."):
        tell(store, said)
    tell(store, "The Fiesta got written off on the motorway. My brother drives a Clio.")
    assert not any("written off" in m and "Clio" in m for m in current(store).split(" | "))


@pytest.mark.parametrize("said,holder", [
    ("My husband has started at Lloyds in their legal team", "husband"),
    ("My daughter has just qualified as a vet", "daughter"),
    ("My manager has changed", ""),
    ("my manager is Dev", ""),
])
def test_a_persons_act_is_theirs_an_attribute_named_is_the_speakers(said: str,
                                                                    holder: str) -> None:
    assert holder_of(said) == holder


@pytest.mark.parametrize("said,thing", [
    ("Haven't touched a drop of wine since Easter.", "a drop of wine"),
    ("Never had a takeaway since the diet started.", "a takeaway"),
    ("Another mum has taken over the Brownies pack.", "the Brownies pack"),
    ("The gluten intolerance was a misdiagnosis.", "The gluten intolerance"),
])
def test_an_ending_in_a_new_shape_is_the_speakers(said: str, thing: str) -> None:
    """A dropped subject, another taking the speaker's place, a diagnosis never so."""
    assert [(e.thing, e.holder) for e in endings(clean(said))] == [(thing, "")]


@pytest.mark.parametrize("said", ["I took over the Brownies pack in May.",
                                  "Please don't eat my bread anymore."])
def test_taking_over_oneself_or_an_order_ends_nothing(said: str) -> None:
    assert endings(clean(said)) == []


def test_a_negated_habit_without_its_subject_is_the_speakers_ending() -> None:
    """Chat drops the subject: "Don't eat bread anymore." tells the speaker's own habit
    (``cleaning`` gives it back its "I"); an order says "please" or names no habit."""
    assert [(e.thing, e.holder) for e in endings(clean("Don't eat bread anymore."))] == \
        [("eat bread", "")]


def test_an_ending_dated_by_a_holiday_does_not_end_a_fact_of_that_holiday(store: Any) -> None:
    for said in (*BACKGROUND, "We always go carol singing on Christmas Eve."):
        tell(store, said)
    tell(store, "Haven't had a single biscuit since Christmas Eve, I feel great.")
    assert "carol singing on Christmas Eve" in current(store)


def test_hedges_and_a_reason_before_anymore_still_retire_the_habit(store: Any) -> None:
    for said in (*BACKGROUND, "I do Pilates three times a week."):
        tell(store, said)
    tell(store, "I don't really do the Pilates thing much because of my back anymore.")
    assert "Pilates three times a week" not in current(store)


@pytest.mark.parametrize("said,written", [
    ("Harrogate is where I live now.", "I live in Harrogate now."),
    ("Home is Harrogate these days, we love it.", "I live in Harrogate these days, we love it."),
    ("Harrogate's been home since the spring.", "I have lived in Harrogate since the spring."),
    ("Ripon's where we're based at the moment.", "We are based in Ripon at the moment."),
    ("Harrogate is home to a famous spa.", "Harrogate is home to a famous spa."),
    ("Home is where the heart is.", "Home is where the heart is."),
    ("The garage is where I work best.", "The garage is where I work best."),
])
def test_a_value_told_first_is_written_as_the_plain_statement(said: str, written: str) -> None:
    assert inverted(said) == written


def test_a_home_told_first_replaces_where_the_speaker_lived(store: Any) -> None:
    for said in (*BACKGROUND, "I live in Wakefield."):
        tell(store, said)
    assert "supersede" in tell(store, "Harrogate's been home since the spring."), \
        current(store)
    now = current(store)
    assert "Wakefield" not in now and "Harrogate" in now


@pytest.mark.parametrize("content,old,written", [
    ("The Corsa got written off in the floods.", "Ana drives a Vauxhall Corsa",
     "Ana's Corsa got written off in the floods."),
    ("The choir folded in May.", "Ana sings in a choir", "Ana's choir folded in May."),
    ("The Corsa got written off.", "Ana's brother drives a Corsa", "The Corsa got written off."),
])
def test_an_ending_of_the_speakers_thing_names_its_owner(content: str, old: str,
                                                         written: str) -> None:
    assert introduced(content, old, "Ana") == written


def test_a_short_statement_of_the_present_naming_a_value_is_kept(store: Any) -> None:
    """Replacing nothing the rules find, "Got a Yaris now" is still the speaker's news."""
    for said in (*BACKGROUND, "I ride a Honda scooter to work."):
        tell(store, said)
    tell(store, "Got a Yaris now.")
    assert "Yaris" in current(store)
