"""MCP over streamable HTTP at ``/mcp/<circle>/<agent>``: the SDK's own client against our
server on 127.0.0.1 (werkzeug in most tests, waitress as ``triform serve`` runs it in one),
and raw HTTP for what no client would send."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
import waitress
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult

from tests.helpers import Server, assert_error, create

ROOT = Path(__file__).resolve().parents[2]
MODES = ["auto", "legacy"]
JSON_RPC = {"Content-Type": "application/json",
            "Accept": "application/json, text/event-stream"}


def with_client(url: str, token: str | None, work: Callable[[Client], Awaitable[Any]],
                mode: str = "auto", headers: dict[str, str] | None = None) -> Any:
    """Run ``work`` with the SDK's client connected to ``url``."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"

    async def session() -> Any:
        async with httpx2.AsyncClient(headers=sent, timeout=60) as http:
            async with Client(streamable_http_client(url, http_client=http), mode=mode,
                              read_timeout_seconds=60) as client:
                return await work(client)
    return anyio.run(session)


def answer(result: CallToolResult) -> tuple[bool, Any]:
    assert result.content[0].type == "text"
    return result.is_error, json.loads(result.content[0].text)


@pytest.fixture
def agent(server: Server) -> str:
    """demo/bot, a triformer bonding demo/memory (read_write, subject scoping on); its MCP
    URL."""
    admin = server.client()
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "conscious_access": "read_write", "subject_scoping": True}}).status == 200
    create(admin, "triformer", "bot", subconscious={"memory": {"element": "memory"}})
    return f"{server.url}/mcp/demo/bot"


@pytest.mark.parametrize("mode", MODES)
def test_list_and_call_each_tool(server: Server, agent: str, mode: str) -> None:
    async def work(client: Client) -> str:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["memory_search", "memory_recall", "memory_store",
                                           "memory_update", "memory_delete", "memory_history"]
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "Ana prefers aisle seats", "category": "preference",
            "context": "booking a flight", "intention": "book a flight"}))
        assert not failed, stored
        memory = stored["memory"]
        assert memory["subject_id"] == "ana" and memory["agent"] == "demo/bot"
        failed, found = answer(await client.call_tool("memory_search", {"query": "aisle"}))
        assert not failed and found["results"][0]["memory"]["id"] == memory["id"]
        failed, recalled = answer(await client.call_tool("memory_recall", {
            "context": "booking a flight", "intention": "book a flight"}))
        assert not failed and recalled["results"][0]["memory"]["id"] == memory["id"]
        failed, updated = answer(await client.call_tool("memory_update", {
            "memory_id": memory["id"], "content": "Ana prefers window seats"}))
        assert not failed and updated["memory"]["content"] == "Ana prefers window seats"
        assert not (await client.call_tool("memory_delete", {"memory_id": memory["id"]})
                    ).is_error
        return str(memory["id"])
    memory_id = with_client(f"{agent}?subject_type=guest&subject_id=ana",
                            server.tokens["member"], work, mode)
    events = server.client().get("/api/demo/memory/ops/activity").body["events"]
    writes = [e for e in events if e["op"] in ("store", "update", "delete")]
    assert [e["op"] for e in writes] == ["delete", "update", "store"]
    assert {e["principal"] for e in writes} == {"member"}
    assert server.client().get(f"/api/demo/memory/ops/memories/{memory_id}").status == 404


def test_the_connection_fixes_the_subject(server: Server, agent: str) -> None:
    member = server.client("member")
    for subject, content in (("ana", "Ana likes tea"), ("bob", "Bob likes coffee")):
        assert member.post("/api/demo/memory/ops/store", {
            "content": content, "category": "preference", "subject_type": "guest",
            "subject_id": subject}).status == 201

    async def work(client: Client) -> None:
        failed, found = answer(await client.call_tool("memory_search", {"query": "likes"}))
        assert not failed
        assert [r["memory"]["content"] for r in found["results"]] == ["Ana likes tea"]
        failed, error = answer(await client.call_tool("memory_search", {
            "query": "likes", "subject_type": "guest", "subject_id": "bob"}))
        assert failed and error["error"]["code"] == "MEMORY_TOOL_SUBJECT"
    with_client(agent, server.tokens["member"], work,
                headers={"X-Triform-Subject-Type": "guest", "X-Triform-Subject-Id": "ana"})


