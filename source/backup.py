"""Copy a bare element repo while it is being pushed to and promoted: a backup's git side.

git writes an object before any ref names it, and a ref by renaming a lock file over it, so
copying every ref (``HEAD``, ``packed-refs``, ``refs/``, ``logs/``, config) *first* and
the object store *after* gives a repository whose refs all name objects that are present:
whatever was pushed between the two steps only adds objects that no copied ref names.
Lock and temporary files are skipped, and a file that vanishes while the folder is walked
(a temporary object renamed into place) is simply not copied. :func:`copy_repo` then opens
the copy and checks that draft, demo and live resolve to commits, so a copy that is not
consistent is refused rather than kept.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pygit2

from .errors import SourceError
from .repo import BRANCHES, lookup, open_repo

__all__ = ["copy_repo"]

_SKIP_SUFFIXES = (".lock",)
_SKIP_PREFIXES = ("tmp_", ".tmp", "tmp-")


def _skipped(name: str) -> bool:
    return name.endswith(_SKIP_SUFFIXES) or name.startswith(_SKIP_PREFIXES)


def _copy_tree(src: Path, dest: Path, *, exclude: str | None = None) -> list[Path]:
    copied: list[Path] = []
    for root, dirs, files in os.walk(src):
        rel = Path(root).relative_to(src)
        if exclude is not None and rel == Path("."):
            dirs[:] = [d for d in dirs if d != exclude]
        (dest / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            if _skipped(name):
                continue
            try:
                shutil.copy2(Path(root) / name, dest / rel / name)
            except FileNotFoundError:
                continue        # renamed or removed while we walked: not ours to copy
            copied.append(rel / name)
    return copied


def copy_repo(src: Path | str, dest: Path | str) -> list[str]:
    """Copy the bare repo ``src`` to ``dest`` (which must not exist), refs before objects;
    answer the relative paths of the files copied.

    :raise SourceError: ``src`` is not a repository, or a branch of the copy does not
        resolve to a commit (the copy is removed).
    """
    src, dest = Path(src), Path(dest)
    if not (src / "HEAD").exists():
        raise SourceError(f"{src} is not a git repository")
    dest.parent.mkdir(parents=True, exist_ok=True)
    copied = _copy_tree(src, dest, exclude="objects")
    copied += [Path("objects") / p for p in _copy_tree(src / "objects", dest / "objects")]
    try:
        with open_repo(dest) as repo:
            for branch in BRANCHES:
                ref = repo.references.get(f"refs/heads/{branch}")
                if ref is not None and lookup(repo, ref.target, pygit2.Commit) is None:
                    raise SourceError(f"{branch} of the copy of {src.name} names a commit "
                                      "the copy does not hold")
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return sorted(str(p) for p in copied)
