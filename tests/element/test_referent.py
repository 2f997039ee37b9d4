"""A turn opening on "he", "they" or "it" is stored with what the pronoun names, when the
turn or the other speaker's turn before it names exactly one such thing (``referent.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from element.agents.bare import bare_opening
from element.agents.episodes import Episode
from element.agents.referent import referred
from element.agents.subconscious import RuleEvaluator, observe, parse_observation
from index import HashingEmbedder, MemorySettings, MemoryStore

NAMES = ["Ana", "Gina"]


@pytest.mark.parametrize("turn,asked,told", [
    # a person the other speaker named
    ("He hid his bone in my slipper once!", "What's the funniest thing Oliver's done?",
     "Oliver hid his bone in my slipper once!"),
    # ... or an earlier sentence of the turn, dropped as a judgement
    ("Oliver's hilarious! He hid his bone in my slipper once!", "Any news?",
     "Oliver's hilarious! Oliver hid his bone in my slipper once!"),
    # a group the other speaker named, in the speaker's words ("your" is "my")
    ("Thanks! They were scared but we reassured them.",
     "Your kids look so cute! How did they handle the accident?",
     "Thanks! My kids were scared but we reassured them."),
    # a group the turn named before
    ("I told my family and friends about it. They have been supportive.", None,
     "I told my family and friends about it. My family and friends have been supportive."),
    # the thing a question asks about
    ("It was great, the band played all night.", "How was the concert?",
     "The concert was great, the band played all night."),
    ("It was chaotic when we arrived, but we pulled together.",
     "Wow! What was it like being part of that rescue mission?",
     "Being part of that rescue mission was chaotic when we arrived, but we pulled "
     "together."),
    ("It's going well, we signed two clients.", "How's the new business going?",
     "The new business is going well, we signed two clients."),
])
def test_an_opening_pronoun_is_told_by_what_it_names(turn: str, asked: str | None,
                                                      told: str) -> None:
    assert referred(turn, asked, NAMES) == told


@pytest.mark.parametrize("turn,asked", [
    # "it" of a judgement to come, of time or weather: it names nothing
    ("It's great to see you again!", "How was the concert?"),
    ("It's been a while since we talked.", "How was the concert?"),
    # two people named: which one is "he"?
    ("He said yes!", "Did Tom or Sam call you back?"),
    # the people talking are no referent
    ("She was right about it.", "Gina told me you moved."),
    # nothing asked about
    ("It was amazing!", "That looks amazing! What inspired it?"),
    # the speaker's own topic before: not the other's question
    ("I went to a gig last night. It was loud.", "How was the concert?"),
    # "they" of a plural that is talk, not a group
    ("They mean a lot.", "Thanks for your kind words!"),
    # "their" things belong to someone a pronoun names already
    ("I joined an online group. Their stories are moving. They opened my eyes.", None),
])
def test_an_opening_pronoun_naming_nothing_clear_stays(turn: str, asked: str | None) -> None:
    assert referred(turn, asked, NAMES) == turn


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "m", HashingEmbedder(256)) as s:
        yield s


def test_the_memory_names_what_the_pronoun_stood_for(store: MemoryStore) -> None:
    """Stored as said, the memory would open on "He": its reader could not tell who."""
    obs = parse_observation({"turns": [
        {"role": "assistant", "name": "Gina",
         "content": "He's so cute! What's the funniest thing Oliver has done?"},
        {"role": "user", "name": "Ana",
         "content": "He hid his bone in my slipper last week and chewed my new shoes!"}],
        "subject_type": "guest", "subject_id": "ana"})
    decisions = observe(store, MemorySettings(), obs, RuleEvaluator()).decisions
    contents = [store.get(d.memory_id)["content"] for d in decisions if d.action == "add"]
    assert contents == ["Oliver hid his bone in Ana's slipper last week and chewed their new "
                        "shoes."]


def test_a_turn_going_on_about_the_last_one_still_continues_it(store: MemoryStore) -> None:
    """"They signed it" after the speaker's own news is more of that news (``follow.py``),
    not a memory of its own, though the question before it names a group."""
    first = parse_observation({"turns": [
        {"role": "user", "name": "Ana",
         "content": "My teammates gave me a signed jersey when I left the club last week."}],
        "subject_type": "guest", "subject_id": "ana"})
    [added] = observe(store, MemorySettings(), first, RuleEvaluator()).decisions
    assert added.action == "add"
    more = parse_observation({"turns": [
        {"role": "user", "name": "Ana",
         "content": "My teammates gave me a signed jersey when I left the club last week."},
        {"role": "assistant", "name": "Gina", "content": "Aww, did your teammates sign it?"},
        {"role": "user", "name": "Ana",
         "content": "They signed it to show their friendship and appreciation."}],
        "subject_type": "guest", "subject_id": "ana"})
    decisions = observe(store, MemorySettings(), more, RuleEvaluator()).decisions
    assert [d.action for d in decisions if d.action != "nothing"] in (["update"], [])
    assert len(store) == 1


def test_a_memory_does_not_open_on_it_naming_nothing_found(store: MemoryStore) -> None:
    """"It really helps me reset" after a remark naming nothing asked: the memory opens on
    what the turn tells of the speaker instead (``bare.py``)."""
    obs = parse_observation({"turns": [
        {"role": "assistant", "name": "Gina", "content": "Glad you got some rest, huh?"},
        {"role": "user", "name": "Ana", "content": "Absolutely! It really helps me reset and "
         "recharge. I love camping trips with my family in the Lake District."}],
        "subject_type": "guest", "subject_id": "ana"})
    decisions = observe(store, MemorySettings(), obs, RuleEvaluator()).decisions
    contents = [store.get(d.memory_id)["content"] for d in decisions if d.action == "add"]
    assert contents and all(not c.startswith("It ") for c in contents)
    assert any("camping trips" in c for c in contents)


@pytest.mark.parametrize("sentence,bare", [
    ("It really helps me reset and recharge", True),
    ("It was made for a local church", True),
    # "it" before what it is names the content itself
    ("It was an awesome day at the park with my family", False),
    # "it" of a judgement to come
    ("It takes courage to talk about our own stories", False),
    # a demonstrative before its noun, a pronoun of a pair with the speaker
    ("This necklace is super special to me", False),
    ("I went to the museum with my kids", False),
    # "it" of a clarification: a denial of what follows
    ("It is not like I do not love the choir, I just need my Fridays back", False),
])
def test_only_it_naming_nothing_opens_bare(sentence: str, bare: bool) -> None:
    told = Episode("...", "fact", (sentence, "I love it"), 4.0)
    assert (bare_opening(told) is not None) is bare
