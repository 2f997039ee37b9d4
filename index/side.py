"""One call run on a side thread while the caller computes something else.

A search embeds its query with onnxruntime, which leaves the interpreter lock while it
computes; the store's work that needs no query vector (BM25 over the query's postings, the
calibration's background) can run meanwhile on another thread. On a shared 2-core machine
a thread handed work is not always scheduled at once, so the caller never waits for a
call that has not started: it runs the call itself (the cost of a queue operation, never
the wait for a thread). One thread serves every store of the process: a second search
whose call finds it busy runs its own on the caller's thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

__all__ = ["ahead"]

T = TypeVar("T")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _side() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(1, thread_name_prefix="triform-ahead")
        return _pool


def ahead(call: Callable[[], T]) -> Callable[[], T]:
    """Start ``call`` on the side thread; the function returned gives its result (or
    raises its exception): waiting for it when it has started, running it on the
    caller's thread when it has not."""
    future = _side().submit(call)

    def result() -> T:
        if future.cancel():     # not started (the thread busy, or not scheduled yet)
            return call()
        return future.result()
    return result
