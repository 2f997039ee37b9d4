"""Rate limits: a sliding window of request times per key, with an injectable clock.

An attached ``rate-limit`` element allows ``requests`` per ``per_seconds`` to each principal
on each element it governs (``enforce.py`` builds the keys). The windows live in this
process; several processes sharing a home each count their own requests.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from ..errors import ElementError

__all__ = ["RateLimited", "SlidingWindowLimiter"]


class RateLimited(ElementError):
    """An attached rate-limit's window is full; retry after ``Retry-After`` seconds."""

    code = "RATE_LIMITED"
    error_class = "rate_limited"
    retryable = True

    def __init__(self, limit: str, requests: int, per_seconds: float, retry_after: int) -> None:
        super().__init__(f"rate-limit {limit!r}: {requests} requests per {per_seconds:g}s "
                         f"exceeded; retry after {retry_after}s")
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class SlidingWindowLimiter:
    """Request timestamps per key in a sliding window; thread-safe, in-process."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._hits: dict[tuple[str, ...], deque[float]] = {}

    def acquire(self, wanted: list[tuple[tuple[str, ...], int, float]]
                ) -> tuple[float, int] | None:
        """Take one request from every ``(key, requests, per_seconds)``, or from none.

        :return: None when all had room (and each now counts this request); else
            ``(seconds, index)``: how long until the window at ``wanted[index]``, the one
            that frees last, has room again. A refused request is not counted.
        """
        with self._lock:
            now = self._clock()
            refusal: tuple[float, int] | None = None
            for index, (key, requests, per_seconds) in enumerate(wanted):
                hits = self._hits.setdefault(key, deque())
                while hits and hits[0] <= now - per_seconds:
                    hits.popleft()
                if len(hits) >= requests:
                    wait = hits[len(hits) - requests] + per_seconds - now
                    if refusal is None or wait > refusal[0]:
                        refusal = (wait, index)
            if refusal is not None:
                return refusal
            for key, _, _ in wanted:
                self._hits[key].append(now)
            return None

    def forget(self, attachment_id: str) -> None:
        """Drop the windows of a removed attachment (keys start with its id)."""
        with self._lock:
            for key in [k for k in self._hits if k[0] == attachment_id]:
                del self._hits[key]
