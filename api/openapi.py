"""The OpenAPI 3.1 document, generated from the op registry (``element/ops.py``).

``GET /openapi.json`` (public) answers :func:`build_document`. Every op of the registry
appears with its method and auth level (``x-triform-op``, ``x-triform-level``) at
``/api/{circle}/ops/<path>`` when it applies to circles and at
``/api/{circle}/{slug}/ops/<path>`` when it applies to other elements (an element path
holds a slash, so it is two path parameters; memory ops live only under the second).

Request and response bodies come from :data:`OP_SCHEMAS`, a table keyed by op name. Ops
without an entry get a generic object schema; every error response, whatever the op,
is the one shape of ``api/errors.py`` (component ``Error``). An op whose handler is not
built yet also documents ``501`` (``NOT_IMPLEMENTED``), so the document never promises
what the server cannot do.

``python -m api.openapi`` prints the document; ``python -m api.openapi --markdown``
prints the op table of ``docs/api.md`` (a test checks the two agree).
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, jsonify

from element.home import SLUG_RE
from element.ops import REGISTRY, Op
from element.types import TYPES
from index.records import (CATEGORIES, MAX_AGENT_CHARS, MAX_KEY_CHARS, MAX_SUBJECT_ID_CHARS,
                           SOURCES, SUBJECT_TYPES)
from index.store import LIST_LIMIT_MAX, SEARCH_LIMIT_MAX

from .errors import STATUS
from .events import MAX_LIMIT, MAX_TIMEOUT

__all__ = ["blueprint", "build_document", "OP_SCHEMAS", "OpDoc", "ops_markdown",
           "operation_id", "variants"]

blueprint = Blueprint("openapi", __name__)

OPENAPI_VERSION = "3.1.0"
API_VERSION = "0.1.0"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


# -- shared schemas ------------------------------------------------------------------------

_TEXT = {"type": "string", "minLength": 1, "pattern": r"\S"}   # not blank
_TIME = {"type": "string", "format": "date-time"}
_SLUG = {"type": "string", "pattern": SLUG_RE.pattern}
_MEMORY_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}
_OBJECT = {"type": "object"}

SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object", "required": ["error"],
        "description": "The one error shape of every 4xx and 5xx answer.",
        "properties": {"error": {
            "type": "object", "required": ["code", "class", "retryable", "message"],
            "properties": {
                "code": {"type": "string", "examples": ["MEMORY_NOT_FOUND"]},
                "class": {"type": "string", "enum": sorted(STATUS)},
                "retryable": {"type": "boolean"},
                "message": {"type": "string"}}}}},
    "Memory": {
        "type": "object", "additionalProperties": False,
        "required": ["id", "content", "category", "subject_type", "subject_id", "context",
                     "intention", "agent", "source", "metadata", "created_at",
                     "updated_at", "occurred_at", "last_accessed_at", "access_count",
                     "embedded"],
        "properties": {
            "id": _MEMORY_ID, "content": {"type": "string"},
            "category": {"type": "string", "enum": list(CATEGORIES)},
            "subject_type": _nullable({"type": "string", "enum": list(SUBJECT_TYPES)}),
            "subject_id": _nullable({"type": "string"}),
            "context": _nullable({"type": "string"}),
            "intention": _nullable({"type": "string"}),
            "agent": _nullable({"type": "string"}),
            "source": {"type": "string", "enum": list(SOURCES)},
            "metadata": _OBJECT, "created_at": _TIME, "updated_at": _TIME,
            "occurred_at": {**_TIME, "description": "when the remembered thing happened"},
            "last_accessed_at": _nullable(_TIME),
            "access_count": {"type": "integer", "minimum": 0},
            "embedded": {"type": "boolean",
                         "description": "every lane that has text has a vector"}}},
    "MemoryAnswer": {"type": "object", "required": ["memory"], "additionalProperties": False,
                     "properties": {"memory": _ref("Memory")}},
    "Element": {
        "type": "object", "additionalProperties": False,
        "required": ["id", "path", "circle", "slug", "name", "element_type", "form",
                     "parent_id", "state", "description", "properties", "meta", "version",
                     "created_at", "updated_at"],
        "properties": {
            "id": {"type": "string"}, "path": {"type": "string"},
            "circle": {"type": "string"}, "slug": _nullable({"type": "string"}),
            "name": {"type": "string"},
            "element_type": {"type": "string", "enum": sorted(TYPES)},
            "form": {"type": "string", "enum": ["atom", "compound", "manifest"]},
            "parent_id": _nullable({"type": "string"}),
            "state": {"type": "string", "enum": ["ready", "disabled", "deleted"]},
            "description": _nullable({"type": "string"}),
            "properties": _OBJECT, "meta": _OBJECT,
            "version": {"type": "integer", "minimum": 1},
            "created_at": {"type": "string"}, "updated_at": {"type": "string"}}},
    "Spec": {
        "type": "object", "additionalProperties": False,
        "required": ["element_type", "slug", "name", "form", "description", "properties"],
        "properties": {
            "element_type": {"type": "string", "enum": sorted(TYPES)},
            "slug": _nullable({"type": "string"}), "name": {"type": "string"},
            "form": {"type": "string"}, "description": _nullable({"type": "string"}),
            "properties": _OBJECT}},
    "SpecAnswer": {"type": "object", "required": ["spec", "version"],
                   "additionalProperties": False,
                   "properties": {"spec": _ref("Spec"),
                                  "version": {"type": "integer", "minimum": 1},
                                  "warnings": {"type": "array",
                                               "items": {"type": "string"}}}},
    "ActivityEvent": {
        "type": "object",
        "description": "One lifecycle or activity event (the data of an SSE message).",
        "required": ["seq", "element_id", "path", "circle", "op", "principal", "detail",
                     "at"],
        "properties": {
            "seq": {"type": "integer", "description": "also the SSE id"},
            "element_id": _nullable({"type": "string"}),
            "path": _nullable({"type": "string"}), "circle": {"type": "string"},
            "op": {"type": "string"}, "principal": _nullable({"type": "string"}),
            "detail": _OBJECT, "at": {"type": "string"}}},
    "Generic": {"type": "object", "description": "An op-specific JSON object."},
}
# One property schema per element type, as the types publish them.
for _name, _kind in TYPES.items():
    SCHEMAS[f"Properties.{_name}"] = _kind.json_schema()

_SUBJECT = {
    "subject_type": _nullable({"type": "string", "enum": list(SUBJECT_TYPES)}),
    "subject_id": _nullable({"type": "string", "minLength": 1,
                             "maxLength": MAX_SUBJECT_ID_CHARS, "pattern": r"\S"}),
}
# subject_type and subject_id: both or neither.
_BOTH_OR_NEITHER = {"dependentRequired": {"subject_type": ["subject_id"],
                                          "subject_id": ["subject_type"]}}


def _body(properties: dict[str, Any], required: list[str] | None = None,
          **extra: Any) -> dict[str, Any]:
    schema = {"type": "object", "additionalProperties": False, "properties": properties,
              **extra}
    if required:
        schema["required"] = required
    return schema


def _q(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    param = {"name": name, "in": "query", "required": False, "schema": schema}
    if description:
        param["description"] = description
    return param


def _h(name: str, schema: dict[str, Any], description: str,
       required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": required, "schema": schema,
            "description": description}


@dataclass(frozen=True)
class OpDoc:
    """What the document says about one op beyond the registry's method, path and level."""

    request: dict[str, Any] | None = None     # JSON body schema; None: no body
    body_required: bool = False
    response: dict[str, Any] | None = None    # success JSON schema; None: generic object
    status: int = 200
    query: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, Any]] = field(default_factory=list)
    content: dict[str, dict[str, Any]] | None = None   # success media types, if not JSON
    links: tuple[str, ...] = ()               # ops that take the answer's memory id
    description: str = ""


