"""element/agents/updates.py and the cleaner sentences: what a new statement makes stale, on a
real store.

Key and named-value updates need no meaning: the store has the hashing embedder. Updates
found by similarity of the attribute need the real model (``real_store``). Nothing is
mocked. Cases here are written for the tests; none is a held-out case of
``bench/data/updates.yaml``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.dates import parse_session_date
from element.agents.episodes import episode, narrate, sentences
from element.agents.rules import extract
from element.agents.subconscious import (Decision, Observation, Pool, RuleEvaluator, Turn,
                                         STORED_ALONE, apply_supersede, observe)
from element.agents.restated import introduced
from element.agents.updates import first_person, keys_of, same_point, signals
from index import HashingEmbedder, MemorySettings, MemoryStore

SUBJECT = ("guest", "maria")
SETTINGS = MemorySettings()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "m", HashingEmbedder(256)) as s:
        yield s


@pytest.fixture
def real_store(tmp_path: Path, model: Any) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "real", model) as s:
        yield s


def tell(store: MemoryStore, text: str, name: str = "Maria") -> list[dict[str, Any]]:
    """Observe one user turn of ``name`` (a conversation of its own)."""
    obs = Observation((Turn("user", text),), SUBJECT, subject_name=name,
                      conversation_id=text)
    return [d.public() for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def contents(store: MemoryStore) -> list[str]:
    return sorted(m["content"] for m in store.list(limit=100)[0])


# -- cues ---------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence,ended", [
    ("I left Google last month and joined Spotify", ["Google"]),
    ("I sold the Fiesta and got a Volvo", ["the Fiesta"]),
    ("I quit smoking three months ago", ["smoking"]),
    ("I cycle to work instead of taking the bus", ["taking the bus"]),
    ("I switched from chemistry to physics", ["chemistry"]),
    ("I gave up the violin", ["the violin"]),
    ("I outgrew my egg allergy", ["my egg allergy"]),
    ("I have outgrown my egg allergy", ["my egg allergy"]),
    ("Nibbles died last week", ["Nibbles"]),
    ("Jake and I broke up", ["Jake"]),
    ("Sarah left the company, so my new manager is Dev", ["Sarah"]),
    ("I do not swim anymore", ["swim"]),
    # A correction of what was said: "not actually".
    ("The allergy clinic says I am not actually allergic to penicillin", ["allergic"]),
])
def test_cues_that_end_something_name_what_ended(sentence: str, ended: list[str]) -> None:
    found = signals(sentence)
    assert list(found.ended) == ended and found.change and found.replaces


@pytest.mark.parametrize("sentence,ended", [
    ("I start next week after leaving Channel 4", ["Channel"]),
    ("I have been happier since quitting my job", ["my job"]),
    ("Tom is sad after leaving Google", []),
])
def test_what_the_speaker_ended_after_after_or_since(sentence: str, ended: list[str]) -> None:
    assert list(signals(sentence).ended) == ended


@pytest.mark.parametrize("sentence", ["We have emigrated to Australia, we are in Perth",
                                      "I qualified as a pilot last month"])
def test_emigrating_and_qualifying_are_changes_of_the_speaker(sentence: str) -> None:
    found = signals(sentence)
    assert found.change and found.strong and not found.holder


@pytest.mark.parametrize("sentence", [
    "I also speak Japanese", "We got a second cat", "I love ramen too",
    "I have another bike as well"])
def test_additions_never_replace(sentence: str) -> None:
    assert signals(sentence).addition and not signals(sentence).replaces


@pytest.mark.parametrize("sentence", [
    "I am going to move to Lisbon next year", "I used to live in Rome",
    "I played the violin as a kid", "I want to switch jobs", "If I moved to Oslo, I would ski",
    "I moved to Rome for a week"])
def test_plans_wishes_and_the_past_never_replace(sentence: str) -> None:
    assert signals(sentence).not_now and not signals(sentence).replaces


@pytest.mark.parametrize("sentence,holder", [
    ("I moved to Leeds", ""), ("We moved to Leeds", ""), ("My husband and I moved to Leeds", ""),
    ("My manager is Dev", ""), ("My sister lives in Madrid", "sister"),
    ("My son Leo goes to Oakwood", "son leo"), ("Leo turned 5", "leo"),
    ("The twins are 3 now", "twins"), ("My new phone is an iPhone 16", ""),
    ("My new boss is Dev", "")])
def test_whose_statement_it_is(sentence: str, holder: str) -> None:
    assert signals(sentence).holder == holder


@pytest.mark.parametrize("sentence,thing", [
    ("I switched dentists to Dr. Kim", "dentist"), ("We got a new boss, her name is Ada", "boss"),
    ("I changed my email, it is ana@mail.com now", "email"), ("My new car is a Mazda", "car")])
def test_the_attribute_a_change_names(sentence: str, thing: str) -> None:
    assert thing in signals(sentence).things


@pytest.mark.parametrize("sentence", [
    "I am really enjoying my new job", "It felt like they jumped off the page and became real"])
def test_a_change_that_names_no_value_or_no_holder_replaces_nothing(sentence: str) -> None:
    found = signals(sentence)
    assert not found.things and (not found.strong or found.holder == "?")


# -- stored memories read back ------------------------------------------------------------------

def test_a_stored_memory_is_read_back_in_the_first_person_and_keyed() -> None:
    assert first_person("Maria lives in Porto", "Maria") == ["I live in Porto"]
    assert first_person("Maria's family has a cat. Maria walks it daily.", "Maria") == [
        "we have a cat", "I walk it daily"]
    assert first_person("Maria's doctor is Dr. Patel.", "Maria") == ["my doctor is Dr. Patel"]
    assert keys_of("Maria lives in Porto", "Maria") == ("fact:location",)
    assert keys_of("Maria's boss is Peter", "Maria") == ("fact:manager",)
    assert keys_of("Maria's son Leo is 4.", "Maria") == ("fact:age:son leo",)
    assert keys_of("User drives a Ford Fiesta", "Maria") == ("fact:car",)


@pytest.mark.parametrize("a,b,same", [
    ("fact:age:son leo", "fact:age:leo", True), ("fact:age:son", "fact:age:daughter", False),
    ("fact:my:order", "fact:my:coffee order", True),
    ("fact:my:favourite band", "fact:my:favourite food", False),
    ("fact:my:sister s car", "fact:my:car", False), ("fact:location", "fact:location", True),
    ("fact:my:mum lives", "fact:my:dad lives", False),
    ("fact:my:cousin ivo lives", "fact:my:cousin lives", True)])
def test_keys_of_one_attribute(a: str, b: str, same: bool) -> None:
    assert same_point(a, b) is same


# -- decisions: supersede, retire, keep both ------------------------------------------------------

@pytest.mark.parametrize("before,after,kept", [
    ("I live in Porto with my husband.", "Quick update: I live in Lisbon now.",
     "Maria lives in Lisbon"),
    ("My daughter is 11.", "My daughter just turned 12, she had a sleepover party.",
     "Maria's daughter just turned 12, she had a sleepover party"),
    ("My boss is a guy called Peter.", "We got a new boss, her name is Angela.",
     "Maria reports to Angela"),
    ("I drive a Ford Fiesta.", "I sold the Fiesta last month and got a Volvo.",
     "Maria drives a Volvo"),
    # The attribute's own statement of the new value, not the story of the change.
    ("I work at Google as a product designer.", "I left Google last month and joined Spotify.",
     "Maria works at Spotify"),
    ("I'm a junior accountant.", "Got promoted to senior accountant last week!",
     "Maria works as senior accountant"),
    ("I'm a primary school teacher.", "I became the head teacher this year.",
     "Maria works as the head teacher"),
    ("I'm based in Chicago.", "We packed up and moved to Denver in May.",
     "Maria lives in Denver"),
    ("I work at Amazon.", "I used to work at Amazon but now I'm at Microsoft.",
     "Maria works at Microsoft"),
    # The same relation with a new name, said to hold now.
    ("I play for Hilltop FC.", "I'm playing for Kingston Town now.",
     "Maria is playing for Kingston Town now."),
    ("I work remotely.", "I'm back in the office full-time.",
     "Maria is back in the office full-time"),
    ("I'm a vegetarian.", "I've been vegan since January.", "Maria has been vegan since January"),
    ("I work for KPMG.", "I've accepted an offer from Deloitte, started there on Monday.",
     "Maria works at Deloitte"),
    ("I've been dating Sam for a year.", "Sam and I got engaged at the weekend!",
     "Sam and Maria got engaged at the weekend"),
    # Who the one named is, as the old memory introduced them; the attribute's words.
    ("My son Finn is 6.", "Finn turned 7 on Tuesday.", "Maria's son Finn turned 7 on Tuesday"),
    ("My GP is Dr. Morgan.", "I changed GPs, I see Dr. Shah now.", "Maria's GP is Dr. Shah"),
    ("I have a hamster called Nibbles.", "Nibbles died last week, so sad.",
     "Nibbles died last week."),
    ("I take the bus to work.", "I cycle to work now instead of taking the bus.",
     "Maria cycles to work now instead of taking the bus."),
    ("My boyfriend Jake and I just got a place together.", "Jake and I broke up last month.",
     "Maria's boyfriend Jake and Maria broke up last month"),
    ("My usual coffee order is a flat white.", "My usual order is a cortado now.",
     "Maria's usual order is a cortado"),
])
def test_a_new_value_supersedes_the_old_memory(store: MemoryStore, before: str, after: str,
                                               kept: str) -> None:
    [added] = [d for d in tell(store, before) if d["action"] == "add"]
    decisions = tell(store, after)
    assert [(d["action"], d["memory_id"]) for d in decisions] == [
        ("supersede", added["memory_id"])], decisions
    assert contents(store) == [kept]
    assert store.get(decisions[0]["superseded_by"])["content"] == kept


@pytest.mark.parametrize("before,after", [
    ("I volunteer at the food bank.", "I'm also volunteering at the Red Cross now."),
    ("I work at Nokia.", "I'm working on a project for Ericsson now."),
    ("I live in Paris.", "I'm in Rome for work this week.")])
def test_another_relation_or_one_more_keeps_both(store: MemoryStore, before: str,
                                                 after: str) -> None:
    tell(store, before)
    assert not {d["action"] for d in tell(store, after)} & {"supersede", "retire"}


def test_we_of_a_couple_is_the_two_of_them(store: MemoryStore) -> None:
    tell(store, "I live with my boyfriend Tom.")
    tell(store, "Tom moved out, we broke up.")
    assert contents(store) == ["Maria's boyfriend Tom moved out, Maria and Tom broke up."]


def test_too_before_an_adjective_is_no_addition() -> None:
    assert not signals("I have moved up to Newcastle, the rent was too high").addition
    assert signals("I love ramen too").addition


@pytest.mark.parametrize("text,content", [
    ("My girlfriend Chloe and I have been together for two years.",
     "Maria's girlfriend Chloe and Maria have been together for two years"),
    ("I'm a software engineer at Shopify.", "Maria is a software engineer at Shopify")])
def test_a_pair_and_a_role_are_told_whole(text: str, content: str) -> None:
    assert [c.content for c in extract(text, 0, "Maria")] == [content]


def test_a_role_one_became_is_told_as_the_work_one_does(store: MemoryStore) -> None:
    tell(store, "I became a data analyst.")
    assert contents(store) == ["Maria works as a data analyst"]


def test_a_couple_split_up_supersedes_their_being_together(store: MemoryStore) -> None:
    tell(store, "My girlfriend Chloe and I have been together for two years.")
    tell(store, "Chloe and I split up in March, I'm seeing someone called Ben now.")
    assert contents(store) == ["Maria is seeing someone called Ben"]


@pytest.mark.parametrize("text,told", [
    ("My best friend is called Sam, we met at school",
     "Maria's best friend is called Sam, Maria and Sam met at school"),
    ("On Sunday we went to the park", "On Sunday Maria and others went to the park"),
    ("I am seeing someone now, his name is Marco", "Maria is seeing Marco now"),
    ("Music brings us together and we dance",
     "Music brings Maria and others together and Maria and others dance"),
    ("Sam and Jo came over and we played cards",
     "Sam and Jo came over and Maria and others played cards")])
def test_we_with_one_person_named_is_the_two_of_them(text: str, told: str) -> None:
    assert narrate(text, "Maria") == told


def test_what_the_household_has_is_kept() -> None:
    assert [(c.key, c.content) for c in extract("We have a minivan for the kids.", 0, "Maria")] \
        == [("fact:has:minivan", "Maria's family has a minivan for the kids")]


def test_we_changing_what_the_family_had_is_the_family(store: MemoryStore) -> None:
    tell(store, "We have a minivan for the kids.")
    tell(store, "We traded in the minivan for an SUV.")
    assert contents(store) == ["Maria's family traded in the minivan for an SUV."]


def test_a_month_named_may_is_no_wish() -> None:
    assert signals("We moved to Denver in May").replaces
    assert not signals("I may move to Denver").replaces


def test_a_short_stay_keeps_the_home(store: MemoryStore) -> None:
    tell(store, "I live in Paris.")
    tell(store, "My friend and I moved to Rome for a week, what a trip.")
    assert "Maria lives in Paris" in contents(store)


@pytest.mark.parametrize("text", ["My best friend moved to Marseille.",
                                  "I've started going to yoga as well."])
def test_a_short_change_in_a_life_is_kept(store: MemoryStore, text: str) -> None:
    assert [d["action"] for d in tell(store, text)] == ["add"]


def test_a_name_said_as_a_value_is_not_an_introduction() -> None:
    assert introduced("Sarah left the company.", "Maria's manager is Sarah", "Maria") == \
        "Sarah left the company."


def test_beside_a_value_that_ended_the_new_one_is_kept_without_a_cue(
        store: MemoryStore) -> None:
    tell(store, "I spend my weekends surfing.")
    tell(store, "I don't surf anymore, I've taken up rock climbing.")
    assert contents(store) == ["Maria has taken up rock climbing."]


def test_beside_a_value_that_ended_the_present_is_kept(store: MemoryStore) -> None:
    """"I don't live in Boston anymore, I'm in Austin now": Boston retires, Austin stays
    (it was lost: only a strong cue kept such a clause)."""
    tell(store, "I live in Boston.")
    actions = [d["action"] for d in tell(store, "I don't live in Boston anymore, I'm in "
                                                "Austin now.")]
    assert "retire" in actions
    assert contents(store) == ["Maria is in Austin now."]


@pytest.mark.parametrize("before,after", [
    ("I'm allergic to shellfish.", "Actually, I'm not allergic to shellfish anymore."),
    ("I'm vegan.", "I'm no longer vegan."),
    ("I go swimming every morning.", "I don't go swimming anymore."),
    ("I'm allergic to cats.", "Turns out I'm not allergic to cats after all."),
])
def test_saying_it_no_longer_holds_retires_it(store: MemoryStore, before: str,
                                              after: str) -> None:
    [added] = tell(store, before)
    assert tell(store, after) == [{"action": "retire", "memory_id": added["memory_id"],
                                   "category": "fact",
                                   "reason": "the user said it no longer holds"}]
    assert contents(store) == []


def test_a_negation_of_another_value_retires_nothing(store: MemoryStore) -> None:
    tell(store, "I live in Seville.")
    assert tell(store, "I don't live in Madrid anymore.")[0]["action"] == "nothing"
    assert contents(store) == ["Maria lives in Seville"]


@pytest.mark.parametrize("before,after", [
    ("I live in Seville.", "My brother lives in Madrid."),
    ("I have a dog named Biscuit.", "I adopted a second dog, a beagle named Pepper."),
    ("I'm allergic to peanuts.", "I'm also allergic to penicillin."),
    ("I work as a teacher.", "On weekends I also work at a bakery."),
    ("I play the piano.", "I played the violin as a kid."),
    ("I live in Seville.", "I'm going to move to Madrid next year."),
    ("I live in Boston.", "I'm staying in Miami for two weeks on vacation."),
    ("I drive a Subaru Outback.", "We also have an old pickup truck for the farm."),
    ("My daughter goes to Riverside Elementary.", "My son goes to Oakwood High."),
])
def test_an_addition_keeps_both(store: MemoryStore, before: str, after: str) -> None:
    first = tell(store, before)
    second = tell(store, after)
    assert [d["action"] for d in first + second] == ["add", "add"], first + second
    assert len(contents(store)) == 2


def test_a_change_is_found_by_the_attribute_it_sets(real_store: MemoryStore) -> None:
    for said in ("I use an iPhone 12.", "I work at a bank in the city.",
                 "I went to Paris last week for a wedding."):
        tell(real_store, said)
    decisions = tell(real_store, "I switched to a Pixel 8 last week.")
    assert [d["action"] for d in decisions] == ["supersede"]
    assert "iPhone" not in " ".join(contents(real_store))
    assert len(contents(real_store)) == 3


def test_a_change_with_no_memory_of_its_attribute_is_added(real_store: MemoryStore) -> None:
    tell(real_store, "I went to Paris last week for a wedding.")
    decisions = tell(real_store, "I switched to a Pixel 8 last week.")
    assert [d["action"] for d in decisions] == ["add"]
    assert len(contents(real_store)) == 2


@pytest.mark.parametrize("before,after,gone", [
    ("I bank with Barclays.", "I moved my account to Monzo.", "Barclays"),
])
def test_a_strong_change_finds_a_less_close_memory_nothing_else_nears(
        real_store: MemoryStore, before: str, after: str, gone: str) -> None:
    for said in (before, "I love thriller novels.", "I hate waking up early."):
        tell(real_store, said)
    decisions = tell(real_store, after)
    assert [d["action"] for d in decisions] == ["supersede"], decisions
    assert gone not in " ".join(contents(real_store))


def test_a_strong_change_of_another_attribute_keeps_the_one_fact(
        real_store: MemoryStore) -> None:
    tell(real_store, "I work at a bank in the city.")
    decisions = tell(real_store, "I switched to a Pixel 8 last week.")
    assert [d["action"] for d in decisions] == ["add"], decisions
    assert len(contents(real_store)) == 2


def test_a_supersede_of_a_memory_gone_meanwhile_writes_nothing(store: MemoryStore) -> None:
    [added] = tell(store, "I live in Porto.")
    pool = Pool(store, SETTINGS, SUBJECT)
    store.delete(added["memory_id"])
    from element.agents.subconscious import _apply
    done = _apply(store, SETTINGS, pool, Decision("supersede", "moved", category="fact",
                                                  memory_id=added["memory_id"],
                                                  content="Maria lives in Lisbon"),
                  Observation((Turn("user", "x"),), SUBJECT), "rules", False)
    assert (done.action, done.reason) == ("nothing", "supersede refused: the memory is gone")
    assert contents(store) == []


def test_apply_supersede_keeps_the_new_memory_when_the_old_is_already_deleted(
        store: MemoryStore) -> None:
    old = store.store(content="Maria lives in Porto", category="fact",
                      settings=SETTINGS).memory["id"]
    store.delete(old)
    result = apply_supersede(store, SETTINGS, old, content="Maria lives in Lisbon",
                             category="fact", subject={}, context=None, intention=None,
                             agent=None, metadata={}, occurred_at=None, embed_later=False)
    assert contents(store) == ["Maria lives in Lisbon"]
    assert result.memory["content"] == "Maria lives in Lisbon"
    assert STORED_ALONE in result.warnings


def test_a_supersede_whose_memory_ended_meanwhile_says_it_added(store: MemoryStore) -> None:
    # The pool still holds the old memory (read at the observe's start) while it is retired
    # behind it: the new one is stored alone, and the decision says so, naming no link.
    [added] = tell(store, "I live in Porto.")
    pool = Pool(store, SETTINGS, SUBJECT)
    assert pool.holds(added["memory_id"]) is not None
    store.retire(added["memory_id"], reason="moved")
    from element.agents.subconscious import _apply
    done = _apply(store, SETTINGS, pool, Decision("supersede", "moved", category="fact",
                                                  memory_id=added["memory_id"],
                                                  content="Maria lives in Lisbon"),
                  Observation((Turn("user", "x"),), SUBJECT), "rules", False)
    assert done.action == "add" and done.superseded_by is None
    assert done.public()["memory_id"] != added["memory_id"]
    assert contents(store) == ["Maria lives in Lisbon"]


# -- cleaner memories ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,content", [
    ("I work as a nurse at St. Mary's. I love it.", "Maria works as a nurse at St. Mary's"),
    ("My doctor is Dr. Patel at the clinic.", "Maria's doctor is Dr. Patel at the clinic"),
    ("My dentist is Mrs. J. Brown.", "Maria's dentist is Mrs. J. Brown"),
    ("I moved to the U.S. last year. It is huge.", "Maria lives in the U.S."),
])
def test_abbreviations_do_not_end_a_sentence(text: str, content: str) -> None:
    assert [c.content for c in extract(text, 0, "Maria")][0] == content


def test_episode_sentences_know_abbreviations() -> None:
    assert list(sentences("We met Dr. Lee at 9 a.m. on Monday. Then we left.")) == [
        "We met Dr. Lee at 9 a.m. on Monday.", "Then we left."]


@pytest.mark.parametrize("first,third", [
    ("We have a cat", "Maria's family has a cat"),
    ("We were at the lake with the kids all day",
     "Maria's family was at the lake with the kids all day"),
    ("Our dog loves us", "Maria's dog loves their family"),
    ("We moved to Leeds last year", "Maria's family moved to Leeds last year"),
    ("Me and my husband went hiking", "Maria and their husband went hiking"),
    # Not of home: "we" is whoever the speaker is with.
    ("We can make a difference together", "Maria and others can make a difference together"),
])
def test_we_is_the_speakers_household(first: str, third: str) -> None:
    assert narrate(first, "Maria") == third


def test_an_episode_about_we_names_the_family() -> None:
    told = episode("We adopted a kitten named Mochi last week, she is tiny!", "Maria")
    assert told is not None and told.content.startswith("Maria's family adopted a kitten")
    assert "others" not in told.content


@pytest.mark.parametrize("text,who,content", [
    ("My name is Maria.", "Maria", None), ("I'm Maria", "Maria", None),
    ("My name is Maria Lopez", "Maria", "Maria's full name is Maria Lopez"),
    ("My name is Maria", "User", "User's name is Maria"),
    ("Call me Mia", "Maria", "Maria wants to be called Mia"),
    ("I'm Maria Lopez", "Maria", "Maria's full name is Maria Lopez"),
    ("I'm Ana", "User", "User's name is Ana"),
    # a speaker already named describes themselves: no name of "Catholic" or "Irish"
    ("I'm Catholic", "Maria", "Maria is Catholic"), ("I am Irish", "Maria", "Maria is Irish"),
])
def test_a_name_is_not_told_as_itself(text: str, who: str, content: str | None) -> None:
    found = [c.content for c in extract(text, 0, who)]
    assert found == ([content] if content else [])


@pytest.mark.parametrize("text,found", [
    # A comma before a first-person clause splits, after a contraction too.
    ("I'm not a teacher anymore, I retrained as a nurse.",
     [("retire", "fact:occupation"), ("add", "fact:occupation")]),
    ("I gave up meat last year, so I'm vegetarian now.", [("add", "fact:diet")]),
    ("Mia moved to Paris, my flatmate is now Tom.", [("add", "fact:my:flatmate")]),
    # ... but not after "when"/"if": one instruction.
    ("When I ask for a summary, use bullet points.",
     [("add", "procedure:when:i ask for a summary")]),
])
def test_clauses_of_a_sentence(text: str, found: list[tuple[str, str]]) -> None:
    assert [(c.kind, c.key) for c in extract(text, 0, "Maria")] == found


@pytest.mark.parametrize("text,english", [
    ("Max turned 9 today!", True), ("I quit smoking ages ago!", True),
    ("Tengo un perro y vivo en Lima", False), ("Je suis très fatigué", False)])
def test_a_short_turn_of_names_and_numbers_is_english(text: str, english: bool) -> None:
    from element.agents.episodes import is_english
    assert is_english(text) is english


def test_a_past_tense_in_ew_is_not_agreed() -> None:
    assert narrate("I outgrew my egg allergy", "Kim") == "Kim outgrew their egg allergy"


def test_what_the_speaker_ended_is_theirs_whoever_opens_the_sentence(
        store: MemoryStore) -> None:
    [added] = tell(store, "I eat sugar with everything.")
    decisions = tell(store, "My trainer put me on a diet, so I've cut out sugar completely.")
    assert [(d["action"], d["memory_id"]) for d in decisions] == [
        ("supersede", added["memory_id"])]


def test_single_again_supersedes_a_partner(store: MemoryStore) -> None:
    [added] = tell(store, "My boyfriend is called Tom.")
    decisions = tell(store, "Tom and I broke up, so I'm single again.")
    assert [(d["action"], d["memory_id"]) for d in decisions if d["action"] != "nothing"] == [
        ("supersede", added["memory_id"])]
    assert contents(store) == ["Maria is single"]


@pytest.mark.parametrize("before,after", [
    ("My family is my rock.", "My family is awesome."),
    ("I'm working on a short film with my group.",
     "I'm working on a new project - a thriller set in Ohio."),
])
def test_a_judgement_or_one_more_project_adds(store: MemoryStore, before: str,
                                              after: str) -> None:
    assert [d["action"] for d in tell(store, before) + tell(store, after)] == ["add", "add"]


# -- when the old value stopped holding ------------------------------------------------------

def tell_on(store: MemoryStore, text: str, day: str, name: str = "Maria") -> list[dict[str, Any]]:
    """Observe one user turn of ``name`` in a session on ``day``."""
    obs = Observation((Turn("user", text),), SUBJECT, subject_name=name,
                      conversation_id=text, session_date=parse_session_date(day))
    return [d.public() for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def test_a_change_dated_before_the_old_statement_ends_it_when_told(store: MemoryStore) -> None:
    # "three months ago" from March 1 is December, before the January statement: the
    # January statement held when it was told, so the change is dated March 1 and as_of
    # mid-February answers the older value.
    tell_on(store, "I smoke about a pack a day.", "2024-01-10")
    decisions = tell_on(store, "I quit smoking three months ago!", "2024-03-01")
    assert [d["action"] for d in decisions] == ["supersede"]
    then = [m["content"] for m in store.list(as_of="2024-02-15T00:00:00Z", limit=10)[0]]
    assert then == ["Maria smokes about a pack a day"]


def test_a_retire_ends_the_memory_when_told_not_when_observed(store: MemoryStore) -> None:
    tell_on(store, "I'm allergic to shellfish.", "2024-01-10")
    decisions = tell_on(store, "I'm not allergic to shellfish anymore.", "2024-03-01")
    assert "retire" in [d["action"] for d in decisions]
    kept = store.list(include_superseded=True, limit=10)[0]
    ended = [m for m in kept if "shellfish" in m["content"] and m.get("valid_until")]
    assert ended and ended[0]["valid_until"].startswith("2024-03-01")


def test_a_repeat_with_a_change_supersedes_rather_than_overwrites(store: MemoryStore) -> None:
    # Mostly the same words, but saying it ended: the older statement stays in history
    # and answers as_of, rather than being refreshed into the new one.
    tell_on(store, "I play drums in a jazz trio.", "2024-01-10")
    decisions = tell_on(store, "The trio broke up, so I'm not playing drums these days.",
                        "2024-03-01")
    assert [d["action"] for d in decisions] == ["supersede"]
    then = [m["content"] for m in store.list(as_of="2024-02-01T00:00:00Z", limit=10)[0]]
    assert then == ["Maria plays drums in a jazz trio."]


def test_one_relatives_home_does_not_replace_anothers(store: MemoryStore) -> None:
    tell(store, "My cousin Anja lives in Zadar.")
    tell(store, "My mum lives in Tralee.")
    assert contents(store) == ["Maria's cousin Anja lives in Zadar.",
                               "Maria's mum lives in Tralee."]


@pytest.mark.parametrize("news", ["My daughter has just moved into halls in Leeds.",
                                  "My son has moved to Leeds for university."])
def test_a_relatives_move_leaves_the_speakers_home(store: MemoryStore, news: str) -> None:
    # A sentence opening on "My" (capitalised) read the relative as the speaker.
    tell(store, "I live in York.")
    tell(store, news)
    assert "Maria lives in York" in " ".join(contents(store))


def test_what_our_household_has_is_kept_and_replaced_as_mine(store: MemoryStore) -> None:
    assert [d["action"] for d in tell(store, "Our mortgage is with Halifax.")] == ["add"]
    assert [d["action"] for d in tell(store, "Our mortgage is with Barclays now.")] == \
        ["supersede"]
    assert contents(store) == ["Maria's mortgage is with Barclays"]


def test_an_ending_and_its_new_value_in_one_turn_link_the_old_to_the_new(
        store: MemoryStore) -> None:
    # "Not at H&M anymore" retires and "I work at IKEA now" replaces the same memory: one
    # replacement, so the old memory's history names the new one (as_of lends through it).
    [added] = tell(store, "I work at H&M.")
    actions = [d["action"] for d in tell(store, "I'm not at H&M anymore, I work at IKEA now.")]
    assert actions == ["nothing", "supersede"]
    [now] = store.list(limit=10)[0]
    old = next(m for m in store.list(limit=10, include_superseded=True)[0]
               if m["id"] == added["memory_id"])
    assert "IKEA" in now["content"] and old["superseded_by"] == now["id"]


def test_an_evaluators_retire_of_a_memory_it_also_supersedes_is_left_to_the_supersede(
) -> None:
    from element.agents.subconscious import _one_ending
    decided = [Decision("retire", "over", category="fact", memory_id="a"),
               Decision("supersede", "changed", category="fact", memory_id="a",
                        content="Maria works at IKEA"),
               Decision("retire", "over", category="fact", memory_id="b")]
    assert [d.action for d in _one_ending(decided)] == ["nothing", "supersede", "retire"]
