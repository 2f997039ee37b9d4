"""element/agents/slots.py: the attribute a statement is about by its words, so that an
everyday statement of a change replaces the memory of the same attribute, on a real store
(the hashing embedder: slots need no meaning). Cases are written for the tests; none is a
case of bench/data/updates*.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from element.agents.slots import same_slot, slot_target, slots_of
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from element.agents.updates import signals
from index import HashingEmbedder, MemorySettings, MemoryStore

SETTINGS = MemorySettings()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "m", HashingEmbedder(256)) as s:
        yield s


def tell(store: MemoryStore, text: str, name: str = "Ada") -> list[str]:
    obs = Observation((Turn("user", text),), ("guest", "ada"), subject_name=name,
                      conversation_id=text)
    return [d.action for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def current(store: MemoryStore) -> list[str]:
    return sorted(m["content"] for m in store.list(limit=100)[0])


@pytest.mark.parametrize("sentence,slot", [
    ("I rent a studio in Leith", "residence"),
    ("We got the keys to our new place in Hove", "residence"),
    ("I take the tram to work", "commute"),
    ("My broadband is with Sky", "internet"),
    ("My gas and electricity come from EDF", "energy"),
    ("I am a pharmacist at Boots", "employer"),
    ("I am a pharmacist at Boots", "occupation"),
    ("I had my last day at Boots", "employer"),
    ("I ride a moped everywhere", "vehicle"),
    ("I have curly red hair", "hair"),
    ("The practice has put me with a new doctor", "doctor"),
    ("Our practice moved me onto another list", "doctor"),
])
def test_the_slot_a_sentence_is_about(sentence: str, slot: str) -> None:
    assert slot in {s.name for s in slots_of(sentence)}


@pytest.mark.parametrize("sentence", ["We went to a wedding in the countryside",
                                      "I love podcasts about history",
                                      # "practice" the verb is no doctor's practice
                                      "I use an app on my tablet to practice",
                                      "I practice my scales every evening"])
def test_a_sentence_of_no_attribute_has_no_slot(sentence: str) -> None:
    assert not {s.name for s in slots_of(sentence) if s.single}


@pytest.mark.parametrize("old,new,gone,kept", [
    ("I rent a flat in Clifton.", "We just got the keys to our new house in Bedminster!",
     "Clifton", "Bedminster"),
    ("I walk to work.", "I take the bus to work now that my knee is bad.", "walk", "bus"),
    ("My gas and electricity come from EDF.", "We changed energy supplier, we're with Ovo now.",
     "EDF", "Ovo"),
    ("I have short black hair.", "I dyed my hair pink last week.", "black", "pink"),
    ("I'm dating a guy called Theo.", "Theo and I got engaged in Rome!", "dating", "engaged"),
    ("I live in Didsbury.", "We're renting in Chorlton now.", "Didsbury", "Chorlton"),
    ("I live in a tiny flat in Leith.", "We finally bought a place of our own in Portobello.",
     "Leith", "Portobello"),
    ("I get my broadband from Sky.", "Our broadband provider is now Vodafone.", "Sky",
     "Vodafone"),
    ("I work nights at the depot.", "I'm on day shifts now.", "nights", "day shifts"),
    ("I put soya milk in my tea.", "I've gone back to cow's milk in my tea.", "soya", "cow"),
    ("My physio is Dr Brand.", "I see a different physio now, Dr Abara.", "Brand", "Abara"),
    ("I go to bed at midnight.", "I go to bed by half nine these days.", "midnight", "nine"),
    ("I usually wake up at 8.", "I've been getting up at 6 since the puppy arrived.", "at 8",
     "at 6"),
    ("I eat fish.", "I've become a vegan.", "fish", "vegan"),
])
def test_a_change_replaces_the_memory_of_its_slot(store: MemoryStore, old: str, new: str,
                                                 gone: str, kept: str) -> None:
    tell(store, "I love podcasts about history.")
    tell(store, old)
    assert "supersede" in tell(store, new)
    now = current(store)
    assert any(kept in m for m in now) and not any(gone in m for m in now)
    assert any("podcasts" in m for m in now)


@pytest.mark.parametrize("old,new", [
    ("I rent a flat in Clifton.", "My sister just got the keys to a house in Bath."),
    ("I rent a flat in Clifton.", "We're thinking about moving to a house in Bath."),
    ("I drive a Fiat.", "We bought a second car, a Kia."),
    ("I walk to work.", "Should I take the bus to work?"),
    ("I have a cat called Pip.", "I have a dog called Rex now."),
    ("I live in Leith.", "My best friend just moved to Portobello."),
    ("I get my broadband from Sky.", "My brother's broadband provider is Vodafone now."),
    ("My manager is called Petra.", "My manager is on holiday now."),
    ("I work as an electrician.", "I'm working for a firm in Derby these days."),
    ("I live in Harrogate.", "We bought a house in Menorca for the holidays."),
    ("I live in Harrogate.", "We bought a flat in Leeds to rent out."),
    ("My son goes to Elm Park Primary.", "My son is at school now, so I can work."),
    ("I live in Leeds.", "I moved to the Leeds branch last month."),
])
def test_not_a_change_of_the_speakers_slot_replaces_nothing(store: MemoryStore, old: str,
                                                            new: str) -> None:
    tell(store, old)
    before = current(store)
    assert "supersede" not in tell(store, new)
    assert set(before) <= set(current(store))


def test_the_last_day_somewhere_ends_it() -> None:
    found = signals("Yesterday was my last day at Boots; I start at Superdrug next week")
    assert found.ended == ("Boots",) and found.holder == ""


def test_a_thing_of_the_speakers_is_theirs(store: MemoryStore) -> None:
    # "my gas and electricity ..." is the speaker's, not held by someone called "gas".
    tell(store, "My gas and electricity come from EDF.")
    assert "supersede" in tell(store, "I switched my energy supplier to Ovo.")


def test_a_dyed_or_kicked_habit_is_a_change() -> None:
    assert signals("I dyed my hair pink").strong
    assert signals("We got divorced last year").strong
    assert signals("My husband and I separated in May").strong
    assert signals("I have kicked cigarettes for good").strong


def test_a_thing_named_as_ended_is_found_without_its_article(store: MemoryStore) -> None:
    tell(store, "I have a Skoda Octavia.")
    assert "supersede" in tell(store, "The Octavia got written off, so I'm on the bus now.")
    assert not any("has a Skoda" in m for m in current(store))


def test_an_attribute_that_ended_retires_the_memory_of_its_slot(store: MemoryStore) -> None:
    tell(store, "I drive a Saab.")
    assert "retire" in tell(store, "I don't have a car anymore.")
    assert not any("Saab" in m for m in current(store))


def test_a_taste_that_ended_does_not_retire_another_of_its_slot(store: MemoryStore) -> None:
    tell(store, "I drink rooibos tea.")
    tell(store, "I don't drink coffee anymore.")
    assert any("rooibos" in m for m in current(store))


@pytest.mark.parametrize("old,new,gone", [
    ("I'm a waiter at a bistro in Hove.", "I'm done with the bistro, I'm working in a garage now.",
     "waiter"),
    ("I have a rabbit named Fudge.", "We rehomed Fudge with a farm nearby.", "rabbit named"),
])
def test_what_the_speaker_is_done_with_or_rehomed_ends(store: MemoryStore, old: str, new: str,
                                                       gone: str) -> None:
    tell(store, old)
    assert "supersede" in tell(store, new)
    assert not any(gone in m for m in current(store))


def test_a_change_found_by_slot_says_the_new_value_as_the_attribute_does(
        store: MemoryStore) -> None:
    tell(store, "I rent a flat in Clifton.")
    tell(store, "We just got the keys to our new house in Bedminster!")
    assert current(store) == ["Ada lives in Bedminster"]


def test_an_old_name_beside_the_speakers_new_one_supersedes(store: MemoryStore) -> None:
    tell(store, "I do my shopping at Aldi in town.")
    tell(store, "Aldi kept running out of things, I'm at Sainsbury's these days.")
    [now] = current(store)
    assert "Sainsbury's" in now and "do Ada's shopping at Aldi" not in now


@pytest.mark.parametrize("news", ["Rex has a new friend now, a puppy called Juno.",
                                  "I walk Rex with my neighbour Tom now."])
def test_an_old_name_told_of_again_with_another_ends_nothing(store: MemoryStore,
                                                             news: str) -> None:
    tell(store, "We've got a collie called Rex.")
    tell(store, news)
    assert any("collie called Rex" in c for c in current(store))


@pytest.mark.parametrize("sentence,said,same", [
    ("Tom and I are divorced now", "We live in Bath with our two kids", False),
    ("Tom and I are divorced now", "I have been married to Tom for ten years", True),
    ("Tom and I are divorced now", "Tom and I have two kids", True),     # names no slot
    ("I switched to a Pixel", "I use an iPhone 12", True),
])
def test_a_change_by_similarity_keeps_to_the_slots_both_name(sentence: str, said: str,
                                                              same: bool) -> None:
    assert same_slot(sentence, said) is same


def test_a_thing_that_moved_is_no_move_of_home() -> None:
    home = {"id": "m1", "content": "Ada lives in a terrace in Filton."}
    assert slot_target("My office moved to a new block in Bedminster", "", True, [home],
                       "Ada") is None
    assert slot_target("Our dentist's practice has relocated to Bedminster", "", True,
                       [home], "Ada") is None
    assert slot_target("We moved to a semi in Bedminster", "", True, [home], "Ada") is home


@pytest.mark.parametrize("sentence", ["I moved to the Leeds branch last month",
                                      "They've transferred me over to our Glasgow office",
                                      "I'm relocating to the Bristol depot in June"])
def test_a_move_to_a_workplace_is_where_one_works_not_lives(sentence: str) -> None:
    names = {slot.name for slot in slots_of(sentence)}
    assert "employer" in names and "residence" not in names
    job = {"id": "m1", "content": "Ada works at the Bradford branch of the Halifax."}
    home = {"id": "m2", "content": "Ada lives in Leeds."}
    assert slot_target(sentence, "", True, [home], "Ada") is None
    assert slot_target(sentence, "", True, [job], "Ada") is job


def test_a_home_near_a_workplace_is_a_home() -> None:
    assert "residence" in {slot.name for slot in
                           slots_of("We moved to a flat by the office in Leeds")}
