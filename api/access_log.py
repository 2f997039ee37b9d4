"""One access log line per request: client, method, path, status, milliseconds.

Logged to ``triform.access`` when the response has been sent whole (a git fetch or an event
stream is timed to its end). The line never holds a token or a body: headers and bodies
are not logged at all, and the query string is left out too, so whatever a client puts
there stays out of the log::

    127.0.0.1 POST /api/demo/memory/ops/store 201 12.4 ms
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["AccessLog"]

log = logging.getLogger("triform.access")

StartResponse = Callable[..., Any]
WsgiApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


class AccessLog:
    """WSGI middleware around ``app`` that logs each request once it is done."""

    def __init__(self, app: WsgiApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse
                 ) -> Iterator[bytes]:
        started = time.monotonic()
        status: list[str] = []

        def start(code: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            status[:] = [code.split(" ", 1)[0]]
            return start_response(code, headers, *args)

        result = self.app(environ, start)
        try:
            yield from result
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
            path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
            log.info("%s %s %s %s %.1f ms", environ.get("REMOTE_ADDR", "-"),
                     environ.get("REQUEST_METHOD", "-"), _printable(path),
                     status[0] if status else "-", (time.monotonic() - started) * 1000)


def _printable(path: str) -> str:
    """The path with control characters escaped, so one request is one log line."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in path)
