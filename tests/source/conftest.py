"""Fixtures for the Source layer: real bare repos, stock git, a real HTTP server."""

from __future__ import annotations

import base64
import hmac
import os
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from source.repo import create_repo
from source.smart_http import make_git_app

TOKEN = "s3cret-token"


@pytest.fixture(scope="session")
def git_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for stock git that ignores the user's and the system's config."""
    home = tmp_path_factory.mktemp("home")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), GIT_CONFIG_NOSYSTEM="1",
               GIT_TERMINAL_PROMPT="0", GIT_ASKPASS="", SSH_ASKPASS="", LC_ALL="C")
    return env


@pytest.fixture
def git(git_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run stock git: ``git("clone", url, dest, cwd=..., check=True)``."""

    def run(*args: str, cwd: Path | str | None = None, check: bool = True,
            input: bytes | None = None, text: bool = True,
            timeout: float = 60) -> subprocess.CompletedProcess[Any]:
        cmd = ["git", "-c", "user.name=Tester", "-c", "user.email=tester@example.com",
               "-c", "init.defaultBranch=draft", *args]
        p = subprocess.run(cmd, cwd=cwd, env=git_env, capture_output=True, input=input,
                           text=text if input is None else False, timeout=timeout)
        if check and p.returncode != 0:
            raise AssertionError(f"{cmd} failed ({p.returncode}):\n{p.stdout}\n{p.stderr}")
        return p

    return run


@pytest.fixture
def repos(tmp_path: Path) -> Path:
    root = tmp_path / "repos"
    root.mkdir()
    return root


@pytest.fixture
def make_repo(repos: Path) -> Callable[..., Path]:
    """``make_repo("demo/notes", {"README.md": b"..."})`` -> path of a new element repo."""

    def make(name: str = "demo/notes", files: dict[str, bytes] | None = None) -> Path:
        path = repos / f"{name}.git"
        create_repo(path, files if files is not None else
                    {"README.md": b"# notes\n", ".triform/spec.yaml": b"element_type: memory\n"},
                    message="create element")
        return path

    return make


def token_ok(environ: dict[str, Any], _push: bool) -> bool:
    header = environ.get("HTTP_AUTHORIZATION", "")
    if header.startswith("Bearer "):
        return hmac.compare_digest(header[7:].strip(), TOKEN)
    if header.startswith("Basic "):
        try:
            _user, _, pw = base64.b64decode(header[6:]).decode().partition(":")
        except Exception:
            return False
        return hmac.compare_digest(pw, TOKEN)
    return False


class Served:
    """A WSGI app served by werkzeug's threaded dev server on 127.0.0.1:<random>."""

    def __init__(self, app: Any) -> None:
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever,
                                       kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def url(self, name: str, *, token: str | None = None) -> str:
        auth = f"user:{token}@" if token else ""
        return f"http://{auth}127.0.0.1:{self.port}/git/{name}.git"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve() -> Iterator[Callable[[Any], Served]]:
    started: list[Served] = []

    def start(app: Any) -> Served:
        s = Served(app)
        started.append(s)
        return s

    yield start
    for s in started:
        s.close()


@pytest.fixture
def git_app_factory(repos: Path) -> Callable[..., Any]:
    """The git app mounted at /git the way the API mounts it, with token auth on pushes."""
    from werkzeug.middleware.dispatcher import DispatcherMiddleware

    def build(validate_push: Any = None, **kw: Any) -> Any:
        def resolve(name: str) -> Path | None:
            p = repos / f"{name}.git"
            return p if p.is_dir() else None

        def authorize(environ: dict[str, Any], push: bool) -> bool:
            return token_ok(environ, push) if push else True

        def fallback(environ: dict[str, Any], start_response: Any) -> list[bytes]:
            start_response("404 Not Found", [("Content-Type", "text/plain")])
            return [b"not here\n"]

        return DispatcherMiddleware(fallback, {"/git": make_git_app(resolve, authorize,
                                                                   validate_push, **kw)})

    return build


@pytest.fixture
def server(serve: Callable[[Any], Served], git_app_factory: Callable[..., Any]) -> Served:
    return serve(git_app_factory())


def side_commit(path: Path, parent: str | None, changes: dict[str, bytes | None],
                message: str = "side") -> str:
    """A commit on top of ``parent`` that no branch points at (like a client's base_commit)."""
    import pygit2

    from source.repo import open_repo
    with open_repo(path) as repo:
        idx = pygit2.Index()
        parents = []
        if parent is not None:
            idx.read_tree(repo[parent].tree)
            parents = [repo[parent].id]
        for rel, data in changes.items():
            if data is None:
                idx.remove(rel)
            else:
                idx.add(pygit2.IndexEntry(rel, repo.create_blob(data), pygit2.enums.FileMode.BLOB))
        sig = pygit2.Signature("Side", "side@example.com")
        return str(repo.create_commit(None, sig, sig, message, idx.write_tree(repo), parents))


def raw_tree(path: Path, entries: list[tuple[str, bytes, str]]) -> str:
    """Write a tree object byte by byte (no name checks): entries of (mode, name, oid hex).

    libgit2 and git refuse names like ``..`` when building trees the normal way; a hostile
    client is not so polite.
    """
    import pygit2

    from source.repo import open_repo
    raw = b"".join(mode.encode() + b" " + name + b"\x00" + bytes.fromhex(oid)
                   for mode, name, oid in sorted(entries, key=lambda e: e[1]))
    with open_repo(path) as repo:
        return str(repo.odb.write(pygit2.enums.ObjectType.TREE, raw))


def blob(path: Path, data: bytes) -> str:
    from source.repo import open_repo
    with open_repo(path) as repo:
        return str(repo.create_blob(data))


def commit_tree(path: Path, tree: str, parent: str | None, message: str = "crafted",
                branch: str | None = None) -> str:
    """A commit of ``tree``; with ``branch`` the branch is moved to it."""
    import pygit2

    from source.repo import open_repo
    with open_repo(path) as repo:
        sig = pygit2.Signature("Crafted", "crafted@example.com")
        c = repo.create_commit(None, sig, sig, message, pygit2.Oid(hex=tree),
                               [pygit2.Oid(hex=parent)] if parent else [])
        if branch:
            repo.references[f"refs/heads/{branch}"].set_target(c)
        return str(c)


def raw_commit(path: Path, tree: str, parents: list[str], message: str = "raw") -> str:
    """Write a commit object byte by byte (parents need not exist)."""
    import pygit2

    from source.repo import open_repo
    lines = [f"tree {tree}"] + [f"parent {p}" for p in parents] + [
        "author Raw <raw@example.com> 1700000000 +0000",
        "committer Raw <raw@example.com> 1700000000 +0000", "", message, ""]
    with open_repo(path) as repo:
        return str(repo.odb.write(pygit2.enums.ObjectType.COMMIT, "\n".join(lines).encode()))
