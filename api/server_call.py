"""One JSON call to a running Triform server, with the standard library.

The command line's memory commands and MCP's remote backend talk to a server on the same
machine, once per process, while a person waits: ``http.client`` costs nothing to import,
where an HTTP client library (the Python client's httpx, with its TLS set-up) costs a few
hundred milliseconds of every command. Longer conversations (streamed exports and imports)
use the Python client (``api/cli/transfer.py``).
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Mapping
from typing import Any

__all__ = ["ServerRefused", "call_server", "unreachable"]


class ServerRefused(Exception):
    """The server answered an error: ``body`` is its answer (``{"error": {...}, ...}``,
    made from the status when the answer had no error object), ``error`` that object."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status, self.body, self.error = status, body, dict(body["error"])
        super().__init__(self.error.get("message", f"HTTP {status}"))


def unreachable(url: str, exc: OSError, code: str = "CONNECTION_FAILED") -> dict[str, Any]:
    """The error object of a server that could not be reached (``CONNECTION_FAILED``, as
    the Python client says it)."""
    return {"code": code, "class": "unavailable", "retryable": True,
            "message": f"the server at {url} is unreachable: {exc}"}


def call_server(url: str, token: str | None, method: str, path: str, body: Any = None, *,
                query: Mapping[str, str] | None = None,
                headers: Mapping[str, str] | None = None, timeout: float = 60.0) -> Any:
    """``method`` ``path`` (under ``url``'s own path) with a JSON ``body``; answer the JSON
    of a 2xx answer (None when empty).

    :raise ValueError: ``url`` is not an http(s) URL.
    :raise ServerRefused: any other status (the error object of its body, else one made
        from the status).
    :raise OSError: the server could not be reached (:func:`unreachable` words it).
    """
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"the server's URL must be http(s), not {url!r}")
    kind = http.client.HTTPSConnection if parts.scheme == "https" \
        else http.client.HTTPConnection
    sent = {"Accept": "application/json", **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    target = parts.path.rstrip("/") + path
    if query:
        target += "?" + urllib.parse.urlencode(query)
    conn = kind(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, target, body=data, headers=sent)
        response = conn.getresponse()
        status, payload = response.status, response.read()
    finally:
        conn.close()
    try:
        answer = json.loads(payload) if payload else None
    except ValueError:
        answer = None
    if 200 <= status < 300:
        return answer
    if isinstance(answer, dict) and isinstance(answer.get("error"), dict):
        raise ServerRefused(status, answer)
    raise ServerRefused(status, {"error": {"code": f"HTTP_{status}", "class": "internal",
                                           "retryable": status >= 500,
                                           "message": f"the server answered HTTP {status}"}})
