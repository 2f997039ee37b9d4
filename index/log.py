"""The append-only JSONL op log: the source of truth for one element's memories.

One line per mutation, UTF-8 JSON, ``\\n``-terminated. The first line is a header; every
other line is one op (see ``docs/memory-runtime.md`` for every field)::

    {"op":"header","format":1,"log_id":"<hex>","model_id":"...","dim":384,"next_seq":0,...}
    {"op":"model","model_id":"...","dim":384,"at":"..."}          vectors below come from it
    {"op":"store","record":{...},"key":null,"evicted":[],"warnings":[],"vectors":{...}}
    {"op":"update","id":"...","fields":{...},"embedded":true,"vectors":{"content":"..."}}
    {"op":"delete","ids":["..."],"reason":"delete|expire|forget","at":"..."}
    {"op":"access","ids":["..."],"at":"..."}

Vectors are base64 of little-endian float32 bytes and the ``vectors`` key is always
written last. A store or update is acknowledged only after its line is written and
fsynced; access lines (search bookkeeping) are written but not fsynced, so they cost a
``write`` and become durable with the next fsync (a crash of the process loses none; a
power cut may lose the latest access counts, never a memory).

Crash safety: a crash can only tear the *last* line, so on open a last line without its
newline (or that does not parse) is truncated and its size reported. Damage anywhere else
raises :class:`~index.errors.LogCorrupt`. A failed append is cut back to the previous end so
the next append never lands glued to a partial line. Compaction writes the new log beside
the old one, fsyncs it, renames it over the old one and fsyncs the directory.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .errors import LogCorrupt, StoreFailed
from .files import FILE_MODE, create_private, fsync_path, write_error

__all__ = ["LOG_FORMAT", "LOG_NAME", "MemoryLog", "encode_line", "decode_line",
           "encode_vector", "decode_vector", "read_entries", "write_log", "new_header",
           "copy_log_prefix", "copy_log_file"]

LOG_FORMAT = 1
LOG_NAME = "memories.jsonl"
_TAIL_CHUNK = 1 << 16
_COPY_CHUNK = 1 << 20


def encode_vector(vector: np.ndarray) -> str:
    """Base64 of the vector's little-endian float32 bytes."""
    return base64.b64encode(np.asarray(vector, dtype="<f4").tobytes()).decode("ascii")


def decode_vector(text: str) -> np.ndarray:
    """Inverse of :func:`encode_vector` (a new, writable float32 array)."""
    return np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float32)


def encode_line(entry: dict[str, Any]) -> bytes:
    """Serialize one op as a log line; numpy vectors under ``vectors`` become base64.

    ``vectors`` (a lane -> vector-or-None mapping) is written as the last key.
    """
    body = {k: v for k, v in entry.items() if k != "vectors"}
    if "vectors" in entry:
        body["vectors"] = {lane: (None if vec is None else encode_vector(vec))
                           for lane, vec in entry["vectors"].items()}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.encode("utf-8") + b"\n"


def decode_line(raw: bytes) -> dict[str, Any]:
    """Parse one log line; base64 vectors become float32 arrays.

    :raise ValueError: the line is not a JSON object with an ``op``.
    """
    entry = json.loads(raw)
    if not isinstance(entry, dict) or "op" not in entry:
        raise ValueError("not an op object")
    vectors = entry.get("vectors")
    if vectors:
        entry["vectors"] = {lane: (None if text is None else decode_vector(text))
                            for lane, text in vectors.items()}
    return entry


