"""``triform``: the one command-line entry point (design.md section 8).

Every command takes the home's options (``--home DIR``, else ``TRIFORM_HOME``, else
``~/.triform``; ``--database URL``; ``--model-cache DIR``) before or after its name, and
never prompts, so scripts and tests can drive it. The grammar is all here; the commands
live by topic and are imported only when they run (``--help`` and a command that goes
through a running server load neither numpy nor the model nor git): ``setup.py`` (init,
serve, token, model), ``elements.py`` (element, memory, export, import), ``evals.py``
(eval), ``transfer.py`` (export and import with memories, backup, restore, migrate),
``reindex.py``, and ``api/mcp_server.py`` (mcp).
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from ..options import (BRANCHES, CATEGORIES, LOG_FORMATS, ROLES, SUBJECT_TYPES,
                       add_home_options, add_mcp_options)
from .common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_USAGE
from .remote import add_token_option

__all__ = ["build_parser", "main", "without_passwords"]

Command = Callable[[argparse.Namespace], int]


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


def _later(module: str, name: str) -> Command:
    """The command ``name`` of ``module`` (under ``api``), imported when it runs."""
    def run(args: argparse.Namespace) -> int:
        command: Command = getattr(importlib.import_module(f"api.{module}"), name)
        return int(command(args))
    return run


def _restore(args: argparse.Namespace) -> int:
    """``restore``: the home it names (``--home NEW``, before or after the command) is the
    one it creates."""
    if not args.home:
        print("triform restore: name the new home with --home NEW (absent or an empty "
              "folder)", file=sys.stderr)
        return EXIT_USAGE
    args.new_home = args.home
    return _later("cli.transfer", "cmd_restore")(args)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("triform-memory")
    except PackageNotFoundError:     # run from a checkout that was never installed
        return "unknown (not installed)"


class _Commands:
    """Adds commands whose every parser (down to ``token create``) takes the home's
    options too, so they may follow the command's name."""

    def __init__(self, parent: argparse.ArgumentParser, dest: str) -> None:
        self.sub = parent.add_subparsers(dest=dest, required=True)

    def add(self, name: str, help: str, run: Command | None = None,
            ) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = self.sub.add_parser(name, help=help,
                                                              description=help)
        add_home_options(parser, command=True)
        if run is not None:
            parser.set_defaults(run=run)
        return parser


def _memory_commands(commands: _Commands) -> None:
    memory = commands.add("memory", "store, search, list, change or forget memories "
                          "(through the server when one runs on the home)",
                          _later("cli.elements", "cmd_memory"))
    actions = _Commands(memory, "action")
    for name, helptext in (
            ("store", "store a memory; print the result as JSON"),
            ("search", "blended-association recall; print results as JSON"),
            ("list", "list memories, newest first, as JSON"),
            ("get", "print one memory as JSON"),
            ("history", "print every version of one memory as JSON, oldest first"),
            ("update", "change a memory's text, category or metadata; print it"),
            ("delete", "delete one memory"),
            ("forget-subject", "delete every memory about one subject (general memories "
                               "stay); needs --yes")):
        cmd = actions.add(name, helptext)
        cmd.add_argument("element", help="memory element path, e.g. demo/memory")
        if name in ("get", "history", "update", "delete"):
            cmd.add_argument("id", help="the memory's id (from store, search or list)")
        cmd.add_argument("--env", choices=BRANCHES, default="draft",
                         help="which branch's spec governs (default draft)")
        if name in ("store", "search", "list", "forget-subject"):
            required = name == "forget-subject"
            cmd.add_argument("--subject-type", choices=SUBJECT_TYPES, required=required,
                             help="the memory's subject (with --subject-id)")
            cmd.add_argument("--subject-id", required=required,
                             help="the subject's id (with --subject-type)")
        add_token_option(cmd)
        if name in ("store", "update"):
            cmd.add_argument("--content", required=name == "store",
                             help="what the memory says")
            cmd.add_argument("--category", required=name == "store", choices=CATEGORIES,
                             help="what kind of memory it is")
            cmd.add_argument("--metadata", help="JSON object")
        if name == "store":
            cmd.add_argument("--occurred-at", metavar="TIME",
                             help="when the remembered thing happened (ISO 8601; a date "
                                  "alone is its midnight UTC; default: now)")
            cmd.add_argument("--idempotency-key",
                             help="a retry with the same key stores nothing new")
            cmd.add_argument("--agent", help="the agent that learned it")
        if name == "search":
            cmd.add_argument("query", help="what to recall")
            cmd.add_argument("--limit", type=int, help="at most this many results (1..100)")
            cmd.add_argument("--category", action="append", choices=CATEGORIES,
                             help="only this category; repeat for several")
            cmd.add_argument("--occurred-after", metavar="TIME",
                             help="only memories of what happened after TIME")
            cmd.add_argument("--occurred-before", metavar="TIME",
                             help="only memories of what happened before TIME")
        if name in ("search", "list"):
            cmd.add_argument("--as-of", metavar="TIME",
                             help="the memories current at TIME (default: now)")
            cmd.add_argument("--include-superseded", action="store_true",
                             help="also memories superseded or retired")
        if name == "store":
            cmd.add_argument("--supersedes", action="append", metavar="ID",
                             help="a current memory of the same subject this one replaces "
                                  "(kept for history); repeat for several")
        if name in ("store", "search", "update"):
            extra = "; empty clears it" if name == "update" else ""
            cmd.add_argument("--context", help=f"the conversation window{extra}")
            cmd.add_argument("--intention", help=f"the goal of the turn{extra}")
        if name == "list":
            cmd.add_argument("--category", choices=CATEGORIES, help="only this category")
            cmd.add_argument("--limit", type=int, help="page size (1..500)")
            cmd.add_argument("--cursor", help="next_cursor of the previous page")
        if name == "forget-subject":
            cmd.add_argument("--yes", action="store_true",
                             help="confirm: the deletion cannot be undone")


