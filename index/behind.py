"""Embedding behind the write: a background thread that gives a store's memories their vectors.

A write made with ``embed_later=True`` (the subconscious's ``observe``) is acknowledged once
the memory is durable *without* vectors, and wakes the store's :class:`EmbedBehind`, which
runs the store's own ``repair_embeddings``: every memory still without vectors, up to
``REPAIR_BATCH`` memories (all their lanes) per model call. Until it has run, searches
find the memory by text (the fallback every backend has for memories without vectors).

Why a thread of the store's own, and no queue of work: what is pending is exactly what the
store knows to be unembedded (the file store's ``state.unembedded``, the database's
``NOT embedded`` rows), durable with the memory itself. So a crash, or a close before the
thread got to them, loses nothing: whoever opens the store next finds them unembedded and
embeds them again (a store opened with ``repair_on_open``, as the home's are, wakes its
thread at once). The thread only needs to know *that* something is pending: a counter of
requests (``wake``), and the last request a finished pass covered.

Lifecycle: the thread is started by the first wake and ends after ``IDLE_EXIT`` seconds
with nothing to do (an idle store holds no thread); :meth:`EmbedBehind.close` (the store's
``close``) stops it, letting a batch already computed be committed first. A failing model
is never an error to a writer: the pass is logged and tried again after a pause that
doubles from ``RETRY_FIRST`` up to ``RETRY_MAX`` seconds, for as long as the store is open.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from .errors import StoreClosed

__all__ = ["EmbedBehind", "IDLE_EXIT", "RETRY_FIRST", "RETRY_MAX", "CLOSE_WAIT"]

logger = logging.getLogger(__name__)

#: Seconds without work after which the thread ends (the next wake starts another).
IDLE_EXIT = 30.0
#: Pause before retrying after the model failed, doubling up to ``RETRY_MAX``.
RETRY_FIRST = 1.0
RETRY_MAX = 60.0
#: How long ``close`` waits for a model call in flight before leaving the thread to end
#: by itself (it then finds the store closed and writes nothing).
CLOSE_WAIT = 30.0


def _closed() -> int:
    raise StoreClosed()


class EmbedBehind:
    """The background embedder of one open store.

    :param repair: embeds every memory without vectors and returns how many it embedded,
        stopping between batches once :attr:`closing`; raises (``EmbeddingFailed``...)
        when the model fails, ``StoreClosed`` once the store is closed.
    :param name: the thread's name (the element), for logs and debuggers.
    """

    def __init__(self, repair: Callable[[], int], name: str) -> None:
        self._repair = repair
        self._name = f"embed-behind:{name}"
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None
        self._requested = 0     # wakes so far
        self._covered = 0       # the last wake a finished pass covered (success)
        self._passes = 0        # passes started so far
        self._failed_pass = 0   # the number of the last pass that failed
        self._retry_at: float | None = None     # when to try again after a failure
        self._hurry = False     # a flush waits: the next pass starts now, pause or not
        self._pause = RETRY_FIRST
        self._closed = False
        self.failures = 0       # failed passes since the last success (for logs and tests)

    # -- callers --------------------------------------------------------------------------

    def wake(self) -> None:
        """Something is pending: embed it soon (starts the thread if none runs)."""
        with self._cond:
            if self._closed:
                return
            self._requested += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name,
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until everything pending when called has vectors: True then; False when a
        pass failed meanwhile (the model), the store closed, or ``timeout`` passed. Returns
        at once when nothing was handed to the thread since its last pass.

        A failed model does not make the caller wait for the next retry: the first failed
        pass after the call answers False (the memories stay pending and are retried).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            if self._covered == self._requested:
                return True
            if self._closed:
                return False
            target, first = self._requested, self._passes + 1
            # A pass that failed before this call says nothing of the model now: ask for a
            # fresh one at once rather than after the retry pause.
            self._hurry = True
            self._cond.notify_all()
            while self._covered < target:
                if self._closed or self._failed_pass >= first:
                    return False        # a pass started after this call failed
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def close(self, timeout: float = CLOSE_WAIT) -> None:
        """Stop the thread: a pass in flight ends after its current batch (committed, the
        store being still open), without starting another. Pending memories stay pending:
        the next open embeds them.
        """
        with self._cond:
            self._closed = True
            thread = self._thread
            # ``repair`` is the store's own method: held on, it would keep the closed store
            # (its graphs, its mapped arrays) alive in a cycle only the cycle collector
            # frees, and that seldom runs (issue 26: ~23 MiB leaked per reopen). A pass in
            # flight keeps its own reference until it ends.
            self._repair = _closed
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)
            if thread.is_alive():
                logger.warning("%s: the model is still busy after %.0f s; the store closes "
                               "without waiting (its memories stay pending)", self._name,
                               timeout)

    @property
    def closing(self) -> bool:
        """Whether :meth:`close` was called: a pass stops before its next batch."""
        return self._closed

    # -- the thread -----------------------------------------------------------------------

    def _next(self) -> tuple[int, int] | None:
        """The wake to cover next and the pass's number, or None to end the thread
        (closed, or idle too long)."""
        with self._cond:
            idle_since = time.monotonic()
            while True:
                if self._closed:
                    self._thread = None
                    return None
                now = time.monotonic()
                due = self._covered < self._requested and (
                    self._retry_at is None or now >= self._retry_at or self._hurry)
                if due:
                    self._hurry = False
                    self._passes += 1
                    return self._requested, self._passes
                if self._covered == self._requested and now - idle_since >= IDLE_EXIT:
                    self._thread = None
                    return None
                wait = IDLE_EXIT - (now - idle_since) if self._retry_at is None \
                    else self._retry_at - now
                self._cond.wait(max(wait, 0.001))

    def _run(self) -> None:
        while True:
            turn = self._next()
            if turn is None:
                return
            target, number = turn
            try:
                embedded = self._repair()
            except StoreClosed:
                with self._cond:
                    self._thread = None
                    self._closed = True
                    self._cond.notify_all()
                return
            except Exception as exc:   # the model (or the disk): retried, never raised
                with self._cond:
                    self.failures += 1
                    self._failed_pass = number
                    self._retry_at = time.monotonic() + self._pause
                    if self.failures == 1:
                        logger.warning("%s: embedding failed (%s: %s); memories stay "
                                       "searchable by text and are retried", self._name,
                                       type(exc).__name__, exc)
                    self._pause = min(self._pause * 2, RETRY_MAX)
                    self._cond.notify_all()
                continue
            with self._cond:
                if self.failures:
                    logger.info("%s: embedding works again after %d failed passes",
                                self._name, self.failures)
                self.failures = 0
                self._pause = RETRY_FIRST
                self._retry_at = None
                self._covered = max(self._covered, target)
                self._cond.notify_all()
            logger.debug("%s: embedded %d memories", self._name, embedded)
