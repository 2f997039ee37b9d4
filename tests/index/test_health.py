"""verify(): the files checked against the loaded memories, and repaired (index/health.py).

Also the log that goes missing: while the store is open (verify and close write it back)
and while it is closed (the store refuses to open, and restore_log writes it back from the
checkpoint).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from index import HashingEmbedder, LogCorrupt, LogMissing, MemorySettings, MemoryStore
from index.engine import LOG_NAME
from index.health import COMPACTED, LOG_DETACHED, REWROTE_LOG
from index.sidecar import MANIFEST, read_manifest

# verify() here checks the log and sidecar files; the PostgreSQL store's verify is
# tested in tests/index/test_postgres.py.
pytestmark = pytest.mark.file_only("the log and sidecar health checks")

S = MemorySettings(relevance_threshold=0.0)


def fill(store: MemoryStore, n: int) -> None:
    for i in range(n):
        store.store(content=f"memory {i:03d} about topic {i % 5}", category="fact",
                    context=f"context {i % 3}" if i % 2 else None,
                    subject_type="guest" if i % 4 == 0 else None,
                    subject_id=f"s{i % 3}" if i % 4 == 0 else None,
                    idempotency_key=f"key-{i}" if i % 3 == 0 else None, settings=S)


def everything(store: MemoryStore) -> list[dict]:
    return list(store.iter_memories())


def rewrite_log(directory: Path, old: bytes, new: bytes) -> int:
    """Replace ``old`` by ``new`` (same length) inside the log; return its offset."""
    assert len(old) == len(new)
    data = (directory / LOG_NAME).read_bytes()
    at = data.index(old)
    (directory / LOG_NAME).write_bytes(data[:at] + new + data[at + len(old):])
    return at


def test_a_healthy_store_has_no_findings(make_store):
    store = make_store(checkpoint_every=7)
    fill(store, 20)
    store.search(query="topic 1", settings=S)
    store.delete(everything(store)[3]["id"])
    assert store.verify() == []
    assert store.verify(repair=True) == []


def test_damage_behind_the_checkpoint_is_found_and_repaired(make_store, tmp_path):
    store = make_store()
    fill(store, 20)
    expected = everything(store)
    store.close()
    # The checkpoint covers the whole log, so opening reads none of it: damage there is
    # invisible until a rebuild. A changed word keeps the line valid JSON.
    rewrite_log(tmp_path / "mem", b"memory 007", b"memorX 007")
    store = make_store()
    assert store.open_report["replayed"] == 0 and everything(store) == expected
    found = store.verify()
    assert [item["fixable"] for item in found] == [True]
    assert "disagrees with the loaded memories on 1 memories" in found[0]["problem"]
    assert "fixed" not in found[0]
    # Why it matters: a rebuild from this log brings back the damaged text.
    image = tmp_path / "image"
    shutil.copytree(tmp_path / "mem", image, ignore=shutil.ignore_patterns("lock"))
    (image / MANIFEST).unlink()
    with MemoryStore(image, HashingEmbedder(256)) as rebuilt:
        assert any(m["content"].startswith("memorX") for m in everything(rebuilt))

    fixed = store.verify(repair=True)
    assert [(item["fixed"], item["fix"]) for item in fixed] == [(True, REWROTE_LOG)]
    assert store.verify() == []
    store.close()
    (tmp_path / "mem" / MANIFEST).unlink()
    rebuilt = make_store()
    assert rebuilt.open_report["rebuilt"] and everything(rebuilt) == expected


def test_an_unreadable_line_behind_the_checkpoint_is_found(make_store, tmp_path):
    store = make_store()
    fill(store, 12)
    expected = everything(store)
    store.close()
    at = rewrite_log(tmp_path / "mem", b'"memory 004', b'\x00memory 004')
    image = tmp_path / "image"
    shutil.copytree(tmp_path / "mem", image)
    (image / MANIFEST).unlink()
    with pytest.raises(LogCorrupt):          # what a rebuild would meet
        MemoryStore(image, HashingEmbedder(256))
    store = make_store()
    found = store.verify()
    line_start = (tmp_path / "mem" / LOG_NAME).read_bytes().rindex(b"\n", 0, at) + 1
    assert [item["problem"] for item in found] == [
        f"the memory log is corrupt at byte {line_start}: unreadable line "
        "(JSONDecodeError) (a restart that rebuilds from the log would fail)"]
    assert store.verify(repair=True)[0]["fix"] == REWROTE_LOG
    store.close()
    (tmp_path / "mem" / MANIFEST).unlink()
    assert everything(make_store()) == expected


def test_a_sidecar_that_is_missing_stale_or_corrupt_is_rewritten(make_store, tmp_path):
    directory = tmp_path / "mem"
    store = make_store()
    fill(store, 10)
    assert store.verify() == []
    (directory / MANIFEST).unlink()
    assert [i["problem"] for i in store.verify()] == [
        "the memory sidecar is missing (the next start rebuilds it from the log)"]
    assert [i["fix"] for i in store.verify(repair=True)] == [COMPACTED]
    manifest = read_manifest(directory)
    assert manifest is not None
    (directory / MANIFEST).write_text(json.dumps(dict(manifest, log_id="0" * 32)))
    assert "stale" in store.verify()[0]["problem"]
    (directory / MANIFEST).write_text(json.dumps(manifest))
    assert store.verify() == []
    vectors = directory / f"content.g{manifest['generation']}.npy"
    data = bytearray(vectors.read_bytes())
    data[-5] ^= 0xFF
    vectors.write_bytes(bytes(data))
    found = store.verify(repair=True)
    assert found[0]["problem"] == (
        f"the memory sidecar is corrupt: {vectors.name} does not match its checksum "
        "(the next start rebuilds it from the log)")
    assert found[0]["fixed"] and store.verify() == []
    store.close()
    assert make_store().open_report["sidecar"] == "loaded"


def test_memories_without_vectors_are_embedded_by_repair(make_store, make_flaky):
    flaky = make_flaky(failing=True)
    store = make_store(embedder=flaky)
    store.store(content="stored during an outage", category="fact", settings=S)
    assert store.verify(repair=True) == [{
        "problem": "1 memories have no vectors (text search only)", "fixable": True,
        "fix_failed": "the embedder failed; 0 memories were repaired before it did"}]
    flaky.failing = False
    assert store.verify(repair=True) == [{
        "problem": "1 memories have no vectors (text search only)", "fixable": True,
        "fix": "embedded 1 memories", "fixed": True}]
    assert store.verify() == []


def test_a_log_deleted_while_open_is_written_back(make_store, tmp_path):
    store = make_store()
    fill(store, 8)
    expected = everything(store)
    (tmp_path / "mem" / LOG_NAME).unlink()
    found = store.verify()
    assert [i["problem"] for i in found] == [LOG_DETACHED]
    assert store.verify(repair=True)[0]["fix"] == REWROTE_LOG
    assert (tmp_path / "mem" / LOG_NAME).exists() and store.verify() == []
    (tmp_path / "mem" / LOG_NAME).unlink()
    store.store(content="one more", category="fact", settings=S)
    expected = everything(store)
    store.close()                             # close writes it back too
    assert everything(make_store()) == expected


# -- a log missing while the store is closed ---------------------------------------------

@pytest.mark.parametrize("damage", ["deleted", "emptied"])
def test_a_missing_log_beside_a_checkpoint_refuses_to_open(make_store, tmp_path, damage):
    directory = tmp_path / "mem"
    store = make_store()
    fill(store, 9)
    store.close()
    if damage == "deleted":
        (directory / LOG_NAME).unlink()
    else:
        (directory / LOG_NAME).write_bytes(b"")
    before = {p.name: p.read_bytes() for p in directory.iterdir() if p.name != "lock"}
    with pytest.raises(LogMissing) as info:
        make_store()
    err = info.value
    assert (err.code, err.error_class, err.retryable) == ("MEMORY_LOG_MISSING", "internal",
                                                          False)
    assert err.memories == 9 and "restore_log" in err.message
    after = {p.name: p.read_bytes() for p in directory.iterdir() if p.name != "lock"}
    assert after == before                    # nothing written, the checkpoint intact
    with pytest.raises(LogMissing):           # and it stays refused
        make_store()


def test_restore_log_writes_the_log_back_from_the_checkpoint(make_store, tmp_path, clock):
    directory = tmp_path / "mem"
    store = make_store()
    fill(store, 9)
    store.search(query="topic 2", settings=S)
    expected = everything(store)
    store.close()
    (directory / LOG_NAME).unlink()
    restored = make_store(restore_log=True)
    assert restored.open_report["log_restored"] == 9
    assert everything(restored) == expected   # access counts included
    assert restored.verify() == []
    image = tmp_path / "image"                # the written-back log holds it all alone
    shutil.copytree(directory, image, ignore=shutil.ignore_patterns("lock"))
    (image / MANIFEST).unlink()
    with MemoryStore(image, HashingEmbedder(256)) as rebuilt:
        assert rebuilt.open_report["rebuilt"] and everything(rebuilt) == expected
    again = restored.store(content="memory 000 about topic 0", category="fact",
                           subject_type="guest", subject_id="s0", idempotency_key="key-0",
                           settings=S)        # keys survive: a retry finds its memory
    assert again.memory == next(m for m in expected if m["content"].startswith("memory 000"))
    restored.store(content="after the restore", category="fact", settings=S)
    restored.close()
    reopened = make_store()
    assert reopened.open_report["sidecar"] == "loaded" and len(reopened) == 10


def test_restore_log_with_an_unusable_checkpoint_changes_nothing(make_store, tmp_path):
    directory = tmp_path / "mem"
    store = make_store()
    fill(store, 5)
    store.close()
    (directory / LOG_NAME).unlink()
    before = {p.name: p.read_bytes() for p in directory.iterdir() if p.name != "lock"}
    with pytest.raises(LogMissing) as info:
        make_store(embedder=HashingEmbedder(64), restore_log=True)   # another model
    assert info.value.unusable is not None and "other model" in info.value.message
    assert {p.name: p.read_bytes() for p in directory.iterdir()
            if p.name != "lock"} == before


def test_a_missing_log_beside_an_empty_checkpoint_opens_empty(make_store, tmp_path):
    store = make_store()
    store.close()
    (tmp_path / "mem" / LOG_NAME).unlink()
    assert len(make_store()) == 0
