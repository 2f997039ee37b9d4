"""element/agents/ages.py: a birthday counted is a new age ("a party for Mila's 5th
birthday" after "my daughter Mila is 4"), on a real store (the hashing embedder: no
meaning needed). The sentences are written for these tests (none is a case of
``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from element.agents.ages import birthday, reached, years
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import HashingEmbedder, MemorySettings, MemoryStore

SETTINGS = MemorySettings()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[MemoryStore]:
    with MemoryStore(tmp_path / "m", HashingEmbedder(256)) as s:
        yield s


def tell(store: MemoryStore, text: str) -> list[str]:
    obs = Observation((Turn("user", text),), ("guest", "ada"), subject_name="Ada",
                      conversation_id=text)
    return [d.action for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def current(store: MemoryStore) -> str:
    return " | ".join(m["content"] for m in store.list(limit=100)[0])


@pytest.mark.parametrize("sentence,found", [
    ("We had a picnic for Mila's 5th birthday", ("Mila", "5")),
    ("Oskar's third birthday was a washout", ("Oskar", "third")),
    ("My friend's 40th birthday is next week", None),       # no name: whose is not said
    ("We went to Mila's birthday party", None),              # no age counted
])
def test_a_birthday_counted_names_whose_and_the_age(sentence: str,
                                                    found: tuple[str, str] | None) -> None:
    assert birthday(sentence) == found


def test_a_birthday_counted_supersedes_the_age_remembered(store: MemoryStore) -> None:
    for said in ("I work at the library.", "My daughter Mila is 4."):
        tell(store, said)
    assert "supersede" in tell(store, "We had a bouncy castle for Mila's 5th birthday on "
                                      "Saturday, utter chaos.")
    now = current(store)
    assert "Mila is 4" not in now and "5th birthday" in now and "library" in now


@pytest.mark.parametrize("before", ["My son Theo is 6.", "My daughter Mila goes to Elm Park."])
def test_anothers_birthday_or_no_age_remembered_keeps_what_is_stored(store: MemoryStore,
                                                                     before: str) -> None:
    tell(store, before)
    assert "supersede" not in tell(store, "We had a bouncy castle for Mila's 5th birthday.")
    assert before.rstrip(".").split()[-1] in current(store)


@pytest.mark.parametrize("sentence,found", [
    ("My son's three now and into everything.", ("son", "three")),
    ("Our youngest girl is five now", ("girl", "five")),
    ("My son's three minutes away", None),                  # no age: minutes
    ("My friend is forty", None),                           # no family word of one person
])
def test_an_age_told_of_a_family_word_names_it(sentence: str,
                                               found: tuple[str, str] | None) -> None:
    assert birthday(sentence) == found


@pytest.mark.parametrize("before,after,old", [
    ("I have a 2-year-old son.", "My son's three now and into everything.", "2-year-old"),
    ("My daughter is 4.", "My daughter turned five on Sunday.", "daughter is 4"),
    # told by a pronoun, or as of a day (``ages.py``: the pronoun's one named person)
    ("My daughter Orla is nine.", "Orla's ten as of yesterday, double figures, she's proud.",
     "Orla is nine"),
    ("Our dog Bramble is two.", "Bramble celebrated her third birthday with a sausage cake.",
     "Bramble is two"),
    ("My dad is 64.", "We threw Dad a surprise party because he reached 65.", "dad is 64"),
])
def test_a_family_words_new_age_supersedes_the_one_remembered(store: MemoryStore, before: str,
                                                               after: str, old: str) -> None:
    for said in ("I work at the library.", before):
        tell(store, said)
    assert "supersede" in tell(store, after)
    now = current(store)
    assert old not in now and "library" in now


def test_a_count_told_of_a_family_word_is_no_age(store: MemoryStore) -> None:
    tell(store, "My son is 7.")
    assert "supersede" not in tell(store, "My son scored three goals on Saturday.")
    assert "son is 7" in current(store)


@pytest.mark.parametrize("sentence,found", [
    ("Orla's ten as of yesterday, double figures", ("Orla", "ten")),
    ("Bramble celebrated her third birthday with a sausage cake", ("Bramble", "third")),
    ("Dad had his 65th birthday at the pub", ("Dad", "65")),
    ("My son had his fifth birthday party on Saturday", ("son", "fifth")),
    ("My brother's son had his second birthday party at the zoo", None),   # the nephew's
    ("Bramble had her third litter of puppies", None),                     # no birthday
])
def test_a_birthday_told_of_the_subject_by_a_pronoun_counts(
        sentence: str, found: tuple[str, str] | None) -> None:
    assert birthday(sentence) == found


@pytest.mark.parametrize("sentence,found", [
    ("We threw Dad a surprise party because he reached 65", ("Dad", "65")),
    ("I told my gran she reached ninety", ("gran", "ninety")),
    ("Mum rang Dad and Tom because he reached the station", None),   # no age reached
    ("We had Priya and Tom round, he turned forty", None),          # whose is not said
])
def test_an_age_reached_by_a_pronoun_is_its_one_named_persons(
        sentence: str, found: tuple[str, str] | None) -> None:
    assert reached(sentence) == found


@pytest.mark.parametrize("age,number", [("third", 3), ("70th", 70), ("seventieth", 70),
                                        ("twentieth", 20), ("sixty-nine", 69), ("12", 12)])
def test_a_birthdays_ordinal_is_the_age_it_makes(age: str, number: int) -> None:
    assert years(age) == number
