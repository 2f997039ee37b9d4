"""Recovery on open: load the sidecar checkpoint and replay the log tail, or rebuild.

:func:`recover` returns the in-memory state and a report:

* the sidecar is used when it matches the log and the embedder (``sidecar.py``) and its
  offset is a line boundary of the log; the log is then replayed from that offset;
* otherwise, or when replaying the tail fails (the checkpoint disagrees with the log: the
  log alone decides), the state is rebuilt by replaying the whole log. The log lines
  carry the vectors, so nothing is re-embedded; hnswlib is built in one multi-threaded
  batch at the end (deferred mode).

Report: ``{"torn_bytes", "replayed": <log lines applied>, "rebuilt": bool, "sidecar":
"loaded" | "missing" | "corrupt: ..." | "stale: ..." | "other model: ..."}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import LogCorrupt
from .lanes import IndexParams
from .log import MemoryLog
from .sidecar import SidecarUnusable, read_sidecar
from .state import MemoryState

__all__ = ["recover", "replay"]


def recover(directory: Path, log: MemoryLog, *, model_id: str, dim: int,
            params: IndexParams) -> tuple[MemoryState, dict[str, Any]]:
    """Build the state of ``directory`` from its checkpoint and log.

    :raise LogCorrupt: the log itself is damaged before its last line.
    """
    report: dict[str, Any] = {"torn_bytes": log.torn_bytes, "replayed": 0,
                              "rebuilt": False, "sidecar": "loaded"}

    def fresh() -> MemoryState:
        return MemoryState(dim=dim, model_id=model_id, params=params)

    state: MemoryState | None = None
    start = 0
    sidecar = None
    try:
        sidecar = read_sidecar(directory, log_id=log.log_id, model_id=model_id, dim=dim)
        start = int(sidecar.meta["log_offset"])
        if not log.is_line_start(start):
            raise SidecarUnusable("stale: its offset is not a line of the log")
        state = fresh()
        state.restore(sidecar.meta, sidecar.columns, sidecar.lane_files, sidecar.lexical_file,
                      sidecar.verify)
    except SidecarUnusable as exc:
        report["sidecar"], state = exc.reason, None
    except (ValueError, KeyError, TypeError, RuntimeError, OSError) as exc:
        report["sidecar"], state = f"corrupt: {exc.__class__.__name__}: {exc}", None
    finally:
        if sidecar is not None:
            sidecar.checker.join()   # never leave the checksum thread reading behind us
    if state is not None:
        try:
            report["replayed"] = replay(state, log, start)
        except LogCorrupt as exc:
            report["sidecar"], state = f"corrupt: replay failed ({exc.reason})", None
    if state is None:
        state = fresh()
        report["rebuilt"] = True
        report["replayed"] = replay(state, log, 0)
    return state, report


def replay(state: MemoryState, log: MemoryLog, start: int) -> int:
    """Apply every log line from byte ``start``; return how many were applied.

    :raise LogCorrupt: a line does not parse or does not apply (with its offset).
    """
    state.lanes.set_deferred(True)
    count, offset = 0, start
    for entry, end in log.entries(start):
        try:
            state.apply(entry)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise LogCorrupt(offset, f"{exc.__class__.__name__}: {exc}") from None
        count += 1
        offset = end
    state.lanes.set_deferred(False)
    return count
