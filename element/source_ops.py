"""The Source ops of the reference sheet: files, README, intention, and the ``source_*`` ops.

Each op is a thin adapter over ``source/`` (the git library) plus what only this layer
knows: the element's catalog row, its spec mirror (``versions.py``), its memory runtime
(repair, fixtures) and the request's host (clone URLs). Mutating ops record activity.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

from index import InvalidMemory, StoreError
from index.records import validate_new
from index.sidecar import read_manifest
from index.store import LIST_LIMIT_MAX, LOG_NAME
from source import (SPEC_PATH, InvalidArgument, MergeConflict, SourceError, branch_tips,
                    branches, commit_files, diff3, fixtures, history, list_files, merge,
                    promote, read_file, read_spec, repair, resolve_rev, spec_check, validate)

from .catalog import Element
from .errors import ElementError, InvalidRequest
from .home import spec_of
from .memory_ops import known_fields
from .ops import REGISTRY, OpCall, OpResult, implements
from .types import TYPES
from .versions import (bool_arg, draft_spec_blob, normalize_spec, principal_label, set_mirror,
                       sync_spec)

__all__ = ["CATEGORY_INTENTIONS", "clone_url"]

README = "README.md"
MAX_README_BYTES = 512 * 1024
_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")
_PRUNE = re.compile(r"now|[0-9]{1,6}\.(seconds|minutes|hours|days|weeks)\.ago")
_FIXTURE_FIELDS = {"content", "category", "subject_type", "subject_id", "context",
                   "intention", "agent", "metadata", "source"}

#: What an element of each type category is for; inherited by ``intention``.
CATEGORY_INTENTIONS = {
    "namespace": "Gathers one circle's elements and people under one name and one set of "
                 "permissions.",
    "composition": "Composes member elements into something promoted and shipped together.",
    "data": "Keeps knowledge that agents and other elements read and write.",
    "actor": "Acts: converses, decides and uses the elements bonded to it.",
    "modifier": "Changes how the element it attaches to may be used.",
    "resource": "Supplies content that other elements use.",
}


def _repo(call: OpCall) -> Path:
    return Path(call.home.repo_path(call.element))


def _rev(value: Any, name: str, default: str | None = "draft") -> str:
    if value is None or value == "":
        if default is None:
            raise InvalidRequest(name, "is required (a branch draft/demo/live or a commit id)")
        return default
    if not isinstance(value, str) or len(value) > 64:
        raise InvalidRequest(name, "must be a branch (draft, demo, live) or a commit id")
    return value


def _branch(value: Any) -> str:
    """A branch name for file reads: commits by id are not served (a refused push leaves
    its objects behind until repair prunes them; they must not be readable)."""
    if value is None or value == "":
        return "draft"
    if value not in ("draft", "demo", "live"):
        raise InvalidRequest("branch", "must be draft, demo or live")
    return str(value)


def _record(call: OpCall, op: str, detail: dict[str, Any], element: Element | None = None
            ) -> None:
    call.home.catalog.record_activity(element or call.element, op, principal_label(call),
                                      detail)


def _decode(data: bytes) -> tuple[str, str]:
    """``(content, encoding)``: UTF-8 text when it decodes, else base64."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return base64.b64encode(data).decode("ascii"), "base64"


# -- files ------------------------------------------------------------------------------

@implements("readme")
def readme(call: OpCall) -> OpResult:
    """README.md of a branch (default draft); empty content, not an error, when absent."""
    branch = _branch(call.query.get("branch"))
    data = read_file(_repo(call), README, branch=branch)
    return OpResult({"path": README, "branch": branch, "format": "markdown",
                     "exists": data is not None,
                     "content": data.decode("utf-8", "replace") if data else ""})


@implements("readme_update")
def readme_update(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"content", "message"})
    content = body.get("content")
    if not isinstance(content, str):
        raise InvalidRequest("content", "is required and must be a markdown string")
    data = content.encode("utf-8")
    if len(data) > MAX_README_BYTES:
        raise InvalidRequest("content", f"must be at most {MAX_README_BYTES} bytes")
    message = body.get("message") or "Update README.md"
    if not isinstance(message, str) or len(message) > 500:
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    repo = _repo(call)
    before = branch_tips(repo)["draft"]
    commit = commit_files(repo, {README: data}, message=message)
    changed = commit != before
    if changed:
        _record(call, "readme_update", {"commit": commit, "bytes": len(data)})
    return OpResult({"path": README, "branch": "draft", "commit": commit, "changed": changed})


