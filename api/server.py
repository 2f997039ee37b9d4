"""The HTTP server ``triform serve`` runs: waitress, with settings chosen on purpose.

Anyone who can reach the port can open connections without a token, so what a connection
costs is bounded here (issues 9 and 26):

* waitress watches its sockets with ``poll()``, not ``select()``: ``select()`` cannot watch a
  descriptor numbered 1024 or more and raised ``ValueError``, which stopped the server once
  about a thousand idle sockets were open;
* the process's soft descriptor limit is raised to its hard limit (``raise_descriptor_limit``)
  and the connection limit is kept well below what is left (``connection_limit``), so the
  stores, the catalog and git always get the descriptors they need;
* at the connection limit a new connection is still accepted, and the connection idle the
  longest (no request running) is closed to make room: a thousand sockets that say nothing
  cannot lock everyone else out until they time out;
* a request's body is read only once its head passed ``api.limits.refusal_on_headers``
  (the route's limit; a large body only from a token that may write where it is sent):
  otherwise the answer goes out on the headers and the connection closes, the body unread.

And a request goes to the worker thread that went idle last (:class:`LastIdleFirst`), not,
as waitress does, to the one idle longest.
"""

from __future__ import annotations

import resource
import threading
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.parser import HTTPRequestParser
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import Error

from .limits import largest_body, refusal_on_headers

__all__ = ["LastIdleFirst", "connection_limit", "make_server", "raise_descriptor_limit",
           "server_settings"]

#: The most connections kept open at once, descriptors allowing (waitress's default, 100,
#: let 150 sockets that never finish their headers lock everyone out).
MAX_CONNECTIONS = 1000
#: Descriptors kept for everything that is not a connection: up to MAX_OPEN_STORES (64)
#: stores of about five each (the log, the lock, three mapped checkpoint arrays), the
#: catalog and rate-window databases with their -wal and -shm files, git's packs, the
#: model's files, pipes to git subprocesses.
RESERVED_DESCRIPTORS = 512
#: Descriptors one connection may hold: its socket, a request body spooled to a temporary
#: file, an answer spooled to another.
DESCRIPTORS_PER_CONNECTION = 3
#: Seconds a connection may stay silent (no byte in or out) before it is closed. Event
#: streams send a keepalive every EVENTS_KEEPALIVE seconds (15), so they stay open.
CHANNEL_TIMEOUT = 30
#: The largest request head (request line and headers).
MAX_HEADER_BYTES = 64 * 1024
#: A soft descriptor limit raised to at most this (an unlimited hard limit included).
DESCRIPTOR_TARGET = 65536


def raise_descriptor_limit() -> int:
    """Raises this process's soft limit on open descriptors toward its hard limit (many
    systems start processes at 1024) and returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = DESCRIPTOR_TARGET if hard == resource.RLIM_INFINITY else min(hard,
                                                                          DESCRIPTOR_TARGET)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
            soft = ceiling
        except (ValueError, OSError):   # a sandbox that forbids it: live with the soft one
            pass
    return DESCRIPTOR_TARGET if soft == resource.RLIM_INFINITY else int(soft)


def connection_limit(descriptors: int) -> int:
    """How many connections to keep open when the process may hold ``descriptors``."""
    room = (descriptors - RESERVED_DESCRIPTORS) // DESCRIPTORS_PER_CONNECTION
    return max(1, min(MAX_CONNECTIONS, room))


def server_settings(app: Flask, descriptors: int | None = None) -> dict[str, Any]:
    """waitress's settings for ``app`` in a process that may hold ``descriptors`` (by
    default its current soft limit).

    ``max_request_body_size`` is the largest body any route takes (an import_memories body,
    a bundle, a git push): waitress refuses a larger ``Content-Length`` with 413 as soon as
    it has read the headers. A route's own limit, and who may send a large body, are
    checked on the headers too (``api/limits.py``, through :class:`CheckedChannel`).
    """
    if descriptors is None:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        descriptors = DESCRIPTOR_TARGET if soft == resource.RLIM_INFINITY else int(soft)
    largest = largest_body(app.config)
    keepalive = float(app.config["EVENTS_KEEPALIVE"])
    return {"connection_limit": connection_limit(descriptors),
            "channel_timeout": max(CHANNEL_TIMEOUT, int(keepalive * 2)),
            "cleanup_interval": 5, "max_request_header_size": MAX_HEADER_BYTES,
            "max_request_body_size": largest + 1, "asyncore_use_poll": True}


class _Refused(Error):  # type: ignore[misc]
    """waitress's error answer, carrying ours (the one error shape) instead of its text."""

    def __init__(self, answer: tuple[str, list[tuple[str, str]], bytes]) -> None:
        super().__init__("")
        self.answer = answer

    def to_response(self, ident: str | None = None) -> tuple[str, list[tuple[str, str]],
                                                             bytes]:
        return self.answer


