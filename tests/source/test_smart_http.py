"""source/smart_http.py: stock git clone/push against the WSGI app on a real server."""

from __future__ import annotations

import base64
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from source.repair import repair
from source.repo import branch_tips, commit_files, read_file, ref_log
from source.smart_http import Verdict, _RequestBackend, make_git_app
from tests.source.conftest import TOKEN


def _clone(git, server, tmp_path: Path, name: str = "demo/notes") -> Path:
    wc = tmp_path / "wc"
    git("clone", server.url(name), str(wc))
    return wc


def _commit(git, wc: Path, files: dict[str, bytes], msg: str = "change") -> str:
    for rel, data in files.items():
        (wc / rel).parent.mkdir(parents=True, exist_ok=True)
        (wc / rel).write_bytes(data)
    git("add", "-A", cwd=wc)
    git("commit", "-q", "-m", msg, cwd=wc)
    return git("rev-parse", "HEAD", cwd=wc).stdout.strip()


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_clone_checks_out_draft(make_repo, server, git, tmp_path: Path) -> None:
    make_repo()
    wc = _clone(git, server, tmp_path)
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=wc).stdout.strip() == "draft"
    assert git("symbolic-ref", "refs/remotes/origin/HEAD", cwd=wc).stdout.strip() == \
        "refs/remotes/origin/draft"
    branches = git("branch", "-r", cwd=wc).stdout
    assert all(f"origin/{b}" in branches for b in ("draft", "demo", "live"))
    assert (wc / "README.md").read_bytes() == b"# notes\n"


def test_unknown_repo_and_bad_paths_are_404_without_server_paths(
        make_repo, server, git, tmp_path: Path, repos: Path) -> None:
    make_repo()
    base = f"http://127.0.0.1:{server.port}/git"
    for path in ("/demo/nope.git/info/refs?service=git-upload-pack",
                 "/demo/../demo/notes.git/info/refs?service=git-upload-pack",
                 "/demo/%2e%2e/x.git/info/refs?service=git-upload-pack",
                 "/.git/info/refs?service=git-upload-pack",
                 "/demo/notes.git/HEAD",
                 "/demo/notes.git/objects/info/packs"):
        status, body = _get(base + path)
        assert status == 404, path
        assert str(tmp_path).encode() not in body and b"/repos" not in body
    status, body = _get(base + "/demo/notes.git/info/refs")       # dumb protocol
    assert status == 403
    p = git("clone", server.url("demo/nope"), str(tmp_path / "x"), check=False)
    assert p.returncode != 0 and "not found" in p.stderr


def test_resolve_to_non_repo_is_404_no_parent_discovery(
        make_repo, serve, git, tmp_path: Path) -> None:
    """NO_SEARCH: a path inside a repo (refs/heads) must not serve the repo around it."""
    repo = make_repo()
    app = make_git_app(lambda name: repo / "refs" / "heads", lambda env, push: True)
    srv = serve(app)
    status, body = _get(f"http://127.0.0.1:{srv.port}/demo/notes.git/info/refs"
                        "?service=git-upload-pack")
    assert status == 404 and body.strip() == b"repository not found"


