"""Composition ops: ``attachments``, ``compose`` and ``remove-modifier``.

The attachment model and its rules live in ``governance/attachments.py``; enforcement of
what is attached happens on every op call (``element.invoke``).
"""

from __future__ import annotations

from ..governance.attachments import attachments_of, compose as compose_attachments
from ..governance.attachments import remove_attachment
from .registry import Activity, OpCall, OpResult, OpTable
from .schemas import STRING, array, integer, obj, ref

__all__ = ["ops"]

ops = OpTable()

_ATTACHMENTS = array(ref("Attachment"))


@ops.op("attachments", "GET", "attachments", "read",
        summary="List attached modifiers and resources",
        response=obj({"attachments": _ATTACHMENTS, "inherited": _ATTACHMENTS,
                      "modifiers": integer(0), "resources": integer(0)},
                     ["attachments", "inherited", "modifiers", "resources"]),
        description="The element's own attachments, and those cascading onto it from "
                    "projects that list it as a member (inherited, each with its via).")
def attachments(call: OpCall) -> OpResult:
    found = attachments_of(call.home.catalog, call.element)
    own = [a.public() for a in found if a.via is None]
    inherited = [a.public() for a in found if a.via is not None]
    return OpResult({"attachments": own, "inherited": inherited,
                     "modifiers": sum(1 for a in found if a.is_modifier and a.via is None),
                     "resources": sum(1 for a in found if not a.is_modifier and a.via is None)})


_ADD = obj({"ref": {**STRING, "description": "slug, circle/slug, or either with @vN"},
            "priority": integer(0, 10**6, default=100),
            "cascade": {"type": "string", "enum": ["none", "members"], "default": "none"}},
           ["ref"])


@ops.op("compose", "POST", "compose", "execute", summary="Batch add and remove modifiers",
        request=obj({"add": array(_ADD), "remove": array(obj({"attachment_id": STRING},
                                                             ["attachment_id"]))}),
        body_required=True,
        response=obj({"added": _ATTACHMENTS, "removed": array(STRING),
                      "attachments": _ATTACHMENTS}, ["added", "removed", "attachments"]),
        description="All or nothing: removals apply before additions, so one call can "
                    "re-pin a source.")
def compose(call: OpCall) -> OpResult:
    summary = compose_attachments(call.home.catalog, call.element, call.body, call.who)
    for attachment_id in summary["removed"]:
        call.home.limiter.forget(attachment_id)
    current = [a.public() for a in attachments_of(call.home.catalog, call.element,
                                                  inherited=False)]
    return OpResult({**summary, "attachments": current}, activity=[Activity(
        {"added": [a["attachment_id"] for a in summary["added"]],
         "refs": [a["ref"] for a in summary["added"]], "removed": summary["removed"]})])


@ops.op("remove-modifier", "POST", "remove-modifier", "execute",
        summary="Remove an attachment",
        request=obj({"attachment_id": STRING}, ["attachment_id"]), body_required=True,
        response=obj({"removed": STRING}, ["removed"]))
def remove_modifier(call: OpCall) -> OpResult:
    removed = remove_attachment(call.home.catalog, call.element, call.body["attachment_id"])
    call.home.limiter.forget(removed)
    return OpResult({"removed": removed}, activity=[Activity({"attachment_id": removed})])


