"""Journeys of a developer wiring an app to the API: learning it from its answers and its
document, pasting the hints it gives, seeding memories with a fixture pushed over git,
changing the spec with git, and watching events while the command line writes."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.helpers import Served, commit_all, run_cli, run_git


def test_the_api_explains_each_mistake(serve: Callable[..., Served]) -> None:
    srv = serve()
    client = srv.client()
    document = srv.client(token="").get("/openapi.json").body
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if "x-triform-op" not in operation:
                continue
            ok = next(v for k, v in operation["responses"].items() if k.startswith("2"))
            assert ok.get("content"), (method, path)
            if method in ("post", "patch"):
                kinds = operation["requestBody"]["content"]    # NDJSON: import/memories
                assert (kinds.get("application/json") or
                        kinds["application/x-ndjson"])["schema"]
    batch = document["components"]["schemas"]["StoreBatchRequest"]
    assert batch["properties"]["memories"]["items"]["required"] == ["content", "category"]

    wrong_method = client.get("/api/demo/memory/ops/store")
    assert wrong_method.status == 405 and wrong_method.headers["Allow"] == "POST"
    assert "use POST" in wrong_method.body["error"]["message"]
    for path in ("/api/demo/memory/ops/memories?colour=red", "/api/demo/memory/ops/stats?x=1",
                 "/api/demo/ops/tree?colour=red"):
        unknown = client.get(path)
        assert unknown.status == 400 and unknown.body["error"]["code"] == "INVALID_REQUEST"
        assert "is not a parameter of this op" in unknown.body["error"]["message"]

    bad_item = client.post("/api/demo/memory/ops/store_batch", {"memories": [
        {"content": "fine", "category": "fact"}, {"content": "bad", "category": "gossip"}]})
    assert bad_item.status == 400 and "memories[1]" in bad_item.body["error"]["message"]
    assert client.get("/api/demo/memory/ops/stats").body["total"] == 0   # all or nothing

    stranger = client.get("/api/demo/memory/ops/stats", token="tfm_not-a-token")
    assert stranger.status == 401, stranger.headers
    challenge = {k.lower(): v for k, v in stranger.headers.items()}["www-authenticate"]
    assert challenge.startswith("Bearer")


def test_the_clone_hints_of_source_status_work_as_pasted(
        serve: Callable[..., Served], tmp_path: Path, git_env: dict[str, str]) -> None:
    srv = serve()
    status = srv.client().get("/api/demo/memory/ops/source/status").body
    assert status["clone_url"] == f"{srv.url}/git/demo/memory.git"
    env = {**git_env, "TOKEN": srv.token or ""}
    pasted = "\n".join(status["checkout"])
    done = subprocess.run(["bash", "-e", "-c", pasted], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "memory" / ".triform" / "spec.yaml").exists()
    (tmp_path / "other").mkdir()
    example = subprocess.run(["bash", "-e", "-c", status["auth"]["example"] + " copy"],
                             cwd=tmp_path / "other", env=env, capture_output=True,
                             text=True, timeout=120)
    assert example.returncode == 0, example.stderr
    assert (tmp_path / "other" / "copy" / "README.md").exists()


FIXTURE = """kind: memory
description: what every agent of the team should know
records:
  - key: lunch
    content: The team lunch is on Fridays
    category: fact
  - key: ana-tea
    content: Ana prefers tea over coffee
    category: preference
    subject_type: circle_member
    subject_id: ana
