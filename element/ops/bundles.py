"""Element-level ``export_bundle`` / ``import_bundle``, including circle envelopes.

Export: on an element, the raw git bundle (``application/x-git-bundle``; ``git bundle
verify`` accepts it, ``git clone`` clones it). On a circle, a JSON envelope with one base64
bundle per element of the circle::

    {"format": "triform-circle-envelope/1", "circle": "demo", "exported_at": "...",
     "elements": [{"slug", "element_type", "name", "parent", "bundle_base64"}, ...]}

``parent`` is the slug of the element's parent when that is not the circle itself.

Import (on a circle only; elements live flat under their circle). The body is either one
bundle, ``{"bundle_base64", "slug"?, "overwrite"?}``, or an envelope, ``{"envelope": {...},
"overwrite"?}``. For each bundle: ``source.import_bundle`` builds a new repo under a new id
with every hostile-input check (nothing is written outside the home, nothing existing is
touched); its ``.triform/spec.yaml`` on draft must fit its type (``versions.normalize_spec``)
and becomes the catalog row (version v1). The slug is the request's ``slug``, else the
envelope entry's, else the spec's; when it differs from the spec's, the spec is rewritten on
draft so git and catalog agree. An existing slug is skipped unless ``overwrite`` is true;
then the element is replaced (``Home.adopt_repo``: new id; its memories, attachments,
children, state and meta are kept), if the auth-policies attached to that element allow
the importer to change it, as on its own path. An overwrite keeps the element's type (a
memory element replaced by a prompt would orphan its memories): another type is refused.
Only an admin may import what changes governance (``governance.guard``): a modifier's spec,
a project's promotion state, and an overwrite of a memory element whose demo or live
declares ``promotion_gates`` (it would replace them past the gates). Each bundle succeeds or
fails alone; the answer is ``{"imported", "skipped", "errors", "counts"}`` (400 with that
report when nothing was imported or skipped).
"""

from __future__ import annotations

import base64
import binascii
import shutil
import uuid
from pathlib import Path
from typing import Any

from index import MemorySettings, StoreError
from source import (SPEC_PATH, SourceError, commit_files, export_bundle, import_bundle,
                    read_spec, spec_blob)

from ..catalog import Element, now_iso
from ..errors import ElementError, ElementNotFound, InvalidRequest
from ..evals import gated_branches
from ..governance.access import Principal
from ..governance.enforce import enforce_modifiers
from ..governance.guard import GOVERNANCE_TYPES, AdminOnly, guard_change, may_govern
from ..home import Home, check_slug
from ..spec.spec_file import normalize_spec, spec_of, spec_yaml
from ..transfer import export_lines, forgotten_before, import_into, read_import
from . import registry
from .op import Activity, OpCall, OpResult, OpTable
from .schemas import BOOLEAN, OBJECT, SLUG, STRING, array, integer, obj, ref

__all__ = ["ops", "ENVELOPE_FORMAT", "MAX_ENVELOPE_ELEMENTS", "envelope", "import_one",
           "OverwriteRefused"]

ops = OpTable()

ENVELOPE_FORMAT = "triform-circle-envelope/1"
MAX_ENVELOPE_ELEMENTS = 1000
_MAX_FINDINGS = 20


class OverwriteRefused(ElementError):
    """``overwrite`` would replace an element by one of another type."""

    code = "OVERWRITE_REFUSED"
    error_class = "conflict"


def _circle_members(home: Home, circle: Element) -> list[Element]:
    return [e for e in home.catalog.elements(circle.circle)
            if e.id != circle.id and e.state != "deleted"]


def envelope(home: Home, circle: Element, *, memories: bool = False) -> dict[str, Any]:
    """The circle envelope: one base64 bundle per element of the circle; with
    ``memories``, each memory element's memories too (``memories_ndjson``: the text
    ``export_memories`` answers, vectors included). Memories never enter git.

    :raise SourceError: an element's repo is damaged (named; run its ``source_repair``).
    """
    members = _circle_members(home, circle)
    slugs = {e.id: e.slug for e in members}
    out = []
    for el in members:
        try:
            data = export_bundle(home.repo_path(el))
        except SourceError as exc:
            raise SourceError(f"{el.path}: {exc.message}") from None
        entry = {"slug": el.slug, "element_type": el.element_type, "name": el.name,
                 "parent": slugs.get(el.parent_id or ""),
                 "bundle_base64": base64.b64encode(data).decode("ascii")}
        if memories and el.element_type == "memory" and el.state == "ready":
            with home.memory_store(el) as store:
                _, lines = export_lines(store, el, home.catalog, vectors=True, filters={})
                entry["memories_ndjson"] = b"".join(lines).decode("utf-8")
        out.append(entry)
    return {"format": ENVELOPE_FORMAT, "circle": circle.circle, "exported_at": now_iso(),
            "elements": out}


