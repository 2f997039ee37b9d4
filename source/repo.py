"""Element repositories: create, open, commit without a work tree, read, history.

Every element is a bare git repository whose ``HEAD`` points at ``draft``; the branches
``draft``, ``demo`` and ``live`` always exist (``repair`` recreates a lost one). Writes never
use a work tree: a commit is built from an in-memory index and the branch ref is moved by
compare-and-swap (libgit2 ``Reference.set_target`` checks the old value under the ref
lock), retried a bounded number of times. A concurrent writer (another thread, another
process, a ``git push``) therefore never loses a commit: either our CAS wins against the
tip our commit is based on, or we rebuild on the new tip.

A ``pygit2.Repository`` is opened per call with ``NO_SEARCH`` (libgit2 would otherwise
walk up to a parent repository) and freed at the end; never share one across threads.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pygit2
import yaml
from pygit2.enums import FileMode, RepositoryOpenFlag, SortMode

from .errors import (
    BranchNotFound,
    CommitNotFound,
    FileTooLarge,
    InvalidArgument,
    NotAFile,
    RefMoved,
    RepoExists,
    RepoNotFound,
    SourceError,
    SourceStorageFull,
    SpecInvalid,
    is_disk_full,
)
from .paths import check_relpath
from .safe_yaml import YamlRefused, load_yaml

__all__ = [
    "BRANCHES", "DEFAULT_AUTHOR", "SPEC_PATH", "MAX_FILE_BYTES", "CAS_ATTEMPTS",
    "open_repo", "lookup", "parse_author", "check_message", "resolve_rev",
    "create_repo", "commit_files", "read_file", "read_spec", "spec_blob", "list_files",
    "branch_tips", "history", "ref_log", "yaml_files",
]

BRANCHES = ("draft", "demo", "live")
DEFAULT_AUTHOR = "Triform <triform@localhost>"
SPEC_PATH = ".triform/spec.yaml"
#: Largest file ``read_file`` returns and ``validate`` accepts (10 MiB).
MAX_FILE_BYTES = 10 * 1024 * 1024
#: Attempts of the compare-and-swap loop before ``RefMoved`` is raised.
CAS_ATTEMPTS = 50

_HEX = re.compile(r"[0-9a-fA-F]{4,40}")
_AUTHOR = re.compile(r"\s*([^<>\n]+?)\s*<([^<>\s]*)>\s*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


@contextmanager
def open_repo(path: Path | str) -> Iterator[pygit2.Repository]:
    """Open the repository at exactly ``path`` (no upward search) and free it afterwards.

    :raise RepoNotFound: ``path`` is not a git repository.
    """
    try:
        repo = pygit2.Repository(os.fspath(path), RepositoryOpenFlag.NO_SEARCH)
    except (pygit2.GitError, KeyError, OSError, ValueError):
        raise RepoNotFound(path) from None
    try:
        yield repo
    finally:
        repo.free()


def _utf8(field: str, text: str) -> None:
    """git stores UTF-8: a lone surrogate cannot be encoded, so it must never reach libgit2
    (which would fail after blobs were written, or a caller's other store had moved on)."""
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidArgument(field, "is not valid UTF-8 (lone surrogate)") from None


def check_message(message: object) -> str:
    """Return ``message`` if git can store it as a commit (or reflog) message, else raise.

    :raise InvalidArgument: not a string, a NUL byte (libgit2 would cut the message
        there), or a lone surrogate.
    """
    if not isinstance(message, str):
        raise InvalidArgument("message", "must be a string")
    if "\x00" in message:
        raise InvalidArgument("message", "contains a NUL byte")
    _utf8("message", message)
    return message


def parse_author(author: object) -> pygit2.Signature:
    """Turn ``"Name <email>"`` into a signature stamped now.

    :raise InvalidArgument: the string is not of that form, or holds a control character
        (NUL included: libgit2 would cut the name there) or a lone surrogate.
    """
    m = _AUTHOR.fullmatch(author) if isinstance(author, str) else None
    if not m or not isinstance(author, str):
        raise InvalidArgument("author", f"expected 'Name <email>', got {author!r}")
    if _CONTROL.search(author):
        raise InvalidArgument("author", "contains a control character")
    _utf8("author", author)
    return pygit2.Signature(m.group(1), m.group(2))


def _branch_ref(repo: pygit2.Repository, branch: str) -> pygit2.Reference:
    if branch not in BRANCHES:
        raise BranchNotFound(branch)
    try:
        return repo.references[f"refs/heads/{branch}"]
    except (KeyError, pygit2.GitError):
        raise BranchNotFound(branch) from None


_Kind = TypeVar("_Kind", pygit2.Commit, pygit2.Tree, pygit2.Blob)


def lookup(repo: pygit2.Repository, oid: pygit2.Oid | str, kind: type[_Kind]) -> _Kind | None:
    """The object ``oid`` names when it exists, can be read and is a ``kind``; else None.

    Hostile or damaged repos make every lookup fallible, so callers get None, never an
    exception. (pygit2's stubs type ``repo[oid]`` as ``Object``, which ``Commit`` and
    ``Tree`` do not subclass; read through ``object`` the isinstance check narrows.)
    """
    try:
        obj: object = repo[oid]
    except (KeyError, ValueError, TypeError, pygit2.GitError):
        return None
    return obj if isinstance(obj, kind) else None


def _resolve(repo: pygit2.Repository, rev: str) -> pygit2.Commit:
    """A branch name of BRANCHES or a (possibly abbreviated) commit hex -> the commit."""
    if not isinstance(rev, str) or not rev:
        raise InvalidArgument("rev", "expected a branch name or a commit id")
    if rev in BRANCHES:
        target = _branch_ref(repo, rev).target
        commit = lookup(repo, target, pygit2.Commit)
        if commit is None:
            raise CommitNotFound(str(target))
        return commit
    if not _HEX.fullmatch(rev):
        raise BranchNotFound(rev)
    if len(rev) == 40:
        commit = lookup(repo, rev, pygit2.Commit)
    else:
        try:
            found: object = repo.revparse_single(rev)
        except (KeyError, ValueError, pygit2.GitError):
            found = None
        commit = found if isinstance(found, pygit2.Commit) else None
    if commit is None:
        raise CommitNotFound(rev)
    return commit


def resolve_rev(path: Path | str, rev: str) -> str:
    """Return the full commit hex that ``rev`` (draft/demo/live or a commit id) names.

    :raise BranchNotFound: ``rev`` is neither a branch of BRANCHES nor hex.
    :raise CommitNotFound: no such commit.
    """
    with open_repo(path) as repo:
        return str(_resolve(repo, rev).id)


def create_repo(path: Path | str, files: Mapping[str, bytes], *, message: str,
                author: str = DEFAULT_AUTHOR) -> str:
    """Create a bare element repository at ``path`` holding one commit with ``files``.

    ``HEAD`` -> ``draft``; ``draft``, ``demo`` and ``live`` all point at the initial commit;
    ``core.logAllRefUpdates=always`` so every branch keeps a reflog. The folder is 0700
    whatever the process umask. The repo is built in a
    temporary directory beside ``path`` and renamed into place, so a failure leaves nothing.

    :return: the initial commit's hex id.
    :raise RepoExists: ``path`` already exists.
    :raise UnsafePath: a key of ``files`` is not a safe relative path.
    :raise InvalidArgument: ``author`` or ``message`` is malformed (``parse_author``,
        ``check_message``) or a value is not bytes. Every check runs before anything is
        written.
    """
    dest = Path(path)
    if dest.exists() or dest.is_symlink():
        raise RepoExists(dest)
    sig = parse_author(author)
    check_message(message)
    for rel, data in files.items():
        check_relpath(rel)
        if not isinstance(data, (bytes, bytearray)):
            raise InvalidArgument("files", f"{rel!r}: content must be bytes")
    dest.parent.mkdir(parents=True, exist_ok=True)
    # mkdtemp makes the folder 0700 whatever the umask, and rename keeps it: element repos
    # are private, and a closed folder keeps its contents from other users.
    tmp = tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    try:
        repo = pygit2.init_repository(tmp, bare=True, initial_head="draft")
        try:
            repo.config["core.logAllRefUpdates"] = "always"
            idx = pygit2.Index()
            for rel, data in files.items():
                idx.add(pygit2.IndexEntry(rel, repo.create_blob(bytes(data)), FileMode.BLOB))
            tree = idx.write_tree(repo)
            commit = repo.create_commit(None, sig, sig, message, tree, [])
            for b in BRANCHES:
                repo.create_reference_direct(f"refs/heads/{b}", commit, False, message=message)
        finally:
            repo.free()
        try:
            os.rename(tmp, dest)
        except OSError:
            raise RepoExists(dest) from None
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, (pygit2.GitError, OSError)) and is_disk_full(exc):
            raise SourceStorageFull(f"creating {dest.name}") from None
        raise
    return str(commit)


