"""Git smart HTTP (clone, fetch, push) for element repositories, as a WSGI app.

``make_git_app`` wraps dulwich's ``HTTPGitApplication``. The caller mounts it (e.g. under
``/git`` with werkzeug's ``DispatcherMiddleware``), so ``PATH_INFO`` looks like
``/<circle>/<slug>.git/info/refs``. Only the smart protocol is served: ``GET
info/refs?service=...`` and ``POST git-upload-pack`` / ``git-receive-pack``; everything else
is a 404 (or 403 for the dumb protocol).

Push policy, per ref (``PushPolicy``; the git client prints each reason after
``! [remote rejected]``):

* ``refs/heads/demo`` and ``refs/heads/live``: "<ref> is protected: promote via the API";
* deletes of any ref are refused; only ``refs/heads/draft`` may be updated (no new
  branches, no tags);
* the update must be a fast-forward of the server's draft;
* every commit new to the server must pass ``validate_commits`` (runtime data, generated
  output, secrets, unsafe paths, unreadable objects...) and the caller's ``validate_push``;
* the ref moves by strict compare-and-swap: if draft moved since the client read it, the
  client sees ``failed to write`` (never a fake success).

Pitfalls handled (see git-recipes.md section 1): (a) dulwich hands the backend
``/<name>.git`` with a leading slash: our backend does not join paths at all, it compares
the name with the one already resolved; (b) werkzeug de-chunks ``wsgi.input`` but leaves
``Transfer-Encoding: chunked``, so the header is dropped when ``wsgi.input_terminated``;
(c) ``ReceivePackHandler`` ignores a ``False`` from ``set_if_equals``, so it is wrapped to
raise; (d) dulwich never closes the repos it opens, so each request closes its own; (e)
dulwich's bitmap reachability opens ``pack-<sha>.bitmap`` for *every* pack once one pack
has a bitmap, and dies on a pack without one (``FileNotFoundError`` mid-response: the
client sees ``curl 18 transfer closed``). ``git gc`` (run by bundle import, by repair, or
by hand) writes a bitmap for its pack and later pushes add packs without one, so fetches
always walk the commit graph instead. A 404 never shows a server path.

What a push leaves on disk (issue 26): pushes to one repository take turns (a lock file,
across processes), and after each, the ``tmp_pack_*`` file of a push the client abandoned
is removed, and so is the pack of a push refused for what it holds (the validator, git's
fsck, the caller's checks, a protected or unknown ref): nothing can ever use it. The pack
of a push refused only as a non-fast-forward (its commits valid) stays, unreachable: that
is how a client delivers commits for ``source_diff3`` and ``source_merge``
(docs/source-ops.md), and ``repair`` prunes it later. A pack whose modification time moved
meanwhile is kept too (libgit2 freshens a pack when a commit of the API reuses one of its
objects instead of writing it again).
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import logging
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from dulwich.errors import GitProtocolError, HangupException, HookError, NotGitRepository
from dulwich.file import FileLocked
from dulwich.graph import can_fast_forward
from dulwich.hooks import Hook
from dulwich.object_store import GraphTraversalReachability, ObjectReachabilityProvider
from dulwich.objects import ObjectID
from dulwich.refs import Ref
from dulwich.repo import Repo
from dulwich.server import Backend, ReceivePackHandler, UploadPackHandler
from dulwich.web import GunzipFilter, HTTPGitApplication, LimitedInputFilter

from .validate import validate_commits

__all__ = ["make_git_app", "Verdict", "PushPolicy", "MAX_PUSH_BYTES", "PROTECTED_REFS",
           "PUSH_REF"]

log = logging.getLogger(__name__)

#: Largest pack a single push may send (git's ``receive.maxInputSize``), 100 MiB.
MAX_PUSH_BYTES = 100 * 1024 * 1024
PUSH_REF = b"refs/heads/draft"
PROTECTED_REFS = (b"refs/heads/demo", b"refs/heads/live")
_ZERO = b"0" * 40
_PUSHER = b"git push <push@triform>"
#: What dulwich raises on a request it cannot parse (its parsers unpack and assert).
_CLIENT_MISTAKES = (GitProtocolError, ValueError, AssertionError)
_MAX_REASON = 600
#: The file pushes to a repository take turns on (``_one_push_at_a_time``).
PUSH_LOCK = "triform-push.lock"

_PATH = re.compile(r"/(?P<name>[^?#]+?)(?:\.git)?"
                   r"(?P<service>/info/refs|/git-upload-pack|/git-receive-pack)")
_SEGMENT = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")

Resolve = Callable[[str], "Path | None"]


class Verdict(enum.StrEnum):
    """What the caller's ``authorize`` decided about one git request, and what git sees."""

    #: serve the request
    ALLOW = "allow"
    #: 401 with ``WWW-Authenticate: Basic``: no or bad credentials, so git asks for them
    UNAUTHENTICATED = "unauthenticated"
    #: 403: valid credentials whose role is too low; git does not ask again
    FORBIDDEN = "forbidden"
    #: 404 ``repository not found``: the credentials may read the circle the path names,
    #: and no such element exists there (never for a circle they cannot read: that would
    #: tell them which elements exist)
    NOT_FOUND = "not_found"


