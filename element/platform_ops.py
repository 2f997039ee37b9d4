"""The platform ops every element answers: lifecycle, metadata, composition, graph, schema,
and the project's ``promote``.

Handlers parse, make one call into the catalog (``modifiers.py`` for attachments,
``graph.py`` for traversals) and record an activity event for every change, so the SSE feed
(``catalog.listeners``) sees each one under the op's own name.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from index.errors import StoreError

from .catalog import Element, now_iso
from .errors import ElementError, ElementNotFound, Forbidden, InvalidRequest
from .graph import Graph, build_graph, parse_ref, reference_refs
from .home import spec_of
from .memory_ops import known_fields
from .modifiers import attachments_of, compose as compose_attachments, remove_attachment
from .ops import OpCall, OpResult, implements
from .types import TYPES
from .versions import bool_arg, element_lock, int_arg, normalize_spec, sync_spec, write_spec

__all__ = ["ElementDeleted", "MetaTooLarge", "PromoteRefused", "MEMORY_TOOLS", "TOOL_OPS",
           "PROMOTE_FROM", "PROMOTE_ROLES", "memory_tools", "ports_of", "circle_graph"]

MAX_META_BYTES = 64 * 1024
MAX_DEPTH = 10
_CURSOR = re.compile(r"\d{1,18}")   # an activity seq: the next page holds older events
PROMOTE_FROM = {"demo": "draft", "live": "demo"}
#: The sheet's text: dev -> demo needs member+, demo -> live needs admin. The registry level
#: of ``promote`` stays the sheet's (admin), so over HTTP both need admin today; this check
#: is what would remain if the registry level were lowered.
PROMOTE_ROLES = {"demo": frozenset({"member", "admin"}), "live": frozenset({"admin"})}


class ElementDeleted(ElementError):
    """A deleted element cannot be enabled or disabled."""

    code = "ELEMENT_DELETED"
    error_class = "conflict"

    def __init__(self, path: str) -> None:
        super().__init__(f"element {path!r} is deleted; it cannot be enabled or disabled")


class MetaTooLarge(ElementError):
    """The merged meta would exceed its size limit."""

    code = "ELEMENT_META_TOO_LARGE"
    error_class = "too_large"

    def __init__(self, size: int) -> None:
        super().__init__(f"meta would be {size} bytes; the limit is {MAX_META_BYTES}")


class PromoteRefused(ElementError):
    """The project cannot be promoted as it stands (missing members, not yet in demo)."""

    code = "PROMOTE_REFUSED"
    error_class = "conflict"


def _who(call: OpCall) -> str | None:
    return call.principal.label if call.principal else None


def _record(call: OpCall, op: str, detail: dict[str, Any],
            element: Element | None = None) -> None:
    call.home.catalog.record_activity(element or call.element, op, _who(call), detail)


def _query(call: OpCall, allowed: set[str]) -> Mapping[str, str]:
    known_fields(dict(call.query), allowed)
    return call.query


def circle_graph(call: OpCall) -> Graph:
    """The graph of the called element's circle (see ``graph.py``)."""
    catalog = call.home.catalog
    circle = call.element.circle
    return build_graph(catalog.elements(circle), catalog.attachments(circle=circle))


# -- lifecycle --------------------------------------------------------------------------
@implements("disable")
def disable(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"reason"})
    reason = body.get("reason")
    if reason is not None and (not isinstance(reason, str) or len(reason) > 1000):
        raise InvalidRequest("reason", "must be a string of at most 1000 characters")
    element = call.element
    if element.state == "deleted":
        raise ElementDeleted(element.path)
    if element.state == "disabled":
        return OpResult({"element": element.public(), "changed": False})
    detail = {"state": "disabled", "reason": reason, "by": _who(call), "at": now_iso()}
    element = call.home.catalog.merge_meta(element.id, {"state_detail": detail},
                                           state="disabled")
    _record(call, "disable", {"reason": reason}, element)
    return OpResult({"element": element.public(), "changed": True})