def _apply_changes(repo: pygit2.Repository, base_tree: pygit2.Tree | None,
                   changes: Mapping[str, bytes | None]) -> pygit2.Oid:
    idx = pygit2.Index()
    if base_tree is not None:
        idx.read_tree(base_tree)
    for rel, data in changes.items():
        if data is None:
            if rel in idx:
                idx.remove(rel)
            else:
                # Deleting a directory removes everything below it; deleting an
                # absent path is a no-op, so retries and replays are idempotent.
                idx.remove_all([f"{rel}/*"])
            continue
        mode = FileMode.BLOB
        if rel in idx and idx[rel].mode == FileMode.BLOB_EXECUTABLE:
            mode = FileMode.BLOB_EXECUTABLE
        idx.add(pygit2.IndexEntry(rel, repo.create_blob(bytes(data)), mode))
    return idx.write_tree(repo)


def commit_files(path: Path | str, changes: Mapping[str, bytes | None], *, message: str,
                 branch: str = "draft", author: str = DEFAULT_AUTHOR,
                 allow_empty: bool = False) -> str:
    """Commit ``changes`` on top of ``branch`` and move it by compare-and-swap.

    A value of ``None`` deletes that path (a directory: everything below it; an absent
    path: nothing). An executable file keeps its mode when rewritten. If the branch moves
    between reading its tip and swapping it, the commit is rebuilt on the new tip and
    retried (``CAS_ATTEMPTS`` times), so no concurrent commit is lost. When the changes
    leave the tree as it is and ``allow_empty`` is false, no commit is made and the
    current tip is returned.

    :return: hex id of the new tip.
    :raise UnsafePath: a key is not a safe relative path.
    :raise InvalidArgument: ``author`` or ``message`` is malformed, or a value is neither
        bytes nor None; every argument is checked before anything is written.
    :raise BranchNotFound: ``branch`` is not draft/demo/live or is missing.
    :raise RefMoved: the branch kept moving (retryable).
    """
    sig = parse_author(author)
    check_message(message)
    for rel, data in changes.items():
        check_relpath(rel)
        if data is not None and not isinstance(data, (bytes, bytearray)):
            raise InvalidArgument("changes", f"{rel!r}: content must be bytes or None")
    for attempt in range(1, CAS_ATTEMPTS + 1):
        with open_repo(path) as repo:
            ref = _branch_ref(repo, branch)      # captures the old value for the CAS
            parent = repo[ref.target]
            try:
                tree = _apply_changes(repo, parent.tree, changes)
                if tree == parent.tree.id and not allow_empty:
                    return str(parent.id)
                commit = repo.create_commit(None, sig, sig, message, tree, [parent.id])
            except (pygit2.GitError, OSError) as exc:
                if is_disk_full(exc):       # the branch did not move: say why, not 500
                    raise SourceStorageFull(f"commit to {branch}") from None
                raise
            try:
                ref.set_target(commit, message)
                return str(commit)
            except (pygit2.GitError, OSError) as exc:
                if is_disk_full(exc):
                    raise SourceStorageFull(f"commit to {branch}") from None
                # stale old value or lock held by another writer: rebuild and retry
        time.sleep(random.uniform(0, 0.002 * attempt))
    raise RefMoved(branch, CAS_ATTEMPTS)


