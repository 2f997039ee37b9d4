"""``triform mcp``: the MCP stdio server as a real process, spoken to by the SDK's own client
(``mcp.Client`` over ``StdioServerParameters``) and, for lines no client would send, over
its raw pipes.

Local mode opens its own home (built here, then closed, since a memory store has one
writer); remote mode (``--url``) talks to the ``server`` fixture. The embedder is the
hashing one (``--embedder hashing``): these tests are about the protocol, not meaning.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult

from element import Home, mark_backend
from index import HashingEmbedder
from tests.helpers import Server
from tests.pg import PgServer

ROOT = Path(__file__).resolve().parents[2]
MCP = [sys.executable, "-m", "api.mcp_server", "--embedder", "hashing"]
MODES = ["auto", "legacy"]      # the 2026 era (server/discover), the initialize handshake


def stdio(*args: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=MCP[0], args=[*MCP[1:], *args], cwd=str(ROOT),
                                 env={**os.environ, **(env or {})})


def with_client(server: StdioServerParameters, work: Callable[[Client], Awaitable[Any]],
                mode: str = "auto") -> Any:
    """Run ``work`` with a connected SDK client; returns what it returns."""
    async def session() -> Any:
        async with Client(server, mode=mode, read_timeout_seconds=60) as client:
            return await work(client)
    return anyio.run(session)


def answer(result: CallToolResult) -> tuple[bool, Any]:
    """(isError, the JSON of its text) of a tool result."""
    assert result.content[0].type == "text"
    return result.is_error, json.loads(result.content[0].text)


def build_home(path: Path, access: str = "read_write", database: str | None = None,
               **memory_props: Any) -> None:
    home = Home(path, HashingEmbedder, database=database)
    try:
        root = home.create_element(circle="demo", element_type_name="circle", slug=None)
        home.create_element(circle="demo", element_type_name="memory", slug="memory",
                            parent=root, properties={"conscious_access": access,
                                                     **memory_props})
        home.create_element(circle="demo", element_type_name="triformer", slug="bot",
                            parent=root, properties={"subconscious": {"memory": {
                                "element": "memory"}}})
    finally:
        home.close()


@pytest.fixture
def home_path(tmp_path: Path) -> Path:
    build_home(tmp_path / "home")
    return tmp_path / "home"


# -- through the SDK's client ------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.filterwarnings("ignore:ping is removed")
def test_initialize_and_list_tools(home_path: Path, mode: str) -> None:
    async def work(client: Client) -> None:
        assert client.server_info is not None and client.server_info.name == "triform-memory"
        assert client.instructions and "demo/bot" in client.instructions
        assert client.server_capabilities.tools is not None
        if mode == "legacy":    # ping is gone from the 2026 era
            await client.send_ping()
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["memory_search", "memory_recall", "memory_store",
                                           "memory_update", "memory_delete", "memory_history"]
        for tool in tools:
            assert tool.input_schema["type"] == "object" and tool.description
            assert isinstance(tool.input_schema["properties"], dict)
    with_client(stdio("--home", str(home_path), "--agent", "demo/bot"), work, mode)


@pytest.mark.parametrize("mode", MODES)
def test_each_tool_over_stdio(home_path: Path, mode: str) -> None:
    async def work(client: Client) -> None:
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "Ana prefers aisle seats", "category": "preference",
            "context": "booking a flight", "intention": "book a flight"}))
        assert not failed, stored
        memory = stored["memory"]
        assert memory["source"] == "conscious" and memory["agent"] == "demo/bot"
        failed, found = answer(await client.call_tool("memory_search", {"query": "aisle seats"}))
        assert not failed and found["results"][0]["memory"]["id"] == memory["id"]
        failed, recalled = answer(await client.call_tool("memory_recall", {
            "context": "booking a flight", "intention": "book a flight"}))
        assert not failed and recalled["results"][0]["memory"]["id"] == memory["id"]
        failed, updated = answer(await client.call_tool("memory_update", {
            "memory_id": memory["id"], "content": "Ana prefers window seats"}))
        assert not failed and updated["memory"]["content"] == "Ana prefers window seats"
        assert not (await client.call_tool("memory_store", {
            "content": "Ana lives in Porto", "category": "fact"})).is_error
        assert not (await client.call_tool("memory_delete", {"memory_id": memory["id"]})).is_error
        result = await client.call_tool("memory_search", {"query": "Porto"})
        assert result.structured_content["results"][0]["memory"]["content"] == \
            "Ana lives in Porto"
    with_client(stdio("--home", str(home_path), "--agent", "demo/bot"), work, mode)
    # The process closed its stores at the end: what it wrote is there for the next one.
    home = Home(home_path, HashingEmbedder)
    try:
        memory_element = home.catalog.element_at("demo/memory")
        with home.memory_store(memory_element) as store:
            listed, _ = store.list()
        assert [m["content"] for m in listed] == ["Ana lives in Porto"]
        events = home.catalog.activity(element_ids=[memory_element.id])
        assert [e["op"] for e in events] == ["delete", "store", "update", "store"]
        assert {e["principal"] for e in events} == {"mcp:demo/bot"}
    finally:
        home.close()


def test_refused_calls_are_tool_errors_and_unknown_tools_protocol_errors(
        home_path: Path) -> None:
    async def work(client: Client) -> None:
        failed, error = answer(await client.call_tool("memory_store", {"content": "x"}))
        assert failed and error["error"]["code"] == "INVALID_REQUEST"
        assert "arguments.category" in error["error"]["message"]
        failed, error = answer(await client.call_tool("memory_delete", {"memory_id": "0" * 32}))
        assert failed and error["error"]["code"] == "MEMORY_NOT_FOUND"
        failed, error = answer(await client.call_tool("memory_store", {
            "content": "x", "category": "gossip"}))
        assert failed and error["error"] == {
            "code": "MEMORY_INVALID_CATEGORY", "class": "validation", "retryable": False,
            "message": error["error"]["message"]}
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("memory_fly", {})
        assert unknown.value.code == INVALID_PARAMS and "memory_fly" in unknown.value.message
        # The session goes on after each refusal.
        assert not (await client.call_tool("memory_search", {"query": "x"})).is_error
    with_client(stdio("--home", str(home_path), "--agent", "demo/bot"), work)


def test_conscious_access_governs_the_tools(tmp_path: Path) -> None:
    build_home(tmp_path / "home", access="read")

    async def work(client: Client) -> None:
        tools = (await client.list_tools()).tools
        assert [t.name for t in tools] == ["memory_search", "memory_recall", "memory_history"]
        failed, error = answer(await client.call_tool("memory_store", {
            "content": "x", "category": "fact"}))
        assert failed and error["error"]["code"] == "MEMORY_TOOL_FORBIDDEN"
        assert error["error"]["class"] == "forbidden"
        assert not (await client.call_tool("memory_search", {"query": "x"})).is_error
    with_client(stdio("--home", str(tmp_path / "home"), "--agent", "demo/bot"), work)


def test_a_fixed_subject_and_a_memory_agent(tmp_path: Path) -> None:
    build_home(tmp_path / "home", subject_scoping=True)

    async def work(client: Client) -> None:
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "Ana likes tea", "category": "preference"}))
        assert not failed and stored["memory"]["subject_id"] == "ana"
        failed, error = answer(await client.call_tool("memory_search", {
            "query": "tea", "subject_type": "guest", "subject_id": "bob"}))
        assert failed and error["error"]["code"] == "MEMORY_TOOL_SUBJECT"
    with_client(stdio("--home", str(tmp_path / "home"), "--agent", "demo/memory",
                      "--subject-type", "guest", "--subject-id", "ana"), work)


@pytest.mark.parametrize("args,status,message", [
    (["--agent", "demo/nobody"], 1, "no element at 'demo/nobody'"),
    (["--agent", "demo"], 1, "demo:"),
    (["--agent", "demo/bot", "--subject-type", "guest"], 2, "go together"),
    (["--agent", "demo/bot", "--url", "ftp://x"], 2, "--url"),
])
def test_bad_setup_exits_with_a_message(home_path: Path, args: list[str], status: int,
                                        message: str) -> None:
    done = subprocess.run([*MCP, "--home", str(home_path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, input="")
    assert done.returncode == status and message in done.stderr, done.stderr
    assert done.stdout == ""


def test_add_mcp_command_serves_through_a_triform_style_parser(home_path: Path) -> None:
    """What ``triform --home H --embedder hashing mcp --agent demo/bot`` runs: top-level
    options, then the subcommand's ``run``."""
    script = (
        "import argparse, sys\n"
        "from api.mcp_server import add_mcp_command\n"
        "p = argparse.ArgumentParser(prog='triform')\n"
        "p.add_argument('--home'); p.add_argument('--model-cache')\n"
        "p.add_argument('--embedder', default='fastembed')\n"
        "sub = p.add_subparsers(dest='command', required=True)\n"
        "add_mcp_command(sub)\n"
        "args = p.parse_args(sys.argv[1:])\n"
        "sys.exit(args.run(args))\n")
    server = StdioServerParameters(command=sys.executable, cwd=str(ROOT), args=[
        "-c", script, "--home", str(home_path), "--embedder", "hashing", "mcp",
        "--agent", "demo/bot"])

    async def work(client: Client) -> None:
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "x", "category": "fact"}))
        assert not failed and stored["memory"]["source"] == "conscious"
    with_client(server, work)


