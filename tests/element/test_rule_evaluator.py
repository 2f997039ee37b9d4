"""element/subconscious.py: the rule evaluator and the observe pipeline, on a real store.

The store is a real :class:`index.MemoryStore` in a tmp dir with the hashing embedder (these
tests are about rules and decisions, not meaning). Nothing is mocked.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from element.errors import InvalidRequest
from element.agents.subconscious import (WINDOW_WORDS, EvaluatorFailed, LlmEvaluator,
                                         Observation, Pool, RuleEvaluator, Turn,
                                         evaluator_from, extract, goal_of, observe,
                                         parse_observation)
from index import HashingEmbedder, MemorySettings, MemoryStore
from index.errors import SubjectIncomplete

ANA = ("guest", "ana")
BOB = ("guest", "bob")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "m", HashingEmbedder(256)) as s:
        yield s


def said(*texts: str, subject: tuple[str, str] | None = None, **kw: Any) -> Observation:
    """User turns (with a canned assistant reply between them)."""
    turns: list[Turn] = []
    for text in texts:
        if turns:
            turns.append(Turn("assistant", "Noted."))
        turns.append(Turn("user", text))
    return Observation(tuple(turns), subject, kw.get("agent"))


def run(store: MemoryStore, obs: Observation, scoping: bool = False) -> list[dict[str, Any]]:
    settings = MemorySettings(subject_scoping=scoping)
    return [d.public() for d in observe(store, settings, obs, RuleEvaluator()).decisions]


def one(text: str) -> tuple[str, str, str | None, str]:
    found = extract(text, 0)
    assert len(found) == 1, (text, found)
    c = found[0]
    return c.kind, c.category, c.key, c.content


# -- extraction ----------------------------------------------------------------------------

@pytest.mark.parametrize("text,category,content", [
    ("I prefer tea over coffee.", "preference", "User prefers tea over coffee"),
    ("I really love hiking in the mountains", "preference",
     "User loves hiking in the mountains"),
    ("I don't like olives because they're salty", "preference", "User does not like olives"),
    ("I hate cold showers", "preference", "User hates cold showers"),
    ("I'm a big fan of jazz", "preference", "User likes jazz"),
    ("It's green tea for me these days", "preference", "User likes green tea"),
    ("I'm all about dramas and romcoms", "preference", "User likes dramas and romcoms"),
    ("Cycling is my thing now", "preference", "User likes Cycling"),
    ("I've always loved jazz", "preference", "User loves jazz"),
    ("my favorite color is blue", "preference", "User's favorite color is blue"),
    ("My name is Ana.", "fact", "User's name is Ana"),
    ("Call me Annie", "fact", "User wants to be called Annie"),
    ("I'm Ana", "fact", "User's name is Ana"),
    ("I live in Paris", "fact", "User lives in Paris"),
    ("I just moved to Berlin", "fact", "User lives in Berlin"),
    ("I work at Acme as well", "fact", "User works at Acme"),
    ("I work as a nurse", "fact", "User works as a nurse"),
    ("I'm allergic to peanuts", "fact", "User is allergic to peanuts"),
    ("I'm 34 years old", "fact", "User is 34 years old"),
    ("I have a dog named Rex", "fact", "User has a dog named Rex"),
    ("my wife's name is Eva", "fact", "User's wife's name is Eva"),
    ("My sister lives in Rome", "fact", "User's sister lives in Rome"),
    ("I'm vegetarian", "fact", "User is vegetarian"),
    ("I'm a software engineer", "fact", "User is a software engineer"),
    ("I'm working on a Rust project", "context", "User is working on a Rust project"),
    ("Always reply to me in French.", "procedure", "Always reply to the user in French"),
    ("Never use emojis", "procedure", "Never use emojis"),
    ("When I ask for a summary, use bullet points.", "procedure",
     "When they ask for a summary, use bullet points"),
    ("From now on, answer in short sentences", "procedure",
     "From now on, answer in short sentences"),
    ("Remember to check the logs before deploying", "procedure",
     "Remember to check the logs before deploying"),
    ("Please remember that my car is a red Fiat", "fact", "User's car is a red Fiat"),
    ("Could you remember that I like jazz?", "preference", "User likes jazz"),
    ("Remember that the wifi password is hunter2", "fact", "The wifi password is hunter2"),
])
def test_statements_become_candidates(text: str, category: str, content: str) -> None:
    kind, got_category, key, got_content = one(text)
    assert (kind, got_category, got_content) == ("add", category, content)


@pytest.mark.parametrize("text", ["It's hard for me these days.", "That is my thing.",
                                  "No problem! I love to help."])
def test_how_it_goes_my_thing_of_before_and_help_offered_are_no_taste(text: str) -> None:
    assert not [c for c in extract(text, 0, "User") if c.category == "preference"]


@pytest.mark.parametrize("text", ["Jo is my manager.", "After the restructure, Jo is my manager."])
def test_a_name_first_is_the_same_statement(text: str) -> None:
    assert one(text)[2:] == ("fact:manager", "User's manager is Jo")


def test_now_after_a_name_first_stays_out_of_the_attribute() -> None:
    assert one("Dr Okafor is my dentist now.")[2:] == ("fact:my:dentist",
                                                        "User's dentist is Dr Okafor")


@pytest.mark.parametrize("text,key,content", [
    ("Ella had her 4th birthday on Saturday.", "fact:age:ella", "Ella turned 4 on Saturday"),
    ("My son Leo celebrated his 10th birthday.", "fact:age:son leo",
     "User's son Leo turned 10")])
def test_a_birthday_is_an_age(text: str, key: str, content: str) -> None:
    assert one(text)[2:] == (key, content)


@pytest.mark.parametrize("text", ["I relocated to the Glasgow office.",
                                  "I moved to the Leeds branch last month.",
                                  "We moved over to the night team."])
def test_a_move_of_work_is_no_home(text: str) -> None:
    """A workplace heading the destination ("the Glasgow office") is no place one lives:
    before, "Ana lives in the Glasgow office"."""
    assert not [c for c in extract(text, 0, "Ana") if "lives in" in c.content]


def test_a_home_near_a_workplace_is_a_home() -> None:
    found = extract("We moved to a house near the office in Bradford.", 0, "Ana")
    assert any("lives in a house near the office in Bradford" in c.content for c in found)


@pytest.mark.parametrize("text", ["This is my sister.", "After work, I went home."])
def test_a_demonstrative_or_a_time_alone_keys_nothing(text: str) -> None:
    assert extract(text, 0) == []


@pytest.mark.parametrize("text", [
    "What should I cook tonight?", "No thanks", "I'd like to book a table", "I'm a bit tired",
    "I like it", "if it rains, the streets flood", "Hello there!", "Can you help me?",
    "Actually, can you make it shorter?", "", "   ", "ok.",
])
def test_small_talk_and_questions_give_nothing(text: str) -> None:
    assert extract(text, 0) == []


def test_sentences_and_clauses_are_read_one_by_one() -> None:
    found = extract("Hi! My name is Ana Silva and I live in Paris. I work at Acme.", 3, "Ana")
    assert [(c.key, c.content, c.turn) for c in found] == [
        ("fact:name", "Ana's full name is Ana Silva", 3),
        ("fact:location", "Ana lives in Paris", 3), ("fact:employer", "Ana works at Acme", 3)]


def test_keys_tie_statements_about_one_point() -> None:
    assert one("I like tea")[2] == one("I don't like tea")[2] == "preference:tea"
    assert one("I prefer tea over coffee")[2] == one("I prefer coffee to tea")[2]
    assert one("Always use metric units")[2] == one("never use metric units")[2]
    assert one("I live in Paris")[2] == one("I moved to Berlin")[2] == "fact:location"
    assert one("I'm married")[2] == one("I'm divorced")[2] == "fact:relationship"


@pytest.mark.parametrize("text,kind,key", [
    ("Actually, I live in Berlin now", "correct", "fact:location"),
    ("That's wrong. I live in Berlin.", "correct", "fact:location"),
    ("No, my name is Bob", "correct", "fact:name"),
    ("No, it's Berlin.", "correct", None),
    ("Forget that I live in Paris", "forget", "fact:location"),
    ("Please forget my address", "forget", "fact:my:address"),
    ("I no longer work at Acme", "retire", "fact:employer"),
    ("I don't like tea anymore", "retire", "preference:tea"),
    ("I'm not into jazz anymore", "retire", "preference:jazz"),
    ("forget about the wifi password", "forget", None),
])
def test_corrections_and_forgetting(text: str, kind: str, key: str | None) -> None:
    got_kind, _, got_key, _ = one(text)
    assert (got_kind, got_key) == (kind, key)


@pytest.mark.parametrize("text,goal", [
    ("Can you suggest a dinner recipe? I'm vegetarian.", "suggest a dinner recipe"),
    ("I need to plan a trip to Rome", "plan a trip to Rome"),
    ("What should I cook tonight?", "What should I cook tonight"),
    ("Please book a table for two", "book a table for two"),
    ("Summarize this article for me", "Summarize this article for me"),
    ("I live in Paris.", None),
    ("Remember that I like tea", None),
])
def test_goal_of_a_turn(text: str, goal: str | None) -> None:
    assert goal_of(text) == goal


@given(st.text(max_size=300))
def test_extraction_never_fails_on_any_text(text: str) -> None:
    for c in extract(text, 0):
        assert c.category in ("fact", "preference", "procedure", "context", "correction")
        assert c.content.strip()
    goal_of(text)


# -- observations ------------------------------------------------------------------------

def test_the_window_is_the_last_turns_and_words() -> None:
    obs = said(*(f"turn number {i} " + "word " * 5 for i in range(10)))
    window = obs.window(len(obs.turns) - 1)
    assert window is not None and len(window.split()) <= WINDOW_WORDS
    assert window.endswith("turn number 9 word word word word word")
    assert "turn number 6" not in window          # older than the last six turns
    assert said("hi").window(0) == "user: hi"


def test_the_goal_comes_from_an_earlier_request_in_the_window() -> None:
    obs = said("Can you plan my week?", "I work at Acme")
    assert obs.goal(2) == "plan my week"
    assert said("I work at Acme").goal(0) is None


def test_parse_observation_names_the_bad_field() -> None:
    with pytest.raises(InvalidRequest, match="turns"):
        parse_observation({})
    with pytest.raises(InvalidRequest, match=r"turns\[0\]\.role"):
        parse_observation({"turns": [{"role": "system", "content": "x"}]})
    with pytest.raises(InvalidRequest, match=r"turns\[1\]\.content"):
        parse_observation({"turns": [{"role": "user", "content": "x"},
                                     {"role": "user", "content": 5}]})
    with pytest.raises(InvalidRequest, match=r"turns\[0\]\.mood"):
        parse_observation({"turns": [{"role": "user", "content": "x", "mood": "ok"}]})
    with pytest.raises(SubjectIncomplete):
        parse_observation({"turns": [{"role": "user", "content": "x"}],
                           "subject_type": "guest"})
    obs = parse_observation({"turns": [{"role": "user", "content": "x", "name": "Ana"}],
                             "subject_type": "guest", "subject_id": "ana", "agent": "bot"})
    assert obs.subject == ANA and obs.agent == "bot" and obs.turns[0].name == "Ana"


# -- decisions against the store --------------------------------------------------------------

def test_add_then_duplicate_then_supersede(store: MemoryStore) -> None:
    first = run(store, said("Can you plan a trip? I live in Paris."))
    assert [(d["action"], d["category"], d["content"]) for d in first] == [
        ("add", "fact", "User lives in Paris")]
    memory = store.get(first[0]["memory_id"])
    assert memory["source"] == "subconscious"
    assert memory["intention"] == "plan a trip"
    assert "I live in Paris" in memory["context"]
    assert memory["metadata"] == {"observe": {"evaluator": "rules", "key": "fact:location"}}
    again = run(store, said("I live in Paris"))
    assert again[0]["action"] == "nothing" and again[0]["memory_id"] == memory["id"]
    moved = run(store, said("I moved to Berlin"))
    assert moved[0]["action"] == "supersede" and moved[0]["memory_id"] == memory["id"]
    assert moved[0]["content"] == "User lives in Berlin"
    assert [m["id"] for m in store.list()[0]] == [moved[0]["superseded_by"]]
    # The old memory's history says who superseded it and why (issue 23, item 2).
    last = store.history(memory["id"])[-1]
    assert (last["op"], last["source"], last["evaluator"]) == ("supersede", "subconscious",
                                                               "rules")
    assert last["reason"] == moved[0]["reason"] and last["reason"]


def test_a_later_statement_in_the_same_turns_wins(store: MemoryStore) -> None:
    decisions = run(store, said("I live in Paris", "Actually, I live in Berlin"))
    assert [d["action"] for d in decisions] == ["nothing", "add"]
    assert decisions[0]["reason"].startswith("superseded")
    assert [m["content"] for m in store.list()[0]] == ["User lives in Berlin"]


def test_forget_by_key_and_by_description(store: MemoryStore) -> None:
    run(store, said("I work at Acme", "Remember that the wifi password is hunter2"))
    assert len(store) == 2
    gone = run(store, said("I no longer work at Acme"))
    assert gone[0]["action"] == "retire"
    gone = run(store, said("Please forget about the wifi password"))
    assert gone[0]["action"] == "forget"
    # The retired memory is kept for history (issue 23), out of what is current.
    assert store.list()[0] == [] and len(store) == 1
    nothing = run(store, said("Forget that I live in Rome"))
    assert nothing[0]["action"] == "nothing"
    run(store, said("I like green tea", "My address is 5 Main Street"))
    assert [d["action"] for d in run(store, said("I don't like green tea anymore"))] == ["retire"]
    assert [d["action"] for d in run(store, said("forget my address"))] == ["forget"]
    assert store.list()[0] == [] and len(store) == 2


@pytest.mark.parametrize("text", ["I live in %.", "I live in *", "I like *.", "My name is #",
                                  "I work at ???", "I am into %"])
def test_a_statement_whose_object_is_no_word_is_nothing(store: MemoryStore, text: str) -> None:
    """Issue 26, Low 12: "I live in %." was a 500 (IndexError in the rules)."""
    assert extract(text, 0) == []
    assert [d["action"] for d in run(store, said(text))] in ([], ["nothing"])


@pytest.mark.parametrize("text", ["Forget that I like *.", "Forget that I live in %",
                                  "Please forget my *"])
def test_a_forget_that_names_nothing_forgets_nothing(store: MemoryStore, text: str) -> None:
    """"Forget that I like *." deleted an unrelated memory of that subject (the closest
    preference)."""
    run(store, said("I like tea", "I live in Lyon", "My address is 5 Main Street",
                    subject=ANA), )
    before = len(store)
    assert before == 3
    decisions = run(store, said(text, subject=ANA))
    assert all(d["action"] == "nothing" for d in decisions), decisions
    assert len(store) == before


def test_an_unkeyed_correction_revises_the_closest_memory(store: MemoryStore) -> None:
    stored = store.store(content="The team meeting is on Monday", category="fact",
                         settings=MemorySettings())
    obs = Observation((Turn("user", "When is the team meeting?"),
                       Turn("assistant", "The team meeting is on Monday."),
                       Turn("user", "No, it's on Tuesday.")))
    decisions = run(store, obs)
    assert decisions[0]["action"] == "update"
    assert decisions[0]["memory_id"] == stored.memory["id"]
    memory = store.get(stored.memory["id"])
    assert memory["category"] == "correction"
    assert memory["content"] == "The team meeting is on Monday (corrected: It is on Tuesday)"


def test_nothing_memory_worthy_is_one_nothing_decision(store: MemoryStore) -> None:
    assert run(store, said("What time is it?")) == [
        {"action": "nothing", "reason": "no memory-worthy content in the turns"}]
    assert len(store) == 0


def test_assistant_turns_are_never_a_source(store: MemoryStore) -> None:
    obs = Observation((Turn("user", "hello"), Turn("assistant", "I live in Paris")))
    assert run(store, obs)[0]["action"] == "nothing"


@pytest.mark.parametrize("scoping", [True, False])
def test_a_subject_only_revises_its_own_memories(store: MemoryStore, scoping: bool) -> None:
    ana = run(store, said("I live in Paris", subject=ANA), scoping)[0]["memory_id"]
    bob = run(store, said("I live in Paris", subject=BOB), scoping)
    assert bob[0]["action"] == "add" and bob[0]["memory_id"] != ana
    general = run(store, said("I live in Paris"), scoping)
    assert general[0]["action"] == "add"
    run(store, said("I moved to Rome", subject=BOB), scoping)
    kept = run(store, said("Forget that I live in Paris", subject=BOB), scoping)
    assert kept[0]["action"] == "nothing" and "differently" in kept[0]["reason"]
    assert store.get(ana)["content"] == "User lives in Paris"
    assert store.get(general[0]["memory_id"])["content"] == "User lives in Paris"
    assert store.get(ana)["subject_id"] == "ana"
    # Bob's memory was moved to Rome, then there was nothing of Bob's in Paris to forget.
    bobs = store.list(subject_type="guest", subject_id="bob")[0]
    assert [m["content"] for m in bobs] == ["User lives in Rome"]


def test_a_pool_is_exactly_one_subject(store: MemoryStore) -> None:
    settings = MemorySettings(subject_scoping=True)
    mine = store.store(content="x", category="fact", subject_type="guest", subject_id="ana",
                       settings=settings).memory
    general = store.store(content="y", category="fact", settings=settings).memory
    assert Pool(store, settings, ANA).holds(mine["id"]) is not None
    assert Pool(store, settings, ANA).holds(general["id"]) is None
    assert Pool(store, settings, BOB).holds(mine["id"]) is None
    assert Pool(store, settings, None).holds(general["id"]) is not None
    assert Pool(store, settings, None).holds(12) is None


def test_capacity_refusals_become_nothing(store: MemoryStore) -> None:
    settings = MemorySettings(subject_scoping=True, max_memories=1)
    store.store(content="a general memory", category="fact", settings=settings)
    outcome = observe(store, settings, said("I live in Paris", subject=ANA), RuleEvaluator())
    assert outcome.decisions[0].action == "nothing"
    assert "MEMORY_CAPACITY" in outcome.decisions[0].reason


# -- evaluator settings ----------------------------------------------------------------------

def test_evaluator_from_spec() -> None:
    def secret(name: str) -> str | None:
        return {"TRIFORM_LLM_KEY": "k"}.get(name)

    assert evaluator_from(None, secret)[0].name == "rules"
    rules, problem = evaluator_from({"kind": "rules"}, secret)
    assert isinstance(rules, RuleEvaluator) and problem is None
    llm, problem = evaluator_from({"kind": "llm", "base_url": "http://127.0.0.1:9/v1/",
                                   "model": "m", "api_key_env": "TRIFORM_LLM_KEY"}, secret)
    assert problem is None and isinstance(llm, LlmEvaluator)
    assert llm.config.base_url == "http://127.0.0.1:9/v1" and llm.config.api_key == "k"
    for bad, field in (({"kind": "magic"}, "kind"), ({"kind": "llm", "model": "m"}, "base_url"),
                       ({"kind": "llm", "base_url": "ftp://x", "model": "m"}, "base_url"),
                       ({"kind": "llm", "base_url": "http://x"}, "model"),
                       ({"kind": "llm", "base_url": "http://x", "model": "m",
                         "api_key_env": "AWS_SECRET_ACCESS_KEY"}, "api_key_env"),
                       ({"kind": "llm", "base_url": "http://x", "model": "m", "timeout": 0},
                        "timeout"),
                       ({"kind": "llm", "base_url": "http://x", "model": "m", "x": 1}, "x")):
        evaluator, problem = evaluator_from(bad, secret)
        assert evaluator.name == "rules" and problem and field in problem, (bad, problem)


def test_an_unreachable_llm_falls_back_to_the_rules(store: MemoryStore) -> None:
    llm, _ = evaluator_from({"kind": "llm", "base_url": "http://127.0.0.1:9", "model": "m",
                             "timeout": 2}, lambda name: None)
    with pytest.raises(EvaluatorFailed):
        llm.evaluate(said("I live in Paris"), Pool(store, MemorySettings(), None))
    outcome = observe(store, MemorySettings(), said("I live in Paris"), llm)
    assert outcome.evaluator == "rules" and outcome.fallback.startswith("llm: ")
    assert [d.action for d in outcome.decisions] == ["add"]


# -- what the rules must not take for a memory (issue 15) --------------------------------------

@pytest.mark.parametrize("text", [
    "Always here to help!",                                   # an offer, not an instruction
    "When I turned ten, dad signed me up for swimming.",      # a story
    "If you ever need anything, let me know.",                # a conversational request
    "Remember Jon, just do it!",                              # encouragement
    "Remember to stay positive!",
    "Never give up!",
    "I love that you chose pottery.",                         # a compliment
    "I'm a big fan of your paintings.",
    "I love how uncomplicated it is.",                        # "it" is said elsewhere
    "I love having them around.",
    "I love that first movie too!",                           # agreeing: their topic
    "Never say never!",                                       # an idiom, not an order
])
def test_offers_stories_and_compliments_are_not_memories(text: str) -> None:
    assert extract(text, 0, "Ana") == []


def test_no_answering_a_question_is_not_a_correction() -> None:
    [answer] = extract("No, I live in Berlin.", 1, answers_question=True)
    assert (answer.kind, answer.key) == ("add", "fact:location")
    assert extract("Nope.", 1, answers_question=True) == []
    [fixed] = extract("No, I live in Berlin.", 1)
    assert fixed.kind == "correct"


def test_two_plans_for_next_month_are_two_points() -> None:
    dentist = one("I have a dentist appointment next month")
    gaming = one("I have a gaming tournament next month")
    assert dentist[2] != gaming[2]


@pytest.mark.parametrize("who", [r"\1", r"\g<0>", "Zoë"])
def test_a_speaker_name_is_never_a_pattern(who: str) -> None:
    for text in ("Always reply to me in French", "forget my address", "I live in Paris"):
        for c in extract(text, 0, who):
            assert who in c.content or "User" not in c.content


def test_two_next_month_plans_are_both_remembered(store: MemoryStore) -> None:
    run(store, said("I have a dentist appointment next month"))
    run(store, said("I have a gaming tournament next month"))
    assert sorted(m["content"].rstrip(".") for m in store.list()[0]) == [
        "User has a dentist appointment next month", "User has a gaming tournament next month"]


def test_a_repeat_of_an_episode_updates_it(store: MemoryStore) -> None:
    first = run(store, said("I went to a pottery class with my sister and we made bowls."))
    again = run(store, said("Me and my sister went to a pottery class and made bowls!"))
    assert [d["action"] for d in first] == ["add"]
    assert [(d["action"], d["memory_id"]) for d in again] == [("update",
                                                               first[0]["memory_id"])]
    assert len(store) == 1


def test_a_possessive_s_is_no_word_of_a_repeat(store: MemoryStore) -> None:
    first = run(store, said("I had a tough week with my injury, but I am staying positive."))
    again = run(store, said("Injury's been rough, but I am staying positive."))
    assert [(d["action"], d["memory_id"]) for d in again] == [("update",
                                                               first[0]["memory_id"])]


def test_memories_are_dated_from_the_session(store: MemoryStore) -> None:
    obs = parse_observation({"turns": [{"role": "user", "name": "Ana", "content":
                                        "I went to a poetry reading last Friday."}],
                             "session_date": "2023-05-08T13:56:00Z"})
    [decision] = run(store, obs)
    assert decision["occurred_at"] == "2023-05-05T13:56:00Z"
    memory = store.get(decision["memory_id"])
    assert memory["content"] == "Ana went to a poetry reading last Friday."
    assert memory["metadata"]["observe"]["occurred_at"] == "2023-05-05T13:56:00Z"


def test_non_english_turns_are_skipped_and_said_so(store: MemoryStore) -> None:
    decisions = run(store, said("Je suis allergique aux arachides et j'habite à Paris."))
    assert decisions == [{"action": "nothing", "reason": "turn 0 skipped: not English (the "
                                                         "rules read English only)"}]
    assert len(store) == 0


def test_a_compliment_to_the_other_person_stores_nothing(store: MemoryStore) -> None:
    obs = parse_observation({"turns": [
        {"role": "assistant", "name": "Gina", "content": "I just ran my first marathon!"},
        {"role": "user", "name": "Ana", "content": "Wow, that must have been amazing! I love "
         "that you kept training. I can only imagine how proud you are."}]})
    assert [d["action"] for d in run(store, obs)] == ["nothing"]
    assert len(store) == 0


def test_an_offer_to_the_other_person_is_kept_as_an_offer(store: MemoryStore) -> None:
    """The compliment stores nothing; the offer of help is what Ana did (``offers.py``)."""
    obs = parse_observation({"turns": [
        {"role": "assistant", "name": "Gina", "content": "I just ran my first marathon!"},
        {"role": "user", "name": "Ana", "content": "Wow, that must have been amazing! I love "
         "that you kept training. Let me know if I can help you train for the next one."}]})
    [decision] = run(store, obs)
    assert decision["action"] == "add"
    assert store.get(decision["memory_id"])["content"].startswith(
        "Ana offered to help and support Gina: ")


# -- one model call per observe (the writes' texts embedded together) -------------------------

class Counting:
    """The hashing embedder, counting the calls that reach it (past the store's cache), and
    which threads made them."""

    def __init__(self) -> None:
        self.inner = HashingEmbedder(256)
        self.model_id, self.dim = self.inner.model_id, self.inner.dim
        self.calls: list[list[str]] = []
        self.threads: list[threading.Thread] = []

    def embed(self, texts: Any) -> Any:
        self.calls.append(list(texts))
        self.threads.append(threading.current_thread())
        return self.inner.embed(texts)


def three_writes() -> Observation:
    return said("I live in Paris.", "I went to a pottery class with my sister yesterday.",
                "I adopted a puppy named Rex from the shelter last week.")


@pytest.mark.parametrize("prefetch,calls", [(True, 1), (False, 3)])
def test_the_writes_of_an_observe_are_embedded_in_one_model_call(
        tmp_path: Path, prefetch: bool, calls: int) -> None:
    model = Counting()
    with MemoryStore(tmp_path / "m", model) as store:
        outcome = observe(store, MemorySettings(), three_writes(), RuleEvaluator(),
                          prefetch=prefetch, embed_behind=False)
        assert [d.action for d in outcome.decisions] == ["add", "add", "add"]
        assert len(model.calls) == calls
        # Every lane of every memory is embedded, whichever way the calls were made.
        assert all(m["embedded"] for m in store.list()[0])


def test_embedded_behind_the_observe_calls_no_model_on_its_own_thread(tmp_path: Path) -> None:
    model = Counting()
    with MemoryStore(tmp_path / "m", model) as store:
        outcome = observe(store, MemorySettings(), three_writes(), RuleEvaluator())
        assert [d.action for d in outcome.decisions] == ["add", "add", "add"]
        assert threading.current_thread() not in model.threads
        assert store.flush_embeddings(30)
        assert model.calls and threading.current_thread() not in model.threads
        assert all(m["embedded"] for m in store.list()[0])


def test_batching_changes_no_decision_nor_vector(tmp_path: Path) -> None:
    found = []
    for prefetch, behind in ((True, False), (False, False), (False, True)):
        with MemoryStore(tmp_path / f"{prefetch}-{behind}", HashingEmbedder(256)) as store:
            outcome = observe(store, MemorySettings(), three_writes(), RuleEvaluator(),
                              prefetch=prefetch, embed_behind=behind)
            assert store.flush_embeddings(30)
            found.append(([(d.action, d.content) for d in outcome.decisions],
                          [round(r["score"], 6) for r in store.search(
                              query="pottery with my sister", limit=3,
                              settings=MemorySettings(relevance_threshold=0.0)).results]))
    assert found[0] == found[1] == found[2]


def test_one_write_is_one_call_and_a_repeat_embeds_nothing(tmp_path: Path) -> None:
    model = Counting()
    with MemoryStore(tmp_path / "m", model) as store:
        observe(store, MemorySettings(), said("I went to a pottery class with my sister."),
                RuleEvaluator(), embed_behind=False)
        assert len(model.calls) == 1
        # Re-sent with a new id-less window: the same text is "already remembered", and
        # nothing is embedded for it.
        observe(store, MemorySettings(), Observation(
            (Turn("assistant", "Hi!"), Turn("user", "I went to a pottery class with my "
                                                      "sister."))), RuleEvaluator(),
                embed_behind=False)
        assert len(model.calls) == 1


# -- a turn that goes on about the speaker's previous one (issue 23, fifth pass) ------------

def test_a_turn_going_on_about_the_previous_one_continues_its_memory(
        store: MemoryStore) -> None:
    first = Turn("user", "I went to a poetry reading last Friday with my sister.", name="Ana")
    asked = Turn("assistant", "Oh nice, how was it?", name="Gina")
    more = Turn("user", "It was a transgender poetry reading where people shared their "
                "stories. Such a safe place for self-expression!", name="Ana")
    added = run(store, Observation((first,), ANA))
    assert [d["action"] for d in added] == ["add"]
    went = added[0]["memory_id"]
    window = Observation((first, asked, more), ANA)
    [continued] = run(store, window)
    assert (continued["action"], continued["memory_id"]) == ("update", went)
    assert store.get(went)["content"] == (
        "Ana went to a poetry reading last Friday with their sister. It was a transgender "
        "poetry reading where people shared their stories.")
    assert len(store.list()[0]) == 1
    # Sent again, the window adds nothing: the turn is observed, the memory continued once.
    assert [d["action"] for d in run(store, window)] == ["nothing"]
    assert len(store.history(went)) == 2


def test_an_anaphor_after_a_turn_without_a_memory_or_about_the_other_adds_nothing(
        store: MemoryStore) -> None:
    hi = Turn("user", "Hey Gina, good to see you!", name="Ana")
    asked = Turn("assistant", "You too! How was the trip?", name="Gina")
    more = Turn("user", "It was a wild week of hiking and camping in the Alps.", name="Ana")
    assert [d["action"] for d in run(store, Observation((hi, asked, more), ANA))] == ["nothing"]
    told = Turn("user", "I adopted a puppy from the shelter last week.", name="Ana")
    praise = Turn("user", "It is so sweet of you to ask about the puppy, you are kind.",
                  name="Ana")
    run(store, Observation((told,), ANA))
    assert [d["action"] for d in run(store, Observation((told, asked, praise), ANA))] == [
        "nothing"]
