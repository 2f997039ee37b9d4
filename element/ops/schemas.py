"""Schema pieces the ops share: memory, element and spec shapes, and small builders.

Each op declares its own request and answer schemas beside its handler; what several ops
answer (a memory, an element, a spec) is a named component here, referenced as
``{"$ref": "#/components/schemas/<Name>"}`` and published once in ``/openapi.json``.
"""

from __future__ import annotations

from typing import Any

from index import (CATEGORIES, LIST_LIMIT_MAX, MAX_AGENT_CHARS, MAX_KEY_CHARS,
                   MAX_SUBJECT_ID_CHARS, SEARCH_LIMIT_MAX, SOURCES, SUBJECT_TYPES)
from source import BRANCHES

from ..errors import ERROR_CLASSES, InvalidRequest
from ..spec.types import TYPES
from .op import Header, Schema

__all__ = ["COMPONENTS", "ref", "nullable", "obj", "TEXT", "TIME", "SLUG", "MEMORY_ID",
           "OBJECT", "STRING", "BOOLEAN", "INTEGER", "SUBJECT", "CATEGORY", "CATEGORY_LIST",
           "BRANCH", "MESSAGE", "EMPTY", "MEMORY_ANSWER", "ELEMENT_ANSWER", "in_range",
           "IDEMPOTENCY_KEY", "SEARCH_LIMIT_MAX", "LIST_LIMIT_MAX", "array", "integer",
           "COMMIT", "REV"]


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Any], required: list[str] | None = None, *,
        closed: bool = True, **extra: Any) -> Schema:
    """An object schema; ``closed`` refuses fields it does not list."""
    schema: Schema = {"type": "object", "properties": properties, **extra}
    if closed:
        schema["additionalProperties"] = False
    if required:
        schema["required"] = required
    return schema


def array(items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "items": items, **extra}


def integer(minimum: int | None = None, maximum: int | None = None, **extra: Any) -> Schema:
    schema: Schema = {"type": "integer", **extra}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def in_range(value: int | None, name: str, default: int, low: int, high: int) -> int:
    """A typed integer argument in [low, high] (``default`` when absent).

    :raise InvalidRequest: out of range.
    """
    if value is None:
        return default
    if not low <= value <= high:
        raise InvalidRequest(name, f"must be from {low} to {high}")
    return value


STRING: Schema = {"type": "string"}
BOOLEAN: Schema = {"type": "boolean"}
INTEGER: Schema = {"type": "integer"}
OBJECT: Schema = {"type": "object"}
TEXT: Schema = {"type": "string", "minLength": 1, "pattern": r"\S"}     # not blank
TIME: Schema = {"type": "string", "format": "date-time"}
SLUG: Schema = {"type": "string", "pattern": r"^[a-z0-9][a-z0-9-]{0,62}$"}
MEMORY_ID: Schema = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
COMMIT: Schema = {"type": "string", "pattern": "^[0-9a-f]{40}$"}
#: A branch name or a commit id.
REV: Schema = {"type": "string", "maxLength": 64,
               "description": "a branch (draft, demo, live) or a commit id"}
BRANCH: Schema = {"type": "string", "enum": list(BRANCHES)}
MESSAGE: Schema = {"type": "string", "maxLength": 500}
CATEGORY: Schema = {"type": "string", "enum": list(CATEGORIES)}
CATEGORY_LIST: Schema = nullable(array(CATEGORY))
SUBJECT: dict[str, Schema] = {
    "subject_type": nullable({"type": "string", "enum": list(SUBJECT_TYPES),
                              "description": "who the memory is about (with subject_id)"}),
    "subject_id": nullable({"type": "string", "minLength": 1,
                            "maxLength": MAX_SUBJECT_ID_CHARS, "pattern": r"\S",
                            "description": "the id of the subject"}),
}
EMPTY: Schema = obj({})
MEMORY_ANSWER: Schema = obj({"memory": ref("Memory")}, ["memory"])
ELEMENT_ANSWER: Schema = obj({"element": ref("Element")}, ["element"])
IDEMPOTENCY_KEY = Header(
    "Idempotency-Key", {"type": "string", "minLength": 1, "maxLength": MAX_KEY_CHARS,
                        "pattern": r"^\S(.*\S)?$"},
    "a retried store with the same key and body returns the first result and stores "
    "nothing new; the same key with another body is refused (422)")

