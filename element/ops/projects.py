"""A project's ``promote``: freeze its members' versions into an environment.

Environments advance draft -> demo -> live. Promoting to demo records each member's current
version (or the version its reference pins) in ``spec.environments.demo``; promoting to
live copies the demo snapshot. The snapshot is committed to draft and is a new version.
"""

from __future__ import annotations

from typing import Any

from ..catalog import Element, now_iso
from ..errors import ElementError, ElementNotFound, InvalidRequest
from ..graph import parse_ref, reference_refs
from ..spec.mirror import element_lock, sync_spec, write_spec
from ..spec.spec_file import normalize_spec, spec_of
from .registry import Activity, OpCall, OpResult, OpTable
from .schemas import COMMIT, OBJECT, STRING, integer, obj

__all__ = ["ops", "PromoteRefused", "PROMOTE_FROM"]

ops = OpTable()

PROMOTE_FROM = {"demo": "draft", "live": "demo"}


class PromoteRefused(ElementError):
    """The project cannot be promoted as it stands (missing members, not yet in demo)."""

    code = "PROMOTE_REFUSED"
    error_class = "conflict"


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


@ops.op("promote", "POST", "promote", "admin", types=frozenset({"project"}),
        summary="Promote a project's configuration to an environment",
        request=obj({"to": {"type": "string", "enum": list(PROMOTE_FROM)}}, ["to"]),
        body_required=True,
        response=obj({"environment": STRING, "snapshot": OBJECT, "version": integer(1),
                      "commit": COMMIT}, ["environment", "snapshot", "version", "commit"]),
        description="demo freezes each member's version (or its pin) into "
                    "spec.environments.demo; live copies the demo snapshot.")
def promote(call: OpCall) -> OpResult:
    to = call.body["to"]
    if to not in PROMOTE_FROM:
        raise InvalidRequest("to", "must be demo or live")
    catalog = call.home.catalog
    # Under the spec lock, as spec_update: the environments land on the latest spec.
    with element_lock(call.element.id):
        project = sync_spec(call.home, call.element, principal=call.who).element
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
        snapshot.update({"from": PROMOTE_FROM[to], "promoted_at": now_iso(), "by": call.who})
        envs[to] = snapshot
        spec = normalize_spec({**spec_of(project), "properties": {
            **project.properties, "environments": envs}}, circle=project.circle,
            element_type_name=project.element_type, slug=project.slug)
        commit = write_spec(call.home, project, spec, f"promote to {to}")
        version = catalog.add_version(project.id, spec, f"promote to {to} ({commit[:12]})",
                                      properties=spec["properties"])
    return OpResult({"environment": to, "snapshot": snapshot, "version": version,
                     "commit": commit},
                    activity=[Activity({"to": to, "version": version, "commit": commit,
                                        "members": snapshot["members"]})])