def test_push_auth(make_repo, server, git, tmp_path: Path) -> None:
    path = make_repo()
    wc = _clone(git, server, tmp_path)
    new = _commit(git, wc, {"a.txt": b"a"})
    p = git("push", server.url("demo/notes"), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "could not read Username" in p.stderr
    p = git("push", server.url("demo/notes", token="wrong"), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "Authentication failed" in p.stderr
    assert branch_tips(path)["draft"] != new
    git("-c", f"http.extraHeader=Authorization: Bearer {TOKEN}", "push",
        server.url("demo/notes"), "draft", cwd=wc)
    assert branch_tips(path)["draft"] == new
    assert read_file(path, "a.txt") == b"a"
    assert ref_log(path, "draft")[0]["message"].startswith("push")


def test_push_basic_token_fast_forward(make_repo, server, git, tmp_path: Path) -> None:
    path = make_repo()
    wc = _clone(git, server, tmp_path)
    new = _commit(git, wc, {"notes/x.md": b"x\n"})
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc)
    assert "draft -> draft" in p.stderr
    assert branch_tips(path)["draft"] == new
    git("--git-dir", str(path), "fsck", "--full")


@pytest.mark.parametrize("refspec,reason", [
    ("draft:live", "refs/heads/live is protected: promote via the API"),
    ("draft:demo", "refs/heads/demo is protected: promote via the API"),
    ("draft:feature", "only refs/heads/draft accepts pushes"),
    ("draft:refs/tags/v1", "only refs/heads/draft accepts pushes"),
    (":draft", "deleting refs/heads/draft is not allowed"),
    (":live", "refs/heads/live is protected"),
])
def test_push_policy_refusals(make_repo, server, git, tmp_path: Path, refspec: str,
                              reason: str) -> None:
    path = make_repo()
    before = branch_tips(path)
    wc = _clone(git, server, tmp_path)
    _commit(git, wc, {"a.txt": b"a"})
    p = git("push", server.url("demo/notes", token=TOKEN), refspec, cwd=wc, check=False)
    assert p.returncode != 0
    assert "[remote rejected]" in p.stderr and reason in p.stderr, p.stderr
    assert branch_tips(path) == before


def test_force_push_non_fast_forward_refused(make_repo, server, git, tmp_path: Path) -> None:
    path = make_repo()
    commit_files(path, {"server.txt": b"s"}, message="server side")
    before = branch_tips(path)["draft"]
    wc = tmp_path / "wc"
    git("clone", server.url("demo/notes"), str(wc))
    git("reset", "-q", "--hard", "HEAD~1", cwd=wc)
    _commit(git, wc, {"other.txt": b"o"})
    p = git("push", "--force", server.url("demo/notes", token=TOKEN), "draft", cwd=wc,
            check=False)
    assert p.returncode != 0 and "non-fast-forward: fetch and merge first" in p.stderr
    assert branch_tips(path)["draft"] == before


@pytest.mark.parametrize("files,needle", [
    ({"memories.jsonl": b"{}\n"}, "memories.jsonl: memories.jsonl is memory runtime data"),
    ({"src/__pycache__/m.cpython-311.pyc": b"\0"}, "generated output"),
    ({"conf.txt": b"token = ghp_" + b"A1b2C3d4" * 4 + b"ZzYy\n"}, "GitHub token"),
    ({"k": b"-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n"}, "PEM private key"),
])
def test_push_validator_refusals(make_repo, server, git, tmp_path: Path, files, needle) -> None:
    path = make_repo()
    before = branch_tips(path)["draft"]
    wc = _clone(git, server, tmp_path)
    _commit(git, wc, files)
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "[remote rejected]" in p.stderr and needle in p.stderr, p.stderr
    assert branch_tips(path)["draft"] == before


def test_secret_added_and_removed_within_push_is_refused(make_repo, server, git,
                                                         tmp_path: Path) -> None:
    path = make_repo()
    wc = _clone(git, server, tmp_path)
    _commit(git, wc, {"aws.txt": b"AKIAZ7QW3ERTY5UIOP2X\n"}, "oops")
    (wc / "aws.txt").unlink()
    git("commit", "-qam", "remove it", cwd=wc)
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "AWS access key id" in p.stderr
    assert read_file(path, "aws.txt") is None


def test_validate_push_callback(make_repo, serve, git_app_factory, git, tmp_path: Path) -> None:
    path = make_repo()
    seen: list[tuple[Path, str, str]] = []

    def check(repo: Path, ref: str, new: str) -> list[str]:
        seen.append((repo, ref, new))
        spec = read_file(repo, ".triform/spec.yaml", branch=new) or b""
        return [] if b"element_type: memory" in spec else ["invalid spec: element_type changed"]

    srv = serve(git_app_factory(validate_push=check))
    wc = _clone(git, srv, tmp_path)
    _commit(git, wc, {".triform/spec.yaml": b"element_type: prompt\n"})
    p = git("push", srv.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "invalid spec: element_type changed" in p.stderr
    git("reset", "-q", "--hard", "origin/draft", cwd=wc)
    new = _commit(git, wc, {"ok.txt": b"ok"})
    git("push", srv.url("demo/notes", token=TOKEN), "draft", cwd=wc)
    assert seen[-1] == (path, "refs/heads/draft", new)


def test_pitfall_a_leading_slash_backend_path(make_repo) -> None:
    """dulwich passes '/<name>.git' (leading slash, str or bytes) to open_repository."""
    path = make_repo()
    backend = _RequestBackend("demo/notes", path, None)
    for p in ("/demo/notes.git", b"/demo/notes.git", "/demo/notes", "demo/notes.git"):
        repo = backend.open_repository(p)
        assert repo.refs[b"refs/heads/draft"]
    from dulwich.errors import NotGitRepository
    with pytest.raises(NotGitRepository) as e:
        backend.open_repository("/demo/other.git")
    assert str(path) not in str(e.value)
    backend.close()
    assert backend.opened == []


def _big_push(git, srv, tmp_path: Path, path: Path, size: int = 3 * 1024 * 1024) -> None:
    wc = _clone(git, srv, tmp_path)
    new = _commit(git, wc, {"blob.bin": os.urandom(size)})   # incompressible: pack > 1 MiB
    p = git("-c", "http.postBuffer=65536", "push", srv.url("demo/notes", token=TOKEN),
            "draft", cwd=wc, timeout=60)
    assert "draft -> draft" in p.stderr
    assert branch_tips(path)["draft"] == new


def test_pitfall_b_chunked_push_over_1mib_werkzeug(make_repo, server, git, tmp_path) -> None:
    """werkzeug de-chunks the body but keeps Transfer-Encoding; the app drops the header."""
    _big_push(git, server, tmp_path, make_repo())


def test_pitfall_b_chunked_push_over_1mib_waitress(make_repo, git_app_factory, git,
                                                   tmp_path: Path) -> None:
    waitress = pytest.importorskip("waitress")
    srv = waitress.create_server(git_app_factory(), host="127.0.0.1", port=0, threads=4)
    closing = threading.Event()

    def run() -> None:
        try:
            srv.run()
        except OSError:
            if not closing.is_set():   # close() pulls the socket from under select()
                raise
    t = threading.Thread(target=run, daemon=True)
    t.start()

    class S:
        port = srv.effective_port

        def url(self, name: str, *, token: str | None = None) -> str:
            auth = f"user:{token}@" if token else ""
            return f"http://{auth}127.0.0.1:{self.port}/git/{name}.git"

    try:
        _big_push(git, S(), tmp_path, make_repo())
    finally:
        closing.set()
        srv.close()
        t.join(10)


def test_push_over_size_limit_refused(make_repo, serve, git_app_factory, git, tmp_path) -> None:
    path = make_repo()
    before = branch_tips(path)["draft"]
    srv = serve(git_app_factory(max_push_bytes=200_000))
    wc = _clone(git, srv, tmp_path)
    _commit(git, wc, {"blob.bin": os.urandom(400_000)})
    p = git("push", srv.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "pack exceeds maximum input size" in p.stderr, p.stderr
    assert branch_tips(path)["draft"] == before


def test_pitfall_c_push_losing_race_is_rejected_not_faked(make_repo, serve, git_app_factory,
                                                          git, tmp_path: Path) -> None:
    """Draft moves after the client read it but before the ref update: the client must see
    a rejection and the concurrent commit must survive."""
    path = make_repo()
    moved: list[str] = []

    def move_draft_meanwhile(repo: Path, ref: str, new: str) -> list[str]:
        moved.append(commit_files(repo, {"api.txt": b"from the API"}, message="api edit"))
        return []

    srv = serve(git_app_factory(validate_push=move_draft_meanwhile))
    wc = _clone(git, srv, tmp_path)
    pushed = _commit(git, wc, {"pushed.txt": b"p"})
    p = git("push", srv.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0, p.stderr
    assert "[remote rejected] draft -> draft (failed to write)" in p.stderr
    tip = branch_tips(path)["draft"]
    assert tip == moved[0] != pushed
    assert read_file(path, "api.txt") == b"from the API"


def test_pitfall_d_repos_closed_fd_count_stable(make_repo, server, git, tmp_path) -> None:
    make_repo()
    fds = lambda: len(os.listdir("/proc/self/fd"))  # noqa: E731
    for i in range(3):                                 # warm up (server threads, imports)
        git("clone", "-q", server.url("demo/notes"), str(tmp_path / f"w{i}"))
    before = fds()
    for i in range(30):
        git("clone", "-q", server.url("demo/notes"), str(tmp_path / f"c{i}"))
    assert fds() - before <= 2, (before, fds())


def test_fetch_after_server_commit(make_repo, server, git, tmp_path: Path) -> None:
    path = make_repo()
    wc = _clone(git, server, tmp_path)
    c = commit_files(path, {"later.txt": b"l"}, message="later")
    git("pull", "-q", "--ff-only", cwd=wc)
    assert git("rev-parse", "HEAD", cwd=wc).stdout.strip() == c


def test_authorize_sees_element_path_and_push_flag(make_repo, serve, git, tmp_path) -> None:
    path = make_repo()
    calls: list[tuple[str, bool]] = []

    def authorize(environ: dict[str, Any], push: bool) -> bool:
        calls.append((environ["triform.element_path"], push))
        return not push

    srv = serve(make_git_app(lambda n: path if n == "demo/notes" else None, authorize))
    wc = tmp_path / "wc"
    git("clone", f"http://127.0.0.1:{srv.port}/demo/notes.git", str(wc))
    _commit(git, wc, {"x": b"x"})
    p = git("push", f"http://u:p@127.0.0.1:{srv.port}/demo/notes.git", "draft", cwd=wc,
            check=False)
    assert p.returncode != 0
    assert ("demo/notes", False) in calls and ("demo/notes", True) in calls


def test_pitfall_c_without_strict_cas_git_is_told_a_lie(make_repo, serve, git_app_factory,
                                                        git, tmp_path: Path, monkeypatch) -> None:
    """Why the strict wrapper exists: with dulwich's plain set_if_equals the same race
    prints success while the ref does not move."""
    import source.smart_http as sh
    monkeypatch.setattr(sh, "_strict_cas", lambda repo, push=None: None)
    path = make_repo()

    def move_draft_meanwhile(repo: Path, ref: str, new: str) -> list[str]:
        commit_files(repo, {"api.txt": b"x"}, message="api edit")
        return []

    srv = serve(git_app_factory(validate_push=move_draft_meanwhile))
    wc = _clone(git, srv, tmp_path)
    pushed = _commit(git, wc, {"pushed.txt": b"p"})
    p = git("push", srv.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode == 0 and "draft -> draft" in p.stderr          # the lie
    assert branch_tips(path)["draft"] != pushed


def _object_files(path: Path) -> set[str]:
    """Every file under ``objects/`` but git's own indexes of what is there."""
    return {str(p.relative_to(path)) for p in (path / "objects").rglob("*")
            if p.is_file() and p.parent.name != "info"}


def test_a_refused_push_leaves_nothing_behind(make_repo, server, git,
                                              tmp_path: Path) -> None:
    """Issue 26, Medium 7: a refused push's pack stayed in the object store (until a
    repair pruned it, if ever)."""
    path = make_repo()
    before = _object_files(path)
    wc = _clone(git, server, tmp_path)
    _commit(git, wc, {"memories.jsonl": b"{}\n", "big.bin": os.urandom(200_000)})
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "runtime" in p.stderr
    assert _object_files(path) == before
    assert repair(path)["found"] == []
    # An accepted push keeps its objects, of course.
    git("reset", "-q", "--hard", "origin/draft", cwd=wc)
    new = _commit(git, wc, {"notes.md": b"fine\n"})
    git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc)
    assert branch_tips(path)["draft"] == new and _object_files(path) > before


def _pkt(line: bytes) -> bytes:
    return f"{len(line) + 4:04x}".encode() + line


def test_an_aborted_push_leaves_no_temporary_pack(make_repo, server, tmp_path: Path) -> None:
    """A client that hangs up in the middle of its pack left a ``tmp_pack_*`` file (20 MB
    per aborted push of that size)."""
    import socket
    import struct
    import time
    path = make_repo()
    before = _object_files(path)
    old = branch_tips(path)["draft"].encode()
    head = _pkt(old + b" " + b"1" * 40 + b" refs/heads/draft\0 report-status\n") + b"0000"
    pack = b"PACK" + struct.pack(">II", 2, 1000) + os.urandom(300_000)
    auth = base64.b64encode(f"u:{TOKEN}".encode()).decode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(b"POST /git/demo/notes.git/git-receive-pack HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/x-git-receive-pack-request\r\n"
                     + f"Authorization: Basic {auth}\r\n".encode()
                     + f"Content-Length: {len(head) + len(pack) + 5_000_000}\r\n\r\n"
                     .encode() + head + pack)
        time.sleep(0.5)
    deadline = time.monotonic() + 10
    while _object_files(path) != before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _object_files(path) == before


def test_authorize_forbidden_is_403(make_repo, serve, git, tmp_path: Path) -> None:
    path = make_repo()
    srv = serve(make_git_app(lambda n: path, lambda env, push: "forbidden" if push else True))
    wc = tmp_path / "wc"
    git("clone", "-q", f"http://127.0.0.1:{srv.port}/demo/notes.git", str(wc))
    _commit(git, wc, {"x": b"x"})
    p = git("push", f"http://u:p@127.0.0.1:{srv.port}/demo/notes.git", "draft", cwd=wc,
            check=False)
    assert p.returncode != 0 and "403" in p.stderr



@pytest.mark.parametrize("secret,what", [
    ("tfm_" + ("q1W2e3R4t5Y6u7I8o9P0-_" * 2)[:43], "Triform API token"),
    ("ghp_" + "A1b2C3d4" * 4 + "ZzYy", "GitHub token"),
])
def test_push_with_a_secret_in_a_commit_message_is_refused(make_repo, server, git,
                                                           tmp_path: Path, secret: str,
                                                           what: str) -> None:
    path = make_repo()
    before = branch_tips(path)["draft"]
    wc = _clone(git, server, tmp_path)
    _commit(git, wc, {"notes.md": b"harmless\n"}, f"deploy with {secret}")
    _commit(git, wc, {"notes.md": b"still harmless\n"}, "later, clean")
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0
    assert f"<commit message>: contains a {what}" in p.stderr, p.stderr
    assert branch_tips(path)["draft"] == before


def _pkt(line: bytes) -> bytes:
    return b"%04x" % (len(line) + 4) + line


@pytest.mark.parametrize("service", ["git-receive-pack", "git-upload-pack"])
@pytest.mark.parametrize("body,reason", [
    (_pkt(b"garbage\n") + b"0000", "malformed git request"),
    (_pkt(b"0" * 40 + b" " + b"1" * 40 + b"\n") + b"0000", "malformed git request"),
    (_pkt(b"x" * 40 + b" " + b"1" * 40 + b" refs/heads/draft\n") + b"0000",
     "malformed git request"),
    (b"zzzz", "Invalid pkt-line length prefix"),
    (b"", "the request body ended early"),
    (b"0004", "malformed git request"),
])
def test_malformed_protocol_lines_are_a_clean_400(make_repo, server, service: str,
                                                  body: bytes, reason: str) -> None:
    """A hostile client's malformed ref line or pkt-line: a 400 with the reason, no 500."""
    path = make_repo()
    before = branch_tips(path)
    req = urllib.request.Request(
        f"http://127.0.0.1:{server.port}/git/demo/notes.git/{service}", data=body,
        headers={"Content-Type": f"application/x-{service}-request",
                 "Authorization": f"Bearer {TOKEN}"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=10)
    assert e.value.code == 400
    assert e.value.headers["Content-Type"].startswith("text/plain")
    text = e.value.read().decode()
    assert text.startswith("malformed git request") and reason in text
    assert "\n" not in text.rstrip("\n") and str(path) not in text
    assert branch_tips(path) == before
    status, _ = _get(f"http://127.0.0.1:{server.port}/git/demo/notes.git/info/refs"
                     "?service=git-upload-pack")
    assert status == 200                                    # the server keeps serving


def test_authorize_verdicts_what_git_and_http_see(make_repo, serve, git, tmp_path) -> None:
    """NOT_FOUND lets the API answer 'repository not found' for an unknown element of a
    circle the token reads, instead of a 401 that makes the user doubt a good token."""
    path = make_repo()
    verdicts: dict[str, Any] = {"demo/notes": Verdict.ALLOW, "demo/missing": Verdict.NOT_FOUND,
                                "other/hidden": Verdict.UNAUTHENTICATED,
                                "demo/locked": Verdict.FORBIDDEN, "demo/odd": "yes",
                                "demo/none": None}

    def authorize(environ: dict[str, Any], push: bool) -> Any:
        return verdicts[environ["triform.element_path"]]

    srv = serve(make_git_app(lambda n: path if n == "demo/notes" else None, authorize))
    base = f"http://127.0.0.1:{srv.port}"
    refs = "/info/refs?service=git-upload-pack"
    expected = {"demo/notes": 200, "demo/missing": 404, "other/hidden": 401,
                "demo/locked": 403, "demo/odd": 401, "demo/none": 401}
    for name, status in expected.items():
        try:
            with urllib.request.urlopen(f"{base}/{name}.git{refs}", timeout=10) as r:
                got, headers, body = r.status, r.headers, b""
        except urllib.error.HTTPError as e:
            got, headers, body = e.code, e.headers, e.read()
        assert got == status, name
        assert ("WWW-Authenticate" in headers) == (status == 401), name
        if status == 404:
            assert body == b"repository not found\n"
    p = git("clone", f"http://u:tfm_x@127.0.0.1:{srv.port}/demo/missing.git",
            str(tmp_path / "m"), check=False)
    assert p.returncode != 0 and "not found" in p.stderr
    assert "Authentication failed" not in p.stderr and "Username" not in p.stderr
    p = git("clone", f"http://127.0.0.1:{srv.port}/other/hidden.git", str(tmp_path / "h"),
            check=False)
    assert p.returncode != 0 and "could not read Username" in p.stderr
    git("clone", "-q", f"{base}/demo/notes.git", str(tmp_path / "ok"))
    assert Verdict.FORBIDDEN == "forbidden"         # the string the API returns today


HOSTILE_GITMODULES = {
    "an option as url": b'[submodule "x"]\n\tpath = x\n\turl = --upload-pack=touch /tmp/p\n',
    "a name that climbs": b'[submodule "../../../y"]\n\tpath = y\n\turl = https://e.com/y\n',
    "a directory": None,
}


@pytest.mark.parametrize("what", list(HOSTILE_GITMODULES))
def test_a_hostile_gitmodules_push_is_refused_by_gits_fsck(make_repo, server, git,
                                                           tmp_path: Path, what: str) -> None:
    """Issue 26, Medium 8: such a push was accepted, and afterwards the element's own bundle
    could never be imported again, and fsck-checking clones failed."""
    from source import export_bundle, import_bundle
    path = make_repo()
    before = branch_tips(path)["draft"]
    wc = _clone(git, server, tmp_path)
    content = HOSTILE_GITMODULES[what]
    if content is None:
        _commit(git, wc, {".gitmodules/x": b"x\n"}, what)
    else:
        _commit(git, wc, {".gitmodules": content}, what)
    p = git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)
    assert p.returncode != 0 and "gitmodules" in p.stderr, p.stderr
    assert branch_tips(path)["draft"] == before
    import_bundle(export_bundle(path), tmp_path / "copy.git")      # still travels
