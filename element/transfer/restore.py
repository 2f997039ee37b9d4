"""Restore a backup (``backup.py``) into a new home: its files, or a PostgreSQL database.

Everything is checked before anything is written: the backup against its manifest
(``folder.py``: sizes, checksums, no links, each memory snapshot whole), the target folder
(absent or empty) and, for a database, that it holds no home (no catalog element, token or
event, no memory). Then the home is built in a hidden staging folder beside the target and
renamed into place at the end, so a failure leaves no half-restored home under its name:

1. every listed file is copied into the staging folder through a descriptor reached
   without following a link, and the bytes copied are checked against the manifest again;
2. a files target: the memory snapshots of a database home's backup are imported into
   the restored home's stores (ids, times, statistics and vectors kept; the texts
   embedded again only when the restoring model differs), and every id is checked there;
3. a database target: the catalog is copied into it (``catalog_snapshot``'s rows, checked
   table by table), then the memories, from the snapshots or from the logs of a file
   home's backup (``migrate_memories``), every id checked; the folder keeps only the
   repositories and the record of its database (``mark_backend``);
4. subjects forgotten after the backup are forgotten again (:func:`forget_after_restore`).

A database target is written before the rename: a restore that fails there leaves rows in
it, which the next restore refuses; drop and create the database, then run it again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from index import MEMORY_TABLES, MemorySettings, tables_with_rows

from ..home import Home
from ..home_folder import mark_backend
from .backup import fsync_dir, fsync_tree
from .folder import BackupInvalid, inside, open_inside, read_manifest, verify_backup
from .memories import forgotten_before, import_into, read_import
from .migrate import migrate_catalog, migrate_memories

__all__ = ["restore_home", "forget_after_restore", "CATALOG_TABLES"]

#: Catalog tables a database must hold no row of to be restored into.
CATALOG_TABLES = ["elements", "tokens", "activity"]
_CHUNK = 1 << 20


def restore_home(folder: Path | str, target: Path | str, *,
                 open_files: Callable[[Path], Home], database: str | None = None,
                 forgotten: Iterable[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """Build the new home ``target`` (absent or an empty folder) from the backup
    ``folder``: in its files, or with ``database`` in that PostgreSQL database (empty).

    :param open_files: opens a home's files (with the embedder the caller chose).
    :param forgotten: subjects forgotten after the backup (besides those its manifest
        lists), as ``Catalog.forgotten`` rows: their memories are dropped again.
    :return: ``manifest``, ``elements`` (how many), ``memories`` (per element path:
        ``memories``, ``imported``, ``skipped``, ``evicted``, ``forgotten``, ``missing``;
        empty for a file home's backup restored to files, whose logs are laid as they
        are) and ``forgotten_dropped`` (per element path).
    :raise BackupInvalid: the backup does not verify, the target is not empty, the
        database holds a home, or a memory of the backup is missing once restored.
    """
    folder, target = Path(folder), Path(target)
    check = verify_backup(folder)
    if not check["ok"]:
        raise BackupInvalid("the backup does not match its manifest: "
                            + "; ".join(check["problems"][:5]))
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise BackupInvalid(f"{target} exists and is not empty: restore into a new home")
    if database is not None:
        held = tables_with_rows(database, [*CATALOG_TABLES, *MEMORY_TABLES])
        if held:
            raise BackupInvalid(f"the database holds a home already (rows in "
                                f"{', '.join(held)}): restore into an empty database; "
                                "nothing was written")
    manifest = read_manifest(folder)
    rows = [*(manifest.get("forgotten") or []), *forgotten]
    staging = target.with_name(f".{target.name}.restoring")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True, mode=0o700)
    try:
        _lay(folder, manifest, staging)
        with open_files(staging) as home:
            if database is None:
                report = _memories(home, manifest, staging)
                dropped = forget_after_restore(home, rows) if rows else {}
                elements = len(home.catalog.elements())
            else:
                report, dropped, elements = _into_database(home, manifest, staging,
                                                           database, rows)
        shutil.rmtree(staging / "memories", ignore_errors=True)
        if database is not None:
            _leave_files(staging)
            mark_backend(staging, database)
        for path in staging.rglob("*"):
            path.chmod(0o700 if path.is_dir() else 0o600)
        fsync_tree(staging)
        if target.exists():
            target.rmdir()
        os.replace(staging, target)
        fsync_dir(target.parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return {"manifest": manifest, "elements": elements, "memories": report,
            "forgotten_dropped": dropped}


def _lay(folder: Path, manifest: Mapping[str, Any], staging: Path) -> None:
    """Copy every listed file (and folder) into ``staging``, each read once through a
    descriptor that followed no link, its bytes checked against the manifest as copied:
    a file changed since :func:`verify_backup` read it is refused, not restored."""
    for rel in manifest.get("dirs") or []:
        (staging / inside(rel)).mkdir(parents=True, exist_ok=True)
    for item in manifest["files"]:
        dest = staging / inside(item["path"])
        dest.parent.mkdir(parents=True, exist_ok=True)
        digest, size = hashlib.sha256(), 0
        with open_inside(folder, item["path"]) as src, open(dest, "xb") as out:
            for chunk in iter(lambda: src.read(_CHUNK), b""):
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
        if size != item["bytes"] or digest.hexdigest() != item["sha256"]:
            raise BackupInvalid(f"{item['path']} changed since the backup was checked")
    (staging / "repos").mkdir(exist_ok=True)
    (staging / "runtime").mkdir(exist_ok=True)


def _memories(home: Home, manifest: Mapping[str, Any], staging: Path
              ) -> dict[str, dict[str, int]]:
    """Import each memory snapshot of the backup into ``home``'s store of its element."""
    by_id = {element.id: element for element in home.catalog.elements()}
    report: dict[str, dict[str, int]] = {}
    for entry in manifest["elements"]:
        snapshot = entry.get("memories")
        element = by_id.get(entry["id"])
        if not snapshot or element is None:
            continue
        raw = (staging / inside(snapshot["file"])).read_bytes()
        with home.memory_store(element) as store:
            parsed = read_import(raw, dim=store.dim, model_id=store.model_id)
            del raw
            settings = MemorySettings.from_properties(home.properties_for(element, home.env))
            answer = import_into(store, parsed, settings=settings, forgotten=forgotten_before(
                [*(parsed.header.get("forgotten") or []),
                 *home.catalog.forgotten(element.id)]))
            _, memories = store.export()
            present = {str(memory["id"]) for memory in memories}
        # What the import dropped on purpose (a forgotten subject, a cap lowered since)
        # is not missing; anything else is.
        missing = len(parsed.ids - present) - answer["forgotten"] - answer["evicted"]
        report[element.path] = {"memories": parsed.count, "missing": missing,
                                **{key: answer[key] for key in (
                                    "imported", "skipped", "evicted", "forgotten")}}
        if missing:
            raise BackupInvalid(f"{element.path}: {missing} of the backup's "
                                f"{parsed.count} memories are not in the restored home")
    return report


