"""Private files and a full disk (index/files.py and the write paths that use it).

The full-disk tests fill a real filesystem: a 2 MiB tmpfs mounted for the test (needs
root; skipped otherwise), and a file size limit (``RLIMIT_FSIZE`` with SIGXFSZ ignored,
so a write past it fails with EFBIG) in a child process, which needs no privilege.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from index import HashingEmbedder, MemorySettings, MemoryStore, StorageFull
from index.engine import LOG_NAME

ROOT = Path(__file__).resolve().parents[2]
S = MemorySettings(relevance_threshold=0.0)
BIG = "a long memory about the garden " * 400     # 12 KB: a line spans several pages


def modes(directory: Path) -> dict[str, int]:
    return {p.name: stat.S_IMODE(p.stat().st_mode) for p in directory.iterdir()}


def exercise(directory: Path) -> None:
    """Create every kind of file: log, lock, checkpoint, compaction."""
    with MemoryStore(directory, HashingEmbedder(64), checkpoint_every=2) as store:
        for i in range(5):
            store.store(content=f"memory {i}", category="fact", context="talk",
                        settings=S)
        store.search(query="memory", settings=S)
        store.compact()


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o277])
def test_the_runtime_directory_is_private_whatever_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        exercise(tmp_path / "mem")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "mem").stat().st_mode) == 0o700
    files = modes(tmp_path / "mem")
    assert {"lock", LOG_NAME, "sidecar.json"} <= set(files)
    assert any(name.startswith("records.g") for name in files)
    assert set(files.values()) == {0o600}, files


def test_an_existing_directory_is_made_private_on_open(tmp_path):
    exercise(tmp_path / "mem")
    os.chmod(tmp_path / "mem", 0o755)
    for path in (tmp_path / "mem").iterdir():
        os.chmod(path, 0o644)
    MemoryStore(tmp_path / "mem", HashingEmbedder(64)).close()
    assert stat.S_IMODE((tmp_path / "mem").stat().st_mode) == 0o700
    assert set(modes(tmp_path / "mem").values()) == {0o600}


# -- a full disk ---------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs of our own."""
    yield from tmpfs(tmp_path, "2m")


def tmpfs(tmp_path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted in ``tmp_path`` for a fixture to yield (unmounted
    afterwards, lazily if still busy); the test skips where mounting is refused."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                           str(mount)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs to fill (needs root): "
                    f"{done.stderr.strip() or done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Write a filler file until the filesystem refuses; return it."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_refuses_writes_cleanly_and_recovers(small_disk):
    directory = small_disk / "mem"
    store = MemoryStore(directory, HashingEmbedder(256), checkpoint_every=1000)
    try:
        first = [store.store(content=f"{BIG} {i}", category="fact", context="garden talk",
                             settings=S).memory for i in range(3)]
        filler = fill(small_disk)
        # Reads still answer. Each search appends a small access line until the log's last
        # page is full too; from then on the access counts are not recorded.
        counts = [store.search(query="garden", settings=S).results[0]["memory"]
                  ["access_count"] for _ in range(60)]
        assert counts[-1] == counts[-2] < 60
        before = (directory / LOG_NAME).read_bytes()
        assert before.endswith(b"\n")
        assert all(json.loads(line) for line in before.splitlines())
        listed = list(store.iter_memories())
        failures = [
            lambda: store.store(content=f"{BIG} more", category="fact", settings=S),
            lambda: store.store_many([{"content": f"{BIG} {i}", "category": "fact"}
                                      for i in range(4)], settings=S),
            lambda: store.update(first[0]["id"], content=f"{BIG} changed", settings=S),
            lambda: store.compact(),
        ]
        for call in failures:
            with pytest.raises(StorageFull) as info:
                call()
            err = info.value
            assert (err.code, err.error_class, err.retryable) == ("STORAGE_FULL",
                                                                  "storage_full", True)
            assert "No space left" in err.message
            assert (directory / LOG_NAME).read_bytes() == before   # not a byte more
            assert list(store.iter_memories()) == listed
        store.close()   # the checkpoint fails: logged, and no partial generation is left
        generation = json.loads((directory / "sidecar.json").read_text())["generation"]
        assert {int(match.group(1)) for p in directory.iterdir()
                if (match := re.search(r"\.g(\d+)\.", p.name))} == {generation}
        filler.unlink()
        store = MemoryStore(directory, HashingEmbedder(256))
        assert list(store.iter_memories()) == listed
        added = store.store(content=f"{BIG} after", category="fact", settings=S).memory
        assert store.get(added["id"]) == added and len(store) == 4
        assert store.verify() == []
    finally:
        store.close()


CHILD = """
import json, resource, signal, sys
from pathlib import Path
from index import HashingEmbedder, MemorySettings, MemoryStore, StorageFull
directory = Path(sys.argv[1])
store = MemoryStore(directory, HashingEmbedder(64))
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = (directory / "memories.jsonl").stat().st_size + 100
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
try:
    store.store(content="x" * 2000, category="fact", settings=MemorySettings())
    print(json.dumps({"stored": True}))
except StorageFull as exc:
    print(json.dumps({"code": exc.code, "reason": exc.reason}))
store.close()
"""


def test_the_file_size_limit_is_storage_full(tmp_path):
    directory = tmp_path / "mem"
    with MemoryStore(directory, HashingEmbedder(64)) as store:
        store.store(content="before the limit", category="fact", settings=S)
    before = (directory / LOG_NAME).read_bytes()
    done = subprocess.run([sys.executable, "-c", CHILD, str(directory)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"code": "STORAGE_FULL", "reason": "File too large"}
    assert (directory / LOG_NAME).read_bytes() == before
    with MemoryStore(directory, HashingEmbedder(64)) as store:
        assert [m["content"] for m in store.iter_memories()] == ["before the limit"]