@implements("enable")
def enable(call: OpCall) -> OpResult:
    known_fields(call.body, {"reason"})
    element = call.element
    if element.state == "deleted":
        raise ElementDeleted(element.path)
    if element.state == "ready":
        return OpResult({"element": element.public(), "changed": False})
    element = call.home.catalog.merge_meta(element.id, {}, drop=("state_detail",),
                                           state="ready")
    _record(call, "enable", {"reason": call.body.get("reason")}, element)
    return OpResult({"element": element.public(), "changed": True})


@implements("update_meta")
def update_meta(call: OpCall) -> OpResult:
    patch = known_fields(call.body, {"meta"}).get("meta")
    if not isinstance(patch, dict):
        raise InvalidRequest("meta", "is required and must be an object")
    merged = {**call.element.meta, **patch}
    size = len(json.dumps(merged).encode())
    if size > MAX_META_BYTES:
        raise MetaTooLarge(size)
    element = call.home.catalog.merge_meta(call.element.id, patch)
    _record(call, "update_meta", {"keys": sorted(patch)}, element)
    return OpResult({"element": element.public()})


# -- composition ------------------------------------------------------------------------
@implements("attachments")
def attachments(call: OpCall) -> OpResult:
    _query(call, set())
    found = attachments_of(call.home.catalog, call.element)
    own = [a.public() for a in found if a.via is None]
    inherited = [a.public() for a in found if a.via is not None]
    return OpResult({"attachments": own, "inherited": inherited,
                     "modifiers": sum(1 for a in found if a.is_modifier and a.via is None),
                     "resources": sum(1 for a in found if not a.is_modifier and a.via is None)})


@implements("compose")
def compose(call: OpCall) -> OpResult:
    summary = compose_attachments(call.home.catalog, call.element, call.body, _who(call))
    _record(call, "compose", {"added": [a["attachment_id"] for a in summary["added"]],
                              "refs": [a["ref"] for a in summary["added"]],
                              "removed": summary["removed"]})
    current = [a.public() for a in attachments_of(call.home.catalog, call.element,
                                                  inherited=False)]
    return OpResult({**summary, "attachments": current})


@implements("remove-modifier")
def remove_modifier(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"attachment_id"})
    removed = remove_attachment(call.home.catalog, call.element, body.get("attachment_id"))
    _record(call, "remove-modifier", {"attachment_id": removed})
    return OpResult({"removed": removed})


# -- graph ----------------------------------------------------------------------------------
@implements("context")
def context(call: OpCall) -> OpResult:
    q = _query(call, {"depth", "types"})
    depth = int_arg(q.get("depth"), "depth", 1, 1, MAX_DEPTH)
    types = None
    if q.get("types"):
        types = frozenset(t.strip() for t in q["types"].split(",") if t.strip())
        known = set(TYPES) | {t.category for t in TYPES.values()}
        for name in sorted(types - known):
            raise InvalidRequest("types", f"{name!r} is not an element type or category "
                                 f"({', '.join(sorted(known))})")
    graph = circle_graph(call)
    found = graph.context(call.element.id, depth, types)
    return OpResult({"element": graph.nodes[call.element.id].public(), "depth": depth,
                     "types": sorted(types) if types else None, "connections": found,
                     "count": len(found)})


@implements("tree")
def tree(call: OpCall) -> OpResult:
    q = _query(call, {"depth", "include_metadata"})
    depth = int_arg(q.get("depth"), "depth", 3, 1, MAX_DEPTH)
    meta = bool_arg(q.get("include_metadata"), "include_metadata", False)
    graph = circle_graph(call)
    node_id = call.element.id
    children, stats = graph.subtree(node_id, depth, meta)
    return OpResult({
        "element": graph.nodes[node_id].public(meta),
        "ancestors": [n.public(meta) for n in graph.ancestors(node_id)],
        "children": children,
        "members": [n.public(meta) for n in graph.members(node_id)],
        "unresolved_members": graph.unresolved.get(node_id, []),
        "referenced_by": [n.public(meta) for n in graph.related(node_id, "referenced_by")],
        "attachments": [a.public() for a in attachments_of(call.home.catalog, call.element)],
        "stats": stats})


