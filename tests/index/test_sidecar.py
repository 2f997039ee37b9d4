"""The sidecar checkpoint: used when valid, rebuilt from the log otherwise (index/sidecar.py)."""

from __future__ import annotations

import json
import shutil

import pytest

from index import MemorySettings
from index.sidecar import MANIFEST

# Checkpoints are the file-backed store's own mechanism; PostgreSQL has none.
pytestmark = pytest.mark.file_only("sidecar checkpoints")

S = MemorySettings(relevance_threshold=0.0)


def fill(store, n, start=0):
    for i in range(start, start + n):
        store.store(content=f"memory {i} about topic {i % 5}", category="fact",
                    context=f"context {i % 3}" if i % 2 else None,
                    subject_type="guest" if i % 4 == 0 else None,
                    subject_id=f"s{i % 3}" if i % 4 == 0 else None, settings=S)


def state_of(store):
    """What a client observes: the list, then searches (exact at this size) and the list
    again (searches count accesses, which the log records too)."""
    before = store.list(limit=500)[0]
    searches = [[(r["memory"]["id"], round(r["score"], 6))
                 for r in store.search(query=q, settings=S).results]
                for q in ("topic 1", "memory 3", "context 2")]
    return before, searches, store.list(limit=500)[0]


def crash_image(store, target):
    """Copy the directory while the store is open: what the disk holds after a crash."""
    shutil.copytree(store.directory, target, ignore=shutil.ignore_patterns("lock"))
    return target


def test_a_clean_reopen_loads_the_checkpoint(make_store):
    store = make_store()
    fill(store, 30)
    store.close()
    again = make_store()
    report = again.open_report
    assert report["sidecar"] == "loaded" and not report["rebuilt"]
    assert report["replayed"] == 0 and report["memories"] == 30


def test_a_crash_replays_only_the_tail(make_store, tmp_path):
    store = make_store(checkpoint_every=10)
    fill(store, 25)
    image = crash_image(store, tmp_path / "image")
    expected = store.list(limit=500)[0]
    again = make_store(directory=image)
    assert again.open_report["sidecar"] == "loaded"
    assert 0 < again.open_report["replayed"] < 10
    assert again.list(limit=500)[0] == expected


@pytest.mark.parametrize("damage,reason", [
    ("delete_manifest", "missing"),
    ("garble_manifest", "corrupt: manifest does not parse"),
    ("flip_hnsw_byte", "corrupt: content.g"),
    ("truncate_vectors", "corrupt: context.g"),
    ("future_offset", "stale: its offset"),
])
def test_a_bad_checkpoint_is_rebuilt_from_the_log(make_store, tmp_path, damage, reason):
    store = make_store()
    fill(store, 40)
    store.delete(store.list(limit=1)[0][0]["id"])
    store.close()
    live = make_store()
    expected = state_of(live)
    live.close()
    directory = live.directory
    manifest = json.loads((directory / MANIFEST).read_text())
    generation = manifest["generation"]
    if damage == "delete_manifest":
        (directory / MANIFEST).unlink()
    elif damage == "garble_manifest":
        (directory / MANIFEST).write_text("{nope")
    elif damage == "flip_hnsw_byte":
        path = directory / f"content.g{generation}.hnsw"
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    elif damage == "truncate_vectors":
        path = directory / f"context.g{generation}.npy"
        path.write_bytes(path.read_bytes()[:-10])
    elif damage == "future_offset":
        manifest["log_offset"] += 5
        (directory / MANIFEST).write_text(json.dumps(manifest))
    rebuilt = make_store()
    assert rebuilt.open_report["rebuilt"]
    assert rebuilt.open_report["sidecar"].startswith(reason)
    _, live_searches, live_after = expected
    before, searches, _ = state_of(rebuilt)
    assert before == live_after and searches == live_searches   # rebuild == incremental
    rebuilt.close()
    assert make_store().open_report["sidecar"] == "loaded"   # and it checkpoints again


def test_a_checkpoint_of_another_log_is_stale(make_store, tmp_path):
    store = make_store()
    fill(store, 10)
    store.close()
    saved = tmp_path / "old-sidecar"
    saved.mkdir()
    for path in store.directory.iterdir():
        if path.name not in ("memories.jsonl", "lock"):
            shutil.copy(path, saved / path.name)
    store = make_store()
    store.compact()            # a new log with a new id
    fill(store, 3, start=10)
    store.close()
    for path in store.directory.iterdir():
        if path.name not in ("memories.jsonl", "lock"):
            path.unlink()
    for path in saved.iterdir():
        shutil.copy(path, store.directory / path.name)
    again = make_store()
    assert again.open_report["sidecar"].startswith("stale: it covers another log")
    assert len(again) == 13


def test_other_model_is_reported(make_store, defaults):
    from index import HashingEmbedder
    store = make_store()
    fill(store, 3)
    store.close()
    other = make_store(embedder=HashingEmbedder(48))
    assert other.open_report["sidecar"].startswith("other model")
    assert other.open_report["stale_vectors"] == 3


def test_only_one_generation_stays_on_disk(make_store):
    store = make_store(checkpoint_every=3)
    fill(store, 20)
    store.close()
    names = sorted(p.name for p in store.directory.iterdir())
    generations = {n.split(".")[1] for n in names if n.endswith((".hnsw", ".npy"))}
    assert len(generations) == 1
    assert "records." + generations.pop() + ".json" in names


def test_snapshot_columns_follow_the_record_field_order():
    """restore() builds records positionally from these columns."""
    import dataclasses

    from index.records import MemoryRecord
    from index.checkpoint import SNAPSHOT_FIELDS
    names = [f.name for f in dataclasses.fields(MemoryRecord)]
    assert tuple(names[:len(SNAPSHOT_FIELDS)]) == SNAPSHOT_FIELDS
    assert names[len(SNAPSHOT_FIELDS):] == ["key_evicted", "key_warnings", "tokens",
                                            "occurred_at", "occurred_ts", "valid_from",
                                            "valid_from_ts", "valid_until", "valid_until_ts",
                                            "superseded_by", "history"]


def test_a_flipped_vector_byte_is_caught_while_reading(make_store):
    store = make_store()
    fill(store, 12)
    store.close()
    generation = json.loads((store.directory / MANIFEST).read_text())["generation"]
    path = store.directory / f"content.g{generation}.npy"
    data = bytearray(path.read_bytes())
    data[-7] ^= 0x10
    path.write_bytes(bytes(data))
    again = make_store()
    assert again.open_report["rebuilt"] and "checksum" in again.open_report["sidecar"]
    assert len(again) == 12


def test_checkpoints_happen_on_their_own(make_store):
    store = make_store()
    fill(store, 520)          # the adaptive interval is 500 ops at this size
    manifest = json.loads((store.directory / MANIFEST).read_text())
    assert manifest["count"] >= 500
