"""The durable core of one element's store: lock, log, in-memory state, checkpoints.

:class:`Engine` owns the runtime directory (0700, every file 0600; ``files.py``)::

    lock                 flock'ed while a store is open: one writer per element
    memories.jsonl       the op log, source of truth (``log.py``)
    sidecar.json, ...    checkpoint of the in-memory state at a log offset (``sidecar.py``)

Opening takes the element lock (waiting up to ``lock_timeout`` seconds for another
process, then :class:`~index.errors.StoreLocked`), truncates a torn last log line, loads
the sidecar and replays the log past the offset it covers, or, when the sidecar is
missing, corrupt, stale or from another model, rebuilds everything from the log without
re-embedding (``recovery.py``). A log that is missing beside a checkpoint of memories is
refused (:class:`~index.errors.LogMissing`) unless ``restore_log`` asks to write it back
from that checkpoint.

Every change goes through :meth:`Engine.commit` under :attr:`Engine.lock`: the op is
appended to the log (and fsynced when durable) and only then applied to the state through
the code replay uses (``state.py``). Maintenance runs after ops: a checkpoint every
``max(500, memories // 20)`` index changes and a compaction when the log holds more dead
lines than ``max(live memories, 4096)``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from .checkpoint import snapshot_columns, store_entries
from .errors import LogMissing, StoreClosed, StoreFailed
from .files import private_dir
from .params import IndexParams
from .lockfile import ElementLock
from .log import LOG_NAME, MemoryLog, new_header, write_log
from .records import Unappliable
from .recovery import orphaned_checkpoint, recover, restore_checkpoint
from .sidecar import latest_generation, remove_sidecar, write_sidecar

__all__ = ["Engine", "LOG_NAME", "LOCK_NAME", "COMPACT_MIN_DEAD"]

logger = logging.getLogger(__name__)

LOCK_NAME = "lock"
COMPACT_MIN_DEAD = 4096


class Engine:
    """The lock, log and state of one element's runtime directory (see the module docstring).

    Callers hold :attr:`lock` around every use of :attr:`state` and every method below
    except :meth:`close`. ``model_line`` is the ``model`` op to log when the log's vectors
    come from another model than the open embedder's (its ``at`` is the caller's clock).

    :raise StoreLocked, StoreFailed: the element cannot be locked or its directory made.
    :raise LogCorrupt: the log is damaged somewhere other than its last line.
    :raise LogMissing: the log is gone beside a checkpoint of memories (``restore_log``
        off, or the checkpoint cannot be used).
    """

    def __init__(self, directory: Path, *, model_id: str, dim: int, params: IndexParams,
                 lock_timeout: float, checkpoint_every: int | None, restore_log: bool,
                 model_line: dict[str, Any]) -> None:
        self.directory = directory
        self.model_id = model_id
        self.dim = dim
        self.params = params
        self.lock = threading.RLock()
        self._checkpoint_every = checkpoint_every
        self.closed = True
        try:
            private_dir(directory)
        except OSError as exc:
            raise StoreFailed(f"could not prepare {directory}: {exc.strerror}") from None
        self._element_lock = ElementLock(directory / LOCK_NAME, lock_timeout)
        try:
            self._open(restore_log, model_line)
        except BaseException:
            if hasattr(self, "log"):
                self.log.close()
            self._element_lock.release()
            raise
        self.closed = False

    def _open(self, restore_log: bool, model_line: dict[str, Any]) -> None:
        self._generation = latest_generation(self.directory)
        orphan = orphaned_checkpoint(self.directory, self.directory / LOG_NAME)
        if orphan is not None:
            count = orphan.get("count")
            if not restore_log:
                raise LogMissing(count if isinstance(count, int) else None)
            # Load the checkpoint before any log exists (if it cannot be used, nothing on
            # disk has changed), then write the whole log at once: a crash never leaves a
            # log with only a header, which would open as an empty store.
            state = restore_checkpoint(self.directory, orphan, model_id=self.model_id,
                                       dim=self.dim, params=self.params)
            write_log(self.directory / LOG_NAME,
                      new_header(self.model_id, self.dim, next_seq=state.next_seq),
                      store_entries(state))
            state.lines, state.log_model = len(state) + 1, self.model_id
            self.log = self._new_log()
            report: dict[str, Any] = {"torn_bytes": 0, "replayed": 0, "rebuilt": False,
                                      "sidecar": "loaded", "log_restored": len(state),
                                      "skipped": []}
        else:
            self.log = self._new_log()
            state, report = recover(self.directory, self.log, model_id=self.model_id,
                                    dim=self.dim, params=self.params)
        self.state = state
        self._tail = report["replayed"]
        self._dirty = report["replayed"] > 0
        if state.log_model != self.model_id:
            self.commit([model_line])
        report["stale_vectors"] = state.stale_vectors
        report["memories"] = len(state)
        report["unembedded"] = len(state.unembedded)
        if report["skipped"]:
            logger.warning("the memory log of %s held %d lines that can never apply; they "
                           "are left out and the log is rewritten without them: %s",
                           self.directory, len(report["skipped"]),
                           "; ".join(report["skipped"][:5]))
        if state.saw_forget or report["skipped"]:
            # A forget_subject was logged but its compaction did not finish: finish it now,
            # so the forgotten text leaves the disk. Lines that cannot apply go the same way.
            self.compact()
        elif report["rebuilt"] or orphan is not None or \
                self._tail >= self._checkpoint_interval():
            self.checkpoint()
        self.open_report = report

    def _new_log(self) -> MemoryLog:
        return MemoryLog(self.directory / LOG_NAME, model_id=self.model_id, dim=self.dim)

    def check_open(self) -> None:
        """:raise StoreClosed: after :meth:`close`."""
        if self.closed:
            raise StoreClosed()

    def close(self) -> None:
        """Checkpoint if anything changed, close the log and release the element (idempotent).

        A log deleted from the directory while the store was open is first written back
        from memory, so the next start finds it.
        """
        with self.lock:
            if self.closed:
                return
            self.closed = True
            try:
                if self.log.detached():
                    logger.warning("the memory log of %s vanished; writing it back",
                                   self.directory)
                    self.compact()
                elif self._dirty:
                    self.checkpoint()
            except StoreFailed as exc:
                logger.warning("memory store close could not write: %s", exc.message)
            finally:
                self.log.close()
                self._element_lock.release()

    # -- changes -------------------------------------------------------------------------

    def commit(self, entries: list[dict[str, Any]], *, durable: bool = True) -> None:
        """Log ``entries`` (fsynced when ``durable``), then apply them to the state.

        Each op is checked first (``MemoryState.check``): one that could not apply is never
        logged, since a line in the log that cannot apply would stop the element opening.
        Should applying fail anyway, the log is cut back to where it was.

        :raise StorageFull, StoreFailed: nothing was logged or applied.
        """
        for entry in entries:
            try:
                self.state.check(entry)
            except Unappliable as exc:
                raise StoreFailed(f"refused to log an op that cannot apply: {exc}") from None
        start = self.log.size
        self.log.append(entries, durable=durable)
        try:
            for entry in entries:
                self.state.apply(entry)
                if entry["op"] not in ("access", "model"):
                    self._tail += 1
        except Exception as exc:
            self.rollback(start)
            raise StoreFailed(f"an op failed to apply and was taken back out of the log "
                              f"({exc.__class__.__name__}: {exc})") from exc
        self._dirty = True

    def rollback(self, size: int) -> None:
        """Undo a group commit that failed part way: cut the log back to ``size`` and
        reload the state from disk (the applied part of the group is in memory only).

        :raise StoreFailed: the log could not be cut back (it refuses appends until the
            store is reopened).
        """
        try:
            self.log.cut_back(size)
        finally:
            self.state, report = recover(self.directory, self.log, model_id=self.model_id,
                                         dim=self.dim, params=self.params)
            self._tail = report["replayed"]
            self._dirty = True

    def maintain(self) -> None:
        """Compact or checkpoint when due; failures are logged, never raised to the op."""
        try:
            if self.state.dead_lines > max(len(self.state), COMPACT_MIN_DEAD):
                self.compact()
            elif self._tail >= self._checkpoint_interval():
                self.checkpoint()
        except StoreFailed as exc:
            logger.warning("memory store maintenance failed: %s", exc.message)

    def _checkpoint_interval(self) -> int:
        if self._checkpoint_every is not None:
            return self._checkpoint_every
        return max(500, len(self.state) // 20)

    def checkpoint(self) -> bool:
        """Save the sidecar at the log's end; False (logged) when it could not be written."""
        try:
            self.log.sync()
            state = self.state
            meta = {"generation": self._generation + 1, "log_id": self.log.log_id,
                    "log_offset": self.log.size, "log_lines": state.lines,
                    "model_id": self.model_id, "dim": self.dim,
                    "log_model": state.log_model, "next_seq": state.next_seq,
                    "high_water": state.slots.high_water, "count": len(state)}
            write_sidecar(self.directory, meta, snapshot_columns(state), state.lanes,
                          state.lexical)
        except (OSError, StoreFailed, RuntimeError) as exc:
            logger.warning("memory sidecar checkpoint failed (the log is intact): %s", exc)
            return False
        self._generation += 1
        self._tail = 0
        self._dirty = False
        return True

    def compact(self) -> bool:
        """Rewrite the log from the state, then checkpoint; False when the checkpoint failed.

        :raise StorageFull, StoreFailed: the log could not be rewritten (it is unchanged).
        """
        state = self.state
        self.log.rewrite(store_entries(state), model_id=self.model_id, dim=self.dim,
                         next_seq=state.next_seq)
        state.lines = len(state) + 1
        state.log_model = self.model_id
        state.saw_forget = False
        self._dirty = True
        if self.checkpoint():
            return True
        # The old checkpoint covers a log that no longer exists (and may hold text a
        # forget_subject just removed): drop it rather than leave it behind.
        remove_sidecar(self.directory)
        return False
