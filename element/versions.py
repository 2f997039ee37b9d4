"""Spec versions: ``spec``, ``spec_update``, ``version``, ``restore``, and the spec mirror.

The spec lives in git (``.triform/spec.yaml`` on each branch) and in the catalog row; the
catalog is authoritative (``restore`` reads it) and every change of the draft spec is a
version entry ``vN``. A spec reaches draft by four paths, and all four end in the catalog:

* ``spec_update`` / ``restore`` / ``source_repair`` write both sides themselves;
* a ``git push`` to draft: ``validate_push`` (:func:`push_reasons`) refuses a spec that does
  not fit the type, with the reason shown by the git client. It cannot mirror the spec,
  because the ref moves after it by compare-and-swap and may still fail; so the mirror runs
  after the push (:func:`after_push`, called by the git mount once the response is sent)
  and, as a safety net, lazily (:func:`sync_spec`) before any op that reads the spec;
* ``source_merge`` and anything else that moves draft (another process, a restore from a
  bundle) is caught by the same lazy mirror.

Mirror state is one row per element in ``spec_mirror(element_id, blob, commit, status,
at)`` in ``catalog.db``: the blob id of the draft spec last looked at. :func:`sync_spec`
costs one ref read and one tree lookup when nothing changed; when the blob differs, the
file is parsed and normalized (:func:`normalize_spec`). If it equals the catalog's spec only
the row moves; if it differs, it becomes version ``vN``; if it is invalid (only a merge can
bring one in) the catalog keeps its spec, the row records ``invalid: <reason>`` and
``source_status`` / ``source_repair`` report it. Claiming the row is a compare-and-swap in
one SQLite transaction, so two workers never record the same push twice.
"""

from __future__ import annotations

import json
import logging
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygit2
import yaml

from index import InvalidMemory, MemorySettings
from source import SPEC_PATH, SourceError, commit_files, open_repo, read_spec

from .catalog import Catalog, Element, now_iso
from .errors import ElementDisabled, ElementError, InvalidProperty, InvalidRequest
from .home import Home, spec_of
from .memory_ops import known_fields
from .ops import OpCall, OpResult, implements
from .types import element_type, validate_properties

__all__ = ["SPEC_KEYS", "VersionNotFound", "normalize_spec", "spec_yaml", "draft_spec_blob",
           "sync_spec", "push_reasons", "after_push", "write_spec", "mirror_state",
           "set_mirror", "element_lock", "principal_label", "int_arg", "bool_arg"]

log = logging.getLogger(__name__)

SPEC_KEYS = ("element_type", "slug", "name", "form", "description", "properties")
HISTORY_MAX = 500

_TABLE = """CREATE TABLE IF NOT EXISTS spec_mirror (
    element_id TEXT PRIMARY KEY, blob TEXT, commit_id TEXT, status TEXT NOT NULL, at TEXT)"""
_ready: "weakref.WeakSet[Catalog]" = weakref.WeakSet()
_locks: dict[str, threading.RLock] = {}
_locks_guard = threading.Lock()


class VersionNotFound(ElementError):
    """The element has no version with this number."""

    code = "ELEMENT_VERSION_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, path: str, version: int) -> None:
        super().__init__(f"{path!r} has no version v{version}")
        self.version = version


def element_lock(element_id: str) -> threading.RLock:
    """One lock per element for this process: spec writes read-merge-write under it."""
    with _locks_guard:
        return _locks.setdefault(element_id, threading.RLock())


def principal_label(call: OpCall) -> str | None:
    return call.principal.label if call.principal else None


def int_arg(value: Any, name: str, default: int, low: int, high: int) -> int:
    """A query or body integer in [low, high]; :raise InvalidRequest: otherwise."""
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise InvalidRequest(name, "must be an integer")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise InvalidRequest(name, "must be an integer") from None
    if not low <= number <= high:
        raise InvalidRequest(name, f"must be from {low} to {high}")
    return number


def bool_arg(value: Any, name: str, default: bool) -> bool:
    """A JSON boolean, or a query string true/false/1/0; :raise InvalidRequest: otherwise."""
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "1", "yes", "false", "0", "no"):
        return value.lower() in ("true", "1", "yes")
    raise InvalidRequest(name, "must be true or false")


