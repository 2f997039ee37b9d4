"""One access log line per request: client, method, path, status, milliseconds; and what
the request was (its id, op and element), told to the server's metrics.

Logged to ``triform.access`` as the last byte of the response goes out (a git fetch or an
event stream is timed to its end), so a client's next request is logged after this one.
The line never holds a token or a body: headers and bodies are not logged at all, and
the query string is left out too, so whatever a client puts there stays out of the log::

    127.0.0.1 POST /api/demo/memory/ops/store 201 12.4 ms

The record also carries ``request_id``, ``op``, ``element``, ``status`` and
``duration_ms`` as attributes, which ``--log-format json`` writes as fields
(``api/logs.py``). Each request gets an id: the client's ``X-Request-ID`` when it is a short
plain token, else a fresh one, answered in the response's ``X-Request-ID`` so a client
can quote it. ``op`` is the op's name from the registry (``store``, ``search``...) or the
route's (``events``, ``mcp``, ``git``, ``console``, ``healthz``, ``openapi``,
``metrics``), ``unknown`` for an op path no op answers and ``other`` elsewhere: a bounded
set, so it can label metrics; ``element`` is the element path, only when it is one.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import re
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple, Protocol

from element import SLUG_RE, registry

__all__ = ["AccessLog", "Route", "RequestObserver", "classify", "current_request_id"]

log = logging.getLogger("triform.access")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_CLIENT_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_REQUEST_ID: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "triform_request_id", default=None)
#: Routes that are not ops, by their first path segment.
_FIXED = {"/healthz": "healthz", "/openapi.json": "openapi", "/metrics": "metrics",
          "/api/events": "events"}


def current_request_id() -> str | None:
    """The id of the request this thread serves now (for log lines written meanwhile)."""
    return _REQUEST_ID.get()


class Route(NamedTuple):
    """What a request addressed: ``op`` (a bounded name) and ``element`` (a path or None)."""

    op: str
    element: str | None


class RequestObserver(Protocol):
    """Told of each request as it starts and once its response is sent whole."""

    def request_started(self, route: Route) -> None: ...

    def request_finished(self, route: Route, status: str, seconds: float) -> None: ...


def _element_path(text: str) -> str | None:
    parts = text.strip("/").split("/")
    if 1 <= len(parts) <= 2 and all(SLUG_RE.match(p) for p in parts):
        return "/".join(parts)
    return None


@functools.cache
def _routes() -> tuple[tuple[str, str, re.Pattern[str]], ...]:
    """``(name, method, path regex)`` of every op, compiled once per process."""
    return tuple((op.name, op.method, op.regex) for op in registry())


@functools.lru_cache(maxsize=1024)
def _op_name(method: str, op_path: str) -> str:
    """The registry's name for the op at ``op_path`` (the method's first, else any);
    remembered for the latest 1024 paths, since a request matched each op's pattern in
    turn (an agent's searches and stores ask the same few)."""
    named = [(name, answers) for name, answers, regex in _routes() if regex.match(op_path)]
    for name, answers in named:
        if answers == method:
            return name
    return named[0][0] if named else "unknown"


def classify(method: str, path: str) -> Route:
    """The op and element ``method path`` addresses (see the module docstring)."""
    if path in _FIXED:
        return Route(_FIXED[path], None)
    if path.startswith("/api/") and "/ops/" in path:
        element, op_path = path[len("/api/"):].split("/ops/", 1)
        return Route(_op_name(method, op_path), _element_path(element))
    if path.startswith("/mcp/"):
        return Route("mcp", _element_path(path[len("/mcp/"):]))
    if path.startswith("/git/"):
        repo = path[len("/git/"):].split(".git", 1)[0]
        return Route("git", _element_path(repo))
    if path == "/console" or path.startswith("/console/"):
        return Route("console", None)
    return Route("other", None)


class AccessLog:
    """WSGI middleware around ``app`` that logs each request once it is done, and tells
    ``observer`` (the metrics) of it."""

    def __init__(self, app: WsgiApp, observer: RequestObserver | None = None) -> None:
        self.app = app
        self.observer = observer

    def __call__(self, environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterator[bytes]:
        started = time.monotonic()
        status: list[str] = []
        path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "-")
        given = environ.get("HTTP_X_REQUEST_ID", "")
        request_id = given if _CLIENT_ID.match(given) else uuid.uuid4().hex
        route = classify(method, path)
        if self.observer is not None:
            self.observer.request_started(route)

        length: list[int] = []

        def start(code: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            status[:] = [code.split(" ", 1)[0]]
            length[:] = [int(v) for k, v in headers
                         if k.lower() == "content-length" and v.isdigit()][:1]
            return start_response(code, [*headers, ("X-Request-ID", request_id)], *args)

        finished: list[bool] = []

        def finish() -> None:
            """Log the line and tell the observer, once."""
            if finished:
                return
            finished.append(True)
            seconds = time.monotonic() - started
            code = status[0] if status else "-"
            shown = _printable(path)
            log.info("%s %s %s %s %.1f ms", environ.get("REMOTE_ADDR", "-"), method,
                     shown, code, seconds * 1000,
                     extra={"request_id": request_id, "op": route.op,
                            "element": route.element, "method": method, "path": shown,
                            "status": int(code) if code.isdigit() else None,
                            "duration_ms": round(seconds * 1000, 1)})
            if self.observer is not None:
                self.observer.request_finished(route, code, seconds)

        reset = _REQUEST_ID.set(request_id)
        try:
            result = self.app(environ, start)
            if length == [0]:
                finish()
            try:
                sent = 0
                for chunk in result:
                    sent += len(chunk)
                    if length and sent >= length[0]:
                        # Done before the last byte goes out, so what a client does once
                        # it has its answer (its next request, a metrics scrape) comes
                        # after this request in the log and the counts: the server may
                        # resume this generator only after the client read the chunk. A
                        # streamed answer (no length) is done when it ends.
                        finish()
                    yield chunk
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()
        finally:
            finish()
            try:
                _REQUEST_ID.reset(reset)
            except (ValueError, RuntimeError):   # finished from another context
                pass


def _printable(path: str) -> str:
    """The path with control characters escaped, so one request is one log line."""
    if path.isprintable():      # nearly every path: no character-by-character walk
        return path
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in path)
