"""What a home holds is its owner's alone, whatever the umask (issue 9, Medium 12): its
folders 0700, the catalog (token hashes, activity) and the rate windows 0600, with the
files SQLite adds beside them; a home made before this rule is narrowed when opened."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import start_home


@pytest.fixture
def loose_umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_home_is_private(tmp_path: Path, loose_umask: None) -> None:
    with start_home(tmp_path / "home", "hashing") as home:
        home.init("demo")        # writes: the catalog's -wal and -shm exist now
        found = {p.name: mode(p) for p in home.path.iterdir()}
    assert mode(tmp_path / "home") == 0o700
    assert found["repos"] == found["runtime"] == 0o700
    assert {name: m for name, m in found.items() if name.endswith((".db", "-wal", "-shm"))} \
        == {name: 0o600 for name in found if name.endswith((".db", "-wal", "-shm"))}
    assert {"catalog.db", "catalog.db-wal", "ratelimits.db"} <= set(found)


def test_an_older_home_is_narrowed_and_a_shared_parent_keeps_its_mode(
        tmp_path: Path, loose_umask: None) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    with start_home(shared, "hashing") as home:
        home.init("demo")
    os.chmod(shared / "catalog.db", 0o644)
    os.chmod(shared / "repos", 0o755)
    with start_home(shared, "hashing") as home:
        assert home.catalog.element_at("demo/memory")
    assert mode(shared) == 0o755          # --home may name a folder of other things too
    assert mode(shared / "catalog.db") == 0o600 and mode(shared / "repos") == 0o700
