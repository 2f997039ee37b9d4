"""Every error becomes one JSON shape, mapped to an HTTP status here and nowhere else.

``{"error": {"code", "class", "retryable", "message"}}`` (design.md section 4), built by
``element.error_body`` for every entry point. Errors of our layers carry ``code``,
``error_class`` and ``retryable``; anything else is logged with its traceback and answered
as a 500 that reveals no internals.
"""

from __future__ import annotations

import logging
from typing import cast

from flask import Flask, Response, current_app
from flask.json.provider import JSONProvider
from werkzeug.exceptions import HTTPException

from element import ERROR_CLASSES, ElementError, error_body
from index import StoreError
from source import SourceError

__all__ = ["STATUS", "ApiError", "error_response", "answer_error", "register_error_handlers"]

log = logging.getLogger("triform.api")

#: error class -> HTTP status. The one mapping.
STATUS = {"validation": 400, "unauthorized": 401, "forbidden": 403, "not_found": 404,
          "method_not_allowed": 405, "conflict": 409, "too_large": 413,
          "unprocessable": 422, "rate_limited": 429, "internal": 500, "unavailable": 503,
          "storage_full": 507}
assert set(STATUS) == set(ERROR_CLASSES), "every error class needs its status"


class ApiError(Exception):
    """An error raised by the HTTP layer itself (bad JSON, body too large...)."""

    def __init__(self, code: str, error_class: str, message: str,
                 retryable: bool = False, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.code, self.error_class, self.message = code, error_class, message
        self.retryable, self.headers = retryable, headers or {}


def error_response(exc: BaseException, json: JSONProvider | None = None) -> Response:
    """The response for ``exc``: its error body, its status, its headers (``json``: the
    app's JSON provider, by default the current app's)."""
    body = error_body(exc)
    response = cast(Response, (json or current_app.json).response(body))
    response.status_code = STATUS[body["error"]["class"]]
    for key, value in (getattr(exc, "headers", None) or {}).items():
        response.headers[key] = value
    if response.status_code == 503:
        # Every 503 is a transient condition (a database or store unavailable, a busy
        # stream): say when to come back, unless the error named its own delay.
        response.headers.setdefault("Retry-After", "2")
    if response.status_code == 401:
        response.headers.setdefault("WWW-Authenticate", 'Bearer realm="triform"')
    return response


_HTTP_CLASS = {400: "validation", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 409: "conflict", 413: "too_large",
               422: "unprocessable", 429: "rate_limited", 503: "unavailable"}
_HTTP_CODE = {"not_found": "NOT_FOUND", "method_not_allowed": "METHOD_NOT_ALLOWED",
              "too_large": "REQUEST_TOO_LARGE"}


def _http(exc: HTTPException, json: JSONProvider | None = None) -> Response:
    error_class = _HTTP_CLASS.get(exc.code or 500, "internal")
    code = _HTTP_CODE.get(error_class, f"HTTP_{exc.code}")
    return error_response(ApiError(code, error_class, exc.description or exc.name), json)


def _unexpected(exc: Exception, json: JSONProvider | None = None) -> Response:
    log.exception("unhandled error", exc_info=exc)
    return error_response(exc, json)


def answer_error(exc: Exception, json: JSONProvider | None = None) -> Response:
    """The answer for any error a request raised: ours in their own shape, an HTTP
    error mapped to it, anything else a 500 that reveals nothing. The one mapping: the
    app's handler (:func:`register_error_handlers`) and a request served outside Flask's
    dispatch (``routes.OpRoutes``) both answer through it."""
    if isinstance(exc, (ElementError, StoreError, SourceError, ApiError)):
        return error_response(exc, json)
    if isinstance(exc, HTTPException):
        return _http(exc, json)
    return _unexpected(exc, json)


def register_error_handlers(app: Flask) -> None:
    # Flask hands an Exception handler HTTP errors too (routing redirects excepted).
    app.register_error_handler(Exception, answer_error)
