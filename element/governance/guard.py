"""What only an admin may change, whatever the path the change takes.

Two things bind the other principals of a circle, so only its admin changes them:

* the spec of a **governance element** (an ``auth-policy`` or a ``rate-limit``): a member
  who could rewrite the policy that denies it would not be denied;
* a project's **promotion state** (``properties.environments``): ``promote`` copies the
  demo snapshot to live, so a forged snapshot would be trusted.

A change reaches a spec by many paths: ``create``, ``spec_update``, a ``git push`` to draft,
``source_merge`` (and anything else that moves draft, caught by the lazy mirror),
``import_bundle`` (a new element or an overwrite). Each of them asks :func:`guard_change`
(or :func:`governed_change` where it has no principal and must refuse by itself), so the
rule is written once, here. The home's operator is an admin.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Forbidden
from .access import Principal
from .attachments import MODIFIER_TYPES

__all__ = ["GOVERNANCE_TYPES", "ADMIN_PROPERTIES", "AdminOnly", "governed_change",
           "guard_change", "may_govern"]

#: Element types whose spec governs other principals (modifiers).
GOVERNANCE_TYPES = MODIFIER_TYPES
#: Properties, per element type, that only an admin sets.
ADMIN_PROPERTIES: dict[str, frozenset[str]] = {"project": frozenset({"environments"})}


class AdminOnly(Forbidden):
    """The change would alter governance (a modifier's spec, promotion state)."""

    code = "ADMIN_ONLY"


def may_govern(principal: Principal | None) -> bool:
    """An admin of the circle, or the home's operator (who is one)."""
    return principal is not None and principal.role == "admin"


def governed_change(element_type: str, old: Mapping[str, Any] | None,
                    new: Mapping[str, Any] | None) -> str | None:
    """Why going from spec ``old`` to spec ``new`` (None: no element) of an element of
    ``element_type`` needs an admin, or None when it does not. Pure."""
    if old == new:
        return None
    if element_type in GOVERNANCE_TYPES:
        if old is None:
            return None   # a new modifier binds nobody until it is attached (compose)
        return (f"a {element_type} governs other principals: only an admin of the circle "
                "changes its spec")
    old_props = (old or {}).get("properties") or {}
    new_props = (new or {}).get("properties") or {}
    for key in sorted(ADMIN_PROPERTIES.get(element_type, ())):
        if old_props.get(key) != new_props.get(key):
            return (f"properties.{key} of a {element_type} is promotion state: only an admin "
                    "changes it (POST .../ops/promote)")
    return None


def guard_change(principal: Principal | None, element_type: str,
                 old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> None:
    """:raise AdminOnly: ``principal`` is not an admin and the change is governed."""
    if may_govern(principal):
        return
    reason = governed_change(element_type, old, new)
    if reason:
        raise AdminOnly(reason)
