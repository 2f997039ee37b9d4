"""``GET /api/events``: server-sent events of the activity in one circle.

The catalog calls its ``listeners`` with every activity event after it is committed
(``element/catalog.py``). :class:`Broadcaster` is one of those listeners: it copies each
event into a bounded queue per subscriber, under a lock, without blocking the committing
thread. A subscriber whose queue is full is dropped: its stream sends what it had, says so
in a comment and ends, and the client reconnects with ``Last-Event-ID`` (EventSource does
this by itself), which replays the gap from the activity table. So a slow reader never
slows a writer and never silently loses events.

Stream format (``text/event-stream``)::

    retry: 3000
    : connected

    id: 42
    data: {"seq": 42, "element_id": ..., "path": "demo/memory", "circle": "demo",
           "op": "store", "principal": ..., "detail": {...}, "at": ...}

    : keepalive

A token sees only its own circle (``?circle=`` of another circle is 403), and in it only the
elements whose activity it may read (``element.readable``: its role and every auth-policy
attached to each element). The token is checked again while the stream runs (every
``EVENTS_RECHECK`` seconds at most, before an event or a keepalive), so a revoked token's
stream ends, and a stream lives at most ``EVENTS_MAX_LIFETIME`` seconds (the client
reconnects with Last-Event-ID). ``?path=`` narrows to one element. ``?limit=N`` and
``?timeout=S`` end the stream after N events or S seconds (scripts and tests read a bounded
stream). Each open stream holds one server thread, so at most ``EVENTS_MAX_SUBSCRIBERS``
streams are served at once; past that the answer is 503 ``EVENTS_BUSY`` with
``Retry-After``.

Several servers may share one home (workers behind a load balancer, docs/deploy.md). While
any stream is open here, the broadcaster also follows the activity table and publishes
what other processes committed, so a client of any worker sees every worker's events; each
event is delivered once, whichever way came first. With the catalog in PostgreSQL, every
activity commit sends ``NOTIFY`` and the follower, listening on a connection of its own,
reads at once; it still reads every ``EVENTS_FOLLOW`` seconds without one (a lost
connection, or a catalog file, which has no one to notify). Reads go by seq, which only
grows in commit order (``element/catalog``), so a wake-up that comes late or twice loses
nothing. Another worker's events may arrive after a later local one (by up to that
interval, or a round trip with PostgreSQL).
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Flask, Response, current_app, request

from element import (Catalog, ElementError, Forbidden, Home, InvalidRequest, Principal,
                     authenticate, readable)

from .errors import ApiError
from .routes import bearer_token

__all__ = ["Broadcaster", "Subscription", "blueprint", "init_events", "format_event",
           "event_stream", "MAX_LIMIT", "MAX_TIMEOUT"]

log = logging.getLogger("triform.events")

blueprint = Blueprint("events", __name__)

MAX_LIMIT = 100_000
MAX_TIMEOUT = 86_400.0
_REPLAY_PAGE = 500
#: Event seqs remembered as delivered (a followed page never reaches further back).
_SEEN_MAX = 10_000
_CLOSE = object()


@dataclass(eq=False)
class Subscription:
    """One stream's queue and filter. ``dropped`` is set when the queue overflowed."""

    circle: str
    element_id: str | None
    queue: queue.Queue[Any]
    dropped: bool = False
    #: Whose stream it is (a token's id), so one token cannot hold every stream.
    holder: str | None = None

    def wants(self, event: dict[str, Any]) -> bool:
        return event.get("circle") == self.circle and (
            self.element_id is None or event.get("element_id") == self.element_id)