def read_entries(f: BinaryIO, start: int, end: int) -> Iterator[tuple[dict[str, Any], int]]:
    """Yield ``(entry, end_offset)`` for each line of ``f`` from byte ``start`` (a line
    start) up to byte ``end``; a line running past ``end`` is not read.

    :raise LogCorrupt: a line cannot be parsed (with its offset).
    """
    f.seek(start)
    offset = start
    for raw in f:
        stop = offset + len(raw)
        if stop > end:
            break   # appended after we looked; not ours to read
        try:
            entry = decode_line(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            raise LogCorrupt(offset, f"unreadable line ({exc.__class__.__name__})") from None
        yield entry, stop
        offset = stop


def write_log(path: Path, header: dict[str, Any], entries: Iterable[dict[str, Any]]) -> None:
    """Write a whole log (``header`` then ``entries``) in place of ``path``, atomically.

    Writes ``<path>.compact`` beside it, fsyncs it, renames it over ``path`` and fsyncs
    the directory: at every instant one complete log is on disk.

    :raise StorageFull, StoreFailed: nothing was replaced (the partial file is removed).
    """
    tmp = path.with_name(path.name + ".compact")
    try:
        with create_private(tmp) as f:
            f.write(encode_line(header))
            batch: list[bytes] = []
            for entry in entries:
                batch.append(encode_line(entry))
                if len(batch) >= 1024:
                    f.write(b"".join(batch))
                    batch.clear()
            f.write(b"".join(batch))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fsync_path(path.parent)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise write_error(exc, "compact the memory log") from None


def new_header(model_id: str, dim: int, *, next_seq: int) -> dict[str, Any]:
    """The first line of a new log, with a fresh ``log_id``."""
    return {"op": "header", "format": LOG_FORMAT, "log_id": uuid.uuid4().hex,
            "model_id": model_id, "dim": int(dim), "next_seq": int(next_seq)}


class MemoryLog:
    """The log file of one element, opened for appending by the single writer.

    :param path: the ``memories.jsonl`` file; created with a header when missing.
    :param model_id, dim: recorded in the header of a new log.
    """

    def __init__(self, path: Path, *, model_id: str, dim: int) -> None:
        self.path = Path(path)
        self.torn_bytes = 0
        self._broken = False
        stale = self.path.with_name(self.path.name + ".compact")
        if stale.exists():
            # A compaction that crashed before its rename: the old log is still whole.
            stale.unlink()
        if self.path.exists():
            self.torn_bytes = self._repair_tail()
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        except OSError as exc:
            raise write_error(exc, "open the memory log") from None
        self.size = os.fstat(self._fd).st_size
        if self.size == 0:
            self.header = new_header(model_id, dim, next_seq=0)
            try:
                os.fchmod(self._fd, FILE_MODE)
                self.append([self.header])
                fsync_path(self.path.parent)
            except BaseException:
                self.close()
                raise
        else:
            self.header = self._read_header()

    # -- reading -------------------------------------------------------------------------

    @property
    def log_id(self) -> str:
        """Identity of this log file's content; compaction gives the new file a new id."""
        return str(self.header["log_id"])

    def _read_header(self) -> dict[str, Any]:
        with open(self.path, "rb") as f:
            first = f.readline()
        try:
            header = decode_line(first)
        except ValueError:
            raise LogCorrupt(0, "the first line is not a readable header") from None
        if header.get("op") != "header" or header.get("format") != LOG_FORMAT:
            raise LogCorrupt(0, "the first line is not a format-1 header")
        return header

    def entries(self, start: int = 0) -> Iterator[tuple[dict[str, Any], int]]:
        """Yield ``(entry, end_offset)`` for each line from byte ``start`` (a line start).

        :raise LogCorrupt: a line cannot be parsed (only the last line may be torn, and
            that was repaired on open).
        """
        with open(self.path, "rb") as f:
            yield from read_entries(f, start, self.size)

    def detached(self) -> bool:
        """True when the log's path no longer names the file this log appends to (it was
        deleted or replaced from outside while the store was open)."""
        try:
            on_disk = os.stat(self.path)
        except FileNotFoundError:
            return True
        ours = os.fstat(self._fd)
        return (on_disk.st_dev, on_disk.st_ino) != (ours.st_dev, ours.st_ino)

    def reader(self) -> tuple[BinaryIO, int] | None:
        """A read handle on this very log file and its size now; None when
        :meth:`detached`. The handle keeps reading this file even if a compaction renames
        another over its path; the caller closes it."""
        try:
            f = open(self.path, "rb")
        except FileNotFoundError:
            return None
        seen, ours = os.fstat(f.fileno()), os.fstat(self._fd)
        if (seen.st_dev, seen.st_ino) != (ours.st_dev, ours.st_ino):
            f.close()
            return None
        return f, self.size

    def is_line_start(self, offset: int) -> bool:
        """True when ``offset`` is 0, the end, or just after a newline within the log."""
        if offset < 0 or offset > self.size:
            return False
        if offset == 0:
            return True
        with open(self.path, "rb") as f:
            f.seek(offset - 1)
            return f.read(1) == b"\n"

    def _repair_tail(self) -> int:
        """Truncate a torn last line; return how many bytes were cut."""
        size = self.path.stat().st_size
        if size == 0:
            return 0
        with open(self.path, "r+b") as f:
            keep = self._last_newline_end(f, size)
            if keep > 0:
                # A line that has its newline but does not parse is torn too (a crash can
                # leave a zero-filled or partly written block behind the newline).
                start = self._last_newline_end(f, keep - 1)
                f.seek(start)
                try:
                    decode_line(f.read(keep - start))
                except (ValueError, UnicodeDecodeError):
                    keep = start
            if keep != size:
                f.truncate(keep)
                f.flush()
                os.fsync(f.fileno())
        return size - keep

    @staticmethod
    def _last_newline_end(f: BinaryIO, end: int) -> int:
        """Offset just past the last ``\\n`` before ``end`` (0 when there is none)."""
        pos = end
        while pos > 0:
            start = max(0, pos - _TAIL_CHUNK)
            f.seek(start)
            chunk = f.read(pos - start)
            idx = chunk.rfind(b"\n")
            if idx >= 0:
                return start + idx + 1
            pos = start
        return 0

    # -- writing -------------------------------------------------------------------------

    def append(self, entries: list[dict[str, Any]], *, durable: bool = True) -> int:
        """Append ops as lines (one ``write``), fsync when ``durable``; return the new end.

        :raise StoreFailed: the write or fsync failed; the log is cut back to where it was.
        """
        if self._broken:
            raise StoreFailed("the memory log is in an unknown state after a failed write; "
                              "reopen the store")
        data = b"".join(encode_line(e) for e in entries)
        before = self.size
        try:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            if durable:
                os.fsync(self._fd)
        except OSError as exc:
            self._cut_back(before)
            raise write_error(exc, "write the memory log") from None
        self.size = before + len(data)
        return self.size

    def sync(self) -> None:
        """fsync everything written so far (makes pending access lines durable).

        :raise StorageFull, StoreFailed: the fsync failed.
        """
        try:
            os.fsync(self._fd)
        except OSError as exc:
            raise write_error(exc, "fsync the memory log") from None

    def cut_back(self, size: int) -> None:
        """Drop everything after byte ``size`` (written but not acknowledged: a group
        commit that failed part way).

        :raise StoreFailed: the truncation failed; the log refuses appends until reopened.
        """
        if size < self.size:
            self._cut_back(size)
            if self._broken:
                raise StoreFailed("the memory log could not be cut back after a failed "
                                  "write; reopen the store")
            self.size = size

    def _cut_back(self, size: int) -> None:
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            self._broken = True

    def rewrite(self, entries: Iterable[dict[str, Any]], *, model_id: str, dim: int,
                next_seq: int) -> None:
        """Replace the log with a new header plus ``entries`` (compaction, :func:`write_log`).

        :raise StorageFull, StoreFailed: the old log stays in place, unchanged.
        """
        header = new_header(model_id, dim, next_seq=next_seq)
        write_log(self.path, header, entries)
        os.close(self._fd)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self.size = os.fstat(self._fd).st_size
        self.header = header
        self._broken = False

    def close(self) -> None:
        """fsync and close the file (idempotent)."""
        if self._fd >= 0:
            try:
                os.fsync(self._fd)
            except OSError:
                pass
            os.close(self._fd)
            self._fd = -1


# -- copies for backups -----------------------------------------------------------------
# The log is append-only between compactions and a compaction replaces it by rename, so
# the bytes up to an offset taken at one instant, read through one open file, are a
# consistent log.

def copy_log_prefix(source: BinaryIO, size: int, dest: Path) -> tuple[int, str]:
    """Copy the first ``size`` bytes of an open log to ``dest``, cut back to the last
    complete line; answer ``(bytes written, sha256)``. Reading through the one open file
    keeps the copy consistent even if a compaction renames a new log into place meanwhile.
    """
    source.seek(0)
    digest = hashlib.sha256()
    written = 0
    tail = b""
    with open(dest, "wb") as out:
        left = size
        while left > 0:
            chunk = source.read(min(_COPY_CHUNK, left))
            if not chunk:
                break
            left -= len(chunk)
            chunk = tail + chunk
            cut = chunk.rfind(b"\n") + 1
            complete, tail = chunk[:cut], chunk[cut:]
            out.write(complete)
            digest.update(complete)
            written += len(complete)
        out.flush()
        os.fsync(out.fileno())
    return written, digest.hexdigest()


def copy_log_file(directory: Path | str, dest: Path | str) -> dict[str, Any]:
    """Copy the memory log of a store this process does not hold (another process, the
    server, may be writing it): its size is taken once the file is open, and every write
    that process acknowledged before this call is fsynced below that size. A store that
    was never opened has no log: ``{"bytes": 0, ...}`` and no file.

    :return: ``{"bytes", "sha256"}``.
    """
    path = Path(directory) / LOG_NAME
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return {"bytes": 0, "sha256": None}
    with handle:
        size = os.fstat(handle.fileno()).st_size
        written, digest = copy_log_prefix(handle, size, Path(dest))
    return {"bytes": written, "sha256": digest}
