"""A backup folder as it is read back: its manifest, the check of every file against it
(``triform backup --verify``), and the reading of one file for a restore.

What the manifest guarantees, and how (docs/backup.md, "What --verify checks"):

* every file it lists is there, a regular file, reached from the backup folder without
  following a symbolic link, and has the size and sha256 listed;
* nothing else is in the folder: an unlisted file, a symbolic link (to a file or a
  folder, inside or out) or anything that is not a regular file or a folder is a problem,
  never followed, read or restored;
* no path it names leads outside the folder (absolute, or through ``..``);
* each memory snapshot (a backup of a database home) is a whole export: its header, every
  line checked as an import checks it, no id twice, and as many memories as the header
  and the manifest say.

A file is reached one folder at a time, each opened with ``O_NOFOLLOW`` below the one
before (``openat``), so a link swapped in after the check is refused as well; a restore
reads each file once, through such a descriptor, and checks the bytes it copies against
the manifest. The manifest is a checksum list, not a signature: it tells a damaged or
incomplete backup from a whole one, not a backup someone rewrote together with its
manifest; keep backups where only their owner can write.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import ElementError, ImportInvalid
from .memories import check_lines

__all__ = ["BACKUP_FORMAT", "BACKUP_VERSION", "READS", "MANIFEST", "BackupInvalid",
           "read_manifest", "verify_backup", "open_inside", "inside", "sha256_of"]

BACKUP_FORMAT = "triform-backup"
#: The version written; 2 adds memory snapshots (``memories/<id>.ndjson``) for a database
#: home, which version 1 readers would have restored as a home without memories.
BACKUP_VERSION = 2
#: The versions this code restores.
READS = (1, 2)
MANIFEST = "manifest.json"
_CHUNK = 1 << 20


class BackupInvalid(ElementError):
    """A backup does not match its manifest (or has none), or cannot be restored there."""

    code = "BACKUP_INVALID"
    error_class = "validation"


def inside(rel: Any) -> Path:
    """A manifest's relative path, refused if it would lead outside the backup."""
    path = Path(str(rel))
    if not str(rel) or path.is_absolute() or ".." in path.parts or not path.parts:
        raise BackupInvalid(f"the manifest names {rel!r}, outside the backup")
    return path


def open_inside(folder: Path, rel: Any) -> BinaryIO:
    """The regular file ``rel`` under ``folder``, opened for reading one folder at a time
    without following a symbolic link anywhere below ``folder``.

    :raise BackupInvalid: ``rel`` leads outside; :raise OSError: it is missing
        (``ENOENT``), a link or below one (``ELOOP``, ``ENOTDIR``), or not a regular file
        (``EINVAL``).
    """
    parts = inside(rel).parts
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in parts[:-1]:
            below = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = below
        # O_NONBLOCK: a FIFO put in a backup must not hang the check (regular files
        # ignore the flag).
        file_fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK,
                          dir_fd=fd)
    finally:
        os.close(fd)
    if not stat.S_ISREG(os.fstat(file_fd).st_mode):
        os.close(file_fd)
        raise OSError(errno.EINVAL, "not a regular file")
    return os.fdopen(file_fd, "rb")


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENOENT:
        return "missing"
    if exc.errno in (errno.ELOOP, errno.ENOTDIR):
        return "a symbolic link, or below one (a backup holds none: not followed)"
    if exc.errno == errno.EINVAL:
        return "not a regular file"
    return f"unreadable ({exc.strerror or exc})"


def sha256_of(f: BinaryIO) -> tuple[int, str]:
    """``(bytes, sha256)`` of what is left to read in ``f``."""
    digest, size = hashlib.sha256(), 0
    for chunk in iter(lambda: f.read(_CHUNK), b""):
        digest.update(chunk)
        size += len(chunk)
    return size, digest.hexdigest()