@implements("source")
def source_file(call: OpCall) -> OpResult:
    """One file of a branch; ``..``, a leading ``/`` and NUL are 400 (``check_relpath``);
    a missing file is empty content with ``exists: false``."""
    path = call.query.get("path")
    if path is None or path == "":
        raise InvalidRequest("path", "is required (a file path relative to the repo root)")
    branch = _branch(call.query.get("branch"))
    repo = _repo(call)
    data = read_file(repo, path, branch=branch)
    content, encoding = _decode(data) if data is not None else ("", "utf-8")
    return OpResult({"path": path, "branch": branch, "commit": resolve_rev(repo, branch),
                     "exists": data is not None, "size": len(data) if data else 0,
                     "encoding": encoding, "content": content})


@implements("intention")
def intention(call: OpCall) -> OpResult:
    """direct: the element's own ``intention`` property, else its ``description`` property,
    else its description. inherited: its type category's intention, then the circle root's
    (its direct intention). resolved: the direct intention followed by the inherited ones,
    nearest first (the category's stands first when there is no direct one)."""
    element = call.element
    direct = None
    for source, value in (("properties.intention", element.properties.get("intention")),
                          ("properties.description", element.properties.get("description")),
                          ("description", element.description)):
        if isinstance(value, str) and value.strip():
            direct = {"source": source, "text": value.strip()}
            break
    category = TYPES[element.element_type].category
    inherited: list[dict[str, Any]] = [{"level": "category", "name": category,
                                        "text": CATEGORY_INTENTIONS.get(category, "")}]
    if element.element_type != "circle":
        try:
            root = call.home.catalog.element_at(element.circle)
        except ElementError:
            root = None
        text = (root.description or "").strip() if root else ""
        if text:
            inherited.append({"level": "root", "path": element.circle, "text": text})
    parts = ([direct["text"]] if direct else []) + [i["text"] for i in inherited if i["text"]]
    return OpResult({"direct": direct, "inherited": inherited, "resolved": " ".join(
        p if p.endswith((".", "!", "?")) else p + "." for p in parts)})


# -- status and branches ----------------------------------------------------------------

def clone_url(call: OpCall) -> str:
    """``<base>/git/<path>.git``: base is ``PUBLIC_URL`` when configured, else
    ``http://<Host header>`` (a malformed Host falls back to localhost)."""
    base = call.home.public_url
    if not base:
        host = str(call.headers.get("Host") or "")
        base = f"http://{host if _HOST.fullmatch(host) else 'localhost'}"
    return f"{base.rstrip('/')}/git/{call.element.path}.git"


def _spec_findings(call: OpCall, rev: str) -> list[dict[str, Any]]:
    element = call.element
    try:
        raw = read_spec(_repo(call), branch=rev)
        if raw is None:
            return [{"path": SPEC_PATH, "kind": "spec", "reason": "missing"}]
        normalize_spec(raw, circle=element.circle, element_type_name=element.element_type,
                       slug=element.slug)
    except (ElementError, SourceError, InvalidMemory) as exc:
        return [{"path": SPEC_PATH, "kind": "spec", "reason": str(exc)}]
    return []