def test_mcp_serves_a_home_that_lives_in_postgres(tmp_path: Path, pg_server: PgServer) -> None:
    """``triform --database URL mcp``: the tools write to the database's memories; once
    the folder is marked as a database home, forgetting the URL is refused (exit 2)."""
    url = pg_server.create_database("mcp_home")
    home_path = tmp_path / "home"
    build_home(home_path, database=url)
    cli = [sys.executable, "-m", "api.cli", "--home", str(home_path), "--embedder", "hashing"]
    server = StdioServerParameters(command=cli[0], cwd=str(ROOT), args=[
        *cli[1:], "--database", url, "mcp", "--agent", "demo/bot"])

    async def work(client: Client) -> str:
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "Ana keeps her notes in PostgreSQL", "category": "fact"}))
        assert not failed, stored
        return str(stored["memory"]["id"])
    memory_id = with_client(server, work)
    home = Home(home_path, HashingEmbedder, database=url)
    try:
        with home.memory_store(home.catalog.element_at("demo/memory")) as store:
            assert [m["id"] for m in store.list()[0]] == [memory_id]
    finally:
        home.close()
    mark_backend(home_path, url)
    forgot = subprocess.run([*cli, "mcp", "--agent", "demo/bot"], cwd=ROOT, text=True,
                            capture_output=True, stdin=subprocess.DEVNULL, timeout=120)
    assert forgot.returncode == 2 and "pass --database URL" in forgot.stderr, forgot.stderr


