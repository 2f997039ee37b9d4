"""Element types: their form, their property schema (JSON Schema) and its validation.

The schemas are JSON Schema so the ``schema`` op and OpenAPI can publish them as they are;
validation here is the small subset those schemas use (type, enum, minimum, maximum,
additionalProperties), written out so every failure names the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import InvalidProperty, InvalidRequest

__all__ = ["ElementType", "TYPES", "element_type", "validate_properties"]

_NUMBER = (int, float)


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


def _check(value: Any, schema: dict[str, Any], where: str) -> None:
    kind = schema.get("type")
    ok = {
        None: True,
        "string": isinstance(value, str),
        "boolean": isinstance(value, bool),
        "integer": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, _NUMBER) and not isinstance(value, bool),
        "object": isinstance(value, dict),
        "array": isinstance(value, list),
    }[kind]
    if not ok:
        raise InvalidProperty(where, f"must be of type {kind}")
    if "enum" in schema and value not in schema["enum"]:
        raise InvalidProperty(where, f"must be one of {', '.join(map(str, schema['enum']))}")
    if "minimum" in schema and value < schema["minimum"]:
        raise InvalidProperty(where, f"must be >= {schema['minimum']}")
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        raise InvalidProperty(where, f"must be > {schema['exclusiveMinimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        raise InvalidProperty(where, f"must be <= {schema['maximum']}")
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        raise InvalidProperty(where, f"must be at most {schema['maxLength']} characters")
    if kind == "object":
        names = schema.get("propertyNames", {}).get("enum")
        known = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if names is not None and key not in names:
                raise InvalidProperty(f"{where}.{key}", f"key must be one of {', '.join(names)}")
            if key in known:
                _check(item, known[key], f"{where}.{key}")
            elif extra is False:
                raise InvalidProperty(f"{where}.{key}", "is not a known property")
            elif isinstance(extra, dict):
                _check(item, extra, f"{where}.{key}")


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
        _check(value, kind.properties[key], key)
    filled = {k: s["default"] for k, s in kind.properties.items() if "default" in s}
    filled.update(properties)
    return filled
