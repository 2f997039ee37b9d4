"""The walking skeleton, end to end: `triform serve` as a real process, the real model,
stock git, real HTTP; then a restart, and the memory is still found."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from collections.abc import Iterator

import pytest

from tests.helpers import Client

TRIFORM = [sys.executable, "-m", "api.cli"]
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServeProcess:
    def __init__(self, home: Path, model_cache: Path) -> None:
        self.port = free_port()
        env = dict(os.environ, TRIFORM_MODEL_CACHE=str(model_cache), PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [*TRIFORM, "--home", str(home), "serve", "--port", str(self.port)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=ROOT)
        self.output: list[str] = []
        deadline = time.monotonic() + 180
        assert self.proc.stdout is not None
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("serve exited:\n" + "".join(self.output))
            self.output.append(line)
            if line.startswith("serving "):
                return
        raise AssertionError("serve did not start:\n" + "".join(self.output))

    @property
    def text(self) -> str:
        return "".join(self.output)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def serve(tmp_path: Path, model_cache: Path) -> Iterator[type]:
    started: list[ServeProcess] = []

    def start() -> ServeProcess:
        proc = ServeProcess(tmp_path / "home", model_cache)
        started.append(proc)
        return proc
    yield start  # type: ignore[misc]
    for proc in started:
        if proc.proc.poll() is None:
            proc.stop()


def test_element_to_recall_survives_a_restart(serve, tmp_path: Path,
                                              git_env: dict[str, str]) -> None:
    first = serve()
    token = re.search(r"^\s+(tfm_\S+)$", first.text, re.M)
    assert token, first.text
    client = Client("127.0.0.1", first.port, token.group(1))
    assert f"git clone http://triform:$TOKEN@127.0.0.1:{first.port}/git/demo/memory.git" \
        in first.text

    made = client.post("/api/demo/ops/create", {"element_type": "memory", "slug": "notes"})
    assert made.status == 201, made.body
    assert made.body["element"]["path"] == "demo/notes"
    assert made.body["element"]["name"] == "Notes"

    url = f"http://triform:{token.group(1)}@127.0.0.1:{first.port}/git/demo/notes.git"
    subprocess.run(["git", "clone", "-q", url, str(tmp_path / "wc")], env=git_env,
                   check=True, timeout=60)
    head = subprocess.run(["git", "-C", str(tmp_path / "wc"), "branch", "--show-current"],
                          env=git_env, capture_output=True, text=True, check=True)
    assert head.stdout.strip() == "draft"
    spec = (tmp_path / "wc" / ".triform" / "spec.yaml").read_text()
    assert "element_type: memory" in spec and "relevance_threshold: 0.4" in spec
    assert (tmp_path / "wc" / "README.md").exists()

    stored = client.post("/api/demo/notes/ops/store", {
        "content": "Ana prefers green tea and never drinks coffee after noon",
        "category": "preference",
        "context": "We were planning the Tuesday morning team meeting with Ana",
        "intention": "choose drinks for the meeting"})
    assert stored.status == 201, stored.body
    memory_id = stored.body["memory"]["id"]
    assert stored.body["memory"]["embedded"] is True
    client.post("/api/demo/notes/ops/store", {
        "content": "The deploy pipeline runs every night at two", "category": "fact"})

    query = {"query": "What does Ana like to drink?",
             "context": "organising a meeting with Ana", "intention": "order drinks"}
    found = client.post("/api/demo/notes/ops/search", query)
    assert found.status == 200, found.body
    assert found.body["results"][0]["memory"]["id"] == memory_id
    lanes = found.body["results"][0]["lanes"]
    assert set(lanes) == {"content", "context", "intention"}
    assert all(0 < lanes[k] <= 1 for k in lanes)
    assert "vector" not in str(found.body["results"][0]["memory"]).lower()

    first.stop()
    second = serve()
    assert "tfm_" not in second.text, "a token is printed only on the first start"
    again = Client("127.0.0.1", second.port, token.group(1)).post(
        "/api/demo/notes/ops/search", query)
    assert again.status == 200
    assert again.body["results"][0]["memory"]["id"] == memory_id
    assert again.body["results"][0]["memory"]["access_count"] >= 2
