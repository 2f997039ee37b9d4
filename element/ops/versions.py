"""Spec versions: ``spec``, ``spec_update``, ``version`` and ``restore``.

Every change of the draft spec is a version ``vN`` in the catalog, which is authoritative
(``restore`` reads it); git follows (``spec/mirror.py`` keeps the two together).
"""

from __future__ import annotations

import logging
from typing import Any

from source import SourceError

from ..catalog import Element
from ..errors import ElementDisabled, ElementError, InvalidRequest
from ..governance.guard import guard_change
from ..spec.mirror import element_lock, sync_spec, write_spec
from ..spec.spec_file import normalize_spec, spec_fields, spec_of
from .op import Activity, OpCall, OpResult, OpTable
from .schemas import (BOOLEAN, COMMIT, MESSAGE, OBJECT, STRING, TEXT, array, in_range,
                      integer, nullable, obj, ref)

__all__ = ["ops", "VersionNotFound", "HISTORY_MAX"]

log = logging.getLogger(__name__)

ops = OpTable()

HISTORY_MAX = 500


class VersionNotFound(ElementError):
    """The element has no version with this number."""

    code = "ELEMENT_VERSION_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, path: str, version: int) -> None:
        super().__init__(f"{path!r} has no version v{version}")
        self.version = version


def _version_entry(call: OpCall, element: Element, number: int) -> dict[str, Any]:
    entry = call.home.catalog.version_entry(element.id, number)
    if entry is None:
        raise VersionNotFound(element.path, number)
    return entry


def _version_number(value: int | str) -> int:
    """``3``, ``"3"`` or ``"v3"`` -> 3; :raise InvalidRequest: anything else."""
    text = str(value)
    digits = text[1:] if text.startswith("v") else text
    if isinstance(value, bool) or not digits.isdigit() or not 1 <= int(digits) <= 2**31:
        raise InvalidRequest("version", "must be a version number such as 3 or 'v3'")
    return int(digits)


@ops.op("spec", "GET", "spec", "read", summary="The element's spec", when_disabled=True,
        response=obj({"spec": ref("Spec"), "version": integer(1), "warnings": array(STRING)},
                     ["spec", "version"]))
def spec(call: OpCall) -> OpResult:
    synced = sync_spec(call.home, call.element, principal=call.who)
    answer: dict[str, Any] = {"spec": spec_of(synced.element),
                              "version": synced.element.version}
    if synced.warning:
        answer["warnings"] = [synced.warning]
    return OpResult(answer)


@ops.op("spec_update", "POST", "spec_update", "write", summary="Merge properties into the spec",
        request=obj({"properties": {**OBJECT, "description": "merged into the current "
                                    "properties; a null value resets one to its default"},
                     "name": TEXT, "description": nullable(STRING),
                     "message": {**MESSAGE, "description": "the version's message"}},
                    anyOf=[{"required": ["properties"]}, {"required": ["name"]},
                           {"required": ["description"]}]),
        body_required=True,
        response=obj({"changed": BOOLEAN, "version": integer(1),
                      "label": {"type": "string", "pattern": r"^v\d+$"}, "commit": COMMIT,
                      "spec": ref("Spec")}, ["changed", "version", "spec"]),
        description="Commits the new spec to draft and records version vN (nothing when "
                    "nothing changed).")
def spec_update(call: OpCall) -> OpResult:
    """Merge ``properties`` (a ``null`` value resets one to its default) and optionally set
    ``name`` / ``description``; commit the spec to draft, then record ``vN``."""
    body = call.body
    if not any(k in body for k in ("properties", "name", "description")):
        raise InvalidRequest("properties", "is required (an object of properties to merge)")
    changes = body.get("properties", {})
    note = body.get("message")
    if note is not None and len(note) > 500:
        raise InvalidRequest("message", "must be a string of at most 500 characters")
    element = call.element
    with element_lock(element.id):
        element = sync_spec(call.home, element, principal=call.who).element
        current = spec_of(element)
        props = {k: v for k, v in {**element.properties, **changes}.items() if v is not None}
        raw = {**current, "properties": props}
        for key in ("name", "description"):
            if key in body:
                raw[key] = body[key]
        new = normalize_spec(raw, circle=element.circle,
                             element_type_name=element.element_type, slug=element.slug)
        if new == current:
            return OpResult({"changed": False, "version": element.version, "spec": current})
        guard_change(call.principal, element.element_type, current, new)
        message = note or "spec_update: " + ", ".join(sorted(
            [f"properties.{k}" for k in changes] + [k for k in ("name", "description")
                                                    if k in body]))
        commit = write_spec(call.home, element, new, message)
        version = call.home.catalog.add_version(element.id, new, f"{message} ({commit[:12]})",
                                                **spec_fields(new))
    updated = call.home.catalog.element(element.id)
    return OpResult({"changed": True, "version": version, "label": f"v{version}",
                     "commit": commit, "spec": spec_of(updated)},
                    activity=[Activity({"version": version, "commit": commit,
                                        "properties": sorted(changes)}, updated)])


