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
  cannot lock everyone else out until they time out.
"""

from __future__ import annotations

import resource
import time
from typing import Any

from flask import Flask
from waitress.adjustments import Adjustments
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from source import MAX_PUSH_BYTES

__all__ = ["connection_limit", "make_server", "raise_descriptor_limit", "server_settings"]

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

    ``max_request_body_size`` is the largest body any route takes (an import_bundle body or
    a git push): waitress refuses a larger ``Content-Length`` with 413 as soon as it has
    read the headers, before reading the body. A smaller route's own limit is checked by
    ``api/limits.py`` before the app reads the body, in the one error shape.
    """
    if descriptors is None:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        descriptors = DESCRIPTOR_TARGET if soft == resource.RLIM_INFINITY else int(soft)
    largest = max(int(app.config["MAX_BUNDLE_BODY"]), int(app.config["MAX_JSON_BODY"]),
                  int(app.config["MAX_CONTENT_LENGTH"]), MAX_PUSH_BYTES + 1024 * 1024)
    keepalive = float(app.config["EVENTS_KEEPALIVE"])
    return {"connection_limit": connection_limit(descriptors),
            "channel_timeout": max(CHANNEL_TIMEOUT, int(keepalive * 2)),
            "cleanup_interval": 5, "max_request_header_size": MAX_HEADER_BYTES,
            "max_request_body_size": largest + 1, "asyncore_use_poll": True}


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
    dispatcher = ThreadedTaskDispatcher()
    dispatcher.set_thread_count(adj.threads)
    channels: dict[int, Any] = {}
    servers = [RoomMakingServer(app, channels, dispatcher=dispatcher, adj=adj,
                                sockinfo=sockinfo) for sockinfo in adj.listen]
    if len(servers) == 1:
        return servers[0]
    return MultiSocketServer(channels, adj,
                             [(s.effective_host, s.effective_port) for s in servers],
                             dispatcher, log_info=servers[0].log_info)
