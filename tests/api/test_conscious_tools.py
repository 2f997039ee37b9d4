"""Conscious access through the real server: GET ops/tools and POST ops/tools/call on a
memory and on a triformer, per ``conscious_access``, role, policy and fixed subject."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import Client, Server

MEMORY = "/api/demo/memory/ops"
ANA = {"subject_type": "guest", "subject_id": "ana"}
BOB = {"subject_type": "guest", "subject_id": "bob"}
READ = ["memory_search", "memory_recall", "memory_history"]
ALL = ["memory_search", "memory_recall", "memory_store", "memory_update", "memory_delete",
       "memory_history"]


def set_props(client: Client, path: str, **props: Any) -> None:
    reply = client.post(f"/api/{path}/ops/spec_update", {"properties": props})
    assert reply.status == 200, reply.body


def make(client: Client, element_type: str, slug: str, **props: Any) -> None:
    reply = client.post("/api/demo/ops/create", {"element_type": element_type, "slug": slug,
                                                 "properties": props})
    assert reply.status == 201, reply.body


def bot(client: Client, slug: str = "bot", bonds: Any = "memory") -> None:
    make(client, "triformer", slug, subconscious={"memory": {"element": bonds}})


def tool(client: Client, path: str, name: str, arguments: Any = None, **extra: Any) -> Any:
    body: dict[str, Any] = {"name": name, **extra}
    if arguments is not None:
        body["arguments"] = arguments
    return client.post(f"/api/{path}/ops/tools/call", body)


def names(client: Client, path: str) -> list[str]:
    reply = client.get(f"/api/{path}/ops/tools")
    assert reply.status == 200, reply.body
    return [t["name"] for t in reply.body["tools"]]


@pytest.mark.parametrize("access,expected", [("none", []), ("read", READ),
                                             ("read_write", ALL)])
def test_tools_follow_conscious_access(server: Server, access: str,
                                       expected: list[str]) -> None:
    admin = server.client()
    set_props(admin, "demo/memory", conscious_access=access)
    bot(admin)
    viewer = server.client("viewer")
    assert names(viewer, "demo/memory") == expected
    assert names(viewer, "demo/bot") == expected
    # The schema op publishes the same list (MCP tools/list compatible).
    assert [t["name"] for t in viewer.get(f"{MEMORY}/schema").body["tools"]] == expected
    listed = viewer.get("/api/demo/bot/ops/tools").body
    assert listed["memories"] == [{"path": "demo/memory", "state": "ready",
                                   "conscious_access": access}]
    for entry in listed["tools"]:
        assert entry["inputSchema"]["type"] == "object" and entry["description"]


def test_none_refuses_every_tool(server: Server) -> None:
    member = server.client("member")
    for name in ALL:
        reply = tool(member, "demo/memory", name, {"query": "x", "memory_id": "x"})
        assert reply.status == 403
        assert reply.body["error"]["code"] == "MEMORY_TOOL_FORBIDDEN"
        assert reply.body["error"]["class"] == "forbidden"
        assert "conscious_access is 'none'" in reply.body["error"]["message"]


def test_read_allows_search_and_recall_only(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    set_props(admin, "demo/memory", conscious_access="read")
    admin.post(f"{MEMORY}/store", {"content": "Ana drinks green tea", "category": "preference",
                                   "context": "breakfast chat", "intention": "plan breakfast"})
    found = tool(member, "demo/memory", "memory_search", {"query": "green tea"})
    assert found.status == 200, found.body
    assert found.body["tool"] == "memory_search"
    assert found.body["result"]["results"][0]["memory"]["content"] == "Ana drinks green tea"
    recalled = tool(member, "demo/memory", "memory_recall",
                    {"context": "breakfast chat", "intention": "plan breakfast"})
    assert recalled.status == 200 and recalled.body["result"]["results"]
    for name, args in (("memory_store", {"content": "x", "category": "fact"}),
                       ("memory_update", {"memory_id": "a", "content": "y"}),
                       ("memory_delete", {"memory_id": "a"})):
        reply = tool(member, "demo/memory", name, args)
        assert (reply.status, reply.body["error"]["code"]) == (403, "MEMORY_TOOL_FORBIDDEN")
    assert len(admin.get(f"{MEMORY}/memories").body["memories"]) == 1


def test_read_write_goes_through_the_store_pipeline(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    set_props(admin, "demo/memory", conscious_access="read_write", max_memories=2)
    bot(admin)
    stored = tool(member, "demo/bot", "memory_store", {
        "content": "Ana prefers window seats", "category": "preference",
        "context": "booking a flight", "intention": "book a flight", "metadata": {"k": 1}})
    assert stored.status == 200, stored.body
    memory = stored.body["result"]["memory"]
    assert memory["source"] == "conscious" and memory["agent"] == "demo/bot"
    assert (memory["context"], memory["intention"]) == ("booking a flight", "book a flight")
    memory_id = memory["id"]
    updated = tool(member, "demo/bot", "memory_update",
                   {"memory_id": memory_id, "content": "Ana prefers aisle seats"})
    assert updated.body["result"]["memory"]["content"] == "Ana prefers aisle seats"
    # The caps are the store's: a third memory evicts one.
    tool(member, "demo/bot", "memory_store", {"content": "b", "category": "fact"})
    third = tool(member, "demo/bot", "memory_store", {"content": "c", "category": "fact"})
    assert len(third.body["result"]["evicted"]) == 1
    events = admin.get(f"{MEMORY}/activity").body["events"]
    assert {e["op"] for e in events} >= {"store", "update"}
    deleted = tool(member, "demo/bot", "memory_delete", {"memory_id": third.body["result"]
                                                         ["memory"]["id"]})
    assert deleted.status == 200
    missing = tool(member, "demo/bot", "memory_delete", {"memory_id": "0" * 32})
    assert (missing.status, missing.body["error"]["code"]) == (404, "MEMORY_NOT_FOUND")


def test_a_viewer_may_read_but_not_write_even_with_read_write(server: Server) -> None:
    admin, viewer = server.client(), server.client("viewer")
    set_props(admin, "demo/memory", conscious_access="read_write")
    assert tool(viewer, "demo/memory", "memory_search", {"query": "x"}).status == 200
    reply = tool(viewer, "demo/memory", "memory_store", {"content": "x", "category": "fact"})
    assert (reply.status, reply.body["error"]["code"]) == (403, "FORBIDDEN")
    assert tool(server.client("other"), "demo/memory", "memory_search",
                {"query": "x"}).status == 403


@pytest.mark.parametrize("body,status,code", [
    ({"name": "memory_fly"}, 404, "MEMORY_TOOL_UNKNOWN"),
    ({}, 400, "INVALID_REQUEST"),
    ({"name": 3}, 400, "INVALID_REQUEST"),
    ({"name": "memory_store", "arguments": []}, 400, "INVALID_REQUEST"),
    ({"name": "memory_store", "arguments": {"content": "x"}}, 400, "INVALID_REQUEST"),
    ({"name": "memory_store", "arguments": {"content": "x", "category": "fact",
                                            "source": "api"}}, 400, "INVALID_REQUEST"),
    ({"name": "memory_store", "arguments": {"content": "x", "category": "gossip"}}, 400,
     "MEMORY_INVALID_CATEGORY"),
    ({"name": "memory_update", "arguments": {"memory_id": 5}}, 400, "INVALID_REQUEST"),
    ({"name": "memory_recall", "arguments": {"intention": "x"}}, 400, "INVALID_REQUEST"),
    ({"name": "memory_search", "arguments": {"query": "x", "limit": 0}}, 400, None),
    ({"name": "memory_search", "arguments": {"query": "x"}, "subject_type": "guest"}, 400,
     "MEMORY_SUBJECT_INCOMPLETE"),
    ({"name": "memory_search", "extra": 1}, 400, "INVALID_REQUEST"),
])
def test_bad_tool_calls_are_clear_errors(server: Server, body: dict[str, Any], status: int,
                                         code: str | None) -> None:
    admin = server.client()
    set_props(admin, "demo/memory", conscious_access="read_write")
    reply = admin.post(f"{MEMORY}/tools/call", body)
    assert reply.status == status, reply.body
    if code:
        assert reply.body["error"]["code"] == code
    assert admin.get(f"{MEMORY}/memories").body["memories"] == []


def test_a_fixed_subject_confines_the_agent(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    set_props(admin, "demo/memory", conscious_access="read_write", subject_scoping=True)
    bobs = admin.post(f"{MEMORY}/store", {"content": "Bob likes tea", "category": "preference",
                                          **BOB}).body["memory"]
    general = admin.post(f"{MEMORY}/store", {"content": "The office likes tea",
                                             "category": "fact"}).body["memory"]
    stored = tool(member, "demo/memory", "memory_store",
                  {"content": "Ana likes tea", "category": "preference"}, **ANA)
    assert stored.body["result"]["memory"]["subject_id"] == "ana"   # about the speaker
    found = tool(member, "demo/memory", "memory_search", {"query": "likes tea"}, **ANA)
    contents = {r["memory"]["content"] for r in found.body["result"]["results"]}
    assert contents == {"Ana likes tea", "The office likes tea"}
    for name, args in (("memory_search", {"query": "tea", **BOB}),
                       ("memory_store", {"content": "x", "category": "fact", **BOB})):
        reply = tool(member, "demo/memory", name, args, **ANA)
        assert (reply.status, reply.body["error"]["code"]) == (403, "MEMORY_TOOL_SUBJECT")
    for name, args in (("memory_update", {"memory_id": bobs["id"], "content": "x"}),
                       ("memory_delete", {"memory_id": bobs["id"]})):
        reply = tool(member, "demo/memory", name, args, **ANA)
        assert (reply.status, reply.body["error"]["code"]) == (404, "MEMORY_NOT_FOUND")
    assert admin.get(f"{MEMORY}/memories/{bobs['id']}").body["memory"]["content"] == \
        "Bob likes tea"
    ok = tool(member, "demo/memory", "memory_update",
              {"memory_id": general["id"], "content": "The office likes green tea"}, **ANA)
    assert ok.status == 200
    # Without a fixed subject the arguments choose (the operator trusts the agent).
    assert tool(member, "demo/memory", "memory_search", {"query": "tea", **BOB}).body[
        "result"]["results"]


def test_an_agent_with_several_memories(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    make(admin, "memory", "team", conscious_access="read")
    set_props(admin, "demo/memory", conscious_access="read_write")
    bot(admin, bonds=["memory", "team"])
    tools = {t["name"]: t for t in admin.get("/api/demo/bot/ops/tools").body["tools"]}
    assert list(tools) == ALL
    assert tools["memory_search"]["inputSchema"]["properties"]["memory"]["enum"] == [
        "demo/memory", "demo/team"]
    assert tools["memory_store"]["inputSchema"]["properties"]["memory"]["enum"] == [
        "demo/memory"]
    admin.post("/api/demo/team/ops/store", {"content": "Deploys happen on Tuesdays",
                                            "category": "procedure"})
    stored = tool(member, "demo/bot", "memory_store",
                  {"content": "Ana deploys on Tuesdays too", "category": "fact"})
    assert stored.body["result"]["element"] == "demo/memory"
    found = tool(member, "demo/bot", "memory_search", {"query": "deploys on tuesdays"})
    assert {r["element"] for r in found.body["result"]["results"]} == {"demo/memory",
                                                                      "demo/team"}
    scores = [r["score"] for r in found.body["result"]["results"]]
    assert scores == sorted(scores, reverse=True)
    only = tool(member, "demo/bot", "memory_search", {"query": "deploys", "memory": "demo/team"})
    assert {r["element"] for r in only.body["result"]["results"]} == {"demo/team"}
    refused = tool(member, "demo/bot", "memory_store",
                   {"content": "x", "category": "fact", "memory": "demo/team"})
    assert refused.body["error"]["code"] == "MEMORY_TOOL_FORBIDDEN"
    wrong = tool(member, "demo/bot", "memory_search", {"query": "x", "memory": "demo/else"})
    assert wrong.status == 400
    memory_id = stored.body["result"]["memory"]["id"]
    updated = tool(member, "demo/bot", "memory_update", {"memory_id": memory_id,
                                                         "content": "Ana deploys on Fridays"})
    assert updated.body["result"]["element"] == "demo/memory"


def test_a_policy_on_the_memory_governs_calls_through_the_agent(server: Server) -> None:
    admin, member = server.client(), server.client("member")
    set_props(admin, "demo/memory", conscious_access="read_write")
    bot(admin)
    make(admin, "auth-policy", "no-member-writes",
         deny=[{"role": "member", "levels": ["write"]}])
    assert admin.post(f"{MEMORY}/compose", {"add": [{"ref": "no-member-writes"}]}).status == 200
    reply = tool(member, "demo/bot", "memory_store", {"content": "x", "category": "fact"})
    assert (reply.status, reply.body["error"]["code"]) == (403, "POLICY_DENIED")
    direct = tool(member, "demo/memory", "memory_store", {"content": "x", "category": "fact"})
    assert (direct.status, direct.body["error"]["code"]) == (403, "POLICY_DENIED")
    assert tool(member, "demo/bot", "memory_search", {"query": "x"}).status == 200
    assert tool(admin, "demo/bot", "memory_store",
                {"content": "x", "category": "fact"}).status == 200


def test_tools_on_a_triformer_without_memories(server: Server) -> None:
    admin = server.client()
    bot(admin, bonds="missing")
    listed = admin.get("/api/demo/bot/ops/tools").body
    assert listed == {"tools": [], "memories": [], "unresolved": ["missing"]}
    reply = tool(admin, "demo/bot", "memory_search", {"query": "x"})
    assert (reply.status, reply.body["error"]["code"]) == (409, "AGENT_NO_MEMORY")
