"""Attachments: modifiers and resources tied to the elements they govern or feed.

An attachment ties a *source* element (a modifier or a resource) to a *target* element, with
an optional version pin (``ref@vN``: the source's spec at that version governs), a
``priority`` (lower first) and a ``cascade_policy``: ``none`` (the target only) or
``members`` (a project's attachment also governs every member of the project). Rows live in
the catalog's ``attachments`` table, unique per (target, source).

Topology (:data:`ACCEPTS`): modifiers (rate-limit, auth-policy) attach to circles, projects,
memories and triformers; resources (prompt) to projects and triformers; nothing attaches to
a modifier or a resource, and no element attaches to itself.

How modifiers are enforced is ``enforce.py``; what a policy says is ``policy.py``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog, Element, now_iso
from ..errors import ElementError, ElementNotFound, InvalidRequest
from ..graph import RefError, parse_ref, reference_refs
from .policy import check_policy_rules

__all__ = ["MODIFIER_TYPES", "RESOURCE_TYPES", "ACCEPTS", "CASCADE_POLICIES",
           "Attachment", "AttachmentNotFound", "AttachmentExists", "AttachmentTopology",
           "RefNotFound", "PinNotFound", "attachments_of", "compose", "remove_attachment"]

MODIFIER_TYPES = frozenset({"rate-limit", "auth-policy"})
RESOURCE_TYPES = frozenset({"prompt"})
ACCEPTS: dict[str, frozenset[str]] = {
    "circle": MODIFIER_TYPES,
    "project": MODIFIER_TYPES | RESOURCE_TYPES,
    "memory": MODIFIER_TYPES,
    "triformer": MODIFIER_TYPES | RESOURCE_TYPES,
}
CASCADE_POLICIES = ("none", "members")
DEFAULT_PRIORITY = 100
MAX_COMPOSE_ENTRIES = 100


# -- errors ---------------------------------------------------------------------------
class AttachmentNotFound(ElementError):
    """No attachment with this id is attached to the element."""

    code = "ATTACHMENT_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, where: str, attachment_id: str, path: str) -> None:
        super().__init__(f"{where}: no attachment {attachment_id!r} on {path!r}")
        self.attachment_id = attachment_id


class AttachmentExists(ElementError):
    """The source is already attached to this element (detach it first, or in the same call)."""

    code = "ATTACHMENT_EXISTS"
    error_class = "conflict"

    def __init__(self, where: str, source: str, target: str) -> None:
        super().__init__(f"{where}: {source!r} is already attached to {target!r}")


class AttachmentTopology(ElementError):
    """The source's type cannot attach to the target's type."""

    code = "ATTACHMENT_TOPOLOGY"
    error_class = "validation"

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.field = where


class RefNotFound(ElementError):
    """A reference names no element."""

    code = "REF_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, where: str, ref: str) -> None:
        super().__init__(f"{where}: no element at {ref!r}")
        self.ref = ref


class PinNotFound(ElementError):
    """A version pin names a version the element does not have."""

    code = "ATTACHMENT_PIN_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, where: str, path: str, version: int) -> None:
        super().__init__(f"{where}: {path!r} has no version v{version}")


# -- the attachment model ---------------------------------------------------------------
@dataclass(frozen=True)
class Attachment:
    id: str
    target: Element
    source: Element
    version: int | None
    priority: int
    cascade_policy: str
    is_modifier: bool
    created_at: str
    created_by: str | None
    via: str | None = None          # the project path a cascaded attachment comes from

    def public(self) -> dict[str, Any]:
        ref = self.source.path + (f"@v{self.version}" if self.version else "")
        out = {"attachment_id": self.id, "ref": ref, "version_pin": self.version,
               "source": {"id": self.source.id, "path": self.source.path,
                          "element_type": self.source.element_type,
                          "state": self.source.state, "version": self.source.version},
               "target": self.target.path, "is_modifier": self.is_modifier,
               "kind": "modifier" if self.is_modifier else "resource",
               "cascade_policy": self.cascade_policy, "priority": self.priority,
               "created_at": self.created_at, "created_by": self.created_by}
        if self.via:
            out["via"] = self.via
        return out

    def properties(self, catalog: Catalog) -> dict[str, Any]:
        """The source's properties: those of the pinned version, else the current ones."""
        if self.version is None:
            return self.source.properties
        spec = catalog.spec_at(self.source.id, self.version)
        if spec is None:            # the version was dropped meanwhile: use the current one
            return self.source.properties
        return dict(spec.get("properties") or {})


