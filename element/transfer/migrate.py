"""Copy a home from one backend to the other: its catalog (``catalog.db`` and PostgreSQL)
and its memories (the files under ``runtime/`` and PostgreSQL); ``triform migrate``,
docs/deploy.md. Git repositories stay where they are, in the home folder.

The catalog goes first, whole (``catalog/transfer.py``: the target becomes a copy, checked
table by table, and a target that is ahead of the source is refused), so the target knows
every element before its memories arrive. Each memory element's memories travel whole
(ids, texts, subjects, times, access statistics and vectors: nothing is embedded again
when both sides use one model) through the export format of ``memories.py``, then are
checked: every id of the source must be read back from the target. Both copies are
re-runnable (a catalog table that matches is not written, a memory the target holds as
the source does is skipped) and leave the source as it was, so a home goes back by
serving without ``--database`` until the target is trusted.

A memory the target holds under the same id is compared (:func:`_compare`): the same
memory (created at the same time, about the same subject) changed at the source since the
last copy (updated, superseded, retired: the catalog's copy has refused a target served
since, so the source's version is the newer) is *replaced* by the source's, history
included; one that says the same is skipped (access statistics are not compared: a
memory only searched at the source is not rewritten for them); a *different*
memory under that id (another creation time or subject: an import made the id twice) is
a conflict, left as it is in the target and reported by id, and the run fails.

A failure never costs the target a memory it held (the source is never written): the
memories new to the target are imported first, all or nothing, so a refusal there
(``MEMORY_CAPACITY``: a cap lowered since) leaves the target as it was; only then are the
older versions swapped for the newer, which adds no memory, so no cap applies to it, and
should that import fail anyway (the disk, the database), the older versions, read before
they left, are put back.

Text holding a NUL, which files written before issue 26 may hold and PostgreSQL cannot,
is carried with U+FFFD in its place (counted).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from typing import Any

from index import MAX_CAP, ImportedMemory, MemoryBackend, MemorySettings, validate_imported

from ..catalog import copy_catalog
from ..home import Home
from .memories import (ParsedImport, export_lines, forgotten_before, import_into,
                       memory_lines, read_import)

__all__ = ["migrate_catalog", "migrate_memories", "storable", "NUL_STANDIN"]


def migrate_catalog(source: Home, target: Home) -> dict[str, Any]:
    """Make ``target``'s catalog a copy of ``source``'s (see ``copy_catalog``).

    :raise CatalogAhead: the target recorded activity after the source's newest event.
    """
    return copy_catalog(source.catalog, target.catalog)


def _ids(store: MemoryBackend) -> set[str]:
    _, memories = store.export()
    return {str(memory["id"]) for memory in memories}


#: What a memory's comparison leaves out: its vectors (a copy's may be of another model),
#: whether it is embedded (the target may embed what the source could not), and its
#: access statistics (not brought over).
_NOT_COMPARED = ("vectors", "embedded", "access_count", "last_accessed_at")
#: What makes two memories under one id the same memory (else: a conflict).
_IDENTITY = ("created_at", "subject_type", "subject_id")


def _compare(lines: Iterable[bytes], dest: MemoryBackend) -> tuple[list[str], list[str]]:
    """Of the source's memory ``lines``, the ids the target holds as another version of
    the same memory (to replace) and those it holds as a different memory (conflicts)."""
    _, memories = dest.export()
    held = {str(memory["id"]): memory for memory in memories}
    replace, conflicts = [], []
    for line in lines:
        memory = json.loads(line)
        there = held.get(str(memory["id"]))
        if there is None:
            continue
        if any(memory.get(key) != there.get(key) for key in _IDENTITY):
            conflicts.append(str(memory["id"]))
        elif {k: v for k, v in memory.items() if k not in _NOT_COMPARED} != \
                {k: v for k, v in there.items() if k not in _NOT_COMPARED}:
            replace.append(str(memory["id"]))
    return replace, conflicts


def _held(dest: MemoryBackend, ids: list[str]) -> list[ImportedMemory]:
    """The target's own versions of ``ids``, vectors included, oldest first, as an import
    takes them back."""
    wanted = set(ids)
    _, memories = dest.export(vectors=True)
    lines = memory_lines({}, (m for m in memories if str(m["id"]) in wanted))
    next(lines)         # the (empty) header
    return [validate_imported(json.loads(line), dim=dest.dim)
            for line in reversed(list(lines))]


def _only(parsed: ParsedImport, ids: Iterable[str]) -> ParsedImport:
    """``parsed`` cut down to the memories ``ids``."""
    wanted = set(ids)
    lines = [line for line in parsed.lines if str(json.loads(line)["id"]) in wanted]
    return dataclasses.replace(parsed, lines=lines, count=len(lines),
                               ids=frozenset(wanted & parsed.ids))


def _swap(dest: MemoryBackend, parsed: ParsedImport, renewed: list[str],
          forgotten: dict[tuple[str, str], float]) -> dict[str, Any]:
    """Replace the target's older versions of ``renewed`` by the source's (in ``parsed``):
    each out, then the newer ones imported with no cap (a version replaced adds no
    memory). Should the import fail, the older versions are imported back before the
    error propagates: the target is left as it was."""
    older = _held(dest, renewed)
    uncapped = MemorySettings(max_memories=MAX_CAP, max_per_subject=MAX_CAP)
    for memory_id in renewed:
        # A replacement, not a takeback: what it superseded keeps naming it (same id).
        dest.delete(memory_id, hand_on=False)
    try:
        return import_into(dest, _only(parsed, renewed), settings=uncapped,
                           forgotten=forgotten)
    except BaseException:
        dest.import_memories(older, model_id=dest.model_id, settings=uncapped)
        raise


#: What a NUL in the files' text becomes in the copy (PostgreSQL keeps NUL in no text
#: column; since issue 26 no backend takes one, but files written before hold some).
NUL_STANDIN = "\ufffd"


def storable(value: Any) -> Any:
    """``value`` (JSON data) with every NUL in its text, keys included, made
    :data:`NUL_STANDIN`."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_STANDIN)
    if isinstance(value, list):
        return [storable(item) for item in value]
    if isinstance(value, dict):
        return {storable(key): storable(item) for key, item in value.items()}
    return value