def _memory_count(call: OpCall, element_id: str) -> int | None:
    element = call.home.catalog.element(element_id)
    if element.state == "deleted":
        return None
    try:
        # len() is cheap; the stats op would also run the retention reaper (a write).
        return len(call.home.memory_store(element))
    except StoreError:
        return None


@implements("batch_stats")
def batch_stats(call: OpCall) -> OpResult:
    _query(call, set())
    graph = circle_graph(call)
    node_id = call.element.id
    children = {n.id: (n, "contains") for n in graph.related(node_id, "contains")}
    for member in graph.members(node_id):
        children.setdefault(member.id, (member, "references"))
    counts = call.home.catalog.element_counts(list(children))
    rows: list[dict[str, Any]] = []
    total: dict[str, Any] = {"children": 0, "by_type": {}, "by_state": {}, "activity": 0,
                             "attachments": 0, "versions": 0, "memories": 0,
                             "last_activity_at": None}
    for child_id, (node, relationship) in sorted(children.items(), key=lambda i: i[1][0].path):
        row = {**node.public(), "relationship": relationship, **counts[child_id]}
        row["child_count"] = row.pop("children")
        if node.element_type == "memory":
            row["memories"] = _memory_count(call, child_id)
            total["memories"] += row["memories"] or 0
        rows.append(row)
        total["children"] += 1
        total["by_type"][node.element_type] = total["by_type"].get(node.element_type, 0) + 1
        total["by_state"][node.state] = total["by_state"].get(node.state, 0) + 1
        for key in ("activity", "attachments", "versions"):
            total[key] += row[key]
        if row["last_activity_at"] and (total["last_activity_at"] or "") < row["last_activity_at"]:
            total["last_activity_at"] = row["last_activity_at"]
    return OpResult({"element": graph.nodes[node_id].public(), "children": rows,
                     "aggregate": total})


@implements("activity")
def activity(call: OpCall) -> OpResult:
    q = _query(call, {"limit", "cursor"})
    limit = int_arg(q.get("limit"), "limit", 50, 1, 1000)
    before = None
    if q.get("cursor") is not None:
        if not _CURSOR.fullmatch(q["cursor"]):
            raise InvalidRequest("cursor", "must be the next_cursor of a previous page")
        before = int(q["cursor"])
    element = call.element
    catalog = call.home.catalog
    # One row past the page tells whether another page follows.
    if element.element_type == "circle":
        scope, events = "circle", catalog.activity(circle=element.circle, limit=limit + 1,
                                                   before=before)
    elif element.form == "manifest":
        members = circle_graph(call).members(element.id)
        scope = "members"
        events = catalog.activity(element_ids=[element.id, *(m.id for m in members)],
                                  limit=limit + 1, before=before)
    else:
        scope, events = "element", catalog.activity(element_ids=[element.id],
                                                    limit=limit + 1, before=before)
    paths = {e.id: e.path for e in catalog.elements(element.circle)}
    listed = [{**e, "path": paths.get(e["element_id"] or "")} for e in events]
    more = len(listed) > limit
    listed = listed[:limit]
    return OpResult({"scope": scope, "events": listed, "count": len(listed),
                     "next_cursor": str(listed[-1]["seq"]) if more else None})


# -- schema -----------------------------------------------------------------------------------
_CATEGORIES = ["fact", "preference", "procedure", "context", "correction"]
_SUBJECT = {"subject_type": {"type": "string", "enum": ["circle_member", "entity", "guest"],
                             "description": "Who the memory is about (with subject_id)"},
            "subject_id": {"type": "string", "description": "Id of the subject"}}
_LIMIT = {"limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}}
_CATS = {"categories": {"type": "array", "items": {"type": "string", "enum": _CATEGORIES}}}
_TEXT = {"type": "string"}
_ID = {"memory_id": {"type": "string", "description": "Id of the memory"}}


def _obj(props: dict[str, Any], required: list[str] | None = None, **extra: Any
         ) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required or [],
            "additionalProperties": False, **extra}


