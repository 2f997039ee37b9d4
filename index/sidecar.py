"""The sidecar: a checkpoint of the in-memory state at a known log offset.

Layout, in the element's runtime directory, generation ``N``::

    sidecar.json              the manifest, replaced atomically, written last
    records.gN.json           every live record at the offset, column by column, with its
                              slot label: {"columns": {"id": [...], "label": [...], ...}}
    <lane>.gN.hnsw            hnswlib graph of the lane (content, context, intention)
    <lane>.gN.general.hnsw    hnswlib graph of the lane's general memories only
    <lane>.gN.npy             the lane's vectors, float32, one row per label up to high water
    <lane>.gN.flags.npy       bool (3, high water): "has a vector", "in the lane graph",
                              "in the general graph"
    lexical.gN.npz            the BM25 index of the contents (``lexical.py``), flat arrays

``sidecar.json``::

    {"format": 2, "generation": N, "log_id": "<header id of the log it covers>",
     "log_offset": <bytes of the log it covers>, "log_lines": <lines up to there>,
     "model_id": "...", "dim": 384, "log_model": "<model of the log's vectors>",
     "next_seq": <...>, "high_water": <labels used>, "count": <live memories>,
     "files": {"records.gN.json": {"size": ..., "crc32": ...}, ...}}

The label map (memory id -> label) is the ``id`` and ``label`` columns of
``records.gN.json``. CRC-32 checks run in a thread while the records parse (zlib releases
the GIL), so they cost little at cold start; vectors files are then memory-mapped
copy-on-write (``Lane.load``), so they are not copied either.

The sidecar is a cache, never required: on open the store uses it only when the manifest
parses, its ``log_id`` is the log's, its offset is a line boundary within the log, its
model and dimension are the embedder's, and every file has the recorded size and CRC-32;
otherwise the state is rebuilt from the log (which carries the vectors, so nothing is
re-embedded). Saving writes the new generation's files, fsyncs them, then replaces the
manifest and fsyncs the directory, and only then deletes older generations: a crash at any
point leaves either the old or the new checkpoint complete.
"""

from __future__ import annotations

import io
import json
import os
import re
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .files import create_private, fsync_path, make_private
from .lanes import LaneSet
from .lexical import LexicalIndex
from .recall import LANES

__all__ = ["SIDECAR_FORMAT", "MANIFEST", "SidecarUnusable", "Sidecar", "write_sidecar",
           "read_sidecar", "remove_sidecar", "read_manifest", "check_files",
           "latest_generation"]

SIDECAR_FORMAT = 2
MANIFEST = "sidecar.json"
_GENERATION_FILE = re.compile(
    r"^(records|content|context|intention|lexical)\.g(\d+)\."
    r"(json|hnsw|general\.hnsw|npy|flags\.npy|npz)$")


