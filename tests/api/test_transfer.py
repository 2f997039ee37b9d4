"""Memory export and import over real HTTP (issue 11): a memory element's memories travel to
another home on another server whole (ids, fields, times, access counts) and recall the
same; an import is checked whole before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Server, assert_error, create, serve

MEMORY = "/api/demo/memory/ops"
NDJSON = {"Content-Type": "application/x-ndjson"}
PEOPLE = ["ana", "ben", "chloe"]
FACTS = [
    ("prefers green tea over coffee in the morning", "chat about breakfast",
     "plan a morning meeting"),
    ("is allergic to peanuts", "ordering lunch for the team", "avoid a medical emergency"),
    ("lives in Lyon near the river", "talk about commuting", "book a taxi"),
    ("plays the cello in an amateur orchestra", "weekend plans", "suggest a concert"),
    ("works as a nurse on night shifts", "scheduling a call", "find a time to talk"),
    ("has a golden retriever called Max", "photos on the phone", "recommend a pet sitter"),
    ("is learning Japanese for a trip to Kyoto", "travel chat", "plan a holiday"),
    ("runs a marathon every spring", "fitness goals", "suggest a training plan"),
]
QUERIES = [("what does she drink in the morning?", "breakfast", None),
           ("food allergy", None, "order lunch"),
           ("where does he live?", None, None),
           ("music hobby", "weekend", None),
           ("when can we call?", None, "schedule a call")]


def _post(client: Any, op: str, body: Any, **kw: Any) -> Any:
    return client.post(f"{MEMORY}/{op}", body, **kw)


def _fill(srv: Server) -> None:
    client = srv.client(live=True)
    items = [{"content": f"{who.title()} {fact}", "category": "preference" if i % 2 else "fact",
              "subject_type": "guest", "subject_id": who, "context": ctx, "intention": goal,
              "agent": "bot", "metadata": {"n": i}, "occurred_at": f"2024-0{1 + i % 9}-10"}
             for who in PEOPLE for i, (fact, ctx, goal) in enumerate(FACTS)]
    items += [{"content": "The office is closed on public holidays", "category": "fact"},
              {"content": "Standup happens at 9:30 every weekday", "category": "procedure",
               "context": "team rituals"}]
    assert _post(client, "store_batch", {"memories": items}).status == 201
    for query, context, intention in QUERIES[:2]:    # some access statistics to carry over
        _post(client, "search", {"query": query, "context": context, "intention": intention,
                                 "subject_type": "guest", "subject_id": "ana"})


def _everything(client: Any) -> list[dict[str, Any]]:
    found, cursor = [], None
    while True:
        reply = client.get(f"{MEMORY}/memories?limit=500" + (f"&cursor={cursor}"
                                                               if cursor else ""))
        found += reply.body["memories"]
        cursor = reply.body["next_cursor"]
        if cursor is None:
            return found


def _top10(client: Any) -> list[list[str]]:
    out = []
    for who in PEOPLE:
        for query, context, intention in QUERIES:
            reply = _post(client, "search", {"query": query, "context": context,
                                             "intention": intention, "limit": 10,
                                             "subject_type": "guest", "subject_id": who})
            out.append([r["memory"]["id"] for r in reply.body["results"]])
    return out


def _export(client: Any, query: str = "") -> bytes:
    reply = client.get(f"{MEMORY}/export/memories{query}")
    assert reply.status == 200, reply.raw[:300]
    assert reply.headers["Content-Type"].startswith("application/x-ndjson")
    return reply.raw


@pytest.fixture
def real_pair(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Two homes with the real model, each on its own server."""
    first, second = serve(tmp_path / "a", "fastembed"), serve(tmp_path / "b", "fastembed")
    yield first, second
    first.close()
    second.close()


