"""Ops every element answers about itself: create a child.

``spec``, ``spec_update``, ``version`` and ``restore`` live in ``versions.py`` (they share
the spec mirror between git and the catalog).
"""

from __future__ import annotations

from .memory_ops import known_fields
from .ops import OpCall, OpResult, implements

__all__: list[str] = []


@implements("create")
def create(call: OpCall) -> OpResult:
    body = known_fields(call.body, {"element_type", "slug", "name", "description",
                                    "properties"})
    parent = call.element
    element = call.home.create_element(
        circle=parent.circle, element_type_name=body.get("element_type"),
        slug=body.get("slug"), name=body.get("name"), description=body.get("description"),
        properties=body.get("properties"), parent=parent)
    principal = call.principal.label if call.principal else None
    call.home.catalog.record_activity(element, "create", principal,
                                      {"element_type": element.element_type})
    return OpResult({"element": element.public()}, status=201)