@implements("source_status")
def source_status(call: OpCall) -> OpResult:
    synced = sync_spec(call.home, call.element, principal=principal_label(call))
    element, repo = synced.element, _repo(call)
    url = clone_url(call)
    folder = element.slug or element.circle
    info = branches(repo)
    tip = info["branches"]["draft"]
    last = history(repo, branch="draft", limit=1)[0] if tip else None
    warnings: list[str] = [synced.warning] if synced.warning else []
    for step in info["promotions"]:
        if step["behind"]:
            warnings.append(f"{step['to']} has diverged from {step['from']} "
                            f"({step['behind']} commits): promotion is refused")
    findings = validate(repo, "draft") + _spec_findings(call, "draft") if tip else []
    files = list_files(repo, branch="draft") if tip else []
    children = [c for c in call.home.catalog.children(element)
                if Path(call.home.repo_path(c)).is_dir()]
    kind = "json envelope (one git bundle per child element)" \
        if element.element_type == "circle" else "git bundle v2 (draft, demo, live, HEAD)"
    return OpResult({
        "element": element.path, "clone_url": url,
        "checkout": [f"git clone {url} {folder}", f"cd {folder}",
                     "git checkout draft   # the only branch that accepts pushes",
                     "git push origin draft"],
        "branches": info["branches"], "promotions": info["promotions"],
        "draft_commit": tip,
        "draft": {"commit": last["commit"], "message": last["message"].strip(),
                  "author": last["author"], "time": last["time"]} if last else None,
        "spec": {"version": element.version, "mirrored": synced.warning is None},
        "child_source_links": len(children),
        "export": {"op": f"GET /api/{element.path}/ops/export/bundle", "format": kind,
                   "files": len(files), "bytes": sum(f["size"] for f in files),
                   "portable": not findings},
        "health": {"ok": not findings and not warnings, "checked": "draft",
                   "findings": findings},
        "warnings": warnings,
        "auth": {"clone": "a Read token (viewer, member or admin of the circle) as the "
                          "password of any user name, or an 'Authorization: Bearer' header",
                 "push": "a Write token (member or admin); only draft accepts pushes, demo "
                         "and live move through source_promote",
                 "example": f"git -c http.extraHeader='Authorization: Bearer $TOKEN' "
                            f"clone {url}"},
    })


@implements("source_branches")
def source_branches(call: OpCall) -> OpResult:
    repo = _repo(call)
    info = branches(repo)
    heads = {}
    for name, tip in info["branches"].items():
        top = history(repo, branch=name, limit=1)[0] if tip else None
        heads[name] = {"commit": tip, "message": top["message"].strip() if top else None,
                       "time": top["time"] if top else None}
    return OpResult({"branches": heads, "promotions": info["promotions"],
                     "policy": {"draft": "git push, source_merge, readme_update, "
                                         "spec_update",
                                "demo": "source_promote from draft",
                                "live": "source_promote from demo"}})


# -- merge, promote, validate -----------------------------------------------------------

@implements("source_diff3")
def source_diff3(call: OpCall) -> OpResult:
    theirs = _rev(call.query.get("theirs"), "theirs", None)
    ours = _rev(call.query.get("ours"), "ours")
    return OpResult(diff3(_repo(call), theirs, ours))


@implements("source_merge")
def source_merge(call: OpCall) -> OpResult:
    """Merge ``theirs`` into draft; on conflicts 409 with the conflict set, nothing written."""
    body = known_fields(call.body, {"theirs", "message"})
    theirs = _rev(body.get("theirs"), "theirs", None)
    message = body.get("message")
    if message is not None and (not isinstance(message, str) or len(message) > 500):
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    try:
        result = merge(_repo(call), theirs, message=message)
    except MergeConflict as exc:
        return OpResult({"error": {"code": exc.code, "class": exc.error_class,
                                   "retryable": exc.retryable, "message": exc.message},
                         "merged": False, "ours": exc.ours, "theirs": exc.theirs,
                         "conflicts": exc.conflicts}, status=409)
    synced = sync_spec(call.home, call.element, principal=principal_label(call), via="merge")
    result.update(spec_version=synced.element.version,
                  warnings=[synced.warning] if synced.warning else [])
    if not result["up_to_date"]:
        _record(call, "source_merge", {"theirs": theirs, "commit": result["commit"],
                                       "fast_forward": result["fast_forward"]})
    return OpResult(result)


@implements("source_promote")
def source_promote(call: OpCall) -> OpResult:
    """Fast-forward demo to draft or live to demo; from then on that branch's spec governs
    runtime ops in that environment (``X-Triform-Env`` or the server's ``--env``)."""
    to = known_fields(call.body, {"to"}).get("to")
    if to not in ("demo", "live"):
        raise InvalidRequest("to", "must be 'demo' (from draft) or 'live' (from demo)")
    result = promote(_repo(call), to)
    if result["promoted"]:
        _record(call, "source_promote", {"to": to, "commit": result["commit"],
                                         "previous": result["previous"]})
    return OpResult(result)


@implements("source_validate")
def source_validate(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"branch"})
    branch = _rev(body.get("branch"), "branch")
    repo = _repo(call)
    commit = resolve_rev(repo, branch)
    findings = validate(repo, commit) + _spec_findings(call, commit)
    return OpResult({"branch": branch, "commit": commit, "ok": not findings,
                     "findings": findings})