def _into_database(files: Home, manifest: Mapping[str, Any], staging: Path,
                   database: str, rows: list[Any]
                   ) -> tuple[dict[str, dict[str, int]], dict[str, int], int]:
    """The catalog laid in ``files`` copied into ``database``, then the memories."""
    with Home(staging, lambda: files.embedder, database=database) as home:
        catalog = migrate_catalog(files, home)
        if not catalog["verified"]:
            raise BackupInvalid("the catalog copied into the database does not read back "
                                "as the backup's")
        if any(entry.get("memories") for entry in manifest["elements"]):
            report = _memories(home, manifest, staging)
        else:
            report = {}
            for moved in migrate_memories(files, home):
                if moved["missing"]:
                    raise BackupInvalid(f"{moved['path']}: {moved['missing']} memories of "
                                        "the backup are not in the database")
                report[moved.pop("path")] = moved
        dropped = forget_after_restore(home, rows) if rows else {}
        return report, dropped, len(home.catalog.elements())


def _leave_files(staging: Path) -> None:
    """A home in a database keeps only its repositories (and its record) in the folder."""
    for path in staging.iterdir():
        if path.name not in ("repos", "console.key"):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def _ts(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def forget_after_restore(home: Home, rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
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
                # A forget replayed, as ``forget_subject`` deletes: nothing is handed on.
                store.delete(memory_id, hand_on=False)
            if doomed:
                store.compact()     # their text leaves the disk, as forget_subject does
        dropped[element.path] = dropped.get(element.path, 0) + len(doomed)
    return dropped
