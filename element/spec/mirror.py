"""The spec mirror: draft's ``.triform/spec.yaml`` in git, and the element's row in the catalog.

The spec lives in git (``.triform/spec.yaml`` on each branch) and in the catalog row; the
catalog is authoritative (``restore`` reads it) and every change of the draft spec is a
version entry ``vN``. A spec reaches draft by four paths, and all four end in the catalog:

* ``spec_update`` / ``restore`` / ``source_repair`` write both sides themselves;
* a ``git push`` to draft: ``validate_push`` (:func:`push_reasons`) refuses a spec that does
  not fit the type, with the reason shown by the git client. It cannot mirror the spec,
  because the ref moves after it by compare-and-swap and may still fail; so the mirror runs
  after the push (:func:`after_push`, called by the git mount once the response is sent)
  and, as a safety net, lazily (:func:`sync_spec`) before any op that reads the spec;
* ``source_merge`` and anything else that moves draft (another process, a restore from a
  bundle) is caught by the same lazy mirror.

Mirror state is one row per element in the catalog (``Catalog.mirror_state``): the blob
id of the draft spec last looked at. :func:`sync_spec` costs one ``stat`` call when nothing
changed (the file of the draft ref is unchanged since this process last read the spec blob:
a commit's tree never changes, so neither does its blob; opening the repository for the
ref read and tree lookup was 0.5 ms of every memory op) and one ref read and one tree
lookup when the ref files moved; when the blob differs, the file is parsed and normalized
(``normalize_spec``). If it equals the catalog's spec only the row moves; if it differs, it
becomes version ``vN``; if it is invalid (only a merge can bring one in) the catalog keeps
its spec, the row records ``invalid: <reason>`` and ``source_status`` / ``source_repair``
report it. Claiming the row is a compare-and-swap in one catalog transaction, so two
workers never record the same push twice.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index import InvalidMemory
from source import SPEC_PATH, SourceError, commit_files, read_spec, spec_blob

from ..catalog import Element
from ..errors import ElementError, InvalidRequest
from ..evals.cases import eval_reasons
from ..governance.access import Principal
from ..governance.guard import governed_change, may_govern
from .spec_file import normalize_spec, spec_of, spec_yaml

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["Synced", "sync_spec", "push_reasons", "after_push", "write_spec",
           "element_lock"]

log = logging.getLogger(__name__)

_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()


# repo path -> (stamp of its draft ref files, (commit, blob) read under that stamp)
_spec_blobs: dict[str, tuple[tuple[int, ...], tuple[str, str | None]]] = {}
_SPEC_BLOBS_MAX = 4096


def _ref_stamp(repo: str) -> tuple[int, ...]:
    """Inode, size and mtime of the file that holds draft's ref: any move of draft (a push,
    a merge, a promote, another process) replaces it. The loose ref file while there is
    one (git reads it before ``packed-refs``, and packing or deleting the ref removes it),
    else ``packed-refs``: one ``stat`` a request in the common case. The paths are strings:
    joining ``Path`` objects cost more than the ``stat`` calls (issue 29)."""
    try:
        st = os.stat(repo + "/refs/heads/draft")
        return (1, st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        pass
    try:
        st = os.stat(repo + "/packed-refs")
        return (2, st.st_ino, st.st_size, st.st_mtime_ns)
    except OSError:
        return (0,)


def _draft_spec_blob(home: Home, element: Element) -> tuple[str | None, str | None]:
    """``spec_blob`` of the element's repository, remembered while draft's ref files stay
    as they were."""
    repo = home.repo_dir(element)
    stamp = _ref_stamp(repo)
    known = _spec_blobs.get(repo)
    if known is not None and known[0] == stamp:
        return known[1]
    commit, blob = spec_blob(home.repo_path(element))
    if commit is not None and stamp == _ref_stamp(repo):
        if len(_spec_blobs) >= _SPEC_BLOBS_MAX:
            _spec_blobs.clear()
        _spec_blobs[repo] = (stamp, (commit, blob))
    return commit, blob


def element_lock(element_id: str) -> threading.RLock:
    """One lock per element for this process: spec writes read-merge-write under it."""
    with _locks_guard:
        return _locks.setdefault(element_id, threading.RLock())


@dataclass
class Synced:
    element: Element
    version: int | None = None       # the version the mirror created, if any
    warning: str | None = None       # why draft's spec was not mirrored


def sync_spec(home: Home, element: Element, *, principal: str | None = None,
              via: str = "draft", admin: bool = False) -> Synced:
    """Mirror draft's spec into the catalog if it changed since last mirrored (see module).

    Cheap when nothing changed. Never raises for a bad spec in git: it answers a warning.
    A change only an admin may make (``governance.guard``: a modifier's spec, a project's
    promotion state) is mirrored only when ``admin`` says an admin moved draft (a push or a
    merge of theirs); otherwise it is refused like an invalid spec, and the catalog keeps
    the spec that governs.
    """
    if element.state == "deleted":
        return Synced(element)
    commit, blob = _draft_spec_blob(home, element)
    # The row and its state read in one statement, before the ref: the caller's (the op
    # path reads both, ``Catalog.element_at_mirrored``), else read again now. A copy read
    # without its state may predate a mirror another request just did; one read with it
    # either predates the ref read above (a push since shows as a new blob: the slow path)
    # or holds the row that state's mirror left.
    if element.mirror is not None:
        current, state = element, (element.mirror if element.mirror["element_id"]
                                   is not None else None)
    else:
        current, state = home.catalog.element_mirrored(element.id)
    seen = state["blob"] if state else None
    if commit is None or (state is not None and seen == blob):
        bad = state["status"] if state and state["status"] != "mirrored" else None
        return Synced(current, warning=bad)
    with element_lock(element.id):
        state = home.catalog.mirror_state(element.id)
        if state is not None and state["blob"] == blob:        # mirrored while we waited
            return Synced(home.catalog.element(element.id), warning=None
                          if state["status"] == "mirrored" else state["status"])
        seen = state["blob"] if state else None
        try:
            raw = read_spec(home.repo_path(element), branch=commit)
            if raw is None:
                raise InvalidRequest("spec", f"{SPEC_PATH} is missing on draft")
            spec = normalize_spec(raw, circle=element.circle,
                                  element_type_name=element.element_type, slug=element.slug)
        except (ElementError, SourceError, InvalidMemory) as exc:
            status = f"invalid: {exc}"
            home.catalog.set_mirror(element.id, commit, blob, status, expect=seen)
            return Synced(home.catalog.element(element.id), warning=status)
        current = home.catalog.element(element.id)
        if spec == spec_of(current):
            home.catalog.set_mirror(element.id, commit, blob, expect=seen)
            return Synced(current)
        governed = None if admin else governed_change(current.element_type,
                                                      spec_of(current), spec)
        if governed:
            status = f"invalid: {governed}"
            home.catalog.set_mirror(element.id, commit, blob, status, expect=seen)
            return Synced(current, warning=status)
        version = home.catalog.mirror_version(element.id, seen, commit, blob, spec,
                                              f"{via} {commit[:12]}: {SPEC_PATH} changed")
        if version is None:
            return Synced(home.catalog.element(element.id))   # another worker mirrored it
        updated = home.catalog.element(element.id)
        home.catalog.record_activity(updated, "spec_update", principal or "git",
                                     {"via": via, "version": version, "commit": commit})
        return Synced(updated, version)


def push_reasons(home: Home, repo_path: Path, new: str,
                 principal: Principal | None = None) -> list[str]:
    """``validate_push`` for the git mount: refuse a pushed draft whose spec does not fit,
    that changes what only an admin may change (``principal`` not an admin), or whose
    eval files hold what the memory runtime refuses (``evals.eval_reasons``)."""
    try:
        element = home.catalog.element(Path(repo_path).name.removesuffix(".git"))
    except ElementError:
        return ["this repository has no catalog entry; run source_repair"]
    try:
        raw = read_spec(repo_path, branch=new)
    except SourceError as exc:
        return [exc.message]
    if raw is None:
        return [f"{SPEC_PATH} is missing: every element keeps its spec on draft"]
    try:
        spec = normalize_spec(raw, circle=element.circle,
                              element_type_name=element.element_type, slug=element.slug)
    except (ElementError, InvalidMemory) as exc:
        return [f"{SPEC_PATH}: {exc}"]
    governed = None if may_govern(principal) else governed_change(
        element.element_type, spec_of(element), spec)
    # Eval files the validator let through but a store or a search would refuse (a seed's
    # category, a case's subject): refused here, with the file and line, not at promotion.
    return ([f"{SPEC_PATH}: {governed}"] if governed else []) + eval_reasons(
        Path(repo_path), new)


def after_push(home: Home, element_path: str, principal: str | None, *,
               admin: bool = False) -> None:
    """Mirror the spec a push just landed (the lazy mirror catches what this misses)."""
    try:
        sync_spec(home, home.catalog.element_at(element_path), principal=principal,
                  via="push", admin=admin)
    except Exception:   # the push succeeded; the lazy mirror will retry
        log.exception("mirroring the spec after a push failed")


def write_spec(home: Home, element: Element, spec: dict[str, Any], message: str) -> str:
    """Commit ``spec`` to draft and mark it mirrored; returns the commit id.

    :raise SourceError: the commit failed (e.g. ``RefMoved``).
    """
    repo = home.repo_path(element)
    commit = commit_files(repo, {SPEC_PATH: spec_yaml(spec)}, message=message)
    _, blob = spec_blob(repo, commit)
    home.catalog.set_mirror(element.id, commit, blob)
    return commit
