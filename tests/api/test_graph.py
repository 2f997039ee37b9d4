"""context, tree, batch_stats and activity through the real server."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import assert_error
from tests.helpers import create


@pytest.fixture
def world(server) -> Any:
    """demo: memory, agent (bonds memory) > note (prompt), proj (members memory, agent),
    limit (rate-limit attached to memory)."""
    admin = server.client()
    create(admin, "triformer", "agent", subconscious={"memory": {"element": "memory"}})
    create(admin, "prompt", "note", parent="demo/agent", text="hi")
    create(admin, "project", "proj", members=["memory", "agent", "ghost"])
    create(admin, "rate-limit", "limit", requests=1000)
    reply = admin.post("/api/demo/memory/ops/compose", {"add": [{"ref": "limit"}]})
    server.attachment_id = reply.body["added"][0]["attachment_id"]
    return server


def test_context_lists_relationships(world) -> None:
    viewer = world.client("viewer")
    body = viewer.get("/api/demo/memory/ops/context").body
    assert body["depth"] == 1 and body["element"]["path"] == "demo/memory"
    found = {c["path"]: c for c in body["connections"]}
    assert {p: c["relationship"] for p, c in found.items()} == {
        "demo": "contained_by", "demo/agent": "referenced_by", "demo/proj": "referenced_by",
        "demo/limit": "attached_by"}
    assert found["demo/limit"]["attachment_ids"] == [world.attachment_id]
    deeper = viewer.get("/api/demo/memory/ops/context?depth=2&types=resource").body
    assert [(c["path"], c["depth"]) for c in deeper["connections"]] == [("demo/note", 2)]
    assert deeper["types"] == ["resource"]
    by_type = viewer.get("/api/demo/proj/ops/context?types=memory,triformer").body
    assert sorted(c["path"] for c in by_type["connections"]) == ["demo/agent", "demo/memory"]


def test_context_refuses_bad_queries(world) -> None:
    for query in ("depth=0", "depth=11", "depth=x", "types=gizmo", "colour=red"):
        reply = world.client("viewer").get(f"/api/demo/memory/ops/context?{query}")
        assert_error(reply, 400, "INVALID_REQUEST")


def test_tree_shows_position_members_and_stats(world) -> None:
    viewer = world.client("viewer")
    body = viewer.get("/api/demo/agent/ops/tree").body
    assert [a["path"] for a in body["ancestors"]] == ["demo"]
    assert [c["path"] for c in body["children"]] == ["demo/note"]
    assert [m["path"] for m in body["members"]] == ["demo/memory"]
    assert [r["path"] for r in body["referenced_by"]] == ["demo/proj"]
    assert "name" not in body["element"]
    root = viewer.get("/api/demo/ops/tree?depth=1&include_metadata=true").body
    assert root["stats"]["descendants"] == 4 and root["stats"]["truncated"] is True
    assert all("state" in c for c in root["children"])
    assert root["stats"]["by_type"]["rate-limit"] == 1
    proj = viewer.get("/api/demo/proj/ops/tree").body
    assert [m["path"] for m in proj["members"]] == ["demo/agent", "demo/memory"]
    assert proj["unresolved_members"] == ["ghost"]
    memory = viewer.get("/api/demo/memory/ops/tree").body
    assert [a["attachment_id"] for a in memory["attachments"]] == [world.attachment_id]


def test_tree_refuses_bad_queries(world) -> None:
    for query in ("depth=0", "depth=11", "depth=deep", "include_metadata=maybe"):
        assert_error(world.client("viewer").get(f"/api/demo/ops/tree?{query}"), 400,
                     "INVALID_REQUEST")


def test_batch_stats_on_a_circle_a_project_and_an_atom(world) -> None:
    admin = world.client()
    for text in ("one", "two"):
        admin.post("/api/demo/memory/ops/store", {"content": text, "category": "fact"})
    circle = admin.get("/api/demo/ops/batch_stats").body
    rows = {r["path"]: r for r in circle["children"]}
    assert set(rows) == {"demo/memory", "demo/agent", "demo/proj", "demo/limit"}
    assert rows["demo/memory"]["memories"] == 2
    assert rows["demo/memory"]["activity"] == 3            # compose + two stores
    assert rows["demo/memory"]["attachments"] == 1
    assert rows["demo/agent"]["child_count"] == 1
    assert circle["aggregate"]["children"] == 4 and circle["aggregate"]["memories"] == 2
    assert circle["aggregate"]["by_type"] == {"memory": 1, "triformer": 1, "project": 1,
                                              "rate-limit": 1}
    proj = admin.get("/api/demo/proj/ops/batch_stats").body
    assert {(r["path"], r["relationship"]) for r in proj["children"]} == {
        ("demo/memory", "references"), ("demo/agent", "references")}
    atom = admin.get("/api/demo/limit/ops/batch_stats").body
    assert atom["children"] == []
    assert atom["aggregate"]["children"] == 0 and atom["aggregate"]["activity"] == 0
    assert_error(admin.get("/api/demo/ops/batch_stats?limit=3"), 400, "INVALID_REQUEST")


def test_activity_is_scoped(world) -> None:
    admin = world.client()
    admin.post("/api/demo/memory/ops/store", {"content": "x", "category": "fact"})
    admin.request("PATCH", "/api/demo/proj/ops/update_meta", {"meta": {"pinned": True}})
    admin.request("PATCH", "/api/demo/limit/ops/update_meta", {"meta": {"x": 1}})
    own = admin.get("/api/demo/memory/ops/activity").body
    assert own["scope"] == "element"
    assert [e["op"] for e in own["events"]] == ["store", "compose"]
    assert {e["path"] for e in own["events"]} == {"demo/memory"}
    proj = admin.get("/api/demo/proj/ops/activity").body
    assert proj["scope"] == "members"
    assert {e["path"] for e in proj["events"]} == {"demo/proj", "demo/memory", "demo/agent"}
    circle = admin.get("/api/demo/ops/activity?limit=2").body
    assert circle["scope"] == "circle" and circle["count"] == 2
    assert [e["op"] for e in circle["events"]] == ["update_meta", "update_meta"]
    seqs = [e["seq"] for e in admin.get("/api/demo/ops/activity").body["events"]]
    assert seqs == sorted(seqs, reverse=True) and len(seqs) == 8
    assert world.client("other").get("/api/demo/ops/activity").status == 403


def test_activity_refuses_bad_queries(world) -> None:
    for query in ("limit=0", "limit=1001", "limit=ten", "since=1", "cursor=s1",
                  "cursor=-1", "cursor="):
        assert_error(world.client("viewer").get(f"/api/demo/ops/activity?{query}"), 400,
                     "INVALID_REQUEST")


def test_activity_pages_back_with_a_cursor(world) -> None:
    admin = world.client()
    everything = admin.get("/api/demo/ops/activity?limit=1000").body
    assert everything["next_cursor"] is None
    seen: list[int] = []
    cursor = ""
    while True:
        page = admin.get(f"/api/demo/ops/activity?limit=3{cursor}").body
        if not seen:   # an event recorded while paging is newer: it never shifts a page
            admin.post("/api/demo/memory/ops/store", {"content": "later", "category": "fact"})
        seen += [e["seq"] for e in page["events"]]
        if page["next_cursor"] is None:
            break
        assert page["count"] == 3 and page["next_cursor"] == str(seen[-1])
        cursor = f"&cursor={page['next_cursor']}"
    assert seen == [e["seq"] for e in everything["events"]]
