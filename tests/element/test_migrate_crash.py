"""``triform migrate`` killed in its swap (docs/deploy.md): the target's older versions of
the memories changed at the source are deleted and the newer ones not yet imported. What
is left: the target without those memories (every other one intact, the source
untouched); the same command run again finishes the copy."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from element import Home
from element.transfer import migrate_catalog, migrate_memories
from index import MemorySettings
from tests.helpers import ROOT, run_cli, start_home
from tests.pg import PgServer

SETTINGS = MemorySettings()
MARIA = {"subject_type": "guest", "subject_id": "maria"}

# The CLI's migrate, killed (SIGKILL: no cleanup runs) when the swap's import starts, that
# is after the swap deleted the target's older versions.
_KILLED_IN_THE_SWAP = """
import os, runpy, signal, sys
import element.transfer.migrate as migrate
real = migrate.import_into
def dying(dest, parsed, *, settings, forgotten):
    if settings.max_memories == migrate.MAX_CAP:
        os.kill(os.getpid(), signal.SIGKILL)
    return real(dest, parsed, settings=settings, forgotten=forgotten)
migrate.import_into = dying
sys.argv = ["triform", *sys.argv[1:]]
runpy.run_module("api.cli", run_name="__main__")
"""


def _versions(home: Home, ids: list[str]) -> dict[str, object]:
    with home.memory_store(home.catalog.element_at("demo/memory")) as store:
        held = {m["id"] for m in store.export()[1]}
        return {i: (store.get(i), store.history(i)) if i in held else None for i in ids}


def test_a_migrate_killed_in_its_swap_is_finished_by_running_it_again(
        tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("migrate_killed")
    home = tmp_path / "home"
    with start_home(home, "hashing") as source:
        source.init("demo")
        element = source.catalog.element_at("demo/memory")
        with source.memory_store(element) as store:
            porto, tea, cat = (store.store(content=text, category="fact", **MARIA,
                                           settings=SETTINGS).memory["id"]
                               for text in ("Maria lives in Porto", "Maria likes tea",
                                            "Maria has a cat"))
        with Home(home, lambda: source.embedder, database=url,
                  leaving_database=True) as target:
            assert migrate_catalog(source, target)["verified"]
            migrate_memories(source, target)
        # Changed at the source since: the next copy swaps porto and tea.
        with source.memory_store(element) as store:
            lisbon = store.store(content="Maria lives in Lisbon", category="fact", **MARIA,
                                 supersedes=[porto], settings=SETTINGS).memory["id"]
            store.update(tea, content="Maria likes green tea", settings=SETTINGS)
        ids = [porto, tea, cat, lisbon]
        expected = _versions(source, ids)

    killed = subprocess.run([sys.executable, "-c", _KILLED_IN_THE_SWAP, "--home", str(home),
                             "--embedder", "hashing", "migrate", "--to", url], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    with start_home(home, "hashing") as source, \
            Home(home, lambda: source.embedder, database=url,
                 leaving_database=True) as target:
        assert _versions(source, ids) == expected                 # the source untouched
        left = _versions(target, ids)
        # The swapped ones are gone from the target; the new one and the rest are there.
        assert left[porto] is None and left[tea] is None
        assert left[lisbon] == expected[lisbon] and left[cat] == expected[cat]
        assert not (home / "database.json").exists()               # still on files

    again = run_cli(home, "migrate", "--to", url)
    assert again.returncode == 0, again.stderr
    assert (home / "database.json").exists()
    with start_home(home, "hashing", database=url) as target:
        assert _versions(target, ids) == expected