_STORE_INPUT = _obj({"content": _TEXT, "category": {"type": "string", "enum": _CATEGORIES},
                     **_SUBJECT, "context": _TEXT, "intention": _TEXT,
                     "metadata": {"type": "object"}}, ["content", "category"])
_SEARCH_INPUT = _obj({"query": _TEXT, "context": _TEXT, "intention": _TEXT, **_SUBJECT,
                      **_LIMIT, **_CATS}, ["query"])

#: MCP ``tools/list`` entries for a memory, per design.md section 7.
MEMORY_TOOLS: list[dict[str, Any]] = [
    {"name": "memory_search",
     "description": "Search long-term memory by meaning: the memories closest to a query.",
     "inputSchema": _obj({"query": _TEXT, **_SUBJECT, **_LIMIT, **_CATS}, ["query"])},
    {"name": "memory_recall",
     "description": "Recall memories by situation: blends the query with the current "
                    "conversation window (context) and the current goal (intention). "
                    "Without a query, the context is the query.",
     "inputSchema": _obj({"query": _TEXT, "context": _TEXT, "intention": _TEXT, **_SUBJECT,
                          **_LIMIT, **_CATS}, [],
                         anyOf=[{"required": ["query"]}, {"required": ["context"]}])},
    {"name": "memory_store",
     "description": "Store a durable memory: a fact, preference, procedure, context or "
                    "correction, with the situation and goal it was formed in.",
     "inputSchema": _STORE_INPUT},
    {"name": "memory_update",
     "description": "Replace a memory's content (it is re-embedded); other fields are kept "
                    "unless given.",
     "inputSchema": _obj({**_ID, "content": _TEXT,
                          "category": {"type": "string", "enum": _CATEGORIES},
                          "context": _TEXT, "intention": _TEXT,
                          "metadata": {"type": "object"}}, ["memory_id"])},
    {"name": "memory_delete", "description": "Delete one memory permanently.",
     "inputSchema": _obj(dict(_ID), ["memory_id"])},
]
#: Which element op serves each tool.
TOOL_OPS = {"memory_search": "search", "memory_recall": "search", "memory_store": "store",
            "memory_update": "update", "memory_delete": "delete"}
_ACCESS = {"none": (), "read": ("memory_search", "memory_recall"),
           "read_write": tuple(TOOL_OPS)}


def memory_tools(conscious_access: str) -> list[dict[str, Any]]:
    """The tools a memory's ``conscious_access`` exposes (none: no tools)."""
    allowed = _ACCESS.get(conscious_access, ())
    return [tool for tool in MEMORY_TOOLS if tool["name"] in allowed]


_MEMORY_OUT = {"type": "object", "properties": {"memory": {"type": "object"}}}
_DEFAULT_PORTS: dict[str, dict[str, dict[str, Any]]] = {
    "memory": {
        "store": {"direction": "input", "required": False, "schema": _STORE_INPUT},
        "search": {"direction": "input", "required": False, "schema": _SEARCH_INPUT},
        "memory": {"direction": "output", "required": False, "schema": _MEMORY_OUT},
        "results": {"direction": "output", "required": False, "schema": {
            "type": "object", "properties": {"results": {"type": "array"}}}}},
    "triformer": {
        "turns": {"direction": "input", "required": True, "schema": _obj({
            "turns": {"type": "array", "items": _obj({"role": _TEXT, "content": _TEXT},
                                                     ["role", "content"])},
            **_SUBJECT}, ["turns"])},
        "decisions": {"direction": "output", "required": False,
                      "schema": {"type": "object", "properties": {
                          "decisions": {"type": "array"}}}}},
    "prompt": {"text": {"direction": "output", "required": True, "schema": _TEXT}},
}


