"""Changes read by their grammar, whatever the verb, and their controls
(``element/agents/cues.py``, ``ages.py``, ``inverted.py``), on a file store with the real
model: a change done to the speaker in the passive ("I got moved onto days"), a change as a
noun after a light verb ("made the switch to"), an age reached with any verb of the past
("Reuben hit seven"), a cleft ("it's the Rovers I play for now", "a Kia is what I drive
these days"); and what must keep the stored fact: a stay counted out ("staying at my
brother's for a fortnight"), a past period with its length ("I lived in York for two
years"), a count that is no age ("Reuben scored seven" after he is seven). The sentences are
written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ages import reached, years
from element.agents.answered import answered
from element.agents.cues import bounded, signals
from element.agents.inverted import inverted
from element.agents.role_noun import role_value
from tests.element.speaker import tell_after, background_kept, current, open_store


@pytest.mark.parametrize("said,plain", [
    ("It's the Rovers I play for now.", "I play for the Rovers now."),
    ("Two mornings a week is all I do now, for the moment.",
     "I do two mornings a week now, for the moment."),
    ("What I drive these days is a Kia.", "I drive a Kia these days."),
    # Not clefts of a value: a time, a judgement, a clause.
    ("It's been ages since I went.", "It's been ages since I went."),
    ("It's odd I never noticed.", "It's odd I never noticed."),
    # an interjection before it is kept and read past
    ("Yep, Lisbon is home now.", "Yep, I live in Lisbon now."),
    ("Oh wow, what I drive these days is a Kia!", "Oh wow, I drive a Kia these days!"),
    ("Yeah.", "Yeah."),
])
def test_a_cleft_is_read_as_its_plain_statement(said: str, plain: str) -> None:
    assert inverted(said) == plain


@pytest.mark.parametrize("sentence,found", [
    ("Reuben hit seven on Friday.", ("Reuben", "seven")),
    ("Nana reached eighty-one last week.", ("Nana", "eighty-one")),
    ("Reuben turns seven next week.", None),      # not yet
    ("Reuben is turning seven.", None),
    ("Reuben scored seven in the match.", None),  # a count of something
])
def test_an_age_reached_is_read_with_any_verb(sentence: str,
                                              found: tuple[str, str] | None) -> None:
    assert reached(sentence) == found


def test_ages_said_in_words_are_numbers() -> None:
    assert [years(a) for a in ("7", "seven", "eighty-one", "ninety", "lots")] == \
        [7, 7, 81, 90, None]


@pytest.mark.parametrize("sentence,span", [
    ("I'm staying at my brother's in Hull for a fortnight.", True),
    ("I lived in York for two years after uni.", True),
    ("I've lived in York for two years.", False),      # still so
    ("I've been staying in Hull for a few weeks now.", False),
    # What came after the span is told: a change, not a past period.
    ("I was at Barclays for six years before I joined Monzo.", False),
])
def test_a_span_with_an_end_is_not_the_present(sentence: str, span: bool) -> None:
    assert bounded(sentence) is span
    assert signals(sentence).not_now is span


@pytest.mark.parametrize("sentence", ["I got moved onto the early shift.",
                                      "Made the switch to Starling in May."])
def test_a_change_done_or_named_is_a_strong_cue(sentence: str) -> None:
    assert signals(sentence).strong


@pytest.mark.parametrize("sentence,found", [
    ("Honestly, oat milk has become my favourite creamer.",
     ("favourite creamer", "oat milk", True)),
    ("my usual barber is Kemal", ("usual barber", "Kemal", False)),
    ("Dr Patel is our dentist now.", ("dentist", "Dr Patel", True)),
    ("my boss is on leave now", None),          # where someone is, no value
    ("This is my favourite cafe.", None),       # a pronoun, no value
])
def test_a_role_noun_and_its_value_are_read_either_way_round(
        sentence: str, found: tuple[str, str, bool] | None) -> None:
    assert role_value(sentence) == found


@pytest.mark.parametrize("said,plain", [
    ("So I'm officially a solicitor now.", "So I'm a solicitor now."),
    ("I'm hardly a chef.", "I'm hardly a chef."),    # a hedge changes what is said
])
def test_a_stance_adverb_is_dropped_for_reading(said: str, plain: str) -> None:
    assert inverted(said) == plain


@pytest.mark.parametrize("question,answer,said", [
    ("Who's your dentist these days?", "Dr Quayle. Mr Burns retired.",
     "My dentist is Dr Quayle these days. Mr Burns retired."),
    ("Where's your studio now?", "Salford.", "My studio is in Salford now."),
    ("What's your view on it?", "No idea.", "No idea."),      # no thing of one's own
])
def test_a_fragment_answering_what_a_thing_of_yours_is_is_said_whole(
        question: str, answer: str, said: str) -> None:
    assert answered(answer, question) == said


@pytest.mark.parametrize("sentence,strong", [
    ("I have gone over to Hull FC since the move.", True),
    ("I have gone over to my sister's for the weekend.", False),   # a visit
    ("I have gone over to see Mum.", False),
])
def test_sides_changed_is_a_change_not_a_visit(sentence: str, strong: bool) -> None:
    assert signals(sentence).strong is strong


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "grammar")


@pytest.mark.parametrize("before,after,old", [
    ("My grandson Reuben is six.", "Reuben hit seven on Friday, cake everywhere.", "is six"),
    ("I play for Hilltop United.", "It's the Rovers I play for now.", "Hilltop"),
    ("I drive a Ford Focus.", "Made the switch to a Kia Niro in May, the mileage is great.",
     "Focus"),
    ("I work two days a week.", "Three days a week is all I do now.", "two days"),
    ("My favourite biscuit is a bourbon.", "Sorry, but the jammie dodger has become my "
     "favourite biscuit.", "bourbon"),
    ("I'm a trainee solicitor at a firm in Bury.", "Passed my exams, so I'm officially a "
     "solicitor now.", "trainee"),
    ("My team leader is Gwen.", "I've been moved under Farid after the merger.", "Gwen"),
])
def test_a_change_in_its_grammar_supersedes(store: Any, before: str, after: str,
                                            old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now and background_kept(now)


@pytest.mark.parametrize("before,after,kept", [
    ("I live in Derby.", "I'm staying at my brother's in Hull for a fortnight.", "Derby"),
    ("I live in Derby.", "Years ago I lived in York for two years.", "Derby"),
    ("I live in Derby.", "Back in my twenties I lived in York for two years.", "Derby"),
    ("My grandson Reuben is six.", "Reuben turns seven next week.", "is six"),
    ("I'm vegetarian.", "I did the carnivore diet for a month years ago, never again.",
     "vegetarian"),
    ("My favourite biscuit is a bourbon.", "My brother says his favourite biscuit is a "
     "jammie dodger now.", "bourbon"),
    ("My team leader is Gwen.", "I work under pressure now.", "Gwen"),
])
def test_a_stay_a_past_period_or_a_coming_age_keeps_the_fact(store: Any, before: str,
                                                             after: str, kept: str) -> None:
    assert "supersede" not in tell_after(store, before, after)
    assert kept in current(store)
