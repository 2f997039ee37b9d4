"""element/agents/polarity.py: the speaker saying, of the present, the opposite of a memory
of theirs ends it, in words no cue list holds; a double negative, a past episode, a plan,
another person's negation or another thing of the same kind ends nothing. On both backends
with the real model.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from element.agents.polarity import (_elliptical, _held_clauses, _polar_clauses, _topic,
                                     negated, now_span)
from element.agents.rules import clean
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from tests.element.speaker import (BACKGROUND, SETTINGS, SUBJECT, current, open_store, tell,
                                   tell_after)


@pytest.mark.parametrize("clause,polarity", [
    ("I haven't set foot in a pub since Easter", True),
    ("I've not touched the piano for ages", True),
    ("Not one biscuit in three weeks", True),
    ("Peanuts are fine for me these days", False),
    ("Zero takeaways for me since the new year", True),
    # A negated verb of lacking or ending affirms.
    ("I haven't missed a parkrun in months", False),
    ("I can't stop knitting these days", False),
    # The negative quantifier "none" negates; "none other than" names.
    ("None for me these days", True),
    ("It was none other than my old teacher", False),
])
def test_polarity_is_read_by_the_closed_class_of_negators(clause, polarity):
    assert negated(clause) is polarity


@pytest.mark.parametrize("clause,now", [
    ("I haven't set foot in a pub since Easter", True),
    ("I don't cycle to work these days", True),
    ("I didn't cycle to work last week", False),     # an episode, not the present
    ("I couldn't make the rehearsal on Tuesday", False),
    ("I cycle to work", False),                      # no word of a span up to now
])
def test_the_present_is_a_span_up_to_now_not_an_episode(clause, now):
    assert now_span(clause) is now


@pytest.mark.parametrize("said", [
    "My brother hasn't smoked in years.",               # another person's
    "I'm thinking of not renewing the allotment next year.",   # a plan
    "Haven't you been to the pottery class since June?",  # a question
])
def test_another_persons_plan_or_question_has_no_clause_of_the_speakers_present(said):
    assert _polar_clauses(said) == []


_NEGATION = st.sampled_from(["haven't", "have not", "don't", "never"])
_ACT = st.sampled_from(["played the banjo", "been to the allotment", "eaten red meat",
                        "touched a cigarette", "worn a watch"])
_SPAN = st.sampled_from(["since the spring", "in months", "for ages", "these days"])


@given(_NEGATION, _ACT, _SPAN, st.sampled_from(["My sister", "My husband", "Our neighbour"]))
def test_a_persons_negated_present_is_never_the_speakers(negation, act, span, person):
    """The same negation of the present is the speaker's with "I" and never with a person
    of theirs as the subject."""
    assert [n for _, n in _polar_clauses(f"I {negation} {act} {span}.")] == [True]
    assert _polar_clauses(f"{person} {negation} {act} {span}.") == []


@given(_NEGATION, _ACT, _SPAN, st.sampled_from(["My sister", "My husband", "Our neighbour"]))
def test_a_persons_negated_present_is_read_as_theirs(negation, act, span, person):
    """A person of the speaker's saying how things stand for them: their clause, never the
    speaker's (only their memories can be meant)."""
    held = _held_clauses(f"{person} {negation} {act} {span}.")
    assert [(negative, holder) for _, negative, holder in held] == \
        [(True, person.split()[-1].lower())]


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "polarity")


def test_a_negation_of_the_present_retires_the_memory_it_negates(store):
    """"No flare-ups around dogs for a couple of years now" after "I'm allergic to
    dogs": told as its opposite, the allergy is no longer current; the background is."""
    tell_after(store, "I'm allergic to dogs.",
               "Funnily enough I've had no flare-ups around dogs for a couple of years now.")
    now = current(store)
    assert "allergic to dogs" not in now
    assert "food bank" in now and "Priya" in now


def test_an_affirmation_now_retires_the_memory_of_doing_without(store):
    for text in (*BACKGROUND, "I can't eat peanuts, they make me ill."):
        tell(store, text)
    assert "cannot eat peanuts" in current(store)
    tell(store, "The clinic did a food challenge, so peanuts are fine for me now.")
    assert "cannot eat peanuts" not in current(store)


def test_an_affirmation_of_another_thing_keeps_the_memory_of_doing_without(store):
    """"Crisps are fine for me now" names nothing "I can't eat peanuts" does without."""
    for text in (*BACKGROUND, "I can't eat peanuts, they make me ill."):
        tell(store, text)
    tell(store, "Crisps are fine for me now, the salt was the problem.")
    assert "cannot eat peanuts" in current(store)