@ops.op("export_bundle", "GET", "export/bundle", "read", summary="Export as a git bundle",
        content={"application/x-git-bundle": {"type": "string",
                                              "contentMediaType": "application/x-git-bundle"},
                 "application/json": obj({"format": {"const": ENVELOPE_FORMAT},
                                          "circle": STRING, "exported_at": STRING,
                                          "elements": array(OBJECT)},
                                         ["format", "circle", "exported_at", "elements"])},
        query={"memories": {**BOOLEAN, "description": "on a circle: each memory "
                            "element's memories in the envelope (memories_ndjson)"}},
        description="A git bundle for an element; a JSON envelope of base64 bundles for a "
                    "circle (with memories=true, each memory element's memories too).")
def export(call: OpCall) -> OpResult:
    element = call.element
    if element.element_type == "circle":
        return OpResult(envelope(call.home, element,
                                 memories=bool(call.query.get("memories"))))
    if call.query.get("memories"):
        raise InvalidRequest("memories", "applies to a circle's envelope; an element's "
                             "memories are exported by export/memories")
    data = export_bundle(call.home.repo_path(element))
    return OpResult(data, content_type="application/x-git-bundle",
                    headers={"Content-Disposition":
                             f'attachment; filename="{element.slug}.bundle"'})


def _decode(value: Any) -> bytes:
    if not isinstance(value, str) or not value:
        raise InvalidRequest("bundle_base64", "is required (a base64-encoded git bundle)")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidRequest("bundle_base64", "is not valid base64") from None


def import_one(home: Home, circle: Element, data: bytes, *, slug: str | None,
               overwrite: bool, principal: Principal | None = None) -> dict[str, Any]:
    """Import one bundle into ``circle``; returns ``{"status": imported|skipped, ...}``.

    :param principal: who imports (None: the home itself, an admin).
    :raise SourceError / ElementError / StoreError: the bundle or its spec is refused;
        nothing is left behind and no existing element changes.
    :raise OverwriteRefused: the existing element has another type.
    :raise AdminOnly: a non-admin's import would change governance.
    :raise PolicyDenied: an auth-policy attached to the element it would replace refuses
        the principal.
    """
    if slug is not None:
        check_slug(slug)
        if not overwrite and _existing(home, f"{circle.circle}/{slug}"):
            return _skip(home, circle.circle, slug)
    new_id = str(uuid.uuid4())
    dest = Path(home.path) / "repos" / f"{new_id}.git"
    info = import_bundle(data, dest)
    adopted = False
    try:
        raw = read_spec(dest, branch="draft")
        if raw is None:
            raise InvalidRequest("spec", f"{SPEC_PATH} is missing on draft")
        if raw.get("element_type") == "circle":
            raise InvalidRequest("spec.element_type", "a circle cannot be imported into "
                                 "a circle; import its elements (export it as an envelope)")
        chosen = check_slug(slug if slug is not None else raw.get("slug"), "spec.slug")
        spec = normalize_spec(raw, circle=circle.circle, slug=chosen, keep_slug=False)
        path = f"{circle.circle}/{chosen}"
        existing = _existing(home, path)
        if existing is not None and not overwrite:
            return _skip(home, circle.circle, chosen)
        if existing is not None and existing.element_type != spec["element_type"]:
            raise OverwriteRefused(
                f"{path!r} is a {existing.element_type}; the bundle holds a "
                f"{spec['element_type']}: an overwrite keeps the element's type")
        if principal is not None:
            if existing is not None:
                _may_replace(home, principal, existing)
            if existing is not None and existing.element_type in GOVERNANCE_TYPES \
                    and not may_govern(principal):
                # Even with the same spec: the new element's versions restart at v1, so
                # attachments pinned to the old ones would fall back to the current spec.
                raise AdminOnly(f"{path!r} is a {existing.element_type}: only an admin "
                                "replaces it")
            gated = [] if existing is None or may_govern(principal) \
                else gated_branches(home, existing)
            if gated:
                # An overwrite brings its own demo and live: past every promotion gate.
                raise AdminOnly(f"{path!r} declares promotion_gates on {' and '.join(gated)}"
                                ": an overwrite replaces those branches without a "
                                "promotion, so only an admin replaces it")
            guard_change(principal, spec["element_type"],
                         None if existing is None else spec_of(existing), spec)
        if normalize_spec(raw, circle=circle.circle) != spec:
            commit_files(dest, {SPEC_PATH: spec_yaml(spec)},
                         message=f"import as {path}")
            info["branches"]["draft"] = spec_blob(dest)[0]
        stamp = now_iso()
        element = Element(
            id=new_id, path=path, circle=circle.circle, slug=chosen, name=spec["name"],
            element_type=spec["element_type"], form=spec["form"], parent_id=circle.id,
            # An overwrite keeps what an admin decided: a disabled element stays disabled.
            state=existing.state if existing is not None else "ready",
            description=spec["description"], properties=spec["properties"],
            meta=dict(existing.meta) if existing is not None else {}, version=1,
            created_at=stamp, updated_at=stamp)
        home.adopt_repo(element, spec, "v1: imported from a bundle", replace=existing)
        adopted = True
    finally:
        if not adopted:
            shutil.rmtree(dest, ignore_errors=True)
    commit, blob = spec_blob(dest)
    home.catalog.set_mirror(new_id, commit, blob)
    return {"status": "imported", "slug": chosen, "path": path, "id": new_id,
            "element_type": element.element_type, "branches": info["branches"],
            "dropped_refs": info["dropped_refs"],
            "replaced": existing.id if existing is not None else None}


