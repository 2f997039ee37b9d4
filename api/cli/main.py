"""``triform``: the one command-line entry point (design.md section 8).

Every command takes ``--home DIR`` (else ``TRIFORM_HOME``, else ``~/.triform``) and never
prompts, so scripts and tests can drive it. The commands live by topic: ``setup.py`` (init,
serve, token, model), ``elements.py`` (element, memory, export, import), ``reindex.py``, and
``api/mcp_server.py`` (mcp).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from element import ROLES
from index import CATEGORIES, SUBJECT_TYPES
from source import BRANCHES

from ..mcp_server import add_mcp_command
from ..config import add_home_options
from .elements import cmd_element, cmd_export, cmd_import, cmd_memory
from .reindex import cmd_reindex
from .setup import cmd_init, cmd_model, cmd_serve, cmd_token

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triform", description=__doc__.splitlines()[0])
    add_home_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)

    init = sub.add_parser("init", help="create the home, a circle and a memory element")
    init.add_argument("--circle", default="demo")
    init.add_argument("--host", default="127.0.0.1")
    init.add_argument("--port", type=int, default=8765)
    init.set_defaults(run=cmd_init)

    serve = sub.add_parser("serve", help="serve the HTTP API and git (runs init when fresh)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765)
    serve.add_argument("--env", choices=BRANCHES, default="draft")
    serve.add_argument("--circle", default="demo")
    serve.add_argument("--threads", type=int, default=8)
    serve.add_argument("--sweep-seconds", type=float, default=600,
                       help="run the retention reaper this often (0: only on stats)")
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

    element = sub.add_parser("element", help="create or list elements")
    esub = element.add_subparsers(dest="action", required=True)
    ecreate = esub.add_parser("create", help="create an element; print it as JSON")
    ecreate.add_argument("--circle", required=True)
    ecreate.add_argument("--type", required=True, help="element type, e.g. memory")
    ecreate.add_argument("--slug", help="required for every type but circle")
    ecreate.add_argument("--parent", help="parent element path (default: the circle)")
    ecreate.add_argument("--name")
    ecreate.add_argument("--description")
    ecreate.add_argument("--properties", help="JSON object, checked against the type")
    elist = esub.add_parser("list", help="print elements as JSON")
    elist.add_argument("--circle")
    element.set_defaults(run=cmd_element)

    memory = sub.add_parser("memory", help="store, search or list memories (in-process)")
    msub = memory.add_subparsers(dest="action", required=True)
    for name, helptext in (("store", "store a memory; print the result as JSON"),
                           ("search", "blended-association recall; print results as JSON"),
                           ("list", "list memories, newest first, as JSON")):
        cmd = msub.add_parser(name, help=helptext)
        cmd.add_argument("element", help="memory element path, e.g. demo/memory")
        cmd.add_argument("--env", choices=BRANCHES, default="draft")
        cmd.add_argument("--subject-type", choices=SUBJECT_TYPES)
        cmd.add_argument("--subject-id")
        if name == "store":
            cmd.add_argument("--content", required=True)
            cmd.add_argument("--category", required=True, choices=CATEGORIES)
            cmd.add_argument("--idempotency-key")
            cmd.add_argument("--agent")
            cmd.add_argument("--metadata", help="JSON object")
        if name == "search":
            cmd.add_argument("query")
            cmd.add_argument("--limit", type=int)
            cmd.add_argument("--category", action="append", choices=CATEGORIES,
                             help="repeat for several")
        if name in ("store", "search"):
            cmd.add_argument("--context")
            cmd.add_argument("--intention")
        if name == "list":
            cmd.add_argument("--category", choices=CATEGORIES)
            cmd.add_argument("--limit", type=int)
            cmd.add_argument("--cursor")
    memory.set_defaults(run=cmd_memory)

    export = sub.add_parser("export", help="write an element's git bundle to a file")
    export.add_argument("element", help="element path, e.g. demo/memory")
    export.add_argument("-o", "--output", help="file (default: <slug>.bundle; - for stdout)")
    export.set_defaults(run=cmd_export)

    imp = sub.add_parser("import", help="import a bundle file into a circle")
    imp.add_argument("file")
    imp.add_argument("--into", required=True, help="the circle to import into")
    imp.add_argument("--slug", help="slug of the new element (default: the bundle's)")
    imp.add_argument("--overwrite", action="store_true",
                     help="replace elements with the same slug (default: skip them)")
    imp.set_defaults(run=cmd_import)

    reindex = sub.add_parser("reindex", help="re-embed memories with the current model")
    reindex.add_argument("elements", nargs="*", help="memory element paths")
    reindex.add_argument("--all", action="store_true", help="every memory element")
    reindex.add_argument("--circle", help="with --all: only this circle's")
    reindex.set_defaults(run=cmd_reindex)
    add_mcp_command(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args: Any = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
