"""``triform``: the one command-line entry point (design.md section 8).

Every command takes ``--home DIR`` (else ``TRIFORM_HOME``, else ``~/.triform``) and never
prompts, so scripts and tests can drive it. The commands live by topic: ``setup.py`` (init,
serve, token, model), ``elements.py`` (element, memory, export, import), ``reindex.py``, and
``api/mcp_server.py`` (mcp).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from element import ROLES
from index import CATEGORIES, SUBJECT_TYPES
from source import BRANCHES

from ..mcp_server import add_mcp_command
from ..config import add_home_options
from .common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED
from .elements import cmd_element, cmd_memory
from .reindex import cmd_reindex
from .remote import add_token_option
from .setup import cmd_init, cmd_model, cmd_serve, cmd_token
from .transfer import add_backup_commands, cmd_export, cmd_import

__all__ = ["build_parser", "main", "without_passwords"]


def _ranged(kind: Callable[[str], Any], low: float, high: float | None = None
            ) -> Callable[[str], Any]:
    """An argparse type: ``kind`` of the text, within ``low..high`` (else a usage error)."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"between {low:g} and {high:g}" if high is not None \
                else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text} is not {bounds}")
        return value
    return parse


PORT, THREADS, SECONDS = _ranged(int, 0, 65535), _ranged(int, 1, 256), _ranged(float, 0)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triform", description=__doc__.splitlines()[0])
    add_home_options(parser)
    sub = parser.add_subparsers(dest="command", required=True)

    init = sub.add_parser("init", help="create the home, a circle and a memory element")
    init.add_argument("--circle", default="demo", help="the circle to create (default demo)")
    init.add_argument("--host", default="127.0.0.1",
                      help="host for the printed curl and git lines when no server runs")
    init.add_argument("--port", type=PORT, default=8765,
                      help="port for the printed lines when no server runs (default 8765)")
    init.add_argument("--database", metavar="URL", default=argparse.SUPPRESS,
                      help="create the memory schema in PostgreSQL at this URL (re-runnable)")
    init.add_argument("--token-file", metavar="PATH",
                      help="write the admin token to PATH (0600) instead of printing it")
    init.set_defaults(run=cmd_init)

    serve = sub.add_parser("serve", help="serve the HTTP API and git (runs init when fresh)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=PORT, default=8765,
                       help="port to listen on (default 8765; 0: any free port)")
    serve.add_argument("--env", choices=BRANCHES, default="draft",
                       help="which branch's spec governs runtime ops (default draft)")
    serve.add_argument("--circle", default="demo",
                       help="the circle a fresh home is made with (default demo)")
    serve.add_argument("--threads", type=THREADS, default=8,
                       help="worker threads (default 8; half may hold event streams)")
    serve.add_argument("--sweep-seconds", type=SECONDS, default=600,
                       help="run the retention reaper this often (0: only on stats)")
    serve.add_argument("--database", metavar="URL", default=argparse.SUPPRESS,
                       help="keep memories in PostgreSQL + pgvector at this URL")
    serve.add_argument("--token-file", metavar="PATH",
                       help="write a fresh home's admin token to PATH (0600), not stdout")
    serve.set_defaults(run=cmd_serve)

    token = sub.add_parser("token", help="create, list or revoke API tokens")
    tsub = token.add_subparsers(dest="action", required=True)
    create = tsub.add_parser("create", help="print a new token, alone")
    create.add_argument("--circle", required=True, help="the circle the token belongs to")
    create.add_argument("--role", choices=sorted(ROLES), required=True,
                        help="viewer: read; member: read, write, execute; admin: all")
    create.add_argument("--name", help="a label for token list and activity")
    listing = tsub.add_parser("list", help="list tokens as JSON (never the tokens)")
    listing.add_argument("--circle", help="only this circle's")
    revoke = tsub.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("id", help="the token's id, from token list")
    token.set_defaults(run=cmd_token)

    model = sub.add_parser("model", help="provision the embedding model (one time)")
    model.add_argument("action", choices=["provision"], help="provision: fetch or build it")
    model.set_defaults(run=cmd_model)

    element = sub.add_parser("element", help="create or list elements")
    esub = element.add_subparsers(dest="action", required=True)
    ecreate = esub.add_parser("create", help="create an element; print it as JSON")
    ecreate.add_argument("--circle", required=True, help="the circle to create it in")
    ecreate.add_argument("--type", required=True, help="element type, e.g. memory")
    ecreate.add_argument("--slug", help="required for every type but circle")
    ecreate.add_argument("--parent", help="parent element path (default: the circle)")
    ecreate.add_argument("--name", help="display name (default: from the slug)")
    ecreate.add_argument("--description", help="what the element is for")
    ecreate.add_argument("--properties", help="JSON object, checked against the type")
    elist = esub.add_parser("list", help="print elements as JSON")
    elist.add_argument("--circle", help="only this circle's")
    element.set_defaults(run=cmd_element)

    memory = sub.add_parser("memory", help="store, search or list memories (through the "
                            "server when one runs on the home)")
    msub = memory.add_subparsers(dest="action", required=True)
    for name, helptext in (("store", "store a memory; print the result as JSON"),
                           ("search", "blended-association recall; print results as JSON"),
                           ("list", "list memories, newest first, as JSON")):
        cmd = msub.add_parser(name, help=helptext)
        cmd.add_argument("element", help="memory element path, e.g. demo/memory")
        cmd.add_argument("--env", choices=BRANCHES, default="draft",
                         help="which branch's spec governs (default draft)")
        cmd.add_argument("--subject-type", choices=SUBJECT_TYPES,
                         help="the memory's subject (with --subject-id)")
        cmd.add_argument("--subject-id", help="the subject's id (with --subject-type)")
        add_token_option(cmd)
        if name == "store":
            cmd.add_argument("--content", required=True, help="what the memory says")
            cmd.add_argument("--category", required=True, choices=CATEGORIES,
                             help="what kind of memory it is")
            cmd.add_argument("--idempotency-key",
                             help="a retry with the same key stores nothing new")
            cmd.add_argument("--agent", help="the agent that learned it")
            cmd.add_argument("--metadata", help="JSON object")
        if name == "search":
            cmd.add_argument("query", help="what to recall")
            cmd.add_argument("--limit", type=int, help="at most this many results (1..100)")
            cmd.add_argument("--category", action="append", choices=CATEGORIES,
                             help="only this category; repeat for several")
        if name in ("store", "search"):
            cmd.add_argument("--context", help="the conversation window")
            cmd.add_argument("--intention", help="the goal of the turn")
        if name == "list":
            cmd.add_argument("--category", choices=CATEGORIES, help="only this category")
            cmd.add_argument("--limit", type=int, help="page size (1..500)")
            cmd.add_argument("--cursor", help="next_cursor of the previous page")
    memory.set_defaults(run=cmd_memory)

    export = sub.add_parser("export", help="write an element's git bundle to a file")
    export.add_argument("element", help="element path, e.g. demo/memory")
    export.add_argument("-o", "--output", help="file (default: <slug>.bundle; - for stdout)"
                        "; with --memories a folder")
    export.add_argument("--memories", action="store_true",
                        help="also the memories (into the folder -o DIR; through the "
                             "server when one runs)")
    add_token_option(export)
    export.set_defaults(run=cmd_export)

    imp = sub.add_parser("import", help="import a bundle file into a circle")
    imp.add_argument("file", help="a bundle, a circle's JSON envelope, or a folder "
                     "written by export --memories")
    imp.add_argument("--into", required=True, help="the circle to import into")
    imp.add_argument("--slug", help="slug of the new element (default: the bundle's)")
    imp.add_argument("--overwrite", action="store_true",
                     help="replace elements with the same slug (default: skip them); on "
                          "a served home this goes through the server")
    add_token_option(imp)
    imp.set_defaults(run=cmd_import)

    reindex = sub.add_parser("reindex", help="re-embed memories with the current model")
    reindex.add_argument("elements", nargs="*", help="memory element paths")
    reindex.add_argument("--all", action="store_true", help="every memory element")
    reindex.add_argument("--circle", help="with --all: only this circle's")
    add_token_option(reindex)
    reindex.set_defaults(run=cmd_reindex)
    add_mcp_command(sub)
    add_backup_commands(sub)
    return parser


