"""Online backup of a whole data home (``triform backup --to DIR``).

A backup is a folder::

    manifest.json                      format, when, from which home, every file below with
                                       its size and sha256, every folder, the elements, the
                                       memories per element, the forgotten subjects
    catalog.db                         the catalog (elements, versions, tokens, activity,
                                       modifiers, forgotten subjects...) as a SQLite file
    repos/<element-id>.git/            each repository, refs copied before objects
    runtime/<element-id>/memories.jsonl  a file home: each memory log, up to an offset
                                       taken at one instant
    memories/<element-id>.ndjson       a database home: each memory element's memories in
                                       the export format (``memories.py``), with vectors
    console.key                        the console's cookie key (when the home has one)

Order is what makes it consistent while writes go on. A file home: the catalog first
(SQLite's online backup: one snapshot), then every repository it names (refs, then
objects: ``source.copy_repo``), then every memory log, each up to its size at the instant
it is reached. A database home: the catalog and every memory element's rows in one
read-only ``REPEATABLE READ`` transaction on one connection (one instant for all of
them), then the repositories. Either way a write acknowledged before the backup started
is in it: its catalog row is in the snapshot, its commit under a copied ref, its memory
line fsynced below the offset or its row committed before the snapshot's first read.
Writes made while the backup runs may or may not be in it. Not copied: the hnswlib
sidecars and PostgreSQL's postings (a restored home rebuilds both from the memories).

A memory log is copied under its store's lock when this process holds the store
(``MemoryBackend.copy_log``); when another process (the server) holds it, straight from
the file (``index.copy_log_file``): the log is append-only and fsynced per acknowledged
write, and a compaction replaces it by rename, so the bytes up to the size seen through
one open file are a whole log.

The backup is written into a hidden folder beside the destination, the manifest last, and
renamed into place once everything is fsynced: a backup that is interrupted leaves no
folder under the destination's name, and its hidden one has no manifest, so ``--verify``
and ``restore`` refuse it (``folder.py`` checks, ``restore.py`` restores).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from index import Memory, copy_log_file, snapshot_memories
from source import copy_repo

from ..catalog import Catalog, Element, backup_database, catalog_snapshot, now_iso, write_rows
from ..home import Home
from ..home_folder import marked_database
from .folder import BACKUP_FORMAT, BACKUP_VERSION, MANIFEST, BackupInvalid, sha256_of
from .memories import export_header, memory_lines

__all__ = ["backup_home", "fsync_tree", "fsync_dir"]

LOG = "memories.jsonl"
#: Top-level files of a home that a backup keeps besides the catalog.
_HOME_FILES = ("console.key",)


def fsync_tree(root: Path) -> None:
    for folder, _, files in os.walk(root):
        for name in files:
            with open(Path(folder) / name, "rb") as f:
                os.fsync(f.fileno())


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup_home(home: Home, dest: Path | str) -> dict[str, Any]:
    """Write a consistent backup of ``home`` into the new folder ``dest`` (see the module
    docstring); answer its manifest. Safe while servers serve the home.

    :raise BackupInvalid: ``dest`` exists and is not an empty folder.
    """
    dest = Path(dest)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise BackupInvalid(f"{dest} exists and is not an empty folder")
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = dest.parent / f".{dest.name}.partial-{uuid.uuid4().hex[:12]}"
    partial.mkdir(mode=0o700)   # tokens' hashes and every memory: private, as the home
    try:
        manifest = _write(home, partial)
        if dest.exists():
            dest.rmdir()        # empty, checked above: the rename takes its place
        os.replace(partial, dest)
        fsync_dir(dest.parent)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return manifest


def _write(home: Home, folder: Path) -> dict[str, Any]:
    started = now_iso()
    snapshots: dict[str, dict[str, Any]] = {}
    if home.database_url is None:
        home.catalog.backup(folder / "catalog.db")
        listed, forgotten = _listed(folder)
    else:
        listed, forgotten, snapshots = _snapshot(home, folder)
    elements: list[dict[str, Any]] = []
    for element in listed:
        entry: dict[str, Any] = {"id": element.id, "path": element.path,
                                 "element_type": element.element_type}
        repo = home.path / "repos" / f"{element.id}.git"
        if repo.exists():
            copy_repo(repo, folder / "repos" / f"{element.id}.git")
        if element.id in snapshots:
            entry["memories"] = snapshots[element.id]
        elif element.element_type == "memory" and home.database_url is None:
            entry["log"] = _copy_log(home, element.id, folder / "runtime" / element.id)
        elements.append(entry)
    for name in _HOME_FILES:
        if (home.path / name).is_file():
            shutil.copy2(home.path / name, folder / name)
    fsync_tree(folder)
    files = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():      # the manifest is not written yet
            with open(path, "rb") as f:
                size, digest = sha256_of(f)
            files.append({"path": str(path.relative_to(folder)), "bytes": size,
                          "sha256": digest})
    # Folders too: git needs its empty ones (objects/pack) to take the next push.
    dirs = [str(p.relative_to(folder)) for p in sorted(folder.rglob("*")) if p.is_dir()]
    manifest: dict[str, Any] = {
        "format": BACKUP_FORMAT, "version": BACKUP_VERSION, "started_at": started,
        "finished_at": now_iso(), "home": str(home.path.resolve()),
        "backend": "files" if home.database_url is None else "database",
        "elements": elements, "forgotten": forgotten, "files": files, "dirs": dirs}
    if home.database_url is not None:
        manifest["database"] = marked_database(home.path)
        manifest["memories"] = sum(s["count"] for s in snapshots.values())
    tmp = folder / f"{MANIFEST}.tmp"
    tmp.write_text(json.dumps(manifest, indent=2, ensure_ascii=False))
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, folder / MANIFEST)
    fsync_dir(folder)
    return manifest


def _listed(folder: Path) -> tuple[list[Element], list[dict[str, str]]]:
    """The elements and forgotten subjects of the backup's ``catalog.db``, read through a
    scratch copy: opening a catalog turns on WAL, which would add files to (and rewrite)
    the one the manifest describes."""
    with tempfile.TemporaryDirectory(dir=folder.parent) as scratch:
        shutil.copy2(folder / "catalog.db", Path(scratch) / "catalog.db")
        snapshot = Catalog(Path(scratch) / "catalog.db")
        try:
            return snapshot.elements(), snapshot.forgotten()
        finally:
            snapshot.close()


def _snapshot(home: Home, folder: Path
              ) -> tuple[list[Element], list[dict[str, str]], dict[str, dict[str, Any]]]:
    """A database home's catalog and memories, read in one snapshot: ``catalog.db`` and
    ``memories/<id>.ndjson`` per memory element; the elements, the forgotten subjects,
    and each memory element's manifest entry."""
    snapshots: dict[str, dict[str, Any]] = {}
    with catalog_snapshot(home.catalog) as (rows, connection), \
            tempfile.TemporaryDirectory(dir=folder.parent) as scratch:
        copy = Catalog(Path(scratch) / "catalog.db")
        try:
            write_rows(rows, copy)
            listed, forgotten = copy.elements(), copy.forgotten()
        finally:
            copy.close()
        backup_database(Path(scratch) / "catalog.db", folder / "catalog.db")
        (folder / "memories").mkdir()
        for element in listed:
            if element.element_type == "memory":
                mine = [row for row in forgotten if row["element_id"] == element.id]
                snapshots[element.id] = _write_memories(connection, element, mine, folder)
    return listed, forgotten, snapshots


