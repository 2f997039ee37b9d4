"""Journey: a new user's first minutes. ``make serve`` on a fresh home prints a token and
ready-to-paste lines that work as pasted; ``triform`` on PATH (the README's way) serves a
fresh home and stores and searches from the command line; a restart keeps everything and
mints no new token; the access log has a line per request and no secret."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.helpers import ROOT, Served


def welcome_lines(output: list[str]) -> str:
    """The "Try it:" lines of the welcome, as a user copies them."""
    text = "\n".join(output)
    block = text.split("Try it:\n", 1)[1].split("\n\n", 1)[0]
    return "\n".join(line.strip() for line in block.splitlines())


def bash(script: str, cwd: Path, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=cwd,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})})


def test_make_serve_from_a_fresh_home_to_a_first_store_search_and_clone(
        serve: Callable[..., Served], tmp_path: Path, git_env: dict[str, str]) -> None:
    home = tmp_path / "fresh"
    srv = serve("fresh", command=["make", "--no-print-directory", "serve", "PORT=0"],
                env={"TRIFORM_HOME": str(home)})
    assert srv.token and srv.token.startswith("tfm_")
    assert f"Triform Memory is set up in {home}" in srv.output
    lines = welcome_lines(srv.output)
    assert f"{srv.url}/api/demo/memory/ops/store" in lines and ":8765" not in lines
    pasted = bash(lines, tmp_path, {**git_env})
    assert pasted.returncode == 0, pasted.stderr
    stored, found = (json.loads(chunk) for chunk in
                     re.findall(r"^\{.*\}$", pasted.stdout, re.M)[:2])
    assert stored["memory"]["content"] == "Ana prefers tea over coffee"
    assert found["results"][0]["memory"]["id"] == stored["memory"]["id"]
    assert (tmp_path / "memory" / ".triform" / "spec.yaml").exists()   # the clone line
    # Stop the server the discovery file names: make then ends as its command did.
    os.kill(json.loads((home / "server.json").read_text())["pid"], signal.SIGTERM)
    assert srv.process is not None and srv.process.wait(60) == 0
    assert not (home / "server.json").exists()


def test_triform_on_path_serves_a_fresh_home_and_the_cli_stores_and_searches(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    home = tmp_path / "mine"
    activate = f". {ROOT}/.venv/bin/activate"
    srv = serve("mine", command=["bash", "-c", f"{activate} && exec triform --home {home} "
                                 "serve --port 0 --sweep-seconds 0"])
    assert srv.token
    env = {"TRIFORM_HOME": str(home), "TRIFORM_TOKEN": srv.token,
           "PATH": "/usr/bin:/bin"}     # nothing of ours on it until activate
    done = bash(f"""{activate}
triform memory store demo/memory --content "Ana prefers tea over coffee" \\
    --category preference --context "chat about breakfast" \\
    --intention "plan a morning meeting"
triform memory search demo/memory "what does Ana drink?" --limit 1
""", tmp_path, env)
    assert done.returncode == 0, done.stderr
    stored, found = json.loads(done.stdout.split("\n}\n")[0] + "\n}"), \
        json.loads(done.stdout.split("\n}\n", 1)[1])
    assert found["results"][0]["memory"]["id"] == stored["memory"]["id"]
    assert found["results"][0]["memory"]["content"] == "Ana prefers tea over coffee"


def test_a_restart_keeps_memories_mints_no_token_and_logs_no_secret(
        serve: Callable[..., Served]) -> None:
    srv = serve()
    first_token = srv.token
    client = srv.client()
    assert client.post("/api/demo/memory/ops/store", {
        "content": "a secret body: the vault code is 1234", "category": "fact"}).status == 201
    assert client.get("/api/demo/memory/ops/memories?limit=5").status == 200
    assert srv.stop() == 0
    welcome_count = sum(line.strip().startswith("tfm_") for line in srv.output)
    srv.start()
    assert sum(line.strip().startswith("tfm_") for line in srv.output) == welcome_count
    assert srv.token == first_token
    listed = srv.client().get("/api/demo/memory/ops/memories").body["memories"]
    assert [m["content"] for m in listed] == ["a secret body: the vault code is 1234"]
    srv.stop()
    access = [line for line in srv.log.splitlines() if "triform.access" in line]
    assert len(access) == 3
    assert re.search(r"127\.0\.0\.1 POST /api/demo/memory/ops/store 201 \d+\.\d ms$",
                     access[0])
    assert access[1].endswith(" ms") and "/ops/memories 200" in access[1]
    assert first_token and first_token not in srv.log
    assert "vault" not in srv.log and "limit=5" not in srv.log