class SidecarUnusable(Exception):
    """The sidecar cannot be used (missing, corrupt, stale, other model); rebuild instead."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Sidecar:
    """A checked manifest, the records it lists, and where each lane's files are.

    The CRC-32 check of the files may still be running: call :meth:`verify` before loading
    any hnswlib file (hnswlib trusts its input; a corrupt file could crash the process).
    """

    meta: dict[str, Any]
    columns: dict[str, list[Any]]
    lane_files: dict[str, tuple[Path, ...]]
    lexical_file: Path
    checker: threading.Thread
    bad: list[str]

    def verify(self) -> None:
        """Wait for the checksum thread.

        :raise SidecarUnusable: a file does not match its recorded CRC-32.
        """
        self.checker.join()
        if self.bad:
            raise SidecarUnusable(f"corrupt: {self.bad[0]} does not match its checksum")


def _crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            crc = zlib.crc32(chunk, crc)
    return crc


def _names(generation: int) -> dict[str, str]:
    names = {"records": f"records.g{generation}.json"}
    for lane in LANES:
        names[f"{lane}.hnsw"] = f"{lane}.g{generation}.hnsw"
        names[f"{lane}.general"] = f"{lane}.g{generation}.general.hnsw"
        names[f"{lane}.npy"] = f"{lane}.g{generation}.npy"
        names[f"{lane}.flags"] = f"{lane}.g{generation}.flags.npy"
    names["lexical"] = f"lexical.g{generation}.npz"
    return names


def write_sidecar(directory: Path, meta: dict[str, Any], columns: dict[str, list[Any]],
                  lanes: LaneSet, lexical: LexicalIndex) -> None:
    """Save a checkpoint (generation ``meta["generation"]``) and drop older generations.

    Every file is 0600 (``files.py``). A save that fails part way removes what it wrote
    of its generation, so a full disk is not left fuller.

    :param meta: the manifest fields except ``format`` and ``files``.
    :raise OSError: a file could not be written (the previous checkpoint stays in place).
    """
    generation = int(meta["generation"])
    names = _names(generation)
    paths = {key: directory / name for key, name in names.items()}
    try:
        with io.TextIOWrapper(create_private(paths["records"]), encoding="utf-8") as text:
            # json.dumps, not json.dump: dump streams through the pure-Python encoder.
            text.write(json.dumps({"columns": columns}, ensure_ascii=False,
                                  separators=(",", ":")))
        for lane in LANES:
            lanes[lane].save(paths[f"{lane}.hnsw"], paths[f"{lane}.general"],
                             paths[f"{lane}.npy"], paths[f"{lane}.flags"])
        with create_private(paths["lexical"]) as f:
            np.savez(f, allow_pickle=False, **lexical.to_arrays())
        files = {}
        for path in paths.values():
            make_private(path)
            fsync_path(path)
            files[path.name] = {"size": path.stat().st_size, "crc32": _crc32(path)}
        manifest = dict(meta, format=SIDECAR_FORMAT, files=files)
        tmp = directory / (MANIFEST + ".tmp")
        with create_private(tmp) as f:
            f.write(json.dumps(manifest, separators=(",", ":")).encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, directory / MANIFEST)
    except BaseException:
        (directory / (MANIFEST + ".tmp")).unlink(missing_ok=True)
        for path in paths.values():
            path.unlink(missing_ok=True)
        raise
    fsync_path(directory)
    _remove_generations(directory, keep=generation)


def _remove_generations(directory: Path, keep: int | None) -> None:
    for entry in directory.iterdir():
        match = _GENERATION_FILE.match(entry.name)
        if match and (keep is None or int(match.group(2)) != keep):
            entry.unlink(missing_ok=True)


def remove_sidecar(directory: Path) -> None:
    """Delete the manifest first (so no half-deleted checkpoint is ever used), then files."""
    (directory / MANIFEST).unlink(missing_ok=True)
    (directory / (MANIFEST + ".tmp")).unlink(missing_ok=True)
    _remove_generations(directory, keep=None)


def read_manifest(directory: Path) -> dict[str, Any] | None:
    """The parsed manifest, or None when there is none or it does not parse."""
    try:
        with open(directory / MANIFEST, encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def read_sidecar(directory: Path, *, log_id: str, model_id: str, dim: int) -> Sidecar:
    """Load and check a checkpoint against the current log and embedder.

    The caller still checks that ``meta["log_offset"]`` is a line boundary of the log, and
    calls :meth:`Sidecar.verify` before loading the lane files (the checksums run in a
    thread meanwhile, overlapping the parsing of the records).

    :raise SidecarUnusable: with the reason it cannot be used.
    """
    if not (directory / MANIFEST).exists():
        raise SidecarUnusable("missing")
    meta = read_manifest(directory)
    if meta is None:
        raise SidecarUnusable("corrupt: manifest does not parse")
    if meta.get("format") != SIDECAR_FORMAT:
        raise SidecarUnusable(f"corrupt: unknown format {meta.get('format')!r}")
    if meta.get("log_id") != log_id:
        raise SidecarUnusable("stale: it covers another log (compacted or replaced)")
    if meta.get("model_id") != model_id or meta.get("dim") != dim:
        raise SidecarUnusable(f"other model: built with {meta.get('model_id')!r}")
    try:
        generation = int(meta["generation"])
        files = meta["files"]
        names = _names(generation)
        int(meta["log_offset"]), int(meta["next_seq"]), int(meta["high_water"])
        for name in names.values():
            if (directory / name).stat().st_size != files[name]["size"]:
                raise SidecarUnusable(f"corrupt: {name} has the wrong size")
    except SidecarUnusable:
        raise
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SidecarUnusable(f"corrupt: {exc.__class__.__name__}") from None
    bad: list[str] = []
    checker = threading.Thread(target=_check_crcs, daemon=True,
                               args=(directory, list(names.values()), files, bad))
    checker.start()
    try:
        with open(directory / names["records"], encoding="utf-8") as f:
            columns = json.loads(f.read())["columns"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        checker.join()
        if bad:
            raise SidecarUnusable(f"corrupt: {bad[0]} does not match its checksum") \
                from None
        raise SidecarUnusable(f"corrupt: records ({exc.__class__.__name__})") from None
    lane_files = {lane: tuple(directory / names[f"{lane}.{kind}"]
                              for kind in ("hnsw", "general", "npy", "flags"))
                  for lane in LANES}
    return Sidecar(meta, columns, lane_files, directory / names["lexical"], checker, bad)


def check_files(directory: Path, meta: dict[str, Any]) -> str | None:
    """Why the files a manifest lists do not match it (size, CRC-32), or None when they do.

    Reads every file in full (about a gigabyte at 100k memories).
    """
    try:
        names = list(_names(int(meta["generation"])).values())
        files = meta["files"]
        for name in names:
            if (directory / name).stat().st_size != files[name]["size"]:
                return f"{name} has the wrong size"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"its files cannot be read ({exc.__class__.__name__})"
    bad: list[str] = []
    _check_crcs(directory, names, files, bad)
    return f"{bad[0]} does not match its checksum" if bad else None


def _check_crcs(directory: Path, names: Any, files: dict[str, Any], bad: list[str]) -> None:
    for name in names:
        try:
            if _crc32(directory / name) != files[name]["crc32"]:
                bad.append(name)
        except (OSError, KeyError, TypeError):
            bad.append(name)


def latest_generation(directory: Path) -> int:
    """The highest generation number of any sidecar file in ``directory`` (0 if none)."""
    best = 0
    meta = read_manifest(directory)
    if meta is not None and isinstance(meta.get("generation"), int):
        best = meta["generation"]
    for entry in directory.iterdir():
        match = _GENERATION_FILE.match(entry.name)
        if match:
            best = max(best, int(match.group(2)))
    return best
