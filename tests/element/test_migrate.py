"""``migrate`` run again (docs/deploy.md): it writes nothing when nothing changed, brings
the source's changes to memories the target holds (an update, a supersede, a retire), and
reports a different memory under one id as a conflict instead of dropping it silently."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from element import Home
from element.transfer import migrate_catalog, migrate_memories
from index import MemorySettings, validate_imported
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
