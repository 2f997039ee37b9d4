"""Commands that set a home up and run it: ``init``, ``serve``, ``token``, ``model``."""

from __future__ import annotations

import argparse
import errno
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

from element import Home, TokenNotFound, create_token, mark_backend

from ..app import create_app
from ..config import SettingInvalid, default_model_cache
from ..discovery import ServerInfo, advertise, find_server
from ..logs import configure_logging
from ..server import make_server
from ..sweep import start_retention_sweep
from .common import UsageError, guarded, home_of

__all__ = ["cmd_init", "cmd_serve", "cmd_token", "cmd_model"]


def write_token_file(path: Path, token: str) -> None:
    """Write ``token`` to ``path``, readable by its owner only (0600 whatever the umask):
    the admin token then never reaches stdout, a terminal's scrollback or a service log."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)


def _print_welcome(home: Home, circle: str, memory_path: str, token: str, url: str,
                   token_file: str | None = None) -> None:
    if token_file:
        write_token_file(Path(token_file), token)
        shown, export = f"written to {token_file} (0600)", f"$(cat {token_file})"
    else:
        shown = export = token
    print(f"""
Triform Memory is set up in {home.path}
  circle: {circle}    memory element: {memory_path}
  admin token (shown once; make more with `triform token create`):

    {shown}

Try it:
  export TOKEN={export}
  curl -s -X POST {url}/api/{memory_path}/ops/store -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' \\
       -d '{{"content": "Ana prefers tea over coffee", "category": "preference",
            "context": "chat about breakfast", "intention": "plan a morning meeting"}}'
  curl -s -X POST {url}/api/{memory_path}/ops/search -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' -d '{{"query": "what does Ana drink?"}}'
  git clone http://triform:$TOKEN@{url.split('://', 1)[1]}/git/{memory_path}.git
""", flush=True)


@guarded
def cmd_init(args: argparse.Namespace) -> int:
    with home_of(args) as home:
        if home.database_url is not None:
            # The home opened it, creating (or bringing up to date) the schema; a second
            # run changes nothing.
            home.memory_database()
            mark_backend(home.path, home.database_url)
            print("memory database ready: the catalog, rate limits and memories of this "
                  "home live in PostgreSQL")
        root, memory, created = home.init(args.circle)
        if created:
            token = create_token(home.catalog, root.circle, "admin", "init")
            # A served home's lines name its server, not the defaults of --host/--port.
            served = find_server(home.path)
            _print_welcome(home, root.circle, memory.path, token,
                           served.url if served else _url(args.host, args.port),
                           args.token_file)
        else:
            print(f"{home.path} already holds circle {args.circle!r}; "
                  "make a token with `triform token create`")
    return 0


def _url(host: str, port: int) -> str:
    """The base URL of ``host:port`` (an IPv6 address goes in brackets)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _bind(app: Any, args: argparse.Namespace) -> Any:
    """The waitress server, its socket bound (so the printed URL is the one that answers).

    :raise UsageError: the address is in use or cannot be bound.
    """
    try:
        return make_server(app, host=args.host, port=args.port, threads=args.threads)
    except OSError as exc:
        hint = " (another server runs there? pick a port with --port)" \
            if exc.errno == errno.EADDRINUSE else ""
        raise UsageError(f"serve: cannot listen on {args.host}:{args.port}: "
                         f"{exc.strerror or exc}{hint}") from None
    except ValueError as exc:   # waitress: a host it cannot resolve
        raise UsageError(f"serve: cannot listen on {args.host}:{args.port}: {exc}") from None


def _refuse_a_second_writer(home: Home, other: ServerInfo | None) -> None:
    """Memories in files have one writer per element: a second server of such a home
    would wait on every store's lock and fail. Workers share a home through PostgreSQL."""
    if other is not None and home.database_url is None:
        raise UsageError(f"serve: {home.path} is already served at {other.url} (pid "
                         f"{other.pid}), and its memories are files, which one server "
                         "holds; to run several workers, keep the memories in PostgreSQL "
                         "(serve --database URL, docs/deploy.md)")