@pytest.mark.parametrize("query", [
    "subject_id=alice&subject_type=&subject_id=",            # issue 26: ran unconfined
    "subject_type=guest&subject_id=ana&subject_id=bob",
    "subject_type=guest&subject_type=guest&subject_id=ana",
    "subject_type=&subject_id=",
])
def test_a_repeated_or_empty_subject_parameter_is_refused(server: Server, agent: str,
                                                          query: str) -> None:
    """Admission read the first ``subject_id``, the SDK the last: a repeated parameter
    (or an empty one) chose an unconfined connection. Refused before any protocol."""
    client = server.client("member", live=True)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "memory_search", "arguments": {"query": "tea"}}}
    reply = client.post(f"/mcp/demo/bot?{query}", ping, headers=JSON_RPC)
    error = assert_error(reply, 400, "INVALID_REQUEST")
    assert "subject" in error["message"]


def test_a_foreign_origin_is_refused(server: Server, agent: str) -> None:
    """The MCP spec's rule against DNS rebinding: a browser's request carries the page's
    ``Origin``; one that is not this server's is refused (issue 26, Low 16)."""
    client = server.client("member", live=True)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    refused = client.post("/mcp/demo/bot", ping,
                          headers={**JSON_RPC, "Origin": "http://evil.example"})
    assert "Origin" in assert_error(refused, 403, "ORIGIN_REFUSED")["message"]
    rebound = client.post("/mcp/demo/bot", ping, headers={
        **JSON_RPC, "Origin": f"http://attacker.example:{server.port}"})
    assert_error(rebound, 403, "ORIGIN_REFUSED")
    for origin in (f"http://127.0.0.1:{server.port}", f"http://localhost:{server.port}"):
        assert client.post("/mcp/demo/bot", ping,
                           headers={**JSON_RPC, "Origin": origin}).status == 200
    assert client.post("/mcp/demo/bot", ping, headers=JSON_RPC).status == 200   # no browser


def test_initialize_spends_the_agents_rate_limit(server: Server, agent: str) -> None:
    """``initialize`` (any message but a tool call, which spends its own) was never
    counted: an unbounded stream of them cost nothing."""
    admin = server.client()
    create(admin, "rate-limit", "slow", requests=3, per_seconds=60)
    assert admin.post("/api/demo/bot/ops/compose", {"add": [{"ref": "slow"}]}).status == 200
    client = server.client("member", live=True)
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}}
    statuses = [client.post("/mcp/demo/bot", hello, headers=JSON_RPC).status
                for _ in range(5)]
    assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429], statuses


def test_roles_and_conscious_access_decide(server: Server, agent: str) -> None:
    async def as_viewer(client: Client) -> None:
        assert len((await client.list_tools()).tools) == 6
        failed, error = answer(await client.call_tool("memory_store", {
            "content": "x", "category": "fact"}))
        assert failed and error["error"]["code"] == "FORBIDDEN"
        assert not (await client.call_tool("memory_search", {"query": "x"})).is_error
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("memory_fly", {})
        assert unknown.value.code == INVALID_PARAMS
    with_client(agent, server.tokens["viewer"], as_viewer, "legacy")
    assert server.client().post("/api/demo/memory/ops/spec_update", {"properties": {
        "conscious_access": "read"}}).status == 200

    async def read_only(client: Client) -> None:
        assert [t.name for t in (await client.list_tools()).tools] == [
            "memory_search", "memory_recall", "memory_history"]
        failed, error = answer(await client.call_tool("memory_delete", {"memory_id": "0" * 32}))
        assert failed and error["error"]["code"] == "MEMORY_TOOL_FORBIDDEN"
    with_client(f"{server.url}/mcp/demo/memory", server.tokens["admin"], read_only)


def test_who_may_connect(server: Server, agent: str) -> None:
    post = server.client(None, live=True)
    ping = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    error = assert_error(post.post("/mcp/demo/bot", ping, headers=JSON_RPC), 401,
                         "UNAUTHORIZED")
    assert post.post("/mcp/demo/bot", ping, headers=JSON_RPC).headers[
        "WWW-Authenticate"].startswith("Bearer")
    assert "token" in error["message"].lower()
    other = server.tokens["other"]
    assert_error(post.post("/mcp/demo/bot", ping, headers=JSON_RPC, token=other), 403,
                 "FORBIDDEN")
    assert_error(post.post("/mcp/demo/nobody", ping, headers=JSON_RPC, token=other), 403)
    assert_error(post.post("/mcp/demo/nobody", ping, headers=JSON_RPC,
                           token=server.tokens["member"]), 404)
    assert_error(post.post("/mcp/demo", ping, headers=JSON_RPC,
                           token=server.tokens["member"]), 404)
    # A circle is no agent: it has no tools op.
    assert_error(post.post("/mcp/other/x", ping, headers=JSON_RPC, token=other), 404)

    async def refused(client: Client) -> None:
        await client.list_tools()
    # The SDK's client gives up at the handshake, with the server's refusal.
    with pytest.raises(BaseException) as caught:
        with_client(agent, other, refused, "legacy")
    assert "MCPError" in repr(caught.value)