def _entry(commit: pygit2.Commit, relpath: str) -> Any:
    try:
        return commit.tree[relpath]
    except KeyError:
        return None


_KINDS: dict[int, str] = {FileMode.TREE: "directory", FileMode.LINK: "symlink",
                          FileMode.COMMIT: "submodule"}


def _kind(mode: int) -> str:
    return _KINDS.get(mode, "special entry")


def read_file(path: Path | str, relpath: str, *, branch: str = "draft",
              max_bytes: int = MAX_FILE_BYTES) -> bytes | None:
    """Read one file of ``branch`` (draft/demo/live, or a commit id) without a work tree.

    :return: the file's bytes, or ``None`` if no such path exists on that branch.
    :raise UnsafePath: ``relpath`` fails ``check_relpath``.
    :raise NotAFile: the path is a directory, symlink or submodule.
    :raise FileTooLarge: the blob is larger than ``max_bytes``.
    :raise BranchNotFound / CommitNotFound: bad ``branch``.
    """
    check_relpath(relpath)
    with open_repo(path) as repo:
        entry = _entry(_resolve(repo, branch), relpath)
        if entry is None:
            return None
        if entry.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
            raise NotAFile(relpath, _kind(entry.filemode))
        if entry.size > max_bytes:
            raise FileTooLarge(relpath, entry.size, max_bytes)
        return bytes(entry.data)


