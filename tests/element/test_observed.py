"""element/agents/observed.py and the observe pipeline: a turn already observed changes
nothing when it comes again, across re-sent windows, restarts, and agents sharing one memory.

Real stores (hashing embedder: these tests are about identity, not meaning) and a real
catalog holding the ledger; nothing mocked.
"""

from __future__ import annotations

from pathlib import Path
from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from element import Catalog
from element.agents.observed import TurnLedger, turn_identities
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import HashingEmbedder, MemorySettings, MemoryStore

#: The ``catalog_at`` fixture (tests/conftest.py): these tests run on both catalogs.
Opener = Callable[[Path], Catalog]
SETTINGS = MemorySettings()
ANA = ("guest", "ana")
SAID = ["I live in Paris.", "I went to a pottery class yesterday with my sister.",
        "Actually, I live in Berlin now.", "Please forget about my music taste.",
        "I love jazz.", "No, it's on Tuesday.", "Hello!", "I adopted a puppy named Rex.",
        "I no longer live in Berlin.", "We are planning a trip to Japan next spring."]


def conversation(n: int) -> list[Turn]:
    turns = []
    for i in range(n):
        turns.append(Turn("user", SAID[i % len(SAID)], "Ana"))
        turns.append(Turn("assistant", f"Noted, reply {i}?", "Bot"))
    return turns


def window(turns: list[Turn], end: int, size: int = 6, **kw: Any) -> Observation:
    return Observation(tuple(turns[max(0, end - size):end]), ANA, **kw)


