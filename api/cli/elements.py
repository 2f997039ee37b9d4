"""Commands on elements and memories, each one op call: ``element``, ``memory``,
``export``, ``import``."""

from __future__ import annotations

import argparse
import base64
import json
import sys
from pathlib import Path
from typing import Any

from .common import EXIT_REFUSED, UsageError, guarded, home_of, json_arg, print_json, run_op
from .remote import remote_import, remote_memory, served

__all__ = ["cmd_element", "cmd_memory", "cmd_export", "cmd_import", "MEMORY_OPS",
           "memory_call"]


@guarded
def cmd_element(args: argparse.Namespace) -> int:
    with home_of(args) as home:
        if args.action == "list":
            print_json([e.public() for e in home.catalog.elements(args.circle)])
            return 0
        if args.type == "circle":
            # A circle is the root of its own namespace: no op creates one, the operator does.
            element = home.create_element(circle=args.circle, element_type_name="circle",
                                          slug=None, name=args.name,
                                          description=args.description)
            home.catalog.record_activity(element, "create", "cli",
                                         {"element_type": "circle"})
            print_json({"element": element.public()})
            return 0
        body = {k: v for k, v in {
            "element_type": args.type, "slug": args.slug, "name": args.name,
            "description": args.description,
            "properties": json_arg(args.properties, "--properties")}.items() if v is not None}
        print_json(run_op(home, args.parent or args.circle, "create", body=body).body)
        return 0


def _present(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


#: ``triform memory ACTION``: the op it calls.
MEMORY_OPS = {"store": "store", "search": "search", "list": "list", "get": "get",
              "history": "history",
              "update": "update", "delete": "delete", "forget-subject": "forget_subject"}


def memory_call(args: argparse.Namespace) -> tuple[dict[str, Any] | None, dict[str, str],
                                                   dict[str, str]]:
    """What ``triform memory ACTION`` sends, wherever the op runs: its JSON body (None for
    a GET), its query and its headers."""
    subject = {"subject_type": getattr(args, "subject_type", None),
               "subject_id": getattr(args, "subject_id", None)}
    if "/" in (getattr(args, "id", None) or ""):
        raise UsageError(f"{args.id!r} is not a memory id (ids hold no '/')")
    if args.action == "store":
        headers = {"Idempotency-Key": args.idempotency_key} if args.idempotency_key else {}
        return _present({"content": args.content, "category": args.category, **subject,
                         "context": args.context, "intention": args.intention,
                         "agent": args.agent, "occurred_at": args.occurred_at,
                         "supersedes": args.supersedes,
                         "metadata": json_arg(args.metadata, "--metadata")}), {}, headers
    if args.action == "search":
        return _present({"query": args.query, **subject, "context": args.context,
                         "intention": args.intention, "limit": args.limit,
                         "categories": args.category or None,
                         "occurred_after": args.occurred_after,
                         "occurred_before": args.occurred_before, "as_of": args.as_of,
                         "include_superseded": args.include_superseded or None}), {}, {}
    if args.action == "list":
        query = _present({"category": args.category, **subject, "limit": args.limit,
                          "cursor": args.cursor, "as_of": args.as_of,
                          "include_superseded": "true" if args.include_superseded
                          else None})
        return None, {k: str(v) for k, v in query.items()}, {}
    if args.action in ("get", "history"):
        return None, {}, {}
    if args.action == "update":
        body = _present({"content": args.content, "category": args.category,
                         "context": args.context, "intention": args.intention,
                         "metadata": json_arg(args.metadata, "--metadata")})
        if not body:
            raise UsageError("update: give what changes (--content, --category, "
                             "--context, --intention or --metadata)")
        return body, {}, {}
    if args.action == "forget-subject":
        return subject, {}, {"X-Confirm": "destructive"} if args.yes else {}
    return {}, {}, {}                                   # delete


@guarded
def cmd_memory(args: argparse.Namespace) -> int:
    body, query, headers = memory_call(args)
    server = served(args)
    if server is not None:
        return remote_memory(args, server, body, query, headers)
    params = {"memory_id": args.id} if getattr(args, "id", None) is not None else {}
    with home_of(args) as home:
        result = run_op(home, args.element, MEMORY_OPS[args.action], env=args.env,
                        body=body, query=query, headers=headers, params=params)
        print_json(result.body)
        return 0


@guarded
def cmd_export(args: argparse.Namespace) -> int:
    """Write an element's git bundle (a circle's: a JSON envelope of bundles) to a file."""
    with home_of(args) as home:
        element = home.catalog.element_at(args.element)
        result = run_op(home, element.path, "export_bundle")
        data = result.body if isinstance(result.body, bytes) else \
            json.dumps(result.body, indent=2).encode()
    is_json = data[:1] == b"{"
    out = args.output or (element.slug or element.circle) + (
        ".bundle.json" if is_json else ".bundle")
    if out == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        Path(out).write_bytes(data)
        print_json({"path": element.path, "file": str(Path(out)), "bytes": len(data),
                    "format": "json-envelope" if is_json else "git-bundle"})
    return 0


@guarded
def cmd_import(args: argparse.Namespace) -> int:
    """Import a bundle file (or a circle's JSON envelope) into a circle, as new elements."""
    data = Path(args.file).read_bytes()
    body: dict[str, Any]
    if data[:1] == b"{":
        envelope = json_arg(data.decode("utf-8", "replace"), "the file")
        if args.slug:
            raise UsageError("--slug applies to a single bundle, not a circle envelope")
        body = {"envelope": envelope}
    else:
        body = {"bundle_base64": base64.b64encode(data).decode("ascii")}
        if args.slug:
            body["slug"] = args.slug
    if args.overwrite:
        body["overwrite"] = True
        server = served(args)
        if server is not None:
            return remote_import(args, server, body)
    with home_of(args) as home:
        result = run_op(home, args.into, "import_bundle", body=body)
    if result.status >= 400:
        # Nothing imported or skipped: a refusal, reported (error and report) on stderr.
        print(json.dumps(result.body, ensure_ascii=False, sort_keys=True), file=sys.stderr)
        return EXIT_REFUSED
    print_json(result.body)
    return 0
