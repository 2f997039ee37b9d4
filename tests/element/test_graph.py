"""element/graph.py: reference parsing and traversals, on plain data (no server, no disk)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from element import Element
from element.graph import RefError, build_graph, parse_ref, reference_refs


def make_element(slug: str | None, element_type: str = "memory", *, parent: Element | None = None,
                 circle: str = "demo", **properties: Any) -> Element:
    path = circle if slug is None else f"{circle}/{slug}"
    return Element(id=f"id-{path}", path=path, circle=circle, slug=slug, name=slug or circle,
                   element_type=element_type, form="atom", parent_id=parent.id if parent else None,
                   state="ready", description=None, properties=properties, meta={}, version=1,
                   created_at="t", updated_at="t")


def attachment(source: Element, target: Element) -> dict[str, Any]:
    return {"id": f"att-{source.slug}-{target.slug}", "source_id": source.id,
            "target_id": target.id}


@pytest.fixture
def circle() -> dict[str, Element]:
    root = make_element(None, "circle")
    mem = make_element("memory", parent=root)
    agent = make_element("agent", "triformer", parent=root,
                         subconscious={"memory": {"element": "memory"}})
    proj = make_element("proj", "project", parent=root, members=["memory", "demo/agent",
                                                                 "ghost", "other/x"])
    limit = make_element("limit", "rate-limit", parent=root)
    note = make_element("note", "prompt", parent=agent)
    return {e.slug or "root": e for e in (root, mem, agent, proj, limit, note)}


def graph_of(circle: dict[str, Element]):
    return build_graph(circle.values(), [attachment(circle["limit"], circle["memory"])])


def test_parse_ref_forms() -> None:
    assert parse_ref("memory", "demo").path == "demo/memory"
    assert parse_ref("other/memory", "demo").circle == "other"
    pinned = parse_ref("rate-limit@v12", "demo")
    assert (pinned.path, pinned.version, str(pinned)) == ("demo/rate-limit", 12,
                                                          "demo/rate-limit@v12")


@pytest.mark.parametrize("bad", ["", "Memory", "a/b/c", "x@2", "x@v0", "x@", "/x", 3, None])
def test_parse_ref_refuses_malformed(bad: Any) -> None:
    with pytest.raises(RefError):
        parse_ref(bad, "demo")


def test_references_come_from_members_and_bonds(circle) -> None:
    assert reference_refs(circle["proj"]) == ["memory", "demo/agent", "ghost", "other/x"]
    assert reference_refs(circle["agent"]) == ["memory"]
    assert reference_refs(circle["memory"]) == []


def test_unresolved_references_add_no_edge(circle) -> None:
    graph = graph_of(circle)
    assert [n.path for n in graph.members(circle["proj"].id)] == ["demo/agent", "demo/memory"]
    assert graph.unresolved[circle["proj"].id] == ["ghost", "other/x"]


def test_context_depth_one_lists_every_relationship(circle) -> None:
    graph = graph_of(circle)
    found = {e["path"]: e for e in graph.context(circle["memory"].id, 1)}
    assert found["demo"]["relationship"] == "contained_by"
    assert found["demo/proj"]["relationship"] == "referenced_by"
    assert found["demo/agent"]["relationship"] == "referenced_by"
    assert found["demo/limit"]["relationship"] == "attached_by"
    assert found["demo/limit"]["attachment_ids"] == ["att-limit-memory"]
    assert all(e["depth"] == 1 for e in found.values())
    from_limit = {e["path"]: e["relationship"] for e in graph.context(circle["limit"].id, 1)}
    assert from_limit == {"demo": "contained_by", "demo/memory": "attaches"}


def test_context_depth_two_reaches_further_and_types_filter(circle) -> None:
    graph = graph_of(circle)
    two = {e["path"]: e for e in graph.context(circle["limit"].id, 2)}
    assert "demo/note" not in two            # three hops: limit, demo, agent, note
    assert two["demo/proj"]["depth"] == 2
    assert two["demo/proj"]["via"] in {"demo", "demo/memory"}
    only = graph.context(circle["limit"].id, 2, frozenset({"actor"}))
    assert [e["path"] for e in only] == ["demo/agent"]


def test_ancestors_and_subtree(circle) -> None:
    graph = graph_of(circle)
    assert [n.path for n in graph.ancestors(circle["note"].id)] == ["demo", "demo/agent"]
    children, stats = graph.subtree(circle["root"].id, 1, metadata=False)
    assert {c["path"] for c in children} == {"demo/memory", "demo/agent", "demo/proj",
                                              "demo/limit"}
    assert stats["truncated"] is True and stats["descendants"] == 4
    assert "name" not in children[0]
    children, stats = graph.subtree(circle["root"].id, 3, metadata=True)
    agent = next(c for c in children if c["path"] == "demo/agent")
    assert agent["children"][0]["path"] == "demo/note" and agent["children"][0]["name"]
    assert stats == {"descendants": 5, "by_type": {"memory": 1, "triformer": 1, "project": 1,
                                                   "rate-limit": 1, "prompt": 1},
                     "by_state": {"ready": 5}, "depth": 3, "max_depth_reached": 2,
                     "truncated": False}


def test_a_containment_cycle_does_not_loop() -> None:
    a = make_element("a")
    b = make_element("b", parent=a)
    a.parent_id = b.id
    graph = build_graph([a, b])
    assert [n.path for n in graph.ancestors(a.id)] == ["demo/b"]
    assert len(graph.context(a.id, 10)) == 1


@given(st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20),
       st.integers(1, 4))
def test_context_is_symmetric_at_depth_one_and_depths_are_shortest(
        links: list[tuple[int, int]], depth: int) -> None:
    nodes = [make_element(f"n{i}", "project") for i in range(8)]
    for a, b in links:
        if a != b:
            nodes[a].properties.setdefault("members", []).append(f"n{b}")
    graph = build_graph(nodes)
    for node in nodes:
        near = {e["id"] for e in graph.context(node.id, 1)}
        for other in near:
            assert node.id in {e["id"] for e in graph.context(other, 1)}
        far = graph.context(node.id, depth)
        assert len({e["id"] for e in far}) == len(far)
        for entry in far:
            assert entry["depth"] == 1 or entry["id"] not in near
