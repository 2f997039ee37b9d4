"""The append-only JSONL op log: the source of truth for one element's memories.

One line per mutation, UTF-8 JSON, ``\\n``-terminated. The first line is a header; every
other line is one op (see ``docs/memory-runtime.md`` for every field)::

    {"op":"header","format":1,"log_id":"<hex>","model_id":"...","dim":384,"next_seq":0,...}
    {"op":"model","model_id":"...","dim":384,"at":"..."}          vectors below come from it
    {"op":"store","record":{...},"key":null,"evicted":[],"warnings":[],"vectors":{...}}
    {"op":"update","id":"...","fields":{...},"embedded":true,"vectors":{"content":"..."}}
    {"op":"delete","ids":["..."],"reason":"delete|expire|forget"}
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
import json
import os
import uuid
from pathlib import Path
from typing import Any, Iterable, Iterator

import numpy as np

from .errors import LogCorrupt, StoreFailed

__all__ = ["LOG_FORMAT", "MemoryLog", "encode_line", "decode_line", "encode_vector",
           "decode_vector", "fsync_path"]

LOG_FORMAT = 1
_TAIL_CHUNK = 1 << 16


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


def fsync_path(path: Path) -> None:
    """fsync a file or a directory (for a directory: so a create or rename is durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self.size = os.fstat(self._fd).st_size
        if self.size == 0:
            self.header = self._new_header(model_id, dim, next_seq=0)
            self.append([self.header])
            fsync_path(self.path.parent)
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
            f.seek(start)
            offset = start
            for raw in f:
                end = offset + len(raw)
                if end > self.size:
                    break   # appended after we looked; not ours to replay
                try:
                    entry = decode_line(raw)
                except (ValueError, UnicodeDecodeError) as exc:
                    raise LogCorrupt(offset, f"unreadable line ({exc.__class__.__name__})") \
                        from None
                yield entry, end
                offset = end

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
    def _last_newline_end(f: Any, end: int) -> int:
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
            raise StoreFailed(f"could not write the memory log: {exc.strerror or exc}") \
                from None
        self.size = before + len(data)
        return self.size

    def sync(self) -> None:
        """fsync everything written so far (makes pending access lines durable)."""
        try:
            os.fsync(self._fd)
        except OSError as exc:
            raise StoreFailed(f"could not fsync the memory log: {exc.strerror or exc}") \
                from None

    def _cut_back(self, size: int) -> None:
        try:
            os.ftruncate(self._fd, size)
            os.fsync(self._fd)
        except OSError:
            self._broken = True

    def rewrite(self, entries: Iterable[dict[str, Any]], *, model_id: str, dim: int,
                next_seq: int) -> None:
        """Replace the log with a new header plus ``entries`` (compaction).

        Writes ``memories.jsonl.compact`` beside the log, fsyncs it, renames it over the
        log and fsyncs the directory: at every instant one complete log is on disk.
        """
        header = self._new_header(model_id, dim, next_seq=next_seq)
        tmp = self.path.with_name(self.path.name + ".compact")
        try:
            with open(tmp, "wb") as f:
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
            os.replace(tmp, self.path)
            fsync_path(self.path.parent)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise StoreFailed(f"could not compact the memory log: {exc.strerror or exc}") \
                from None
        os.close(self._fd)
        self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)
        self.size = os.fstat(self._fd).st_size
        self.header = header
        self._broken = False

    @staticmethod
    def _new_header(model_id: str, dim: int, *, next_seq: int) -> dict[str, Any]:
        return {"op": "header", "format": LOG_FORMAT, "log_id": uuid.uuid4().hex,
                "model_id": model_id, "dim": int(dim), "next_seq": int(next_seq)}

    def close(self) -> None:
        """fsync and close the file (idempotent)."""
        if self._fd >= 0:
            try:
                os.fsync(self._fd)
            except OSError:
                pass
            os.close(self._fd)
            self._fd = -1
