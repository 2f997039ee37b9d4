"""Recovery on open: load the sidecar checkpoint and replay the log tail, or rebuild.

:func:`recover` returns the in-memory state and a report:

* the sidecar is used when it matches the log and the embedder (``sidecar.py``) and its
  offset is a line boundary of the log; the log is then replayed from that offset;
* otherwise, or when replaying the tail fails (the checkpoint disagrees with the log: the
  log alone decides), the state is rebuilt by replaying the whole log. The log lines
  carry the vectors, so nothing is re-embedded; hnswlib is built in one multi-threaded
  batch at the end (deferred mode).

Report: ``{"torn_bytes", "replayed": <log lines applied>, "rebuilt": bool, "sidecar":
"loaded" | "missing" | "corrupt: ..." | "stale: ..." | "other model: ...", "skipped":
[lines left out because they can never apply, each "byte N: why"]}``.

A log that is missing (or empty) beside a checkpoint holding memories is never taken for
an empty store: :func:`orphaned_checkpoint` finds that case before the log is created, and
:func:`restore_checkpoint` loads the checkpoint alone so the store can write the log back
from it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .checkpoint import restore
from .errors import LogCorrupt, LogMissing
from .params import IndexParams
from .log import MemoryLog
from .records import Unappliable
from .sidecar import MANIFEST, SidecarUnusable, read_manifest, read_sidecar
from .state import MemoryState

__all__ = ["recover", "replay", "orphaned_checkpoint", "restore_checkpoint"]


def recover(directory: Path, log: MemoryLog, *, model_id: str, dim: int,
            params: IndexParams) -> tuple[MemoryState, dict[str, Any]]:
    """Build the state of ``directory`` from its checkpoint and log.

    :raise LogCorrupt: the log itself is damaged before its last line.
    """
    report: dict[str, Any] = {"torn_bytes": log.torn_bytes, "replayed": 0,
                              "rebuilt": False, "sidecar": "loaded", "skipped": []}
    state: MemoryState | None = None
    start = 0
    try:
        state, start = _load(directory, log_id=log.log_id, model_id=model_id, dim=dim,
                             params=params, log=log)
    except SidecarUnusable as exc:
        report["sidecar"] = exc.reason
    if state is not None:
        try:
            report["replayed"] = replay(state, log, start, report["skipped"])
        except LogCorrupt as exc:
            report["sidecar"], state = f"corrupt: replay failed ({exc.reason})", None
        if report["skipped"]:
            # Past a checkpoint, a line that cannot apply may mean the checkpoint and the
            # log disagree (a memory stored twice): the log alone decides what is left out.
            report["sidecar"] = "corrupt: the log past it holds lines that cannot apply"
            state = None
    if state is None:
        state = MemoryState(dim=dim, model_id=model_id, params=params)
        report["rebuilt"], report["skipped"] = True, []
        report["replayed"] = replay(state, log, 0, report["skipped"])
    return state, report


def _load(directory: Path, *, log_id: str, model_id: str, dim: int, params: IndexParams,
          log: MemoryLog | None) -> tuple[MemoryState, int]:
    """The checkpoint of the log ``log_id`` as a state, and the log offset it covers.

    :raise SidecarUnusable: with the reason it cannot be used.
    """
    sidecar = None
    try:
        sidecar = read_sidecar(directory, log_id=log_id, model_id=model_id, dim=dim)
        start = int(sidecar.meta["log_offset"])
        if log is not None and not log.is_line_start(start):
            raise SidecarUnusable("stale: its offset is not a line of the log")
        state = MemoryState(dim=dim, model_id=model_id, params=params)
        restore(state, sidecar.meta, sidecar.columns, sidecar.lane_files,
                sidecar.lexical_file, sidecar.verify)
        return state, start
    except (ValueError, KeyError, TypeError, RuntimeError, OSError) as exc:
        raise SidecarUnusable(f"corrupt: {exc.__class__.__name__}: {exc}") from None
    finally:
        if sidecar is not None:
            sidecar.checker.join()   # never leave the checksum thread reading behind us


def replay(state: MemoryState, log: MemoryLog, start: int,
           skipped: list[str] | None = None) -> int:
    """Apply every log line from byte ``start``; return how many were applied.

    A line that reads as an op but can never apply (``Unappliable``: a count past 2^63,
    a time no one can order; written before the store checked every op before logging it,
    issue 26) is left out, and described in ``skipped``: refusing to open over it would
    make the element unusable for good, and what it held was never stored.

    :raise LogCorrupt: a line does not parse or fails while applying (with its offset).
    """
    state.lanes.set_deferred(True)
    count, offset = 0, start
    for entry, end in log.entries(start):
        try:
            state.apply(entry)
        except Unappliable as exc:
            state.lines += 1            # a dead line: the next compaction drops it
            if skipped is not None:
                skipped.append(f"byte {offset}: {exc}")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise LogCorrupt(offset, f"{exc.__class__.__name__}: {exc}") from None
        else:
            count += 1
        offset = end
    state.lanes.set_deferred(False)
    return count


def orphaned_checkpoint(directory: Path, log_path: Path) -> dict[str, Any] | None:
    """The manifest of a checkpoint whose log is gone, or None when there is nothing to lose.

    The log counts as gone when the file is missing or empty. Nothing is lost when there
    is no manifest, or it says the checkpoint holds no memories; a manifest that does not
    parse may still sit beside readable files, so it counts as a checkpoint (``{}``).
    """
    try:
        if log_path.stat().st_size > 0:
            return None
    except FileNotFoundError:
        pass
    if not (directory / MANIFEST).exists():
        return None
    manifest = read_manifest(directory)
    if manifest is None:
        return {}
    return None if manifest.get("count") == 0 else manifest


def restore_checkpoint(directory: Path, manifest: dict[str, Any], *, model_id: str, dim: int,
                       params: IndexParams) -> MemoryState:
    """Load an orphaned checkpoint (:func:`orphaned_checkpoint`) without its log.

    :raise LogMissing: the checkpoint cannot be used (corrupt, or built with another
        model than ``model_id``); nothing was changed.
    """
    count = manifest.get("count")
    memories = count if isinstance(count, int) else None
    try:
        state, _ = _load(directory, log_id=str(manifest.get("log_id")), model_id=model_id,
                         dim=dim, params=params, log=None)
    except SidecarUnusable as exc:
        raise LogMissing(memories, unusable=exc.reason) from None
    return state