@pytest.mark.parametrize("before,after", [
    ("I do the parkrun every Saturday.", "I haven't missed a parkrun in months."),
    ("I do the parkrun every Saturday.", "My husband hasn't run a parkrun in years."),
    ("I do the parkrun every Saturday.", "I didn't do the parkrun last week, I was ill."),
    ("I'm a member of the rugby club.", "I haven't been to the squash club since the spring."),
    ("I cycle to work.", "My husband doesn't cycle to work anymore."),
    ("I live in Lyon.", "I haven't been to Paris in years."),
])
def test_a_double_negative_anothers_an_episode_or_another_thing_keeps_the_memory(
        store, before, after):
    tell_after(store, before, after)
    kept = before.replace("I do", "Ana does").replace("I'm", "Ana is") \
        .replace("I cycle", "Ana cycles").replace("I live", "Ana lives").rstrip(".")
    assert kept in current(store), current(store)


def _answer(store: Any, question: str, answer: str) -> None:
    obs = Observation((Turn("assistant", question), Turn("user", answer)), SUBJECT,
                      subject_name="Ana", conversation_id=question)
    observe(store, SETTINGS, obs, RuleEvaluator())


def test_an_elliptical_negated_answer_ends_what_the_question_asked(store):
    """"Do you still play the viola in the quartet?" / "Haven't been in months": the answer
    negates the question's predicate; the memory is told as no longer holding."""
    for text in (*BACKGROUND, "I play the viola in a string quartet."):
        tell(store, text)
    _answer(store, "Do you still play the viola in the quartet?",
            "Haven't played in months, my wrist went.")
    now = current(store)
    assert "Ana plays the viola in a string quartet" not in now
    assert "no longer plays the viola in a string quartet" in now
    assert "food bank" in now and "Priya" in now


def test_an_elliptical_answer_to_a_question_about_another_thing_ends_nothing(store):
    for text in (*BACKGROUND, "I play the viola in a string quartet."):
        tell(store, text)
    _answer(store, "Have you been to the new Thai place?", "Haven't been in months.")
    assert "Ana plays the viola in a string quartet" in current(store)


@pytest.mark.parametrize("turn,answer,topic", [
    ("Crisps? None for me these days, I'm watching the salt.",
     "None for me these days, I'm watching the salt.", "Crisps"),
    ("Red wine? Haven't touched it in months.", "Haven't touched it in months.", "Red wine"),
    # A question with a verb or a pronoun is no topic put for the speaker's own answer.
    ("Do you like crisps? None for me these days.", "None for me these days.", None),
    ("What about it? None for me these days.", "None for me these days.", None),
    # The topic is the sentence just before the answer.
    ("Crisps? I love them. None for me these days though.", "None for me these days though.",
     None),
])
def test_a_topic_put_as_a_bare_question_is_what_the_speakers_answer_is_about(turn, answer,
                                                                            topic):
    assert _topic(turn, clean(answer)) == topic


@pytest.mark.parametrize("answer,elliptical", [
    ("None for me these days, I'm watching the salt", True),
    ("Haven't touched it in months", True),
    ("Not anymore", True),
    ("Love it, still have a glass most nights", False),
    ("Never touched it", False),             # no span up to now: a past, not an ending
])
def test_the_speakers_answer_to_their_own_topic_leaves_its_predicate_to_it(answer,
                                                                          elliptical):
    assert _elliptical(clean(answer), answered=False) is elliptical


def test_a_topic_answered_with_a_negation_ends_the_memory_it_names(store):
    """"Crisps? None for me these days": the speaker puts the topic as a question and
    answers it; the memory nearest the topic is told as no longer holding."""
    for text in (*BACKGROUND, "I eat a packet of crisps every day."):
        tell(store, text)
    tell(store, "Crisps? None for me these days, I'm watching the salt.")
    now = current(store)
    assert "Ana eats a packet of crisps every day" not in now
    assert "no longer eats a packet of crisps every day" in now
    assert "food bank" in now and "Priya" in now


@pytest.mark.parametrize("said", [
    "Crisps? Love them, I still have a packet most days.",
    "Olives? None for me these days, never liked them.",
])
def test_a_topic_affirmed_or_of_another_thing_keeps_the_memory(store, said):
    for text in (*BACKGROUND, "I eat a packet of crisps every day."):
        tell(store, text)
    tell(store, said)
    assert "Ana eats a packet of crisps every day" in current(store)


def test_a_persons_negation_of_the_present_ends_their_memory_not_the_speakers(store):
    """"My husband doesn't cycle to work these days" ends his memory, never the speaker's
    own cycling."""
    for text in (*BACKGROUND, "I cycle to work.", "My husband cycles to work."):
        tell(store, text)
    tell(store, "My husband doesn't cycle to work these days, his knee is bad.")
    now = current(store)
    assert "husband cycles to work" not in now
    assert "Ana cycles to work" in now