Authorize = Callable[[dict[str, Any], bool], "Verdict | bool"]


def _verdict(value: object) -> Verdict:
    """``True``/``False`` are shorthands for ALLOW/UNAUTHENTICATED; anything else that is
    not a Verdict is refused as UNAUTHENTICATED (fail closed)."""
    if value is True:
        return Verdict.ALLOW
    if isinstance(value, str) and value in Verdict.__members__.values():
        return Verdict(value)
    return Verdict.UNAUTHENTICATED
ValidatePush = Callable[[Path, str, str], list[str]]


def _one_line(text: str) -> str:
    text = re.sub(r"[\x00-\x1f\x7f]+", " ", text).strip()
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 3] + "..."


class PushPolicy(Hook):
    """dulwich ``update`` hook: decides each pushed ref; raising ``HookError`` refuses it."""

    def __init__(self, repo: Repo, repo_path: Path, validate_push: ValidatePush | None,
                 push: _PushRecord | None = None) -> None:
        self.repo = repo
        self.repo_path = repo_path
        self.validate_push = validate_push
        self.push = push

    def execute(self, ref: bytes, old: bytes, new: bytes) -> tuple[bytes, bytes]:
        name = ref.decode("utf-8", "replace")
        if ref in PROTECTED_REFS:
            raise HookError(f"{name} is protected: promote via the API")
        if new == _ZERO:
            raise HookError(f"deleting {name} is not allowed")
        if ref != PUSH_REF:
            raise HookError(f"only refs/heads/draft accepts pushes, not {name}")
        if old == _ZERO:
            raise HookError("refs/heads/draft is missing on the server: run source_repair")
        try:
            ff = old == new or can_fast_forward(self.repo, ObjectID(old), ObjectID(new))
        except (KeyError, AssertionError, ValueError):
            raise HookError("push refers to missing objects") from None
        reasons = self._reasons(name, old.decode(), new.decode())
        if reasons:
            more = f" (+{len(reasons) - 3} more)" if len(reasons) > 3 else ""
            raise HookError(_one_line("refused: " + "; ".join(reasons[:3]) + more))
        if not ff:
            # Valid commits, delivered for source_diff3 and source_merge: they stay.
            if self.push is not None:
                self.push.deliverable = True
            raise HookError("non-fast-forward: fetch and merge first")
        return b"", b""

    def _reasons(self, ref: str, old: str, new: str) -> list[str]:
        try:
            findings = validate_commits(self.repo_path, new, old)
        except Exception:  # a validator crash must refuse the ref, not 500 mid-stream
            log.exception("push validation crashed")
            return ["validation failed on the server"]
        reasons = []
        for f in findings:
            r = f"{f['path']}: {f['reason']}"
            if r not in reasons:
                reasons.append(r)
        if self.validate_push is not None:
            try:
                reasons += [str(r) for r in self.validate_push(self.repo_path, ref, new)]
            except Exception:  # the caller's crash refuses the ref, like ours
                log.exception("validate_push callback crashed")
                reasons.append("validation failed on the server")
        return reasons


