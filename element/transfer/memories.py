"""The memory export format (NDJSON) and its import, checked whole before anything is written.

An export is UTF-8 text, one JSON object a line, each line ending in ``\\n``::

    {"format": "triform-memories", "version": 1, "element": "demo/memory",
     "model": "<model id>", "dim": 384, "count": 2, "vectors": false,
     "exported_at": "...", "filters": {...}, "forgotten": [...]}
    {"id": "...", "content": "...", "category": "fact", ..., "access_count": 3}
    {"id": "...", ...,  "vectors": {"content": "<base64 float32>", ...}}

The header's ``count`` is the number of memory lines that follow, so a file cut at a line
boundary is caught; a file cut inside a line is caught by that line not being JSON.
``forgotten`` lists the subjects the source element had forgotten (with when): an import
drops their memories created until then, as it does for the target's own list.

:func:`read_import` validates every line (JSON, fields, duplicate ids, the header's count)
before the import writes anything; :func:`import_into` then writes the memories oldest
first (the file is newest first, as ``list``), all of them or none (one fsync, or one
database transaction).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from index import (
    ImportedMemory,
    Memory,
    MemoryBackend,
    MemorySettings,
    StoreError,
    encode_vector,
    validate_imported,
)

from ..catalog import Catalog, Element, now_iso
from ..errors import ImportInvalid

__all__ = ["FORMAT", "VERSION", "export_lines", "export_header", "memory_lines",
           "read_import", "check_lines", "import_into", "ParsedImport"]

FORMAT = "triform-memories"
VERSION = 1


def _line(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def export_lines(store: MemoryBackend, element: Element, catalog: Catalog, *,
                 vectors: bool, filters: Mapping[str, Any]) -> tuple[int, Iterator[bytes]]:
    """``(count, lines)``: the header and one line per memory, as the iterator is read.

    :raise InvalidMemory, InvalidCategory, SubjectIncomplete: a bad filter (now, not
        while streaming).
    """
    count, memories = store.export(vectors=vectors, **filters)
    header = export_header(element.path, model=store.model_id, dim=store.dim, count=count,
                           vectors=vectors, filters=filters,
                           forgotten=catalog.forgotten(element.id))
    return count, memory_lines(header, memories)


def export_header(element: str, *, model: str | None, dim: int | None, count: int,
                  vectors: bool, filters: Mapping[str, Any],
                  forgotten: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The first line of an export (see the module docstring)."""
    return {"format": FORMAT, "version": VERSION, "element": element, "model": model,
            "dim": dim, "count": count, "vectors": vectors, "exported_at": now_iso(),
            "filters": dict(filters),
            "forgotten": [{k: row[k] for k in ("subject_type", "subject_id", "at")}
                          for row in forgotten]}


def memory_lines(header: Mapping[str, Any], memories: Iterable[Memory]) -> Iterator[bytes]:
    """The header's line, then one line per memory; vectors given as arrays are encoded
    (base64 float32), those given encoded already are kept."""
    yield _line(header)
    for memory in memories:
        lanes = memory.pop("vectors", None)
        if lanes:
            memory["vectors"] = {lane: v if isinstance(v, str) else encode_vector(v)
                                 for lane, v in lanes.items()}
        yield _line(memory)


@dataclass(frozen=True)
class ParsedImport:
    """A checked import: its header and where each memory line is (re-read to write)."""

    header: dict[str, Any]
    lines: list[bytes]          # the memory lines, newest first, as in the file
    model: str | None
    count: int                  # memory lines (also when they were not kept)
    ids: frozenset[str]         # the memories' ids


def _json(raw: bytes, number: int) -> Any:
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, ValueError) as exc:
        raise ImportInvalid(number, f"is not a JSON object ({exc.__class__.__name__}); "
                            "a file cut short ends like this") from None


def read_import(raw: bytes, *, dim: int, model_id: str) -> ParsedImport:
    """Check a whole export: its header, every memory line, no id twice, and the count.

    :raise ImportInvalid: naming the first bad line; nothing is written.
    """
    if not raw.strip():
        raise ImportInvalid(0, "the body is empty: expected an export (NDJSON: a header "
                            "line, then one memory a line)")
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return check_lines(lines, dim=dim, model_id=model_id)


