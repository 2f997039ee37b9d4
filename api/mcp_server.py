"""``triform mcp --agent CIRCLE/SLUG``: an agent's conscious memory tools over MCP stdio.

The Model Context Protocol's stdio transport: JSON-RPC 2.0 messages, one per line, requests
on stdin and responses on stdout (logs go to stderr; anything else printed is sent there
too, so stdout carries protocol only). Methods: ``initialize`` (the client's protocol
version when we speak it, else ours), ``notifications/initialized`` and other notifications
(no answer), ``ping``, ``tools/list`` and ``tools/call``. An unknown method is -32601, a line
that is not JSON -32700, a message that is not a request -32600, an unknown tool -32602. A
tool the agent may not use, or a call the op refuses, is a tool result with
``isError: true`` whose text is the API's error shape (``MEMORY_TOOL_FORBIDDEN``...).

The agent is a triformer (its bonded memories' tools) or a memory element. Two backends:

local (default)  opens the data home in this process and calls the agent's tools on the
                 one op path (``element.agents.tools``), as the home's operator (like the
                 CLI). A memory store is
                 one writer per element across processes, so do not run this beside
                 ``triform serve`` on the same home: use ``--url`` then.
remote (--url)   calls a running server's ``tools`` and ``tools/call`` ops with a bearer
                 token (``--token`` or ``TRIFORM_TOKEN``); its role, policies and rate
                 limits apply.

``--subject-type``/``--subject-id`` fix the conversation's subject for every call (see
``element.agents.tools``). See ``docs/agents.md``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import sys
import urllib.parse
from typing import Any, BinaryIO, Protocol
from collections.abc import Sequence

from element import (ElementError, Home, Principal, UnknownTool, agent_tools, call_agent_tool,
                     error_body)
from index import SUBJECT_TYPES, StoreError
from source import BRANCHES, SourceError

from .config import add_home_options, open_home

__all__ = ["McpServer", "LocalBackend", "RemoteBackend", "ToolError", "add_mcp_command",
           "run", "main", "PROTOCOL_VERSIONS"]

#: Newest first; ``initialize`` answers the client's version when it is one of these.
PROTOCOL_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05")
SERVER_INFO = {"name": "triform-memory", "title": "Triform Memory", "version": "0.1.0"}
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = \
    -32700, -32600, -32601, -32602, -32603


class ToolError(Exception):
    """A tool call the backend refused: ``error`` is the API's error object."""

    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", "tool call refused"))
        self.error = error


class UnknownToolError(Exception):
    """The tool name is none of the memory tools (a protocol error, -32602)."""


def _error_object(exc: BaseException) -> dict[str, Any]:
    return dict(error_body(exc)["error"])


class Backend(Protocol):
    def list_tools(self) -> list[dict[str, Any]]: ...

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]: ...

    def close(self) -> None: ...


class LocalBackend:
    """Tools of the agent at ``agent_path`` in an open home (the operator's authority)."""

    def __init__(self, home: Home, agent_path: str, env: str = "draft",
                 subject: tuple[str, str] | None = None) -> None:
        self.home, self.path, self.env, self.subject = home, agent_path, env, subject
        element = home.catalog.element_at(agent_path)
        if element.element_type not in ("triformer", "memory"):
            raise ValueError(f"{agent_path} is a {element.element_type}; the agent must be a "
                             "triformer or a memory element")

    def list_tools(self) -> list[dict[str, Any]]:
        # Read each time: a spec_update may have changed conscious_access or the bonds.
        return agent_tools(self.home, self.home.catalog.element_at(self.path), self.env)

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            agent = self.home.catalog.element_at(self.path)
            return call_agent_tool(self.home, agent, name, arguments, env=self.env,
                                   subject=self.subject,
                                   principal=Principal.operator(agent.circle,
                                                                f"mcp:{self.path}"))
        except UnknownTool as exc:
            raise UnknownToolError(exc.message) from None
        except (ElementError, StoreError, SourceError) as exc:
            raise ToolError(_error_object(exc)) from None

    def close(self) -> None:
        self.home.close()