def _graph_reachability(repo: Repo) -> None:
    """Never use pack bitmaps to find what a fetch needs (pitfall e).

    Bitmaps only speed up large fetches; element repos are small, and walking the graph is
    correct whatever mix of packs with and without ``.bitmap`` files a repack left behind.
    """
    store = repo.object_store

    def graph(prefer_bitmaps: bool = True) -> ObjectReachabilityProvider:
        return GraphTraversalReachability(store)

    # dulwich builds the store inside Repo(); replacing the method on this one instance
    # is the only hook it offers.
    store.get_reachability_provider = graph  # type: ignore[method-assign]


def _record_packs(repo: Repo, push: _PushRecord) -> None:
    """Note each pack a receive-pack writes (``_PushRecord``)."""
    store = repo.object_store
    add = store.add_thin_pack

    def recorded(*args: Any, **kwargs: Any) -> Any:
        pack = add(*args, **kwargs)
        push.received(str(pack._basename))
        return pack

    # As for ``_graph_reachability``: the instance is the only hook dulwich offers.
    store.add_thin_pack = recorded  # type: ignore[method-assign]


def _strict_cas(repo: Repo, push: _PushRecord | None = None) -> None:
    """Make ``set_if_equals`` raise when the ref moved (pitfall c), and log pushes."""
    cas = repo.refs.set_if_equals

    def strict(name: Ref, old_ref: ObjectID | None, new_ref: ObjectID,
               committer: bytes | None = None, timestamp: int | None = None,
               timezone: int | None = None, message: bytes | None = None) -> bool:
        for attempt in range(20):
            try:
                ok = cas(name, old_ref, new_ref, committer=committer or _PUSHER,
                         timestamp=timestamp, timezone=timezone, message=message or b"push")
                break
            except FileLocked:
                # another writer (pygit2 commit, promote) holds the ref lock briefly
                time.sleep(0.005 * (attempt + 1))
        else:
            raise OSError(f"{name.decode()} is locked")
        if not ok:
            raise OSError(f"{name.decode()} moved concurrently")
        if push is not None:
            push.landed = True
        return True

    # ReceivePackHandler calls repo.refs.set_if_equals directly: no hook but the instance.
    repo.refs.set_if_equals = strict  # type: ignore[method-assign]


@contextlib.contextmanager
def _one_push_at_a_time(repo_path: Path) -> Iterator[None]:
    """Pushes to one repository take turns (across processes): what appears in its object
    store while one runs is that push's."""
    fd = os.open(repo_path / PUSH_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)        # releases the lock


class _PushRecord:
    """What one receive-pack adds to an object store, so what does not land can go."""

    def __init__(self, repo_path: Path) -> None:
        self.objects = repo_path / "objects"
        self.temporary_before = self._temporary()
        self.packs: list[tuple[Path, float]] = []   # (basename, mtime when written)
        self.landed = False         # a ref moved to what the push sent
        self.deliverable = False    # valid commits refused only as a non-fast-forward

    def _temporary(self) -> set[Path]:
        return set(self.objects.glob("tmp_pack_*"))

    def received(self, basename: str) -> None:
        try:
            mtime = os.stat(f"{basename}.pack").st_mtime
        except OSError:
            return
        self.packs.append((Path(basename), mtime))

    def clean(self) -> None:
        """Remove an abandoned push's temporary pack, and the pack of a push refused for
        what it holds, unless something reused its objects meanwhile (its mtime moved)."""
        for leftover in self._temporary() - self.temporary_before:
            leftover.unlink(missing_ok=True)
        if self.landed or self.deliverable:
            return
        for basename, mtime in self.packs:
            try:
                if os.stat(f"{basename}.pack").st_mtime != mtime:
                    continue
            except OSError:
                continue
            for part in basename.parent.glob(basename.name + ".*"):
                part.unlink(missing_ok=True)