# -- remote mode ----------------------------------------------------------------------------------

def make_agent(server: Server) -> None:
    admin = server.client()
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "conscious_access": "read_write"}}).status == 200
    assert admin.post("/api/demo/ops/create", {"element_type": "triformer", "slug": "bot",
                                               "properties": {"subconscious": {"memory": {
                                                   "element": "memory"}}}}).status == 201


def test_remote_mode_uses_a_running_server(server: Server) -> None:
    make_agent(server)

    async def as_member(client: Client) -> None:
        assert len((await client.list_tools()).tools) == 6
        failed, stored = answer(await client.call_tool("memory_store", {
            "content": "Ana likes tea", "category": "preference"}))
        assert not failed and stored["memory"]["subject_id"] == "ana"
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("memory_fly", {})
        assert unknown.value.code == INVALID_PARAMS
    with_client(stdio("--agent", "demo/bot", "--url", server.url, "--subject-type", "guest",
                      "--subject-id", "ana", env={"TRIFORM_TOKEN": server.tokens["member"]}),
                as_member)

    async def as_viewer(client: Client) -> None:
        failed, found = answer(await client.call_tool("memory_search", {
            "query": "likes tea", "subject_type": "guest", "subject_id": "ana"}))
        assert not failed and found["results"][0]["memory"]["content"] == "Ana likes tea"
        failed, error = answer(await client.call_tool("memory_store", {
            "content": "x", "category": "fact"}))
        assert failed and error["error"]["code"] == "FORBIDDEN"
    with_client(stdio("--agent", "demo/bot", "--url", server.url,
                      "--token", server.tokens["viewer"]), as_viewer)

    async def as_nobody(client: Client) -> None:
        with pytest.raises(MCPError) as listing:
            await client.list_tools()
        assert listing.value.error.data["error"]["code"] == "UNAUTHORIZED"
        failed, error = answer(await client.call_tool("memory_search", {"query": "x"}))
        assert failed and error["error"]["code"] == "UNAUTHORIZED"
    with_client(stdio("--agent", "demo/bot", "--url", server.url, env={"TRIFORM_TOKEN": ""}),
                as_nobody, "legacy")


