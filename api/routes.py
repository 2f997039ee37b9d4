"""HTTP routes: translate a request into one ``element.invoke`` call and its answer back.

Everything that makes an op safe (who calls, level, state, modifiers, request shape,
activity) happens in ``invoke``; this module only parses HTTP: the bearer token, the JSON
body, the query string and the headers an op reads.

An op's request in its plain form (:class:`OpRoutes`: one of the route's methods, a path of
plain segments, a body of announced length) is served without Flask's dispatch: the same
body limit, the same ``invoke``, the same answers and error handlers, without the
contexts, URL map, hooks and session around them. That machinery cost about 0.14 ms of CPU
a request with its code in the processor's caches, and about 0.2 ms more right after a
model run had evicted them, as it has in a search (issue 29). Its request is read from
the WSGI environ as werkzeug's request reads it, and a JSON answer (every op's, but an
export's stream) is written as the bytes and headers Flask's response writes, without
werkzeug's request and response objects around them (another 0.1 ms or so after a model
run). Anything else (HEAD, OPTIONS, another path, a chunked body) goes through Flask,
whose route below serves the same ops.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterable
from typing import Any, cast

from flask import Blueprint, Flask, Response, current_app, request
from flask.json.provider import JSONProvider
from werkzeug.http import parse_options_header
from werkzeug.sansio.utils import get_content_length
from werkzeug.wrappers import Request
from werkzeug.wsgi import get_input_stream

from element import Home, Invocation, OpResult, invoke

from .errors import ApiError, answer_error
from .json_answer import FastJSONProvider
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

    Served as Flask serves the route: the request read as werkzeug reads it
    (:func:`_plain_invocation`), the route's body limit (``limits.body_limit``, as
    ``init_limits`` checks it), ``invoke``, the answer Flask's response gives
    (:func:`_json_answer`, else :func:`respond`), and for an error what the app's error
    handlers answer (``errors.answer_error``).
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
        try:
            limit = body_limit(path, app.config)
            assert limit is not None        # an op's path has one
            result = invoke(app.extensions["triform"],
                            _plain_invocation(environ, limit, plain.group(1),
                                              plain.group(2)))
            answer = _json_answer(result, app.json)
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body]
            response = respond(result, app.json)
        except Exception as exc:    # what the app's handlers answer, as in Flask
            response = answer_error(exc, app.json)
        return response(environ, start_response)


def _plain_invocation(environ: dict[str, Any], limit: int, element_path: str,
                      op_path: str) -> Invocation:
    """:func:`invocation` of a plain request, read from ``environ`` as werkzeug's
    ``Request`` reads it (its stream limited to ``limit``, its headers as
    ``EnvironHeaders`` lists them, its query string as ``args``), without building one.

    :raise ApiError: an announced body over ``limit``.
    """
    length = get_content_length(environ.get("CONTENT_LENGTH"),
                                environ.get("HTTP_TRANSFER_ENCODING"))
    check_length(length, limit)
    raw = get_input_stream(environ, max_content_length=limit).read()
    method = environ["REQUEST_METHOD"]
    kind = environ.get("CONTENT_TYPE", "")
    if kind != "application/json":
        kind = parse_options_header(kind)[0].lower()
    json_body = method != "GET" and kind != "application/x-ndjson"
    headers = {}
    for key, value in environ.items():
        if key.startswith("HTTP_"):
            if key not in ("HTTP_CONTENT_TYPE", "HTTP_CONTENT_LENGTH"):
                headers[key[5:].replace("_", "-").title()] = value
        elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
            headers[key.replace("_", "-").title()] = value
    query = Request(environ).args.to_dict(flat=True) if environ.get("QUERY_STRING") else {}
    return Invocation(
        element_path, method=method, op_path=op_path,
        token=bearer_token(environ.get("HTTP_AUTHORIZATION")),
        body=(lambda: parse_json(raw)) if json_body else None, raw_body=raw,
        query=query, headers=headers, env=environ.get("HTTP_X_TRIFORM_ENV"))


def _json_answer(result: OpResult, json: JSONProvider
                 ) -> tuple[str, list[tuple[str, str]], bytes] | None:
    """The status line, headers and body :func:`respond` gives ``result`` when it is a
    JSON object answered 200 or 201 with no headers of its own (a search's, a store's):
    the same bytes, without a response object. None: anything else, which ``respond``
    answers (a stream, raw bytes, headers of the op's, another status, JSON the stdlib
    encodes)."""
    if result.status not in (200, 201) or result.headers or not isinstance(result.body, dict) \
            or not isinstance(json, FastJSONProvider):
        return None
    body = json.encoded(result.body)
    if body is None:
        return None
    return (_status_line(result.status),
            [("Content-Type", json.mimetype), ("Content-Length", str(len(body)))], body)


@functools.cache
def _status_line(status: int) -> str:
    """werkzeug's status line for ``status`` (``200 OK``, ``201 CREATED``)."""
    return str(Response(status=status).status)
