"""The client: one connection pool, one token, handles on elements, the event stream."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import httpx

from .agents import Agent
from .elements import Circle, Element
from .events import EventStream
from .memory import MemoryElement
from .models import JSON
from .retry import RetryPolicy
from .transport import RetryEvent, Transport

__all__ = ["Client"]


class Client:
    """A synchronous client of one Triform Memory server.

    ``timeout`` (seconds) bounds each connect and read. A call that fails is tried again
    ``retries`` times, waiting ``backoff`` seconds doubled each time up to ``max_backoff``
    (or the server's ``Retry-After`` when at most ``max_retry_after``), only when the error
    is retryable or the connection failed, and only when repeating the call cannot apply it
    twice. ``on_retry`` hears of each retry before its wait. ``env`` sends
    ``X-Triform-Env`` with every call. ``transport`` is an ``httpx`` transport to send
    through (proxies, custom TLS, a Unix socket).

    Use it as a context manager, or call :meth:`close`.
    """

    def __init__(self, base_url: str, token: str | None, *, timeout: float = 30.0,
                 retries: int = 3, backoff: float = 0.5, max_backoff: float = 8.0,
                 max_retry_after: float = 60.0, env: str | None = None,
                 on_retry: Callable[[RetryEvent], None] | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        self.base_url = base_url
        policy = RetryPolicy(retries=retries, backoff=backoff, max_backoff=max_backoff,
                             max_retry_after=max_retry_after)
        self._t = Transport(base_url, token, timeout=timeout, policy=policy, env=env,
                            on_retry=on_retry, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection pool."""
        self._t.close()

    def __repr__(self) -> str:
        return f"Client({self.base_url!r})"

    # -- handles --------------------------------------------------------------------------

    def element(self, path: str) -> Element:
        """Any element, by path (``demo/memory``; a circle is ``demo``)."""
        return Element(self._t, path)

    def memory(self, path: str) -> MemoryElement:
        """A memory element: store, search, list, ... its memories."""
        return MemoryElement(self._t, path)

    def agent(self, path: str) -> Agent:
        """A triformer (an agent): observe, tools."""
        return Agent(self._t, path)

    def circle(self, name: str) -> Circle:
        """A circle: create elements in it, export and import bundles."""
        return Circle(self._t, name)

    # -- server-wide ----------------------------------------------------------------------

    def events(self, *, path: str | None = None, circle: str | None = None,
               last_event_id: int | None = None, limit: int | None = None,
               timeout: float | None = None, keepalive: float | None = None,
               reconnect: bool = True, reconnect_delay: float | None = None) -> EventStream:
        """Activity events of the token's circle (or of one element, ``path``) as they
        happen, first replaying those after ``last_event_id``. See :class:`EventStream`.

        The connection opens on the first ``next()``.
        """
        return EventStream(self._t, circle=circle, path=path, last_event_id=last_event_id,
                           limit=limit, timeout=timeout, keepalive=keepalive,
                           reconnect=reconnect, reconnect_delay=reconnect_delay)

    def health(self) -> JSON:
        """``GET /healthz`` (needs no token)."""
        return cast(JSON, self._t.call("GET", "/healthz", safe=True))

    def openapi(self) -> JSON:
        """The server's OpenAPI 3.1 document."""
        return cast(JSON, self._t.call("GET", "/openapi.json", safe=True))

    def call(self, method: str, path: str, body: JSON | None = None, *,
             params: dict[str, Any] | None = None, headers: dict[str, str] | None = None,
             safe: bool | None = None) -> Any:
        """Any route, for ops newer than this client: ``call("GET", "/api/demo/ops/tree")``.

        ``safe`` (may it be repeated after a lost answer?) defaults to True for GET only.
        """
        return self._t.call(method, path, json=body, params=params, headers=headers,
                            safe=method.upper() == "GET" if safe is None else safe)
