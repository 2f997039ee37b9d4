"""``triform``: the one command-line entry point (design.md section 8).

Every command takes ``--home DIR`` (else ``TRIFORM_HOME``, else ``~/.triform``) and never
prompts, so scripts and tests can drive it.
"""

from __future__ import annotations

import argparse
import base64
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from element.access import ROLES, Principal, create_token
from element.catalog import Element
from element.errors import ElementDisabled, ElementError, InvalidRequest, OpNotFound
from element.home import ENVS, Home
from element.ops import REGISTRY, OpCall, OpResult
from index.embed import Embedder
from index.errors import StoreError
from index.records import CATEGORIES, SUBJECT_TYPES
from source import bundle
from source.errors import SourceError

from .app import create_app, default_home, default_model_cache, embedder_factory
from .errors import STATUS
from .mcp_server import add_mcp_command
from .sweep import start_retention_sweep
from .routes import _ALLOWED_WHEN_DISABLED

__all__ = ["main"]

#: Exit codes: 0 done, 1 the op refused (the error is printed as JSON on stderr),
#: 2 usage errors and commands not available yet.
EXIT_REFUSED, EXIT_USAGE = 1, 2


class UsageError(Exception):
    """The command line itself is wrong (exit 2, like argparse)."""


def _open_home(args: argparse.Namespace,
               wrap: Callable[[Embedder], Embedder] | None = None) -> Home:
    cache = Path(args.model_cache) if getattr(args, "model_cache", None) else None
    factory = embedder_factory(getattr(args, "embedder", "fastembed"), cache)
    if wrap is not None:
        inner = factory

        def factory() -> Embedder:
            return wrap(inner())
    return Home(Path(args.home) if args.home else default_home(), factory)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False), flush=True)


def _refused(exc: Exception) -> int:
    """Print an op's error in the API's one shape, on stderr; exit code 1."""
    error_class = getattr(exc, "error_class", "internal")
    print(json.dumps({"error": {
        "code": getattr(exc, "code", "INTERNAL"),
        "class": error_class if error_class in STATUS else "internal",
        "retryable": bool(getattr(exc, "retryable", False)),
        "message": getattr(exc, "message", None) or str(exc)}}), file=sys.stderr)
    return EXIT_REFUSED


def _run_op(home: Home, path: str, name: str, *, body: dict[str, Any] | None = None,
            query: dict[str, str] | None = None, headers: dict[str, str] | None = None,
            params: dict[str, str] | None = None, env: str = "draft") -> OpResult:
    """Call one op in-process, as the API would, with the operator's authority.

    The command line holds the home itself, so it acts as an admin of the element's circle
    (recorded in activity as ``cli``); attached rate limits and auth policies govern HTTP
    callers, not the operator.
    """
    element = home.catalog.element_at(path)
    op = REGISTRY.ops[name]
    if not op.applies_to(element.element_type):
        raise OpNotFound(element.element_type, op.method, op.path)
    if element.state != "ready" and name not in _ALLOWED_WHEN_DISABLED:
        raise ElementDisabled(element.path, element.state)
    principal = Principal("cli", element.circle, "admin", "cli")
    return op.call(OpCall(home=home, element=element, principal=principal,
                          body=body or {}, query=query or {}, headers=headers or {},
                          params=params or {}, env=env))


def _guarded(command: Callable[[argparse.Namespace], int]) -> Callable[
        [argparse.Namespace], int]:
    """Op errors become exit 1 (printed in the API's error shape), usage errors exit 2."""
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (ElementError, StoreError, SourceError) as exc:
            return _refused(exc)
        except UsageError as exc:
            print(f"triform: {exc}", file=sys.stderr)
            return EXIT_USAGE
    run.__doc__ = command.__doc__
    return run


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


# -- element ---------------------------------------------------------------------------------

def _json_arg(raw: str | None, name: str) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON: {exc}") from None


