"""The OpenAPI 3.1 document, generated from the op registry.

``GET /openapi.json`` (public) answers :func:`build_document`. Every op appears with its
method and auth level (``x-triform-op``, ``x-triform-level``) at
``/api/{circle}/ops/<path>`` when it applies to circles and at
``/api/{circle}/{slug}/ops/<path>`` when it applies to other elements (an element path
holds a slash, so it is two path parameters; memory ops live only under the second).

Each op declares its request and answer schemas beside its handler (``element/ops/``), and
``element.invoke`` checks requests against the same schemas, so the document describes what
the server does. Every error response, whatever the op, is the one shape (component
``Error``).

``python -m api.openapi`` prints the document; ``python -m api.openapi --markdown``
prints the op table of ``docs/api.md`` and ``--bodies`` its bodies section
(``api/op_docs.py``; tests check both agree with the doc).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from flask import Blueprint, Response, jsonify

from element import COMPONENTS, SLUG_RE, TYPES, Op, registry
from source import BRANCHES

from .errors import STATUS
from .events import MAX_LIMIT, MAX_TIMEOUT

__all__ = ["blueprint", "build_document", "ops_markdown", "operation_id", "variants"]

blueprint = Blueprint("openapi", __name__)

OPENAPI_VERSION = "3.1.0"
API_VERSION = "0.2.0"
_OBJECT = {"type": "object"}
SLUG = {"type": "string", "pattern": SLUG_RE.pattern}
MEMORY_ID = {"type": "string", "pattern": "^[0-9a-f]{32}$"}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def _q(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    param = {"name": name, "in": "query", "required": False, "schema": schema}
    if description:
        param["description"] = description
    return param


def _h(name: str, schema: dict[str, Any], description: str,
       required: bool = False) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": required, "schema": schema,
            "description": description}


_ERROR_STATUSES = tuple(sorted(set(STATUS.values())))
_ERROR_TEXT = {400: "Invalid request (malformed JSON, wrong type, unknown field)",
               401: "No valid bearer token", 403: "The token's role or circle lacks access",
               404: "No such element, op or record",
               405: "The op answers at this path with another method (see Allow)",
               409: "Conflict (e.g. disabled element)", 413: "Request body too large",
               422: "The request conflicts with an earlier one (an Idempotency-Key reused "
                    "for another body)",
               429: "Rate limited", 500: "Internal error", 503: "Temporarily unavailable",
               507: "The server's storage is full; nothing was written"}


def _error_response(status: int) -> dict[str, Any]:
    response: dict[str, Any] = {"description": _ERROR_TEXT[status],
                                "content": {"application/json": {"schema": ref("Error")}}}
    retry = {"schema": {"type": "string"}, "required": False,
             "description": "seconds to wait"}
    if status in (429, 503):
        response["headers"] = {"Retry-After": retry}
    if status == 405:
        response["headers"] = {"Allow": {"schema": {"type": "string"}, "required": True}}
    if status == 401:
        response["headers"] = {"WWW-Authenticate": {"schema": {"type": "string"},
                                                    "required": True}}
    return response


def _errors() -> dict[str, Any]:
    return {str(s): {"$ref": f"#/components/responses/Error{s}"} for s in _ERROR_STATUSES}


def _schema_name(op_name: str, part: str) -> str:
    """``store`` -> ``StoreRequest``; ``remove-modifier`` -> ``RemoveModifierResponse``."""
    return "".join(w.title() for w in re.split(r"[_-]", op_name)) + part


def _named(schema: dict[str, Any], name: str) -> dict[str, Any]:
    """A reference to ``schema`` as component ``name`` (a plain $ref stays as it is)."""
    return schema if "$ref" in schema else ref(name)


# -- paths ---------------------------------------------------------------------------------

_CIRCLE_PARAM = {"name": "circle", "in": "path", "required": True, "schema": SLUG,
                 "description": "the circle (root namespace)"}
_SLUG_PARAM = {"name": "slug", "in": "path", "required": True, "schema": SLUG,
               "description": "the element's slug in its circle"}
_ENV_HEADER = _h("X-Triform-Env", {"type": "string", "enum": list(BRANCHES)},
                 "which branch's spec governs runtime ops (default: the server's --env)")
_PARAMETERS = {"circle": _CIRCLE_PARAM, "slug": _SLUG_PARAM, "env": _ENV_HEADER,
               "memory_id": {"name": "memory_id", "in": "path", "required": True,
                             "schema": MEMORY_ID}}


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
    params: list[dict[str, Any]] = [_param_ref("circle")]
    if variant == "element":
        params.append(_param_ref("slug"))
    params += [_param_ref(name) for name in _path_names(op.path)]
    params += [_q(name, schema, schema.get("description", ""))
               for name, schema in op.query.items()]
    params += [_h(h.name, h.schema, h.description, h.required) for h in op.headers]
    params.append(_param_ref("env"))
    if op.content is not None:
        success: dict[str, Any] = {"description": "OK", "content": {
            kind: {"schema": schema} for kind, schema in op.content.items()}}
    else:
        response = _named(op.response or _OBJECT, _schema_name(op.name, "Response"))
        success = {"description": "OK", "content": {"application/json": {
            "schema": response}}}
    if op.links:
        success["links"] = {f"{target}_memory": {
            "operationId": target, "description": f"{target} the memory just answered",
            "parameters": {"circle": "$request.path.circle", "slug": "$request.path.slug",
                           "memory_id": "$response.body#/memory/id"}}
            for target in op.links}
    operation: dict[str, Any] = {
        "operationId": operation_id(op, variant),
        "summary": op.summary,
        "tags": [_tag(op)],
        "parameters": params,
        "responses": {str(op.status): success, **_errors()},
        "x-triform-op": op.name,
        "x-triform-level": op.level,
    }
    description = f"Auth level: **{op.level.title()}**."
    if op.description:
        description = f"{op.description}\n\n{description}"
    if op.types is not None:
        description += f" Element types: {', '.join(sorted(op.types))}."
    operation["description"] = description
    if op.request_content is not None:
        operation["requestBody"] = {"required": op.body_required, "content": {
            kind: {"schema": schema} for kind, schema in op.request_content.items()}}
    elif op.request is not None:
        operation["requestBody"] = {"required": op.body_required, "content": {
            "application/json": {"schema": _named(op.request,
                                                  _schema_name(op.name, "Request"))}}}
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
            _q("circle", SLUG, "default: the token's circle; another circle is 403"),
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
                                  "x-event-schema": ref("ActivityEvent")}}},
            **_errors()}}}


def build_document() -> dict[str, Any]:
    """The OpenAPI 3.1 document of this server, from the registry as it is now."""
    paths: dict[str, dict[str, Any]] = {}
    for op in registry():
        for variant in variants(op):
            prefix = "/api/{circle}" if variant == "circle" else "/api/{circle}/{slug}"
            paths.setdefault(f"{prefix}/ops/{op.path}", {})[op.method.lower()] = \
                _operation(op, variant)
    paths["/healthz"] = {"get": {
        "operationId": "healthz", "summary": "Liveness check", "tags": ["service"],
        "security": [], "responses": {"200": {"description": "OK", "content": {
            "application/json": {"schema": obj({"status": {"const": "ok"}},
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
                          for status in _ERROR_STATUSES}},
    }


def _schemas() -> dict[str, Any]:
    """Shared schemas plus each op's named request and response schemas."""
    schemas = dict(COMPONENTS)
    for op in registry():
        for part, schema in (("Request", op.request), ("Response", op.response)):
            if schema is not None and "$ref" not in schema:
                schemas[_schema_name(op.name, part)] = schema
    return schemas


@blueprint.get("/openapi.json")
def openapi_json() -> Response:
    return jsonify(build_document())


def ops_markdown() -> str:
    """The op table of docs/api.md: every op, its method and path, auth and summary."""
    lines = ["| op | method and path | auth | applies to | description |",
             "|---|---|---|---|---|"]
    for op in registry():
        applies = "any element" if op.types is None else ", ".join(sorted(op.types))
        lines.append(f"| `{op.name}` | `{op.method} /ops/{op.path}` | {op.level.title()} "
                     f"| {applies} | {op.summary} |")
    return "\n".join(lines) + "\n"


def _main(argv: list[str]) -> int:
    if "--markdown" in argv:
        sys.stdout.write(ops_markdown())
    elif "--bodies" in argv:
        from .op_docs import bodies_markdown
        sys.stdout.write(bodies_markdown())
    else:
        print(json.dumps(build_document(), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))