def _may_replace(home: Home, principal: Principal, existing: Element) -> None:
    """An overwrite replaces the element's spec, README and history, through an op called
    on the circle: the auth-policies bound to the element itself must allow the principal
    that import and a ``spec_update`` of it, as they would on the element's own path
    (issue 26: a member denied writes on an element replaced it this way). Rate-limits
    spend nothing here: the circle's op was counted.

    :raise PolicyDenied: a policy of the element refuses.
    """
    ops = registry()
    for name in ("import_bundle", "spec_update"):
        enforce_modifiers(home.catalog, home.limiter, principal, existing, ops[name],
                          count=False)


def _memories_into(call: OpCall, element_id: str, text: str) -> dict[str, Any]:
    """Import an envelope entry's memories into the element just imported: the answer of
    import_memories, or ``{"error": ...}`` (the element stays; its memories can be
    imported again with import_memories)."""
    element = call.home.catalog.element(element_id)
    if element.element_type != "memory":
        return {"error": {"code": "INVALID_REQUEST", "message": "memories_ndjson on an "
                          f"element of type {element.element_type}"}}
    try:
        with call.home.memory_store(element) as store:
            parsed = read_import(text.encode("utf-8"), dim=store.dim,
                                 model_id=store.model_id)
            settings = MemorySettings.from_properties(
                call.home.properties_for(element, call.env))
            forgotten = forgotten_before(parsed.header.get("forgotten") or [])
            return import_into(store, parsed, settings=settings, forgotten=forgotten)
    except (ElementError, StoreError) as exc:
        return {"error": {"code": exc.code, "message": str(exc)}}


def _existing(home: Home, path: str) -> Element | None:
    try:
        return home.catalog.element_at(path)
    except ElementNotFound:
        return None


def _skip(home: Home, circle: str, slug: str) -> dict[str, Any]:
    return {"status": "skipped", "slug": slug, "path": f"{circle}/{slug}",
            "reason": "an element with this slug exists; pass overwrite=true to replace it"}


def _entries(body: dict[str, Any]) -> list[Any]:
    if "envelope" in body:
        if "slug" in body:
            raise InvalidRequest("slug", "applies to a single bundle_base64; an envelope "
                                 "names each element's slug")
        env = body["envelope"]
        if not isinstance(env, dict) or not isinstance(env.get("elements"), list):
            raise InvalidRequest("envelope", "must be an object with an 'elements' list "
                                 "(what export_bundle answers on a circle)")
        if env.get("format", ENVELOPE_FORMAT) != ENVELOPE_FORMAT:
            raise InvalidRequest("envelope.format", f"must be {ENVELOPE_FORMAT!r}")
        if len(env["elements"]) > MAX_ENVELOPE_ELEMENTS:
            raise InvalidRequest("envelope.elements", "must hold at most "
                                 f"{MAX_ENVELOPE_ELEMENTS} elements")
        return list(env["elements"])
    if "bundle_base64" not in body:
        raise InvalidRequest("bundle_base64", "give bundle_base64 (one bundle) or envelope "
                             "(a circle export)")
    return [{"slug": body.get("slug"), "bundle_base64": body["bundle_base64"]}]