@pytest.mark.parametrize("vectors", [True, False])
def test_memories_move_to_another_server_whole_and_recall_the_same(
        real_pair: tuple[Server, Server], vectors: bool) -> None:
    source, target = real_pair
    _fill(source)
    a, b = source.client(live=True), target.client(live=True)
    before = _everything(a)
    data = _export(a, "?vectors=true" if vectors else "")
    header = json.loads(data.splitlines()[0])
    assert header["format"] == "triform-memories" and header["version"] == 1
    assert header["count"] == len(before) == 26 and header["element"] == "demo/memory"
    assert ("vectors" in json.loads(data.splitlines()[1])) is vectors

    reply = _post(b, "import/memories", None, raw=data, headers=NDJSON)
    assert reply.status == 200, reply.body
    assert reply.body["imported"] == 26 and reply.body["skipped"] == 0
    assert reply.body["embedded_here"] == (0 if vectors else 26)
    assert reply.body["errors"] == [] and reply.body["warnings"] == []
    after = _everything(b)
    assert after == before          # same ids, fields, times, access counts; same order
    assert any(m["access_count"] > 0 for m in after)
    assert _top10(b) == _top10(a)

    again = _post(b, "import/memories", None, raw=data, headers=NDJSON)
    assert (again.body["imported"], again.body["skipped"]) == (0, 26)
    assert [m["id"] for m in _everything(b)] == [m["id"] for m in before]


@pytest.fixture
def hashing(tmp_path: Path) -> Iterator[Server]:
    srv = serve(tmp_path / "h")
    yield srv
    srv.close()


def _some(srv: Server, n: int = 3) -> bytes:
    client = srv.client(live=True)
    for i in range(n):
        assert _post(client, "store", {"content": f"memory {i}", "category": "fact"}).status \
            == 201
    return _export(client)


def _copy(srv: Server, **properties: Any) -> Any:
    client = srv.client(live=True)
    create(client, "memory", "copy", **properties)
    return client


def _into_copy(client: Any, data: bytes) -> Any:
    return client.post("/api/demo/copy/ops/import/memories", raw=data, headers=NDJSON)


def _copy_total(client: Any) -> int:
    return int(client.get("/api/demo/copy/ops/stats").body["total"])


def test_a_bad_line_refuses_the_whole_import_naming_it(hashing: Server) -> None:
    data = _some(hashing).splitlines()
    bad = json.loads(data[2])
    bad["category"] = "gossip"
    client = _copy(hashing)
    body = b"\n".join([*data[:2], json.dumps(bad).encode(), *data[3:]]) + b"\n"
    error = assert_error(_into_copy(client, body), 400, "IMPORT_INVALID")
    assert error["message"].startswith("line 3:") and "gossip" in error["message"], error
    assert _copy_total(client) == 0


@pytest.mark.parametrize("cut", ["inside a line", "at a line end"])
def test_a_file_cut_short_is_refused(hashing: Server, cut: str) -> None:
    data = _some(hashing)
    client = _copy(hashing)
    short = data[:-20] if cut == "inside a line" else \
        b"".join(data.splitlines(keepends=True)[:-1])
    error = assert_error(_into_copy(client, short), 400, "IMPORT_INVALID")
    assert ("line 4" in error["message"]) if cut == "inside a line" else \
        ("cut short" in error["message"])
    assert _copy_total(client) == 0


