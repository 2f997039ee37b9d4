"""Lifecycle, metadata, composition, schema and promote, through the real server."""

from __future__ import annotations

import threading
from typing import Any

import yaml

from source import repo as git
from tests.helpers import assert_error

MEMORY = "/api/demo/memory/ops"


def create(client: Any, element_type: str, slug: str, parent: str = "demo",
           **properties: Any) -> dict[str, Any]:
    reply = client.post(f"/api/{parent}/ops/create", {"element_type": element_type,
                                                      "slug": slug, "properties": properties})
    assert reply.status == 201, reply.body
    return reply.body["element"]


def events(client: Any, path: str, op: str | None = None) -> list[dict[str, Any]]:
    found = client.get(f"/api/{path}/ops/activity").body["events"]
    return [e for e in found if op is None or e["op"] == op]


# -- enable / disable ---------------------------------------------------------------------
def test_disable_refuses_other_ops_and_enable_restores(server) -> None:
    admin, member = server.client(), server.client("member")
    reply = admin.post(f"{MEMORY}/disable", {"reason": "maintenance"})
    assert reply.status == 200 and reply.body["changed"] is True
    element = reply.body["element"]
    assert element["state"] == "disabled"
    assert element["meta"]["state_detail"]["reason"] == "maintenance"
    assert_error(member.get(f"{MEMORY}/memories"), 409, "ELEMENT_DISABLED")
    assert_error(member.post(f"{MEMORY}/store", {"content": "x", "category": "fact"}), 409)
    again = admin.post(f"{MEMORY}/disable", {})
    assert again.status == 200 and again.body["changed"] is False        # idempotent
    assert member.get(f"{MEMORY}/activity").status == 200                # still inspectable
    reply = admin.post(f"{MEMORY}/enable", {})
    assert reply.body["changed"] is True and reply.body["element"]["state"] == "ready"
    assert "state_detail" not in reply.body["element"]["meta"]
    assert admin.post(f"{MEMORY}/enable", {}).body["changed"] is False
    assert member.get(f"{MEMORY}/memories").status == 200
    assert [e["op"] for e in events(admin, "demo/memory")][:2] == ["enable", "disable"]


def test_enable_and_disable_validate_and_need_admin(server) -> None:
    admin = server.client()
    assert_error(server.client("member").post(f"{MEMORY}/enable", {}), 403, "FORBIDDEN")
    assert_error(admin.post(f"{MEMORY}/disable", {"reason": 7}), 400, "INVALID_REQUEST")
    assert_error(admin.post(f"{MEMORY}/disable", {"why": "x"}), 400, "INVALID_REQUEST")
    assert server.home.catalog.element_at("demo/memory").state == "ready"


def test_a_deleted_element_cannot_be_enabled(server) -> None:
    memory = server.home.catalog.element_at("demo/memory")
    server.home.catalog.update_element(memory.id, state="deleted")
    reply = server.client().post(f"{MEMORY}/enable", {})
    assert_error(reply, 409, "ELEMENT_DELETED")
    assert "deleted" in reply.body["error"]["message"]
    assert server.home.catalog.element_at("demo/memory").state == "deleted"


# -- update_meta --------------------------------------------------------------------------
def test_update_meta_merges_shallowly_without_a_new_version(server) -> None:
    client = server.client("member")
    seen: list[dict[str, Any]] = []
    server.home.catalog.listeners.append(seen.append)
    first = client.request("PATCH", f"{MEMORY}/update_meta",
                           {"meta": {"canvas": {"x": 1, "y": 2}, "panel": "open"}})
    assert first.status == 200, first.body
    second = client.request("PATCH", f"{MEMORY}/update_meta", {"meta": {"canvas": {"x": 5}}})
    meta = second.body["element"]["meta"]
    assert meta == {"canvas": {"x": 5}, "panel": "open"}
    assert second.body["element"]["version"] == 1
    assert [e["op"] for e in seen] == ["update_meta", "update_meta"]
    assert seen[-1]["detail"] == {"keys": ["canvas"]}


def test_update_meta_refuses_bad_input_and_changes_nothing(server) -> None:
    client = server.client("member")
    for body in ({}, {"meta": [1]}, {"meta": {}, "extra": 1}):
        assert_error(client.request("PATCH", f"{MEMORY}/update_meta", body), 400)
    assert_error(client.request("PATCH", f"{MEMORY}/update_meta",
                                {"meta": {"blob": "x" * 70_000}}), 413,
                 "ELEMENT_META_TOO_LARGE")
    assert_error(server.client("viewer").request("PATCH", f"{MEMORY}/update_meta",
                                                 {"meta": {"a": 1}}), 403)
    assert server.home.catalog.element_at("demo/memory").meta == {}


