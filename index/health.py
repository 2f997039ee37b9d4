"""Health checks of an open store: is what is on disk what the store holds in memory?

:func:`check` (``MemoryStore.verify``) runs these and repairs what they find. Each check
returns the problem in words, or None when healthy:

* the log file is still the one the store appends to (not deleted or replaced from
  outside while it was open);
* :func:`sidecar_problem`: the checkpoint is missing, covers another log (or more of it
  than exists), or its files do not match their recorded sizes and CRC-32s. The next
  start would then rebuild from the whole log (minutes at 100k memories).
* :func:`replay_copy` and :func:`differences`: the *whole* log is read and replayed into
  a second state (records and vectors only; no hnswlib graph is built) and compared with
  the loaded one. On open only the tail past the checkpoint is replayed, so damage behind
  the checkpoint would otherwise go unnoticed until a rebuild, which would then fail
  (``MEMORY_LOG_CORRUPT``) or silently bring back other memories.

The loaded state is the reference: it comes from a checkpoint whose files passed their
checksums plus the log tail, so a log that disagrees with it is repaired by rewriting the
log from it (compaction).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from .backend import HealthItem
from .engine import Engine
from .errors import LogCorrupt, StoreFailed
from .params import IndexParams
from .log import read_entries
from .recall import LANES
from .sidecar import check_files, read_manifest
from .state import MemoryState

__all__ = ["check", "sidecar_problem", "replay_copy", "catch_up", "differences",
           "LOG_DETACHED", "SIDECAR_MISSING", "SIDECAR_STALE", "REWROTE_LOG", "COMPACTED"]

LOG_DETACHED = ("the memory log file is missing from the directory: it was deleted or "
                "replaced while the store was open (the next start would refuse to open)")
SIDECAR_MISSING = "the memory sidecar is missing (the next start rebuilds it from the log)"
SIDECAR_STALE = ("the memory sidecar is stale: it covers another log or more of it than "
                 "exists (the next start rebuilds it from the log)")
REWROTE_LOG = "rewrote the log from the loaded memories and wrote a fresh sidecar"
COMPACTED = "compacted the log and wrote a fresh sidecar"


def check(engine: Engine, *, repair: bool) -> list[HealthItem]:
    """Check an open store's files against its loaded memories; repair on request.

    Finds: the log file gone from the directory; a log that does not read back (at any
    offset, not only past the checkpoint) or that replays to other memories than the
    loaded ones; a sidecar that is missing, stale or fails its checksums. All are
    fixable, by rewriting the log and sidecar from the loaded memories (a compaction).
    (Memories without vectors are every backend's finding: ``core.MemoryCore.verify``.)

    The whole log is read and replayed outside the engine's lock (records and vectors
    only); the lock is held to compare.

    :return: one item per problem; see :class:`~index.backend.HealthItem`.
    """
    rewrite: list[HealthItem] = []
    log_problem = _log_problem(engine)
    if log_problem is not None:
        rewrite.append({"problem": log_problem, "fixable": True})
    compact: list[HealthItem] = []
    sidecar = _sidecar_problem(engine)
    if sidecar is not None:
        compact.append({"problem": sidecar, "fixable": True})
    if repair and (rewrite or compact):
        _rewrite_files(engine, rewrite, compact)
    return rewrite + compact


def _rewrite_files(engine: Engine, rewrite: list[HealthItem],
                   compact: list[HealthItem]) -> None:
    """Rewrite the log and sidecar from memory; mark the items fixed or failed."""
    try:
        with engine.lock:
            engine.check_open()
            written = engine.compact()
    except StoreFailed as exc:
        for item in rewrite + compact:
            item["fix_failed"] = exc.message
        return
    for item in rewrite:
        item["fixed"], item["fix"] = True, REWROTE_LOG
    for item in compact:
        if written:
            item["fixed"], item["fix"] = True, COMPACTED
        else:
            item["fix_failed"] = "the sidecar could not be written (see the server log)"


def _log_problem(engine: Engine) -> str | None:
    """Read and replay the whole log, then compare it with the loaded memories."""
    with engine.lock:
        engine.check_open()
        opened = engine.log.reader()
        log_id = engine.log.log_id
    if opened is None:
        return LOG_DETACHED
    handle, end = opened
    with handle:
        try:
            copy = replay_copy(handle, end, dim=engine.dim, model_id=engine.model_id,
                               params=engine.params)
        except LogCorrupt as exc:
            return _corrupt(exc)
        with engine.lock:
            engine.check_open()
            if engine.log.log_id != log_id:
                return None   # compacted meanwhile: the log was rewritten from memory
            try:
                catch_up(copy, handle, end, engine.log.size)
            except LogCorrupt as exc:
                return _corrupt(exc)
            differing = differences(engine.state, copy)
    if not differing:
        return None
    return (f"the memory log disagrees with the loaded memories on {len(differing)} "
            f"memories (first: {differing[0]}); a restart that rebuilds from the log "
            "would change them")


def _sidecar_problem(engine: Engine) -> str | None:
    with engine.lock:
        engine.check_open()
        manifest = read_manifest(engine.directory)
        log_id, size = engine.log.log_id, engine.log.size
    problem = sidecar_problem(engine.directory, manifest, log_id=log_id, log_size=size)
    if problem is None:
        return None
    with engine.lock:   # a checkpoint may have replaced the files while they were read
        again = read_manifest(engine.directory)
        if again == manifest:
            return problem
        return sidecar_problem(engine.directory, again, log_id=engine.log.log_id,
                               log_size=engine.log.size)


def sidecar_problem(directory: Path, manifest: dict[str, Any] | None, *, log_id: str,
                    log_size: int) -> str | None:
    """What is wrong with the checkpoint described by ``manifest`` for the log
    ``log_id`` of ``log_size`` bytes, or None.

    A checkpoint covering less than the whole log is healthy: the tail is replayed on
    start and covered by the next checkpoint.
    """
    if manifest is None:
        return SIDECAR_MISSING
    offset = manifest.get("log_offset")
    if manifest.get("log_id") != log_id or not isinstance(offset, int) or offset > log_size:
        return SIDECAR_STALE
    damage = check_files(directory, manifest)
    if damage is not None:
        return (f"the memory sidecar is corrupt: {damage} (the next start rebuilds it from "
                "the log)")
    return None


def _corrupt(exc: LogCorrupt) -> str:
    return (f"the memory log is corrupt at byte {exc.offset}: {exc.reason} (a restart "
            "that rebuilds from the log would fail)")


def _apply(state: MemoryState, entries: Iterator[tuple[dict[str, Any], int]],
           start: int) -> None:
    offset = start
    for entry, end in entries:
        try:
            state.apply(entry)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise LogCorrupt(offset, f"{exc.__class__.__name__}: {exc}") from None
        offset = end


def replay_copy(f: BinaryIO, end: int, *, dim: int, model_id: str,
                params: IndexParams) -> MemoryState:
    """Replay the log read from ``f`` (bytes ``0..end``) into a new state whose hnswlib
    graphs are never built: enough to compare records and vectors.

    :raise LogCorrupt: a line does not parse or does not apply (with its offset).
    """
    state = MemoryState(dim=dim, model_id=model_id, params=params)
    state.lanes.set_deferred(True)
    _apply(state, read_entries(f, 0, end), 0)
    return state


def catch_up(state: MemoryState, f: BinaryIO, start: int, end: int) -> None:
    """Apply the lines appended between ``start`` and ``end`` to a :func:`replay_copy`.

    :raise LogCorrupt: a line does not parse or does not apply.
    """
    _apply(state, read_entries(f, start, end), start)


def differences(loaded: MemoryState, replayed: MemoryState) -> list[str]:
    """Ids of the memories whose record or vectors differ between two states, sorted.

    A memory present in only one of them differs too.
    """
    differing = set(loaded.records).symmetric_difference(replayed.records)
    shared: list[str] = []
    for memory_id, record in loaded.records.items():
        other = replayed.records.get(memory_id)
        if other is None:
            continue
        if other == record:
            shared.append(memory_id)
        else:
            differing.add(memory_id)
    if shared:
        ours = np.array([loaded.labels[m] for m in shared], dtype=np.int64)
        theirs = np.array([replayed.labels[m] for m in shared], dtype=np.int64)
        same = np.ones(len(shared), dtype=bool)
        for lane in LANES:
            a, b = loaded.lanes[lane], replayed.lanes[lane]
            has_a, has_b = _flags(a.has, ours), _flags(b.has, theirs)
            same &= has_a == has_b
            both = np.flatnonzero(has_a & has_b)
            equal = np.all(a.vectors[ours[both]] == b.vectors[theirs[both]], axis=1)
            same[both[~equal]] = False
        differing.update(shared[i] for i in np.flatnonzero(~same))
    return sorted(differing)


def _flags(has: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """``has[labels]``, False for labels past the end (flags grow lazily)."""
    out = np.zeros(len(labels), dtype=bool)
    inside = labels < len(has)
    out[inside] = has[labels[inside]]
    return out
