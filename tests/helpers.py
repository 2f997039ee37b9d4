"""Helpers the test modules share (fixtures are in conftest.py; test modules import from
here, never from each other).

Two clients with one interface (``request``, ``get``, ``post``, each answering a
:class:`Reply`): :class:`HttpClient` speaks real HTTP to a server on 127.0.0.1 through
``http.client``; :class:`AppClient` calls the Flask app in-process (its test client), for
the many tests where a socket adds nothing. git, SSE and ``serve`` tests use real sockets.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from werkzeug.serving import make_server

from api.app import create_app
from api.config import embedder_factory, environment_secret
from element import Home, create_token
from index import HashingEmbedder
from index.lexical import terms

__all__ = ["Reply", "HttpClient", "AppClient", "Client", "running", "Server", "serve",
           "start_home", "assert_error", "create", "activity_events", "run_git", "clone",
           "commit_all", "ROOT", "run_cli", "Served", "Outage", "files_holding"]

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Reply:
    status: int
    body: Any
    headers: dict[str, str]
    raw: bytes = b""


def _reply(status: int, headers: dict[str, str], payload: bytes) -> Reply:
    parsed: Any = None
    if headers.get("Content-Type", "").startswith("application/json"):
        parsed = json.loads(payload)
    return Reply(status, parsed, headers, payload)


def _prepare(token: str | None, headers: dict[str, str] | None, body: Any,
             raw: bytes | None) -> tuple[dict[str, str], bytes | None]:
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        sent.setdefault("Content-Type", "application/json")
    return sent, data


class _Verbs:
    token: str | None

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> Reply:
        raise NotImplementedError

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, body: Any = None, **kw: Any) -> Reply:
        return self.request("POST", path, body, **kw)


@dataclass
class HttpClient(_Verbs):
    """Real HTTP against one server: ``client.post("/api/demo/memory/ops/store", {...})``."""

    host: str
    port: int
    token: str | None = None

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> Reply:
        sent, data = _prepare(token if token is not None else self.token, headers, body, raw)
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=data, headers=sent)
            resp = conn.getresponse()
            payload = resp.read()
        finally:
            conn.close()
        return _reply(resp.status, dict(resp.getheaders()), payload)


#: The name most tests know the socket client by.
Client = HttpClient


@dataclass
class AppClient(_Verbs):
    """The same calls, made in-process through the Flask app's test client."""

    app: Any
    token: str | None = None

    def request(self, method: str, path: str, body: Any = None, *, token: str | None = None,
                headers: dict[str, str] | None = None, raw: bytes | None = None) -> Reply:
        sent, data = _prepare(token if token is not None else self.token, headers, body, raw)
        response = self.app.test_client().open(path, method=method, data=data, headers=sent)
        return _reply(response.status_code, dict(response.headers), response.get_data())


class running:
    """Context manager: serve ``app`` on 127.0.0.1, port 0, in a daemon thread."""

    def __init__(self, app: Any) -> None:
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)

    def __enter__(self) -> running:
        self.thread.start()
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.shutdown()
        self.thread.join(10)


class Server:
    """A home, its app and tokens (viewer, member, admin of ``demo``; ``other``: an admin
    of circle ``other``)."""

    def __init__(self, home: Home, app: Any, tokens: dict[str, str]) -> None:
        self.home, self.app, self.tokens = home, app, tokens
        self._socket: running | None = None

    @property
    def port(self) -> int:
        """The port of a real server on 127.0.0.1, started on first use."""
        if self._socket is None:
            self._socket = running(self.app).__enter__()
        return self._socket.port

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, role: str | None = "admin", *, live: bool = False
               ) -> AppClient | HttpClient:
        """A client with ``role``'s token (None: no token); ``live``: over a real socket."""
        token = self.tokens.get(role) if role else None
        if live:
            return HttpClient("127.0.0.1", self.port, token)
        return AppClient(self.app, token)

    def close(self) -> None:
        if self._socket is not None:
            self._socket.__exit__()
        self.app.extensions["triform.mcp"].close()
        self.home.close()


class Outage(HashingEmbedder):
    """A real embedder that fails while ``failing`` is set (a model outage)."""

    failing = False

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.failing:
            raise ConnectionError("model unavailable")
        return super().embed(texts)


def start_home(path: Path, embedder: str, **options: Any) -> Home:
    """A home as ``triform serve`` opens it (evaluator secrets from TRIFORM_LLM_*)."""
    options.setdefault("secrets", environment_secret)
    return Home(path, embedder_factory(embedder, None), **options)


def serve(path: Path, embedder: str = "hashing", *, init: bool = True,
          **options: Any) -> Server:
    """A home at ``path`` with circles demo (and its memory) and other, and tokens; with
    ``init=False`` an existing home, reopened as it is (with fresh tokens)."""
    home = start_home(path, embedder, **options)
    if init:
        home.init("demo")
        home.create_element(circle="other", element_type_name="circle", slug=None)
    tokens = {role: create_token(home.catalog, "demo", role, role)
              for role in ("viewer", "member", "admin")}
    tokens["other"] = create_token(home.catalog, "other", "admin", "other-admin")
    return Server(home, create_app({"EMBEDDER": embedder}, home=home), tokens)


def assert_error(reply: Reply, status: int, code: str | None = None) -> dict[str, Any]:
    """The reply is an error in the one shape, with this status (and code); returns it."""
    assert reply.status == status, (reply.status, reply.body)
    error = reply.body["error"]
    assert set(error) == {"code", "class", "retryable", "message"}
    assert isinstance(error["message"], str) and error["message"]
    if code:
        assert error["code"] == code, error
    return dict(error)


