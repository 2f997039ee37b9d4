"""Request body limits, per route, answered in the one error shape before the body is read.

JSON ops take at most ``MAX_JSON_BODY`` bytes (default 1 MiB: a memory's content is at most
16 KiB and its context 32 KiB, so this leaves room and stops abuse early). An op that
takes more names the config key of its limit: ``import_bundle`` a base64 git bundle
(``MAX_BUNDLE_BODY``, 64 MiB, so a bundle of about 48 MiB), ``import_memories`` an NDJSON
export (``MAX_IMPORT_BODY``, 256 MiB); larger ones go through ``triform import``, which has
no HTTP layer in the way. A git push takes up to ``MAX_PUSH_BYTES`` plus 1 MiB; anything
else under Flask (health, OpenAPI, events, the console) keeps the app-wide
``MAX_CONTENT_LENGTH``.

Two checks, on the request's head alone (:func:`refusal_on_headers`), which ``triform
serve`` runs as soon as the headers are in, before a byte of the body is read
(``api/server.py``; issue 26: bodies up to 101 MiB were read in full before anyone was
authenticated):

* a ``Content-Length`` over the route's limit: 413 ``REQUEST_TOO_LARGE``;
* a body larger than ``MAX_JSON_BODY`` (or chunked, so of unknown size) is read only for a
  caller whose token (bearer, or git's Basic password) is valid and, when the path names a
  circle, belongs to that circle with a role that writes: else 401 or 403.

The Flask app checks the first again (:func:`init_limits`, for any other server) and cuts
a chunked body off once it passes the limit (``request.max_content_length``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from flask import Flask, current_app, request

from element import ROLES, ElementError, Forbidden, authenticate, error_body, registry
from index import StoreError
from source import MAX_PUSH_BYTES

from .errors import STATUS, ApiError
from .git_mount import token_from_environ

__all__ = ["init_limits", "body_limit", "check_length", "largest_body", "refusal_on_headers",
           "Refusal"]

#: An answer given on the headers: ``(status line, headers, body)``.
Refusal = tuple[str, list[tuple[str, str]], bytes]

_CIRCLE_PREFIXES = ("/api/", "/git/", "/mcp/")


def body_limit(path: str, config: Mapping[str, Any] | None = None) -> int | None:
    """The body limit of the route at ``path``, or None for the app-wide default
    (``MAX_CONTENT_LENGTH``). ``config`` defaults to the current app's.

    An op that takes larger bodies names the config key of its limit (``Op.body_limit``:
    import_bundle's ``MAX_BUNDLE_BODY``); every other op takes ``MAX_JSON_BODY``.
    """
    config = current_app.config if config is None else config
    if path.startswith("/git/"):
        return MAX_PUSH_BYTES + 1024 * 1024
    if path.startswith("/mcp/"):
        return int(config["MAX_JSON_BODY"])    # one JSON-RPC message
    if not path.startswith("/api/") or "/ops/" not in path:
        return None
    key = _larger_bodies().get(path.split("/ops/", 1)[1], "MAX_JSON_BODY")
    return int(config[key])


@functools.cache
def _larger_bodies() -> dict[str, str]:
    """The op paths whose op takes larger bodies, with the config key of their limit (read
    on every request's head: not a walk over the registry each time)."""
    return {op.path: op.body_limit for op in registry() if op.body_limit}


def largest_body(config: Mapping[str, Any]) -> int:
    """The largest body any route takes (what the server refuses outright above)."""
    keys = {op.body_limit for op in registry() if op.body_limit}
    return max(MAX_PUSH_BYTES + 1024 * 1024, int(config["MAX_JSON_BODY"]),
               int(config["MAX_CONTENT_LENGTH"]), *(int(config[k]) for k in keys))


def _circle_of(path: str) -> str | None:
    for prefix in _CIRCLE_PREFIXES:
        if path.startswith(prefix):
            return path[len(prefix):].split("/", 1)[0] or None
    return None


def _answer(exc: BaseException, path: str) -> Refusal:
    body = error_body(exc)
    status = STATUS[body["error"]["class"]]
    headers = [("Content-Type", "application/json")]
    if status == 401 and path.startswith("/git/"):
        headers.append(("WWW-Authenticate", 'Basic realm="elements"'))
    return (f"{status} {HTTPStatus(status).phrase}", headers, json.dumps(body).encode())


def refusal_on_headers(app: Flask, path: str, headers: Mapping[str, str]) -> Refusal | None:
    """Whether to answer a request that carries a body from its head alone (the module
    docstring), without reading the body: the answer, or None to read on. ``headers`` are
    keyed as waitress keys them (``CONTENT_LENGTH``, ``AUTHORIZATION``...)."""
    config = app.config
    chunked = "chunked" in headers.get("TRANSFER_ENCODING", "").lower()
    try:
        length = int(headers.get("CONTENT_LENGTH", "") or 0)
    except ValueError:
        return None                 # waitress answers a malformed length itself
    limit = body_limit(path, config)
    limit = int(config["MAX_CONTENT_LENGTH"]) if limit is None else limit
    try:
        check_length(length, limit)
        if length > int(config["MAX_JSON_BODY"]) or chunked:
            token = token_from_environ({"HTTP_AUTHORIZATION":
                                        headers.get("AUTHORIZATION", "")})
            principal = authenticate(app.extensions["triform"].catalog, token)
            circle = _circle_of(path)
            if circle is not None and (circle != principal.circle
                                       or "write" not in ROLES[principal.role]):
                raise Forbidden("a body this large is read only for a member or an admin "
                                "of the circle it is sent to")
    except (ApiError, ElementError) as exc:
        return _answer(exc, path)
    except StoreError:      # the catalog's database is down: the app will say so
        return None
    return None


def check_length(length: int | None, limit: int) -> None:
    """:raise ApiError: a body of ``length`` bytes (None: not announced) is over ``limit``."""
    if length is not None and length > limit:
        raise ApiError("REQUEST_TOO_LARGE", "too_large",
                       f"the request body is {length} bytes; this route takes at most "
                       f"{limit} bytes")


def _check_body_size() -> None:
    limit = body_limit(request.path)
    if limit is None:
        return
    request.max_content_length = limit
    check_length(request.content_length, limit)


def init_limits(app: Flask) -> None:
    app.before_request(_check_body_size)

