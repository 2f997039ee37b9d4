"""Graph ops: ``context``, ``tree``, ``batch_stats`` and ``activity``.

The graph itself is pure (``element/graph.py``); these handlers load one circle's rows,
traverse, and answer. What a circle-wide view shows is filtered through the caller's
access (``OpCall.nested.readable``): an auth-policy that denies an element hides it here.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from index import StoreError
from source import BRANCHES

from ..errors import InvalidRequest, error_body
from ..evals import weighted
from ..governance.attachments import attachments_of
from ..graph import Graph, build_graph
from ..spec.types import TYPES
from .op import OpCall, OpResult, OpTable
from .schemas import BOOLEAN, OBJECT, STRING, array, in_range, integer, nullable, obj, ref

__all__ = ["ops", "circle_graph", "MAX_DEPTH"]

ops = OpTable()
logger = logging.getLogger(__name__)

MAX_DEPTH = 10
_CURSOR = re.compile(r"\d{1,18}")   # an activity seq: the next page holds older events


def circle_graph(call: OpCall) -> Graph:
    """The graph of the called element's circle (see ``graph.py``)."""
    catalog = call.home.catalog
    circle = call.element.circle
    return build_graph(catalog.elements(circle), catalog.attachments(circle=circle))


@ops.op("context", "GET", "context", "read", summary="Connected elements (graph traversal)",
        query={"depth": integer(1, MAX_DEPTH, default=1),
               "types": {**STRING, "description": "comma-separated element types or "
                                                  "categories"}},
        response=obj({"element": OBJECT, "depth": integer(1),
                      "types": nullable(array(STRING)), "connections": array(OBJECT),
                      "count": integer(0)},
                     ["element", "depth", "types", "connections", "count"]))
def context(call: OpCall) -> OpResult:
    depth = in_range(call.query.get("depth"), "depth", 1, 1, MAX_DEPTH)
    types = None
    if call.query.get("types"):
        types = frozenset(t.strip() for t in call.query["types"].split(",") if t.strip())
        known = set(TYPES) | {t.category for t in TYPES.values()}
        for name in sorted(types - known):
            raise InvalidRequest("types", f"{name!r} is not an element type or category "
                                 f"({', '.join(sorted(known))})")
    graph = circle_graph(call)
    found = graph.context(call.element.id, depth, types)
    return OpResult({"element": graph.nodes[call.element.id].public(), "depth": depth,
                     "types": sorted(types) if types else None, "connections": found,
                     "count": len(found)})


@ops.op("tree", "GET", "tree", "read", summary="Position in the graph",
        query={"depth": integer(1, MAX_DEPTH, default=3), "include_metadata": BOOLEAN},
        response=obj({"element": OBJECT, "ancestors": array(OBJECT),
                      "children": array(OBJECT), "members": array(OBJECT),
                      "unresolved_members": array(STRING), "referenced_by": array(OBJECT),
                      "attachments": array(ref("Attachment")), "stats": OBJECT},
                     ["element", "ancestors", "children", "members", "unresolved_members",
                      "referenced_by", "attachments", "stats"]))
def tree(call: OpCall) -> OpResult:
    depth = in_range(call.query.get("depth"), "depth", 3, 1, MAX_DEPTH)
    meta = call.query.get("include_metadata", False)
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


def _memory_count(call: OpCall, element_id: str) -> tuple[int | None, dict[str, Any] | None]:
    """``(memories, None)``, or ``(None, error)`` for an element whose store does not open:
    one broken element must not take down the view of its whole circle (issue 26)."""
    element = call.home.catalog.element(element_id)
    if element.state == "deleted":
        return None, None
    try:
        # len() is cheap; the stats op would also run the retention reaper (a write).
        with call.home.memory_store(element) as store:
            return len(store), None
    except StoreError as exc:
        return None, error_body(exc)["error"]
    except Exception as exc:
        logger.exception("the memory store of %s did not open", element.path)
        return None, error_body(exc)["error"]


@ops.op("batch_stats", "GET", "batch_stats", "read",
        summary="Per-child statistics and an aggregate",
        response=obj({"element": OBJECT, "children": array(OBJECT), "aggregate": OBJECT},
                     ["element", "children", "aggregate"]),
        description="Children (contains) and members (references) the caller may read, "
                    "each with activity, attachment, child and version counts (and memories "
                    "and the last eval of each branch for a memory element, or the error "
                    "its store answers), plus their sum and the eval scores per branch, "
                    "weighted by cases.")