@_guarded
def cmd_element(args: argparse.Namespace) -> int:
    home = _open_home(args)
    try:
        if args.action == "list":
            _print_json([e.public() for e in home.catalog.elements(args.circle)])
            return 0
        body = {k: v for k, v in {
            "element_type": args.type, "slug": args.slug, "name": args.name,
            "description": args.description,
            "properties": _json_arg(args.properties, "--properties")}.items() if v is not None}
        if args.type == "circle":
            element = home.create_element(circle=args.circle, element_type_name="circle",
                                          slug=None, name=args.name,
                                          description=args.description)
            home.catalog.record_activity(element, "create", "cli",
                                         {"element_type": "circle"})
            _print_json({"element": element.public()})
            return 0
        _print_json(_run_op(home, args.parent or args.circle, "create", body=body).body)
        return 0
    finally:
        home.close()


# -- memory ----------------------------------------------------------------------------------

@_guarded
def cmd_memory(args: argparse.Namespace) -> int:
    home = _open_home(args)
    try:
        subject = {"subject_type": args.subject_type, "subject_id": args.subject_id}
        if args.action == "store":
            body = {"content": args.content, "category": args.category, **subject,
                    "context": args.context, "intention": args.intention,
                    "agent": args.agent, "metadata": _json_arg(args.metadata, "--metadata")}
            headers = {"Idempotency-Key": args.idempotency_key} \
                if args.idempotency_key else {}
            result = _run_op(home, args.element, "store", env=args.env, headers=headers,
                             body={k: v for k, v in body.items() if v is not None})
        elif args.action == "search":
            body = {"query": args.query, **subject, "context": args.context,
                    "intention": args.intention, "limit": args.limit,
                    "categories": args.category or None}
            result = _run_op(home, args.element, "search", env=args.env,
                             body={k: v for k, v in body.items() if v is not None})
        else:
            query = {"category": args.category, **subject, "limit": args.limit,
                     "cursor": args.cursor}
            result = _run_op(home, args.element, "list", env=args.env,
                             query={k: str(v) for k, v in query.items() if v is not None})
        _print_json(result.body)
        return 0
    finally:
        home.close()


# -- export / import -------------------------------------------------------------------------

@_guarded
def cmd_export(args: argparse.Namespace) -> int:
    """Write an element's git bundle (a circle's: a JSON envelope of bundles) to a file."""
    home = _open_home(args)
    try:
        element = home.catalog.element_at(args.element)
        if REGISTRY.ops["export_bundle"].handler is not None:
            result = _run_op(home, element.path, "export_bundle")
            data = result.body if isinstance(result.body, bytes) else \
                json.dumps(result.body, indent=2).encode()
        elif element.element_type == "circle":
            print("triform: exporting a whole circle needs the export_bundle op, which is "
                  "not implemented yet; export its elements one by one", file=sys.stderr)
            return EXIT_USAGE
        else:
            data = bundle.export_bundle(home.repo_path(element))
        is_json = data[:1] == b"{"
        out = args.output or (element.slug or element.circle) + (
            ".bundle.json" if is_json else ".bundle")
        if out == "-":
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            Path(out).write_bytes(data)
            _print_json({"path": element.path, "file": str(Path(out)), "bytes": len(data),
                         "format": "json-envelope" if is_json else "git-bundle"})
        return 0
    finally:
        home.close()


@_guarded
def cmd_import(args: argparse.Namespace) -> int:
    """Import a bundle file (or a circle's JSON envelope) into a circle, as new elements."""
    data = Path(args.file).read_bytes()
    if REGISTRY.ops["import_bundle"].handler is None:
        print("triform: import is not implemented yet (the import_bundle op is not built); "
              "nothing was imported", file=sys.stderr)
        return EXIT_USAGE
    body: dict[str, Any]
    if data[:1] == b"{":
        envelope = _json_arg(data.decode("utf-8", "replace"), "the file")
        if args.slug:
            raise UsageError("--slug applies to a single bundle, not a circle envelope")
        body = {"envelope": envelope}
    else:
        body = {"bundle_base64": base64.b64encode(data).decode("ascii")}
        if args.slug:
            body["slug"] = args.slug
    if args.overwrite:
        body["overwrite"] = True
    home = _open_home(args)
    try:
        result = _run_op(home, args.into, "import_bundle", body=body)
        _print_json(result.body)
        # A report with nothing imported or skipped answers 400: the command failed.
        return EXIT_REFUSED if result.status >= 400 else 0
    finally:
        home.close()