def ports_of(type_name: str) -> list[dict[str, Any]]:
    """A type's port schemas: the registry's, else the defaults here."""
    ports = TYPES[type_name].ports or _DEFAULT_PORTS.get(type_name, {})
    return [{"name": name, "direction": p.get("direction", "input"),
             "required": bool(p.get("required", False)), "schema": p.get("schema", {})}
            for name, p in ports.items()]


@implements("schema")
def schema(call: OpCall) -> OpResult:
    _query(call, set())
    kind = TYPES[call.element.element_type]
    tools: list[dict[str, Any]] = []
    if kind.name == "memory":
        props = call.home.properties_for(call.element, call.env)
        tools = memory_tools(props.get("conscious_access", "none"))
    elif kind.name == "triformer":
        from .agent_ops import agent_tools   # agent_ops imports this module: import late
        tools = agent_tools(call.home, call.element, call.env)
    return OpResult({"element_type": kind.name, "form": kind.form, "category": kind.category,
                     "properties_schema": kind.json_schema(), "ports": ports_of(kind.name),
                     "tools": tools})


# -- projects -----------------------------------------------------------------------------
def _freeze_members(call: OpCall, project: Element) -> dict[str, int]:
    """Each member's path -> its version now (or its pinned version), for a demo snapshot."""
    catalog = call.home.catalog
    frozen: dict[str, int] = {}
    for i, raw in enumerate(reference_refs(project)):
        where = f"properties.members[{i}]"
        try:
            ref = parse_ref(raw, project.circle)
        except ValueError as exc:
            raise PromoteRefused(f"{where}: {exc}") from None
        try:
            if ref.circle != project.circle:
                raise ElementNotFound(ref.path)
            member = catalog.element_at(ref.path)
        except ElementNotFound:
            raise PromoteRefused(f"{where}: {raw!r} names no element of circle "
                                 f"{project.circle!r}") from None
        if member.state == "deleted":
            raise PromoteRefused(f"{where}: {member.path!r} is deleted")
        if ref.version is not None and catalog.spec_at(member.id, ref.version) is None:
            raise PromoteRefused(f"{where}: {member.path!r} has no version v{ref.version}")
        frozen[member.path] = ref.version or member.version
    return frozen


@implements("promote")
def promote(call: OpCall) -> OpResult:
    to = known_fields(call.body, {"to"}).get("to")
    if to not in PROMOTE_FROM:
        raise InvalidRequest("to", "must be demo or live")
    if call.principal is not None and call.principal.role not in PROMOTE_ROLES[to]:
        raise Forbidden(f"promoting to {to} needs role {' or '.join(sorted(PROMOTE_ROLES[to]))}")
    catalog = call.home.catalog
    # Under the spec lock, as spec_update: the environments land on the latest spec.
    with element_lock(call.element.id):
        project = sync_spec(call.home, call.element, principal=_who(call)).element
        envs = dict(project.properties.get("environments") or {})
        if to == "demo":
            snapshot: dict[str, Any] = {"members": _freeze_members(call, project),
                                        "project_version": project.version}
        else:
            demo = envs.get("demo")
            if not isinstance(demo, dict) or not isinstance(demo.get("members"), dict):
                raise PromoteRefused("the project has no demo snapshot; promote to demo first")
            snapshot = {"members": dict(demo["members"]),
                        "project_version": demo.get("project_version")}
        snapshot.update({"from": PROMOTE_FROM[to], "promoted_at": now_iso(), "by": _who(call)})
        envs[to] = snapshot
        spec = normalize_spec({**spec_of(project), "properties": {
            **project.properties, "environments": envs}}, circle=project.circle,
            element_type_name=project.element_type, slug=project.slug)
        commit = write_spec(call.home, project, spec, f"promote to {to}")
        version = catalog.add_version(project.id, spec, f"promote to {to} ({commit[:12]})",
                                      properties=spec["properties"])
    _record(call, "promote", {"to": to, "version": version, "commit": commit,
                              "members": snapshot["members"]})
    return OpResult({"environment": to, "snapshot": snapshot, "version": version,
                     "commit": commit})
