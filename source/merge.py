"""Three-way merge of a commit into draft: preview (``diff3``) and ``merge``.

``diff3`` never moves a ref (it may write a loose blob or tree object for the preview,
which ``repair`` can prune). ``merge`` writes the merge commit (or fast-forwards) and moves
``draft`` by compare-and-swap; if draft moved meanwhile the merge is recomputed against
the new tip, so a concurrent push or commit is never lost. Conflicts write nothing to refs
and raise ``MergeConflict`` carrying the conflict set.

Histories without a common ancestor are refused (git's "unrelated histories").
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pygit2

from .errors import CommitNotFound, MergeConflict, RefMoved, UnrelatedHistories, ValidationFailed
from .repo import (
    CAS_ATTEMPTS,
    DEFAULT_AUTHOR,
    _branch_ref,
    _resolve,
    check_message,
    lookup,
    open_repo,
    parse_author,
)
from .validate import validate_commits

__all__ = ["diff3", "merge", "MAX_CONFLICT_TEXT"]

#: Largest side of a conflict returned as text; larger or binary sides are ``None``.
MAX_CONFLICT_TEXT = 1024 * 1024


def _text(repo: pygit2.Repository, entry: pygit2.IndexEntry | None) -> tuple[str | None, bool]:
    """(content, is_text) of one side of a conflict; absent sides are (None, True)."""
    if entry is None:
        return None, True
    blob = lookup(repo, entry.id, pygit2.Blob)
    if blob is None or blob.size > MAX_CONFLICT_TEXT or blob.is_binary:
        return None, False
    try:
        return blob.data.decode("utf-8"), True
    except UnicodeDecodeError:
        return None, False


def _conflicts(repo: pygit2.Repository, idx: pygit2.Index) -> list[dict[str, Any]]:
    out = []
    for anc, ours, theirs in (idx.conflicts or []):
        path = (ours or theirs or anc).path
        base_t, b_ok = _text(repo, anc)
        ours_t, o_ok = _text(repo, ours)
        theirs_t, t_ok = _text(repo, theirs)
        text = b_ok and o_ok and t_ok
        merged = None
        if text:
            try:
                merged = repo.merge_file_from_index(anc, ours, theirs).contents
            except (pygit2.GitError, ValueError):
                merged = None
        kind = ("add/add" if anc is None else "delete/modify" if ours is None
                else "modify/delete" if theirs is None else "content")
        out.append({"path": path, "kind": kind, "text": text, "base": base_t,
                    "ours": ours_t, "theirs": theirs_t, "merged": merged})
    return sorted(out, key=lambda c: c["path"])


def _preview(repo: pygit2.Repository, ours: pygit2.Commit,
             theirs: pygit2.Commit) -> tuple[dict[str, Any], pygit2.Index | None]:
    res: dict[str, Any] = {"ours": str(ours.id), "theirs": str(theirs.id), "base": None,
                           "clean": True, "fast_forward": False, "up_to_date": False,
                           "conflicts": [], "changes": []}
    base = repo.merge_base(ours.id, theirs.id)
    if base is None:
        raise UnrelatedHistories(str(ours.id), str(theirs.id))
    res["base"] = str(base)
    if base == theirs.id:
        res["up_to_date"] = True
        return res, None
    if base == ours.id:
        res["fast_forward"] = True
        res["changes"] = _changes(ours.tree, theirs.tree)
        return res, None
    idx = repo.merge_commits(ours.id, theirs.id)
    if idx.conflicts is not None:
        res["conflicts"] = _conflicts(repo, idx)
        res["clean"] = not res["conflicts"]
    if res["clean"]:
        tree = lookup(repo, idx.write_tree(repo), pygit2.Tree)
        if tree is not None:
            res["changes"] = _changes(ours.tree, tree)
    return res, idx


def _changes(a: pygit2.Tree, b: pygit2.Tree) -> list[dict[str, str]]:
    """What the merge result changes relative to ours: ``[{path, status}]``."""
    diff = a.diff_to_tree(b)
    return [{"path": d.new_file.path if d.status_char() != "D" else d.old_file.path,
             "status": {"A": "added", "D": "deleted"}.get(d.status_char(), "modified")}
            for d in diff.deltas]


def diff3(path: Path | str, theirs: str, ours: str | None = None) -> dict[str, Any]:
    """Preview merging ``theirs`` into ``ours`` (default: the draft tip) without moving refs.

    :param theirs: a commit id or a branch name (draft/demo/live).
    :return: ``{ours, theirs, base, clean, fast_forward, up_to_date, conflicts, changes}``;
        each conflict is ``{path, kind, text, base, ours, theirs, merged}`` where ``merged``
        is the file with ``<<<<<<<``/``=======``/``>>>>>>>`` markers (``None`` and
        ``text: false`` for binary or oversized files); ``changes`` lists what a clean
        merge changes relative to ours.
    :raise CommitNotFound / BranchNotFound: unknown revision.
    :raise UnrelatedHistories: no common ancestor.
    """
    with open_repo(path) as repo:
        res, _ = _preview(repo, _resolve(repo, ours or "draft"), _resolve(repo, theirs))
        return res


def merge(path: Path | str, theirs: str, *, message: str | None = None,
          author: str = DEFAULT_AUTHOR, validate: bool = True) -> dict[str, Any]:
    """Merge ``theirs`` into draft: fast-forward, merge commit, or nothing if up to date.

    Commits new to draft are validated first (``validate_commits``), so objects that a
    refused push left behind can never enter draft through a merge.

    :return: ``{merged, commit, previous, fast_forward, up_to_date, changes}``.
    :raise MergeConflict: conflicting files (``.conflicts`` as in ``diff3``); refs untouched.
    :raise ValidationFailed: the merged-in commits carry refused content.
    :raise RefMoved: draft kept moving under the compare-and-swap (retryable).
    :raise InvalidArgument: ``author`` or ``message`` is malformed (nothing written).
    """
    sig = parse_author(author)
    if message is not None:
        check_message(message)
    for attempt in range(1, CAS_ATTEMPTS + 1):
        with open_repo(path) as repo:
            ref = _branch_ref(repo, "draft")     # captures the old value for the CAS
            ours = lookup(repo, ref.target, pygit2.Commit)
            if ours is None:
                raise CommitNotFound(str(ref.target))
            their = _resolve(repo, theirs)
            res, idx = _preview(repo, ours, their)
            out = {"merged": True, "commit": str(ours.id), "previous": str(ours.id),
                   "fast_forward": res["fast_forward"], "up_to_date": res["up_to_date"],
                   "changes": res["changes"]}
            if res["up_to_date"]:
                return out
            if not res["clean"]:
                raise MergeConflict(str(ours.id), str(their.id), res["conflicts"])
            if validate:
                findings = validate_commits(path, str(their.id), str(ours.id))
                if findings:
                    raise ValidationFailed(str(their.id), findings)
            if res["fast_forward"]:
                new = their.id
            else:
                assert idx is not None
                msg = message or f"Merge {str(their.id)[:12]} into draft"
                new = repo.create_commit(None, sig, sig, msg, idx.write_tree(repo),
                                         [ours.id, their.id])
            try:
                ref.set_target(new, message or f"merge {str(their.id)[:12]}")
                out["commit"] = str(new)
                return out
            except (pygit2.GitError, OSError):
                pass  # draft moved (push, commit, merge): recompute against the new tip
        time.sleep(random.uniform(0, 0.002 * attempt))
    raise RefMoved("draft", CAS_ATTEMPTS)
