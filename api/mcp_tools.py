"""An agent's conscious memory tools as an MCP server, on the official SDK (PyPI ``mcp``).

One :func:`mcp_server` serves every transport (stdio: ``api/mcp_server.py``; streamable
HTTP: ``api/mcp_http.py``). The SDK speaks the protocol (the handshake, both protocol eras,
``ping``, JSON-RPC errors); this module only translates ``tools/list`` and ``tools/call``
into a :class:`Backend` and its answers back:

- a tool's answer is a result with its JSON as text and as ``structuredContent``;
- a call the op path refuses (``conscious_access``, the caller's role, a policy, a bad
  argument, an unknown memory id) is a result with ``isError: true`` whose text is the
  API's error shape, so the model sees why and can correct itself;
- a tool name that is none of the memory tools is the protocol error -32602 (the spec's
  "unknown tool"); a failure to list the tools is -32603 with the API's error as ``data``.

Backends run an agent's tools on the one op path: :class:`InvokeBackend` calls the
``tools`` and ``tools_call`` ops through ``element.invoke`` in this process (with a token,
or as the home's operator); :class:`RemoteBackend` calls the same ops of a running server
over HTTP. Either way every tool call is ``element.agents.tools.call_agent_tool`` behind
``invoke``, so roles, policies, rate limits, the fixed subject and the error shape hold.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from typing import Any, Protocol

import anyio.to_thread
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types import (INTERNAL_ERROR, INVALID_PARAMS, CallToolRequestParams, CallToolResult,
                       ContentBlock, ListToolsResult, PaginatedRequestParams, TextContent,
                       Tool)

from element import ElementError, Home, Invocation, UnknownTool, error_body, invoke
from index import StoreError
from source import SourceError

from .server_call import ServerRefused, call_server, unreachable

from .routes import MAX_JSON_DEPTH, json_depth

__all__ = ["Backend", "InvokeBackend", "RemoteBackend", "ToolError", "UnknownToolError",
           "mcp_server", "SERVER_NAME", "SERVER_VERSION", "instructions_for"]

SERVER_NAME, SERVER_TITLE, SERVER_VERSION = "triform-memory", "Triform Memory", "0.1.0"
Subject = tuple[str, str]


class ToolError(Exception):
    """A tool call the op path refused: ``error`` is the API's error object."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", "tool call refused"))
        self.error = error


class UnknownToolError(Exception):
    """The tool name is none of the memory tools (a protocol error, -32602)."""


class Backend(Protocol):
    """Where an agent's tools run. Both methods block; the server calls them in a thread."""

    def list_tools(self) -> list[dict[str, Any]]:
        """MCP ``tools/list`` entries. :raise ToolError: the tools cannot be listed."""
        ...

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool's answer. :raise ToolError, UnknownToolError:"""
        ...


def _error_object(exc: BaseException) -> dict[str, Any]:
    return dict(error_body(exc)["error"])


class InvokeBackend:
    """The tools of the agent at ``agent_path`` in ``home``, through ``element.invoke``.

    The caller is a bearer ``token`` (its role, policies and rate limits apply) or, with
    ``operator``, the home's owner under that name (``triform mcp`` on its own home).
    """

    def __init__(self, home: Home, agent_path: str, *, env: str | None = None,
                 subject: Subject | None = None, token: str | None = None,
                 operator: str | None = None) -> None:
        self.home, self.path, self.env, self.subject = home, agent_path, env, subject
        self.token, self.operator = token, operator

    def _invoke(self, op: str, body: dict[str, Any] | None = None) -> Any:
        try:
            return invoke(self.home, Invocation(self.path, op=op, token=self.token,
                                                 operator=self.operator, body=body,
                                                 env=self.env)).body
        except UnknownTool as exc:
            raise UnknownToolError(exc.message) from None
        except (ElementError, StoreError, SourceError) as exc:
            raise ToolError(_error_object(exc)) from None

    def list_tools(self) -> list[dict[str, Any]]:
        # Asked each time: a spec_update may have changed conscious_access or the bonds.
        return list(self._invoke("tools")["tools"])

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name, "arguments": arguments}
        if self.subject:
            body.update(subject_type=self.subject[0], subject_id=self.subject[1])
        return dict(self._invoke("tools_call", body)["result"])