# -- lines no client would send ------------------------------------------------------------------

class McpProcess:
    """The stdio server on raw pipes: ``send_raw`` a line, ``receive`` the next answer."""

    def __init__(self, args: list[str]) -> None:
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT)
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: Any) -> None:
        self.send_raw(json.dumps(message).encode() + b"\n")

    def receive(self) -> Any:
        line = self.lines.get(timeout=60)
        assert line, "the server closed stdout"
        return json.loads(line)

    def call(self, message_id: int, method: str, params: Any = None) -> Any:
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": message_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply = self.receive()
        assert reply["id"] == message_id, reply
        return reply

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


@pytest.fixture
def raw(home_path: Path) -> Iterator[McpProcess]:
    process = McpProcess([*MCP, "--home", str(home_path), "--agent", "demo/bot"])
    process.call(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "pytest", "version": "1"}})
    process.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    yield process
    process.close()


def test_protocol_errors_per_the_spec(raw: McpProcess) -> None:
    assert raw.call(2, "resources/list")["error"]["code"] == -32601
    assert raw.call(3, "tools/call", {"arguments": {}})["error"]["code"] == -32602
    assert raw.call(4, "tools/call", {"name": "memory_search", "arguments": [1]})[
        "error"]["code"] == -32602
    raw.send_raw(b"{this is not json\n")
    assert raw.receive() == {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error: the line is not JSON"}}
    raw.send_raw(b"\xff\xfe\n")
    assert raw.receive()["error"]["code"] == -32700
    raw.send([{"jsonrpc": "2.0", "id": 99, "method": "ping"}])
    assert raw.receive()["error"]["code"] == -32600
    raw.send({"jsonrpc": "1.0", "id": 98, "method": "ping"})
    assert raw.receive()["error"]["code"] == -32600
    # Notifications and stray responses get no answer: the next line answers the ping.
    raw.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": 1}})
    raw.send({"jsonrpc": "2.0", "id": 5, "result": {}})
    raw.send_raw(b"\n")
    assert raw.call(6, "ping")["result"] == {}


def test_a_deeply_nested_line_does_not_kill_the_server(raw: McpProcess) -> None:
    raw.send_raw(b"[" * 200_000 + b"]" * 200_000 + b"\n")
    assert raw.receive()["error"]["code"] in (-32700, -32600)
    deep = b'{"a": ' * 10_000 + b'"bottom"' + b"}" * 10_000
    raw.send_raw(b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": '
                 b'{"name": "memory_store", "arguments": {"content": "x", "category": '
                 b'"fact", "metadata": ' + deep + b"}}}\n")
    assert raw.receive() == {"jsonrpc": "2.0", "id": None, "error": {
        "code": -32700, "message": "Parse error: the line is not JSON"}}
    # Parseable, but deeper than any op takes: a tool error, as over the HTTP API.
    shallow: Any = "bottom"
    for _ in range(100):
        shallow = {"a": shallow}
    reply = raw.call(8, "tools/call", {"name": "memory_store", "arguments": {
        "content": "x", "category": "fact", "metadata": shallow}})
    assert reply["result"]["isError"]
    assert json.loads(reply["result"]["content"][0]["text"])["error"]["code"] == \
        "INVALID_REQUEST"
    assert raw.call(9, "ping")["result"] == {}
    assert raw.close() == 0
