"""Shared fixtures: a real server on 127.0.0.1 and a small HTTP client for it.

Servers run ``create_app()`` in werkzeug's threaded server on port 0, in a daemon thread;
clients speak real HTTP through ``http.client``. Nothing of ours is mocked.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, settings
from werkzeug.serving import make_server

from api.app import create_app, default_model_cache, embedder_factory
from element.access import create_token
from element.home import Home

settings.register_profile("triform", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow])
settings.load_profile("triform")


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]
    raw: bytes = b""


@dataclass
class Client:
    """Real HTTP against one server: ``client.post("/api/demo/memory/ops/store", {...})``."""

    host: str
    port: int
    token: str | None = None

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> Reply:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        sent = dict(headers or {})
        auth = token if token is not None else self.token
        if auth:
            sent["Authorization"] = f"Bearer {auth}"
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        try:
            conn.request(method, path, body=data, headers=sent)
            resp = conn.getresponse()
            payload = resp.read()
        finally:
            conn.close()
        parsed: Any = None
        if resp.getheader("Content-Type", "").startswith("application/json"):
            parsed = json.loads(payload)
        return Reply(resp.status, parsed, dict(resp.getheaders()), payload)

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body, **kw)


@dataclass
class Server:
    home: Home
    url: str
    port: int
    tokens: dict[str, str] = field(default_factory=dict)

    def client(self, role: str | None = "admin") -> Client:
        return Client("127.0.0.1", self.port, self.tokens.get(role) if role else None)


class running:
    """Context manager: serve ``app`` on 127.0.0.1, port 0, in a daemon thread."""

    def __init__(self, app: Any) -> None:
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)

    def __enter__(self) -> "running":
        self.thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.shutdown()
        self.thread.join(10)


def start_home(path: Path, embedder: str) -> Home:
    return Home(path, embedder_factory(embedder, None))


@pytest.fixture(scope="session")
def model_cache() -> Path:
    """Where the real model is provisioned: once per machine, shared by every run."""
    return default_model_cache()


def _serve(tmp_path: Path, embedder: str) -> Iterator[Server]:
    home = start_home(tmp_path / "home", embedder)
    home.init("demo")
    home.create_element(circle="other", element_type_name="circle", slug=None)
    tokens = {role: create_token(home.catalog, "demo", role, role)
              for role in ("viewer", "member", "admin")}
    tokens["other"] = create_token(home.catalog, "other", "admin", "other-admin")
    app = create_app({"EMBEDDER": embedder}, home=home)
    with running(app) as srv:
        yield Server(home, f"http://127.0.0.1:{srv.port}", srv.port, tokens)
    home.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a fresh home with the hashing embedder (for tests not about meaning)."""
    yield from _serve(tmp_path, "hashing")


@pytest.fixture
def git_env(tmp_path: Path) -> dict[str, str]:
    """Environment for stock git: no prompts, no user or system config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    (tmp_path / "git-home").mkdir(exist_ok=True)
    env.update(HOME=str(tmp_path / "git-home"), GIT_TERMINAL_PROMPT="0",
               GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Tester",
               GIT_AUTHOR_EMAIL="tester@example.com", GIT_COMMITTER_NAME="Tester",
               GIT_COMMITTER_EMAIL="tester@example.com")
    return env
