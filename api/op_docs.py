"""The bodies section of docs/api.md, generated from the ops' declared schemas.

``python -m api.openapi --bodies`` prints it; ``tests/api/test_api_docs.py`` fails when the
copy in docs/api.md is stale. Each op gets its query parameters, headers, request fields and
answer fields as tables, from the same schemas ``element.invoke`` checks requests against
and ``/openapi.json`` publishes; the shapes several ops share (Memory, Element...) follow.
"""

from __future__ import annotations

import json
from typing import Any

from element import COMPONENTS, Op, registry

__all__ = ["bodies_markdown", "type_text"]

#: Shared shapes worth a table of their own (the element types' property schemas are
#: documented with the types, in docs/platform.md and docs/memory-runtime.md).
SHARED = ("Memory", "Element", "Spec", "Version", "ActivityEvent", "Attachment", "Error")


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def type_text(schema: dict[str, Any]) -> str:
    """A schema as a short type: ``string``, ``integer 1..100``, ``[Memory]``,
    ``{content, category?}``, ``"fact" | "preference"``, ``X or null``."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            parts = [type_text(part) for part in schema[key]]
            return " or ".join(p for p in parts if p != "null") + (
                " or null" if "null" in parts else "")
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        low, high = schema.get("minimum"), schema.get("maximum")
        if low is not None and high is not None:
            return f"{kind} {low}..{high}"
        return f"{kind} >= {low}" if low is not None else str(kind)
    if kind == "string":
        return f"string (<= {schema['maxLength']} chars)" if "maxLength" in schema \
            else "string"
    if kind == "array":
        items = type_text(schema.get("items", {}))
        low, high = schema.get("minItems"), schema.get("maxItems")
        if high is None:
            return f"[{items}]"
        return f"[{items}] ({low}..{high} items)" if low is not None else \
            f"[{items}] (<= {high} items)"
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties") or {}
        extra = schema.get("additionalProperties")
        if properties:
            required = set(schema.get("required", []))
            return "{" + ", ".join(f"{name}{'' if name in required else '?'}: "
                                   f"{type_text(sub)}"
                                   for name, sub in properties.items()) + "}"
        if isinstance(extra, dict):
            return "{string: " + type_text(extra) + "}"
        return "object"
    if kind is None:
        return "any"
    return str(kind)


def _notes(schema: dict[str, Any]) -> str:
    notes = []
    if schema.get("description"):
        notes.append(str(schema["description"]))
    for part in schema.get("anyOf", []):
        if part.get("description"):
            notes.append(str(part["description"]))
    if "default" in schema:
        notes.append(f"default {json.dumps(schema['default'])}")
    return "; ".join(notes)


def _fields(title: str, schema: dict[str, Any]) -> list[str]:
    """A table of an object schema's fields, or one line for any other schema."""
    if "$ref" in schema or not schema.get("properties"):
        return [f"{title}: {_cell(type_text(schema))}", ""]
    required = set(schema.get("required", []))
    lines = [f"| {title} | type | required | notes |", "|---|---|---|---|"]
    for name, sub in schema["properties"].items():
        lines.append(f"| `{name}` | {_cell(type_text(sub))} | "
                     f"{'yes' if name in required else ''} | {_cell(_notes(sub))} |")
    if schema.get("additionalProperties") is not False:
        lines.append("| (more) | | | other fields may be added |")
    dependent = schema.get("dependentRequired")
    if dependent:
        lines.append("")
        lines.append("Together: " + "; ".join(f"`{k}` needs `{', '.join(v)}`"
                                              for k, v in dependent.items()) + ".")
    return lines + [""]


def _op(op: Op) -> list[str]:
    applies = "any element" if op.types is None else ", ".join(sorted(op.types))
    lines = [f"### `{op.name}`", "",
             f"`{op.method} /ops/{op.path}` ({op.level.title()}; {applies}) answers "
             f"{op.status}. {op.summary}." + (f" {op.description}" if op.description
                                             else ""), ""]
    if op.query:
        lines += _fields("query parameter", {"type": "object",
                                             "properties": dict(op.query),
                                             "additionalProperties": False})
    if op.headers:
        lines += ["| header | type | required | notes |", "|---|---|---|---|"]
        lines += [f"| `{h.name}` | {_cell(type_text(h.schema))} | "
                  f"{'yes' if h.required else ''} | {_cell(h.description)} |"
                  for h in op.headers] + [""]
    if op.request_content is not None:
        lines += ["Body: " + ", ".join(f"`{kind}`: {_cell(schema.get('description', ''))}"
                                       for kind, schema in op.request_content.items()), ""]
    elif op.request is None:
        lines += ["No body.", ""]
    elif not op.request.get("properties"):
        lines += ["Body: `{}` (or none).", ""]
    else:
        lines += _fields("body field", op.request)
    if op.content is not None:
        lines += ["Answer: " + ", ".join(f"`{kind}`" for kind in op.content) + ".", ""]
    elif op.response is not None:
        lines += _fields("answer field", op.response)
    return lines


def bodies_markdown() -> str:
    """Every op's request and answer, then the shared shapes, as markdown."""
    lines: list[str] = []
    for op in registry():
        lines += _op(op)
    lines += ["### Shared shapes", ""]
    for name in SHARED:
        lines += [f"#### {name}", ""] + _fields("field", COMPONENTS[name])
    return "\n".join(lines).rstrip("\n") + "\n"