def create(client: Any, element_type: str, slug: str, parent: str = "demo",
           **properties: Any) -> dict[str, Any]:
    """Create an element through the API; returns it."""
    reply = client.post(f"/api/{parent}/ops/create", {"element_type": element_type,
                                                      "slug": slug, "properties": properties})
    assert reply.status == 201, reply.body
    return dict(reply.body["element"])


def activity_events(client: Any, path: str, op: str | None = None) -> list[dict[str, Any]]:
    found = client.get(f"/api/{path}/ops/activity").body["events"]
    return [e for e in found if op is None or e["op"] == op]


def run_git(git_env: dict[str, str], *args: str, cwd: Path | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["git", *args], cwd=cwd, env=git_env, capture_output=True,
                          text=True, timeout=60)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def clone(server: Any, git_env: dict[str, str], dest: Path, path: str = "demo/memory",
          role: str = "member") -> Path:
    url = f"http://t:{server.tokens[role]}@127.0.0.1:{server.port}/git/{path}.git"
    run_git(git_env, "clone", "-q", url, str(dest))
    return dest


def commit_all(git_env: dict[str, str], wc: Path, message: str) -> None:
    run_git(git_env, "add", "-A", cwd=wc)
    run_git(git_env, "commit", "-q", "-m", message, cwd=wc)


def run_cli(home: Path | None, *args: str, embedder: str | None = "hashing",
            env: dict[str, str] | None = None, timeout: float = 120,
            **kw: Any) -> subprocess.CompletedProcess[str]:
    """``triform [--home HOME] [--embedder E] ARGS`` as a subprocess, stdin closed (it must
    never prompt); ``env`` is added to this process's environment."""
    argv = [sys.executable, "-m", "api.cli"]
    if home is not None:
        argv += ["--home", str(home)]
    if embedder:
        argv += ["--embedder", embedder]
    return subprocess.run([*argv, *args], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, cwd=ROOT, timeout=timeout,
                          env={**os.environ, **(env or {})}, **kw)


class Served:
    """``triform serve`` in a subprocess on ``home``, as a user runs it (waitress, the
    discovery file, the access log): started with :meth:`start`, which returns once the
    server has printed its "serving ... on URL" line, stopped with :meth:`stop` (SIGTERM,
    a clean stop) or :meth:`kill` (SIGKILL). ``token`` is the admin token a fresh home's
    first start printed; ``output`` and ``log`` hold what the server printed on stdout and
    stderr across its starts. ``embedder=None`` loads the real model."""

    def __init__(self, home: Path, *, embedder: str | None = "hashing",
                 args: tuple[str, ...] = (), env: dict[str, str] | None = None,
                 command: list[str] | None = None) -> None:
        self.home, self.embedder, self.args, self.env = home, embedder, args, env or {}
        self.command = command
        self.process: subprocess.Popen[str] | None = None
        self.url = ""
        self.token: str | None = None
        self.output: list[str] = []
        self.log_path = home.parent / f"{home.name}-serve.log"
        self._ready = threading.Event()

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    @property
    def log(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    def start(self, timeout: float = 120) -> Served:
        argv = self.command or [sys.executable, "-m", "api.cli", "--home", str(self.home),
                                *(["--embedder", self.embedder] if self.embedder else []),
                                "serve", "--port", "0", "--sweep-seconds", "0", *self.args]
        self._ready.clear()
        with open(self.log_path, "a") as log:   # the child keeps its own descriptor
            self.process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE,
                                            stderr=log, stdin=subprocess.DEVNULL, text=True,
                                            env={**os.environ, **self.env},
                                            start_new_session=True)
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        if not self._ready.wait(timeout) or self.process.poll() is not None:
            self.kill()
            raise AssertionError("the server did not start:\n" + "\n".join(self.output)
                                 + "\n" + self.log)
        return self

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            line = line.rstrip("\n")
            self.output.append(line)
            stripped = line.strip()
            if stripped.startswith("tfm_") and self.token is None:
                self.token = stripped
            if stripped.startswith("serving ") and " on http://" in stripped:
                self.url = stripped.split(" on ", 1)[1].split(" ", 1)[0]
                self._ready.set()

    def stop(self, timeout: float = 60) -> int:
        """SIGTERM (to the whole process group: ``make`` and its server) and wait."""
        assert self.process is not None
        os.killpg(self.process.pid, 15)
        return self.process.wait(timeout)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, 9)
            self.process.wait(30)

    def client(self, token: str | None = None) -> HttpClient:
        return HttpClient("127.0.0.1", self.port, token or self.token)


def files_holding(directory: Path, word: str) -> list[str]:
    """The files under ``directory`` that hold ``word``: as written, lowercased or stemmed
    (``lexical.terms``), in UTF-8 (the log, the records, the manifest) or in UTF-32
    (numpy's str arrays: the lexical index's terms, which a UTF-8 needle never finds).

    ``word`` must have a letter past ``f``: a runtime directory holds random hex (the log's
    id) and decimal checksums, and a number or hex-like word turns up in them by chance
    (``4417`` did in one run in a thousand: a log id ``...f64417...``)."""
    assert re.search(r"[g-zG-Z]", word), f"{word!r} could occur in random hex or digits"
    needles = {form.encode(encoding) for form in (word, word.lower(), *terms(word))
               for encoding in ("utf-8", "utf-32-le")}
    return sorted(str(p.relative_to(directory)) for p in Path(directory).rglob("*")
                  if p.is_file() and any(n in p.read_bytes() for n in needles))