# -- reindex ---------------------------------------------------------------------------------

class _CountingEmbedder:
    """Wraps the embedder to report how many texts it has embedded (reindex progress)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.on_embed: Callable[[int], None] = lambda n: None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.inner.embed(texts)
        self.on_embed(len(texts))
        return vectors


class _Progress:
    """A bar on a terminal (stderr), plain lines otherwise."""

    def __init__(self, label: str, total: int, stream: Any = None) -> None:
        self.label, self.total, self.done = label, total, 0
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self._last_line = -1.0

    def advance(self, n: int) -> None:
        self.done = min(self.total, self.done + n)
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                              f"{self.done}/{self.total} texts")
            self.stream.flush()
        elif self.done == self.total or time.monotonic() - self._last_line >= 1.0:
            self._last_line = time.monotonic()
            print(f"{self.label}: {self.done}/{self.total} texts", file=self.stream,
                  flush=True)

    def finish(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _stale(home: Home, element: Element) -> tuple[int, int, int]:
    """(memories, memories without current vectors, their texts to embed)."""
    store = home.memory_store(element)
    memories = stale = texts = 0
    cursor = None
    while True:
        page, cursor = store.list(limit=500, cursor=cursor)
        for memory in page:
            memories += 1
            if not memory["embedded"]:
                stale += 1
                texts += sum(1 for lane in ("content", "context", "intention")
                             if memory[lane])
        if cursor is None:
            return memories, stale, texts


@_guarded
def cmd_reindex(args: argparse.Namespace) -> int:
    """Re-embed, with the current model, every memory whose vectors are missing or stale."""
    counter: list[_CountingEmbedder] = []

    def wrap(inner: Embedder) -> Embedder:
        counter.append(_CountingEmbedder(inner))
        return counter[0]

    home = _open_home(args, wrap)
    try:
        if not args.all and not args.elements:
            raise UsageError("reindex: name memory elements, or pass --all")
        if args.all:
            targets = [e for e in home.catalog.elements(args.circle)
                       if e.element_type == "memory"]
        else:
            targets = [home.catalog.element_at(path) for path in args.elements]
        report = []
        for element in targets:
            if element.element_type != "memory":
                raise InvalidRequest("element", f"{element.path} is a "
                                     f"{element.element_type} element, not a memory")
            memories, stale, texts = _stale(home, element)   # opening marks stale vectors
            progress = _Progress(f"reindex {element.path}", texts)
            home.embedder  # noqa: B018  (built by now: the store was opened above)
            counter[0].on_embed = progress.advance
            started = time.monotonic()
            repaired = home.memory_store(element).repair_embeddings() if stale else 0
            progress.finish()
            report.append({"path": element.path, "model": counter[0].model_id,
                           "memories": memories, "reembedded": repaired,
                           "seconds": round(time.monotonic() - started, 3)})
        _print_json({"reindexed": report})
        return 0
    finally:
        home.close()


def add_home_options(parser: argparse.ArgumentParser) -> None:
    """The options every entry point takes: where the home and the model live."""
    parser.add_argument("--home", help="data home (default: $TRIFORM_HOME or ~/.triform)")
    parser.add_argument("--model-cache", help="model cache (default: "
                        "$TRIFORM_MODEL_CACHE or ~/.cache/triform/models)")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed",
                        help=argparse.SUPPRESS)


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
    serve.add_argument("--env", choices=["draft", "demo", "live"], default="draft")
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
        cmd.add_argument("--env", choices=ENVS, default="draft")
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
