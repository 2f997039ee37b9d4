"""HTTP routes: parse, authenticate, authorize, call one op, serialize."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request

from element.access import Principal, authenticate, authorize
from element.catalog import Element
from element.errors import ElementDisabled
from element.home import ENVS, Home
from element.modifiers import enforce_modifiers
from element.ops import REGISTRY, OpCall, OpResult

from .errors import ApiError

__all__ = ["blueprint", "bearer_token"]

blueprint = Blueprint("ops", __name__)

#: Ops that still answer on a disabled element (so it can be inspected and re-enabled).
_ALLOWED_WHEN_DISABLED = {"enable", "disable", "version", "spec", "readme", "activity"}


def home() -> Home:
    return current_app.extensions["triform"]


def bearer_token(header: str | None) -> str | None:
    if header and header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return None


def _json_body() -> dict[str, Any]:
    raw = request.get_data(cache=True)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError("INVALID_JSON", "validation", f"the body is not valid JSON: {exc}")
    if not isinstance(body, dict):
        raise ApiError("INVALID_JSON", "validation", "the body must be a JSON object")
    return body


def _env() -> str:
    env = request.headers.get("X-Triform-Env") or current_app.config["ENV"]
    if env not in ENVS:
        raise ApiError("INVALID_ENV", "validation",
                       f"X-Triform-Env must be one of {', '.join(ENVS)}")
    return env


def _serialize(result: OpResult) -> Response:
    if isinstance(result.body, (bytes, bytearray)):
        response = Response(bytes(result.body), status=result.status,
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
    principal: Principal = authenticate(home().catalog,
                                        bearer_token(request.headers.get("Authorization")))
    element: Element = home().catalog.element_at(element_path)
    op, params = REGISTRY.find(element.element_type, request.method, op_path)
    authorize(principal, element, op.level)
    if element.state != "ready" and op.name not in _ALLOWED_WHEN_DISABLED:
        raise ElementDisabled(element.path, element.state)
    enforce_modifiers(home(), principal, element, op)
    call = OpCall(home=home(), element=element, principal=principal,
                  body=_json_body() if request.method != "GET" else {},
                  query=request.args, headers=request.headers, params=params, env=_env(),
                  raw_body=request.get_data(cache=True))
    return _serialize(op.call(call))