def test_a_foreign_format_or_version_is_refused(hashing: Server) -> None:
    lines = _some(hashing).splitlines(keepends=True)
    client = _copy(hashing)
    header = json.loads(lines[0])
    for changed, words in (({"version": 2}, "format version 2"),
                           ({"format": "mem0"}, "not the header")):
        body = json.dumps({**header, **changed}).encode() + b"\n" + b"".join(lines[1:])
        error = assert_error(_into_copy(client, body), 400, "IMPORT_INVALID")
        assert error["message"].startswith("line 1:") and words in error["message"]
    for body in (b"", b"not json\n", b'{"content": "x"}\n'):
        assert_error(_into_copy(client, body), 400, "IMPORT_INVALID")
    duplicated = b"".join([lines[0].replace(b'"count":3', b'"count":4'), *lines[1:],
                           lines[1]])
    error = assert_error(_into_copy(client, duplicated), 400, "IMPORT_INVALID")
    assert "already on line 2" in error["message"]
    assert _copy_total(client) == 0
    # curl --data-binary without -H sends form encoding: the export is still read as such.
    sent = client.post("/api/demo/copy/ops/import/memories", raw=b"".join(lines),
                       headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert sent.status == 200 and sent.body["imported"] == 3, sent.body


def test_another_models_vectors_are_not_used_the_texts_are_embedded(hashing: Server) -> None:
    client = hashing.client(live=True)
    _post(client, "store", {"content": "Ana likes tea", "category": "fact",
                            "context": "breakfast"})
    lines = _export(client, "?vectors=true").splitlines(keepends=True)
    header = {**json.loads(lines[0]), "model": "some-other-model"}
    target = _copy(hashing)
    reply = _into_copy(target, json.dumps(header).encode() + b"\n" + b"".join(lines[1:]))
    assert reply.status == 200, reply.body
    assert reply.body["embedded_here"] == 1 and reply.body["warnings"] == ["IMPORT_REEMBEDDED"]
    found = target.post("/api/demo/copy/ops/search", {"query": "Ana likes tea"}).body
    assert found["results"][0]["memory"]["embedded"] is True and "fallback" not in found


def test_vectors_of_the_wrong_size_refuse_the_line(hashing: Server) -> None:
    client = hashing.client(live=True)
    _post(client, "store", {"content": "Ana likes tea", "category": "fact"})
    lines = _export(client, "?vectors=true").splitlines(keepends=True)
    memory = json.loads(lines[1])
    memory["vectors"]["content"] = memory["vectors"]["content"][:12]
    target = _copy(hashing)
    error = assert_error(_into_copy(target, lines[0] + json.dumps(memory).encode() + b"\n"),
                         400, "IMPORT_INVALID")
    assert error["message"].startswith("line 2: vectors.content")


def test_export_filters_as_list_and_needs_read_import_needs_write(hashing: Server) -> None:
    client = hashing.client(live=True)
    _post(client, "store", {"content": "Ana likes tea", "category": "preference",
                            "subject_type": "guest", "subject_id": "ana"})
    _some(hashing, 2)
    only = _export(client, "?category=preference").splitlines()
    assert json.loads(only[0])["count"] == 1 and len(only) == 2
    assert json.loads(only[1])["subject_id"] == "ana"
    by_subject = _export(client, "?subject_type=guest&subject_id=ana").splitlines()
    assert len(by_subject) == 2
    assert_error(client.get(f"{MEMORY}/export/memories?category=gossip"), 400)
    assert_error(client.get(f"{MEMORY}/export/memories?vectors=maybe"), 400)
    viewer = hashing.client("viewer", live=True)
    data = viewer.get(f"{MEMORY}/export/memories").raw
    assert_error(viewer.post(f"{MEMORY}/import/memories", raw=data, headers=NDJSON), 403)


def test_a_forgotten_subject_does_not_come_back_by_import(hashing: Server) -> None:
    client = hashing.client(live=True)
    _post(client, "store", {"content": "Ana likes tea", "category": "fact",
                            "subject_type": "guest", "subject_id": "ana"})
    _post(client, "store", {"content": "general fact", "category": "fact"})
    data = _export(client)
    forgot = _post(client, "forget_subject", {"subject_type": "guest", "subject_id": "ana"},
                   headers={"X-Confirm": "destructive"})
    assert forgot.status == 200 and forgot.body["deleted"] == 1
    # Told again after the forget: that one is new and stays.
    _post(client, "store", {"content": "Ana now likes coffee", "category": "fact",
                            "subject_type": "guest", "subject_id": "ana"})
    reply = _post(client, "import/memories", None, raw=data, headers=NDJSON)
    assert (reply.body["imported"], reply.body["skipped"], reply.body["forgotten"]) == \
        (0, 1, 1)
    contents = {m["content"] for m in _everything(client)}
    assert contents == {"general fact", "Ana now likes coffee"}
    # An export made after the forget carries it: another element honours it too.
    target = _copy(hashing)
    fresh = _export(client)
    assert json.loads(fresh.splitlines()[0])["forgotten"][0]["subject_id"] == "ana"
    stale = fresh.splitlines(keepends=True)[0] + b"".join(data.splitlines(keepends=True)[1:])
    assert _into_copy(target, stale).body["forgotten"] == 1


def test_import_applies_capacity_and_eviction_as_store(hashing: Server) -> None:
    data = _some(hashing, 5)
    target = _copy(hashing, max_memories=3)
    reply = _into_copy(target, data)
    assert reply.status == 200, reply.body
    assert reply.body["imported"] == 5 and reply.body["evicted"] == 2
    assert _copy_total(target) == 3
    kept = {m["content"] for m in target.get("/api/demo/copy/ops/memories").body["memories"]}
    assert kept == {"memory 2", "memory 3", "memory 4"}     # the oldest gave way
