"""element/agents/ages.py: a birthday counted is a new age ("a party for Mila's 5th
birthday" after "my daughter Mila is 4"), on a real store (the hashing embedder: no
meaning needed). The sentences are written for these tests (none is a case of
``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from element.agents.ages import birthday
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