class CheckedParser(HTTPRequestParser):  # type: ignore[misc]
    """waitress's request parser, which asks :func:`refusal_on_headers` once a head that
    announces a body is in: a refusal completes the request there, its body unread."""

    app: Flask
    refused = False
    completed: bool
    headers_finished: bool

    def received(self, data: bytes) -> int:
        had_head = self.headers_finished
        consumed = int(super().received(data))
        if self.headers_finished and not had_head and not self.completed:
            answer = refusal_on_headers(self.app, self.path, self.headers)
            if answer is not None:
                self.error, self.completed, self.refused = _Refused(answer), True, True
                return len(data)        # the rest of this read is the body: dropped
        return consumed


class CheckedChannel(HTTPChannel):  # type: ignore[misc]
    """A channel that, once a request was refused on its headers, reads nothing more (the
    body it announced is dropped unparsed) and closes after the answer."""

    refusing = False

    def received(self, data: bytes) -> bool:
        if self.refusing:
            return False
        result = bool(super().received(data))
        if any(getattr(r, "refused", False) for r in self.requests):
            self.refusing = True
        return result


class RoomMakingServer(TcpWSGIServer):  # type: ignore[misc]
    """waitress's TCP server, except that at the connection limit it keeps accepting and
    closes the connection idle the longest instead of leaving new ones in the backlog."""

    next_channel_cleanup: float = 0

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return bool(self.accepting)

    def handle_accept(self) -> None:
        super().handle_accept()
        while len(self.active_channels) > self.adj.connection_limit:
            self._close_one()

    def _close_one(self) -> None:
        """Closes the connection with no request running that has been silent longest
        (one still sending an answer last); with none, the newest, just accepted."""
        channels = list(self.active_channels.values())
        idle = [c for c in channels if not c.requests]
        victim = min(idle, key=lambda c: (c.total_outbufs_len > 0, c.last_activity)) \
            if idle else max(channels, key=lambda c: c.creation_time)
        if victim.request is not None:
            victim.request.close()       # a body it was spooling to a temporary file
        victim.handle_close()


class _LastWaiterFirst(threading.Condition):
    """A condition whose ``notify`` wakes the thread that began waiting last."""

    def notify(self, n: int = 1) -> None:
        if not self._is_owned():    # type: ignore[attr-defined]
            raise RuntimeError("cannot notify on un-acquired lock")
        waiters = self._waiters     # type: ignore[attr-defined]
        while waiters and n > 0:
            waiter = waiters.pop()
            try:
                waiter.release()
            except RuntimeError:    # released by an interrupted notify already
                continue
            n -= 1


class LastIdleFirst(ThreadedTaskDispatcher):  # type: ignore[misc]
    """waitress's thread pool, each request given to the worker that went idle last.

    waitress wakes the worker idle longest, so requests one after another rotate over
    every thread (8 by default), each request on a thread that slept through the previous
    seven. On this project's loaded 2-core machine that made the query's embedding in a
    search about 1.6x slower than the same model outside the server, and the whole search
    2x (issue 29; ``bench/README.md``, lanes_bench.py): the model's run started on a cold
    thread every time. The worker that just finished is warm; it takes the next request,
    and the others still serve requests that overlap.
    """

    def __init__(self) -> None:
        super().__init__()
        # The order rests on CPython's Condition internals (a deque of waiter locks): where
        # they differ, keep waitress's own condition rather than break the pool.
        default = getattr(self, "queue_cv")  # noqa: B009 (waitress is untyped)
        if hasattr(default, "_waiters") and hasattr(default, "_is_owned"):
            self.queue_cv = _LastWaiterFirst(self.lock)


def make_server(app: Flask, *, host: str, port: int, threads: int,
                **overrides: Any) -> Any:
    """The server for ``app`` on ``host:port`` (port 0: any free one), its sockets bound,
    with :func:`server_settings` (``overrides`` replace some, for tests). Runs with
    ``.run()``, stops with ``.close()``; ``.effective_port`` is the bound port.

    :raise OSError: the address cannot be bound.
    :raise ValueError: a host that does not resolve.
    """
    adj = Adjustments(host=host, port=port, threads=threads,
                      **{**server_settings(app, raise_descriptor_limit()), **overrides})
    dispatcher = LastIdleFirst()
    dispatcher.set_thread_count(adj.threads)
    parser = type("Parser", (CheckedParser,), {"app": app})
    channel = type("Channel", (CheckedChannel,), {"parser_class": parser})
    channels: dict[int, Any] = {}
    servers = [RoomMakingServer(app, channels, dispatcher=dispatcher, adj=adj,
                                sockinfo=sockinfo) for sockinfo in adj.listen]
    for server in servers:
        server.channel_class = channel
    if len(servers) == 1:
        return servers[0]
    return MultiSocketServer(channels, adj,
                             [(s.effective_host, s.effective_port) for s in servers],
                             dispatcher, log_info=servers[0].log_info)
