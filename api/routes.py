"""HTTP routes: translate a request into one ``element.invoke`` call and its answer back.

Everything that makes an op safe (who calls, level, state, modifiers, request shape,
activity) happens in ``invoke``; this module only parses HTTP: the bearer token, the JSON
body, the query string and the headers an op reads.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from element import Home, Invocation, OpResult, invoke

from .errors import ApiError

__all__ = ["blueprint", "bearer_token", "home", "parse_json", "json_depth", "MAX_JSON_DEPTH"]

blueprint = Blueprint("ops", __name__)

#: Deeper JSON than any op takes is refused before it reaches code that recurses.
MAX_JSON_DEPTH = 64


def home() -> Home:
    found: Home = current_app.extensions["triform"]
    return found


def bearer_token(header: str | None) -> str | None:
    if header and header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return None


def json_depth(value: Any) -> int:
    """The nesting depth of parsed JSON, without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in
                         (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_json(raw: bytes) -> dict[str, Any] | None:
    """The JSON object of a request body (None when empty).

    :raise ApiError: not JSON, not an object, nested deeper than ``MAX_JSON_DEPTH``, or a
        number Python refuses to parse (an integer of more than 4300 digits).
    """
    if not raw.strip():
        return None
    try:
        body = json.loads(raw)
    except RecursionError:
        body = None
        depth = MAX_JSON_DEPTH + 1
    except (UnicodeDecodeError, ValueError) as exc:   # JSONDecodeError is a ValueError
        raise ApiError("INVALID_JSON", "validation",
                       f"the body is not valid JSON: {exc}") from None
    else:
        depth = json_depth(body)
    if depth > MAX_JSON_DEPTH:
        raise ApiError("INVALID_JSON", "validation",
                       f"the body is nested deeper than {MAX_JSON_DEPTH} levels")
    if not isinstance(body, dict):
        raise ApiError("INVALID_JSON", "validation", "the body must be a JSON object")
    return body


def respond(result: OpResult) -> Response:
    """An op's result as an HTTP response."""
    if isinstance(result.body, (bytes, bytearray)):
        response = Response(bytes(result.body), status=result.status,
                            content_type=result.content_type)
    elif not isinstance(result.body, dict):     # a stream of chunks (an export)
        response = Response(result.body, status=result.status,
                            content_type=result.content_type)
    else:
        response = jsonify(result.body)
        response.status_code = result.status
    for key, value in result.headers.items():
        response.headers[key] = value
    return response


@blueprint.get("/healthz")
def healthz() -> Response:
    return jsonify({"status": "ok"})


@blueprint.route("/api/<path:element_path>/ops/<path:op_path>",
                 methods=["GET", "POST", "PATCH", "PUT", "DELETE"])
def dispatch(element_path: str, op_path: str) -> Response:
    raw = request.get_data(cache=True)
    # NDJSON (import_memories) is read by its op, line by line, not parsed here.
    json_body = request.method != "GET" and request.mimetype != "application/x-ndjson"
    return respond(invoke(home(), Invocation(
        element_path, method=request.method, op_path=op_path,
        token=bearer_token(request.headers.get("Authorization")),
        body=(lambda: parse_json(raw)) if json_body else None, raw_body=raw,
        query=request.args.to_dict(flat=True), headers=dict(request.headers),
        env=request.headers.get("X-Triform-Env"))))