# -- repair -----------------------------------------------------------------------------

def _spec_agreement(call: OpCall) -> Any:
    """Repair check: draft's spec, normalized, must equal the catalog's. The fix is
    ``source.spec_check``'s: commit the catalog's spec (it is authoritative)."""
    home, element = call.home, call.element

    def spec(path: Path, dry_run: bool) -> list[dict[str, Any]]:
        want = spec_of(home.catalog.element(element.id))
        try:
            raw = read_spec(path, branch="draft")
            have = None if raw is None else normalize_spec(
                raw, circle=element.circle, element_type_name=element.element_type,
                slug=element.slug)
        except (ElementError, SourceError, InvalidMemory):
            have = None
        if have == want:
            return []
        items = spec_check(want)(path, dry_run)
        if any(i.get("fixed") for i in items):
            commit, blob = draft_spec_blob(path)
            set_mirror(home.catalog, element.id, commit, blob)
        return items

    return spec


def _log_id(log: Path) -> str | None:
    """The id in the log's header line (its first line), or None."""
    try:
        with open(log, "rb") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return header.get("log_id") if isinstance(header, dict) else None


def _memory_checks(call: OpCall) -> Any:
    """Repair check of a memory element's runtime: the sidecar (hnswlib checkpoint) must
    cover the whole log, and every memory must have its vectors. Fixes use the store's own
    maintenance: ``compact`` (rewrites the log, writes a fresh checkpoint) and
    ``repair_embeddings``."""
    home, element = call.home, call.element

    def memory_runtime(path: Path, dry_run: bool) -> list[dict[str, Any]]:
        store = home.memory_store(element)
        runtime = Path(home.runtime_path(element))
        items: list[dict[str, Any]] = []
        manifest = read_manifest(runtime)
        size = (runtime / LOG_NAME).stat().st_size if (runtime / LOG_NAME).exists() else 0
        problem = None
        # A tail of the log past the checkpoint is normal for a running store (it is
        # replayed on start and covered at the next checkpoint); a checkpoint of another
        # log, or of more bytes than the log holds, is not.
        if manifest is None:
            problem = "the memory sidecar is missing (the next start rebuilds it from the log)"
        elif manifest.get("log_id") != _log_id(runtime / LOG_NAME) or \
                not isinstance(manifest.get("log_offset"), int) or manifest["log_offset"] > size:
            problem = ("the memory sidecar is stale: it covers another log or more of it "
                       "than exists (the next start rebuilds it from the log)")
        if problem:
            item: dict[str, Any] = {"problem": problem, "fixable": True}
            if not dry_run:
                store.compact()
                after = read_manifest(runtime)
                size = (runtime / LOG_NAME).stat().st_size
                if after is not None and after.get("log_offset") == size:
                    item.update(fixed=True, fix="compacted the log and wrote a fresh sidecar")
            items.append(item)
        missing, cursor = 0, None
        while True:
            page, cursor = store.list(limit=LIST_LIMIT_MAX, cursor=cursor)
            missing += sum(1 for m in page if not m.get("embedded"))
            if cursor is None:
                break
        if missing:
            item = {"problem": f"{missing} memories have no vectors (text search only)",
                    "fixable": True}
            if not dry_run:
                try:
                    item.update(fixed=True, fix=f"embedded {store.repair_embeddings()} "
                                                "memories")
                except StoreError as exc:
                    item["fix_failed"] = exc.message
            items.append(item)
        return items

    return memory_runtime


@implements("source_repair")
def source_repair(call: OpCall) -> OpResult:
    """Dry run by default. Checks git (refs, HEAD, config, objects, dangling objects), the
    spec's agreement with the catalog and, for memory elements, the memory runtime."""
    body = known_fields(call.body, {"dry_run", "prune_age"})
    dry_run = bool_arg(body.get("dry_run"), "dry_run", True)
    prune_age = body.get("prune_age", "5.minutes.ago")
    if not isinstance(prune_age, str) or not _PRUNE.fullmatch(prune_age):
        raise InvalidRequest("prune_age", "must be 'now' or like '5.minutes.ago'")
    if not dry_run:
        sync_spec(call.home, call.element, principal=principal_label(call))
    checks = [_spec_agreement(call)]
    if call.element.element_type == "memory":
        checks.append(_memory_checks(call))
    report = repair(_repo(call), dry_run=dry_run, extra_checks=checks, prune_age=prune_age)
    report["checks"] = ["head", "config", "branches", "order", "objects", "dangling", "spec"] \
        + (["memory_runtime"] if call.element.element_type == "memory" else [])
    if not dry_run and report["fixed"]:
        _record(call, "source_repair", {"fixed": [f["check"] for f in report["fixed"]]})
    return OpResult(report)


