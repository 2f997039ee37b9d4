"""When to try a call again, and how long to wait first (pure: no I/O, no clock).

A call is tried again only when its error says it may be (``retryable``, or a connection
that failed), and only if repeating it cannot do twice what the caller asked once: see
:meth:`RetryPolicy.may_retry`. The wait doubles from ``backoff`` up to ``max_backoff`` with
jitter, so many clients refused together do not come back together; a ``Retry-After`` from
the server replaces it, since the server knows when its window reopens.
"""

from __future__ import annotations

import email.utils
import math
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = ["RetryPolicy", "parse_retry_after"]

#: Statuses that mean the server refused the call before running it: repeating it cannot
#: apply it twice, whatever the op (a rate limit, a busy server, a ref that moved under a
#: compare-and-swap).
REFUSED_BEFORE_RUNNING = frozenset({409, 429, 503})


@dataclass(frozen=True)
class RetryPolicy:
    """``retries`` more tries after the first; waits in seconds."""

    retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0

    def __post_init__(self) -> None:
        if self.retries < 0:
            raise ValueError("retries must be >= 0")
        if not 0 <= self.backoff <= self.max_backoff:
            raise ValueError("backoff must be from 0 to max_backoff")
        if self.max_retry_after < 0:
            raise ValueError("max_retry_after must be >= 0")

    @staticmethod
    def may_retry(*, retryable: bool, status: int | None, sent: bool, safe: bool) -> bool:
        """Whether a failed try may be repeated.

        ``safe``: the call is idempotent (a read, a store with its idempotency key, an op
        whose repeat changes nothing). ``sent``: the request may have reached the server
        (False only when the connection was never made). ``status``: the HTTP answer, None
        when there was none.
        """
        if not retryable:
            return False
        if status is None:
            return safe or not sent
        return safe or status in REFUSED_BEFORE_RUNNING

    def delay(self, attempt: int, retry_after: float | None, jitter: float) -> float | None:
        """Seconds to wait before retry number ``attempt + 1`` (``attempt`` counts from 0),
        or None when no retry is left or the server asks for a longer wait than
        ``max_retry_after``. ``jitter`` in [0, 1] scales the backoff between half and all
        of it."""
        if attempt >= self.retries:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        full = min(self.max_backoff, self.backoff * 2.0 ** min(attempt, 62))
        return full * (0.5 + 0.5 * min(max(jitter, 0.0), 1.0))


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), >= 0;
    None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - (now or datetime.now(UTC))).total_seconds()
    if math.isnan(seconds):
        return None
    return min(max(seconds, 0.0), 1e9)
