"""Commands that move memories and homes: ``export --memories``, ``import DIR``,
``backup`` and ``restore`` (docs/backup.md), and ``migrate`` (docs/deploy.md).

``export PATH --memories -o DIR`` writes the element's git bundle and its memories (NDJSON
with vectors) into DIR, or, for a circle, its envelope with every memory element's
memories inside; ``import DIR --into CIRCLE`` reads them back. On a served home the
memories are held by the server, so both go through it (a token, as ``triform memory``).
Without ``--memories`` and with a file, ``export``/``import`` are the bundle commands of
``elements.py``, unchanged: memories never enter git.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from element import (Catalog, DatabaseRequired, Home, Invocation, backup_home, invoke,
                     mark_backend, marked_database, migrate_catalog, migrate_memories,
                     read_manifest, restore_home, verify_backup)

from ..config import open_home
from .common import EXIT_REFUSED, UsageError, guarded, home_of, print_json, run_op
from .elements import cmd_export as export_bundle_file
from .elements import cmd_import as import_bundle_file
from .remote import _call, served

if TYPE_CHECKING:
    from triform_client import Client

__all__ = ["cmd_export", "cmd_import", "cmd_backup", "cmd_restore", "cmd_migrate",
           "MEMORIES_SUFFIX"]

MEMORIES_SUFFIX = ".memories.ndjson"


def cmd_export(args: argparse.Namespace) -> int:
    """``export``: the bundle alone, or with ``--memories`` the bundle and memories."""
    if not args.memories:
        return export_bundle_file(args)
    return _export_with_memories(args)


@guarded
def _export_with_memories(args: argparse.Namespace) -> int:
    if not args.output or args.output == "-":
        raise UsageError("--memories writes several files: give a folder with -o DIR")
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    with home_of(args) as home:
        element = home.catalog.element_at(args.element)
    name = element.slug or element.circle
    server = served(args)
    files: list[Path] = []
    if server is not None:
        def work(client: Client) -> Any:
            path = quote(element.path)
            if element.element_type == "circle":
                envelope = client.call("GET", f"/api/{path}/ops/export/bundle",
                                       params={"memories": "true"})
                files.append(_write_json(out / f"{name}.bundle.json", envelope))
            else:
                with open(out / f"{name}.bundle", "wb") as f:
                    client.element(element.path).export_bundle(f)
                files.append(out / f"{name}.bundle")
                if element.element_type == "memory":
                    with open(out / f"{name}{MEMORIES_SUFFIX}", "wb") as f:
                        client.memory(element.path).export_memories(f, vectors=True)
                    files.append(out / f"{name}{MEMORIES_SUFFIX}")
            return _report(element.path, files)
        return _call(args, server, None, work)
    with home_of(args) as home:
        if element.element_type == "circle":
            result = run_op(home, element.path, "export_bundle", query={"memories": "true"})
            files.append(_write_json(out / f"{name}.bundle.json", result.body))
        else:
            bundle = run_op(home, element.path, "export_bundle").body
            assert isinstance(bundle, bytes)
            (out / f"{name}.bundle").write_bytes(bundle)
            files.append(out / f"{name}.bundle")
            if element.element_type == "memory":
                lines = run_op(home, element.path, "export_memories",
                               query={"vectors": "true"}).body
                assert not isinstance(lines, (bytes, dict))
                with open(out / f"{name}{MEMORIES_SUFFIX}", "wb") as f:
                    for chunk in lines:         # streamed: never whole in memory
                        f.write(chunk)
                files.append(out / f"{name}{MEMORIES_SUFFIX}")
    print_json(_report(element.path, files))
    return 0


def _write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False))
    return path


def _report(element: str, files: list[Path]) -> dict[str, Any]:
    return {"path": element, "files": [{"file": str(f), "bytes": f.stat().st_size}
                                       for f in files]}


def cmd_import(args: argparse.Namespace) -> int:
    """``import``: a bundle or envelope file as before; a folder written by ``export
    --memories``: its bundles or envelope, then each element's memories."""
    if not Path(args.file).is_dir():
        return import_bundle_file(args)
    return _import_folder(args)