def _load(catalog: Catalog, rows: Iterable[Mapping[str, Any]],
          via: Callable[[Element], str | None] = lambda _: None) -> list[Attachment]:
    found = []
    for row in rows:
        target, source = catalog.element(row["target_id"]), catalog.element(row["source_id"])
        found.append(Attachment(row["id"], target, source, row["source_version"],
                                row["priority"], row["cascade_policy"],
                                bool(row["is_modifier"]), row["created_at"],
                                row["created_by"], via(target)))
    return found


def _is_member(project: Element, element: Element) -> bool:
    for raw in reference_refs(project):
        try:
            if parse_ref(raw, project.circle).path == element.path:
                return True
        except RefError:
            continue
    return False


def attachments_of(catalog: Catalog, element: Element, *,
                   inherited: bool = True) -> list[Attachment]:
    """The element's own attachments, then (``inherited``) those cascading onto it.

    A cascading attachment is one with policy ``members`` on a project of the same circle
    that lists the element among its members.
    """
    if not inherited:
        return _load(catalog, catalog.attachments(target_id=element.id))
    own_rows, others = catalog.governing_attachments(element)    # one read for both
    own = _load(catalog, own_rows)
    projects: dict[str, bool] = {}
    cascading = []
    for row in others:
        if row["target_id"] not in projects:
            target = catalog.element(row["target_id"])
            projects[target.id] = (target.element_type == "project"
                                   and _is_member(target, element))
        if projects[row["target_id"]]:
            cascading.append(row)
    return own + _load(catalog, cascading, via=lambda t: t.path)


# -- compose ----------------------------------------------------------------------------
def _entries(body: Mapping[str, Any], key: str) -> list[Any]:
    value = body.get(key, [])
    if not isinstance(value, list):
        raise InvalidRequest(key, "must be a list")
    return value


def _only(entry: Any, where: str, allowed: set[str]) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise InvalidRequest(where, "must be an object")
    for key in entry:
        if key not in allowed:
            raise InvalidRequest(f"{where}.{key}", f"is not a field (fields: "
                                 f"{', '.join(sorted(allowed))})")
    return entry


def _plan_add(catalog: Catalog, target: Element, entry: Any, where: str,
              principal: str | None) -> dict[str, Any]:
    entry = _only(entry, where, {"ref", "priority", "cascade"})
    if "ref" not in entry:
        raise InvalidRequest(f"{where}.ref", "is required")
    try:
        ref = parse_ref(entry["ref"], target.circle)
    except RefError as exc:
        raise InvalidRequest(f"{where}.ref", str(exc)) from None
    if ref.circle != target.circle:
        # Checked before any lookup, so a ref does not reveal what another circle holds.
        raise InvalidRequest(f"{where}.ref", f"must name an element of circle "
                             f"{target.circle!r}")
    priority = entry.get("priority", DEFAULT_PRIORITY)
    if not isinstance(priority, int) or isinstance(priority, bool) or not 0 <= priority <= 10**6:
        raise InvalidRequest(f"{where}.priority", "must be an integer from 0 to 1000000")
    cascade = entry.get("cascade", "none")
    if cascade not in CASCADE_POLICIES:
        raise InvalidRequest(f"{where}.cascade", f"must be one of {', '.join(CASCADE_POLICIES)}")
    if cascade == "members" and target.element_type != "project":
        raise InvalidRequest(f"{where}.cascade", "'members' cascades only from a project")
    try:
        source = catalog.element_at(ref.path)
    except ElementNotFound:
        raise RefNotFound(f"{where}.ref", ref.path) from None
    if ref.version is not None and catalog.spec_at(source.id, ref.version) is None:
        raise PinNotFound(f"{where}.ref", source.path, ref.version)
    if source.id == target.id:
        raise AttachmentTopology(f"{where}.ref", "an element cannot attach to itself")
    accepted = ACCEPTS.get(target.element_type, frozenset())
    if source.element_type not in accepted:
        kinds = ", ".join(sorted(accepted)) or "nothing"
        raise AttachmentTopology(f"{where}.ref", f"a {source.element_type} cannot attach to "
                                 f"a {target.element_type} (it accepts: {kinds})")
    if source.state == "deleted":
        raise AttachmentTopology(f"{where}.ref", f"{source.path!r} is deleted")
    if source.element_type == "auth-policy":
        problem = check_policy_rules(source.properties if ref.version is None else
                                     (catalog.spec_at(source.id, ref.version) or {})
                                     .get("properties") or {})
        if problem:
            raise InvalidRequest(f"{where}.ref", f"{ref}: {problem}")
    return {"id": str(uuid.uuid4()), "target_id": target.id, "source_id": source.id,
            "source_version": ref.version, "priority": priority, "cascade_policy": cascade,
            "is_modifier": source.element_type in MODIFIER_TYPES, "created_by": principal,
            "created_at": now_iso(), "_where": where, "_path": source.path}


