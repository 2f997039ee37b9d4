"""Inspect and repair an element repository. Dry run by default.

Built-in checks (each item of ``found`` names its ``check``):

``mode``       the repository folder must be 0700: element repos are private, and with the
               folder closed its contents are unreadable to other users whatever their
               own modes. Fix: chmod 0700.
``head``       HEAD must be the symbolic ref ``refs/heads/draft``. Fix: point it there.
``config``     ``core.logAllRefUpdates`` must be ``always`` (reflogs of promotions). Fix: set.
``branches``   draft/demo/live must exist and point at a readable commit. Fix: restore the
               newest readable value from the branch's own reflog, else copy a neighbour
               (draft <- demo <- live; demo <- live <- draft; live <- demo <- draft).
``order``      live should be an ancestor of demo, and demo of draft. Reported only: a
               human decides which side wins.
``objects``    ``git fsck --full`` errors (missing, corrupt objects, broken links). Reported
               only: the data is gone; restore from a bundle or a clone.
``dangling``   unreachable objects (refused pushes, abandoned previews). Fix: ``git gc``
               with ``--prune=<prune_age>``; objects younger than ``prune_age`` are kept so
               a push in flight (objects stored, ref not yet moved) is never pruned.
               Reflogs are kept (``gc.reflogExpire=never``). fsck's complaints about
               objects nothing reachable refers to do not stop it (the gc removes them).

Callers add their own checks (``extra_checks``): callables ``(path, dry_run) -> [item]``,
e.g. "the spec on draft equals the catalog's" (``spec_check`` builds that one) or "the memory
sidecar covers the log". An item is ``{"check", "problem"}`` plus ``"fixed": True`` when the
check repaired it (only when ``dry_run`` is false); a check that raises becomes an item too.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pygit2
import yaml

from .errors import SourceError
from .repo import BRANCHES, DEFAULT_AUTHOR, SPEC_PATH, commit_files, lookup, open_repo, read_spec

__all__ = ["RepairCheck", "repair", "spec_check", "DEFAULT_PRUNE_AGE", "GIT_TIMEOUT"]

log = logging.getLogger(__name__)

RepairCheck = Callable[[Path, bool], list[dict[str, Any]]]
DEFAULT_PRUNE_AGE = "5.minutes.ago"
GIT_TIMEOUT = 300
_FALLBACK = {"draft": ("demo", "live"), "demo": ("live", "draft"), "live": ("demo", "draft")}
_DANGLING = re.compile(r"^dangling (commit|tree|blob|tag) ([0-9a-f]{40})$")
_ABOUT_OBJECT = re.compile(r"^(?:error|warning) in (?:commit|tree|blob|tag) ([0-9a-f]{40}):")


def _git(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git = shutil.which("git")
    if git is None:
        raise SourceError("git executable not found on PATH")
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", LC_ALL="C")
    return subprocess.run([git, "--git-dir", os.fspath(path), *args], capture_output=True,
                          text=True, env=env, timeout=GIT_TIMEOUT)


def _commit_ok(repo: pygit2.Repository, oid: pygit2.Oid | str) -> bool:
    return lookup(repo, oid, pygit2.Commit) is not None


def _branch_state(repo: pygit2.Repository, b: str) -> tuple[pygit2.Oid | None, str | None]:
    """(tip, problem) of one branch."""
    try:
        ref = repo.references[f"refs/heads/{b}"]
    except (KeyError, pygit2.GitError):
        return None, "missing"
    target = ref.target
    if not isinstance(target, pygit2.Oid):
        return None, f"is a symbolic reference to {target}"
    if not _commit_ok(repo, target):
        return target, f"points at unreadable commit {target}"
    return target, None


def _reflog_candidate(path: Path, b: str, repo: pygit2.Repository) -> str | None:
    """Newest readable commit the branch's reflog file remembers (read directly: libgit2
    cannot read the reflog of a ref that no longer exists)."""
    logf = Path(path) / "logs" / "refs" / "heads" / b
    try:
        lines = logf.read_text("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        parts = line.split(" ", 2)
        if len(parts) >= 2 and re.fullmatch(r"[0-9a-f]{40}", parts[1]):
            if parts[1] != "0" * 40 and _commit_ok(repo, parts[1]):
                return parts[1]
    return None


def _check_mode(path: Path, dry_run: bool, found: list[dict[str, Any]],
                fixed: list[dict[str, Any]]) -> None:
    mode = stat.S_IMODE(os.stat(path).st_mode)
    if mode & 0o077 == 0:
        return
    item = {"check": "mode", "problem": f"repository folder is {mode:04o}: other users "
            "can read it", "fixable": True}
    found.append(item)
    if not dry_run:
        os.chmod(path, 0o700)
        fixed.append({**item, "fix": "chmod 0700"})


def _check_refs(path: Path, dry_run: bool, found: list[dict[str, Any]],
                fixed: list[dict[str, Any]]) -> None:
    with open_repo(path) as repo:
        # HEAD
        try:
            head = repo.references["HEAD"]
            head_ok = head.type == pygit2.enums.ReferenceType.SYMBOLIC and \
                head.target == "refs/heads/draft"
        except (KeyError, pygit2.GitError):
            head_ok = False
        if not head_ok:
            item = {"check": "head", "problem": "HEAD does not point at refs/heads/draft"}
            found.append(item)
            if not dry_run:
                repo.references.create("HEAD", "refs/heads/draft", force=True)
                fixed.append({**item, "fix": "HEAD -> refs/heads/draft"})
        # config
        try:
            log_all = str(repo.config["core.logAllRefUpdates"]).lower()
        except (KeyError, pygit2.GitError):
            log_all = ""
        if log_all != "always":
            item = {"check": "config", "problem": "core.logAllRefUpdates is not 'always'"}
            found.append(item)
            if not dry_run:
                repo.config["core.logAllRefUpdates"] = "always"
                fixed.append({**item, "fix": "set core.logAllRefUpdates=always"})
        # branches
        states = {b: _branch_state(repo, b) for b in BRANCHES}
        for b in BRANCHES:
            _tip, problem = states[b]
            if problem is None:
                continue
            said = f"{b} is {problem}" if problem == "missing" else f"{b} {problem}"
            branch_item: dict[str, Any] = {"check": "branches", "branch": b, "problem": said}
            found.append(branch_item)
            source = _reflog_candidate(path, b, repo)
            how = f"restored from the reflog of {b}"
            if source is None:
                for other in _FALLBACK[b]:
                    tip, bad = states[other]
                    if tip is not None and bad is None:
                        source, how = str(tip), f"recreated from {other}"
                        break
            if source is None:
                branch_item["fixable"] = False
                continue
            branch_item["fixable"] = True
            if not dry_run:
                repo.create_reference_direct(f"refs/heads/{b}", pygit2.Oid(hex=source), True,
                                             message=f"repair: {how}")
                states[b] = (pygit2.Oid(hex=source), None)
                fixed.append({**branch_item, "fix": f"{how} ({source[:12]})",
                              "commit": source})
        # order: live <= demo <= draft
        for lower, upper in (("live", "demo"), ("demo", "draft")):
            a, pa = states[lower]
            b_, pb = states[upper]
            if a is None or b_ is None or pa or pb or a == b_:
                continue
            try:
                ok = repo.descendant_of(b_, a)
            except pygit2.GitError:
                ok = False
            if not ok:
                found.append({"check": "order", "problem": f"{lower} is not an ancestor of "
                              f"{upper}: promoting {upper} to {lower} is refused",
                              "fixable": False})


def _reachable(path: Path) -> set[str] | None:
    """Every object reachable from a ref or a reflog (what the gc keeps), or None when
    git cannot list them."""
    try:
        p = _git(path, "rev-list", "--objects", "--all", "--reflog")
    except (SourceError, subprocess.SubprocessError, OSError):
        return None
    if p.returncode != 0:
        return None
    return {line.split(" ", 1)[0] for line in p.stdout.splitlines() if line}


def _check_objects(path: Path, dry_run: bool, prune_age: str, found: list[dict[str, Any]],
                   fixed: list[dict[str, Any]]) -> None:
    try:
        p = _git(path, "fsck", "--full", "--no-progress", "--dangling")
    except (SourceError, subprocess.SubprocessError, OSError) as e:
        found.append({"check": "objects", "problem": f"git fsck could not run: {e}",
                      "fixable": False})
        return
    dangling: list[dict[str, str]] = []
    errors: list[str] = []
    about: list[tuple[str, str]] = []       # (line, object) of "error/warning in <type> <id>"
    for line in (p.stdout + "\n" + p.stderr).splitlines():
        line = line.strip()
        if not line or line.startswith(("Checking", "notice:")):
            continue
        m = _DANGLING.match(line)
        if m:
            dangling.append({"type": m[1], "id": m[2]})
        elif (object_line := _ABOUT_OBJECT.match(line)) is not None:
            about.append((line, object_line[1]))
        elif line.startswith(("missing", "broken", "error", "fatal", "bad", "warning")):
            errors.append(line)
    if about:
        # A complaint about an object nothing reachable refers to (a refused push's tree
        # with a ``.git`` entry) is the gc's to remove, not a reason never to run it.
        reachable = _reachable(path)
        errors += [line for line, oid in about if reachable is None or oid in reachable]
    for error in errors[:50]:
        found.append({"check": "objects", "problem": error, "fixable": False})
    if len(errors) > 50:
        found.append({"check": "objects", "problem": f"... and {len(errors) - 50} more",
                      "fixable": False})
    if not dangling:
        return
    item = {"check": "dangling", "problem": f"{len(dangling)} unreachable objects",
            "objects": dangling[:100], "fixable": not errors}
    found.append(item)
    if dry_run or errors:
        # never gc a repo with missing objects: git gc would fail or make it worse
        return
    gc = _git(path, "-c", "gc.reflogExpire=never", "-c", "gc.reflogExpireUnreachable=never",
              "-c", "gc.auto=0", "gc", "--quiet", f"--prune={prune_age}")
    if gc.returncode != 0:
        found.append({"check": "dangling", "problem": f"git gc failed: {gc.stderr.strip()}",
                      "fixable": False})
        return
    after = _git(path, "fsck", "--no-progress", "--dangling", "--connectivity-only")
    left = sum(1 for line in after.stdout.splitlines() if _DANGLING.match(line.strip()))
    fixed.append({**item, "fix": f"git gc --prune={prune_age}: {len(dangling) - left} "
                  f"removed, {left} kept (younger than the prune age)", "remaining": left})


def repair(path: Path | str, *, dry_run: bool = True,
           extra_checks: Iterable[RepairCheck] = (),
           prune_age: str = DEFAULT_PRUNE_AGE) -> dict[str, Any]:
    """Check an element repository and, unless ``dry_run``, fix what can be fixed.

    :param extra_checks: caller-supplied checks, run after the built-in ones.
    :param prune_age: git's ``--prune`` argument for dangling objects ("now" in tests).
    :return: ``{"dry_run", "found": [item], "fixed": [item]}``; ``found`` lists every
        problem (fixed or not), ``fixed`` only what was repaired in this call.
    :raise RepoNotFound: ``path`` is not a repository.
    """
    p = Path(path)
    with open_repo(p):
        pass
    found: list[dict[str, Any]] = []
    fixed: list[dict[str, Any]] = []
    _check_mode(p, dry_run, found, fixed)
    _check_refs(p, dry_run, found, fixed)
    _check_objects(p, dry_run, prune_age, found, fixed)
    for check in extra_checks:
        name = getattr(check, "__name__", "extra")
        try:
            items = list(check(p, dry_run))
        except Exception as e:  # one failing check must not hide the others
            log.exception("repair check %s failed", name)
            found.append({"check": name, "problem": f"check failed: {e}", "fixable": False})
            continue
        for item in items:
            item = {"check": name, **item}
            found.append(item)
            if item.get("fixed") and not dry_run:
                fixed.append(item)
    return {"dry_run": dry_run, "found": found, "fixed": fixed}


def spec_check(expected: Mapping[str, Any] | Callable[[], Mapping[str, Any]], *,
               author: str = DEFAULT_AUTHOR) -> RepairCheck:
    """A repair check: draft's ``.triform/spec.yaml`` must equal ``expected`` (the catalog).

    On fix it commits ``expected`` (YAML) to draft, since the catalog row is authoritative.
    ``expected`` may be a callable so the catalog is read at repair time.
    """

    def spec(path: Path, dry_run: bool) -> list[dict[str, Any]]:
        want = dict(expected() if callable(expected) else expected)
        try:
            have = read_spec(path, branch="draft")
            problem = None if have == want else (
                f"{SPEC_PATH} is missing on draft" if have is None
                else f"{SPEC_PATH} on draft differs from the catalog")
        except SourceError as e:
            problem = f"{SPEC_PATH} on draft is unreadable: {e.message}"
        if problem is None:
            return []
        item: dict[str, Any] = {"problem": problem, "fixable": True}
        if not dry_run:
            commit = commit_files(path, {SPEC_PATH: yaml.safe_dump(want, sort_keys=True)
                                         .encode()}, message="repair: restore spec from catalog",
                                  author=author)
            item.update(fixed=True, fix="committed the catalog's spec to draft", commit=commit)
        return [item]

    spec.__name__ = "spec"
    return spec
