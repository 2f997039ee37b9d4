"""Bonds: which memory elements an agent uses.

A triformer bonds memory elements through ``properties.subconscious.memory.element`` (one
ref or a list; ``graph.reference_refs``), resolved in its own circle; two triformers
bonding one memory share it. A memory element bonds itself, so every agent op also works
on a memory element directly.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ..catalog import Element
from ..errors import ElementError, ElementNotFound
from ..graph import RefError, parse_ref, reference_refs

if TYPE_CHECKING:
    from ..home import Home

__all__ = ["NoMemoryBonded", "bonded_memories"]


class NoMemoryBonded(ElementError):
    """The triformer bonds no usable memory element."""

    code = "AGENT_NO_MEMORY"
    error_class = "conflict"

    def __init__(self, path: str, unresolved: list[str]) -> None:
        extra = f" (unresolved: {', '.join(map(repr, unresolved))})" if unresolved else ""
        super().__init__(f"triformer {path!r} bonds no memory element of its circle in "
                         f"properties.subconscious.memory.element{extra}")
        self.unresolved = unresolved


def bonded_memories(home: Home, element: Element, env: str) -> tuple[list[Element], list[str]]:
    """The memory elements ``element`` bonds, in bond order, and the refs that name none.

    A triformer's bonds come from the governing environment's spec; a ref to another
    circle, to nothing or to a non-memory element is unresolved. A version pin (``@vN``)
    does not matter here: memories are runtime data.
    """
    if element.element_type == "memory":
        return [element], []
    props = home.properties_for(element, env)
    found: list[Element] = []
    unresolved: list[str] = []
    for raw in reference_refs(dataclasses.replace(element, properties=props)):
        try:
            ref = parse_ref(raw, element.circle)
            if ref.circle != element.circle:
                raise ElementNotFound(ref.path)
            memory = home.catalog.element_at(ref.path)
        except (RefError, ElementNotFound):
            unresolved.append(raw)
            continue
        if memory.element_type != "memory":
            unresolved.append(raw)
        elif all(m.id != memory.id for m in found):
            found.append(memory)
    return found, unresolved