def ledger_in(folder: Path, element_id: str = "m") -> TurnLedger:
    """The ledger of one memory element, in a catalog of its own in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    return TurnLedger(Catalog(folder / "catalog.db"), element_id)


def snapshot(store: MemoryStore) -> list[tuple[str, str]]:
    rows, _ = store.list(limit=500)
    return sorted((m["content"], m["category"]) for m in rows)


def test_identities_follow_the_documented_rule() -> None:
    a = [("user", "hi", None), ("assistant", "hello", None), ("user", "I live in Paris", None)]
    first = turn_identities(a, ANA, None)
    assert len(set(first)) == 3
    # The same turn after the same turn is the same turn, wherever the window starts.
    assert turn_identities(a[1:], ANA, None)[1] == first[2]
    # ...but not for another subject, another conversation, or after another turn.
    assert turn_identities(a, ("guest", "bob"), None)[2] != first[2]
    assert turn_identities(a, ANA, "c2")[2] != first[2]
    assert turn_identities([a[0], ("assistant", "hey", None), a[2]], ANA, None)[2] != first[2]
    # Client ids identify a turn by its id (and text), not by its neighbours.
    with_ids = [("user", "x", "1"), ("user", "I live in Paris", "2")]
    assert turn_identities(with_ids, ANA, "c")[1] == \
        turn_identities([("assistant", "other", "0"), with_ids[1]], ANA, "c")[1]
    assert turn_identities([("user", "I live in Rome", "2")], ANA, "c")[0] != \
        turn_identities(with_ids, ANA, "c")[1]


def test_a_sliding_window_observes_each_turn_once(tmp_path: Path) -> None:
    turns = conversation(10)
    book = ledger_in(tmp_path / "slide-ledger")
    with MemoryStore(tmp_path / "slide", HashingEmbedder(64)) as sliding, \
            MemoryStore(tmp_path / "once", HashingEmbedder(64)) as once:
        new_counts = []
        for end in range(1, len(turns) + 1):
            outcome = observe(sliding, SETTINGS, window(turns, end), RuleEvaluator(),
                              ledger=book)
            new_counts.append(outcome.decisions[0].reason.startswith("already observed"))
        # Each user turn is decided once, when it arrives; assistant turns bring nothing.
        assert new_counts == [False, True] * 10
        for end in range(2, len(turns) + 1, 2):     # each user turn once, with the turn before
            observe(once, SETTINGS, Observation(tuple(turns[max(0, end - 3):end]), ANA),
                    RuleEvaluator(), ledger=ledger_in(tmp_path / "once-ledger"))
        assert snapshot(sliding) == snapshot(once)


@given(st.lists(st.sampled_from(SAID), min_size=1, max_size=6), st.booleans())
def test_observing_the_same_window_twice_equals_once(tmp_path_factory: Any, said: list[str],
                                                     with_ids: bool) -> None:
    turns = tuple(Turn("user", text, "Ana", str(i) if with_ids else None)
                  for i, text in enumerate(said))
    obs = Observation(turns, ANA, conversation_id="c1")
    base = tmp_path_factory.mktemp("twice")
    book = ledger_in(base / "ledger")
    with MemoryStore(base / "a", HashingEmbedder(64)) as once, \
            MemoryStore(base / "b", HashingEmbedder(64)) as twice:
        observe(once, SETTINGS, obs, RuleEvaluator(), ledger=ledger_in(base / "other"))
        observe(twice, SETTINGS, obs, RuleEvaluator(), ledger=book)
        again = observe(twice, SETTINGS, obs, RuleEvaluator(), ledger=book)
        assert [d.action for d in again.decisions] == ["nothing"]
        assert snapshot(once) == snapshot(twice)
        assert len(once) == len(twice)


def test_the_ledger_survives_a_restart(tmp_path: Path, catalog_at: Opener) -> None:
    obs = Observation((Turn("user", "Please forget about my music taste."),), ANA)
    with MemoryStore(tmp_path / "m", HashingEmbedder(64)) as store:
        store.store(content="User's music taste is jazz", category="preference",
                    subject_type="guest", subject_id="ana", settings=SETTINGS)
        store.store(content="User's music taste is rock", category="preference",
                    subject_type="guest", subject_id="ana", settings=SETTINGS)
        first = observe(store, SETTINGS, obs, RuleEvaluator(),
                        ledger=TurnLedger(catalog_at(tmp_path / "catalog"), "m"))
        assert [d.action for d in first.decisions] == ["forget"]
    with MemoryStore(tmp_path / "m", HashingEmbedder(64)) as store:
        # A new process: a new catalog object over the same database.
        again = observe(store, SETTINGS, obs, RuleEvaluator(),
                        ledger=TurnLedger(catalog_at(tmp_path / "catalog"), "m"))
        assert [d.action for d in again.decisions] == ["nothing"]
        assert len(store) == 1                  # the re-send forgot nothing more


def test_agents_sharing_a_memory_share_what_it_observed(tmp_path: Path,
                                                        catalog_at: Opener) -> None:
    turns = (Turn("assistant", "How was your week?"),
             Turn("user", "No, it's on Tuesday. I went hiking with my brother."))
    book = TurnLedger(catalog_at(tmp_path / "catalog"), "m")
    with MemoryStore(tmp_path / "m", HashingEmbedder(64)) as store:
        alpha = observe(store, SETTINGS, Observation(turns, ANA, agent="demo/alpha"),
                        RuleEvaluator(), ledger=book)
        beta = observe(store, SETTINGS, Observation(turns, ANA, agent="demo/beta"),
                       RuleEvaluator(), ledger=book)
        assert "add" in [d.action for d in alpha.decisions]
        assert [d.action for d in beta.decisions] == ["nothing"]
        # "No" answered the question: it corrected nothing.
        assert all(d.category != "correction" for d in alpha.decisions)


def test_forgetting_a_subject_forgets_which_turns_were_heard(tmp_path: Path,
                                                            catalog_at: Opener) -> None:
    obs = Observation((Turn("user", "I live in Paris."),), ANA)
    book = TurnLedger(catalog_at(tmp_path / "catalog"), "m")
    with MemoryStore(tmp_path / "m", HashingEmbedder(64)) as store:
        observe(store, SETTINGS, obs, RuleEvaluator(), ledger=book)
        store.forget_subject(*ANA, confirm=True)
        assert book.forget_subject(ANA) >= 1
        again = observe(store, SETTINGS, obs, RuleEvaluator(), ledger=book)
        assert [d.action for d in again.decisions] == ["add"]
