"""Enforcement of the modifiers attached to an element, on every op call.

The modifiers that govern an element are its own attachments plus the cascading ones of
every project that lists it as a member (``attachments.attachments_of``). Auth-policies are
checked first (a denied request spends no rate budget), then rate-limits. A disabled or
deleted modifier is not enforced: disabling it is how one turns a policy off without
detaching it. So that an admin can always lift a policy, an admin's governance ops
(:data:`GOVERNANCE_OPS`) are not subject to modifiers, and neither is the home's operator
(the command line acting on its own home).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..catalog import Catalog, Element
from ..spec.types import TYPES
from .access import Principal
from .attachments import attachments_of
from .policy import PolicyDenied, policy_verdict
from .ratelimit import RateLimited, SlidingWindowLimiter

if TYPE_CHECKING:
    from ..ops.registry import Op

__all__ = ["GOVERNANCE_OPS", "enforce_modifiers"]

GOVERNANCE_OPS = frozenset({"attachments", "compose", "remove-modifier", "enable", "disable"})


def enforce_modifiers(catalog: Catalog, limiter: SlidingWindowLimiter, principal: Principal,
                      element: Element, op: Op, *, count: bool = True) -> None:
    """Apply the element's modifiers (its own and cascaded ones) to one op call.

    :param count: take a request from the rate-limit windows; False checks the policies
        only (an op calling another op on the same element was counted once already).
    :raise PolicyDenied: an auth-policy refuses the principal (403).
    :raise RateLimited: a rate-limit window is full (429, with ``Retry-After``).
    """
    if principal.is_operator or (principal.role == "admin" and op.name in GOVERNANCE_OPS):
        return
    active = [a for a in attachments_of(catalog, element)
              if a.is_modifier and a.source.state == "ready"]
    for a in sorted(active, key=lambda a: a.priority):       # stable: then attach order
        if a.source.element_type == "auth-policy":
            reason = policy_verdict(a.properties(catalog), principal, op.level, op.name)
            if reason:
                raise PolicyDenied(a.source.path, reason)
    limits: list[tuple[tuple[str, ...], int, float, str]] = []
    for a in active:
        if count and a.source.element_type == "rate-limit":
            props = {**_defaults("rate-limit"), **a.properties(catalog)}
            limits.append(((a.id, principal.token_id, element.id), int(props["requests"]),
                           float(props["per_seconds"]), a.source.path))
    if not limits:
        return
    refusal = limiter.acquire([(key, n, s) for key, n, s, _ in limits])
    if refusal is not None:
        wait, index = refusal
        _, n, s, path = limits[index]
        raise RateLimited(path, n, s, max(1, math.ceil(wait)))


def _defaults(type_name: str) -> dict[str, Any]:
    return {k: s["default"] for k, s in TYPES[type_name].properties.items() if "default" in s}