@guarded
def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the home. The order makes every foreseeable failure end before anything is
    lost: the model is loaded, then the socket bound, and only then a fresh home is set up
    and its one-time admin token minted and printed with the real URL."""
    configure_logging(getattr(args, "log_format", "text"))
    # SIGTERM stops like Ctrl-C: the stores close and save their sidecars, the discovery
    # file goes.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    # Ctrl-C too, even when started in the background of a script (a shell then starts it
    # with SIGINT ignored, and Python keeps it so).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.monotonic()
    home = home_of(args)
    try:
        _refuse_a_second_writer(home, find_server(home.path))
        if args.embedder == "fastembed":
            print("loading the embedding model...", flush=True)
            home.embedder  # noqa: B018  (load now, not on the first request)
        if home.database_url is not None:
            home.memory_database()   # an unreachable database ends the start here, clearly
            mark_backend(home.path, home.database_url)
        # Each open event stream holds a worker thread: keep half of them for the API.
        try:
            app = create_app({"ENV": args.env,
                              "EVENTS_MAX_SUBSCRIBERS": max(1, args.threads // 2)}, home=home)
        except SettingInvalid as exc:   # a TRIFORM_* setting of the environment
            raise UsageError(f"serve: {exc}") from None
        server = _bind(app, args)
    except BaseException:
        home.close()
        raise
    url = _url(args.host, server.effective_port)
    try:
        if not home.catalog.elements():
            root, memory, created = home.init(args.circle)
            if created:
                token = create_token(home.catalog, root.circle, "admin", "init")
                _print_welcome(home, root.circle, memory.path, token, url, args.token_file)
            else:
                print(f"circle {root.circle!r} was set up by another worker starting beside "
                      "this one; its admin token was printed there", flush=True)
        if args.sweep_seconds > 0:
            start_retention_sweep(home, args.env, args.sweep_seconds)
        with advertise(home.path, url, args.env) as other:
            _refuse_a_second_writer(home, other)     # one started beside us meanwhile
            if other is not None:
                print(f"note: {home.path} is already served at {other.url} (pid "
                      f"{other.pid}); the command line keeps using that one",
                      file=sys.stderr, flush=True)
            # Printed once the socket is bound, so whoever waits for this line can connect.
            print(f"serving {home.path} ({args.env}) on {url} "
                  f"(ready in {time.monotonic() - started:.1f} s)", flush=True)
            server.run()
    except KeyboardInterrupt:
        pass            # Ctrl-C is how a server is stopped: a clean stop, exit 0
    finally:
        server.close()
        home.close()
    return 0


@guarded
def cmd_token(args: argparse.Namespace) -> int:
    with home_of(args) as home:
        if args.action == "create":
            print(create_token(home.catalog, args.circle, args.role, args.name))
        elif args.action == "list":
            print(json.dumps(home.catalog.tokens(args.circle), indent=2))
        elif not home.catalog.revoke_token(args.id):
            raise TokenNotFound(args.id)
        else:
            print(f"revoked {args.id}")
    return 0


@guarded
def cmd_model(args: argparse.Namespace) -> int:
    """Provision every model the lanes use (``$TRIFORM_LANE_MODELS``, else the default), and
    the lexicon the readings use."""
    from index import (
        lane_models,
        provision_int8_model,
        provision_lexicon,
        provision_model,
        provision_static_model,
    )

    cache = Path(args.model_cache) if args.model_cache else default_model_cache()
    by_name = {"minilm": provision_model, "minilm8": provision_int8_model,
               "static": provision_static_model}
    for name in dict.fromkeys(lane_models().values()):
        started = time.monotonic()
        provision = by_name[name]
        path = provision(cache, log=lambda line: print(line, flush=True))
        print(f"model ready at {path} ({time.monotonic() - started:.1f} s)")
    started = time.monotonic()
    path = provision_lexicon(cache, log=lambda line: print(line, flush=True))
    print(f"lexicon ready at {path} ({time.monotonic() - started:.1f} s)")
    return 0