def _transfer_commands(commands: _Commands) -> None:
    export = commands.add("export", "write an element's git bundle to a file",
                          _later("cli.transfer", "cmd_export"))
    export.add_argument("element", help="element path, e.g. demo/memory")
    export.add_argument("-o", "--output", help="file (default: <slug>.bundle; - for stdout)"
                        "; with --memories a folder")
    export.add_argument("--memories", action="store_true",
                        help="also the memories (into the folder -o DIR; through the "
                             "server when one runs)")
    add_token_option(export)

    imp = commands.add("import", "import a bundle file into a circle",
                       _later("cli.transfer", "cmd_import"))
    imp.add_argument("file", help="a bundle, a circle's JSON envelope, or a folder "
                     "written by export --memories")
    imp.add_argument("--into", required=True, help="the circle to import into")
    imp.add_argument("--slug", help="slug of the new element (default: the bundle's)")
    imp.add_argument("--overwrite", action="store_true",
                     help="replace elements with the same slug (default: skip them); on "
                          "a served home this goes through the server")
    add_token_option(imp)

    backup = commands.add("backup", "write a consistent backup of the home (safe while it "
                          "is served), or check one", _later("cli.transfer", "cmd_backup"))
    which = backup.add_mutually_exclusive_group(required=True)
    which.add_argument("--to", metavar="DIR", help="a new (or empty) folder to write")
    which.add_argument("--verify", metavar="DIR",
                       help="check a backup against its manifest (exit 1 if it differs)")

    # `triform --home NEW restore --from DIR`, or `restore --from DIR --home NEW`.
    restore = commands.add("restore", "build a new home (--home NEW: absent or an empty "
                           "folder) from a backup (its files; with --database URL, in that "
                           "empty database)", _restore)
    restore.add_argument("--from", dest="source", metavar="DIR", required=True,
                         help="the backup folder")
    restore.add_argument("--forgotten-from", metavar="HOME",
                         help="also drop subjects this home forgot after the backup "
                              "(default: the home the backup was taken from, if it exists)")

    migrate = commands.add("migrate", "copy the home's catalog and every memory to "
                           "PostgreSQL, or from it back to files (docs/deploy.md)",
                           _later("cli.transfer", "cmd_migrate"))
    migrate.add_argument("--to", required=True, metavar="TARGET",
                         help="a postgresql:// URL, or 'files'; the source is where the "
                              "memories are now: --database (or $TRIFORM_DATABASE_URL), "
                              "else files")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="triform", description="Triform Memory: durable "
                                     "long-term memory for AI agents (docs/api.md, the CLI).")
    parser.add_argument("--version", action="version", version=f"triform {_version()}")
    add_home_options(parser)
    commands = _Commands(parser, "command")

    init = commands.add("init", "create the home, a circle and a memory element",
                        _later("cli.setup", "cmd_init"))
    init.add_argument("--circle", default="demo", help="the circle to create (default demo)")
    init.add_argument("--host", default="127.0.0.1",
                      help="host for the printed curl and git lines when no server runs")
    init.add_argument("--port", type=PORT, default=8765,
                      help="port for the printed lines when no server runs (default 8765)")
    init.add_argument("--token-file", metavar="PATH",
                      help="write the admin token to PATH (0600) instead of printing it")

    serve = commands.add("serve", "serve the HTTP API and git (runs init when fresh)",
                         _later("cli.setup", "cmd_serve"))
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
    serve.add_argument("--token-file", metavar="PATH",
                       help="write a fresh home's admin token to PATH (0600), not stdout")
    serve.add_argument("--log-format", choices=LOG_FORMATS, default="text",
                       help="text lines, or one JSON object per line (docs/api.md, Logs)")

    token = commands.add("token", "create, list or revoke API tokens",
                         _later("cli.setup", "cmd_token"))
    tokens = _Commands(token, "action")
    create = tokens.add("create", "print a new token, alone")
    create.add_argument("--circle", required=True, help="the circle the token belongs to")
    create.add_argument("--role", choices=ROLES, required=True,
                        help="viewer: read; member: read, write, execute; admin: all")
    create.add_argument("--name", help="a label for token list and activity")
    listing = tokens.add("list", "list tokens as JSON (never the tokens)")
    listing.add_argument("--circle", help="only this circle's")
    revoke = tokens.add("revoke", "revoke a token by its id")
    revoke.add_argument("id", help="the token's id, from token list")

    model = commands.add("model", "provision the embedding models and the lexicon (one time)",
                         _later("cli.setup", "cmd_model"))
    model.add_argument("action", choices=["provision"], help="provision: fetch or build it")

    element = commands.add("element", "create or list elements",
                           _later("cli.elements", "cmd_element"))
    elements = _Commands(element, "action")
    ecreate = elements.add("create", "create an element; print it as JSON")
    ecreate.add_argument("--circle", required=True, help="the circle to create it in")
    ecreate.add_argument("--type", required=True, help="element type, e.g. memory")
    ecreate.add_argument("--slug", help="required for every type but circle")
    ecreate.add_argument("--parent", help="parent element path (default: the circle)")
    ecreate.add_argument("--name", help="display name (default: from the slug)")
    ecreate.add_argument("--description", help="what the element is for")
    ecreate.add_argument("--properties", help="JSON object, checked against the type")
    elist = elements.add("list", "print elements as JSON")
    elist.add_argument("--circle", help="only this circle's")

    _memory_commands(commands)
    _transfer_commands(commands)

    evals = commands.add("eval", "run a memory element's recall cases on a branch "
                         "(.triform/evals/*.yaml); print a table", _later("cli.evals", "cmd_eval"))
    evals.add_argument("element", help="memory element path, e.g. demo/memory")
    evals.add_argument("--branch", default="draft",
                       help="draft (default), demo, live or a commit id: its cases run "
                            "with its spec")
    evals.add_argument("--case", action="append", metavar="FILE#ID",
                       help="run only this case; repeat for several (not recorded)")
    evals.add_argument("--json", action="store_true", help="print the op's answer as JSON")
    add_token_option(evals)

    reindex = commands.add("reindex", "re-embed memories with the current model",
                           _later("cli.reindex", "cmd_reindex"))
    reindex.add_argument("elements", nargs="*", help="memory element paths")
    reindex.add_argument("--all", action="store_true", help="every memory element")
    reindex.add_argument("--circle", help="with --all: only this circle's")
    add_token_option(reindex)

    mcp = commands.add("mcp", "serve an agent's memory tools over MCP stdio",
                       _later("mcp_server", "run"))
    add_mcp_options(mcp)
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