_EMPTY_BODY = _body({})

#: Request and response schemas per op name. Ops missing here get a generic object.
OP_SCHEMAS: dict[str, OpDoc] = {
    "store": OpDoc(
        request=_body({
            "content": {**_TEXT, "description": "what the memory says (<= 16 KiB UTF-8)"},
            "category": {"type": "string", "enum": list(CATEGORIES)},
            **_SUBJECT,
            "context": _nullable({"type": "string",
                                  "description": "the conversation window it was formed in"}),
            "intention": _nullable({"type": "string",
                                    "description": "the goal of the turn it was formed in"}),
            "agent": _nullable({"type": "string", "minLength": 1, "pattern": r"\S",
                                "maxLength": MAX_AGENT_CHARS}),
            "source": {"type": "string", "enum": list(SOURCES), "default": "api"},
            "metadata": _nullable(_OBJECT),
            "occurred_at": _nullable({**_TIME, "description": "when the remembered thing "
                                      "happened (a date alone is its midnight UTC); "
                                      "default: now"})},
            ["content", "category"], **_BOTH_OR_NEITHER),
        body_required=True, status=201, links=("get", "update", "delete"),
        response=_body({"memory": _ref("Memory"),
                        "evicted": {"type": "array", "items": _MEMORY_ID},
                        "warnings": {"type": "array", "items": {"type": "string"}}},
                       ["memory", "evicted", "warnings"]),
        headers=[_h("Idempotency-Key", {"type": "string", "minLength": 1,
                                        "maxLength": MAX_KEY_CHARS, "pattern": r"^\S(.*\S)?$"},
                    "a retried store with the same key returns the first result and "
                    "stores nothing new")],
        description="At max_memories the least-accessed, oldest memory is evicted "
                    "(within the subject's own rows when subject_scoping is on)."),
    "search": OpDoc(
        request=_body({
            "query": _TEXT,
            "context": _nullable({"type": "string",
                                  "description": "the current conversation window"}),
            "intention": _nullable({"type": "string",
                                    "description": "the current turn's goal"}),
            **_SUBJECT,
            "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT_MAX,
                      "default": 10},
            "categories": _nullable({"type": "array",
                                     "items": {"type": "string", "enum": list(CATEGORIES)}}),
            "occurred_after": _nullable({**_TIME, "description": "exclusive bound"}),
            "occurred_before": _nullable({**_TIME, "description": "exclusive bound"})},
            ["query"], **_BOTH_OR_NEITHER),
        body_required=True,
        response=_body({
            "results": {"type": "array", "items": _body({
                "memory": _ref("Memory"), "score": {"type": "number"},
                "lanes": _body({lane: _nullable({"type": "number"})
                                for lane in ("content", "context", "intention")},
                               ["content", "context", "intention"])},
                ["memory", "score", "lanes"])},
            "fallback": {"type": "string", "enum": ["text"],
                         "description": "present when vectors were unavailable"}},
            ["results"]),
        description="score = wc*sim(query, content) + wx*sim(context, stored context) + "
                    "wi*sim(intention, stored intention); results under "
                    "relevance_threshold are dropped. A time the query names (\"last "
                    "week\", \"in May 2023\") boosts memories that occurred then."),
    "list": OpDoc(
        query=[_q("category", {"type": "string", "enum": list(CATEGORIES)}),
               _q("subject_type", {"type": "string", "enum": list(SUBJECT_TYPES)}),
               _q("subject_id", {"type": "string", "minLength": 1, "pattern": r"\S",
                                 "maxLength": MAX_SUBJECT_ID_CHARS},
                  "needs subject_type"),
               _q("agent", {"type": "string"}),
               _q("source", {"type": "string", "enum": list(SOURCES)}),
               _q("created_after", _TIME, "exclusive bound"),
               _q("created_before", _TIME, "exclusive bound"),
               _q("occurred_after", _TIME, "exclusive bound"),
               _q("occurred_before", _TIME, "exclusive bound"),
               _q("limit", {"type": "integer", "minimum": 1, "maximum": LIST_LIMIT_MAX,
                            "default": 50}),
               _q("cursor", {"type": "string", "pattern": r"^s\d{1,18}$"},
                  "next_cursor of the previous page")],
        response=_body({"memories": {"type": "array", "items": _ref("Memory")},
                        "next_cursor": _nullable({"type": "string"})},
                       ["memories", "next_cursor"]),
        description="Newest first; filters combine with AND."),
    "get": OpDoc(response=_ref("MemoryAnswer")),
    "update": OpDoc(
        request=_body({"content": _TEXT,
                       "category": {"type": "string", "enum": list(CATEGORIES)},
                       "context": _nullable({"type": "string",
                                             "description": "empty clears it"}),
                       "intention": _nullable({"type": "string",
                                               "description": "empty clears it"}),
                       "metadata": _nullable(_OBJECT)}),
        response=_ref("MemoryAnswer"),
        description="A changed text is re-embedded; subject and agent never change."),
    "delete": OpDoc(request=_EMPTY_BODY,
                    response=_body({"deleted": _MEMORY_ID}, ["deleted"])),
    "forget_subject": OpDoc(
        request=_body({"subject_type": {"type": "string", "enum": list(SUBJECT_TYPES)},
                       "subject_id": _SUBJECT["subject_id"]["anyOf"][0]},
                      ["subject_type", "subject_id"]),
        body_required=True,
        headers=[_h("X-Confirm", {"type": "string", "enum": ["destructive"]},
                    "without it the answer is 400 MEMORY_CONFIRM_REQUIRED",
                    required=True)],
        response=_body({"deleted": {"type": "integer", "minimum": 0},
                        "ids": {"type": "array", "items": _MEMORY_ID}},
                       ["deleted", "ids"]),
        description="Deletes every memory about the subject; general memories stay."),
    "stats": OpDoc(response=_body({
        "total": {"type": "integer", "minimum": 0},
        "by_category": _body({c: {"type": "integer", "minimum": 0} for c in CATEGORIES},
                             list(CATEGORIES)),
        "by_subject": {"type": "array", "items": _body({
            "subject_type": {"type": "string", "enum": list(SUBJECT_TYPES)},
            "subject_id": {"type": "string"}, "count": {"type": "integer", "minimum": 1}},
            ["subject_type", "subject_id", "count"])},
        "general": {"type": "integer", "minimum": 0},
        "capacity": _body({"max_memories": {"type": "integer", "minimum": 1},
                           "max_per_subject": {"type": "integer", "minimum": 1},
                           "used": {"type": "integer", "minimum": 0}},
                          ["max_memories", "max_per_subject", "used"]),
        "embedded": {"type": "integer", "minimum": 0},
        "unembedded": {"type": "integer", "minimum": 0},
        "expired": {"type": "array", "items": _MEMORY_ID,
                    "description": "removed by the retention reaper during this call"}},
        ["total", "by_category", "by_subject", "general", "capacity", "embedded",
         "unembedded", "expired"])),
    "create": OpDoc(
        # One alternative per element type, so `properties` is checked against that
        # type's schema (components Properties.<type>).
        request={"anyOf": [_body({
            "element_type": {"const": name},
            "slug": {**_SLUG, "not": {"enum": ["ops", "events", "git", "api"]}},
            "name": _TEXT, "description": {"type": "string"},
            "properties": _ref(f"Properties.{name}")}, ["element_type", "slug"])
            for name in sorted(TYPES)]},
        body_required=True, status=201,
        response=_body({"element": _ref("Element")}, ["element"]),
        description="Creates a child element (its git repo with draft/demo/live and its "
                    "catalog row) flat under the circle."),
    "spec": OpDoc(response=_ref("SpecAnswer")),
    "spec_update": OpDoc(
        request=_body({"properties": {"type": "object",
                                      "description": "merged into the current properties; "
                                                     "a null value resets one to its "
                                                     "default"},
                       "name": _TEXT, "description": _nullable({"type": "string"}),
                       "message": {"type": "string", "maxLength": 500,
                                   "description": "the version's message"}},
                      anyOf=[{"required": ["properties"]}, {"required": ["name"]},
                             {"required": ["description"]}]),
        body_required=True,
        response=_body({"changed": {"type": "boolean"},
                        "version": {"type": "integer", "minimum": 1},
                        "label": {"type": "string", "pattern": r"^v\d+$"},
                        "commit": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                        "spec": _ref("Spec")},
                       ["changed", "version", "spec"]),
        description="Commits the new spec to draft and records version vN (nothing when "
                    "nothing changed)."),
    "disable": OpDoc(request=_body({"reason": {"type": "string", "maxLength": 1000}})),
    "enable": OpDoc(request=_body({"reason": {"type": "string", "maxLength": 1000}})),
    "update_meta": OpDoc(request=_body({"meta": _OBJECT}, ["meta"]), body_required=True),
    "remove-modifier": OpDoc(request=_body({"attachment_id": {"type": "string"}},
                                           ["attachment_id"]), body_required=True),
    "compose": OpDoc(request=_body({"add": {"type": "array", "items": _OBJECT},
                                    "remove": {"type": "array", "items": _OBJECT}}),
                     body_required=True),
    "restore": OpDoc(request=_body({"version": {"anyOf": [
        {"type": "integer", "minimum": 1}, {"type": "string", "pattern": r"^v?\d+$"}]}},
        ["version"]), body_required=True),
    "promote": OpDoc(request=_body({"to": {"type": "string", "enum": ["demo", "live"]}},
                                   ["to"]), body_required=True),
    "import_bundle": OpDoc(
        request=_body({
            "bundle_base64": {"type": "string", "contentEncoding": "base64",
                              "contentMediaType": "application/x-git-bundle"},
            "slug": _SLUG, "overwrite": {"type": "boolean", "default": False},
            "envelope": {"type": "object", "required": ["elements"],
                         "description": "what export_bundle answers on a circle",
                         "properties": {"format": {"type": "string"},
                                        "elements": {"type": "array", "items": _OBJECT}}}},
            anyOf=[{"required": ["bundle_base64"]}, {"required": ["envelope"]}]),
        body_required=True,
        response=_body({"imported": {"type": "array", "items": _OBJECT},
                        "skipped": {"type": "array", "items": _OBJECT},
                        "errors": {"type": "array", "items": _OBJECT},
                        "counts": _body({k: {"type": "integer", "minimum": 0}
                                         for k in ("imported", "skipped", "errors")},
                                        ["imported", "skipped", "errors"])},
                       ["imported", "skipped", "errors", "counts"]),
        description="On a circle. Imported elements get new ids; existing slugs are "
                    "skipped unless overwrite is true. 400 (with the report) when nothing "
                    "was imported or skipped."),
    "export_bundle": OpDoc(content={
        "application/x-git-bundle": {"schema": {"type": "string",
                                                "contentMediaType": "application/x-git-bundle"}},
        "application/json": {"schema": _ref("Generic")}},
        description="A git bundle for an element; a JSON envelope of base64 bundles for a "
                    "circle."),
    "readme_update": OpDoc(request=_body({"content": {"type": "string"}}, ["content"]),
                           body_required=True),
    "source": OpDoc(query=[_q("path", {"type": "string"}),
                           _q("branch", {"type": "string",
                                         "enum": ["draft", "demo", "live"]})]),
    "source_diff3": OpDoc(query=[_q("theirs", {"type": "string"}),
                                 _q("ours", {"type": "string"})]),
    "source_promote": OpDoc(request=_body({"to": {"type": "string",
                                                  "enum": ["demo", "live"]}}, ["to"]),
                            body_required=True),
    "context": OpDoc(query=[_q("depth", {"type": "integer", "minimum": 1}),
                            _q("types", {"type": "string"})]),
    "tree": OpDoc(query=[_q("depth", {"type": "integer", "minimum": 1, "maximum": 10}),
                         _q("include_metadata", {"type": "boolean"})]),
    "version": OpDoc(query=[_q("history", {"type": "boolean"}),
                            _q("limit", {"type": "integer", "minimum": 1})]),
    "activity": OpDoc(query=[_q("limit", {"type": "integer", "minimum": 1})]),
}