class _RequestBackend(Backend):
    """Serves exactly one already-resolved repository and remembers what it opened."""

    def __init__(self, name: str, repo_path: Path, validate_push: ValidatePush | None,
                 push: _PushRecord | None = None) -> None:
        self.name = name
        self.repo_path = repo_path
        self.validate_push = validate_push
        self.push = push
        self.opened: list[Repo] = []

    def open_repository(self, path: str | bytes) -> Repo:
        requested = os.fsdecode(path).strip("/")          # pitfall a: "/c/s.git"
        if requested.endswith(".git"):
            requested = requested[:-4]
        if requested != self.name:
            raise NotGitRepository("repository not found")
        try:
            repo = Repo(os.fspath(self.repo_path))
        except (NotGitRepository, OSError):
            raise NotGitRepository("repository not found") from None
        self.opened.append(repo)
        # Only our policy runs: never the shell hooks a repo directory might carry.
        repo.hooks = {"update": PushPolicy(repo, self.repo_path, self.validate_push,
                                           self.push)}
        _strict_cas(repo, self.push)
        _graph_reachability(repo)
        if self.push is not None:
            _record_packs(repo, self.push)
        return repo

    def close(self) -> None:
        for repo in self.opened:
            try:
                repo.close()
            except Exception:  # closing must not mask the response
                log.exception("closing repo failed")
        self.opened.clear()


def _plain(start_response: Callable[..., Any], status: str, body: str,
           headers: Iterable[tuple[str, str]] = (), exc_info: Any = None) -> list[bytes]:
    data = body.encode()
    start_response(status, [("Content-Type", "text/plain; charset=utf-8"),
                            ("Content-Length", str(len(data))), *headers], exc_info)
    return [data]


def _malformed(e: Exception) -> str:
    """The one-line reason a request the client sent cannot be read as git's protocol."""
    if isinstance(e, HangupException):
        return "malformed git request: the request body ended early\n"
    if isinstance(e, GitProtocolError):
        return _one_line(f"malformed git request: {e}") + "\n"
    return "malformed git request\n"


class _Responding:
    """Wraps ``start_response`` to know whether any body byte has gone to the client yet.

    dulwich writes through the WSGI ``write`` callable, so the status can still be
    replaced by a 400 (WSGI's ``exc_info``) until the first byte is written.
    """

    def __init__(self, start_response: Callable[..., Any]) -> None:
        self.start_response = start_response
        self.sent = False

    def __call__(self, status: str, headers: list[tuple[str, str]],
                 exc_info: Any = None) -> Callable[[bytes], Any]:
        write = self.start_response(status, headers, exc_info)

        def tracked(data: bytes) -> Any:
            self.sent = self.sent or bool(data)
            return write(data)

        return tracked