# -- the spec file ----------------------------------------------------------------------

def spec_yaml(spec: dict[str, Any]) -> bytes:
    """The spec as written to ``.triform/spec.yaml`` (the same layout ``create`` writes)."""
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True).encode()


def normalize_spec(raw: Any, *, circle: str, element_type_name: str | None = None,
                   slug: str | None = None, keep_slug: bool = True) -> dict[str, Any]:
    """Check a spec read from git against its type and return it in the catalog's form.

    Missing ``element_type``/``slug``/``form`` are implied by the element; missing ``name``
    is derived from the slug; missing ``properties`` take the type's defaults.

    :param element_type_name: the element's type, which a spec may not change.
    :param slug: the element's slug; with ``keep_slug`` a spec may not change it, without
        it (imports under another slug) the given slug wins.
    :raise InvalidRequest / InvalidProperty: naming the first field that does not fit.
    """
    if not isinstance(raw, dict):
        raise InvalidRequest("spec", "must be a YAML mapping")
    for key in raw:
        if key not in SPEC_KEYS:
            raise InvalidRequest(f"spec.{key}", "is not a spec field (fields: "
                                 + ", ".join(SPEC_KEYS) + ")")
    kind_name = raw.get("element_type", element_type_name)
    if element_type_name is not None and kind_name != element_type_name:
        raise InvalidRequest("spec.element_type", f"must stay {element_type_name!r}; an "
                             "element's type cannot change")
    try:
        kind = element_type(kind_name)
    except InvalidRequest:
        raise InvalidRequest("spec.element_type", "must be a known element type") from None
    if raw.get("form", kind.form) != kind.form:
        raise InvalidRequest("spec.form", f"must be {kind.form!r} for {kind.name} elements")
    given_slug = raw.get("slug", slug)
    if kind.name == "circle":
        given_slug = None
    elif keep_slug and slug is not None and given_slug != slug:
        raise InvalidRequest("spec.slug", f"must stay {slug!r}; rename is not supported")
    elif not keep_slug and slug is not None:
        given_slug = slug
    name = raw.get("name")
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise InvalidRequest("spec.name", "must be a non-empty string")
    description = raw.get("description")
    if description is not None and not isinstance(description, str):
        raise InvalidRequest("spec.description", "must be a string")
    props = raw.get("properties")
    props = validate_properties(kind.name, {} if props is None else props)
    if kind.name == "memory":
        try:
            MemorySettings.from_properties(props)
        except InvalidMemory as exc:
            raise InvalidProperty(exc.field, exc.reason) from None
    return {"element_type": kind.name, "slug": given_slug,
            "name": name or str(given_slug or circle).replace("-", " ").title(),
            "form": kind.form, "description": description, "properties": props}


def _spec_fields(spec: dict[str, Any]) -> dict[str, Any]:
    """The catalog columns a spec sets."""
    return {"name": spec["name"], "description": spec["description"],
            "properties": spec["properties"]}


def draft_spec_blob(repo: Path, rev: str = "draft") -> tuple[str | None, str | None]:
    """``(commit, blob)`` of the spec on ``rev``: one ref read and one tree lookup.

    Either is ``None`` when the branch or the file is missing (a damaged repo is reported by
    ``source_repair``, never raised here).
    """
    try:
        with open_repo(repo) as r:
            if rev in ("draft", "demo", "live"):
                commit = r.references[f"refs/heads/{rev}"].peel(pygit2.Commit)
            else:
                commit = r[rev].peel(pygit2.Commit)
            try:
                blob = str(commit.tree[SPEC_PATH].id)
            except KeyError:
                blob = None
            return str(commit.id), blob
    except (SourceError, KeyError, ValueError, pygit2.GitError):
        return None, None


# -- mirror state -----------------------------------------------------------------------

def _table(catalog: Catalog) -> Catalog:
    if catalog not in _ready:
        with catalog.transaction() as db:
            db.execute(_TABLE)
        _ready.add(catalog)
    return catalog