def check_lines(lines: Iterable[bytes], *, dim: int | None, model_id: str | None,
                keep: bool = True) -> ParsedImport:
    """:func:`read_import` over lines (without their ``\\n``) as they are read: a file
    of any size is checked in one pass. ``keep``: keep the memory lines (to write them);
    without it only the count and the ids stay in memory.

    :raise ImportInvalid: naming the first bad line.
    """
    numbered = iter(lines)
    first = next(numbered, None)
    if first is None:
        raise ImportInvalid(0, "the body is empty: expected an export (NDJSON: a header "
                            "line, then one memory a line)")
    header = _json(first, 1)
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ImportInvalid(1, f"is not the header of a memory export (format "
                            f"{FORMAT!r} expected)")
    if header.get("version") != VERSION:
        raise ImportInvalid(1, f"format version {header.get('version')!r}; this server "
                            f"reads version {VERSION}")
    count = header.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ImportInvalid(1, "count must be a non-negative integer")
    model = header.get("model")
    model = model if isinstance(model, str) else None
    same_model = model == model_id
    body: list[bytes] = []
    seen: dict[str, int] = {}
    read = 0
    for read, text in enumerate(numbered, start=1):
        number = read + 1
        if not text.strip():
            raise ImportInvalid(number, "is empty")
        try:
            item = validate_imported(_json(text, number), dim=dim if same_model else None)
        except StoreError as exc:
            raise ImportInvalid(number, exc.message) from None
        first_seen = seen.setdefault(item.id, number)
        if first_seen != number:
            raise ImportInvalid(number, f"memory {item.id} is already on line {first_seen}")
        if keep:
            body.append(text)
    if read != count:
        raise ImportInvalid(0, f"the header announces {count} memories and the file holds "
                            f"{read}: it was cut short (or added to); nothing imported")
    return ParsedImport(header, body, model, read, frozenset(seen))


def _ts(value: str) -> float:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()


def forgotten_before(rows: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], float]:
    """Subject -> the latest time it was forgotten, from rows of ``Catalog.forgotten`` or
    an export header's ``forgotten`` (malformed rows are ignored)."""
    out: dict[tuple[str, str], float] = {}
    for row in rows:
        try:
            subject = (str(row["subject_type"]), str(row["subject_id"]))
            at = _ts(str(row["at"]))
        except (KeyError, TypeError, ValueError):
            continue
        out[subject] = max(at, out.get(subject, at))
    return out


def import_into(store: MemoryBackend, parsed: ParsedImport, *, settings: MemorySettings,
                forgotten: Mapping[tuple[str, str], float]) -> dict[str, Any]:
    """Write a checked import, oldest first, all or nothing (one ``import_memories``).

    A memory about a subject forgotten (here or at the source) at or after its creation
    is not imported (``forgotten`` counts them). A memory whose id is present is skipped.

    :return: ``{"imported", "skipped", "evicted", "forgotten", "embedded_here",
        "errors"}`` (counts; ``errors`` lists memories stored without vectors, because
        the embedder failed, by id).
    :raise MemoryCapacity: the element is full and the pool that must give way is empty;
        nothing was imported (nor any other refusal of the write: issue 26).
    """
    answer: dict[str, Any] = {"imported": 0, "skipped": 0, "evicted": 0, "forgotten": 0,
                              "embedded_here": 0, "errors": []}
    items: list[ImportedMemory] = []
    for text in reversed(parsed.lines):
        item = validate_imported(json.loads(text),
                                 dim=store.dim if parsed.model == store.model_id else None)
        subject = item.subject
        if subject is not None and subject in forgotten and \
                _ts(item.record["created_at"]) <= forgotten[subject]:
            answer["forgotten"] += 1
            continue
        items.append(item)
    try:
        result = store.import_memories(items, model_id=parsed.model, settings=settings)
    except StoreError as exc:
        exc.message = f"{exc.message}; nothing was imported (an import is all or nothing)"
        exc.args = (exc.message,)
        raise
    answer["imported"] = len(result.imported)
    answer["skipped"] = len(result.skipped)
    answer["evicted"] = len(result.evicted)
    answer["embedded_here"] = result.embedded_here
    answer["errors"] = [{"id": memory_id, "code": "MEMORY_EMBEDDING_FAILED"}
                        for memory_id in result.unembedded]
    return answer