def test_concurrent_meta_merges_keep_every_key(server) -> None:
    client = server.client("member")
    threads = [threading.Thread(target=client.request, args=(
        "PATCH", f"{MEMORY}/update_meta", {"meta": {f"k{i}": i}})) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert server.home.catalog.element_at("demo/memory").meta == {f"k{i}": i for i in range(8)}


# -- compose / attachments / remove-modifier ------------------------------------------------
def test_compose_adds_and_removes_atomically(server) -> None:
    admin, member = server.client(), server.client("member")
    create(admin, "rate-limit", "rl", requests=100)
    create(admin, "auth-policy", "policy", deny=[])
    create(admin, "prompt", "hello", text="hi")
    create(admin, "triformer", "agent")
    server.home.catalog.add_version(server.home.catalog.element_at("demo/rl").id,
                                    {"properties": {"requests": 5}}, "v2", )
    reply = member.post("/api/demo/agent/ops/compose", {"add": [
        {"ref": "hello"}, {"ref": "demo/rl@v2", "priority": 50}, {"ref": "policy"}]})
    assert reply.status == 200, reply.body
    added = {a["source"]["path"]: a for a in reply.body["added"]}
    assert added["demo/rl"]["version_pin"] == 2 and added["demo/rl"]["priority"] == 50
    assert added["demo/hello"]["is_modifier"] is False
    assert added["demo/policy"]["is_modifier"] is True
    listed = member.get("/api/demo/agent/ops/attachments").body
    assert [a["ref"] for a in listed["attachments"]] == ["demo/rl@v2", "demo/hello",
                                                          "demo/policy"]
    assert (listed["modifiers"], listed["resources"]) == (2, 1)
    # one call: remove the prompt and re-pin the rate-limit to its current version
    reply = member.post("/api/demo/agent/ops/compose", {
        "remove": [{"attachment_id": added["demo/hello"]["attachment_id"]},
                   {"attachment_id": added["demo/rl"]["attachment_id"]}],
        "add": [{"ref": "rl"}]})
    assert reply.status == 200, reply.body
    assert sorted(a["ref"] for a in reply.body["attachments"]) == ["demo/policy", "demo/rl"]
    assert events(admin, "demo/agent", "compose")[0]["detail"]["refs"] == ["demo/rl"]


def test_compose_is_all_or_nothing_and_names_the_bad_entry(server) -> None:
    admin = server.client()
    create(admin, "rate-limit", "rl")
    create(admin, "auth-policy", "bad-policy", deny=[{"colour": "red"}])
    cases = [
        ({"add": [{"ref": "rl"}, {"ref": "nope"}]}, 404, "REF_NOT_FOUND", "add[1].ref"),
        ({"add": [{"ref": "rl@v9"}]}, 404, "ATTACHMENT_PIN_NOT_FOUND", "add[0].ref"),
        ({"add": [{"ref": "rl"}, {"ref": "Bad Ref"}]}, 400, "INVALID_REQUEST", "add[1].ref"),
        ({"add": [{"ref": "other/x"}]}, 400, "INVALID_REQUEST", "circle"),
        ({"add": [{"ref": "rl", "cascade": "members"}]}, 400, "INVALID_REQUEST", "project"),
        ({"add": [{"ref": "rl", "priority": "high"}]}, 400, "INVALID_REQUEST", "priority"),
        ({"add": [{"ref": "rl"}, {"ref": "rl"}]}, 409, "ATTACHMENT_EXISTS", "add[1]"),
        ({"add": [{"ref": "rl"}], "remove": [{"attachment_id": "x"}]}, 404,
         "ATTACHMENT_NOT_FOUND", "remove[0]"),
        ({"add": [{"ref": "bad-policy"}]}, 400, "INVALID_REQUEST", "colour"),
        ({"add": [{"ref": "memory"}]}, 400, "ATTACHMENT_TOPOLOGY", "itself"),
        ({}, 400, "INVALID_REQUEST", "add"),
        ({"add": "rl"}, 400, "INVALID_REQUEST", "add"),
        ({"add": [], "swap": []}, 400, "INVALID_REQUEST", "swap"),
    ]
    for body, status, code, named in cases:
        reply = admin.post(f"{MEMORY}/compose", body)
        assert_error(reply, status, code)
        assert named in reply.body["error"]["message"], (body, reply.body)
    assert admin.get(f"{MEMORY}/attachments").body["attachments"] == []
    assert server.home.catalog.attachments() == []


def test_topology_refuses_a_modifier_on_a_modifier_and_self(server) -> None:
    admin = server.client()
    create(admin, "rate-limit", "rl")
    create(admin, "memory", "other-memory")
    assert_error(admin.post("/api/demo/rl/ops/compose", {"add": [{"ref": "rl"}]}), 400,
                 "ATTACHMENT_TOPOLOGY")
    assert_error(admin.post("/api/demo/other-memory/ops/compose",
                            {"add": [{"ref": "memory"}]}), 400, "ATTACHMENT_TOPOLOGY")
    create(admin, "prompt", "p")
    reply = admin.post(f"{MEMORY}/compose", {"add": [{"ref": "p"}]})
    assert_error(reply, 400, "ATTACHMENT_TOPOLOGY")
    assert "auth-policy, rate-limit" in reply.body["error"]["message"]


def test_remove_modifier(server) -> None:
    admin, viewer = server.client(), server.client("viewer")
    create(admin, "rate-limit", "rl")
    attachment_id = admin.post(f"{MEMORY}/compose", {"add": [{"ref": "rl"}]}) \
        .body["added"][0]["attachment_id"]
    assert_error(viewer.post(f"{MEMORY}/remove-modifier", {"attachment_id": attachment_id}),
                 403)
    assert_error(admin.post(f"{MEMORY}/remove-modifier", {}), 400, "INVALID_REQUEST")
    assert_error(admin.post("/api/demo/rl/ops/remove-modifier",
                            {"attachment_id": attachment_id}), 404, "ATTACHMENT_NOT_FOUND")
    reply = admin.post(f"{MEMORY}/remove-modifier", {"attachment_id": attachment_id})
    assert reply.status == 200 and reply.body == {"removed": attachment_id}
    assert_error(admin.post(f"{MEMORY}/remove-modifier", {"attachment_id": attachment_id}),
                 404, "ATTACHMENT_NOT_FOUND")
    assert viewer.get(f"{MEMORY}/attachments").body["attachments"] == []
    assert events(admin, "demo/memory", "remove-modifier")[0]["detail"] == {
        "attachment_id": attachment_id}


# -- schema -----------------------------------------------------------------------------------
def test_schema_tools_follow_conscious_access(server) -> None:
    admin = server.client()
    names = {}
    for access in ("none", "read", "read_write"):
        create(admin, "memory", f"m-{access.replace('_', '-')}", conscious_access=access)
        body = admin.get(f"/api/demo/m-{access.replace('_', '-')}/ops/schema").body
        names[access] = [t["name"] for t in body["tools"]]
        for tool in body["tools"]:
            assert set(tool) == {"name", "description", "inputSchema"}
            assert tool["inputSchema"]["type"] == "object"
        assert {p["direction"] for p in body["ports"]} == {"input", "output"}
        assert all({"name", "direction", "required", "schema"} <= set(p) for p in body["ports"])
    assert names == {"none": [], "read": ["memory_search", "memory_recall", "memory_history"],
                     "read_write": ["memory_search", "memory_recall", "memory_store",
                                    "memory_update", "memory_delete", "memory_history"]}
    store = admin.get("/api/demo/m-read-write/ops/schema").body["tools"][2]
    assert store["inputSchema"]["required"] == ["content", "category"]
    assert admin.get("/api/demo/ops/schema").body["tools"] == []
    assert_error(admin.get("/api/demo/memory/ops/schema?format=x"), 400, "INVALID_REQUEST")


# -- promote ------------------------------------------------------------------------------------
def test_promote_freezes_member_versions_to_demo_then_live(server) -> None:
    admin = server.client()
    create(admin, "triformer", "agent")
    project = create(admin, "project", "p", members=["memory", "demo/agent"])
    memory_id = server.home.catalog.element_at("demo/memory").id
    server.home.catalog.add_version(memory_id, {"properties": {}}, "v2")
    reply = admin.post("/api/demo/p/ops/promote", {"to": "demo"})
    assert reply.status == 200, reply.body
    assert reply.body["snapshot"]["members"] == {"demo/memory": 2, "demo/agent": 1}
    assert reply.body["version"] == 2
    server.home.catalog.add_version(memory_id, {"properties": {}}, "v3")   # after the freeze
    live = admin.post("/api/demo/p/ops/promote", {"to": "live"}).body
    assert live["snapshot"]["members"] == {"demo/memory": 2, "demo/agent": 1}
    assert live["snapshot"]["from"] == "demo" and live["version"] == 3
    envs = server.home.catalog.element_at("demo/p").properties["environments"]
    assert set(envs) == {"demo", "live"} and envs["demo"]["by"] == "admin"
    versions = admin.get("/api/demo/p/ops/spec").body
    assert versions["version"] == 3
    spec = yaml.safe_load(git.read_file(server.home.repo_path(
        server.home.catalog.element(project["id"])), ".triform/spec.yaml"))
    assert spec["properties"]["environments"]["live"]["members"]["demo/memory"] == 2
    assert events(admin, "demo/p", "promote")[0]["detail"]["to"] == "live"


def test_promote_refusals(server) -> None:
    admin = server.client()
    create(admin, "project", "p", members=["memory"])
    create(admin, "project", "broken", members=["ghost"])
    assert_error(admin.post("/api/demo/p/ops/promote", {"to": "prod"}), 400, "INVALID_REQUEST")
    assert_error(admin.post("/api/demo/p/ops/promote", {}), 400, "INVALID_REQUEST")
    assert_error(admin.post("/api/demo/p/ops/promote", {"to": "live"}), 409, "PROMOTE_REFUSED")
    reply = admin.post("/api/demo/broken/ops/promote", {"to": "demo"})
    assert_error(reply, 409, "PROMOTE_REFUSED")
    assert "ghost" in reply.body["error"]["message"]
    assert_error(server.client("member").post("/api/demo/p/ops/promote", {"to": "demo"}), 403)
    assert_error(admin.post(f"{MEMORY}/promote", {"to": "demo"}), 404, "OP_NOT_FOUND")
    assert server.home.catalog.element_at("demo/p").version == 1
