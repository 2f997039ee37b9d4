"""Commands that set a home up and run it: ``init``, ``serve``, ``token``, ``model``."""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path

from element import Home, create_token

from ..app import create_app
from ..config import default_model_cache
from ..sweep import start_retention_sweep
from .common import guarded, home_of

__all__ = ["cmd_init", "cmd_serve", "cmd_token", "cmd_model"]


def _print_welcome(home: Home, circle: str, memory_path: str, token: str, url: str) -> None:
    print(f"""
Triform Memory is set up in {home.path}
  circle: {circle}    memory element: {memory_path}
  admin token (shown once; make more with `triform token create`):

    {token}

Try it:
  export TOKEN={token}
  curl -s -X POST {url}/api/{memory_path}/ops/store -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' \\
       -d '{{"content": "Ana prefers tea over coffee", "category": "preference",
            "context": "chat about breakfast", "intention": "plan a morning meeting"}}'
  curl -s -X POST {url}/api/{memory_path}/ops/search -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' -d '{{"query": "what does Ana drink?"}}'
  git clone http://triform:$TOKEN@{url.split('://', 1)[1]}/git/{memory_path}.git
""", flush=True)


def cmd_init(args: argparse.Namespace) -> int:
    with home_of(args) as home:
        fresh = not home.catalog.elements(args.circle)
        root, memory = home.init(args.circle)
        if fresh:
            token = create_token(home.catalog, root.circle, "admin", "init")
            _print_welcome(home, root.circle, memory.path, token,
                           f"http://{args.host}:{args.port}")
        else:
            print(f"{home.path} already holds circle {args.circle!r}; "
                  "make a token with `triform token create`")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import waitress

    started = time.monotonic()
    home = home_of(args)
    if not home.catalog.elements():
        root, memory = home.init(args.circle)
        token = create_token(home.catalog, root.circle, "admin", "init")
        _print_welcome(home, root.circle, memory.path, token,
                       f"http://{args.host}:{args.port}")
    # Each open event stream holds a worker thread: keep half of them for the API.
    app = create_app({"ENV": args.env,
                      "EVENTS_MAX_SUBSCRIBERS": max(1, args.threads // 2)}, home=home)
    if args.embedder == "fastembed":
        print("loading the embedding model...", flush=True)
        home.embedder  # noqa: B018  (load now, not on the first request)
    if args.sweep_seconds > 0:
        start_retention_sweep(home, args.env, args.sweep_seconds)
    server = waitress.create_server(app, host=args.host, port=args.port,
                                    threads=args.threads)
    # Printed once the socket is bound, so whoever waits for this line can connect.
    print(f"serving {home.path} ({args.env}) on http://{args.host}:{args.port} "
          f"(ready in {time.monotonic() - started:.1f} s)", flush=True)
    # SIGTERM ends the loop like Ctrl-C, so the memory stores close and save their sidecars.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run()
    finally:
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
            print(f"no active token {args.id!r}", file=sys.stderr)
            return 1
        else:
            print(f"revoked {args.id}")
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    from index import provision_model

    cache = Path(args.model_cache) if args.model_cache else default_model_cache()
    started = time.monotonic()
    path = provision_model(cache, log=lambda line: print(line, flush=True))
    print(f"model ready at {path} ({time.monotonic() - started:.1f} s)")
    return 0
