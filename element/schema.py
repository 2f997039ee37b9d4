"""The part of JSON Schema we check ourselves, so every failure names its field.

Element properties and op requests are described in JSON Schema, so the ``schema`` op and
``/openapi.json`` publish them as they are. Two depths of checking use one walker:

``shape``  what every op request gets in ``element.invoke``: JSON types (a boolean is a JSON
           boolean, never the string "no"), required fields and unknown fields
           (``additionalProperties: false``), recursively. Ranges, enums and patterns are
           the op's to check, so that its own error codes (``MEMORY_INVALID_CATEGORY``...)
           stay what clients see.
``full``   element properties: the shape plus ``enum``, ``const``, bounds and lengths.

Keywords understood: type, anyOf (alternatives of type, e.g. nullable), properties,
additionalProperties, required, propertyNames.enum, items, enum, const, minimum, maximum,
exclusiveMinimum, minLength, maxLength. Anything else is documentation only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

__all__ = ["Problem", "check", "describe", "text_problem"]

Problem = tuple[str, str]       # (where, reason)

#: A lone surrogate: JSON allows "\ud800", but no file, log or database can store it.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: NUL: JSON allows "\u0000", but PostgreSQL stores it in no text column (a file would,
#: and a home could then never move to PostgreSQL): one rule for both backends.
_NUL = "\x00"

_JSON_TYPES = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}
_ARTICLE = {"string": "a string", "boolean": "a JSON boolean (true or false)",
            "integer": "an integer", "number": "a number", "object": "an object",
            "array": "a list", "null": "null"}


def describe(types: list[str]) -> str:
    """``["string", "null"]`` -> ``"a string or null"``."""
    return " or ".join(_ARTICLE.get(t, t) for t in types)


def _types(schema: Mapping[str, Any]) -> list[str] | None:
    """The JSON types a schema admits, or None when it says nothing of types."""
    if "type" in schema:
        kind = schema["type"]
        return list(kind) if isinstance(kind, list) else [kind]
    alternatives = schema.get("anyOf")
    if isinstance(alternatives, list) and alternatives and \
            all(isinstance(a, dict) and "type" in a for a in alternatives):
        found: list[str] = []
        for alternative in alternatives:
            found += [t for t in _types(alternative) or [] if t not in found]
        return found
    return None


def _branch(value: Any, schema: Mapping[str, Any]) -> Mapping[str, Any]:
    """The anyOf alternative whose type fits ``value`` (the schema itself if none)."""
    for alternative in schema.get("anyOf") or []:
        kinds = _types(alternative) if isinstance(alternative, dict) else None
        if kinds and any(_JSON_TYPES[k](value) for k in kinds if k in _JSON_TYPES):
            return dict(alternative)
    return schema


def check(value: Any, schema: Mapping[str, Any], where: str, *, full: bool = False,
          types: bool = True) -> Problem | None:
    """The first problem of ``value`` against ``schema``, or None when it fits.

    ``types=False`` leaves JSON types to the caller (the memory ops, whose runtime checks
    them with the sheet's error codes) and checks only which fields are given, that the
    required ones are, and that text is text.
    """
    kinds = _types(schema)
    if types and kinds is not None and not any(_JSON_TYPES[k](value) for k in kinds
                                               if k in _JSON_TYPES):
        return where, f"must be {describe(kinds)}"
    if isinstance(value, str):
        unstorable = text_problem(value)
        if unstorable:
            return where, unstorable
    schema = _branch(value, schema)
    if full:
        problem = _check_value(value, schema, where)
        if problem:
            return problem
    if isinstance(value, dict):
        return _check_object(value, schema, where, full, types)
    if isinstance(value, list):
        items = schema.get("items")
        for i, item in enumerate(value):
            problem = check(item, items, f"{where}[{i}]", full=full, types=types) \
                if isinstance(items, dict) else _unicode(item, f"{where}[{i}]")
            if problem:
                return problem
    return None


def text_problem(text: str) -> str | None:
    """Why ``text`` cannot be stored as text anywhere we keep it, or None."""
    if _SURROGATE.search(text):
        return "must be valid Unicode text (it holds a lone surrogate)"
    if _NUL in text:
        return "must not hold a NUL character (no database stores one in text)"
    return None


def _unicode(value: Any, where: str) -> Problem | None:
    """Where the schema says nothing of a value's content: only that its text is text."""
    return check(value, {}, where)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _check_object(value: dict[str, Any], schema: Mapping[str, Any], where: str,
                  full: bool, types: bool) -> Problem | None:
    known: Mapping[str, Any] = schema.get("properties") or {}
    extra = schema.get("additionalProperties", True)
    names = (schema.get("propertyNames") or {}).get("enum")
    for key, item in value.items():
        at = _join(where, key)
        if text_problem(key):
            return where, f"holds a field name that {text_problem(key)}"
        if names is not None and key not in names:
            return at, f"is not one of {', '.join(names)}"
        if key in known:
            problem = check(item, known[key], at, full=full, types=types)
        elif extra is False:
            fields = ", ".join(sorted(known)) or "none"
            return at, f"is not a field here (fields: {fields})"
        elif isinstance(extra, dict):
            problem = check(item, extra, at, full=full, types=types)
        else:
            problem = _unicode(item, at)
        if problem:
            return problem
    for key in schema.get("required") or []:
        if key not in value:
            return _join(where, key), "is required"
    return None


def _check_value(value: Any, schema: Mapping[str, Any], where: str) -> Problem | None:
    if "const" in schema and value != schema["const"]:
        return where, f"must be {schema['const']!r}"
    if "enum" in schema and value not in schema["enum"]:
        return where, f"must be one of {', '.join(map(str, schema['enum']))}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            return where, f"must be >= {schema['minimum']}"
        if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
            return where, f"must be > {schema['exclusiveMinimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            return where, f"must be <= {schema['maximum']}"
    if isinstance(value, str):
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            return where, f"must be at most {schema['maxLength']} characters"
        if "minLength" in schema and len(value) < schema["minLength"]:
            return where, f"must be at least {schema['minLength']} characters"
    return None
