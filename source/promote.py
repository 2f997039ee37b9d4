"""Promotion along draft -> demo -> live, and the branches' relationship.

A promotion fast-forwards the target branch to the source's tip: ``demo`` from ``draft``,
``live`` from ``demo``. It never merges: if the target has commits the source lacks
(it has diverged) the promotion is refused with ``Diverged``. The target ref moves by
compare-and-swap, so two racing promotions cannot move it backwards. Every move is in the
branch's reflog (``ref_log``).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pygit2

from .errors import Diverged, InvalidArgument, RefMoved, ValidationFailed
from .repo import BRANCHES, CAS_ATTEMPTS, _branch_ref, check_message, open_repo
from .validate import validate

__all__ = ["PROMOTIONS", "promote", "branches"]

#: target -> source
PROMOTIONS = {"demo": "draft", "live": "demo"}


def promote(path: Path | str, to: str, *, check: bool = True,
            message: str | None = None, commit: str | None = None) -> dict[str, Any]:
    """Fast-forward ``to`` (demo or live) to the tip of its source (draft or demo).

    :param check: validate the source tip's tree first (``validate``); refuse on findings.
    :param commit: promote exactly this commit (a full hex id) of the source's history
        instead of its tip: what the caller checked (its evals) is what moves, even if the
        source moved on meanwhile.
    :return: ``{to, from, previous, commit, promoted}``; ``promoted`` is false when the
        target already equals the source (nothing moved).
    :raise InvalidArgument: ``to`` is not demo or live, ``message`` is malformed, or
        ``commit`` is not in the source's history.
    :raise Diverged: the target is not an ancestor of the source.
    :raise ValidationFailed: ``check`` found refused content in the source tip.
    :raise BranchNotFound: a branch is missing (``repair`` recreates it).
    """
    if to not in PROMOTIONS:
        raise InvalidArgument("to", f"must be 'demo' or 'live', not {to!r}")
    if message is not None:
        check_message(message)
    src = PROMOTIONS[to]
    for attempt in range(1, CAS_ATTEMPTS + 1):
        with open_repo(path) as repo:
            new = _branch_ref(repo, src).target
            if commit is not None:
                new = _on_branch(repo, src, new, commit)
            ref = _branch_ref(repo, to)
            old = ref.target
            out = {"to": to, "from": src, "previous": str(old), "commit": str(new),
                   "promoted": False}
            if new == old:
                return out
            if not repo.descendant_of(new, old):
                raise Diverged(src, to, str(new), str(old))
            if check and attempt == 1:
                findings = validate(path, str(new))
                if findings:
                    raise ValidationFailed(str(new), findings)
            try:
                ref.set_target(new, message or f"promote {src} -> {to}")
                out["promoted"] = True
                return out
            except (pygit2.GitError, OSError):
                pass  # the target moved meanwhile: re-check ancestry against its new tip
        time.sleep(random.uniform(0, 0.002 * attempt))
    raise RefMoved(to, CAS_ATTEMPTS)


def _on_branch(repo: pygit2.Repository, branch: str, tip: pygit2.Oid | str,
               commit: str) -> pygit2.Oid:
    """``commit`` as an id, when it is ``tip`` or one of its ancestors.

    :raise InvalidArgument: it is not.
    """
    try:
        oid = pygit2.Oid(hex=commit)
        if str(oid) == str(tip) or repo.descendant_of(tip, oid):
            return oid
    except (ValueError, KeyError, pygit2.GitError):
        pass
    raise InvalidArgument("commit", f"{commit[:40]!r} is not a commit of {branch}")


def branches(path: Path | str) -> dict[str, Any]:
    """Tips of draft/demo/live and how far each promotion step is behind.

    :return: ``{"branches": {name: commit hex or None}, "promotions": [{from, to, ahead,
        behind, can_promote}]}`` where ``ahead`` counts commits of ``from`` not yet in
        ``to`` and ``behind`` counts commits of ``to`` missing from ``from`` (non-zero
        means diverged: promotion is refused). Missing branches give ``None`` counts.
    """
    with open_repo(path) as repo:
        tips: dict[str, pygit2.Oid | None] = {}
        for name in BRANCHES:
            try:
                target = repo.references[f"refs/heads/{name}"].target
            except (KeyError, pygit2.GitError):
                target = None
            tips[name] = target if isinstance(target, pygit2.Oid) else None
        steps = []
        for to, src in (("demo", "draft"), ("live", "demo")):
            a, b = tips[src], tips[to]
            ahead = behind = None
            if a is not None and b is not None:
                try:
                    ahead, behind = repo.ahead_behind(a, b)
                except (pygit2.GitError, KeyError, ValueError):
                    pass
            steps.append({"from": src, "to": to, "ahead": ahead, "behind": behind,
                          "can_promote": bool(ahead) and behind == 0})
        return {"branches": {b: (str(t) if t is not None else None) for b, t in tips.items()},
                "promotions": steps}