@ops.op("version", "GET", "version", "read", summary="Current version or history",
        when_disabled=True,
        query={"history": {**BOOLEAN, "description": "also list the versions, newest first"},
               "limit": integer(1, HISTORY_MAX, default=50)},
        response=obj({"version": integer(1), "label": STRING, "current": ref("Version"),
                      "history": array(ref("Version"))}, ["version", "label", "current"]))
def version(call: OpCall) -> OpResult:
    element = sync_spec(call.home, call.element, principal=call.who).element
    history = call.query.get("history", False)
    limit = in_range(call.query.get("limit"), "limit", 50, 1, HISTORY_MAX)
    answer: dict[str, Any] = {"version": element.version, "label": f"v{element.version}",
                              "current": _version_entry(call, element, element.version)}
    if history:
        answer["history"] = call.home.catalog.versions(element.id, limit)
    return OpResult(answer)


@ops.op("restore", "POST", "restore", "admin", summary="Restore the element to a version",
        request=obj({"version": {"anyOf": [integer(1), {"type": "string",
                                                        "pattern": r"^v?\d+$"}]}},
                    ["version"]),
        body_required=True,
        response=obj({"restored_from": integer(1), "snapshot_version": integer(1),
                      "version": integer(1), "label": STRING, "commit": nullable(COMMIT),
                      "spec": ref("Spec"), "warnings": array(STRING)},
                     ["restored_from", "snapshot_version", "version", "label", "commit",
                      "spec", "warnings"]),
        description="Snapshots the current spec as 'Before restore to vN', makes vN's spec "
                    "current (the catalog decides), then writes it to draft; a git failure "
                    "is a warning, not an error.")
def restore(call: OpCall) -> OpResult:
    """Snapshot the current spec as ``Before restore to vN``, make vN's spec current (the
    catalog decides), then write it to draft; a git failure is a warning, not an error."""
    number = _version_number(call.body["version"])
    element = call.element
    if element.state == "deleted":
        raise ElementDisabled(element.path, "deleted")
    warnings: list[str] = []
    with element_lock(element.id):
        element = sync_spec(call.home, element, principal=call.who).element
        target = _version_entry(call, element, number)
        spec = normalize_spec(target["spec"], circle=element.circle,
                              element_type_name=element.element_type, slug=element.slug)
        catalog = call.home.catalog
        snapshot = catalog.add_version(element.id, spec_of(element),
                                       f"Before restore to v{number}")
        restored = catalog.add_version(element.id, spec, f"Restored from v{number}",
                                       **spec_fields(spec))
        commit = None
        try:
            commit = write_spec(call.home, element, spec, f"restore v{number} (now "
                                f"v{restored})")
        except (SourceError, OSError) as exc:
            log.warning("restore of %s: git write failed: %s", element.path, exc)
            warnings.append(f"SOURCE_WRITE_FAILED: the spec was restored in the catalog "
                            f"but not written to git ({getattr(exc, 'message', exc)}); "
                            "source_repair with dry_run=false writes it")
    updated = call.home.catalog.element(element.id)
    return OpResult({"restored_from": number, "snapshot_version": snapshot,
                     "version": restored, "label": f"v{restored}", "commit": commit,
                     "spec": spec_of(updated), "warnings": warnings},
                    activity=[Activity({"from": number, "snapshot": snapshot,
                                        "version": restored, "commit": commit}, updated)])
