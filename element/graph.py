"""The element graph of one circle: containment, references and attachments, as plain data.

Three kinds of edge, each read from the catalog and nothing else:

``contains``     parent -> child (``parent_id``: containment; every element but a circle has
                 one, usually the circle itself).
``references``   project -> member (``properties.members``) and triformer -> bonded memory
                 (``properties.subconscious.memory.element``). References live in the spec,
                 so they are versioned and promoted with it; there is no bonds table.
``attaches``     modifier or resource -> the element it is attached to (the ``attachments``
                 table).

Seen from one element, each edge is a relationship: ``contains`` / ``contained_by``,
``references`` / ``referenced_by``, ``attaches`` (this element is attached to the other) /
``attached_by`` (the other is attached to this element).

Everything here is pure: :func:`build_graph` takes elements and attachment rows and the
traversals take and return plain data. The op handlers (``platform_ops.py``) load the rows
and serialize the answers. A graph is built per request from one query per table; at the
scale of the embedded catalog (a circle holds hundreds of elements, not millions) that is
cheaper than keeping a cache coherent with every writer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Protocol
from collections.abc import Iterable, Mapping

from .spec.types import TYPES

__all__ = ["Ref", "RefError", "parse_ref", "reference_refs", "Node", "Edge", "Graph",
           "build_graph", "RELATIONSHIPS"]

RELATIONSHIPS = ("contains", "contained_by", "references", "referenced_by", "attaches",
                 "attached_by")

_SLUG = r"[a-z0-9][a-z0-9-]{0,62}"
_REF_RE = re.compile(rf"^(?:(?P<circle>{_SLUG})/)?(?P<slug>{_SLUG})"
                     r"(?:@v(?P<version>[1-9][0-9]{0,8}))?$")


class RefError(ValueError):
    """A reference string is not ``slug``, ``circle/slug`` or either with ``@vN``."""


@dataclass(frozen=True)
class Ref:
    """A parsed reference to an element: its path and an optional version pin."""

    circle: str
    path: str
    version: int | None = None

    def __str__(self) -> str:
        return self.path + (f"@v{self.version}" if self.version else "")


def parse_ref(ref: Any, circle: str) -> Ref:
    """Parse ``slug``, ``circle/slug``, ``slug@vN`` or ``circle/slug@vN``.

    A bare slug names an element of ``circle`` (the referring element's circle).

    :raise RefError: ``ref`` is not a string of that form.
    """
    if not isinstance(ref, str):
        raise RefError("must be a string such as 'slug', 'circle/slug' or 'slug@v2'")
    found = _REF_RE.match(ref.strip())
    if not found:
        raise RefError(f"{ref!r} is not 'slug', 'circle/slug' or either with '@vN'")
    ref_circle = found["circle"] or circle
    version = int(found["version"]) if found["version"] else None
    return Ref(ref_circle, f"{ref_circle}/{found['slug']}", version)


class ElementLike(Protocol):
    id: str
    path: str
    circle: str
    name: str
    element_type: str
    parent_id: str | None
    state: str
    version: int
    properties: dict[str, Any]


def reference_refs(element: ElementLike) -> list[str]:
    """The raw reference strings an element's spec holds (members, memory bonds)."""
    props = element.properties or {}
    found: list[Any] = []
    if element.element_type == "project":
        members = props.get("members")
        if isinstance(members, list):
            found.extend(members)
    elif element.element_type == "triformer":
        memory = (props.get("subconscious") or {}).get("memory") \
            if isinstance(props.get("subconscious"), dict) else None
        for bond in memory if isinstance(memory, list) else [memory]:
            target = bond.get("element") if isinstance(bond, dict) else None
            found.extend(target if isinstance(target, list) else [target])
    return [r for r in found if isinstance(r, str)]


@dataclass(frozen=True)
class Node:
    id: str
    path: str
    element_type: str
    name: str
    state: str
    parent_id: str | None
    version: int

    @property
    def category(self) -> str:
        kind = TYPES.get(self.element_type)
        return kind.category if kind else "unknown"

    def public(self, metadata: bool = True) -> dict[str, Any]:
        """The JSON form; ``metadata`` adds name, state, category and version."""
        out: dict[str, Any] = {"id": self.id, "path": self.path,
                               "element_type": self.element_type}
        if metadata:
            out.update(name=self.name, state=self.state, category=self.category,
                       version=self.version)
        return out


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    kind: str                            # contains | references | attaches
    attachment_id: str | None = None
    ref: str | None = None               # the reference string (references, pins)


_OUT = {"contains": "contains", "references": "references", "attaches": "attaches"}
_IN = {"contains": "contained_by", "references": "referenced_by", "attaches": "attached_by"}


@dataclass
class Graph:
    """Nodes by id plus edges indexed both ways. Build it with :func:`build_graph`."""

    nodes: dict[str, Node] = field(default_factory=dict)
    by_path: dict[str, str] = field(default_factory=dict)
    out: dict[str, list[Edge]] = field(default_factory=dict)
    inc: dict[str, list[Edge]] = field(default_factory=dict)
    #: element id -> reference strings that named nothing in the circle
    unresolved: dict[str, list[str]] = field(default_factory=dict)

    def add_edge(self, edge: Edge) -> None:
        self.out.setdefault(edge.source, []).append(edge)
        self.inc.setdefault(edge.target, []).append(edge)

    def neighbours(self, node_id: str) -> list[tuple[str, str, Edge]]:
        """``(other id, relationship seen from node_id, edge)`` for every incident edge."""
        found = [(e.target, _OUT[e.kind], e) for e in self.out.get(node_id, [])]
        found += [(e.source, _IN[e.kind], e) for e in self.inc.get(node_id, [])]
        return found

    def related(self, node_id: str, relationship: str) -> list[Node]:
        """Direct neighbours by one relationship, in path order, each once."""
        ids = {other for other, rel, _ in self.neighbours(node_id) if rel == relationship}
        return sorted((self.nodes[i] for i in ids), key=lambda n: n.path)

    def members(self, node_id: str) -> list[Node]:
        """The elements a project (or triformer) references."""
        return self.related(node_id, "references")

    def ancestors(self, node_id: str) -> list[Node]:
        """The containment chain, root first, parent last (cycles cut)."""
        chain: list[Node] = []
        seen = {node_id}
        parent = self.nodes[node_id].parent_id
        while parent is not None and parent in self.nodes and parent not in seen:
            seen.add(parent)
            chain.append(self.nodes[parent])
            parent = self.nodes[parent].parent_id
        return list(reversed(chain))

    def context(self, node_id: str, depth: int,
                types: frozenset[str] | None = None) -> list[dict[str, Any]]:
        """Breadth-first traversal over every edge kind, up to ``depth`` hops.

        Each reached element appears once, at the depth it was first reached, with every
        relationship by which the previous layer reached it (``relationship`` is the first)
        and ``via``, the path it was first reached from. ``types`` filters the answer (by
        element type or category) but not the walk, so a filtered-out element still
        connects what lies beyond it.
        """
        seen = {node_id}
        layer = [node_id]
        answer: list[dict[str, Any]] = []
        for level in range(1, depth + 1):
            reached: dict[str, dict[str, Any]] = {}
            for current in layer:
                for other, rel, edge in self.neighbours(current):
                    if other in seen or other not in self.nodes:
                        continue
                    entry = reached.setdefault(other, {
                        **self.nodes[other].public(), "depth": level, "relationship": rel,
                        "relationships": [], "via": self.nodes[current].path})
                    if rel not in entry["relationships"]:
                        entry["relationships"].append(rel)
                    if edge.attachment_id:
                        entry.setdefault("attachment_ids", []).append(edge.attachment_id)
            seen.update(reached)
            layer = sorted(reached, key=lambda i: self.nodes[i].path)
            answer.extend(reached[i] for i in layer)
            if not layer:
                break
        if types:
            answer = [e for e in answer if e["element_type"] in types or e["category"] in types]
        return answer

    def subtree(self, node_id: str, depth: int, metadata: bool) -> tuple[list[dict[str, Any]],
                                                                           dict[str, Any]]:
        """Children nested to ``depth`` levels, and statistics of that subtree.

        :return: ``(children, stats)``; stats counts the descendants shown, by type and by
            state, the deepest level reached and whether deeper descendants were cut.
        """
        stats: dict[str, Any] = {"descendants": 0, "by_type": {}, "by_state": {},
                                 "depth": depth, "max_depth_reached": 0, "truncated": False}
        seen = {node_id}

        def walk(parent: str, level: int) -> list[dict[str, Any]]:
            kids = [n for n in self.related(parent, "contains") if n.id not in seen]
            if kids and level > depth:
                stats["truncated"] = True
                return []
            out = []
            for kid in kids:
                seen.add(kid.id)
                stats["descendants"] += 1
                stats["by_type"][kid.element_type] = stats["by_type"].get(kid.element_type, 0) + 1
                stats["by_state"][kid.state] = stats["by_state"].get(kid.state, 0) + 1
                stats["max_depth_reached"] = max(stats["max_depth_reached"], level)
                node = kid.public(metadata)
                node["children"] = walk(kid.id, level + 1)
                out.append(node)
            return out

        return walk(node_id, 1), stats


def build_graph(elements: Iterable[ElementLike],
                attachments: Iterable[Mapping[str, Any]] = ()) -> Graph:
    """The graph of one circle's elements and the attachments between them.

    References are resolved against the given elements only: a reference that names an
    element of another circle, or nothing, is kept in ``graph.unresolved`` and adds no edge
    (cross-circle edges would reach past the tokens that guard each circle).
    """
    graph = Graph()
    rows = list(elements)
    for el in rows:
        graph.nodes[el.id] = Node(el.id, el.path, el.element_type, el.name, el.state,
                                  el.parent_id, el.version)
        graph.by_path[el.path] = el.id
    for el in rows:
        if el.parent_id in graph.nodes:
            graph.add_edge(Edge(el.parent_id, el.id, "contains"))
        for raw in reference_refs(el):
            try:
                target = graph.by_path.get(parse_ref(raw, el.circle).path)
            except RefError:
                target = None
            if target is None or target == el.id:
                graph.unresolved.setdefault(el.id, []).append(raw)
            else:
                graph.add_edge(Edge(el.id, target, "references", ref=raw))
    for row in attachments:
        if row["source_id"] in graph.nodes and row["target_id"] in graph.nodes:
            graph.add_edge(Edge(row["source_id"], row["target_id"], "attaches",
                                attachment_id=row["id"]))
    return graph
