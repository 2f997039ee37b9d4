"""``triform mcp --agent CIRCLE/SLUG``: an agent's conscious memory tools over MCP stdio.

The official SDK's stdio transport (``mcp.server.stdio``) and server (``api/mcp_tools.py``):
JSON-RPC messages, one per line, requests on stdin and responses on stdout. While it
serves, the SDK points file descriptor 1 at stderr, so whatever else prints (model loading,
a library's warning) cannot corrupt the protocol. A line that is not JSON is answered with
-32700 and a JSON value that is not a JSON-RPC message with -32600 (id null), and the
session goes on: a client's bad line never ends the server.

The agent is a triformer (its bonded memories' tools) or a memory element. Two backends:

local (default)  opens the data home in this process and calls the agent's ``tools`` and
                 ``tools_call`` ops through ``element.invoke`` as the home's operator,
                 named ``mcp:<agent>`` in activity (like the CLI).
remote (--url,   calls a running server's ``tools`` and ``tools/call`` ops with a bearer
 or a served     token (``--token`` or ``TRIFORM_TOKEN``); its role, policies and rate
 home)           limits apply. A served home (``api/discovery.py``) holds its memory
                 stores, so the server's URL is used without ``--url``.

``--subject-type``/``--subject-id`` fix the conversation's subject for every call (see
``element.agents.tools``). The process ends at end of input or on SIGTERM, closing its
stores. See ``docs/agents.md``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from element import Home

from .config import open_home
from .discovery import find_server
from .mcp_tools import Backend, InvokeBackend, RemoteBackend, ToolError, instructions_for, \
    mcp_server
from .options import add_home_options, add_mcp_options, default_home

__all__ = ["add_mcp_command", "run", "main", "serve_stdio", "rejection"]


def rejection(exc: Exception) -> JSONRPCError | None:
    """The answer to a stdin line the SDK could not read as a JSON-RPC message: -32700
    when it is not JSON at all (or nested past the parser's limit), else -32600; None for
    a blank line (a keep-alive, not a message)."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    if errors and all(isinstance(e["input"], str) and not e["input"].strip() for e in errors):
        return None
    if errors and all(e["type"] != "json_invalid" for e in errors):
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(
            code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message"))
    return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(
        code=PARSE_ERROR, message="Parse error: the line is not JSON"))


async def serve_stdio(server: Server[Any]) -> None:
    """Serve ``server`` on this process's stdin/stdout until stdin ends or SIGTERM.

    At the end of input, the requests already read are answered before the session
    closes, so a script can pipe its messages in (``printf ... | triform mcp``) and read
    every answer: the SDK alone would cancel them.
    """
    async with stdio_server() as (wire_in, wire_out):
        # The SDK drops a line it cannot parse without a word; the spec (and a client
        # waiting on it) wants an error answer, so unreadable lines are answered here.
        messages_in, messages = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        answers_in, answers = anyio.create_memory_object_stream[SessionMessage](0)
        waiting: set[Any] = set()
        settled = anyio.Event()
        ended = False

        def check_settled() -> None:
            if ended and not waiting:
                settled.set()

        async def sort_lines() -> None:
            nonlocal ended
            async for item in wire_in:
                if isinstance(item, Exception):
                    answer = rejection(item)
                    if answer is not None:
                        await wire_out.send(SessionMessage(answer))
                    continue
                message = getattr(item.message, "root", item.message)
                if getattr(message, "method", None) is not None and \
                        getattr(message, "id", None) is not None:
                    waiting.add(message.id)
                await messages_in.send(item)
            ended = True
            check_settled()
            await settled.wait()
            await messages_in.aclose()

        async def pass_answers() -> None:
            async for item in answers:
                await wire_out.send(item)
                waiting.discard(getattr(getattr(item.message, "root", item.message), "id",
                                        None))
                check_settled()

        async def stop_on_sigterm(scope: anyio.CancelScope) -> None:
            with anyio.open_signal_receiver(signal.SIGTERM) as signals:
                async for _ in signals:
                    scope.cancel()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sort_lines)
            tasks.start_soon(pass_answers)
            tasks.start_soon(stop_on_sigterm, tasks.cancel_scope)
            async with answers_in:
                await server.run(messages, answers_in, server.create_initialization_options())
            tasks.cancel_scope.cancel()
        # stdio_server's writer runs until its stream closes; the SDK closed only ours.
        await wire_out.aclose()


# -- the command ------------------------------------------------------------------------------

def add_mcp_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``mcp --agent CIRCLE/SLUG`` to ``triform``'s subcommands (its ``run`` default).

    ``run`` reads ``--home``, ``--model-cache``, ``--database`` and the hidden
    ``--embedder`` from the top-level options when they are there.
    """
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp", help="serve an agent's memory tools over MCP stdio")
    add_mcp_options(parser)
    parser.set_defaults(run=run)
    return parser


def _open_home(args: argparse.Namespace) -> Home:
    return open_home(getattr(args, "home", None),
                     embedder=getattr(args, "embedder", None) or "fastembed",
                     model_cache=getattr(args, "model_cache", None),
                     database=getattr(args, "database", None))


def run(args: argparse.Namespace) -> int:
    """Serve MCP on stdin/stdout until stdin ends: 0; 1 when the agent cannot be served
    (unknown, not an agent, refused), 2 on bad options."""
    if (args.subject_type is None) != (args.subject_id is None):
        print("triform mcp: --subject-type and --subject-id go together", file=sys.stderr)
        return 2
    subject = (args.subject_type, args.subject_id) if args.subject_type else None
    home: Home | None = None
    backend: Backend
    # A served home's stores are the server's: go through it, as --url would.
    served = None if args.url else find_server(Path(getattr(args, "home", None)
                                                    or default_home()))
    url = args.url or (served.url if served else None)
    token = args.token or os.environ.get("TRIFORM_TOKEN")
    if served is not None and not token:
        print(f"triform mcp: the home is served at {served.url}, which holds its memory "
              "stores: pass --token or set TRIFORM_TOKEN", file=sys.stderr)
        return 2
    try:
        if url:
            backend = RemoteBackend(url, token, args.agent, args.env, subject)
        else:
            home = _open_home(args)
            backend = InvokeBackend(home, args.agent, env=args.env, subject=subject,
                                    operator=f"mcp:{args.agent}")
            # Asked once now, so a wrong --agent fails here rather than on every call.
            backend.list_tools()
    except ValueError as exc:
        print(f"triform mcp: {exc}", file=sys.stderr)
        return 2
    except ToolError as exc:
        print(f"triform mcp: {args.agent}: {exc.error['message']}", file=sys.stderr)
        if home is not None:
            home.close()
        return 1
    server = mcp_server(lambda _ctx: backend, instructions=instructions_for(args.agent))
    try:
        anyio.run(serve_stdio, server)
    finally:
        if home is not None:
            home.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m api.mcp_server [--home H] [--embedder hashing] --agent C/SLUG ...``."""
    parser = argparse.ArgumentParser(prog="triform mcp", description=__doc__.splitlines()[0])
    add_home_options(parser)
    add_mcp_options(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
