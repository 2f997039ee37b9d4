"""Activity as it happens: ``GET /api/events`` (server-sent events) as an iterator.

A stream that breaks (the connection drops, the server ends a subscriber that fell behind,
the server restarts) is opened again with ``Last-Event-ID``: the server replays every event
after it from the activity table, so the iterator yields each event once, in ``seq``
order, with no gap. ``last_event_id`` can be saved and given to a later stream to resume
where this one stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Iterator
from typing import Any, cast

import httpx
from httpx_sse import EventSource, SSEError

from .errors import ConnectionFailed, InvalidResponse
from .models import Event
from .transport import Transport

__all__ = ["EventStream"]

_DEFAULT_RETRY = 3.0     # seconds, until the server says otherwise (its ``retry:`` field)
_DEFAULT_KEEPALIVE = 15.0


class EventStream:
    """An iterator of :class:`Event`; a context manager that closes the connection.

    ``limit`` and ``timeout`` end it after that many events or seconds, counted over
    every reconnection. Without them it runs until closed.
    """

    def __init__(self, transport: Transport, *, circle: str | None = None,
                 path: str | None = None, last_event_id: int | None = None,
                 limit: int | None = None, timeout: float | None = None,
                 keepalive: float | None = None, reconnect: bool = True,
                 reconnect_delay: float | None = None) -> None:
        self._t = transport
        self.circle, self.path = circle, path
        self.last_event_id = last_event_id
        self.limit, self.timeout, self.keepalive = limit, timeout, keepalive
        self.reconnect, self.reconnect_delay = reconnect, reconnect_delay
        self.received = 0
        self.reconnects = 0
        self._retry = _DEFAULT_RETRY
        self._events = self._run()

    def __iter__(self) -> EventStream:
        return self

    def __next__(self) -> Event:
        return next(self._events)

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """End the stream and its connection."""
        self._events.close()

    def _done(self, deadline: float | None) -> bool:
        return (self.limit is not None and self.received >= self.limit) or (
            deadline is not None and time.monotonic() >= deadline)

    def _run(self) -> Generator[Event, None, None]:
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        while not self._done(deadline):
            try:
                yield from self._one_stream(deadline)
            except httpx.TransportError as exc:   # the stream broke off
                if not self.reconnect:
                    raise ConnectionFailed(f"the event stream broke off: {exc}",
                                           sent=True) from exc
            else:
                if not self.reconnect:
                    return
            if self._done(deadline):
                return
            self.reconnects += 1
            wait = self._retry if self.reconnect_delay is None else self.reconnect_delay
            if deadline is not None:
                wait = min(wait, max(0.0, deadline - time.monotonic()))
            time.sleep(wait)

    def _one_stream(self, deadline: float | None) -> Iterator[Event]:
        params: dict[str, Any] = {"circle": self.circle, "path": self.path,
                                  "keepalive": self.keepalive}
        if self.limit is not None:
            params["limit"] = self.limit - self.received
        if deadline is not None:
            params["timeout"] = max(0.001, round(deadline - time.monotonic(), 3))
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        # A read may wait a whole keepalive interval; past that the connection is dead.
        read_timeout = (self.keepalive or _DEFAULT_KEEPALIVE) + self._t.timeout
        with self._t.open("GET", "/api/events", params=params, headers=headers, safe=True,
                          timeout=read_timeout) as response:
            try:
                messages = EventSource(response).iter_sse()
                for message in messages:
                    if message.retry is not None:
                        self._retry = message.retry / 1000
                    if not message.data:
                        continue   # a lone retry field, or the id carried past a comment
                    event = _decode(message.data)
                    self.last_event_id = int(message.id) if message.id.isdigit() \
                        else event["seq"]
                    self.received += 1
                    yield event
                    if self._done(deadline):
                        return
            except SSEError as exc:
                raise InvalidResponse(f"GET /api/events did not answer an event stream: "
                                      f"{exc}", code="INVALID_RESPONSE",
                                      status=response.status_code) from None


def _decode(data: str) -> Event:
    try:
        event = json.loads(data)
    except ValueError:
        event = None
    if not isinstance(event, dict) or not isinstance(event.get("seq"), int):
        raise InvalidResponse(f"an event that is not an activity event: {data[:200]!r}",
                              code="INVALID_RESPONSE")
    return cast(Event, event)