def read_spec(path: Path | str, *, branch: str = "draft") -> dict[str, Any] | None:
    """Parse ``.triform/spec.yaml`` of ``branch``; ``None`` if the file is absent.

    :raise SpecInvalid: the file is not YAML or its top level is not a mapping.
    """
    data = read_file(path, SPEC_PATH, branch=branch)
    if data is None:
        return None
    try:
        spec = load_yaml(data.decode("utf-8"))
    except YamlRefused as e:
        raise SpecInvalid(SPEC_PATH, str(e)) from None
    except (UnicodeDecodeError, yaml.YAMLError) as e:
        raise SpecInvalid(SPEC_PATH, f"not valid YAML: {str(e).splitlines()[0]}") from None
    if spec is None:
        return {}
    if not isinstance(spec, dict):
        raise SpecInvalid(SPEC_PATH, f"top level must be a mapping, not {type(spec).__name__}")
    return spec


def spec_blob(path: Path | str, rev: str = "draft") -> tuple[str | None, str | None]:
    """``(commit, blob)`` hex ids of ``.triform/spec.yaml`` on ``rev``, never raising.

    One ref read and one tree lookup, so a caller can poll it cheaply to notice that the
    spec changed (it compares blob ids and reads the file only then). ``rev`` is a branch
    of BRANCHES or a commit id. ``(None, None)`` when the repository, the branch or the
    commit is missing or damaged (``repair`` reports those); ``(commit, None)`` when the
    commit has no spec file.
    """
    try:
        with open_repo(path) as repo:
            commit = _resolve(repo, rev)
            entry = _entry(commit, SPEC_PATH)
            return str(commit.id), (str(entry.id) if entry is not None else None)
    except (SourceError, KeyError, ValueError, pygit2.GitError):
        return None, None


_FILE_KINDS: dict[int, str] = {FileMode.BLOB: "file", FileMode.BLOB_EXECUTABLE: "executable",
                               FileMode.LINK: "symlink"}


