"""``migrate`` run again (docs/deploy.md): it writes nothing when nothing changed, brings
the source's changes to memories the target holds (an update, a supersede, a retire), and
reports a different memory under one id as a conflict instead of dropping it silently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from element import Home, Invocation, invoke
from element.transfer import migrate_catalog, migrate_memories
from index import MemoryCapacity, MemorySettings, validate_imported
from tests.helpers import run_cli, start_home
from tests.pg import PgServer

SETTINGS = MemorySettings()
MARIA = {"subject_type": "guest", "subject_id": "maria"}


def _migrate(source: Home, target: Home) -> dict[str, Any]:
    assert migrate_catalog(source, target)["verified"]
    (row,) = [r for r in migrate_memories(source, target) if r["path"] == "demo/memory"]
    return row


def _counts(row: dict[str, Any]) -> tuple[int, int, int, list[str], int]:
    return row["imported"], row["replaced"], row["skipped"], row["conflicts"], row["missing"]


def _versions(home: Home, ids: list[str]) -> dict[str, Any]:
    with home.memory_store(home.catalog.element_at("demo/memory")) as store:
        return {i: (store.get(i), store.history(i)) for i in ids}


def test_migrate_again_replaces_changed_memories_and_reports_conflicts(
        tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("migrate_again")
    with start_home(tmp_path / "home", "hashing") as source:
        source.init("demo")
        element = source.catalog.element_at("demo/memory")
        with source.memory_store(element) as store:
            porto, bakery, tea, other = (store.store(content=text, category="fact", **MARIA,
                                                     settings=SETTINGS).memory["id"]
                                         for text in ("Maria lives in Porto",
                                                      "Maria works at a bakery",
                                                      "Maria likes tea",
                                                      "Maria has a cat"))
        with Home(source.path, lambda: source.embedder, database=url,
                  leaving_database=True) as target:
            assert _counts(_migrate(source, target)) == (4, 0, 0, [], 0)
            # Run again with nothing changed: nothing is written.
            assert _counts(_migrate(source, target)) == (0, 0, 4, [], 0)

            with source.memory_store(element) as store:
                lisbon = store.store(content="Maria lives in Lisbon", category="fact",
                                     **MARIA, supersedes=[porto],
                                     settings=SETTINGS).memory["id"]
                store.retire(bakery, reason="she left")
                store.update(tea, content="Maria likes green tea", settings=SETTINGS)
                crafted = next(m for m in store.export()[1] if m["id"] == other)
            # A different memory under one of the source's ids (an import made it twice):
            # another creation time, another text.
            crafted.update(content="Someone else's note", created_at="2020-01-01T00:00:00Z",
                           updated_at="2020-01-01T00:00:00Z",
                           occurred_at="2020-01-01T00:00:00Z",
                           valid_from="2020-01-01T00:00:00Z")
            with target.memory_store(element) as store:
                store.delete(other)
                store.import_memories([validate_imported(crafted, dim=None)], model_id=None,
                                      settings=SETTINGS)

            row = _migrate(source, target)
            assert _counts(row) == (1, 3, 0, [other], 0)
            changed = [porto, bakery, tea, lisbon]
            assert _versions(target, changed) == _versions(source, changed)
            assert _versions(target, [other])[other][0]["content"] == "Someone else's note"
            # Once more: the conflict is still reported, nothing else is written.
            assert _counts(_migrate(source, target)) == (0, 0, 4, [other], 0)
    # The command fails on it (exit 1) and the home stays on its files.
    done = run_cli(tmp_path / "home", "migrate", "--to", url)
    assert done.returncode == 1 and json.loads(done.stdout)["conflicts"] == 1, done.stderr
    assert not (tmp_path / "home" / "database.json").exists()


def _capped(home: Home, cap: int) -> None:
    """The memory element's cap set (with subject scoping) as its spec_update would."""
    invoke(home, Invocation("demo/memory", op="spec_update", operator="test", body={
        "properties": {"subject_scoping": True, "max_memories": cap}}))


def test_a_replace_the_target_cannot_take_leaves_the_target_as_it_was(
        tmp_path: Path, pg_server: PgServer) -> None:
    """The old order deleted the target's older version first, then imported: when the
    import was refused (a cap lowered since, a new person with no pool to give way), the
    older version was gone from the target. Now the new memories go first and a refusal
    leaves the target whole; a version swapped is not a memory added, so a cap the target
    is already at does not stop it."""
    url = pg_server.create_database("migrate_refused")
    with start_home(tmp_path / "home", "hashing") as source:
        source.init("demo")
        element = source.catalog.element_at("demo/memory")
        _capped(source, 2)
        with source.memory_store(element) as store:
            store.store(content="The office closes at six", category="fact",
                        settings=SETTINGS)
            tea = store.store(content="Maria likes tea", category="fact", **MARIA,
                              settings=SETTINGS).memory["id"]
        with Home(source.path, lambda: source.embedder, database=url,
                  leaving_database=True) as target:
            assert _counts(_migrate(source, target)) == (2, 0, 0, [], 0)
            before = _versions(target, [tea])
            _capped(source, 3)
            with source.memory_store(element) as store:
                store.update(tea, content="Maria likes green tea", settings=SETTINGS)
                store.store(content="Ben plays chess", category="fact",
                            subject_type="guest", subject_id="ben", settings=SETTINGS)
            _capped(source, 2)      # the source holds 3 now, over its cap: allowed
            assert migrate_catalog(source, target)["verified"]
            with pytest.raises(MemoryCapacity):
                migrate_memories(source, target)
            assert _versions(target, [tea]) == before       # still there, as it was
            with target.memory_store(element) as store:
                assert len(store) == 2

            with source.memory_store(element) as store:     # Ben leaves the source
                (ben,) = [m["id"] for m in store.list()[0] if m["subject_id"] == "ben"]
                store.delete(ben)
            row = _migrate(source, target)      # the target is at its cap of 2
            assert _counts(row) == (0, 1, 1, [], 0)
            assert _versions(target, [tea]) == _versions(source, [tea])
            assert _versions(target, [tea])[tea][0]["content"] == "Maria likes green tea"