def _storable_lines(lines: Iterable[bytes], replaced: list[int]) -> Iterator[bytes]:
    """An export's lines, each memory line holding a NUL rewritten (counted in
    ``replaced[0]``). JSON always escapes a NUL, so the test on the bytes is exact."""
    for number, line in enumerate(lines):
        if number and b"\\u0000" in line:
            replaced[0] += 1
            line = json.dumps(storable(json.loads(line)), ensure_ascii=False,
                              separators=(",", ":")).encode("utf-8") + b"\n"
        yield line


def migrate_memories(source: Home, target: Home) -> list[dict[str, Any]]:
    """Copy every memory element's memories from ``source`` to ``target`` (one home's
    folder opened on each backend). Returns, per element: ``path``, ``memories`` (in the
    source), ``imported`` (new to the target), ``replaced`` (the target's older version
    of a memory replaced by the source's), ``skipped`` (already there as at the source),
    ``conflicts`` (ids the target holds as a different memory: left there, not copied),
    ``evicted`` (a cap lowered since), ``forgotten`` (of a forgotten subject),
    ``nul_replaced`` (memories whose text held a NUL, carried with U+FFFD in its place)
    and ``missing`` (source ids the target lacks after the copy: the check; 0 when all
    went well).

    :raise ImportInvalid, StoreError: a store cannot be read or written; elements before
        it are copied (run again to go on).
    """
    report: list[dict[str, Any]] = []
    for element in source.catalog.elements():
        if element.element_type != "memory" or element.state == "deleted":
            continue
        with source.memory_store(element) as origin, target.memory_store(element) as dest:
            _, lines = export_lines(origin, element, source.catalog, vectors=True,
                                    filters={})
            replaced = [0]
            parsed = read_import(b"".join(_storable_lines(lines, replaced)), dim=dest.dim,
                                 model_id=dest.model_id)
            settings = MemorySettings.from_properties(
                target.properties_for(element, target.env))
            renewed, conflicts = _compare(parsed.lines, dest)
            forgotten = forgotten_before(target.catalog.forgotten(element.id))
            # New memories first, all or nothing: a refusal leaves the target as it was.
            answer = import_into(dest, _only(parsed, sorted(parsed.ids - set(renewed))),
                                 settings=settings, forgotten=forgotten)
            swapped = _swap(dest, parsed, renewed, forgotten) if renewed else \
                {"evicted": 0, "forgotten": 0}
            missing = _ids(origin) - _ids(dest)
        report.append({"path": element.path, "memories": len(parsed.lines),
                       "imported": answer["imported"], "replaced": len(renewed),
                       "skipped": answer["skipped"] - len(conflicts),
                       "conflicts": conflicts,
                       **{key: answer[key] + swapped[key] for key in ("evicted",
                                                                        "forgotten")},
                       "nul_replaced": replaced[0], "missing": len(missing)})
    return report