def _folder(folder: Path) -> tuple[list[Path], list[Path]]:
    envelopes = sorted(folder.glob("*.bundle.json"))
    bundles = sorted(folder.glob("*.bundle"))
    if not envelopes and not bundles:
        raise UsageError(f"{folder} holds no *.bundle or *.bundle.json (written by "
                         "`triform export PATH --memories -o DIR`)")
    return envelopes, bundles


@guarded
def _import_folder(args: argparse.Namespace) -> int:
    folder = Path(args.file)
    envelopes, bundles = _folder(folder)
    if args.slug and len(envelopes) + len(bundles) != 1:
        raise UsageError("--slug applies to a folder with a single bundle")
    bodies: list[tuple[dict[str, Any], Path | None]] = []
    for path in envelopes:
        envelope = json.loads(path.read_text())
        bodies.append(({"envelope": envelope}, None))
    for path in bundles:
        body: dict[str, Any] = {
            "bundle_base64": base64.b64encode(path.read_bytes()).decode("ascii")}
        if args.slug:
            body["slug"] = args.slug
        ndjson = path.with_name(path.name[:-len(".bundle")] + MEMORIES_SUFFIX)
        bodies.append((body, ndjson if ndjson.exists() else None))
    for body, _ in bodies:
        if args.overwrite:
            body["overwrite"] = True
    server = served(args)
    if server is not None:
        def work(client: Client) -> Any:
            return [_imported_remote(client, args.into, body, memories)
                    for body, memories in bodies]
        return _call(args, server, None, work)
    reports = []
    with home_of(args) as home:
        for body, memories in bodies:
            result = run_op(home, args.into, "import_bundle", body=body)
            report = dict(result.body) if isinstance(result.body, dict) else {}
            if result.status >= 400:
                print(json.dumps(report, ensure_ascii=False, sort_keys=True),
                      file=sys.stderr)
                return EXIT_REFUSED
            for item in report.get("imported", []):
                if memories is not None:
                    item["memories"] = invoke(home, Invocation(
                        item["path"], op="import_memories", operator="cli",
                        raw_body=memories.read_bytes())).body
            reports.append(report)
    print_json(reports)
    return 0


def _imported_remote(client: Client, circle: str, body: dict[str, Any],
                     memories: Path | None) -> Any:
    report = client.call("POST", f"/api/{quote(circle)}/ops/import/bundle", body,
                         safe=False)
    for item in report.get("imported", []):
        if memories is not None:
            with open(memories, "rb") as f:
                item["memories"] = client.memory(item["path"]).import_memories(f)
    return report


# -- backup, verify, restore (their grammar: api/cli/main.py) ----------------------------

@guarded
def cmd_backup(args: argparse.Namespace) -> int:
    if args.verify:
        report = verify_backup(Path(args.verify))
        print_json(report)
        return 0 if report["ok"] else EXIT_REFUSED
    with home_of(args) as home:
        manifest = backup_home(home, Path(args.to))
    answer = {"backup": str(Path(args.to)), "home": manifest["home"],
              "started_at": manifest["started_at"], "finished_at": manifest["finished_at"],
              "elements": len(manifest["elements"]), "files": len(manifest["files"]),
              "bytes": sum(f["bytes"] for f in manifest["files"])}
    if "memories" in manifest:
        answer["memories"] = manifest["memories"]
    print_json(answer)
    return 0