COMPONENTS: dict[str, Schema] = {
    "Error": obj({"error": obj({
        "code": {"type": "string", "examples": ["MEMORY_NOT_FOUND"]},
        "class": {"type": "string", "enum": list(ERROR_CLASSES)},
        "retryable": BOOLEAN, "message": STRING},
        ["code", "class", "retryable", "message"], closed=False)},
        ["error"], closed=False, description="The one error shape of every 4xx and 5xx "
                                             "answer."),
    "Memory": obj({
        "id": MEMORY_ID, "content": STRING, "category": CATEGORY,
        "subject_type": nullable({"type": "string", "enum": list(SUBJECT_TYPES)}),
        "subject_id": nullable(STRING), "context": nullable(STRING),
        "intention": nullable(STRING),
        "agent": nullable({"type": "string", "maxLength": MAX_AGENT_CHARS}),
        "source": {"type": "string", "enum": list(SOURCES)},
        "metadata": OBJECT, "created_at": TIME, "updated_at": TIME,
        "occurred_at": {**TIME, "description": "when the remembered thing happened"},
        "last_accessed_at": nullable(TIME), "access_count": integer(0),
        "embedded": {"type": "boolean",
                     "description": "every lane that has text has a vector"},
        "valid_from": {**TIME, "description": "from when the memory holds (its "
                       "occurred_at)"},
        "valid_until": nullable({**TIME, "description": "null while current; set once a "
                                 "newer memory supersedes it or it is retired"}),
        "superseded_by": nullable({**MEMORY_ID, "description": "the memory that "
                                   "superseded it"})},
        ["id", "content", "category", "subject_type", "subject_id", "context", "intention",
         "agent", "source", "metadata", "created_at", "updated_at", "occurred_at",
         "last_accessed_at", "access_count", "embedded"], closed=False),
    "Element": obj({
        "id": STRING, "path": STRING, "circle": STRING, "slug": nullable(STRING),
        "name": STRING, "element_type": {"type": "string", "enum": sorted(TYPES)},
        "form": {"type": "string", "enum": ["atom", "compound", "manifest"]},
        "parent_id": nullable(STRING),
        "state": {"type": "string", "enum": ["ready", "disabled", "deleted"]},
        "description": nullable(STRING), "properties": OBJECT, "meta": OBJECT,
        "version": integer(1), "created_at": STRING, "updated_at": STRING},
        ["id", "path", "circle", "slug", "name", "element_type", "form", "parent_id",
         "state", "description", "properties", "meta", "version", "created_at",
         "updated_at"]),
    "Spec": obj({
        "element_type": {"type": "string", "enum": sorted(TYPES)},
        "slug": nullable(STRING), "name": STRING, "form": STRING,
        "description": nullable(STRING), "properties": OBJECT},
        ["element_type", "slug", "name", "form", "description", "properties"]),
    "ActivityEvent": obj({
        "seq": {"type": "integer", "description": "also the SSE id"},
        "element_id": nullable(STRING), "path": nullable(STRING), "circle": STRING,
        "op": STRING, "principal": nullable(STRING), "detail": OBJECT, "at": STRING},
        ["seq", "element_id", "path", "circle", "op", "principal", "detail", "at"],
        description="One lifecycle or activity event (the data of an SSE message)."),
    "Version": obj({"version": integer(1), "label": {"type": "string", "pattern": r"^v\d+$"},
                    "spec": ref("Spec"), "message": STRING, "created_at": STRING},
                   ["version", "label", "spec", "message", "created_at"]),
    "Attachment": obj({
        "attachment_id": STRING, "ref": STRING, "version_pin": nullable(INTEGER),
        "source": OBJECT, "target": STRING, "is_modifier": BOOLEAN,
        "kind": {"type": "string", "enum": ["modifier", "resource"]},
        "cascade_policy": {"type": "string", "enum": ["none", "members"]},
        "priority": INTEGER, "created_at": STRING, "created_by": nullable(STRING),
        "via": STRING},
        ["attachment_id", "ref", "source", "target", "is_modifier", "cascade_policy",
         "priority"]),
}
# One property schema per element type, as the types publish them.
for _name, _kind in TYPES.items():
    COMPONENTS[f"Properties.{_name}"] = _kind.json_schema()