_ERROR_STATUSES = (400, 401, 403, 404, 409, 413, 429, 500, 503)
_ERROR_TEXT = {400: "Invalid request (malformed JSON, wrong type, unknown field)",
               401: "No valid bearer token", 403: "The token's role or circle lacks access",
               404: "No such element, op or record", 409: "Conflict (e.g. disabled element)",
               413: "Request body too large", 429: "Rate limited",
               500: "Internal error", 501: "Op not implemented yet",
               503: "Temporarily unavailable"}


def _error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": _ERROR_TEXT[status],
                                "content": {"application/json": {"schema": _ref("Error")}}}
    retry = {"schema": {"type": "string"}, "required": False,
             "description": "seconds to wait"}
    if status in (429, 503):
        response["headers"] = {"Retry-After": retry}
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"},
                                                    "required": True}}
    return response


def _errors(*extra: int) -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/Error{s}"}
            for s in sorted({*_ERROR_STATUSES, *extra})}


def _schema_name(op_name: str, part: str) -> str:
    """``store`` -> ``StoreRequest``; ``remove-modifier`` -> ``RemoveModifierResponse``."""
    return "".join(w.title() for w in re.split(r"[_-]", op_name)) + part


def _named(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """A reference to ``schema`` as component ``name`` (a plain $ref stays as it is)."""
    return schema if "$ref" in schema else _ref(name)


# -- paths ---------------------------------------------------------------------------------

_CIRCLE_PARAM = {"name": "circle", "in": "path", "required": True, "schema": _SLUG,
                 "description": "the circle (root namespace)"}
_SLUG_PARAM = {"name": "slug", "in": "path", "required": True, "schema": _SLUG,
               "description": "the element's slug in its circle"}
_ENV_HEADER = _h("X-Triform-Env", {"type": "string", "enum": ["draft", "demo", "live"]},
                 "which branch's spec governs runtime ops (default: the server's --env)")
_PARAMETERS = {"circle": _CIRCLE_PARAM, "slug": _SLUG_PARAM, "env": _ENV_HEADER,
               "memory_id": {"name": "memory_id", "in": "path", "required": True,
                             "schema": _MEMORY_ID}}


def _param_ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/parameters/{name}"}


def variants(op: Op) -> list[str]:
    """The element-path shapes an op answers at: ``circle``, ``element`` or both."""
    found = []
    if op.applies_to("circle"):
        found.append("circle")
    if any(op.applies_to(t) for t in TYPES if t != "circle"):
        found.append("element")
    return found


def operation_id(op: Op, variant: str) -> str:
    return op.name if variant == "element" else f"circle_{op.name}"


def _tag(op: Op) -> str:
    if op.types is not None and op.types <= frozenset({"memory"}):
        return "memory"
    if op.name.startswith("source") or "bundle" in op.name:
        return "source"
    return "element"


def _operation(op: Op, variant: str) -> dict[str, Any]:
    doc = OP_SCHEMAS.get(op.name, OpDoc())
    params: list[dict[str, Any]] = [_param_ref("circle")]
    if variant == "element":
        params.append(_param_ref("slug"))
    params += [_param_ref(name) for name in _path_names(op.path)]
    params += doc.query + doc.headers + [_param_ref("env")]
    if doc.content is not None:
        success = {"description": "OK", "content": doc.content}
    else:
        response = _ref("Generic") if doc.response is None else \
            _named(doc.response, _schema_name(op.name, "Response"))
        success = {"description": "OK", "content": {"application/json": {
            "schema": response}}}
    if doc.links:
        success["links"] = {f"{target}_memory": {
            "operationId": target, "description": f"{target} the memory just answered",
            "parameters": {"circle": "$request.path.circle", "slug": "$request.path.slug",
                           "memory_id": "$response.body#/memory/id"}}
            for target in doc.links}
    operation: dict[str, Any] = {
        "operationId": operation_id(op, variant),
        "summary": op.summary,
        "tags": [_tag(op)],
        "parameters": params,
        "responses": {str(doc.status): success,
                      **_errors(*(() if op.handler is not None else (501,)))},
        "x-triform-op": op.name,
        "x-triform-level": op.level,
    }
    description = f"Auth level: **{op.level.title()}**."
    if doc.description:
        description = f"{doc.description}\n\n{description}"
    if op.types is not None:
        description += f" Element types: {', '.join(sorted(op.types))}."
    operation["description"] = description
    if op.method != "GET":
        schema = _ref("Generic") if doc.request is None else \
            _named(doc.request, _schema_name(op.name, "Request"))
        operation["requestBody"] = {"required": doc.body_required, "content": {
            "application/json": {"schema": schema}}}
    return operation


def _path_names(path: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", path)


def _events_path() -> dict[str, Any]:
    return {"get": {
        "operationId": "events", "summary": "Server-sent events of activity in a circle",
        "tags": ["events"],
        "description": (
            "A `text/event-stream`: one message per activity event (data: an "
            "ActivityEvent as JSON, id: its seq), `: keepalive` comments while idle. "
            "A token sees only its own circle. With `Last-Event-ID` (or "
            "`last_event_id`) the events after that id are replayed from the activity "
            "table first. A subscriber that falls too far behind is disconnected and "
            "reconnects with Last-Event-ID. Needs a Read token."),
        "parameters": [
            _q("circle", _SLUG, "default: the token's circle; another circle is 403"),
            _q("path", {"type": "string"}, "only events of this element"),
            _q("limit", {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
               "close the stream after this many events"),
            _q("timeout", {"type": "number", "exclusiveMinimum": 0,
                           "maximum": MAX_TIMEOUT},
               "close the stream after this many seconds"),
            _q("keepalive", {"type": "number", "minimum": 0.05, "maximum": 300},
               "seconds between keepalive comments"),
            _q("last_event_id", {"type": "integer", "minimum": 0}),
            _h("Last-Event-ID", {"type": "string", "pattern": r"^\d+$"},
               "replay events after this seq")],
        "responses": {"200": {"description": "The event stream", "content": {
            "text/event-stream": {"schema": {"type": "string"},
                                  "x-event-schema": _ref("ActivityEvent")}}},
            **_errors()}}}


def build_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of this server, from the registry as it is now."""
    paths: dict[str, dict[str, Any]] = {}
    for op in sorted(REGISTRY.ops.values(), key=lambda o: o.name):
        for variant in variants(op):
            prefix = "/api/{circle}" if variant == "circle" else "/api/{circle}/{slug}"
            paths.setdefault(f"{prefix}/ops/{op.path}", {})[op.method.lower()] = \
                _operation(op, variant)
    paths["/healthz"] = {"get": {
        "operationId": "healthz", "summary": "Liveness check", "tags": ["service"],
        "security": [], "responses": {"200": {"description": "OK", "content": {
            "application/json": {"schema": _body({"status": {"const": "ok"}},
                                                 ["status"])}}}}}}
    paths["/openapi.json"] = {"get": {
        "operationId": "openapi", "summary": "This document", "tags": ["service"],
        "security": [], "responses": {"200": {"description": "OpenAPI 3.1", "content": {
            "application/json": {"schema": _OBJECT}}}}}}
    paths["/api/events"] = _events_path()
    return {
        "openapi": OPENAPI_VERSION,
        "info": {"title": "Triform Memory", "version": API_VERSION,
                 "description": "Elements kept as git repositories, and durable memory "
                                "for AI agents. Every op answers at "
                                "`/api/<element_path>/ops/<path>`; see docs/api.md."},
        "servers": [{"url": "/"}],
        "security": [{"bearerAuth": []}],
        "tags": [{"name": t} for t in ("memory", "element", "source", "events", "service")],
        "paths": dict(sorted(paths.items())),
        "components": {
            "securitySchemes": {"bearerAuth": {
                "type": "http", "scheme": "bearer",
                "description": "A token from `triform token create`: viewer (Read), "
                               "member (Read, Write, Execute) or admin (all)."}},
            "schemas": _schemas(),
            "parameters": _PARAMETERS,
            "responses": {f"Error{status}": _error_response(status)
                          for status in sorted({*_ERROR_STATUSES, 501})}},
    }


def _schemas() -> dict[str, Any]:
    """Shared schemas plus each op's named request and response schemas."""
    schemas = dict(SCHEMAS)
    for name, doc in sorted(OP_SCHEMAS.items()):
        for part, schema in (("Request", doc.request), ("Response", doc.response)):
            if schema is not None and "$ref" not in schema:
                schemas[_schema_name(name, part)] = schema
    return schemas


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(build_document())


def ops_markdown() -> str:
    """The op table of docs/api.md: every op, its method and path, auth and summary."""
    lines = ["| op | method and path | auth | applies to | description |",
             "|---|---|---|---|---|"]
    for op in sorted(REGISTRY.ops.values(), key=lambda o: o.name):
        applies = "any element" if op.types is None else ", ".join(sorted(op.types))
        lines.append(f"| `{op.name}` | `{op.method} /ops/{op.path}` | {op.level.title()} "
                     f"| {applies} | {op.summary} |")
    return "\n".join(lines) + "\n"


def _main(argv: list[str]) -> int:
    import api.app  # noqa: F401  (imports the op modules, so handlers are registered)
    if "--markdown" in argv:
        sys.stdout.write(ops_markdown())
    else:
        print(json.dumps(build_document(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))

