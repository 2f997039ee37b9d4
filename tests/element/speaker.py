"""One speaker, Ana, telling the subconscious things turn by turn, on a store of either
backend with the real model: what the tests of the update finders (``test_profile.py``,
``test_named.py``) share."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import MemorySettings, MemoryStore

SUBJECT = ("guest", "ana")
SETTINGS = MemorySettings()
#: Facts of the speaker's told first, so a change meets memories of several things.
BACKGROUND = ("I volunteer at the food bank on Saturdays.", "My best friend is called Priya.")


def open_store(request: pytest.FixtureRequest, tmp_path: Path, model: Any,
               prefix: str) -> Iterator[Any]:
    """The body of a ``store`` fixture parametrised ``["file", "postgres"]``: a file store,
    or a PostgreSQL one in a database of its own (``prefix`` names it)."""
    if request.param == "file":
        with MemoryStore(tmp_path / "m", model) as opened:
            yield opened
        return
    from index.postgres import Database, PostgresMemoryStore
    db = Database(request.getfixturevalue("pg_server").create_database(
        f"{prefix}_{abs(hash(str(tmp_path))) % 10**9}"))
    db.migrate()
    opened = PostgresMemoryStore(db, str(tmp_path / "m"), model)
    try:
        yield opened
    finally:
        opened.close()
        db.close()


def tell(store: Any, text: str) -> list[str]:
    """Observe one user turn of Ana's (a conversation of its own): the actions decided."""
    obs = Observation((Turn("user", text),), SUBJECT, subject_name="Ana", conversation_id=text)
    return [d.public()["action"] for d in observe(store, SETTINGS, obs, RuleEvaluator()).decisions]


def tell_after(store: Any, before: str, after: str) -> list[str]:
    """Ana's :data:`BACKGROUND` facts and ``before`` told, then ``after``: the actions
    ``after`` decided."""
    for said in (*BACKGROUND, before):
        tell(store, said)
    return tell(store, after)


def background_kept(now: str) -> bool:
    """Both :data:`BACKGROUND` facts are still among ``now`` (``current``'s text): a change
    replaced what it changed and nothing else."""
    return "food bank" in now and "Priya" in now


def current(store: Any) -> str:
    """Ana's current memories, joined by `` | ``."""
    return " | ".join(m["content"] for m in store.list(subject_type=SUBJECT[0],
                                                        subject_id=SUBJECT[1], limit=100)[0])


def replaces(store: Any, before: str, after: str, old: str, new: str) -> None:
    """Assert that ``after``, told after :data:`BACKGROUND` and ``before``, supersedes the
    memory holding ``old`` alone: ``new`` current, ``old`` not, the background kept."""
    assert tell_after(store, before, after) == ["supersede"], current(store)
    now = current(store)
    assert new in now and old not in now, now
    assert background_kept(now), now


def ends(store: Any, before: str, after: str, old: str) -> None:
    """Assert that ``after`` supersedes (among what it decides) the memory holding ``old``:
    ``old`` no longer current, the background kept; the new value is not asked for (an
    ending, or a change whose value the memory may word its own way)."""
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now
    assert background_kept(now)


def keeps(store: Any, before: str, after: str) -> None:
    """Assert that ``after`` supersedes nothing and ``before``'s last word is still held."""
    assert "supersede" not in tell_after(store, before, after), current(store)
    assert before.split()[-1].rstrip(".") in current(store), current(store)