_DATABASE_URL = re.compile(r"^(?P<option>--[\w-]+=)?(?P<url>postgres(?:ql)?://.+)$")


def without_passwords(argv: Sequence[str]) -> tuple[list[str], str | None]:
    """``argv`` with the password taken out of every ``postgresql://`` URL in it, and that
    password (None when there is none, or several different ones: left as given)."""
    found: set[str] = set()
    out: list[str] = []
    for arg in argv:
        m = _DATABASE_URL.match(arg)
        parts = urlsplit(m["url"]) if m else None
        if m is None or parts is None or parts.password is None:
            out.append(arg)
            continue
        found.add(unquote(parts.password))
        netloc = parts.netloc.rsplit("@", 1)
        user = netloc[0].split(":", 1)[0]
        out.append((m["option"] or "") + urlunsplit(parts._replace(
            netloc=f"{user}@{netloc[1]}")))
    if len(found) != 1:
        return list(argv), None
    return out, found.pop()


def _hide_password(argv: list[str]) -> None:
    """Start again without a database password in the process's arguments: ``ps`` shows
    them to every user of the machine (issue 26). The password moves to ``PGPASSWORD``,
    which only this user can read, and which PostgreSQL's client library takes."""
    cleaned, password = without_passwords(argv)
    if password is None or os.environ.get("PGPASSWORD") not in (None, password):
        return
    os.execve(sys.executable, [sys.executable, "-m", "api.cli", *cleaned],
              {**os.environ, "PGPASSWORD": password})


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:            # the process's own command line
        _hide_password(sys.argv[1:])
    args: Any = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        # Nothing more can be said to a reader that left; keep Python's exit-time flush
        # of stdout from failing again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print("triform: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
