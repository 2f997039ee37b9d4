"""``triform mcp``: the MCP stdio server as a real process, spoken to over its pipes.

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
from pathlib import Path
from typing import Any
from collections.abc import Iterator

import pytest

from element import Home
from index import HashingEmbedder
from tests.helpers import Server

ROOT = Path(__file__).resolve().parents[2]
MCP = [sys.executable, "-m", "api.mcp_server", "--embedder", "hashing"]


class McpProcess:
    """One server process; ``call`` sends a request and waits for its answer."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT,
                                     env={**os.environ, **(env or {})})
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.next_id = 0
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

    def receive(self, timeout: float = 60) -> Any:
        line = self.lines.get(timeout=timeout)
        assert line, "the server closed stdout: " + self.stderr()
        return json.loads(line)

    def call(self, method: str, params: Any = None) -> Any:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        answer = self.receive()
        assert answer["id"] == self.next_id, answer
        return answer

    def initialize(self, version: str = "2025-06-18") -> Any:
        answer = self.call("initialize", {"protocolVersion": version, "capabilities": {},
                                          "clientInfo": {"name": "pytest", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def tool(self, name: str, arguments: Any) -> Any:
        result = self.call("tools/call", {"name": name, "arguments": arguments})["result"]
        assert result["content"][0]["type"] == "text"
        return result["isError"], json.loads(result["content"][0]["text"])

    def stderr(self) -> str:
        if self.proc.poll() is None:
            return ""
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")

    def close(self) -> int:
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def build_home(path: Path, access: str = "read_write", **memory_props: Any) -> None:
    home = Home(path, HashingEmbedder)
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


@pytest.fixture
def mcp(home_path: Path) -> Iterator[McpProcess]:
    process = McpProcess([*MCP, "--home", str(home_path), "--agent", "demo/bot"])
    yield process
    process.close()


# -- the protocol ------------------------------------------------------------------------------

def test_initialize_and_list_tools(mcp: McpProcess) -> None:
    answer = mcp.initialize()
    assert answer["jsonrpc"] == "2.0"
    result = answer["result"]
    assert result["protocolVersion"] == "2025-06-18"
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"]["name"] == "triform-memory" and result["instructions"]
    assert mcp.call("ping") == {"jsonrpc": "2.0", "id": mcp.next_id, "result": {}}
    tools = mcp.call("tools/list")["result"]["tools"]
    assert [t["name"] for t in tools] == ["memory_search", "memory_recall", "memory_store",
                                          "memory_update", "memory_delete"]
    for tool in tools:
        schema = tool["inputSchema"]
        assert schema["type"] == "object" and isinstance(schema["properties"], dict)
        assert tool["description"]


def test_the_version_is_echoed_or_ours(mcp: McpProcess) -> None:
    assert mcp.initialize("2025-03-26")["result"]["protocolVersion"] == "2025-03-26"
    assert mcp.call("initialize", {"protocolVersion": "1999-01-01"})["result"][
        "protocolVersion"] == "2025-06-18"


def test_store_search_update_delete_over_mcp(mcp: McpProcess, home_path: Path) -> None:
    mcp.initialize()
    failed, stored = mcp.tool("memory_store", {
        "content": "Ana prefers aisle seats", "category": "preference",
        "context": "booking a flight", "intention": "book a flight"})
    assert not failed, stored
    memory = stored["memory"]
    assert memory["source"] == "conscious" and memory["agent"] == "demo/bot"
    failed, found = mcp.tool("memory_search", {"query": "aisle seats"})
    assert not failed and found["results"][0]["memory"]["id"] == memory["id"]
    failed, recalled = mcp.tool("memory_recall", {"query": "aisle seats",
                                                   "context": "booking a flight",
                                                   "intention": "book a flight"})
    assert not failed and recalled["results"]
    failed, updated = mcp.tool("memory_update", {"memory_id": memory["id"],
                                                 "content": "Ana prefers window seats"})
    assert not failed and updated["memory"]["content"] == "Ana prefers window seats"
    failed, _ = mcp.tool("memory_store", {"content": "Ana lives in Porto", "category": "fact"})
    assert not failed
    failed, _ = mcp.tool("memory_delete", {"memory_id": memory["id"]})
    assert not failed
    structured = mcp.call("tools/call", {"name": "memory_search",
                                         "arguments": {"query": "Porto"}})["result"]
    assert structured["structuredContent"]["results"][0]["memory"]["content"] == \
        "Ana lives in Porto"
    assert mcp.close() == 0
    # The process closed its stores on EOF: what it wrote is there for the next one.
    home = Home(home_path, HashingEmbedder)
    try:
        memory_element = home.catalog.element_at("demo/memory")
        listed, _ = home.memory_store(memory_element).list()
        assert [m["content"] for m in listed] == ["Ana lives in Porto"]
        ops = [e["op"] for e in home.catalog.activity(element_ids=[memory_element.id])]
        assert ops == ["delete", "store", "update", "store"]
        principals = {e["principal"] for e in home.catalog.activity(
            element_ids=[memory_element.id])}
        assert principals == {"mcp:demo/bot"}
    finally:
        home.close()


def test_tool_errors_are_results_with_is_error(mcp: McpProcess) -> None:
    mcp.initialize()
    failed, error = mcp.tool("memory_store", {"content": "x"})
    assert failed and error["error"]["code"] == "INVALID_REQUEST"
    failed, error = mcp.tool("memory_delete", {"memory_id": "0" * 32})
    assert failed and error["error"]["code"] == "MEMORY_NOT_FOUND"
    failed, error = mcp.tool("memory_store", {"content": "x", "category": "gossip"})
    assert failed and error["error"] == {
        "code": "MEMORY_INVALID_CATEGORY", "class": "validation", "retryable": False,
        "message": error["error"]["message"]}


def test_protocol_errors(mcp: McpProcess) -> None:
    mcp.initialize()
    assert mcp.call("resources/list")["error"]["code"] == -32601
    unknown = mcp.call("tools/call", {"name": "memory_fly", "arguments": {}})
    assert unknown["error"]["code"] == -32602 and "memory_fly" in unknown["error"]["message"]
    assert mcp.call("tools/call", {"arguments": {}})["error"]["code"] == -32602
    assert mcp.call("tools/call", {"name": "memory_search", "arguments": [1]})["error"][
        "code"] == -32602
    assert mcp.call("tools/list", [1, 2])["error"]["code"] == -32602
    mcp.send_raw(b"{this is not json\n")
    parse = mcp.receive()
    assert parse["id"] is None and parse["error"]["code"] == -32700
    mcp.send_raw(b"\xff\xfe\n")
    assert mcp.receive()["error"]["code"] == -32700
    mcp.send([{"jsonrpc": "2.0", "id": 99, "method": "ping"}])
    assert mcp.receive()["error"]["code"] == -32600
    mcp.send({"jsonrpc": "1.0", "id": 98, "method": "ping"})
    assert mcp.receive() == {"jsonrpc": "2.0", "id": 98, "error": {
        "code": -32600, "message": mcp_message(-32600)}}
    # Notifications and stray responses get no answer: the next line answers the ping.
    mcp.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
              "params": {"requestId": 1}})
    mcp.send({"jsonrpc": "2.0", "id": 5, "result": {}})
    mcp.send_raw(b"\n   \n")
    assert mcp.call("ping")["result"] == {}


def mcp_message(code: int) -> str:
    return {-32600: 'Invalid Request: jsonrpc must be "2.0" and method a string'}[code]


def test_conscious_access_governs_the_tools(tmp_path: Path) -> None:
    build_home(tmp_path / "home", access="read")
    process = McpProcess([*MCP, "--home", str(tmp_path / "home"), "--agent", "demo/bot"])
    try:
        process.initialize()
        tools = process.call("tools/list")["result"]["tools"]
        assert [t["name"] for t in tools] == ["memory_search", "memory_recall"]
        failed, error = process.tool("memory_store", {"content": "x", "category": "fact"})
        assert failed and error["error"]["code"] == "MEMORY_TOOL_FORBIDDEN"
        assert error["error"]["class"] == "forbidden"
        failed, _ = process.tool("memory_search", {"query": "x"})
        assert not failed
    finally:
        assert process.close() == 0


def test_a_fixed_subject_and_a_memory_agent(tmp_path: Path) -> None:
    build_home(tmp_path / "home", subject_scoping=True)
    process = McpProcess([*MCP, "--home", str(tmp_path / "home"), "--agent", "demo/memory",
                          "--subject-type", "guest", "--subject-id", "ana"])
    try:
        process.initialize()
        failed, stored = process.tool("memory_store", {"content": "Ana likes tea",
                                                       "category": "preference"})
        assert not failed and stored["memory"]["subject_id"] == "ana"
        failed, error = process.tool("memory_search", {"query": "tea",
                                                       "subject_type": "guest",
                                                       "subject_id": "bob"})
        assert failed and error["error"]["code"] == "MEMORY_TOOL_SUBJECT"
    finally:
        assert process.close() == 0


@pytest.mark.parametrize("args,message", [
    (["--agent", "demo/nobody"], "no element at 'demo/nobody'"),
    (["--agent", "demo"], "triformer or a memory"),
    (["--agent", "demo/bot", "--subject-type", "guest"], "go together"),
    (["--agent", "demo/bot", "--url", "ftp://x"], "--url"),
])
def test_bad_setup_exits_with_a_message(home_path: Path, args: list[str],
                                        message: str) -> None:
    done = subprocess.run([*MCP, "--home", str(home_path), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, input="")
    assert done.returncode in (1, 2) and message in done.stderr
    assert done.stdout == ""


def test_add_mcp_command_serves_through_a_triform_style_parser(home_path: Path) -> None:
    """What ``triform --home H --embedder hashing mcp --agent demo/bot`` runs, once cli.py
    calls ``add_mcp_command(sub)``: top-level options, then the subcommand's ``run``."""
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
    process = McpProcess([sys.executable, "-c", script, "--home", str(home_path),
                          "--embedder", "hashing", "mcp", "--agent", "demo/bot"])
    try:
        assert process.initialize()["result"]["protocolVersion"] == "2025-06-18"
        failed, stored = process.tool("memory_store", {"content": "x", "category": "fact"})
        assert not failed and stored["memory"]["source"] == "conscious"
    finally:
        assert process.close() == 0


# -- remote mode ----------------------------------------------------------------------------------

def test_remote_mode_uses_a_running_server(server: Server) -> None:
    admin = server.client()
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "conscious_access": "read_write"}}).status == 200
    assert admin.post("/api/demo/ops/create", {"element_type": "triformer", "slug": "bot",
                                               "properties": {"subconscious": {"memory": {
                                                   "element": "memory"}}}}).status == 201
    member = McpProcess([*MCP, "--agent", "demo/bot", "--url", server.url,
                         "--subject-type", "guest", "--subject-id", "ana"],
                        env={"TRIFORM_TOKEN": server.tokens["member"]})
    try:
        member.initialize()
        assert len(member.call("tools/list")["result"]["tools"]) == 5
        failed, stored = member.tool("memory_store", {"content": "Ana likes tea",
                                                      "category": "preference"})
        assert not failed and stored["memory"]["subject_id"] == "ana"
        assert member.call("tools/call", {"name": "memory_fly"})["error"]["code"] == -32602
    finally:
        assert member.close() == 0
    viewer = McpProcess([*MCP, "--agent", "demo/bot", "--url", server.url,
                         "--token", server.tokens["viewer"]])
    try:
        viewer.initialize()
        failed, found = viewer.tool("memory_search", {"query": "likes tea",
                                                      "subject_type": "guest",
                                                      "subject_id": "ana"})
        assert not failed and found["results"][0]["memory"]["content"] == "Ana likes tea"
        failed, error = viewer.tool("memory_store", {"content": "x", "category": "fact"})
        assert failed and error["error"]["code"] == "FORBIDDEN"
    finally:
        assert viewer.close() == 0
    nobody = McpProcess([*MCP, "--agent", "demo/bot", "--url", server.url],
                        env={"TRIFORM_TOKEN": ""})
    try:
        nobody.initialize()
        assert nobody.call("tools/list")["error"]["code"] == -32603
        failed, error = nobody.tool("memory_search", {"query": "x"})
        assert failed and error["error"]["code"] == "UNAUTHORIZED"
    finally:
        assert nobody.close() == 0
