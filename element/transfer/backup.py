"""Online backup of a whole data home, its check against the manifest, and its restore.

A backup is a folder::

    manifest.json                      format, when, from which home, every file below with
                                       its size and sha256, the elements and their logs
    catalog.db                         SQLite's online backup of the catalog (elements,
                                       versions, tokens, activity, modifiers, forgotten
                                       subjects...)
    repos/<element-id>.git/            each repository, refs copied before objects
    runtime/<element-id>/memories.jsonl  each memory log, up to an offset taken at one instant
    console.key                        the console's cookie key (when the home has one)

Order is what makes it consistent while writes go on: the catalog first (one snapshot), then
every repository it names (refs, then objects: ``source.copy_repo``), then every memory
log, each up to its size at the instant it is reached. A write acknowledged before the
backup started is therefore in it: its catalog row is in the snapshot, its commit is under
a copied ref, its memory line was fsynced below the offset. Writes made while the backup
runs may or may not be in it. Sidecars (hnswlib checkpoints) are not copied: a restored
home rebuilds them from the logs on first open.

A memory log is copied under its store's lock when this process holds the store
(``MemoryBackend.copy_log``); when another process (the server) holds it, straight from
the file (``index.copy_log_file``): the log is append-only and fsynced per acknowledged
write, and a compaction replaces it by rename, so the bytes up to the size seen through
one open file are a whole log.

Restore checks every file against the manifest first, then lays the files into a new home
and drops the memories of subjects forgotten after the backup (docs/backup.md).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from index import copy_log_file
from source import copy_repo

from ..catalog import Catalog, now_iso
from ..errors import ElementError
from ..home import Home

__all__ = ["BACKUP_FORMAT", "BACKUP_VERSION", "BackupInvalid", "backup_home",
           "verify_backup", "restore_home", "read_manifest", "forget_after_restore"]

BACKUP_FORMAT = "triform-backup"
BACKUP_VERSION = 1
MANIFEST = "manifest.json"
LOG = "memories.jsonl"
#: Top-level files of a home that a backup keeps besides the catalog.
_HOME_FILES = ("console.key",)


class BackupInvalid(ElementError):
    """A backup does not match its manifest (or has none), or cannot be restored there."""

    code = "BACKUP_INVALID"
    error_class = "validation"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _fsync_tree(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            with open(Path(folder) / name, "rb") as f:
                os.fsync(f.fileno())


def backup_home(home: Home, dest: Path | str) -> dict[str, Any]:
    """Write a consistent backup of ``home`` into the new folder ``dest`` (see the module
    docstring); answer its manifest. Safe while a server serves the home.

    :raise BackupInvalid: ``dest`` exists and is not an empty folder.
    """
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise BackupInvalid(f"{dest} exists and is not an empty folder")
    dest.mkdir(parents=True, exist_ok=True)
    dest.chmod(0o700)           # tokens' hashes and every memory: private, as the home
    started = now_iso()
    home.catalog.backup(dest / "catalog.db")
    # Read the snapshot through a scratch copy: opening a catalog turns on WAL, which
    # would add files to (and rewrite) the one the manifest describes.
    with tempfile.TemporaryDirectory(dir=dest.parent) as scratch:
        shutil.copy2(dest / "catalog.db", Path(scratch) / "catalog.db")
        snapshot = Catalog(Path(scratch) / "catalog.db")
        listed, forgotten = snapshot.elements(), snapshot.forgotten()
        snapshot.close()
    elements: list[dict[str, Any]] = []
    for element in listed:
        entry: dict[str, Any] = {"id": element.id, "path": element.path,
                                 "element_type": element.element_type}
        repo = home.path / "repos" / f"{element.id}.git"
        if repo.exists():
            copy_repo(repo, dest / "repos" / f"{element.id}.git")
        if element.element_type == "memory":
            entry["log"] = _copy_log(home, element.id, dest / "runtime" / element.id)
        elements.append(entry)
    for name in _HOME_FILES:
        if (home.path / name).is_file():
            shutil.copy2(home.path / name, dest / name)
    _fsync_tree(dest)
    files = [{"path": str(p.relative_to(dest)), "bytes": p.stat().st_size,
              "sha256": _sha256(p)}
             for p in sorted(dest.rglob("*")) if p.is_file() and p.name != MANIFEST]
    # Folders too: git needs its empty ones (objects/pack) to take the next push.
    dirs = [str(p.relative_to(dest)) for p in sorted(dest.rglob("*")) if p.is_dir()]
    manifest = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "started_at": started,
                "finished_at": now_iso(), "home": str(home.path.resolve()),
                "elements": elements, "forgotten": forgotten, "files": files, "dirs": dirs}
    tmp = dest / f"{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False))
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, dest / MANIFEST)
    return manifest


def _copy_log(home: Home, element_id: str, folder: Path) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    with home.held_store(element_id) as held:
        if held is not None:
            copied = held.copy_log(folder / LOG)
            return {"bytes": copied["bytes"], "memories": copied["memories"],
                    "under_lock": True}
    copied = copy_log_file(home.path / "runtime" / element_id, folder / LOG)
    if copied["sha256"] is None:
        folder.rmdir()
    return {"bytes": copied["bytes"], "under_lock": False}


def verify_backup(folder: Path | str) -> dict[str, Any]:
    """Check every file of a backup against its manifest (presence, size, sha256) and
    that nothing unlisted lies beside them.

    :return: ``{"ok": bool, "files": n, "bytes": n, "problems": [...]}``.
    :raise BackupInvalid: there is no readable manifest of this format.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    problems: list[str] = []
    listed = set()
    total = 0
    for item in manifest["files"]:
        path = folder / _inside(item["path"])
        listed.add(item["path"])
        if not path.is_file():
            problems.append(f"{item['path']}: missing")
            continue
        size = path.stat().st_size
        total += size
        if size != item["bytes"]:
            problems.append(f"{item['path']}: {size} bytes, the manifest says "
                            f"{item['bytes']}")
        elif _sha256(path) != item["sha256"]:
            problems.append(f"{item['path']}: checksum differs from the manifest")
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_file() and rel != MANIFEST and rel not in listed:
            problems.append(f"{rel}: not in the manifest")
    return {"ok": not problems, "files": len(manifest["files"]), "bytes": total,
            "problems": problems}


