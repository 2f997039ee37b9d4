"""The command line beside a running server: ``memory``, ``eval``, ``reindex`` and ``import
--overwrite`` go through it.

A served home's memory stores are held by the server (one writer per element across
processes), so when ``<home>/server.json`` names a live server (``api/discovery.py``) these
commands call its HTTP API instead of opening the stores: ``memory`` with one call of the
standard library (``api/server_call.py``, so it starts fast), the others with the Python
client (``clients/python``). They print what the local commands print and exit with the
same codes: the answer's JSON on stdout, a refusal in the API's error shape on stderr
(exit 1). The caller is then a token's holder, not the home's operator: the token comes
from ``--token`` or ``TRIFORM_TOKEN``, and its role, policies and rate limits apply.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..options import default_home
from ..discovery import ServerInfo, find_server
from ..server_call import ServerRefused, call_server, unreachable
from .common import EXIT_REFUSED, UsageError, print_json

if TYPE_CHECKING:
    from triform_client import Client

__all__ = ["served", "add_token_option", "remote_memory", "remote_reindex", "remote_import",
           "remote_eval", "token_of"]


def home_path(args: argparse.Namespace) -> Path:
    return Path(getattr(args, "home", None) or default_home())


def served(args: argparse.Namespace) -> ServerInfo | None:
    """The live server of the command line's home, if one holds it."""
    return find_server(home_path(args))


def add_token_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--token", help="bearer token for when the home is served "
                        "(default: $TRIFORM_TOKEN); unused otherwise")


def token_of(args: argparse.Namespace, server: ServerInfo) -> str:
    """``--token``, else ``$TRIFORM_TOKEN``.

    :raise UsageError: neither is set; the message says how to make one.
    """
    token = getattr(args, "token", None) or os.environ.get("TRIFORM_TOKEN")
    if not token:
        raise UsageError(
            f"{home_path(args)} is served at {server.url} (pid {server.pid}), which holds "
            "its memory stores: this command goes through it and needs a token. Pass "
            "--token or set TRIFORM_TOKEN (make one with `triform token create --circle "
            "CIRCLE --role member`), or stop the server.")
    return token


def _client(args: argparse.Namespace, server: ServerInfo, env: str | None) -> Client:
    try:
        from triform_client import Client
    except ImportError:   # `pip install -e .` alone; the Makefile installs both
        raise UsageError(f"{home_path(args)} is served at {server.url}; talking to it "
                         "needs the Python client: pip install -e clients/python") from None
    # One retry: a local server either answers or is down, and a person is waiting.
    return Client(server.url, token_of(args, server), env=env, retries=1)


def _call(args: argparse.Namespace, server: ServerInfo, env: str | None,
          work: Callable[[Client], Any],
          show: Callable[[Any], int | None] = print_json) -> int:
    """Run ``work`` with a client of ``server`` and ``show`` its answer (default: print it as
    JSON; what ``show`` returns is the exit code); a refusal is printed in the API's error
    shape on stderr (exit 1), as the local commands do."""
    from triform_client import TriformError

    with _client(args, server, env) as client:
        try:
            answer = work(client)
        except TriformError as exc:
            return _refused(exc.body if isinstance(exc.body.get("error"), dict) else {
                "error": {"code": exc.code, "class": exc.error_class,
                          "retryable": exc.retryable, "message": exc.message}})
    return show(answer) or 0


#: ``triform memory ACTION`` over HTTP: the method and op path (``{id}``: the memory's).
MEMORY_ROUTES = {"store": ("POST", "store"), "search": ("POST", "search"),
                 "list": ("GET", "memories"), "get": ("GET", "memories/{id}"),
                 "history": ("GET", "memories/{id}/history"),
                 "update": ("POST", "memories/{id}/update"),
                 "delete": ("POST", "memories/{id}/delete"),
                 "forget-subject": ("POST", "forget_subject")}


def remote_memory(args: argparse.Namespace, server: ServerInfo, body: dict[str, Any] | None,
                  query: dict[str, str], headers: dict[str, str]) -> int:
    """``triform memory ACTION`` through the server: the same op, body and headers as on
    the home itself, so the same answer is printed. One call with the standard library
    (``api/server_call.py``): the command starts in a fraction of a second."""
    method, op_path = MEMORY_ROUTES[args.action]
    path = f"/api/{quote(args.element)}/ops/" + op_path.format(
        id=quote(getattr(args, "id", None) or "", safe=""))
    try:
        answer = call_server(server.url, token_of(args, server), method, path, body,
                             query=query, headers={**headers, "X-Triform-Env": args.env})
    except ServerRefused as exc:
        return _refused(exc.body)
    except OSError as exc:
        return _refused({"error": unreachable(server.url, exc)})
    print_json(answer)
    return 0


def _refused(body: dict[str, Any]) -> int:
    """The server's refusal on stderr, as it answered it (the API's error shape); exit 1."""
    print(json.dumps(body, ensure_ascii=False, sort_keys=True), file=sys.stderr)
    return EXIT_REFUSED


def remote_reindex(args: argparse.Namespace, server: ServerInfo, paths: list[str]) -> int:
    """``triform reindex`` through the server: the ``reindex`` op, element by element."""
    def work(client: Client) -> Any:
        report = []
        for path in paths:
            print(f"reindex {path}: on the server at {server.url}", file=sys.stderr,
                  flush=True)
            report.append(client.call("POST", f"/api/{quote(path)}/ops/reindex", {},
                                      safe=True))
        return {"reindexed": report}
    return _call(args, server, None, work)


def remote_import(args: argparse.Namespace, server: ServerInfo, body: dict[str, Any]) -> int:
    """``triform import --overwrite`` through the server: replacing an element moves its
    memories, and the server holds them open, so only the server may do it."""
    return _call(args, server, None, lambda client: client.call(
        "POST", f"/api/{quote(args.into)}/ops/import/bundle", body, safe=False))


def remote_eval(args: argparse.Namespace, server: ServerInfo,
                show: Callable[[Any], int | None]) -> int:
    """``triform eval`` through the server: the ``eval`` op reads the memories it holds."""
    return _call(args, server, None, lambda client: client.memory(args.element).eval(
        args.branch, cases=args.case or None), show)
