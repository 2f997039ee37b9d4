"""Request body limits, per route, answered as 413 in the one error shape.

JSON ops take at most ``MAX_JSON_BODY`` bytes (default 1 MiB: a memory's content is at most
16 KiB and its context 32 KiB, so this leaves room and stops abuse early). ``import_bundle``
carries a base64 git bundle and takes up to ``MAX_BUNDLE_BODY`` (default 64 MiB, so a
bundle of about 48 MiB); larger bundles go through ``triform import``, which has no HTTP
layer in the way. Anything else under Flask (health, OpenAPI, events) keeps the app-wide
``MAX_CONTENT_LENGTH``. git pushes are not Flask requests and are limited by the push
policy instead.

The limit is checked against ``Content-Length`` before the request is authenticated, so an
oversized body is refused without being read; a chunked body is cut off by werkzeug when it
passes the same limit (``request.max_content_length``).
"""

from __future__ import annotations

from flask import Flask, current_app, request

from element import registry

from .errors import ApiError

__all__ = ["init_limits", "body_limit"]


def body_limit(path: str) -> int | None:
    """The body limit of the route at ``path``, or None for the app-wide default.

    An op that takes larger bodies names the config key of its limit (``Op.body_limit``:
    import_bundle's ``MAX_BUNDLE_BODY``); every other op takes ``MAX_JSON_BODY``.
    """
    if path.startswith("/mcp/"):
        return int(current_app.config["MAX_JSON_BODY"])    # one JSON-RPC message
    if not path.startswith("/api/") or "/ops/" not in path:
        return None
    op_path = path.split("/ops/", 1)[1]
    for op in registry():
        if op.body_limit and op.path == op_path:
            return int(current_app.config[op.body_limit])
    return int(current_app.config["MAX_JSON_BODY"])


def _check_body_size() -> None:
    limit = body_limit(request.path)
    if limit is None:
        return
    request.max_content_length = limit
    length = request.content_length
    if length is not None and length > limit:
        raise ApiError("REQUEST_TOO_LARGE", "too_large",
                       f"the request body is {length} bytes; this route takes at most "
                       f"{limit} bytes")


def init_limits(app: Flask) -> None:
    app.before_request(_check_body_size)