def test_protocol_errors_never_a_500(server: Server, agent: str) -> None:
    client = server.client("member", live=True)

    def post(raw: bytes, **headers: str) -> Any:
        return client.request("POST", "/mcp/demo/bot", raw=raw, headers={**JSON_RPC,
                                                                          **headers})
    not_json = post(b"{nope")
    assert not_json.status == 400 and json.loads(not_json.raw)["error"]["code"] == -32700
    deep = post(b"[" * 100_000 + b"]" * 100_000)
    assert deep.status == 400 and json.loads(deep.raw)["error"]["code"] == -32700
    assert post(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
                Accept="text/html").status == 406
    unknown = post(b'{"jsonrpc": "2.0", "id": 2, "method": "resources/list"}')
    assert json.loads(unknown.raw)["error"]["code"] == -32601
    bad_params = post(b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", '
                      b'"params": {"name": "memory_search", "arguments": [1]}}')
    assert json.loads(bad_params.raw)["error"]["code"] == -32602
    get = client.get("/mcp/demo/bot", headers={"Accept": "text/event-stream"})
    assert_error(get, 405)
    assert get.headers["Allow"] == "POST"
    assert_error(post(b" " * (2 * 1024 * 1024)), 413, "REQUEST_TOO_LARGE")
    assert_error(client.post("/mcp/demo/bot?subject_type=guest", {}, headers=JSON_RPC), 400)
    assert_error(client.post("/mcp/demo/bot?subject_type=guest&subject_id=ana", {},
                             headers={**JSON_RPC, "X-Triform-Subject-Id": "bob"}), 400)
    for reply in (not_json, deep, unknown, bad_params):
        assert reply.status < 500


def test_on_waitress_as_triform_serve_runs_it(server: Server, agent: str) -> None:
    wsgi = waitress.create_server(server.app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=wsgi.run, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{wsgi.effective_port}/mcp/demo/bot"  # type: ignore[union-attr]

        async def work(client: Client) -> None:
            failed, stored = answer(await client.call_tool("memory_store", {
                "content": "Ana likes tea", "category": "preference"}))
            assert not failed and stored["memory"]["content"] == "Ana likes tea"
            failed, found = answer(await client.call_tool("memory_search", {"query": "tea"}))
            assert not failed and found["results"]
        for mode in MODES:
            with_client(url, server.tokens["member"], work, mode)
    finally:
        wsgi.close()
        thread.join(10)


def documented_config(kind: str) -> dict[str, Any]:
    """The ``triform-memory`` entry of the JSON block after ``<!-- mcp-config: kind -->``."""
    page = (ROOT / "docs" / "agents.md").read_text()
    block = page.split(f"<!-- mcp-config: {kind} -->\n```json\n", 1)[1].split("```", 1)[0]
    return dict(json.loads(block)["mcpServers"]["triform-memory"])


def test_the_desktop_configs_of_docs_agents_md_work(server: Server, agent: str) -> None:
    def placed(text: str) -> str:
        return text.replace("http://127.0.0.1:8765", server.url).replace(
            "tfm_...", server.tokens["member"])

    async def work(client: Client) -> None:
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "I prefer short answers", "category": "preference"}))
        assert not failed and stored["memory"]["subject_id"] == "you"

    stdio = documented_config("stdio")
    command = shutil.which(stdio["command"], path=str(Path(sys.executable).parent))
    assert command, "the documented command is the one `make` installs into the venv"
    args = [placed(a) for a in stdio["args"]] + ["--subject-type", "circle_member",
                                                 "--subject-id", "you"]
    env = {**os.environ, **{k: placed(v) for k, v in stdio["env"].items()}}

    async def over_stdio() -> None:
        async with Client(StdioServerParameters(command=command, args=args, env=env),
                          read_timeout_seconds=60) as client:
            await work(client)
    anyio.run(over_stdio)

    http = documented_config("http")
    assert http["type"] == "http"
    token = placed(http["headers"]["Authorization"]).removeprefix("Bearer ")
    with_client(placed(http["url"]), token, work)


def test_the_bridge_stops_and_starts_again(server: Server, agent: str) -> None:
    async def work(client: Client) -> None:
        assert not (await client.call_tool("memory_search", {"query": "x"})).is_error
    with_client(agent, server.tokens["member"], work, "legacy")
    bridge = server.app.extensions["triform.mcp"]
    bridge.close()
    bridge.close()      # closing twice is harmless
    with_client(agent, server.tokens["member"], work, "legacy")