def batch_stats(call: OpCall) -> OpResult:
    graph = circle_graph(call)
    node_id = call.element.id
    children = {n.id: (n, "contains") for n in graph.related(node_id, "contains")}
    for member in graph.members(node_id):
        children.setdefault(member.id, (member, "references"))
    visible = call.nested.readable([call.home.catalog.element(i) for i in children])
    children = {i: c for i, c in children.items() if i in visible}
    counts = call.home.catalog.element_counts(list(children))
    evals = call.home.catalog.evals.latest(
        [i for i, (node, _) in children.items() if node.element_type == "memory"])
    rows: list[dict[str, Any]] = []
    total: dict[str, Any] = {"children": 0, "by_type": {}, "by_state": {}, "activity": 0,
                             "attachments": 0, "versions": 0, "memories": 0,
                             "last_activity_at": None}
    for child_id, (node, relationship) in sorted(children.items(), key=lambda i: i[1][0].path):
        row = {**node.public(), "relationship": relationship, **counts[child_id]}
        row["child_count"] = row.pop("children")
        if node.element_type == "memory":
            row["memories"], error = _memory_count(call, child_id)
            if error is not None:
                row["error"] = error
            total["memories"] += row["memories"] or 0
            row["evals"] = {b: run for b, run in evals[child_id].items() if b in BRANCHES}
        rows.append(row)
        total["children"] += 1
        total["by_type"][node.element_type] = total["by_type"].get(node.element_type, 0) + 1
        total["by_state"][node.state] = total["by_state"].get(node.state, 0) + 1
        for key in ("activity", "attachments", "versions"):
            total[key] += row[key]
        if row["last_activity_at"] and (total["last_activity_at"] or "") < row["last_activity_at"]:
            total["last_activity_at"] = row["last_activity_at"]
    by_branch: dict[str, list[dict[str, Any]]] = {}
    for runs in evals.values():
        for branch, run in runs.items():
            if branch in BRANCHES:      # not the runs asked for a commit id
                by_branch.setdefault(branch, []).append(run)
    total["evals"] = {branch: weighted(runs) for branch, runs in sorted(by_branch.items())}
    return OpResult({"element": graph.nodes[node_id].public(), "children": rows,
                     "aggregate": total})


@ops.op("activity", "GET", "activity", "read", summary="Get activity events for this element",
        when_disabled=True,
        query={"limit": integer(1, 1000, default=50),
               "cursor": {"type": "string", "pattern": r"^\d{1,18}$",
                          "description": "next_cursor of the previous page (older events)"}},
        response=obj({"scope": {"type": "string", "enum": ["element", "members", "circle"]},
                      "events": array(ref("ActivityEvent")), "count": integer(0),
                      "next_cursor": nullable(STRING)},
                     ["scope", "events", "count", "next_cursor"]),
        description="An element's own events; a project's and its members'; a circle's: "
                    "every element's the caller may read. Newest first; next_cursor pages "
                    "back while older events remain.")
def activity(call: OpCall) -> OpResult:
    limit = in_range(call.query.get("limit"), "limit", 50, 1, 1000)
    cursor = call.query.get("cursor")
    if cursor is not None and not _CURSOR.fullmatch(cursor):
        raise InvalidRequest("cursor", "must be the next_cursor of a previous page")
    element = call.element
    catalog = call.home.catalog
    if element.element_type == "circle":
        scope, ids = "circle", None
    elif element.form == "manifest":
        scope = "members"
        ids = [element.id, *(m.id for m in circle_graph(call).members(element.id))]
    else:
        scope, ids = "element", [element.id]
    if scope != "element":
        # Filter before the limit, so a denied element does not eat the page.
        members = catalog.elements(element.circle)
        allowed = call.nested.readable([m for m in members if ids is None or m.id in ids])
        ids = [i for i in (ids or [m.id for m in members]) if i in allowed]
    # One row past the page tells whether another page follows.
    events = catalog.activity(element_ids=ids, limit=limit + 1,
                              before=int(cursor) if cursor else None)
    more = len(events) > limit
    events = events[:limit]
    return OpResult({"scope": scope, "events": events, "count": len(events),
                     "next_cursor": str(events[-1]["seq"]) if more else None})