class Broadcaster:
    """Fan activity events out to subscribers; thread-safe, never blocks a publisher.

    With a ``catalog``, while any subscriber is open, a thread reads the events other
    processes committed to it every ``follow_every`` seconds and publishes them too.
    """

    def __init__(self, *, queue_size: int = 1000, max_subscribers: int = 16,
                 catalog: Catalog | None = None, follow_every: float = 0.5,
                 max_per_holder: int | None = None) -> None:
        self.queue_size = queue_size
        self.max_subscribers = max_subscribers
        #: Streams one token may hold: half of them (at least one) unless set; one viewer
        #: held every stream, and everyone else got 503 (issue 26). Half, not less, so a
        #: person's console tab and command line share one token's streams by default.
        self.max_per_holder = max_per_holder or max(1, max_subscribers // 2)
        self._subscribers: list[Subscription] = []
        self._lock = threading.Lock()
        self._catalog = catalog
        self._follow_every = follow_every
        self._following = False
        self._seen: set[int] = set()
        self._seen_order: deque[int] = deque()

    def __len__(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def subscribe(self, circle: str, element_id: str | None = None, *,
                  holder: str | None = None) -> Subscription:
        """A new subscription for ``holder`` (a token's id): ApiError 503 when
        ``max_subscribers`` are open, 429 when ``holder`` holds ``max_per_holder``."""
        with self._lock:
            held = sum(1 for s in self._subscribers if holder and s.holder == holder)
            if held >= self.max_per_holder:
                raise ApiError("EVENTS_TOKEN_BUSY", "rate_limited",
                               f"this token holds {held} event streams, the most one token "
                               "may; close one first", retryable=True,
                               headers={"Retry-After": "5"})
            if len(self._subscribers) >= self.max_subscribers:
                raise ApiError("EVENTS_BUSY", "unavailable",
                               f"{self.max_subscribers} event streams are open, the most "
                               "this server serves; retry later", retryable=True,
                               headers={"Retry-After": "5"})
            if self._catalog is not None and not self._following:
                # Read before the subscription counts, so nothing committed elsewhere from
                # now on is missed.
                after = self._catalog.last_seq()
                self._following = True
                threading.Thread(target=self._follow, args=(after,), daemon=True,
                                 name="events-follow").start()
            sub = Subscription(circle, element_id, queue.Queue(self.queue_size),
                               holder=holder)
            self._subscribers.append(sub)
            return sub

    def _follow(self, after: int) -> None:
        """Publish what other processes commit, until no subscriber is left."""
        assert self._catalog is not None
        listener: Any = None
        behind = False      # the last page was full: read on without waiting
        try:
            while True:
                if listener is None and self._catalog.in_database:
                    try:
                        listener = self._catalog.activity_listener()
                        # Read at once what was committed before the LISTEN: no
                        # notification of it will come.
                        behind = True
                    except Exception:    # unreachable: poll until it is back
                        log.warning("cannot listen for other workers' events; polling")
                try:
                    if not behind:
                        self._catalog.wait_for_activity(self._follow_every, listener)
                except Exception:        # the connection went: poll, listen again later
                    if listener is not None:
                        listener.close()
                    listener = None
                    time.sleep(self._follow_every)
                behind = False      # a failing read below waits before the next one
                with self._lock:
                    if not self._subscribers:
                        self._following = False
                        return
                try:
                    page = self._catalog.events_after(None, None, after, _REPLAY_PAGE)
                except Exception:   # a busy or failing catalog: try again on the next tick
                    log.exception("following the activity of other processes failed")
                    continue
                for event in page:
                    after = event["seq"]
                    self.publish(event)
                behind = len(page) == _REPLAY_PAGE
        finally:
            if listener is not None:
                listener.close()

    def _first_delivery(self, seq: int) -> bool:
        """Whether ``seq`` is new here (called under the lock); remembers it."""
        if seq in self._seen:
            return False
        self._seen.add(seq)
        self._seen_order.append(seq)
        if len(self._seen_order) > _SEEN_MAX:
            self._seen.discard(self._seen_order.popleft())
        return True

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            if sub in self._subscribers:
                self._subscribers.remove(sub)

    def publish(self, event: dict[str, Any]) -> None:
        """Catalog listener: queue ``event`` for each subscriber that wants it."""
        try:
            with self._lock:
                seq = event.get("seq")
                if isinstance(seq, int) and not self._first_delivery(seq):
                    return
                for sub in list(self._subscribers):
                    if not sub.wants(event):
                        continue
                    try:
                        sub.queue.put_nowait(event)
                    except queue.Full:
                        sub.dropped = True
                        self._subscribers.remove(sub)
                        log.warning("dropped a slow event subscriber of circle %s",
                                    sub.circle)
        except Exception:   # a listener must never fail the op that committed the event
            log.exception("event broadcast failed")

    def close(self) -> None:
        """End every open stream (at shutdown)."""
        with self._lock:
            subs, self._subscribers = self._subscribers, []
        for sub in subs:
            sub.dropped = True
            try:
                sub.queue.put_nowait(_CLOSE)
            except queue.Full:
                pass


def format_event(event: dict[str, Any]) -> str:
    """One SSE message: ``id:`` the seq, ``data:`` the event as one line of JSON."""
    return f"id: {event['seq']}\ndata: {json.dumps(event, separators=(',', ':'))}\n\n"


def _number(name: str, raw: str | None, low: float, high: float,
            integer: bool = False) -> float | None:
    if raw is None or raw == "":
        return None
    try:
        value = int(raw) if integer else float(raw)
    except ValueError:
        raise InvalidRequest(name, "must be " + ("an integer" if integer else "a number")) \
            from None
    if not low <= value <= high:
        raise InvalidRequest(name, f"must be from {low:g} to {high:g}")
    return value


def init_events(app: Flask, home: Home) -> Broadcaster:
    """Make the app's broadcaster and subscribe it to the catalog's activity events."""
    broadcaster = Broadcaster(queue_size=int(app.config["EVENTS_QUEUE_SIZE"]),
                              max_subscribers=int(app.config["EVENTS_MAX_SUBSCRIBERS"]),
                              catalog=home.catalog,
                              follow_every=float(app.config["EVENTS_FOLLOW"]))
    home.catalog.listeners.append(broadcaster.publish)
    app.extensions["triform.events"] = broadcaster
    return broadcaster


@blueprint.get("/api/events")
def events() -> Response:
    home: Home = current_app.extensions["triform"]
    token = bearer_token(request.headers.get("Authorization"))
    return event_stream(lambda: authenticate(home.catalog, token))


def event_stream(who: Callable[[], Principal]) -> Response:
    """The event stream of this request's parameters, for whom ``who`` names (however the
    entry point received its credentials: a bearer header here, the console's session
    there); ``who`` is asked again as the stream runs.

    :raise Unauthorized: ``who`` does not name anyone now.
    """
    home: Home = current_app.extensions["triform"]
    broadcaster: Broadcaster = current_app.extensions["triform.events"]
    principal: Principal = who()
    args = request.args
    circle = args.get("circle") or principal.circle
    element_id = None
    if args.get("path"):
        path_circle = args["path"].split("/", 1)[0]
        if args.get("circle") and path_circle != circle:
            raise InvalidRequest("path", f"is not in circle {circle!r}")
        circle = path_circle
    if circle != principal.circle:
        raise Forbidden(f"this token has no access to circle {circle!r}")
    if args.get("path"):
        element_id = home.catalog.element_at(args["path"]).id
    for name in args:
        if name not in ("circle", "path", "limit", "timeout", "keepalive", "last_event_id"):
            raise InvalidRequest(name, "is not a parameter of the event stream (parameters: "
                                       "circle, path, limit, timeout, keepalive, "
                                       "last_event_id)")
    limit = _number("limit", args.get("limit"), 1, MAX_LIMIT, integer=True)
    lifetime = float(current_app.config["EVENTS_MAX_LIFETIME"])
    timeout = _number("timeout", args.get("timeout"), 0.001, MAX_TIMEOUT) or lifetime
    timeout = min(timeout, lifetime)
    keepalive = _number("keepalive", args.get("keepalive"), 0.05, 300) \
        or float(current_app.config["EVENTS_KEEPALIVE"])
    last = request.headers.get("Last-Event-ID") or args.get("last_event_id")
    after = _number("Last-Event-ID", last, 0, 2 ** 63 - 1, integer=True)
    sub = broadcaster.subscribe(circle, element_id, holder=principal.token_id)
    access = _Access(home, who, float(current_app.config["EVENTS_RECHECK"]))
    stream = _stream(home, broadcaster, sub, access, after=None if after is None
                     else int(after), limit=None if limit is None else int(limit),
                     timeout=timeout, keepalive=keepalive)
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"   # proxies: do not buffer the stream
    # Runs even if the server never starts iterating the stream (a generator's finally
    # would not).
    response.call_on_close(lambda: broadcaster.unsubscribe(sub))
    return response


class _Access:
    """What a stream's principal may see, checked again every ``recheck`` seconds."""

    def __init__(self, home: Home, who: Callable[[], Principal], recheck: float = 5.0) -> None:
        self.home, self.who, self.recheck = home, who, recheck
        self.checked = -recheck
        self.principal: Principal | None = None
        self.visible: dict[str, bool] = {}

    def valid(self) -> bool:
        """Whether the token still holds (re-read at most every ``recheck`` seconds)."""
        if time.monotonic() - self.checked >= self.recheck:
            self.checked = time.monotonic()
            self.visible.clear()
            try:
                self.principal = self.who()
            except ElementError:
                self.principal = None
        return self.principal is not None

    def may_see(self, event: dict[str, Any]) -> bool:
        if not self.valid() or self.principal is None:
            return False
        element_id = event.get("element_id")
        if not element_id:
            return False
        if element_id not in self.visible:
            try:
                element = self.home.catalog.element(element_id)
            except ElementError:
                self.visible[element_id] = False
            else:
                self.visible[element_id] = bool(readable(self.home, self.principal,
                                                         [element]))
        return self.visible[element_id]


def _stream(home: Home, broadcaster: Broadcaster, sub: Subscription, access: _Access, *,
            after: int | None, limit: int | None, timeout: float | None,
            keepalive: float) -> Iterator[str]:
    deadline = None if timeout is None else time.monotonic() + timeout
    sent = 0
    high = after    # events up to here were sent by the replay; skip them when queued too
    try:
        yield "retry: 3000\n: connected\n\n"
        if after is not None:
            while limit is None or sent < limit:
                page = home.catalog.events_after(sub.circle, sub.element_id, high or 0,
                                                 _REPLAY_PAGE)
                for event in page:
                    high = event["seq"]
                    if not access.may_see(event):
                        if not access.valid():
                            return
                        continue
                    yield format_event(event)
                    sent += 1
                    if limit is not None and sent >= limit:
                        return
                if len(page) < _REPLAY_PAGE:
                    break
        while limit is None or sent < limit:
            if not access.valid():
                yield ": the token is no longer valid\n\n"
                return
            if sub.dropped and sub.queue.empty():
                yield ": dropped: this stream fell behind; reconnect with Last-Event-ID\n\n"
                return
            wait = keepalive
            if deadline is not None:
                wait = min(wait, deadline - time.monotonic())
                if wait <= 0:
                    return
            try:
                event = sub.queue.get(timeout=wait)
            except queue.Empty:
                if deadline is None or time.monotonic() < deadline:
                    yield ": keepalive\n\n"
                continue
            if event is _CLOSE:
                return
            if high is not None and event["seq"] <= high:
                continue
            if not access.may_see(event):
                continue
            yield format_event(event)
            sent += 1
    finally:
        broadcaster.unsubscribe(sub)