_REPORT = array(OBJECT)


@ops.op("import_bundle", "POST", "import/bundle", "write", summary="Import a git bundle",
        request=obj({
            "bundle_base64": {"type": "string", "contentEncoding": "base64",
                              "contentMediaType": "application/x-git-bundle"},
            "slug": SLUG, "overwrite": {**BOOLEAN, "default": False},
            "envelope": obj({"format": STRING, "circle": STRING, "exported_at": STRING,
                             # Entries are checked one by one: a bad one fails alone.
                             "elements": {"type": "array", "items": {}}},
                            ["elements"], closed=False,
                            description="what export_bundle answers on a circle")},
            anyOf=[{"required": ["bundle_base64"]}, {"required": ["envelope"]}]),
        body_required=True, body_limit="MAX_BUNDLE_BODY",
        response=obj({"imported": _REPORT, "skipped": _REPORT, "errors": _REPORT,
                      "counts": obj({k: integer(0) for k in ("imported", "skipped",
                                                             "errors")},
                                    ["imported", "skipped", "errors"]),
                      "error": ref("Error")},
                     ["imported", "skipped", "errors", "counts"]),
        description="On a circle. Imported elements get new ids; existing slugs are "
                    "skipped unless overwrite is true. 400 (with the report) when nothing "
                    "was imported or skipped.")
def import_(call: OpCall) -> OpResult:
    circle = call.element
    if circle.element_type != "circle":
        raise InvalidRequest("element", "import_bundle imports elements into a circle: "
                             f"POST /api/{circle.circle}/ops/import/bundle")
    body = call.body
    if "bundle_base64" in body and "envelope" in body:
        raise InvalidRequest("envelope", "give either bundle_base64 or envelope, not both")
    overwrite = body.get("overwrite", False)
    report: dict[str, list[dict[str, Any]]] = {"imported": [], "skipped": [], "errors": []}
    parents: list[tuple[str, str]] = []
    events: list[Activity] = []
    for index, entry in enumerate(_entries(body)):
        slug = entry.get("slug") if isinstance(entry, dict) else None
        try:
            if not isinstance(entry, dict):
                raise InvalidRequest(f"envelope.elements[{index}]", "must be an object")
            if slug is not None and not isinstance(slug, str):
                raise InvalidRequest("slug", "must be a string")
            outcome = import_one(call.home, circle, _decode(entry.get("bundle_base64")),
                                 slug=slug, overwrite=overwrite, principal=call.principal)
        except (ElementError, SourceError, StoreError) as exc:
            error: dict[str, Any] = {"index": index, "slug": slug if isinstance(slug, str)
                                     else None, "code": exc.code, "message": str(exc)}
            findings = getattr(exc, "findings", None)
            if findings:
                error["findings"] = findings[:_MAX_FINDINGS]
            report["errors"].append(error)
            continue
        status = outcome.pop("status")
        if status == "imported" and isinstance(entry.get("memories_ndjson"), str):
            outcome["memories"] = _memories_into(call, outcome["id"],
                                                 entry["memories_ndjson"])
        report[status].append(outcome)
        if status == "imported":
            new = call.home.catalog.element(outcome["id"])
            events.append(Activity({"replaced": outcome["replaced"]}, new))
            if isinstance(entry.get("parent"), str):
                parents.append((outcome["id"], entry["parent"]))
    for element_id, parent_slug in parents:
        parent = _existing(call.home, f"{circle.circle}/{parent_slug}")
        if parent is not None and parent.id != element_id:
            call.home.catalog.update_element(element_id, parent_id=parent.id)
    counts = {k: len(v) for k, v in report.items()}
    answer: dict[str, Any] = {**report, "counts": counts}
    if counts["imported"]:
        events.append(Activity({"counts": counts}))
    if counts["errors"] and not counts["imported"] and not counts["skipped"]:
        first = report["errors"][0]
        answer["error"] = {"code": "IMPORT_FAILED", "class": "validation",
                           "retryable": False,
                           "message": f"no bundle was imported: {first['message']}"}
        return OpResult(answer, status=400)
    return OpResult(answer, activity=events)
