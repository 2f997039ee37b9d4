"""``triform``: the one command-line entry point (design.md section 8).

Every command takes ``--home DIR`` (else ``TRIFORM_HOME``, else ``~/.triform``) and never
prompts, so scripts and tests can drive it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any, Sequence

from element.access import ROLES, create_token
from element.home import Home

from .app import create_app, default_home, default_model_cache, embedder_factory

__all__ = ["main"]


def _open_home(args: argparse.Namespace) -> Home:
    cache = Path(args.model_cache) if getattr(args, "model_cache", None) else None
    return Home(Path(args.home) if args.home else default_home(),
                embedder_factory(getattr(args, "embedder", "fastembed"), cache))


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
       -d '{{"content": "Ana prefers tea over coffee", "category": "preference", "context": "chat about breakfast", "intention": "plan a morning meeting"}}'
  curl -s -X POST {url}/api/{memory_path}/ops/search -H "Authorization: Bearer $TOKEN" \\
       -H 'Content-Type: application/json' -d '{{"query": "what does Ana drink?"}}'
  git clone http://triform:$TOKEN@{url.split('://', 1)[1]}/git/{memory_path}.git
""", flush=True)


def cmd_init(args: argparse.Namespace) -> int:
    home = _open_home(args)
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
    home = _open_home(args)
    if not home.catalog.elements():
        root, memory = home.init(args.circle)
        token = create_token(home.catalog, root.circle, "admin", "init")
        _print_welcome(home, root.circle, memory.path, token,
                       f"http://{args.host}:{args.port}")
    app = create_app({"ENV": args.env}, home=home)
    if args.embedder == "fastembed":
        print("loading the embedding model...", flush=True)
        home.embedder  # noqa: B018  (load now, not on the first request)
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


def cmd_token(args: argparse.Namespace) -> int:
    home = _open_home(args)
    if args.action == "create":
        print(create_token(home.catalog, args.circle, args.role, args.name))
    elif args.action == "list":
        print(json.dumps(home.catalog.tokens(args.circle), indent=2))
    else:
        if not home.catalog.revoke_token(args.id):
            print(f"no active token {args.id!r}", file=sys.stderr)
            return 1
        print(f"revoked {args.id}")
    return 0


def cmd_model(args: argparse.Namespace) -> int:
    from index.model import provision_model

    cache = Path(args.model_cache) if args.model_cache else default_model_cache()
    started = time.monotonic()
    path = provision_model(cache, log=lambda line: print(line, flush=True))
    print(f"model ready at {path} ({time.monotonic() - started:.1f} s)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triform", description=__doc__.splitlines()[0])
    parser.add_argument("--home", help="data home (default: $TRIFORM_HOME or ~/.triform)")
    parser.add_argument("--model-cache", help="model cache (default: "
                        "$TRIFORM_MODEL_CACHE or ~/.cache/triform/models)")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed",
                        help=argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="command", required=True)

    init = sub.add_parser("init", help="create the home, a circle and a memory element")
    init.add_argument("--circle", default="demo")
    init.add_argument("--host", default="127.0.0.1")
    init.add_argument("--port", type=int, default=8765)
    init.set_defaults(run=cmd_init)

    serve = sub.add_parser("serve", help="serve the HTTP API and git (runs init when fresh)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument("--env", choices=["draft", "demo", "live"], default="draft")
    serve.add_argument("--circle", default="demo")
    serve.add_argument("--threads", type=int, default=8)
    serve.set_defaults(run=cmd_serve)

    token = sub.add_parser("token", help="create, list or revoke API tokens")
    tsub = token.add_subparsers(dest="action", required=True)
    create = tsub.add_parser("create", help="print a new token, alone")
    create.add_argument("--circle", required=True)
    create.add_argument("--role", choices=sorted(ROLES), required=True)
    create.add_argument("--name")
    listing = tsub.add_parser("list")
    listing.add_argument("--circle")
    revoke = tsub.add_parser("revoke")
    revoke.add_argument("id")
    token.set_defaults(run=cmd_token)

    model = sub.add_parser("model", help="provision the embedding model (one time)")
    model.add_argument("action", choices=["provision"])
    model.set_defaults(run=cmd_model)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args: Any = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