class RemoteBackend:
    """The tools of the agent at ``agent_path`` on a running server, over its HTTP API."""

    def __init__(self, url: str, token: str | None, agent_path: str, env: str = "draft",
                 subject: Subject | None = None, timeout: float = 60.0) -> None:
        """:raise ValueError: ``url`` is not an http(s) URL."""
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--url must be an http(s) URL, not {url!r}")
        self.url, self.token, self.path = url, token, agent_path
        self.env, self.subject, self.timeout = env, subject, timeout

    def _request(self, method: str, op: str, body: Any = None) -> Any:
        try:
            answer = call_server(self.url, self.token, method,
                                 f"/api/{urllib.parse.quote(self.path)}/ops/{op}", body,
                                 headers={"X-Triform-Env": self.env}, timeout=self.timeout)
        except ServerRefused as exc:
            if exc.error.get("code") == UnknownTool.code:
                raise UnknownToolError(exc.error.get("message", "unknown tool")) from None
            raise ToolError(exc.error) from None
        except OSError as exc:
            raise ToolError(unreachable(self.url, exc, "UNAVAILABLE")) from None
        if not isinstance(answer, dict):
            raise ToolError({"code": "HTTP_200", "class": "internal", "retryable": False,
                             "message": "the server answered without a JSON object"})
        return answer

    def list_tools(self) -> list[dict[str, Any]]:
        return list(self._request("GET", "tools")["tools"])

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        request: dict[str, Any] = {"name": name, "arguments": arguments}
        if self.subject:
            request.update(subject_type=self.subject[0], subject_id=self.subject[1])
        return dict(self._request("POST", "tools/call", request)["result"])


def _text(value: Any) -> list[ContentBlock]:
    return [TextContent(type="text", text=json.dumps(value, ensure_ascii=False))]


def instructions_for(agent_path: str) -> str:
    """What the server tells a client's model about the tools (``initialize``)."""
    return (f"Long-term memory of {agent_path}. Search it before answering questions about "
            "the user; store durable facts, preferences and procedures when the tools allow.")


BackendOf = Callable[[ServerRequestContext[Any, Any]], Backend]


def mcp_server(backend_of: BackendOf, *, instructions: str | None = None) -> Server[Any]:
    """The SDK's low-level server answering ``tools/list`` and ``tools/call``.

    :param backend_of: the backend serving one request: a fixed one (stdio), or one made
        from the HTTP request the context carries (``ctx.request``).
    """

    async def in_thread(work: Callable[[], Any]) -> Any:
        # The op path blocks (SQLite, fsync, embedding): keep the event loop free.
        return await anyio.to_thread.run_sync(work)

    async def list_tools(ctx: ServerRequestContext[Any, Any],
                         _params: PaginatedRequestParams | None) -> ListToolsResult:
        backend = backend_of(ctx)
        try:
            listed = await in_thread(backend.list_tools)
        except (ToolError, UnknownToolError) as exc:
            error = exc.error if isinstance(exc, ToolError) else {"message": str(exc)}
            raise MCPError(INTERNAL_ERROR, f"the tools cannot be listed: {error['message']}",
                           {"error": error}) from None
        return ListToolsResult(tools=[Tool.model_validate(tool) for tool in listed])

    async def call_tool(ctx: ServerRequestContext[Any, Any],
                        params: CallToolRequestParams) -> CallToolResult:
        backend = backend_of(ctx)
        arguments = dict(params.arguments or {})
        if json_depth(arguments) > MAX_JSON_DEPTH:
            return CallToolResult(content=_text({"error": {
                "code": "INVALID_REQUEST", "class": "validation", "retryable": False,
                "message": f"arguments: nested deeper than {MAX_JSON_DEPTH} levels"}}),
                is_error=True)
        try:
            answer = await in_thread(lambda: backend.call_tool(params.name, arguments))
        except UnknownToolError as exc:
            raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name} ({exc})") from None
        except ToolError as exc:
            return CallToolResult(content=_text({"error": exc.error}), is_error=True)
        return CallToolResult(content=_text(answer), structured_content=answer)

    return Server(SERVER_NAME, version=SERVER_VERSION, title=SERVER_TITLE,
                  instructions=instructions, on_list_tools=list_tools, on_call_tool=call_tool)
