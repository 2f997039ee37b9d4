"""MCP over streamable HTTP at ``/mcp/<circle>/<slug>``: one agent's tools per URL.

The connection says who and about whom, once, for every message it carries:

- ``Authorization: Bearer <token>``: the caller; its role in the agent's circle, the
  policies and rate limits attached, decide as for any op (a cookie is never accepted
  here, so a browser holding a console session cannot be made to call tools);
- ``X-Triform-Env``: which branch's spec governs, as for the HTTP API;
- the conversation's subject, fixed for the connection: query parameters
  ``subject_type`` and ``subject_id`` (or headers ``X-Triform-Subject-Type`` /
  ``X-Triform-Subject-Id``), as the ``tools_call`` op takes them. Each of these, and the
  token and environment headers, may be given once, and not empty: 400 otherwise.

A browser's request must come from a page of this server (``check_origin``: the MCP spec's
rule against DNS rebinding). Each request is then admitted as the agent's ``tools`` op
through ``element.invoke``, so a missing or bad token is 401, another circle's path 403
and an unknown agent 404, in the one error shape, before any protocol is spoken; a message
other than a tool call spends the agent's rate-limit hit there (a tool call spends its
own). Then the SDK's transport answers: ``tools/list`` and ``tools/call``
run the ``tools`` and ``tools_call`` ops on the one op path (``api/mcp_tools.py``), and
protocol errors are the SDK's, per the spec (a body that is not JSON: 400 with -32700;
a wrong ``Accept``: 406; never a 500).

How an ASGI transport lives in a WSGI server: the SDK's session manager runs in stateless,
JSON-response mode on one asyncio event loop in a thread of this process, and a2wsgi (a
maintained ASGI-to-WSGI adapter) hands each request from waitress's worker thread to that
loop and streams the answer back. Stateless because every POST then carries one whole
exchange and ends with its answer: no session lives in one process's memory (several
workers can serve one agent), no request holds a waitress thread after its answer, and
nothing is left to expire. A server-to-client stream (GET) is not offered: 405, as the spec
allows; the tool list never changes while a client holds it (``listChanged: false``).
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast
from urllib.parse import urlsplit

from a2wsgi import ASGIMiddleware
from flask import Blueprint, Flask, Response, current_app, request
from mcp.server.context import ServerRequestContext
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

from element import Home, Invocation, invoke

from .errors import ApiError
from .mcp_tools import InvokeBackend, mcp_server
from .routes import bearer_token, home

__all__ = ["blueprint", "init_mcp", "McpBridge", "Connection", "connection_of", "PREFIX"]

blueprint = Blueprint("mcp", __name__)
PREFIX = "/mcp/"
INSTRUCTIONS = ("Long-term memory of this agent. Search it before answering questions about "
                "the user; store durable facts, preferences and procedures when the tools "
                "allow.")


class Lookup(Protocol):
    """Headers or a query string, of Flask or of Starlette (case-insensitive headers)."""

    def get(self, key: str) -> str | None: ...

    def getlist(self, key: str) -> list[str]: ...


def _once(lookup: Lookup, name: str, where: str) -> str | None:
    """The one value of ``name``. Flask's ``get`` answers the first of several values and
    Starlette's the last, so admission and the SDK would read different subjects (issue
    26: ``?subject_id=alice&subject_type=&subject_id=`` ran unconfined): refused.

    :raise ApiError: given more than once, or given empty.
    """
    values = lookup.getlist(name)
    if len(values) > 1:
        raise ApiError("INVALID_REQUEST", "validation",
                       f"{name}: the {where} gives it {len(values)} times; give it once")
    if values and not values[0].strip():
        raise ApiError("INVALID_REQUEST", "validation", f"{name}: the {where} gives it "
                       "empty; leave it out for no subject")
    return values[0] if values else None


@dataclass(frozen=True)
class Connection:
    """What one HTTP request to ``/mcp/<circle>/<slug>`` says about its caller."""

    agent: str
    token: str | None
    env: str | None
    subject: tuple[str, str] | None


def connection_of(path: str, headers: Lookup, query: Lookup) -> Connection:
    """Read a request's :class:`Connection` (``path`` starts with ``/mcp/``).

    :raise ApiError: the subject is half given, given twice, or given empty.
    """
    given = {}
    for header in ("Authorization", "X-Triform-Env"):
        _once(headers, header, "request's headers")
    for name in ("type", "id"):
        from_query = _once(query, f"subject_{name}", "query string")
        from_header = _once(headers, f"X-Triform-Subject-{name.title()}", "request's headers")
        if from_query and from_header and from_query != from_header:
            raise ApiError("INVALID_REQUEST", "validation", f"subject_{name}: the query and "
                           f"the X-Triform-Subject-{name.title()} header disagree")
        given[name] = from_query or from_header
    if (given["type"] is None) != (given["id"] is None):
        raise ApiError("INVALID_REQUEST", "validation",
                       "subject_type and subject_id go together")
    subject = (given["type"], given["id"]) if given["type"] and given["id"] else None
    return Connection(agent=path[len(PREFIX):].strip("/"),
                      token=bearer_token(headers.get("Authorization")),
                      env=headers.get("X-Triform-Env"), subject=subject)


class McpBridge:
    """The SDK's streamable HTTP transport for ``home``, as a WSGI app (module docstring).

    The event loop and its thread start with the first request and end with :meth:`close`.
    """

    def __init__(self, home: Home, max_body: int) -> None:
        self.home, self.max_body = home, max_body
        self.server = mcp_server(self._backend, instructions=INSTRUCTIONS)
        self._lock = threading.Lock()
        self._wsgi: ASGIMiddleware | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def _backend(self, ctx: ServerRequestContext[Any, Any]) -> InvokeBackend:
        http = ctx.request
        if http is None:
            raise RuntimeError("an MCP message reached the HTTP bridge without its request")
        connection = connection_of(http.url.path, http.headers, http.query_params)
        return InvokeBackend(self.home, connection.agent, env=connection.env,
                             subject=connection.subject, token=connection.token)

    def wsgi(self) -> ASGIMiddleware:
        """The WSGI app, its event loop started on first use."""
        with self._lock:
            if self._wsgi is None:
                loop = asyncio.new_event_loop()
                started = threading.Event()
                self._stop = asyncio.Event()
                # A manager runs once: each start (after a close) gets its own.
                manager = StreamableHTTPSessionManager(
                    self.server, stateless=True, json_response=True,
                    max_request_body_size=self.max_body)

                async def serve(stop: asyncio.Event) -> None:
                    async with manager.run():
                        started.set()
                        await stop.wait()

                self._thread = threading.Thread(
                    target=loop.run_until_complete, args=(serve(self._stop),),
                    name="triform-mcp", daemon=True)
                self._thread.start()
                started.wait(30)
                self._loop = loop
                self._wsgi = ASGIMiddleware(manager.handle_request,  # type: ignore[arg-type]
                                            loop=loop)
            return self._wsgi

    def close(self) -> None:
        """Stop the event loop (when it started) and wait for its thread."""
        with self._lock:
            if self._loop is None or self._stop is None or self._thread is None:
                return
            self._loop.call_soon_threadsafe(self._stop.set)
            self._thread.join(30)
            if not self._thread.is_alive():     # a stuck tool call keeps its loop
                self._loop.close()
            self._loop = self._wsgi = self._thread = None


def init_mcp(app: Flask, home: Home) -> McpBridge:
    """Make the app's MCP bridge (``app.extensions["triform.mcp"]``)."""
    bridge = McpBridge(home, int(app.config["MAX_JSON_BODY"]))
    app.extensions["triform.mcp"] = bridge
    return bridge