# -- fixtures ---------------------------------------------------------------------------

def _applied_keys(call: OpCall) -> dict[str, str]:
    """fixture key -> memory id, for fixture memories still stored (``metadata.fixture_key``)."""
    store = call.home.memory_store(call.element)
    keys: dict[str, str] = {}
    cursor = None
    while True:
        page, cursor = store.list(source="fixture", limit=LIST_LIMIT_MAX, cursor=cursor)
        for memory in page:
            key = (memory.get("metadata") or {}).get("fixture_key")
            if isinstance(key, str):
                keys[key] = memory["id"]
        if cursor is None:
            return keys


def _memory_body(item: dict[str, Any]) -> dict[str, Any]:
    """The ``store`` body of a memory fixture record; :raise: on fields store would refuse."""
    record = dict(item["record"])
    known_fields(record, _FIXTURE_FIELDS)
    record["source"] = "fixture"
    meta = record.get("metadata")
    if meta is None or isinstance(meta, dict):
        record["metadata"] = {**(meta or {}), "fixture_key": item["key"]}
    validate_new(**{k: record.get(k) for k in _FIXTURE_FIELDS}, idempotency_key=item["key"])
    return record


@implements("source_fixtures")
def source_fixtures(call: OpCall) -> OpResult:
    """Dry run (default) reports each record's status; applying needs ``dry_run: false``
    and ``confirm: true`` and sends each memory record through the ``store`` op, with the
    record's fixture key as idempotency key, so applying twice stores nothing new."""
    body = known_fields(call.body, {"dry_run", "confirm", "branch"})
    dry_run = bool_arg(body.get("dry_run"), "dry_run", True)
    confirm = bool_arg(body.get("confirm"), "confirm", False)
    branch = _rev(body.get("branch"), "branch")
    if not dry_run and not confirm:
        raise InvalidRequest("confirm", "applying fixtures needs dry_run=false and "
                             "confirm=true")
    is_memory = call.element.element_type == "memory"
    done = _applied_keys(call) if is_memory else {}
    stored: dict[str, dict[str, Any]] = {}

    def apply(item: dict[str, Any]) -> None:
        if item["kind"] != "memory" or not is_memory:
            raise InvalidRequest("kind", f"{item['kind']!r} fixtures cannot be applied to "
                                 f"{call.element.element_type} elements")
        result = REGISTRY.ops["store"].call(OpCall(
            home=call.home, element=call.element, principal=call.principal,
            body=_memory_body(item), headers={"Idempotency-Key": item["key"]}, env=call.env))
        stored[item["key"]] = {"memory_id": result.body["memory"]["id"],
                               "warnings": result.body["warnings"]}

    try:
        report = fixtures(_repo(call), branch, dry_run=dry_run, confirm=confirm, apply=apply,
                          done=done)
    except InvalidArgument as exc:
        raise InvalidRequest(exc.field, exc.reason) from None
    errors = {e["key"]: e["error"] for e in report.get("errors", [])}
    rows = []
    for item in report["records"]:
        key = item["key"]
        row = {"file": item["file"], "index": item["index"], "kind": item["kind"], "key": key}
        if key in done:
            row.update(status="skipped" if not dry_run else "applied",
                       memory_id=done[key])
        elif dry_run:
            try:
                if item["kind"] != "memory" or not is_memory:
                    raise InvalidRequest("kind", "no op of this element takes "
                                         f"{item['kind']!r} fixtures")
                _memory_body(item)
                row["status"] = "new"
            except (ElementError, StoreError) as exc:
                row.update(status="invalid", error=str(exc))
        elif key in errors:
            row.update(status="error", error=errors[key])
        else:
            row.update(status="stored", **stored.get(key, {}))
        rows.append(row)
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    if not dry_run:
        _record(call, "source_fixtures", {"branch": branch, "counts": counts})
    return OpResult({"dry_run": dry_run, "branch": branch, "files": report["files"],
                     "records": rows, "counts": counts})