def read_manifest(folder: Path) -> dict[str, Any]:
    """:raise BackupInvalid: no manifest, or not a backup of a format and version this
    code reads, or one that does not list its files and elements as it should."""
    try:
        with open_inside(folder, MANIFEST) as f:
            manifest = json.loads(f.read())
    except FileNotFoundError:
        raise BackupInvalid(f"{folder} has no {MANIFEST}: not a backup, or one that did "
                            "not finish") from None
    except OSError as exc:
        raise BackupInvalid(f"{folder / MANIFEST}: {_why(exc)}") from None
    except ValueError as exc:
        raise BackupInvalid(f"{folder / MANIFEST} is not readable: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise BackupInvalid(f"{folder / MANIFEST} is not a manifest of a Triform backup")
    if manifest.get("version") not in READS:
        raise BackupInvalid(f"backup format version {manifest.get('version')!r}; this "
                            f"version restores {', '.join(map(str, READS))}")
    files = manifest.get("files")
    if not isinstance(files, list) or not all(
            isinstance(f, dict) and isinstance(f.get("path"), str)
            and isinstance(f.get("bytes"), int) and isinstance(f.get("sha256"), str)
            for f in files):
        raise BackupInvalid(f"{folder / MANIFEST} does not list its files as "
                            "{path, bytes, sha256}")
    elements = manifest.get("elements")
    if not isinstance(elements, list) or not all(
            isinstance(e, dict) and isinstance(e.get("id"), str)
            and isinstance(e.get("path"), str) and _snapshot_entry(e.get("memories"))
            for e in elements):
        raise BackupInvalid(f"{folder / MANIFEST} does not list its elements as "
                            "{id, path, ...}")
    if not isinstance(manifest.get("dirs", []), list) or \
            not all(isinstance(d, str) for d in manifest.get("dirs", [])):
        raise BackupInvalid(f"{folder / MANIFEST}: dirs is not a list of paths")
    return manifest


def _snapshot_entry(entry: Any) -> bool:
    return entry is None or (isinstance(entry, dict) and isinstance(entry.get("file"), str)
                             and isinstance(entry.get("count"), int)
                             and not isinstance(entry.get("count"), bool))


def verify_backup(folder: Path | str) -> dict[str, Any]:
    """Check a backup against its manifest (see the module docstring).

    :return: ``{"ok": bool, "files": n, "bytes": n, "memories": {path: n}, "problems":
        [...]}``; ``memories`` counts each memory snapshot's memories (a database home's
        backup; a file home's logs are checked by size and checksum only).
    :raise BackupInvalid: there is no readable manifest of this format.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    problems: list[str] = []
    total = 0
    snapshots = {str(e["memories"]["file"]): e for e in manifest["elements"]
                 if e.get("memories")}
    counted: dict[str, int] = {}
    for item in manifest["files"]:
        rel = item["path"]
        try:
            with open_inside(folder, rel) as f:
                if rel in snapshots:
                    size, digest = _check_snapshot(f, snapshots[rel], counted, problems)
                else:
                    size, digest = sha256_of(f)
        except OSError as exc:
            problems.append(f"{rel}: {_why(exc)}")
            continue
        total += size
        if size != item["bytes"]:
            problems.append(f"{rel}: {size} bytes, the manifest says {item['bytes']}")
        elif digest != item["sha256"]:
            problems.append(f"{rel}: checksum differs from the manifest")
    listed = {item["path"] for item in manifest["files"]}
    for rel in snapshots:
        if rel not in listed:
            problems.append(f"{rel}: a memory snapshot the manifest does not list as a file")
    problems.extend(_strangers(folder, listed))
    return {"ok": not problems, "files": len(manifest["files"]), "bytes": total,
            "memories": counted, "problems": problems}


def _check_snapshot(f: BinaryIO, entry: dict[str, Any], counted: dict[str, int],
                    problems: list[str]) -> tuple[int, str]:
    """Read a memory snapshot once: its checksum, and every line checked as an import
    checks it, with the vectors' size the header gives."""
    digest, size = hashlib.sha256(), [0]

    def lines() -> Iterator[bytes]:
        for line in f:
            digest.update(line)
            size[0] += len(line)
            yield line[:-1] if line.endswith(b"\n") else line

    read = lines()
    rel, path = entry["memories"]["file"], entry["path"]
    try:
        header = next(read, b"")
        first = json.loads(header) if header else None
        dim = first.get("dim") if isinstance(first, dict) else None
        model = first.get("model") if isinstance(first, dict) else None
        parsed = check_lines(_chain(header, read), keep=False,
                             dim=dim if isinstance(dim, int) else None,
                             model_id=model if isinstance(model, str) else None)
    except (ImportInvalid, ValueError) as exc:
        problems.append(f"{rel} ({path}): {getattr(exc, 'message', exc)}")
    else:
        counted[path] = parsed.count
        if parsed.count != entry["memories"]["count"]:
            problems.append(f"{rel} ({path}): {parsed.count} memories, the manifest says "
                            f"{entry['memories']['count']}")
        if parsed.header.get("element") != path:
            problems.append(f"{rel}: the memories of {parsed.header.get('element')!r}, "
                            f"the manifest says {path!r}")
    for _ in read:      # the rest of the checksum, after a refused line
        pass
    return size[0], digest.hexdigest()


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


def _strangers(folder: Path, listed: set[str]) -> list[str]:
    """What lies in the folder besides the listed files and their folders: links (never
    followed), special files, unlisted files."""
    found: list[str] = []
    for root, dirs, files in os.walk(folder, followlinks=False):
        here = Path(root)
        for name in sorted(dirs):
            if (here / name).is_symlink():
                found.append(f"{(here / name).relative_to(folder)}: a symbolic link "
                             "(a backup holds none: not followed)")
        for name in sorted(files):
            path = here / name
            rel = str(path.relative_to(folder))
            if rel == MANIFEST or rel in listed:
                continue        # read through open_inside above, which refuses links
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                found.append(f"{rel}: a symbolic link (a backup holds none: not followed)")
            elif not stat.S_ISREG(mode):
                found.append(f"{rel}: not a regular file")
            else:
                found.append(f"{rel}: not in the manifest")
    return found