def mirror_state(catalog: Catalog, element_id: str) -> dict[str, Any] | None:
    rows = _table(catalog).query("SELECT * FROM spec_mirror WHERE element_id = ?",
                                 (element_id,))
    return dict(rows[0]) if rows else None


def set_mirror(catalog: Catalog, element_id: str, commit: str | None, blob: str | None,
               status: str = "mirrored", *, expect: Any = ...) -> bool:
    """Record the mirrored blob. With ``expect`` (the blob read before), only if the row
    still holds it: a compare-and-swap, so one worker wins. Returns whether it was written."""
    with _table(catalog).transaction() as db:
        if expect is not ...:
            row = db.execute("SELECT blob FROM spec_mirror WHERE element_id = ?",
                             (element_id,)).fetchone()
            if (row[0] if row else None) != expect:
                return False
        db.execute("INSERT INTO spec_mirror VALUES (?,?,?,?,?) ON CONFLICT(element_id) DO "
                   "UPDATE SET blob = excluded.blob, commit_id = excluded.commit_id, "
                   "status = excluded.status, at = excluded.at",
                   (element_id, blob, commit, status, now_iso()))
    return True


def _mirror_version(catalog: Catalog, element_id: str, expect: str | None, commit: str,
                    blob: str | None, spec: dict[str, Any], message: str) -> int | None:
    """Claim the mirror row (compare-and-swap on ``expect``) and record the version in ONE
    transaction, so no reader sees the row ahead of the version and two workers never both
    record it. Returns the new version, or None when another worker got there first.

    The version insert is ``Catalog.add_version``'s, inlined: that method opens its own
    transaction.
    """
    stamp = now_iso()
    with _table(catalog).transaction() as db:
        row = db.execute("SELECT blob FROM spec_mirror WHERE element_id = ?",
                         (element_id,)).fetchone()
        if (row[0] if row else None) != expect:
            return None
        (current,) = db.execute("SELECT version FROM elements WHERE id = ?",
                                (element_id,)).fetchone()
        version = int(current) + 1
        db.execute("INSERT INTO versions VALUES (?,?,?,?,?)",
                   (element_id, version, json.dumps(spec), message, stamp))
        db.execute("UPDATE elements SET name = ?, description = ?, properties = ?, "
                   "version = ?, updated_at = ? WHERE id = ?",
                   (spec["name"], spec["description"], json.dumps(spec["properties"]),
                    version, stamp, element_id))
        db.execute("INSERT INTO spec_mirror VALUES (?,?,?,?,?) ON CONFLICT(element_id) DO "
                   "UPDATE SET blob = excluded.blob, commit_id = excluded.commit_id, "
                   "status = excluded.status, at = excluded.at",
                   (element_id, blob, commit, "mirrored", stamp))
    return version


@dataclass
class Synced:
    element: Element
    version: int | None = None       # the version the mirror created, if any
    warning: str | None = None       # why draft's spec was not mirrored


def sync_spec(home: Home, element: Element, *, principal: str | None = None,
              via: str = "draft") -> Synced:
    """Mirror draft's spec into the catalog if it changed since last mirrored (see module).

    Cheap when nothing changed. Never raises for a bad spec in git: it answers a warning.
    """
    if element.state == "deleted":
        return Synced(element)
    repo = home.repo_path(element)
    commit, blob = draft_spec_blob(repo)
    state = mirror_state(home.catalog, element.id)
    seen = state["blob"] if state else None
    if commit is None or (state is not None and seen == blob):
        bad = state["status"] if state and state["status"] != "mirrored" else None
        # Re-read the row: the caller's copy may predate a mirror another request just did.
        return Synced(home.catalog.element(element.id), warning=bad)
    with element_lock(element.id):
        state = mirror_state(home.catalog, element.id)
        if state is not None and state["blob"] == blob:        # mirrored while we waited
            return Synced(home.catalog.element(element.id), warning=None
                          if state["status"] == "mirrored" else state["status"])
        seen = state["blob"] if state else None
        try:
            raw = read_spec(repo, branch=commit)
            if raw is None:
                raise InvalidRequest("spec", f"{SPEC_PATH} is missing on draft")
            spec = normalize_spec(raw, circle=element.circle,
                                  element_type_name=element.element_type, slug=element.slug)
        except (ElementError, SourceError, InvalidMemory) as exc:
            status = f"invalid: {exc}"
            set_mirror(home.catalog, element.id, commit, blob, status, expect=seen)
            return Synced(home.catalog.element(element.id), warning=status)
        current = home.catalog.element(element.id)
        if spec == spec_of(current):
            set_mirror(home.catalog, element.id, commit, blob, expect=seen)
            return Synced(current)
        version = _mirror_version(home.catalog, element.id, seen, commit, blob, spec,
                                  f"{via} {commit[:12]}: {SPEC_PATH} changed")
        if version is None:
            return Synced(home.catalog.element(element.id))   # another worker mirrored it
        updated = home.catalog.element(element.id)
        home.catalog.record_activity(updated, "spec_update", principal or "git",
                                     {"via": via, "version": version, "commit": commit})
        return Synced(updated, version)