def compose(catalog: Catalog, target: Element, body: Mapping[str, Any],
            principal: str | None) -> dict[str, Any]:
    """Add and remove attachments on ``target`` in one transaction: all or nothing.

    Removals apply before additions, so one call can re-pin a source (remove its
    attachment, add it again at another version).

    :raise InvalidRequest: a malformed body or entry (the entry is named, e.g. add[1].ref).
    :raise RefNotFound, PinNotFound, AttachmentNotFound: an entry names nothing.
    :raise AttachmentTopology: the source's type cannot attach to the target.
    :raise AttachmentExists: the source is attached already (and not removed in this call).
    """
    _only(dict(body), "body", {"add", "remove"})
    adds, removes = _entries(body, "add"), _entries(body, "remove")
    if not adds and not removes:
        raise InvalidRequest("add", "give at least one entry in add or remove")
    if len(adds) + len(removes) > MAX_COMPOSE_ENTRIES:
        raise InvalidRequest("add", f"at most {MAX_COMPOSE_ENTRIES} entries per call")
    existing = {row["id"]: row for row in catalog.attachments(target_id=target.id)}
    remove_ids: list[str] = []
    for i, entry in enumerate(removes):
        where = f"remove[{i}]"
        attachment_id = _only(entry, where, {"attachment_id"}).get("attachment_id")
        if not isinstance(attachment_id, str) or not attachment_id:
            raise InvalidRequest(f"{where}.attachment_id", "is required and must be a string")
        if attachment_id not in existing:
            raise AttachmentNotFound(where, attachment_id, target.path)
        if attachment_id not in remove_ids:
            remove_ids.append(attachment_id)
    attached = {row["source_id"] for i, row in existing.items() if i not in remove_ids}
    plans = []
    for i, entry in enumerate(adds):
        plan = _plan_add(catalog, target, entry, f"add[{i}]", principal)
        if plan["source_id"] in attached:
            raise AttachmentExists(plan["_where"], plan["_path"], target.path)
        attached.add(plan["source_id"])
        plans.append(plan)
    rows = [{k: v for k, v in p.items() if not k.startswith("_")} for p in plans]
    try:
        catalog.change_attachments(target.id, rows, remove_ids)
    except KeyError as exc:      # removed meanwhile by another call
        raise AttachmentNotFound("remove", str(exc.args[0]), target.path) from None
    except ValueError:           # attached meanwhile by another call
        raise AttachmentExists("add", "a source", target.path) from None
    return {"added": [a.public() for a in _load(catalog, rows)], "removed": remove_ids}


def remove_attachment(catalog: Catalog, target: Element, attachment_id: Any) -> str:
    """Detach one attachment from ``target``.

    :raise InvalidRequest: ``attachment_id`` is missing or not a string.
    :raise AttachmentNotFound: it is not attached to ``target``.
    """
    if not isinstance(attachment_id, str) or not attachment_id:
        raise InvalidRequest("attachment_id", "is required and must be a string")
    try:
        catalog.change_attachments(target.id, [], [attachment_id])
    except KeyError:
        raise AttachmentNotFound("attachment_id", attachment_id, target.path) from None
    return attachment_id