def make_git_app(resolve: Resolve, authorize: Authorize,
                 validate_push: ValidatePush | None = None, *,
                 max_push_bytes: int = MAX_PUSH_BYTES,
                 realm: str = "elements") -> Callable[..., Iterable[bytes]]:
    """Build the WSGI app serving element repos over git smart HTTP.

    :param resolve: ``"<circle>/<slug>"`` -> the bare repo's path, or ``None`` (404). Called
        only with names whose segments match ``[A-Za-z0-9][A-Za-z0-9_-]*``.
    :param authorize: ``(environ, is_push) -> Verdict`` (``True``/``False`` stand for
        ALLOW/UNAUTHENTICATED): ALLOW serves, UNAUTHENTICATED answers 401 with
        ``WWW-Authenticate: Basic`` so git asks for credentials, FORBIDDEN answers 403,
        NOT_FOUND answers the same 404 as an unknown repository. Called before ``resolve``,
        so unauthenticated callers cannot probe which repos exist; only ``authorize``
        knows which circles the caller may read, so only it may say NOT_FOUND. The element
        name is in ``environ["triform.element_path"]``.
    :param validate_push: ``(repo_path, ref, new_commit_hex) -> [reasons]``, called for an
        otherwise acceptable push to draft; any reason refuses the ref.
    :param max_push_bytes: largest pack accepted by one push.
    """

    class _ReceivePack(ReceivePackHandler):
        def _receive_max_input_size(self) -> int | None:
            return max_push_bytes

    handlers: dict[bytes, Callable[..., Any]] = {b"git-upload-pack": UploadPackHandler,
                                                 b"git-receive-pack": _ReceivePack}

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterator[bytes]:
        if environ.get("wsgi.input_terminated"):
            # pitfall b: the server already de-chunked the body; dulwich must not again
            environ.pop("HTTP_TRANSFER_ENCODING", None)
        method = environ.get("REQUEST_METHOD", "GET")
        m = _PATH.fullmatch(environ.get("PATH_INFO", ""))
        name = m["name"] if m else ""
        if not m or not all(_SEGMENT.fullmatch(s) for s in name.split("/")):
            yield from _plain(start_response, "404 Not Found", "repository not found\n")
            return
        service = m["service"]
        if service == "/info/refs":
            wanted = parse_qs(environ.get("QUERY_STRING", "")).get("service", [""])[0]
            if method != "GET" or wanted not in ("git-upload-pack", "git-receive-pack"):
                yield from _plain(start_response, "403 Forbidden",
                                  "only the git smart HTTP protocol is served\n")
                return
            is_push = wanted == "git-receive-pack"
        else:
            if method != "POST":
                yield from _plain(start_response, "405 Method Not Allowed", "use POST\n",
                                  [("Allow", "POST")])
                return
            is_push = service == "/git-receive-pack"
        environ["triform.element_path"] = name
        verdict = _verdict(authorize(environ, is_push))
        if verdict is Verdict.FORBIDDEN:
            yield from _plain(start_response, "403 Forbidden", "permission denied\n")
            return
        if verdict is Verdict.NOT_FOUND:
            yield from _plain(start_response, "404 Not Found", "repository not found\n")
            return
        if verdict is not Verdict.ALLOW:
            yield from _plain(start_response, "401 Unauthorized", "authentication required\n",
                              [("WWW-Authenticate", f'Basic realm="{realm}"')])
            return
        repo_path = resolve(name)
        if repo_path is None:
            yield from _plain(start_response, "404 Not Found", "repository not found\n")
            return
        with contextlib.ExitStack() as turn:
            push = None
            if service == "/git-receive-pack":
                turn.enter_context(_one_push_at_a_time(Path(repo_path)))
                push = _PushRecord(Path(repo_path))
            yield from _serve(environ, start_response, name, Path(repo_path), push)

    def _serve(environ: dict[str, Any], start_response: Callable[..., Any], name: str,
               repo_path: Path, push: _PushRecord | None) -> Iterator[bytes]:
        backend = _RequestBackend(name, repo_path, validate_push, push)
        git = LimitedInputFilter(GunzipFilter(HTTPGitApplication(backend, handlers=handlers)),
                                 max_request_size=max_push_bytes + 1024 * 1024)
        responding = _Responding(start_response)
        result = git(environ, responding)
        try:
            try:
                for chunk in result:
                    responding.sent = responding.sent or bool(chunk)
                    yield chunk
            except _CLIENT_MISTAKES as e:
                # dulwich raises these while parsing what the client sent (ref update lines,
                # pkt-line lengths, wants, capabilities); before any output that is a 400
                # with the reason, not a 500. Once bytes are out the status is gone.
                if responding.sent:
                    raise
                log.info("malformed git request for %s: %s", name, e)
                yield from _plain(start_response, "400 Bad Request", _malformed(e),
                                  exc_info=sys.exc_info())
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
            backend.close()                               # pitfall d
            if push is not None:
                push.clean()

    return app
