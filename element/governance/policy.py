"""Auth-policies: the rules an attached ``auth-policy`` element holds, and their verdict.

A policy's properties are ``allow`` and ``deny`` lists of rules. A rule matches a principal
when each identity key it has (``principal``: token name or id; ``role``) matches; a rule
without either matches everyone. ``levels`` and ``ops`` limit which requests a rule speaks
about. Deny wins. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Forbidden
from .access import LEVELS, Principal

__all__ = ["PolicyDenied", "check_policy_rules", "policy_verdict"]

_RULE_KEYS = {"principal", "role", "levels", "ops"}


class PolicyDenied(Forbidden):
    """An attached auth-policy refuses this principal this op."""

    code = "POLICY_DENIED"

    def __init__(self, policy: str, reason: str) -> None:
        super().__init__(f"auth-policy {policy!r}: {reason}")
        self.policy = policy


def check_policy_rules(properties: Mapping[str, Any]) -> str | None:
    """Why an auth-policy's ``allow``/``deny`` rules are malformed, or None when sound."""
    for side in ("allow", "deny"):
        rules = properties.get(side, [])
        if not isinstance(rules, list):
            return f"{side} must be a list of rules"
        for i, rule in enumerate(rules):
            where = f"{side}[{i}]"
            if not isinstance(rule, dict):
                return f"{where} must be an object"
            unknown = set(rule) - _RULE_KEYS
            if unknown:
                return f"{where}.{sorted(unknown)[0]} is not a rule field " \
                       f"({', '.join(sorted(_RULE_KEYS))})"
            for key in ("principal", "role"):
                if key in rule and not isinstance(rule[key], str):
                    return f"{where}.{key} must be a string"
            if "levels" in rule and (not isinstance(rule["levels"], list)
                                     or not set(rule["levels"]) <= set(LEVELS)):
                return f"{where}.levels must be a list of {', '.join(LEVELS)}"
            if "ops" in rule and (not isinstance(rule["ops"], list)
                                  or not all(isinstance(o, str) for o in rule["ops"])):
                return f"{where}.ops must be a list of op names"
    return None


def _applies(rule: Mapping[str, Any], level: str, op_name: str) -> bool:
    return ("levels" not in rule or level in rule["levels"]) and \
        ("ops" not in rule or op_name in rule["ops"])


def _matches(rule: Mapping[str, Any], principal: Principal) -> bool:
    if "role" in rule and rule["role"] != principal.role:
        return False
    if "principal" in rule and rule["principal"] not in {principal.name, principal.token_id,
                                                         principal.label}:
        return False
    return True


def policy_verdict(properties: Mapping[str, Any], principal: Principal, level: str,
                   op_name: str) -> str | None:
    """Pure: why the policy refuses ``principal`` an op at ``level``, or None if it allows.

    A rule matches a principal when each identity key it has (``principal``: token name or
    id; ``role``) matches; a rule without either matches everyone. ``levels`` and ``ops``
    limit which requests a rule speaks about. Deny wins. When some allow rules speak about
    the request, the principal must match one of them; otherwise allow says nothing. A
    malformed policy refuses everything (it fails closed).
    """
    problem = check_policy_rules(properties)
    if problem:
        return f"the policy is malformed ({problem}); refusing"
    for rule in properties.get("deny", []):
        if _applies(rule, level, op_name) and _matches(rule, principal):
            return f"denies {principal.label} {level} ops"
    speaking = [r for r in properties.get("allow", []) if _applies(r, level, op_name)]
    if speaking and not any(_matches(r, principal) for r in speaking):
        return f"does not allow {principal.label} {level} ops"
    return None
