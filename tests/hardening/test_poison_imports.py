"""No import line bricks an element (issue 26, High 3 and Medium 5).

A line that passed the import's check and then failed the write (``access_count`` past
2^63: an OverflowError when its slot was allocated) stayed in the log: the import answered
500, the element never opened again, and the circle's ``batch_stats`` and console page
answered 500 for everyone. Now every field's range is checked before anything is written,
an import is all-or-nothing, a line that cannot apply never reaches the log, and a log that
already holds one (written before the fix) still opens.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.api.test_console import Browser
from tests.helpers import Server, assert_error, create, serve

NDJSON = {"Content-Type": "application/x-ndjson"}
GOOD = 300


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[Server]:
    opened = serve(tmp_path / "home")
    yield opened
    opened.close()


def _line(n: int, **fields: Any) -> dict[str, Any]:
    return {"id": f"{n:032x}", "content": f"imported memory {n}", "category": "fact",
            "created_at": f"2024-01-01T00:{n // 60 % 60:02d}:{n % 60:02d}Z",
            "access_count": 1, **fields}


def _export(lines: list[dict[str, Any]]) -> bytes:
    header = {"format": "triform-memories", "version": 1, "count": len(lines)}
    return b"".join(json.dumps(x).encode() + b"\n" for x in [header, *lines])


def _import(client: Any, data: bytes, path: str = "demo/memory") -> Any:
    return client.post(f"/api/{path}/ops/import/memories", raw=data, headers=NDJSON)


def _total(client: Any, path: str = "demo/memory") -> int:
    reply = client.get(f"/api/{path}/ops/stats")
    assert reply.status == 200, reply.body
    return int(reply.body["total"])


def _reopened(srv: Server, tmp_path: Path) -> Server:
    srv.close()
    return serve(tmp_path / "home", init=False)


POISON = {
    "access_count at 2^63": {"access_count": 2**63},
    "access_count at 2^64": {"access_count": 2**64},
    "access_count past 2^53": {"access_count": 2**53 + 1},
    "updated_at past 9999 in UTC": {"updated_at": "9999-12-31T23:59:59-05:00"},
    "last_accessed_at not a time": {"last_accessed_at": "yesterday"},
}


@pytest.mark.parametrize("poison", POISON.values(), ids=list(POISON))
def test_a_poison_line_refuses_the_whole_import_and_the_element_lives(
        srv: Server, tmp_path: Path, poison: dict[str, Any]) -> None:
    client = srv.client()
    # Newest first, as an export is: the poison line is the newest, so written last.
    lines = [_line(GOOD, **poison), *(_line(n) for n in range(GOOD))]
    error = assert_error(_import(client, _export(lines)), 400, "IMPORT_INVALID")
    assert error["message"].startswith("line 2:") and next(iter(poison)) in error["message"]
    assert _total(client) == 0
    srv = _reopened(srv, tmp_path)
    try:
        client = srv.client()
        assert _total(client) == 0
        assert _import(client, _export(lines[1:])).status == 200
        assert _total(client) == GOOD
    finally:
        srv.close()


def test_far_past_times_round_trip_through_an_import_and_a_restart(
        srv: Server, tmp_path: Path) -> None:
    """Year 1 passed the check and failed the write (``1-01-01T...``, unpadded, is not
    ISO-8601): the 300 lines before it stayed written."""
    client = srv.client()
    old = _line(GOOD, created_at="0001-01-01T00:00:00Z", occurred_at="0999-05-01")
    reply = _import(client, _export([old, *(_line(n) for n in range(GOOD))]))
    assert reply.status == 200, reply.body
    srv = _reopened(srv, tmp_path)
    try:
        got = srv.client().get(f"/api/demo/memory/ops/memories/{old['id']}").body["memory"]
        assert got["created_at"] == "0001-01-01T00:00:00.000000Z"
        assert got["occurred_at"] == "0999-05-01T00:00:00.000000Z"
        assert _total(srv.client()) == GOOD + 1
    finally:
        srv.close()


def test_an_import_past_capacity_writes_nothing(srv: Server) -> None:
    """Medium 5: a line refused by the write (here: the element is full and, scoped, the
    pool that must give way is empty) used to leave the lines before it written."""
    client = srv.client()
    create(client, "memory", "small", max_memories=5, subject_scoping=True)
    lines = [_line(n, subject_type="guest", subject_id="ana") for n in range(5)]
    lines.insert(0, _line(99))          # general, newest: written last, into a full store
    error = assert_error(_import(client, _export(lines), "demo/small"), 409,
                         "MEMORY_CAPACITY")
    assert "nothing was imported" in error["message"]
    assert _total(client, "demo/small") == 0


def _runtime_log(srv: Server, path: str) -> Path:
    element = srv.home.catalog.element_at(path)
    return srv.home.runtime_path(element) / "memories.jsonl"


def test_an_element_whose_log_holds_an_unappliable_line_opens(srv: Server,
                                                              tmp_path: Path) -> None:
    """A log written before the fix: a store line that can never apply (its slot cannot
    hold the count) sits between good lines. The element opens, without that line, and
    says so in its log; the line is gone from the file."""
    client = srv.client()
    for n in range(3):
        client.post("/api/demo/memory/ops/store", {"content": f"kept {n}", "category": "fact"})
    log = _runtime_log(srv, "demo/memory")
    srv.close()
    lines = log.read_text().splitlines()
    store_line = json.loads(lines[-1])
    store_line["record"].update(id="f" * 32, seq=99, access_count=2**63,
                                content="never stored")
    lines.insert(len(lines) - 1, json.dumps(store_line))
    log.write_text("\n".join(lines) + "\n")
    for name in log.parent.iterdir():           # no checkpoint: the log alone decides
        if name.name not in ("memories.jsonl", "lock"):
            name.unlink()
    srv = serve(tmp_path / "home", init=False)
    try:
        client = srv.client()
        listed = client.get("/api/demo/memory/ops/memories").body["memories"]
        assert sorted(m["content"] for m in listed) == ["kept 0", "kept 1", "kept 2"]
        assert client.get("/api/demo/ops/batch_stats").status == 200
        assert "never stored" not in log.read_text()
    finally:
        srv.close()


def test_one_broken_element_does_not_break_the_circle_views(srv: Server,
                                                            tmp_path: Path) -> None:
    client = srv.client()
    create(client, "memory", "broken")
    client.post("/api/demo/broken/ops/store", {"content": "one", "category": "fact"})
    client.post("/api/demo/broken/ops/store", {"content": "two", "category": "fact"})
    log = _runtime_log(srv, "demo/broken")
    srv.close()
    lines = log.read_text().splitlines()
    lines.insert(1, "{not json at all")       # damaged before its last line: refused
    log.write_text("\n".join(lines) + "\n")
    srv = serve(tmp_path / "home", init=False)
    try:
        viewer = srv.client("viewer")
        stats = viewer.get("/api/demo/ops/batch_stats")
        assert stats.status == 200, stats.body
        rows = {row["path"]: row for row in stats.body["children"]}
        assert rows["demo/broken"]["memories"] is None
        assert rows["demo/broken"]["error"]["code"] == "MEMORY_LOG_CORRUPT"
        assert rows["demo/memory"]["memories"] == 0
        browser = Browser(srv)
        browser.sign_in(srv.tokens["viewer"])
        page = browser.page("/console/c/demo")
        assert "demo/broken" in page and "MEMORY_LOG_CORRUPT" in page
    finally:
        srv.close()


# -- the invariant, over the fields' edges -----------------------------------------------
EDGE_INTS = st.one_of(st.integers(-2, 3), st.sampled_from(
    [2**31, 2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64, 10**30]), st.booleans(), st.floats())
EDGE_TIMES = st.one_of(st.none(), st.sampled_from([
    "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00", "0999-12-31", "1969-12-31T23:59:59Z",
    "2024-02-29T12:00:00.123456Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59-01:00",
    "10000-01-01", "2024-13-01", "", "now", "2024-01-01T00:00:00+25:00"]))


@settings(settings.get_profile("triform"), max_examples=80)
@given(count=EDGE_INTS, created=EDGE_TIMES, updated=EDGE_TIMES, occurred=EDGE_TIMES,
       accessed=EDGE_TIMES)
def test_an_import_line_is_refused_or_survives_a_restart(
        tmp_path_factory: pytest.TempPathFactory, count: Any, created: Any, updated: Any,
        occurred: Any, accessed: Any) -> None:
    """Every line either fails the check (nothing written) or imports, and then the store
    reopens from its log alone holding exactly what the import answered."""
    from index import HashingEmbedder, MemorySettings, MemoryStore, StoreError, \
        validate_imported
    line = {"id": "a" * 32, "content": "edge", "category": "fact",
            "created_at": created or "2024-01-01T00:00:00Z", "access_count": count}
    for name, value in (("updated_at", updated), ("occurred_at", occurred),
                        ("last_accessed_at", accessed)):
        if value is not None:
            line[name] = value
    try:
        item = validate_imported(line)
    except StoreError:
        return
    directory = tmp_path_factory.mktemp("edge") / "store"
    with MemoryStore(directory, HashingEmbedder(32)) as store:
        store.import_memories([item], model_id=None, settings=MemorySettings())
        before = store.get("a" * 32)
    for name in directory.iterdir():            # the log alone: replay, not the checkpoint
        if name.name not in ("memories.jsonl", "lock"):
            name.unlink()
    with MemoryStore(directory, HashingEmbedder(32)) as store:
        assert store.open_report["skipped"] == []
        assert store.get("a" * 32) == before


# -- Medium 6: imported vectors are unit vectors -----------------------------------------
@pytest.mark.parametrize("fill", [3e38, 0.0, 0.5], ids=["huge", "zero", "not-unit"])
def test_an_imported_vector_that_is_not_a_unit_vector_is_refused(srv: Server,
                                                                  fill: float) -> None:
    """An all-3e38 vector scored 1.0 against every query and outranked true matches in
    other subjects' searches; a zero vector matched nothing and passed."""
    import base64

    import numpy as np
    client = srv.client()
    client.post("/api/demo/memory/ops/store", {"content": "an honest memory",
                                               "category": "fact"})
    exported = client.get("/api/demo/memory/ops/export/memories?vectors=true").raw
    header, honest = (json.loads(x) for x in exported.splitlines())
    create(client, "memory", "copy")
    assert _import(client, exported, "demo/copy").status == 200       # unit vectors pass
    dim = header["dim"]
    forged = {**honest, "id": "b" * 32, "vectors": {"content": base64.b64encode(
        np.full(dim, fill, dtype="<f4").tobytes()).decode()}}
    header["count"] = 1
    body = b"".join(json.dumps(x).encode() + b"\n" for x in (header, forged))
    error = assert_error(_import(client, body, "demo/copy"), 400, "IMPORT_INVALID")
    assert "vectors.content" in error["message"] and "unit" in error["message"]
    assert _total(client, "demo/copy") == 1