"""


def test_seed_memories_with_a_fixture_pushed_over_git(
        serve: Callable[..., Served], tmp_path: Path, git_env: dict[str, str]) -> None:
    srv = serve()
    client = srv.client()
    wc = tmp_path / "wc"
    run_git(git_env, "clone", "-q",
            f"http://t:{srv.token}@127.0.0.1:{srv.port}/git/demo/memory.git", str(wc))
    (wc / ".triform" / "fixtures" / "team.yaml").write_text(FIXTURE)
    commit_all(git_env, wc, "seed the team's memories")
    run_git(git_env, "push", "origin", "draft", cwd=wc)

    fixtures = "/api/demo/memory/ops/source/fixtures"
    dry = client.post(fixtures, {})
    assert dry.status == 200 and dry.body["dry_run"] is True
    assert [r["status"] for r in dry.body["records"]] == ["new", "new"]
    strings = client.post(fixtures, {"dry_run": "no", "confirm": "yes"})
    assert strings.status == 400 and strings.body["error"]["code"] == "INVALID_REQUEST"
    unconfirmed = client.post(fixtures, {"dry_run": False})
    assert client.get("/api/demo/memory/ops/stats").body["total"] == 0, unconfirmed.body
    applied = client.post(fixtures, {"dry_run": False, "confirm": True})
    assert applied.status == 200 and applied.body["counts"]["stored"] == 2, applied.body
    again = client.post(fixtures, {"dry_run": False, "confirm": True})
    assert again.body["counts"]["skipped"] == 2
    listed = client.get("/api/demo/memory/ops/memories").body["memories"]
    assert sorted((m["content"], m["source"]) for m in listed) == [
        ("Ana prefers tea over coffee", "fixture"), ("The team lunch is on Fridays", "fixture")]


def test_a_spec_pushed_with_git_governs_the_next_store(
        serve: Callable[..., Served], tmp_path: Path, git_env: dict[str, str]) -> None:
    srv = serve()
    client = srv.client()
    assert client.post("/api/demo/ops/create", {"element_type": "memory",
                                                "slug": "notes"}).status == 201
    bob = {"content": "Bob likes jazz", "category": "preference", "subject_type": "guest",
           "subject_id": "bob"}
    assert client.post("/api/demo/notes/ops/store", bob).body["warnings"] == \
        ["SUBJECT_SCOPING_OFF"]
    wc = tmp_path / "wc"
    run_git(git_env, "clone", "-q",
            f"http://t:{srv.token}@127.0.0.1:{srv.port}/git/demo/notes.git", str(wc))
    spec = wc / ".triform" / "spec.yaml"
    text = spec.read_text()
    assert "subject_scoping: false" in text
    spec.write_text(text.replace("subject_scoping: false", "subject_scoping: true"))
    commit_all(git_env, wc, "one person's notes stay theirs")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    after = client.get("/api/demo/notes/ops/spec").body
    assert after["version"] == 2 and after["spec"]["properties"]["subject_scoping"] is True
    assert client.post("/api/demo/notes/ops/store", bob).body["warnings"] == []

    spec.write_text(spec.read_text().replace("max_memories: 1000", "max_memories: 0"))
    commit_all(git_env, wc, "no room")
    refused = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert refused.returncode != 0 and "max_memories" in refused.stderr, refused.stderr
    assert client.get("/api/demo/notes/ops/spec").body["version"] == 2


def read_events(port: int, token: str, query: str, found: list[dict[str, Any]],
                connected: threading.Event) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", f"/api/events?{query}", headers={"Authorization": f"Bearer {token}"})
    response = conn.getresponse()
    for raw in iter(response.fp.readline, b""):
        line = raw.decode().rstrip("\n")
        if line == ": connected":
            connected.set()
        if line.startswith("data: "):
            found.append(json.loads(line[6:]))
    conn.close()


def test_events_show_what_the_command_line_stores_through_the_server(
        serve: Callable[..., Served]) -> None:
    srv = serve()
    assert srv.token
    found: list[dict[str, Any]] = []
    connected = threading.Event()
    reader = threading.Thread(target=read_events, args=(
        srv.port, srv.token, "path=demo/memory&limit=1&timeout=60", found, connected))
    reader.start()
    assert connected.wait(60)
    stored = run_cli(srv.home, "memory", "store", "demo/memory", "--content",
                     "Ben lives in Lyon", "--category", "fact",
                     env={"TRIFORM_TOKEN": srv.token})
    assert stored.returncode == 0, stored.stderr
    reader.join(60)
    assert [(e["op"], e["path"], e["principal"]) for e in found] == \
        [("store", "demo/memory", "init")]
    assert found[0]["detail"]["memory_id"] == json.loads(stored.stdout)["memory"]["id"]
    assert os.path.exists(srv.home / "server.json")