def push_reasons(home: Home, repo_path: Path, new: str) -> list[str]:
    """``validate_push`` for the git mount: refuse a pushed draft whose spec does not fit."""
    try:
        element = home.catalog.element(Path(repo_path).name.removesuffix(".git"))
    except ElementError:
        return ["this repository has no catalog entry; run source_repair"]
    try:
        raw = read_spec(repo_path, branch=new)
    except SourceError as exc:
        return [exc.message]
    if raw is None:
        return [f"{SPEC_PATH} is missing: every element keeps its spec on draft"]
    try:
        normalize_spec(raw, circle=element.circle, element_type_name=element.element_type,
                       slug=element.slug)
    except (ElementError, InvalidMemory) as exc:
        return [f"{SPEC_PATH}: {exc}"]
    return []


def after_push(home: Home, element_path: str, principal: str | None) -> None:
    """Mirror the spec a push just landed (the lazy mirror catches what this misses)."""
    try:
        sync_spec(home, home.catalog.element_at(element_path), principal=principal,
                  via="push")
    except Exception:  # noqa: BLE001 - the push succeeded; the lazy mirror will retry
        log.exception("mirroring the spec after a push failed")


def write_spec(home: Home, element: Element, spec: dict[str, Any], message: str) -> str:
    """Commit ``spec`` to draft and mark it mirrored; returns the commit id.

    :raise SourceError: the commit failed (e.g. ``RefMoved``).
    """
    repo = home.repo_path(element)
    commit = commit_files(repo, {SPEC_PATH: spec_yaml(spec)}, message=message)
    _, blob = draft_spec_blob(repo, commit)
    set_mirror(home.catalog, element.id, commit, blob)
    return commit


# -- ops --------------------------------------------------------------------------------

def _version_entry(home: Home, element: Element, number: int) -> dict[str, Any]:
    rows = home.catalog.query("SELECT * FROM versions WHERE element_id = ? AND version = ?",
                              (element.id, number))
    if not rows:
        raise VersionNotFound(element.path, number)
    r = rows[0]
    return {"version": r["version"], "label": f"v{r['version']}",
            "spec": json.loads(r["spec"]), "message": r["message"],
            "created_at": r["created_at"]}


@implements("spec")
def spec(call: OpCall) -> OpResult:
    synced = sync_spec(call.home, call.element, principal=principal_label(call))
    answer: dict[str, Any] = {"spec": spec_of(synced.element),
                              "version": synced.element.version}
    if synced.warning:
        answer["warnings"] = [synced.warning]
    return OpResult(answer)


