"""The command-line grammar the entry points share, kept light: the home's options, the
MCP command's options and the vocabularies their choices come from.

Nothing below ``api`` is imported here (element, index and source load numpy, the model
runtime and git), so ``triform --help`` and a ``triform memory ...`` that goes through a
running server start in a fraction of a second. The vocabularies are therefore copies of
the layers' own (``index.CATEGORIES``, ``index.SUBJECT_TYPES``, ``source.BRANCHES``,
``element.ROLES``); tests/api/test_cli_grammar.py fails when one drifts.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

__all__ = ["LOG_FORMATS", "BRANCHES", "CATEGORIES", "ROLES", "SUBJECT_TYPES",
           "add_home_options", "add_mcp_options", "default_home"]

#: How ``triform serve`` writes its log lines (api/logs.py).
LOG_FORMATS = ("text", "json")
BRANCHES = ("draft", "demo", "live")
CATEGORIES = ("fact", "preference", "procedure", "context", "correction")
SUBJECT_TYPES = ("circle_member", "entity", "guest")
ROLES = ("admin", "member", "viewer")


def default_home() -> Path:
    """``$TRIFORM_HOME``, else ``~/.triform``."""
    return Path(os.environ.get("TRIFORM_HOME") or Path.home() / ".triform")


def add_home_options(parser: argparse.ArgumentParser, *, command: bool = False) -> None:
    """The options every entry point takes: where the home, its memories and the model
    live. ``command``: a subcommand's copy, so they may come before or after its name
    (``triform --home H memory ...`` = ``triform memory ... --home H``); a copy only sets
    what it was given, never overwriting the one before the name with its default."""
    default = argparse.SUPPRESS if command else None
    parser.add_argument("--home", default=default,
                        help="data home (default: $TRIFORM_HOME or ~/.triform)")
    parser.add_argument("--model-cache", default=default, help="model cache (default: "
                        "$TRIFORM_MODEL_CACHE or ~/.cache/triform/models)")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"],
                        default=argparse.SUPPRESS if command else "fastembed",
                        help=argparse.SUPPRESS)
    parser.add_argument("--database", metavar="URL", default=default,
                        help="keep memories in PostgreSQL + pgvector at this "
                        "postgresql:// URL (default: $TRIFORM_DATABASE_URL; none: files "
                        "under the home; needs the postgres extra)")


def add_mcp_options(parser: argparse.ArgumentParser) -> None:
    """``mcp``'s own options (``triform mcp`` and ``python -m api.mcp_server``)."""
    parser.add_argument("--agent", required=True,
                        help="the agent: a triformer (or memory element) path, e.g. demo/bot")
    parser.add_argument("--env", choices=BRANCHES, default="draft",
                        help="which branch's spec governs (default draft)")
    parser.add_argument("--subject-type", choices=SUBJECT_TYPES,
                        help="fix the conversation's subject (with --subject-id)")
    parser.add_argument("--subject-id", help="the subject's id (with --subject-type)")
    parser.add_argument("--url", help="use a running server's API instead of the home")
    parser.add_argument("--token", help="with --url or a served home: a bearer token "
                        "(default: $TRIFORM_TOKEN)")
