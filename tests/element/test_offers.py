"""element/agents/offers.py: an offer of help to the other person, said or asked, is kept
as what the speaker did, naming whom it was offered to; help offered to someone else, help
asked of the listener, and any offer to an unnamed listener are none.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, strategies as st
import pytest

from element.agents.offers import listener, offer
from element.agents.rules import extract, statements
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import MemorySettings, MemoryStore


def _offers(text: str, who: str = "Ana", to: str | None = "Sam") -> list[str]:
    return [told for _, s, q in statements(text) if (told := offer(s, who, to, q))]


@pytest.mark.parametrize("said", [
    "I'm here for you.",
    "I've got your back, whatever happens.",
    "I could help you with the posters if you like.",
    "I'd be happy to pitch in on Saturday.",
    "I'll always be there for you.",
    "Let me know if I can help.",
    "Whenever you need a hand, just shout.",
    "Can I do anything to help?",
    "Is there any way I can help out with your move?",
    "I'd love to lend a hand with networking at future events.",
    "I would be happy to help with planning.",
])
def test_an_offer_to_the_listener_is_told_as_one(said):
    [told] = _offers(said)
    assert told.startswith("Ana offered to help and support Sam")


def test_the_offer_names_the_listener_where_the_speaker_says_you():
    [told] = _offers("I could help you with your garden next weekend.")
    assert "Sam's garden" in told and "you" not in told.split()


def test_an_asked_offer_keeps_what_it_is_about():
    assert _offers("Is there any way I can help with your bake sale?") == \
        ["Ana offered to help and support Sam with Sam's bake sale"]


@pytest.mark.parametrize("said", [
    "Can you help me with my CV?",
    "I'll help my sister move next week.",
    "I will support the kids through their exams.",
    "Can I ask you something?",
    "I can do that tomorrow.",
    "We could go to the lake.",
    "I love helping out at the shelter.",
    "I could help out at the shelter on Sunday.",
    "I will help with my sister's move.",
    "I'd love to help with planning my sister's wedding.",
])
def test_help_for_someone_else_or_asked_of_the_listener_is_no_offer(said):
    assert _offers(said) == []


@given(st.text(max_size=80))
def test_no_offer_without_a_named_listener(text):
    assert _offers(text, to=None) == []


def test_the_listener_is_the_one_other_name():
    assert listener(["Sam", "Sam"]) == "Sam"
    assert listener(["Sam", "Kim"]) is None
    assert listener([]) is None


def test_extract_keeps_one_offer_per_turn_and_the_rest_of_the_turn():
    found = extract("I'm here for you. Let me know if I can help. I live in Leeds.", 1, "Ana",
                    listener="Sam")
    assert [c.kind for c in found] == ["offer", "add"]
    assert found[0].key is None and found[1].key == "fact:location"


def test_an_offer_is_stored_and_a_repeat_is_not(tmp_path: Any, model: Any):
    """Said to Sam by name, the offer is remembered once; the same words again add none."""
    settings = MemorySettings()
    with MemoryStore(tmp_path / "m", model) as store:
        def say(text: str, cid: str) -> list[str]:
            obs = Observation((Turn("assistant", "Rough week, the move is chaos.", "Sam"),
                               Turn("user", text, "Ana")), ("guest", "ana"),
                              conversation_id=cid)
            return [d.action for d in observe(store, settings, obs, RuleEvaluator()).decisions]
        assert say("Oh no! I'm here for you, I could help you pack.", "a") == ["add"]
        assert say("Oh no! I'm here for you, I could help you pack.", "b") == ["nothing"]
        [memory] = store.list(subject_type="guest", subject_id="ana", limit=10)[0]
        assert memory["content"].startswith("Ana offered to help and support Sam")