def read_manifest(folder: Path) -> dict[str, Any]:
    """:raise BackupInvalid: no manifest, or not a backup of this format and version."""
    try:
        manifest = json.loads((folder / MANIFEST).read_text())
    except FileNotFoundError:
        raise BackupInvalid(f"{folder} has no {MANIFEST}: not a backup, or one that did "
                            "not finish") from None
    except (OSError, ValueError) as exc:
        raise BackupInvalid(f"{folder / MANIFEST} is not readable: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise BackupInvalid(f"{folder / MANIFEST} is not a manifest of a Triform backup")
    if manifest.get("version") != BACKUP_VERSION:
        raise BackupInvalid(f"backup format version {manifest.get('version')!r}; this "
                            f"version restores {BACKUP_VERSION}")
    files = manifest.get("files")
    if not isinstance(files, list) or not all(
            isinstance(f, dict) and isinstance(f.get("path"), str)
            and isinstance(f.get("bytes"), int) and isinstance(f.get("sha256"), str)
            for f in files):
        raise BackupInvalid(f"{folder / MANIFEST} does not list its files as "
                            "{path, bytes, sha256}")
    return manifest


def _inside(rel: Any) -> Path:
    """A manifest's relative path, refused if it would lead outside the backup."""
    path = Path(str(rel))
    if path.is_absolute() or ".." in path.parts:
        raise BackupInvalid(f"the manifest names {rel!r}, outside the backup")
    return path


def _ts(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def restore_home(folder: Path | str, target: Path | str) -> dict[str, Any]:
    """Lay a verified backup into the new home ``target`` (absent or an empty folder),
    atomically (a staging folder renamed into place); answer its manifest. The caller
    then opens the home and applies :func:`forget_after_restore`.

    :raise BackupInvalid: the backup does not verify, or ``target`` is not empty.
    """
    folder, target = Path(folder), Path(target)
    check = verify_backup(folder)
    if not check["ok"]:
        raise BackupInvalid("the backup does not match its manifest: "
                            + "; ".join(check["problems"][:5]))
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise BackupInvalid(f"{target} exists and is not empty: restore into a new home")
    manifest = read_manifest(folder)
    staging = target.with_name(f".{target.name}.restoring")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    try:
        for rel in manifest.get("dirs") or []:
            (staging / _inside(rel)).mkdir(parents=True, exist_ok=True)
        for item in manifest["files"]:
            dest = staging / _inside(item["path"])
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(folder / item["path"], dest)
        (staging / "repos").mkdir(exist_ok=True)
        (staging / "runtime").mkdir(exist_ok=True)
        for path in staging.rglob("*"):
            path.chmod(0o700 if path.is_dir() else 0o600)
        staging.chmod(0o700)
        _fsync_tree(staging)
        if target.exists():
            target.rmdir()
        os.replace(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return manifest


def forget_after_restore(home: Home, rows: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Apply forgotten subjects to a restored home: per element, delete the subject's
    memories created until the forget, compact, and record the forget in the catalog.
    Answer how many memories were dropped per element path."""
    latest: dict[tuple[str, str, str], str] = {}
    for row in rows:
        key = (str(row["element_id"]), str(row["subject_type"]), str(row["subject_id"]))
        if key not in latest or _ts(str(row["at"])) > _ts(latest[key]):
            latest[key] = str(row["at"])
    dropped: dict[str, int] = {}
    by_id = {e.id: e for e in home.catalog.elements()}
    for (element_id, kind, ident), at in sorted(latest.items()):
        element = by_id.get(element_id)
        if element is None or element.element_type != "memory":
            continue
        home.catalog.record_forgotten(element_id, kind, ident, at)
        with home.memory_store(element) as store:
            _, memories = store.export(subject_type=kind, subject_id=ident)
            doomed = [m["id"] for m in memories if _ts(m["created_at"]) <= _ts(at)]
            for memory_id in doomed:
                store.delete(memory_id)
            if doomed:
                store.compact()     # their text leaves the disk, as forget_subject does
        dropped[element.path] = dropped.get(element.path, 0) + len(doomed)
    return dropped