# -- Low 17: a time from the future escapes retention ------------------------------------
@pytest.mark.parametrize("field", ["created_at", "updated_at", "last_accessed_at"])
def test_an_imported_time_in_the_future_is_refused(srv: Server, field: str) -> None:
    """A memory imported as created in year 9999 was never reaped by retention."""
    client = srv.client()
    error = assert_error(_import(client, _export([_line(1, **{field: "9999-01-01T00:00:00Z"})])),
                         400, "IMPORT_INVALID")
    assert field in error["message"] and "future" in error["message"]
    assert _total(client) == 0


def test_a_planned_event_may_occur_in_the_future(srv: Server) -> None:
    client = srv.client()
    reply = _import(client, _export([_line(1, occurred_at="2999-06-01")]))
    assert reply.status == 200, reply.body


def test_a_line_that_cannot_apply_past_a_checkpoint_rebuilds_from_the_log(
        tmp_path: Path) -> None:
    """Past a checkpoint, such a line may mean the two disagree: the log alone decides."""
    from index import HashingEmbedder, MemorySettings, MemoryStore
    directory = tmp_path / "store"
    with MemoryStore(directory, HashingEmbedder(32)) as store:
        kept = store.store(content="kept", category="fact", settings=MemorySettings())
    log = directory / "memories.jsonl"
    entry = json.loads(log.read_text().splitlines()[-1])
    entry["record"].update(id="e" * 32, seq=9, access_count=2**64)
    with open(log, "a") as f:
        f.write(json.dumps(entry) + "\n")
    with MemoryStore(directory, HashingEmbedder(32)) as store:
        assert store.open_report["sidecar"].startswith("corrupt")
        assert len(store.open_report["skipped"]) == 1
        assert [m["id"] for m in store.list()[0]] == [kept.memory["id"]]
    assert b"e" * 32 not in log.read_bytes()
