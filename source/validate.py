"""The branch validator: what may not live in an element's git history.

A finding is a plain dict ``{"path", "kind", "reason"}`` (plus ``"commit"`` when several
commits were checked). Kinds:

``runtime_data``      memory runtime files: ``memories.jsonl``, ``*.hnsw``, ``sidecar.json``,
                      ``catalog.db``, ``*.db``/``*.sqlite``/``*.sqlite3`` (and their
                      ``-wal``/``-shm``/``-journal``), a top-level ``runtime/`` directory
``generated_output``  ``__pycache__/``, ``*.pyc``/``*.pyo``, ``build/``, ``dist/``,
                      ``node_modules/``, ``.pytest_cache/``, ``.mypy_cache/``, ``.venv/``
                      (directories at any depth)
``secret``            secret files by name (``.env``, ``id_rsa``..., ``*.p12``, ``.netrc``)
                      and secret material by content (see ``SECRET_PATTERNS``, our own
                      ``tfm_`` tokens included), in files and in commit messages (path
                      ``COMMIT_MESSAGE``)
``unreadable``        a tree, blob or commit that is missing or cannot be parsed
``unsafe_path``       an entry name that is empty, ``.``, ``..``, holds ``/``, ``\\`` or NUL,
                      or is ``.git`` or any HFS+/NTFS look-alike (``paths.check_name``)
``symlink``           a symlink the one symlink rule refuses (``paths.symlink_problem``:
                      absolute, leaving the tree, into ``.git``, a git special file...)
``submodule``         a gitlink entry (submodules are not supported in elements)
``too_large``         a blob over ``max_file_bytes`` (default 10 MiB), or a tree with more
                      than ``MAX_ENTRIES`` entries in total
``eval``              an eval file (``.triform/evals/*.yaml``) that is not well formed: the
                      reason starts with its line (``evals.eval_problems``)
``fsck``              what git's own fsck refuses in the new objects (``fsck.py``): a
                      hostile ``.gitmodules`` (an option as url, a climbing name, not a
                      regular file), ``.git`` entries, malformed objects

Name rules and content rules are pure functions (``classify_path``, ``scan_secrets``) so they
can be tested without git; the tree walk caches subtrees and blobs it has already seen, so
validating every commit of a push costs about as much as validating its new objects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pygit2
from pygit2.enums import FileMode, SortMode

from .errors import BranchNotFound, CommitNotFound
from .evals import eval_problems, is_eval_file
from .fsck import fsck_findings
from .paths import MAX_SYMLINK_TARGET, check_name, symlink_problem
from .repo import _HEX, BRANCHES, MAX_FILE_BYTES, lookup, open_repo

__all__ = ["Finding", "COMMIT_MESSAGE", "MAX_ENTRIES", "MAX_COMMITS", "SECRET_PATTERNS",
           "classify_path",
           "scan_secrets", "validate", "validate_commits"]

Finding = dict[str, str]

#: The ``path`` of a finding about a commit's message rather than a file of its tree.
COMMIT_MESSAGE = "<commit message>"

#: Most tree entries (all paths of one commit) the validator walks before giving up.
MAX_ENTRIES = 200_000
#: Most commits ``validate_commits`` checks in one call.
MAX_COMMITS = 20_000

_RUNTIME_NAMES = {"memories.jsonl", "sidecar.json", "catalog.db"}
_RUNTIME_SUFFIXES = (".hnsw", ".db", ".sqlite", ".sqlite3", ".db-wal", ".db-shm",
                     ".db-journal", ".sqlite-wal", ".sqlite-shm")
_GENERATED_DIRS = {"__pycache__", "build", "dist", "node_modules", ".pytest_cache",
                   ".mypy_cache", ".venv"}
_GENERATED_SUFFIXES = (".pyc", ".pyo")
_SECRET_NAMES = {"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".netrc", ".pgpass",
                 ".git-credentials"}
_SECRET_SUFFIXES = (".p12", ".pfx", ".jks", ".keystore")
_ENV_TEMPLATES = {".env.example", ".env.sample", ".env.template", ".env.dist"}


def _mixed(token: str) -> bool:
    """Random keys mix upper, lower and digits; prose and identifiers rarely do."""
    return (any(c.isdigit() for c in token) and any(c.isupper() for c in token)
            and any(c.islower() for c in token))


#: (regex over bytes, description, extra predicate on the match or None).
SECRET_PATTERNS: list[tuple[re.Pattern[bytes], str, Any]] = [
    (re.compile(rb"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
     "PEM private key", None),
    (re.compile(rb"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Z0-9])"),
     "AWS access key id", lambda t: b"EXAMPLE" not in t),
    (re.compile(rb"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])"),
     "GitHub token", None),
    (re.compile(rb"(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{50,255}"),
     "GitHub fine-grained token", None),
    (re.compile(rb"(?<![A-Za-z0-9_])glpat-[A-Za-z0-9_-]{20,}"), "GitLab token", None),
    (re.compile(rb"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}"), "Slack token", None),
    (re.compile(rb"https://hooks\.slack\.com/services/T[A-Z0-9]+/B[A-Z0-9]+/[A-Za-z0-9]{16,}"),
     "Slack webhook URL", None),
    (re.compile(rb"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{32,}"),
     "API secret key (sk-...)", lambda t: _mixed(t[3:].decode())),
    (re.compile(rb"(?<![A-Za-z0-9_])[sr]k_live_[A-Za-z0-9]{20,}"), "Stripe live key", None),
    (re.compile(rb"(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])"),
     "Google API key", None),
    (re.compile(rb"(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{34,}"), "Hugging Face token",
     lambda t: _mixed(t[3:].decode())),
    (re.compile(rb"(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])"), "npm token",
     lambda t: _mixed(t[4:].decode())),
    # Our own API tokens: "tfm_" + secrets.token_urlsafe(32). No "looks random" predicate:
    # any 43 url-safe characters can be a real token, and one is worth a rare false alarm.
    (re.compile(rb"(?<![A-Za-z0-9_-])tfm_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])"),
     "Triform API token", None),
]


def scan_secrets(data: bytes) -> list[str]:
    """Descriptions of the secret material found in ``data`` (each kind once, in order)."""
    found: list[str] = []
    for rx, what, keep in SECRET_PATTERNS:
        if what in found:
            continue
        for m in rx.finditer(data):
            if keep is None or keep(m.group(0)):
                found.append(what)
                break
    return found


def classify_path(path: str, *, is_dir: bool = False) -> list[tuple[str, str]]:
    """Name rules for one path of a tree: ``[(kind, reason)]``, empty when fine.

    ``is_dir`` marks a directory entry, which the directory rules (``runtime/``, ``dist/``...)
    match; files below a flagged directory are not reported again.
    """
    segs = path.split("/")
    name = segs[-1]
    low = name.lower()
    out: list[tuple[str, str]] = []
    if is_dir:
        if len(segs) == 1 and name == "runtime":
            out.append(("runtime_data", "runtime/ holds memory runtime data"))
        elif name in _GENERATED_DIRS:
            out.append(("generated_output", f"{name}/ is generated output"))
        return out
    if low in _RUNTIME_NAMES or low.endswith(_RUNTIME_SUFFIXES):
        out.append(("runtime_data", f"{name} is memory runtime data"))
    if low.endswith(_GENERATED_SUFFIXES):
        out.append(("generated_output", f"{name} is compiled output"))
    if ((low == ".env" or (low.startswith(".env.") and low not in _ENV_TEMPLATES))
            or low in _SECRET_NAMES or low.endswith(_SECRET_SUFFIXES)
            or path.lower().endswith(".aws/credentials")):
        out.append(("secret", f"{name} is a secret file"))
    return out


class _Walker:
    """Walks trees of one open repo, caching what it has seen across commits."""

    def __init__(self, repo: pygit2.Repository, max_file_bytes: int) -> None:
        self.repo = repo
        self.max_file_bytes = max_file_bytes
        self.seen_trees: dict[tuple[str, str], list[Finding]] = {}
        self.blob_findings: dict[str, list[tuple[str, str]]] = {}
        self.eval_findings: dict[str, list[tuple[str, str]]] = {}
        self.entries = 0

    def _blob(self, oid: pygit2.Oid) -> pygit2.Blob | None:
        return lookup(self.repo, oid, pygit2.Blob)

    def _content(self, path: str, oid: pygit2.Oid) -> list[tuple[str, str]]:
        key = str(oid)
        if key not in self.blob_findings:
            res: list[tuple[str, str]] = []
            blob = self._blob(oid)
            if blob is None:
                res.append(("unreadable", f"blob {key} is missing or unreadable"))
            elif blob.size > self.max_file_bytes:
                res.append(("too_large", f"{blob.size} bytes, over the "
                            f"{self.max_file_bytes}-byte file limit"))
            else:
                res += [("secret", f"contains a {what}") for what in scan_secrets(blob.data)]
            self.blob_findings[key] = res
        return self.blob_findings[key]

    def _eval(self, path: str, oid: pygit2.Oid) -> list[tuple[str, str]]:
        """An eval file's problems, each its own finding with its line (the content's
        other rules have run already; a blob too large or missing is reported there)."""
        key = str(oid)
        if key not in self.eval_findings:
            blob = self._blob(oid)
            self.eval_findings[key] = [] if blob is None or blob.size > self.max_file_bytes \
                else [("eval", problem) for problem in eval_problems(path, blob.data)]
        return self.eval_findings[key]

    def _symlink(self, path: str, oid: pygit2.Oid) -> list[tuple[str, str]]:
        blob = self._blob(oid)
        if blob is None:
            return [("unreadable", f"blob {oid} is missing or unreadable")]
        if blob.size > MAX_SYMLINK_TARGET:                # never read a huge "target"
            return [("symlink", f"symlink target longer than {MAX_SYMLINK_TARGET} bytes")]
        problem = symlink_problem(path, blob.data)
        return [("symlink", problem)] if problem else []

    def tree(self, oid: pygit2.Oid, prefix: str) -> list[Finding]:
        key = (str(oid), prefix)
        if key in self.seen_trees:
            return self.seen_trees[key]
        findings: list[Finding] = []
        try:
            tree = self.repo[oid]
            if not isinstance(tree, pygit2.Tree):
                raise KeyError(oid)
            entries = list(tree)
        except (KeyError, ValueError, pygit2.GitError):
            label = prefix.rstrip("/") or "/"
            findings.append({"path": label, "kind": "unreadable",
                             "reason": f"tree {oid} is missing or unreadable"})
            self.seen_trees[key] = findings
            return findings
        for e in entries:
            self.entries += 1
            if self.entries > MAX_ENTRIES:
                findings.append({"path": prefix.rstrip("/") or "/", "kind": "too_large",
                                 "reason": f"more than {MAX_ENTRIES} tree entries"})
                break
            name = e.name or ""                      # always set on tree entries
            path = prefix + name
            bad = check_name(name)
            if bad:
                findings.append({"path": path, "kind": "unsafe_path", "reason": bad})
                continue
            mode = e.filemode
            if mode == FileMode.TREE:
                rules = classify_path(path, is_dir=True)
                if rules:
                    findings += [{"path": path + "/", "kind": k, "reason": r} for k, r in rules]
                    # still scanned: a secret inside dist/ is a secret too
                    findings += [f for f in self.tree(e.id, path + "/") if f["kind"] not in
                                 ("runtime_data", "generated_output")]
                else:
                    findings += self.tree(e.id, path + "/")
                continue
            rules = classify_path(path)
            if mode == FileMode.LINK:
                rules += self._symlink(path, e.id)
            elif mode == FileMode.COMMIT:
                rules.append(("submodule", "submodules are not supported in elements"))
            elif mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
                rules += self._content(path, e.id)
                if is_eval_file(path):
                    rules += self._eval(path, e.id)
            else:
                rules.append(("unsafe_path", f"unknown file mode {oct(mode)}"))
            findings += [{"path": path, "kind": k, "reason": r} for k, r in rules]
        self.seen_trees[key] = findings
        return findings


def _message(commit: pygit2.Commit, max_bytes: int) -> list[Finding]:
    """Secrets in a commit message are refused like secrets in a file: a clone shows both."""
    raw = commit.raw_message
    if len(raw) > max_bytes:
        return [{"path": COMMIT_MESSAGE, "kind": "too_large",
                 "reason": f"{len(raw)} bytes, over the {max_bytes}-byte limit"}]
    return [{"path": COMMIT_MESSAGE, "kind": "secret", "reason": f"contains a {what}"}
            for what in scan_secrets(raw)]


def _sorted(findings: Iterable[Finding]) -> list[Finding]:
    uniq = {tuple(sorted(f.items())): f for f in findings}
    return sorted(uniq.values(), key=lambda f: (f.get("commit", ""), f["path"], f["kind"],
                                                f["reason"]))


def _target(repo: pygit2.Repository, rev: str) -> tuple[pygit2.Oid | None, list[Finding]]:
    """The object id ``rev`` names, or findings saying why it cannot be read."""
    if rev in BRANCHES:
        try:
            target = repo.references[f"refs/heads/{rev}"].target
        except (KeyError, pygit2.GitError):
            raise BranchNotFound(rev) from None
        if not isinstance(target, pygit2.Oid):       # a symbolic ref: not one of ours
            raise BranchNotFound(rev)
        oid = target
    elif isinstance(rev, str) and _HEX.fullmatch(rev):
        try:
            oid = repo[rev].id if len(rev) == 40 else repo.revparse_single(rev).id
        except (KeyError, ValueError, pygit2.GitError):
            if len(rev) == 40:
                return None, [{"path": rev, "kind": "unreadable",
                               "reason": f"commit {rev} is missing or unreadable"}]
            raise CommitNotFound(rev) from None
    else:
        raise BranchNotFound(str(rev))
    return oid, []


def _commit(repo: pygit2.Repository, oid: pygit2.Oid) -> pygit2.Commit | None:
    return lookup(repo, oid, pygit2.Commit)


def validate(path: Path | str, rev: str = "draft", *,
             max_file_bytes: int = MAX_FILE_BYTES) -> list[Finding]:
    """Check one commit (a branch of BRANCHES, or a commit id): its tree and its message.

    :return: findings sorted by path; empty when the tree is clean.
    :raise BranchNotFound: ``rev`` is a missing branch or not a branch/hex at all.
    :raise CommitNotFound: an abbreviated id matches nothing.
    """
    with open_repo(path) as repo:
        oid, findings = _target(repo, rev)
        if oid is None:
            return findings
        commit = _commit(repo, oid)
        if commit is None:
            return [{"path": str(oid), "kind": "unreadable",
                     "reason": f"commit {oid} is missing or unreadable"}]
        return _sorted(_Walker(repo, max_file_bytes).tree(commit.tree_id, "")
                       + _message(commit, max_file_bytes))


def validate_commits(path: Path | str, new: str | Iterable[str],
                     old: str | Iterable[str] | None = None, *,
                     max_file_bytes: int = MAX_FILE_BYTES,
                     max_commits: int = MAX_COMMITS) -> list[Finding]:
    """Check every commit reachable from ``new`` but not from ``old`` (hex ids).

    Used for pushes (``old`` = the branch's previous tip, so a secret added and deleted
    again inside the pushed range is still refused) and for imports (``old`` = None: the
    whole history). Each finding carries ``commit``. A missing commit or parent is an
    ``unreadable`` finding, never an exception. Commits that pass these checks must also
    pass git's own fsck (``fsck.py``).
    """
    news = [new] if isinstance(new, str) else list(new)
    olds = [] if old is None else ([old] if isinstance(old, str) else list(old))
    findings: list[Finding] = []
    with open_repo(path) as repo:
        walker = _Walker(repo, max_file_bytes)
        commits = _new_commits(repo, news, olds, max_commits)
        if len(commits) > max_commits:
            commits = commits[:max_commits]
            findings.append({"path": "/", "kind": "too_large", "commit": news[0],
                             "reason": f"more than {max_commits} new commits"})
        for key, commit in commits:
            if commit is None:
                findings.append({"path": "/", "kind": "unreadable", "commit": key,
                                 "reason": f"commit {key} is missing or unreadable"})
                continue
            for f in walker.tree(commit.tree_id, "") + _message(commit, max_file_bytes):
                findings.append({**f, "commit": key})
    if commits and not findings:     # git's own checks, for what ours do not know
        findings += [{**f, "commit": news[0]} for f in fsck_findings(path, news, olds)]
    return _sorted(findings)


def _new_commits(repo: pygit2.Repository, news: list[str], olds: list[str],
                 limit: int) -> list[tuple[str, pygit2.Commit | None]]:
    """Commits reachable from ``news`` and not from ``olds``; ``None`` marks a missing one.

    libgit2's revwalk (with ``hide``) is fast but stops at the first missing object, so
    when it fails the graph is walked by hand, reporting each commit it cannot read.
    """
    try:
        walk = repo.walk(pygit2.Oid(hex=news[0]), SortMode.TOPOLOGICAL)
        for n in news[1:]:
            walk.push(pygit2.Oid(hex=n))
        for o in olds:
            walk.hide(pygit2.Oid(hex=o))
        walked: list[tuple[str, pygit2.Commit | None]] = []
        for commit in walk:
            walked.append((str(commit.id), commit))
            if len(walked) > limit:
                break
        return walked
    except (KeyError, ValueError, pygit2.GitError):
        pass
    stop: set[str] = set()
    for o in olds:
        todo = [pygit2.Oid(hex=o)]
        while todo and len(stop) <= limit * 10:
            oid = todo.pop()
            if str(oid) in stop:
                continue
            stop.add(str(oid))
            c = _commit(repo, oid)
            if c is not None:
                todo.extend(c.parent_ids)
    out: list[tuple[str, pygit2.Commit | None]] = []
    done: set[str] = set()
    todo = [pygit2.Oid(hex=n) for n in news]
    while todo and len(out) <= limit:
        oid = todo.pop()
        key = str(oid)
        if key in done or key in stop:
            continue
        done.add(key)
        c = _commit(repo, oid)
        out.append((key, c))
        if c is not None:
            todo.extend(c.parent_ids)
    return out