#: Hosts a browser page may be served from to call MCP over HTTP (besides PUBLIC_URL's).
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


def check_origin(origin: str | None, config: Mapping[str, Any]) -> None:
    """The MCP spec's rule against DNS rebinding: a request carrying an ``Origin`` (a
    browser's) must come from a page of this server: a loopback host, ``PUBLIC_URL``'s
    host, or an origin listed in ``MCP_ALLOWED_ORIGINS``. A rebound name (``evil.example``
    resolving to 127.0.0.1) is none of these. Clients that are not browsers send none.

    :raise ApiError: 403 ``ORIGIN_REFUSED``.
    """
    if origin is None:
        return
    listed = {o.strip().rstrip("/") for o in str(config.get("MCP_ALLOWED_ORIGINS") or "")
              .split(",") if o.strip()}
    public = urlsplit(str(config.get("PUBLIC_URL") or "")).hostname
    host = urlsplit(origin).hostname
    if origin.rstrip("/") in listed or (host is not None and (host in LOOPBACK
                                                              or host == public)):
        return
    raise ApiError("ORIGIN_REFUSED", "forbidden",
                   f"Origin {origin!r} is not this server's: a browser page may call MCP "
                   "over HTTP only from a loopback host, PUBLIC_URL's host, or an origin "
                   "listed in MCP_ALLOWED_ORIGINS")


def _is_tool_call(body: bytes) -> bool:
    """Whether the message is one ``tools/call`` (which spends its own rate-limit hit)."""
    try:
        message = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return isinstance(message, dict) and message.get("method") == "tools/call"


@blueprint.route("/mcp/<circle>/<slug>", methods=["GET", "POST", "DELETE"])
def endpoint(circle: str, slug: str) -> Response:
    check_origin(request.headers.get("Origin"), current_app.config)
    connection = connection_of(f"{PREFIX}{circle}/{slug}", request.headers, request.args)
    # Admission on the one op path. A tool call spends its rate-limit hit in the tool op;
    # every other message (initialize, tools/list...) spends one here, so a stream of
    # them is as bounded as a stream of tool calls (issue 26).
    body = request.get_data(cache=True)
    invoke(home(), Invocation(connection.agent, op="tools", token=connection.token,
                              env=connection.env, count_rate=not _is_tool_call(body)))
    if request.method != "POST":
        raise ApiError("METHOD_NOT_ALLOWED", "method_not_allowed",
                       "this MCP endpoint is stateless: POST each JSON-RPC message (no "
                       "server-to-client stream, no session to delete)",
                       headers={"Allow": "POST"})
    bridge: McpBridge = current_app.extensions["triform.mcp"]
    app = cast(Any, bridge.wsgi())     # a2wsgi's environ type is narrower than werkzeug's
    # The body was read above: the transport reads it again from a copy.
    environ = {k: v for k, v in request.environ.items() if k != "HTTP_TRANSFER_ENCODING"}
    environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})
    return cast(Response, Response.from_app(app, environ))
