"""Ops every element answers about itself: create a child, enable, disable, update_meta."""

from __future__ import annotations

import json

from ..catalog import now_iso
from ..errors import ElementError, InvalidRequest
from ..governance.guard import guard_change
from ..home import RESERVED_SLUGS
from ..spec.types import TYPES
from .op import Activity, OpCall, OpResult, OpTable
from .schemas import (ELEMENT_ANSWER, OBJECT, SLUG, STRING, TEXT, nullable, obj, ref)

__all__ = ["ops", "ElementDeleted", "MetaTooLarge", "MAX_META_BYTES"]

ops = OpTable()

MAX_META_BYTES = 64 * 1024


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


@ops.op("create", "POST", "create", "write", summary="Create a child element", status=201,
        request=obj({
            "element_type": {"type": "string", "enum": sorted(TYPES)},
            "slug": {**SLUG, "not": {"enum": sorted(RESERVED_SLUGS)}},
            "name": TEXT, "description": nullable(STRING),
            "properties": {**OBJECT, "description": "checked against the type's schema "
                                                    "(components Properties.<type>)"}},
            ["element_type", "slug"]),
        body_required=True, response=ELEMENT_ANSWER,
        description="Creates a child element (its git repo with draft/demo/live and its "
                    "catalog row) flat under the circle.")
def create(call: OpCall) -> OpResult:
    body = call.body
    # A new project carrying promotion state would be trusted by promote: admin's only.
    guard_change(call.principal, body["element_type"], None,
                 {"properties": body.get("properties") or {}})
    element = call.home.create_element(
        circle=call.element.circle, element_type_name=body["element_type"],
        slug=body.get("slug"), name=body.get("name"), description=body.get("description"),
        properties=body.get("properties"), parent=call.element)
    return OpResult({"element": element.public()}, status=201,
                    activity=[Activity({"element_type": element.element_type}, element)])


_REASON = obj({"reason": nullable({"type": "string", "maxLength": 1000})})
_CHANGED = obj({"element": ref("Element"), "changed": {"type": "boolean"}},
               ["element", "changed"])


def _reason(call: OpCall) -> str | None:
    reason = call.body.get("reason")
    if reason is not None and len(reason) > 1000:
        raise InvalidRequest("reason", "must be a string of at most 1000 characters")
    return reason


@ops.op("disable", "POST", "disable", "admin", summary="Disable the element",
        request=_REASON, response=_CHANGED, when_disabled=True,
        description="Idempotent. A disabled element answers only enable, disable and the "
                    "read ops that inspect it (spec, version, readme, activity).")
def disable(call: OpCall) -> OpResult:
    reason = _reason(call)
    element = call.element
    if element.state == "deleted":
        raise ElementDeleted(element.path)
    if element.state == "disabled":
        return OpResult({"element": element.public(), "changed": False})
    detail = {"state": "disabled", "reason": reason, "by": call.who, "at": now_iso()}
    element = call.home.catalog.merge_meta(element.id, {"state_detail": detail},
                                           state="disabled")
    return OpResult({"element": element.public(), "changed": True},
                    activity=[Activity({"reason": reason}, element)])


@ops.op("enable", "POST", "enable", "admin", summary="Enable the element",
        request=_REASON, response=_CHANGED, when_disabled=True,
        description="Idempotent; a deleted element cannot be enabled.")
def enable(call: OpCall) -> OpResult:
    reason = _reason(call)
    element = call.element
    if element.state == "deleted":
        raise ElementDeleted(element.path)
    if element.state == "ready":
        return OpResult({"element": element.public(), "changed": False})
    element = call.home.catalog.merge_meta(element.id, {}, drop=("state_detail",),
                                           state="ready")
    return OpResult({"element": element.public(), "changed": True},
                    activity=[Activity({"reason": reason}, element)])


@ops.op("update_meta", "PATCH", "update_meta", "write", summary="Shallow merge into meta",
        request=obj({"meta": OBJECT}, ["meta"]), body_required=True,
        response=ELEMENT_ANSWER,
        description=f"Keys of meta are replaced one by one; the merged meta is at most "
                    f"{MAX_META_BYTES} bytes of JSON.")
def update_meta(call: OpCall) -> OpResult:
    patch = call.body["meta"]
    merged = {**call.element.meta, **patch}
    size = len(json.dumps(merged).encode())
    if size > MAX_META_BYTES:
        raise MetaTooLarge(size)
    element = call.home.catalog.merge_meta(call.element.id, patch)
    return OpResult({"element": element.public()},
                    activity=[Activity({"keys": sorted(patch)}, element)])