def _write_memories(connection: Any, element: Element,
                    forgotten: list[dict[str, str]], folder: Path) -> dict[str, Any]:
    """One element's memories from the open snapshot into ``memories/<id>.ndjson``."""
    snap = snapshot_memories(connection, element.id)
    header = export_header(element.path, model=snap.model, dim=snap.dim, count=snap.count,
                           vectors=True, filters={}, forgotten=forgotten)
    rel = f"memories/{element.id}.ndjson"
    counts = {"memories": 0, "with_vectors": 0}

    def counted() -> Iterator[Memory]:
        for memory in snap.memories:
            counts["memories"] += 1
            counts["with_vectors"] += bool(memory.get("vectors"))
            yield memory

    with open(folder / rel, "wb") as f:
        for line in memory_lines(header, counted()):
            f.write(line)
        f.flush()
        os.fsync(f.fileno())
    if counts["memories"] != snap.count:     # a snapshot does not move: never, but said
        raise BackupInvalid(f"{element.path}: the snapshot counted {snap.count} memories "
                            f"and yielded {counts['memories']}")
    return {"file": rel, "count": snap.count, "with_vectors": counts["with_vectors"],
            "model": snap.model, "dim": snap.dim}


def _copy_log(home: Home, element_id: str, folder: Path) -> Mapping[str, Any]:
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