@guarded
def cmd_restore(args: argparse.Namespace) -> int:
    """Into files, or with ``--database URL`` into that (empty) database. Only the option
    names the target: ``$TRIFORM_DATABASE_URL`` names the origin's database, where the
    subjects it forgot since the backup are read."""
    source, target = Path(args.source), Path(args.new_home)
    database = getattr(args, "database", None)
    if database is not None and not database.startswith(("postgresql://", "postgres://")):
        raise UsageError(f"--database {database!r}: give a postgresql:// URL")
    # What the origin forgot is read first: a refusal leaves no half-restored home.
    origin = Path(args.forgotten_from) if args.forgotten_from \
        else Path(read_manifest(source)["home"])
    found = _forgotten_at(origin, target, args)
    if found is None and args.forgotten_from:
        raise UsageError(f"{origin} has no catalog.db: not a data home")
    embedder = getattr(args, "embedder", None) or "fastembed"
    report = restore_home(source, target, database=database, forgotten=found or [],
                          open_files=lambda path: open_home(
                              path, embedder=embedder, files=True,
                              model_cache=getattr(args, "model_cache", None)))
    print_json({"home": str(target), "from": str(source), "elements": report["elements"],
                "database": database is not None,
                "memories": {path: moved["memories"]
                             for path, moved in report["memories"].items()},
                "forgotten_checked_against": None if found is None else str(origin),
                "forgotten_dropped": report["forgotten_dropped"]})
    return 0


def _forgotten_at(origin: Path, target: Path, args: argparse.Namespace
                  ) -> list[dict[str, str]] | None:
    """The subjects the home at ``origin`` forgot, from its database when it lives in one
    (its catalog.db is then stale; the URL is ``$TRIFORM_DATABASE_URL``'s), else from its
    catalog.db; None when it is no home (or is the target itself)."""
    if origin.resolve() == target.resolve():
        return None
    if marked_database(origin) is not None:
        try:
            home = open_home(origin, embedder=getattr(args, "embedder", None) or "fastembed",
                             database=os.environ.get("TRIFORM_DATABASE_URL") or None)
        except DatabaseRequired as exc:
            raise UsageError(f"{exc}; the subjects it forgot there since the backup must "
                             "stay forgotten (for a restore, TRIFORM_DATABASE_URL names "
                             "that database; --database names the one to restore into)"
                             ) from None
        with home:
            return home.catalog.forgotten()
    if (origin / "catalog.db").is_file():
        return Catalog(origin / "catalog.db").forgotten()
    return None


@guarded
def cmd_migrate(args: argparse.Namespace) -> int:
    """Copy the catalog, then the memories, and check both: exit 1 when a catalog table
    or a source memory is missing from the target, or the target holds a different
    memory under one of the source's ids (a conflict). The home must not be served
    meanwhile (its stores are the server's)."""
    server = served(args)
    if server is not None:
        raise UsageError(f"{server.url} (pid {server.pid}) serves this home: stop it "
                         "first; a migration copies every memory at once")
    target_url = None if args.to == "files" else args.to
    if target_url is not None and not target_url.startswith(("postgresql://",
                                                                "postgres://")):
        raise UsageError(f"--to {args.to!r}: give a postgresql:// URL or 'files'")
    with home_of(args) as source:
        if source.database_url == target_url:
            raise UsageError("the home is there already: --to names where it is now "
                             "(pass --database URL to copy from a database to files)")
        # The same folder on the other backend, sharing the loaded model. The folder's
        # record of where the home lives moves only once everything is copied and checked.
        failed = True
        try:
            with Home(source.path, lambda: source.embedder, database=target_url,
                      leaving_database=True) as target:
                catalog = migrate_catalog(source, target)
                report = migrate_memories(source, target) if catalog["verified"] else []
            failed = not catalog["verified"] or any(r["missing"] or r["conflicts"]
                                                    for r in report)
        finally:
            mark_backend(source.path, source.database_url if failed else target_url)
    print_json({"from": "files" if source.database_url is None else "database",
                "to": "files" if target_url is None else "database", "catalog": catalog,
                "elements": report, "memories": sum(r["memories"] for r in report),
                "missing": sum(r["missing"] for r in report),
                "conflicts": sum(len(r["conflicts"]) for r in report)})
    return EXIT_REFUSED if failed else 0
