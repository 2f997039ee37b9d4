"""HTTP routes: translate a request into one ``element.invoke`` call and its answer back.

Everything that makes an op safe (who calls, level, state, modifiers, request shape,
activity) happens in ``invoke``; this module only parses HTTP: the bearer token, the JSON
body, the query string and the headers an op reads.

An op's request in its plain form (:class:`OpRoutes`: one of the route's methods, a path of
plain segments, a body of announced length) is served without Flask's dispatch: the same
werkzeug request parsing, the same body limit, the same ``invoke``, the same answers and
error handlers, without the contexts, URL map, hooks and session around them. That
machinery cost about 0.14 ms of CPU a request with its code in the processor's caches,
and about 0.2 ms more right after a model run had evicted them, as it has in a search
(issue 29). Anything else (HEAD, OPTIONS, another path, a chunked body) goes through
Flask, whose route below serves the same ops.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app, request
from flask.json.provider import JSONProvider
from werkzeug.wrappers import Request

from element import Home, Invocation, OpResult, invoke

from .errors import ApiError, answer_error
from .limits import body_limit, check_length

__all__ = ["blueprint", "bearer_token", "home", "parse_json", "json_depth", "MAX_JSON_DEPTH",
           "OpRoutes"]

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


def respond(result: OpResult, json: JSONProvider | None = None) -> Response:
    """An op's result as an HTTP response (``json``: the app's JSON provider, by default
    the current app's)."""
    if isinstance(result.body, (bytes, bytearray)):
        response = Response(bytes(result.body), status=result.status,
                            content_type=result.content_type)
    elif not isinstance(result.body, dict):     # a stream of chunks (an export)
        response = Response(result.body, status=result.status,
                            content_type=result.content_type)
    else:
        response = cast(Response, (json or current_app.json).response(result.body))
        response.status_code = result.status
    for key, value in result.headers.items():
        response.headers[key] = value
    return response


@blueprint.get("/healthz")
def healthz() -> Response:
    return cast(Response, current_app.json.response({"status": "ok"}))


@blueprint.route("/api/<path:element_path>/ops/<path:op_path>",
                 methods=["GET", "POST", "PATCH", "PUT", "DELETE"])
def dispatch(element_path: str, op_path: str) -> Response:
    return respond(invoke(home(), invocation(request._get_current_object(),  # type: ignore
                                             element_path, op_path)))


def invocation(req: Request, element_path: str, op_path: str) -> Invocation:
    """The op call an HTTP request to ``/api/<element_path>/ops/<op_path>`` makes."""
    raw = req.get_data(cache=True)
    headers = req.headers
    # NDJSON (import_memories) is read by its op, line by line, not parsed here.
    json_body = req.method != "GET" and req.mimetype != "application/x-ndjson"
    return Invocation(
        element_path, method=req.method, op_path=op_path,
        token=bearer_token(headers.get("Authorization")),
        body=(lambda: parse_json(raw)) if json_body else None, raw_body=raw,
        query=req.args.to_dict(flat=True), headers=dict(headers),
        env=headers.get("X-Triform-Env"))


WsgiApp = Callable[[dict[str, Any], Any], Iterable[bytes]]

#: The methods of the op route.
_METHODS = frozenset(("GET", "POST", "PATCH", "PUT", "DELETE"))
#: An op's path in its plain form: segments of unreserved characters, one ``ops``.
_SEGMENTS = r"[A-Za-z0-9._~-]+(?:/[A-Za-z0-9._~-]+)*"
_PLAIN = re.compile(rf"/api/({_SEGMENTS})/ops/({_SEGMENTS})")


class OpRoutes:
    """WSGI: the op route's plain requests (the module docstring) answered here, every
    other request passed to ``fallback`` (the Flask app).

    Served as Flask serves the route: werkzeug's request parsing, the route's body limit
    (``limits.body_limit``, as ``init_limits`` checks it), :func:`invocation`, ``invoke``,
    :func:`respond`, and for an error what the app's error handlers answer
    (``errors.answer_error``).
    """

    def __init__(self, app: Flask, fallback: WsgiApp) -> None:
        self.app = app
        self.fallback = fallback

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path: str = environ.get("PATH_INFO", "")
        # One "ops" segment: where Flask's route splits a path with more is its matcher's.
        plain = environ.get("REQUEST_METHOD") in _METHODS \
            and path.split("/").count("ops") == 1 \
            and "HTTP_TRANSFER_ENCODING" not in environ and _PLAIN.fullmatch(path)
        if not plain:
            return self.fallback(environ, start_response)
        app = self.app
        req = Request(environ)
        try:
            limit = body_limit(path, app.config)
            assert limit is not None        # an op's path has one
            req.max_content_length = limit
            check_length(req.content_length, limit)
            response = respond(invoke(app.extensions["triform"],
                                      invocation(req, plain.group(1), plain.group(2))),
                               app.json)
        except Exception as exc:    # what the app's handlers answer, as in Flask
            response = answer_error(exc, app.json)
        return response(environ, start_response)
