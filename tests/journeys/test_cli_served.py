"""Journey: the command line while ``triform serve`` holds the home (the normal state after
``make serve``). ``memory``, ``reindex`` and ``mcp`` go through the server with a token and
print what they print without it; a clean stop hands the home back to the command line,
and a killed server's leftover file does not fool it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.helpers import ROOT, Served, run_cli


def mcp(home: Path, token: str, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Talk MCP to ``triform mcp --agent demo/memory`` over its stdio, as a client does."""
    lines = "".join(json.dumps(m) + "\n" for m in messages)
    done = subprocess.run([sys.executable, "-m", "api.cli", "--home", str(home),
                           "--embedder", "hashing", "mcp", "--agent", "demo/memory"],
                          input=lines, capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, "TRIFORM_TOKEN": token})
    assert done.returncode == 0, done.stderr
    # The SDK serves requests concurrently, and JSON-RPC lets answers come in any order:
    # a client pairs them by id, as here.
    return sorted((json.loads(line) for line in done.stdout.splitlines()),
                  key=lambda answer: answer.get("id", 0))


def test_memory_reindex_and_mcp_go_through_the_running_server(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    srv = serve()
    home = srv.home

    without = run_cli(home, "memory", "list", "demo/memory", env={"TRIFORM_TOKEN": ""})
    assert without.returncode == 2 and without.stdout == ""
    assert f"is served at {srv.url}" in without.stderr and "--token" in without.stderr

    # The catalog is shared: making a token works while the server runs.
    made = run_cli(home, "token", "create", "--circle", "demo", "--role", "member",
                   "--name", "dana-laptop")
    assert made.returncode == 0, made.stderr
    env = {"TRIFORM_TOKEN": made.stdout.strip()}
    store = ("memory", "store", "demo/memory", "--content", "Dana takes the 8:15 train",
             "--category", "fact", "--subject-type", "guest", "--subject-id", "dana",
             "--context", "commute chat", "--idempotency-key", "dana-train")
    first = run_cli(home, *store, env=env)
    assert first.returncode == 0, first.stderr
    stored = json.loads(first.stdout)
    assert stored["memory"]["content"] == "Dana takes the 8:15 train"
    assert stored["warnings"] == [] and stored["evicted"] == []
    again = run_cli(home, *store, env=env)
    assert json.loads(again.stdout)["memory"]["id"] == stored["memory"]["id"]

    seen = srv.client().get("/api/demo/memory/ops/activity").body["events"]
    assert any(e["op"] == "store" and e["principal"] == "dana-laptop" for e in seen)

    found = run_cli(home, "memory", "search", "demo/memory", "train", "--subject-type",
                    "guest", "--subject-id", "dana", env=env)
    assert [r["memory"]["id"] for r in json.loads(found.stdout)["results"]] == \
        [stored["memory"]["id"]]

    missing = run_cli(home, "memory", "list", "demo/nowhere", env=env)
    assert missing.returncode == 1 and missing.stdout == ""
    assert json.loads(missing.stderr)["error"]["code"] == "ELEMENT_NOT_FOUND"
    viewer = run_cli(home, "token", "create", "--circle", "demo", "--role", "viewer")
    refused = run_cli(home, *store[:-2], "--token", viewer.stdout.strip())
    assert refused.returncode == 1 and json.loads(refused.stderr)["error"]["class"] == \
        "forbidden"

    reindexed = run_cli(home, "reindex", "--all", env=env)
    assert reindexed.returncode == 0, reindexed.stderr
    assert [(r["path"], r["memories"], r["reembedded"])
            for r in json.loads(reindexed.stdout)["reindexed"]] == [("demo/memory", 1, 0)]

    assert srv.client().post("/api/demo/memory/ops/spec_update", {
        "properties": {"conscious_access": "read_write"}}).status == 200
    answers = mcp(home, env["TRIFORM_TOKEN"],
                  {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                      "protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": {"name": "journey", "version": "1"}}},
                  {"jsonrpc": "2.0", "method": "notifications/initialized"},
                  {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                  {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                      "name": "memory_store",
                      "arguments": {"content": "Dana prefers the quiet carriage",
                                    "category": "preference"}}})
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert "memory_store" in [t["name"] for t in answers[1]["result"]["tools"]]
    assert answers[2]["result"]["isError"] is False, answers[2]

    listed = run_cli(home, "memory", "list", "demo/memory", env=env)
    assert listed.returncode == 0
    contents = [m["content"] for m in json.loads(listed.stdout)["memories"]]
    assert contents == ["Dana prefers the quiet carriage", "Dana takes the 8:15 train"]

    # A clean stop removes the discovery file: the same command runs in-process, without
    # a token, and prints the same bytes.
    assert srv.stop() == 0
    assert not (home / "server.json").exists()
    local = run_cli(home, "memory", "list", "demo/memory", env={"TRIFORM_TOKEN": ""})
    assert local.returncode == 0, local.stderr
    assert local.stdout == listed.stdout
    local_missing = run_cli(home, "memory", "list", "demo/nowhere")
    assert (local_missing.returncode, local_missing.stderr) == (1, missing.stderr)


def test_a_killed_servers_file_does_not_hold_the_command_line(
        serve: Callable[..., Served]) -> None:
    srv = serve()
    srv.kill()
    assert (srv.home / "server.json").exists()       # a kill cleans nothing up...
    run = run_cli(srv.home, "memory", "store", "demo/memory", "--content", "still here",
                  "--category", "fact", env={"TRIFORM_TOKEN": ""})
    assert run.returncode == 0, run.stderr             # ...but the file is known stale
    restarted = srv.start()
    assert restarted.token is not None and "tfm_" not in "\n".join(srv.output[-3:])
    listed = srv.client().get("/api/demo/memory/ops/memories").body["memories"]
    assert [m["content"] for m in listed] == ["still here"]
    assert json.loads((srv.home / "server.json").read_text())["url"] == srv.url


def test_import_overwrite_on_a_served_home_goes_through_the_server(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """Overwriting a memory element moves its memories to the new one; the server holds
    them open, so the command line asks the server to do it, and the element keeps
    working (done in-process it was stuck on its lock until a restart)."""
    srv = serve()
    client = srv.client()
    assert client.post("/api/demo/memory/ops/store",
                       {"content": "kept across the overwrite", "category": "fact"}
                       ).status == 201
    bundle = tmp_path / "memory.bundle"
    assert run_cli(srv.home, "export", "demo/memory", "-o", str(bundle)).returncode == 0
    no_token = run_cli(srv.home, "import", str(bundle), "--into", "demo", "--overwrite",
                       env={"TRIFORM_TOKEN": ""})
    assert no_token.returncode == 2 and "TRIFORM_TOKEN" in no_token.stderr
    replaced = run_cli(srv.home, "import", str(bundle), "--into", "demo", "--overwrite",
                       "--token", srv.token or "")
    assert replaced.returncode == 0, replaced.stderr
    report = json.loads(replaced.stdout)
    assert report["counts"]["imported"] == 1 and report["imported"][0]["replaced"]
    after = client.post("/api/demo/memory/ops/store",
                        {"content": "stored after it", "category": "fact"})
    assert after.status == 201, after.body
    listed = client.get("/api/demo/memory/ops/memories").body["memories"]
    assert [m["content"] for m in listed] == ["stored after it", "kept across the overwrite"]