class RemoteBackend:
    """Tools of the agent at ``agent_path`` on a running server, over its HTTP API."""

    def __init__(self, url: str, token: str | None, agent_path: str, env: str = "draft",
                 subject: tuple[str, str] | None = None, timeout: float = 60.0) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"--url must be an http(s) URL, not {url!r}")
        self.parts, self.host, self.token, self.path = parts, parts.hostname, token, agent_path
        self.env, self.subject, self.timeout = env, subject, timeout

    def _request(self, method: str, op: str, body: Any = None) -> tuple[int, Any]:
        kind = http.client.HTTPSConnection if self.parts.scheme == "https" \
            else http.client.HTTPConnection
        conn = kind(self.host, self.parts.port, timeout=self.timeout)
        headers = {"X-Triform-Env": self.env, "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        path = f"{self.parts.path.rstrip('/')}/api/{urllib.parse.quote(self.path)}/ops/{op}"
        try:
            conn.request(method, path, body=data, headers=headers)
            response = conn.getresponse()
            payload = response.read()
        finally:
            conn.close()
        try:
            return response.status, json.loads(payload)
        except ValueError:
            return response.status, None

    @staticmethod
    def _error(status: int, body: Any) -> dict[str, Any]:
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            return dict(body["error"])
        return {"code": f"HTTP_{status}", "class": "internal", "retryable": status >= 500,
                "message": f"the server answered HTTP {status}"}

    def list_tools(self) -> list[dict[str, Any]]:
        status, body = self._request("GET", "tools")
        if status != 200:
            raise RuntimeError(self._error(status, body)["message"])
        return list(body["tools"])

    def call_tool(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        request: dict[str, Any] = {"name": name, "arguments": arguments}
        if self.subject:
            request.update(subject_type=self.subject[0], subject_id=self.subject[1])
        try:
            status, body = self._request("POST", "tools/call", request)
        except OSError as exc:
            raise ToolError({"code": "UNAVAILABLE", "class": "unavailable",
                             "retryable": True, "message": f"the server is unreachable: "
                                                           f"{exc}"}) from None
        if status == 200 and isinstance(body, dict):
            return dict(body["result"])
        error = self._error(status, body)
        if error.get("code") == UnknownTool.code:
            raise UnknownToolError(error.get("message", "unknown tool"))
        raise ToolError(error)

    def close(self) -> None:
        pass


class McpServer:
    """The protocol: one JSON-RPC message in, at most one out (:meth:`handle`)."""

    def __init__(self, backend: Backend, *, instructions: str | None = None) -> None:
        self.backend = backend
        self.instructions = instructions

    @staticmethod
    def _error(message_id: Any, code: int, text: str) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": text}}

    def handle(self, message: Any) -> dict[str, Any] | None:
        """The answer to one parsed message, or None for a notification or a response."""
        if not isinstance(message, dict):
            return self._error(None, INVALID_REQUEST, "Invalid Request: a message must be "
                               "one JSON object (batches are not supported)")
        message_id = message.get("id")
        if "method" not in message and ("result" in message or "error" in message):
            return None     # a response to a request we never send: nothing to answer
        if message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
            return self._error(message_id, INVALID_REQUEST,
                               "Invalid Request: jsonrpc must be \"2.0\" and method a string")
        if "id" not in message:
            return None     # notifications/initialized, notifications/cancelled...
        params = message.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return self._error(message_id, INVALID_PARAMS, "Invalid params: not an object")
        try:
            result = self._dispatch(message["method"], params)
        except _RpcError as exc:
            return self._error(message_id, exc.code, exc.text)
        except Exception as exc:
            print(f"triform mcp: {message['method']} failed: {exc!r}", file=sys.stderr)
            return self._error(message_id, INTERNAL_ERROR, f"Internal error: {exc}")
        return {"jsonrpc": "2.0", "id": message_id, "result": result}

    def _dispatch(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        if method == "initialize":
            asked = params.get("protocolVersion")
            answer: dict[str, Any] = {
                "protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": SERVER_INFO}
            if self.instructions:
                answer["instructions"] = self.instructions
            return answer
        if method == "ping":
            return {}
        if method == "tools/list":
            return {"tools": self.backend.list_tools()}
        if method == "tools/call":
            name, arguments = params.get("name"), params.get("arguments", {})
            if not isinstance(name, str):
                raise _RpcError(INVALID_PARAMS, "Invalid params: name must be a string")
            if arguments is None:
                arguments = {}
            if not isinstance(arguments, dict):
                raise _RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
            try:
                result = self.backend.call_tool(name, arguments)
            except UnknownToolError as exc:
                raise _RpcError(INVALID_PARAMS, f"Unknown tool: {name} ({exc})") from None
            except ToolError as exc:
                return {"content": [{"type": "text", "text": json.dumps({"error": exc.error})}],
                        "isError": True}
            return {"content": [{"type": "text", "text": json.dumps(result)}],
                    "structuredContent": result, "isError": False}
        raise _RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")

    def serve(self, stdin: BinaryIO, stdout: BinaryIO) -> None:
        """Answer line by line until stdin ends."""
        for raw in stdin:
            line = raw.strip()
            if not line:
                continue
            try:
                message = json.loads(line.decode("utf-8"))
            except (UnicodeDecodeError, ValueError) as exc:
                response: dict[str, Any] | None = self._error(
                    None, PARSE_ERROR, f"Parse error: {exc}")
            else:
                response = self.handle(message)
            if response is not None:
                stdout.write(json.dumps(response, ensure_ascii=False).encode("utf-8") + b"\n")
                stdout.flush()


class _RpcError(Exception):
    def __init__(self, code: int, text: str) -> None:
        super().__init__(text)
        self.code, self.text = code, text


# -- the command ------------------------------------------------------------------------------

def _add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", required=True,
                        help="the agent: a triformer (or memory element) path, e.g. demo/bot")
    parser.add_argument("--env", choices=BRANCHES, default="draft",
                        help="which branch's spec governs (default draft)")
    parser.add_argument("--subject-type", choices=SUBJECT_TYPES,
                        help="fix the conversation's subject (with --subject-id)")
    parser.add_argument("--subject-id")
    parser.add_argument("--url", help="use a running server's API instead of the home")
    parser.add_argument("--token", help="with --url: a bearer token (default: $TRIFORM_TOKEN)")


def add_mcp_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``mcp --agent CIRCLE/SLUG`` to ``triform``'s subcommands (its ``run`` default).

    ``run`` reads ``--home``, ``--model-cache`` and the hidden ``--embedder`` from the
    top-level options when they are there.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp", help="serve an agent's memory tools over MCP stdio")
    _add_options(parser)
    parser.set_defaults(run=run)
    return parser


def _open_home(args: argparse.Namespace) -> Home:
    return open_home(getattr(args, "home", None),
                     embedder=getattr(args, "embedder", None) or "fastembed",
                     model_cache=getattr(args, "model_cache", None))


def run(args: argparse.Namespace) -> int:
    """Serve MCP on this process's stdin/stdout until stdin ends; 0, or 1/2 on bad setup."""
    if (args.subject_type is None) != (args.subject_id is None):
        print("triform mcp: --subject-type and --subject-id go together", file=sys.stderr)
        return 2
    subject = (args.subject_type, args.subject_id) if args.subject_type else None
    out = sys.stdout.buffer
    sys.stdout = sys.stderr     # stray prints (model loading...) must not corrupt the protocol
    backend: Backend
    try:
        if args.url:
            backend = RemoteBackend(args.url, args.token or os.environ.get("TRIFORM_TOKEN"),
                                    args.agent, args.env, subject)
        else:
            backend = LocalBackend(_open_home(args), args.agent, args.env, subject)
    except (ElementError, ValueError) as exc:
        print(f"triform mcp: {getattr(exc, 'message', exc)}", file=sys.stderr)
        return 1
    # SIGTERM ends the loop like EOF, so the memory stores close and save their sidecars.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = McpServer(backend, instructions=(
        f"Long-term memory of {args.agent}. Search it before answering questions about the "
        "user; store durable facts, preferences and procedures when the tools allow."))
    try:
        server.serve(sys.stdin.buffer, out)
    finally:
        backend.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m api.mcp_server [--home H] [--embedder hashing] --agent C/SLUG ...``."""
    parser = argparse.ArgumentParser(prog="triform mcp", description=__doc__.splitlines()[0])
    add_home_options(parser)
    _add_options(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
