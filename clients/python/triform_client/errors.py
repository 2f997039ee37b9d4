"""Errors: every failure of a call is raised as one :class:`TriformError` subclass.

The server answers every error in one JSON shape, ``{"error": {"code", "class",
"retryable", "message"}}`` (docs/api.md, Errors). :func:`error_from_response` turns that
shape into the subclass of its ``class``, keeping ``code``, ``retryable``, the HTTP status,
the whole body (some answers carry more beside ``error``: a merge's conflicts, an import's
report) and ``Retry-After``. An answer that is not in that shape (a proxy's HTML page, a
cut-off body) still becomes an error of its status, never a silent success.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from .retry import parse_retry_after

__all__ = ["TriformError", "ValidationError", "Unauthorized", "Forbidden", "NotFound",
           "MethodNotAllowed", "Conflict", "TooLarge", "RateLimited", "ServerError",
           "NotImplementedOp", "Unavailable", "ConnectionFailed", "InvalidResponse",
           "error_from_response"]


class TriformError(Exception):
    """A call failed. ``status`` is None when no HTTP answer was received."""

    error_class = "internal"

    def __init__(self, message: str, *, code: str, error_class: str | None = None,
                 retryable: bool = False, status: int | None = None,
                 body: dict[str, Any] | None = None, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.error_class = error_class or type(self).error_class
        self.retryable = retryable
        self.status = status
        self.body: dict[str, Any] = body or {}
        self.retry_after = retry_after

    def __str__(self) -> str:
        where = f"HTTP {self.status} " if self.status is not None else ""
        return f"{where}{self.code} ({self.error_class}): {self.message}"

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(code={self.code!r}, status={self.status!r}, "
                f"retryable={self.retryable!r}, message={self.message!r})")


class ValidationError(TriformError):
    """400: the request was malformed or a field was wrong (the message names it)."""

    error_class = "validation"


class Unauthorized(TriformError):
    """401: no token, or an unknown or revoked one."""

    error_class = "unauthorized"


class Forbidden(TriformError):
    """403: the token's circle or role lacks the op, or an auth-policy denies it."""

    error_class = "forbidden"


class NotFound(TriformError):
    """404: no such element, op or record."""

    error_class = "not_found"


class MethodNotAllowed(TriformError):
    """405: the path exists with another method."""

    error_class = "method_not_allowed"


class Conflict(TriformError):
    """409: the element's state refuses the op (disabled, diverged, merge conflicts...)."""

    error_class = "conflict"


class TooLarge(TriformError):
    """413: the body or a value passed a limit."""

    error_class = "too_large"


class RateLimited(TriformError):
    """429: an attached rate limit is full; ``retry_after`` says for how many seconds."""

    error_class = "rate_limited"


class ServerError(TriformError):
    """500: the server failed; its log has the details."""

    error_class = "internal"


class NotImplementedOp(TriformError):
    """501: the op is on the sheet but not built on this server."""

    error_class = "not_implemented"


class Unavailable(TriformError):
    """503: the server cannot serve this now (e.g. too many event streams)."""

    error_class = "unavailable"


class ConnectionFailed(TriformError):
    """No answer: the connection failed or broke. ``sent`` tells whether the request may
    have reached the server (then it may or may not have been applied)."""

    error_class = "unavailable"

    def __init__(self, message: str, *, sent: bool) -> None:
        super().__init__(message, code="CONNECTION_FAILED", retryable=True)
        self.sent = sent


class InvalidResponse(TriformError):
    """A success status whose body is not what the op answers (not JSON, cut off...)."""

    error_class = "internal"


_BY_CLASS: dict[str, type[TriformError]] = {
    cls.error_class: cls for cls in (ValidationError, Unauthorized, Forbidden, NotFound,
                                     MethodNotAllowed, Conflict, TooLarge, RateLimited,
                                     ServerError, NotImplementedOp, Unavailable)}
_CLASS_OF_STATUS = {400: "validation", 401: "unauthorized", 403: "forbidden",
                    404: "not_found", 405: "method_not_allowed", 409: "conflict",
                    413: "too_large", 429: "rate_limited", 500: "internal",
                    501: "not_implemented", 503: "unavailable"}


def error_from_response(response: httpx.Response) -> TriformError:
    """The error an unsuccessful ``response`` stands for (its body must have been read)."""
    status = response.status_code
    retry_after = parse_retry_after(response.headers.get("Retry-After"))
    try:
        raw = response.content
    except httpx.ResponseNotRead:   # the body broke off: the status still names the error
        raw = b""
    body: Any = None
    try:
        body = json.loads(raw)
    except ValueError:
        pass
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        error_class = str(error.get("class") or _CLASS_OF_STATUS.get(status, "internal"))
        cls = _BY_CLASS.get(error_class, TriformError)
        return cls(str(error.get("message", "")), code=error["code"], error_class=error_class,
                   retryable=error.get("retryable") is True, status=status, body=body,
                   retry_after=retry_after)
    # Not our shape: someone between us and the server answered, or the body was cut off.
    error_class = _CLASS_OF_STATUS.get(status, "internal" if status >= 500 else "validation")
    text = raw.decode("utf-8", "replace").strip().replace("\n", " ")[:200]
    return _BY_CLASS.get(error_class, TriformError)(
        text or response.reason_phrase, code=f"HTTP_{status}", error_class=error_class,
        retryable=status in (429, 502, 503, 504), status=status, retry_after=retry_after)
