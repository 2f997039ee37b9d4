"""Element types: their form, their property schema (JSON Schema) and its validation.

The schemas are JSON Schema so the ``schema`` op and OpenAPI can publish them as they are;
``element/schema.py`` checks them, naming the field of every failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidProperty, InvalidRequest
from ..schema import check

__all__ = ["ElementType", "TYPES", "element_type", "validate_properties"]

@dataclass(frozen=True)
class ElementType:
    name: str
    form: str                      # atom | compound | manifest
    category: str
    properties: dict[str, dict[str, Any]] = field(default_factory=dict)
    ports: dict[str, dict[str, Any]] = field(default_factory=dict)

    def json_schema(self) -> dict[str, Any]:
        return {"type": "object", "properties": self.properties, "additionalProperties": False}


_MEMORY_PROPERTIES: dict[str, dict[str, Any]] = {
    "description": {"type": "string", "maxLength": 2000},
    "scope": {"type": "string", "enum": ["private", "shared"], "default": "private"},
    "subject_scoping": {"type": "boolean", "default": False},
    "conscious_access": {"type": "string", "enum": ["none", "read", "read_write"],
                         "default": "none"},
    "max_memories": {"type": "integer", "minimum": 1, "default": 1000},
    "max_per_subject": {"type": "integer", "minimum": 1, "default": 200},
    "relevance_threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.4},
    "association_weights": {
        "type": "object", "additionalProperties": False,
        "properties": {lane: {"type": "number", "minimum": 0}
                       for lane in ("content", "context", "intention")}},
    "retention": {"type": "object",
                  "propertyNames": {"enum": ["fact", "preference", "procedure", "context",
                                             "correction"]},
                  "additionalProperties": {"type": "number", "exclusiveMinimum": 0}},
}
#: What a promotion of a memory element to demo or live must pass (docs/evals.md): its
#: recall cases' pass rate, no case that passed before failing, and which properties only
#: an admin's promotion may change.
_MEMORY_PROPERTIES["promotion_gates"] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "eval": {"type": "object", "additionalProperties": False, "properties": {
            "min_pass_rate": {"type": "number", "minimum": 0, "maximum": 1},
            "no_regression": {"type": "boolean"}}},
        "protected": {"type": "array", "maxItems": len(_MEMORY_PROPERTIES),
                      "items": {"type": "string", "enum": sorted(_MEMORY_PROPERTIES)}}}}

TYPES: dict[str, ElementType] = {t.name: t for t in [
    ElementType("circle", "compound", "namespace"),
    ElementType("project", "manifest", "composition", {
        "members": {"type": "array", "items": {"type": "string"}},
        "environments": {"type": "object"}}),
    ElementType("memory", "atom", "data", _MEMORY_PROPERTIES),
    ElementType("triformer", "compound", "actor", {
        "subconscious": {"type": "object"},
        "evaluator": {"type": "object"}}),
    ElementType("rate-limit", "atom", "modifier", {
        "requests": {"type": "integer", "minimum": 1, "default": 60},
        "per_seconds": {"type": "number", "exclusiveMinimum": 0, "default": 60}}),
    ElementType("auth-policy", "atom", "modifier", {
        "allow": {"type": "array"}, "deny": {"type": "array"}}),
    ElementType("prompt", "atom", "resource", {"text": {"type": "string"}}),
]}


def element_type(name: Any) -> ElementType:
    """:raise InvalidRequest: ``name`` is not a registered type."""
    if not isinstance(name, str) or name not in TYPES:
        raise InvalidRequest("element_type", f"must be one of {', '.join(sorted(TYPES))}")
    return TYPES[name]


def validate_properties(type_name: str, properties: Any) -> dict[str, Any]:
    """Check ``properties`` against the type's schema; returns them with defaults filled in.

    :raise InvalidProperty: naming the first field that does not fit.
    """
    kind = element_type(type_name)
    if not isinstance(properties, dict):
        raise InvalidRequest("properties", "must be an object")
    for key, value in properties.items():
        if key not in kind.properties:
            raise InvalidProperty(key, "is not a known property of "
                                  f"{type_name} elements")
        problem = check(value, kind.properties[key], key, full=True)
        if problem:
            raise InvalidProperty(*problem)
    filled = {k: s["default"] for k, s in kind.properties.items() if "default" in s}
    filled.update(properties)
    return filled