@implements("spec_update")
def spec_update(call: OpCall) -> OpResult:
    """Merge ``properties`` (a ``null`` value resets one to its default) and optionally set
    ``name`` / ``description``; commit the spec to draft, then record ``vN``."""
    body = known_fields(call.body, {"properties", "name", "description", "message"})
    if not any(k in body for k in ("properties", "name", "description")):
        raise InvalidRequest("properties", "is required (an object of properties to merge)")
    changes = body.get("properties", {})
    if not isinstance(changes, dict):
        raise InvalidRequest("properties", "must be an object")
    note = body.get("message")
    if note is not None and (not isinstance(note, str) or len(note) > 500):
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    element = call.element
    with element_lock(element.id):
        element = sync_spec(call.home, element, principal=principal_label(call)).element
        current = spec_of(element)
        props = {k: v for k, v in {**element.properties, **changes}.items() if v is not None}
        raw = {**current, "properties": props}
        for key in ("name", "description"):
            if key in body:
                raw[key] = body[key]
        new = normalize_spec(raw, circle=element.circle,
                             element_type_name=element.element_type, slug=element.slug)
        if new == current:
            return OpResult({"changed": False, "version": element.version, "spec": current})
        message = note or "spec_update: " + ", ".join(sorted(
            [f"properties.{k}" for k in changes] + [k for k in ("name", "description")
                                                    if k in body]))
        commit = write_spec(call.home, element, new, message)
        version = call.home.catalog.add_version(element.id, new, f"{message} ({commit[:12]})",
                                                **_spec_fields(new))
    updated = call.home.catalog.element(element.id)
    call.home.catalog.record_activity(updated, "spec_update", principal_label(call),
                                      {"version": version, "commit": commit,
                                       "properties": sorted(changes)})
    return OpResult({"changed": True, "version": version, "label": f"v{version}",
                     "commit": commit, "spec": spec_of(updated)})


@implements("version")
def version(call: OpCall) -> OpResult:
    element = sync_spec(call.home, call.element, principal=principal_label(call)).element
    history = bool_arg(call.query.get("history"), "history", False)
    limit = int_arg(call.query.get("limit"), "limit", 50, 1, HISTORY_MAX)
    answer: dict[str, Any] = {"version": element.version, "label": f"v{element.version}",
                              "current": _version_entry(call.home, element, element.version)}
    if history:
        answer["history"] = call.home.catalog.versions(element.id, limit)
    return OpResult(answer)


@implements("restore")
def restore(call: OpCall) -> OpResult:
    """Snapshot the current spec as ``Before restore to vN``, make vN's spec current (the
    catalog decides), then write it to draft; a git failure is a warning, not an error."""
    body = known_fields(call.body, {"version"})
    raw_version = body.get("version")
    if isinstance(raw_version, str) and raw_version.startswith("v"):
        raw_version = raw_version[1:]
    number = int_arg(raw_version, "version", 0, 1, 2**31)
    if number == 0:
        raise InvalidRequest("version", "is required (the number of the version to restore)")
    element = call.element
    if element.state == "deleted":
        raise ElementDisabled(element.path, "deleted")
    warnings: list[str] = []
    with element_lock(element.id):
        element = sync_spec(call.home, element, principal=principal_label(call)).element
        target = _version_entry(call.home, element, number)
        spec = normalize_spec(target["spec"], circle=element.circle,
                              element_type_name=element.element_type, slug=element.slug)
        catalog = call.home.catalog
        snapshot = catalog.add_version(element.id, spec_of(element),
                                       f"Before restore to v{number}")
        restored = catalog.add_version(element.id, spec, f"Restored from v{number}",
                                       **_spec_fields(spec))
        commit = None
        try:
            commit = write_spec(call.home, element, spec, f"restore v{number} (now "
                                f"v{restored})")
        except (SourceError, OSError) as exc:
            log.warning("restore of %s: git write failed: %s", element.path, exc)
            warnings.append(f"SOURCE_WRITE_FAILED: the spec was restored in the catalog "
                            f"but not written to git ({getattr(exc, 'message', exc)}); "
                            "source_repair with dry_run=false writes it")
    updated = call.home.catalog.element(element.id)
    call.home.catalog.record_activity(updated, "restore", principal_label(call),
                                      {"from": number, "snapshot": snapshot,
                                       "version": restored, "commit": commit})
    return OpResult({"restored_from": number, "snapshot_version": snapshot,
                     "version": restored, "label": f"v{restored}", "commit": commit,
                     "spec": spec_of(updated), "warnings": warnings})