def list_files(path: Path | str, *, branch: str = "draft") -> list[dict[str, Any]]:
    """Every entry of the branch's tree, depth first: ``{path, size, mode, kind}``.

    ``kind`` is file, executable, symlink or submodule; size is 0 for submodules.
    """
    out: list[dict[str, Any]] = []
    with open_repo(path) as repo:
        def walk(tree: pygit2.Tree, prefix: str) -> None:
            for e in tree:
                p = f"{prefix}{e.name}"
                if e.filemode == FileMode.TREE:
                    sub = lookup(repo, e.id, pygit2.Tree)
                    if sub is not None:
                        walk(sub, p + "/")
                    continue
                kind = _FILE_KINDS.get(e.filemode, "submodule")
                size = e.size if isinstance(e, pygit2.Blob) else 0
                out.append({"path": p, "size": size, "mode": oct(e.filemode), "kind": kind})
        walk(_resolve(repo, branch).tree, "")
    return out


def branch_tips(path: Path | str) -> dict[str, str | None]:
    """``{draft|demo|live: commit hex or None}``; ``None`` marks a missing branch."""
    with open_repo(path) as repo:
        tips: dict[str, str | None] = {}
        for b in BRANCHES:
            try:
                tips[b] = str(repo.references[f"refs/heads/{b}"].target)
            except (KeyError, pygit2.GitError):
                tips[b] = None
        return tips


def _commit_info(c: pygit2.Commit) -> dict[str, Any]:
    return {"commit": str(c.id), "message": c.message,
            "author": f"{c.author.name} <{c.author.email}>", "time": c.commit_time,
            "parents": [str(p) for p in c.parent_ids]}


def history(path: Path | str, *, branch: str = "draft", limit: int = 100) -> list[dict[str, Any]]:
    """Commits reachable from ``branch`` (or a commit id), newest first, at most ``limit``.

    Each item: ``{commit, message, author, time, parents}``.
    """
    with open_repo(path) as repo:
        tip = _resolve(repo, branch)
        out: list[dict[str, Any]] = []
        for c in repo.walk(tip.id, SortMode.TOPOLOGICAL | SortMode.TIME):
            if len(out) >= limit:
                break
            out.append(_commit_info(c))
        return out


def ref_log(path: Path | str, branch: str = "draft", *, limit: int = 100) -> list[dict[str, Any]]:
    """The branch's reflog, newest first: ``{old, new, message, committer, time}``.

    Records every move of the ref (commits, merges, promotions, pushes) because
    repos are created with ``core.logAllRefUpdates=always``.
    """
    with open_repo(path) as repo:
        ref = _branch_ref(repo, branch)
        out: list[dict[str, Any]] = []
        for e in ref.log():
            if len(out) >= limit:
                break
            out.append({"old": str(e.oid_old), "new": str(e.oid_new), "message": e.message,
                        "committer": f"{e.committer.name} <{e.committer.email}>",
                        "time": e.committer.time})
        return out


def yaml_files(path: Path | str, rev: str, folder: str, *, most: int, what: str,
               refuse: Callable[[str, str], Exception]) -> list[tuple[str, bytes]]:
    """The ``*.yaml``/``*.yml`` files directly inside ``folder`` at ``rev``, in name order,
    with their bytes (fixture manifests, eval files); ``[]`` when there is no ``folder``.

    :raise: ``refuse(file, reason)``: ``folder`` or one of its files cannot be read, or it
        holds more than ``most`` of them (``what`` names them in the reason).
    """
    with open_repo(path) as repo:
        tree = _resolve(repo, rev).tree
        try:
            entry = tree[folder]
        except KeyError:
            return []
        found = lookup(repo, entry.id, pygit2.Tree) if entry.filemode == FileMode.TREE \
            else None
        if found is None:
            raise refuse(folder, "is not a readable directory")
        files = sorted((e for e in found if (e.name or "").endswith((".yaml", ".yml"))),
                       key=lambda e: e.name or "")
        if len(files) > most:
            raise refuse(folder, f"{len(files)} {what}, over the limit of {most}")
        out: list[tuple[str, bytes]] = []
        for e in files:
            file = f"{folder}/{e.name}"
            if e.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
                raise refuse(file, "is not a regular file")
            blob = lookup(repo, e.id, pygit2.Blob)
            if blob is None:
                raise refuse(file, "is unreadable (missing object)")
            out.append((file, blob.data))
        return out
