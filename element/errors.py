"""Errors raised by the element layer, and the one error shape every entry point answers.

Every error of the project (``ElementError`` here, ``StoreError`` in index/, ``SourceError``
in source/) carries ``code``, ``error_class`` and ``retryable``; :func:`error_body` turns any
of them into ``{"error": {"code", "class", "retryable", "message"}}`` (design.md section 4),
and ``api/errors.py`` maps ``error_class`` to an HTTP status, once.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ERROR_CLASSES", "ElementError", "ElementNotFound", "InvalidRequest", "SlugTaken",
           "Unauthorized", "Forbidden", "OpNotFound", "MethodNotAllowed", "ElementDisabled",
           "InvalidProperty", "TokenNotFound", "ImportInvalid", "ImportTooLarge", "CatalogFull",
           "error_body"]

#: Every error class an error of ours may have (api/errors.py gives each its status).
ERROR_CLASSES = ("validation", "unauthorized", "forbidden", "not_found",
                 "method_not_allowed", "conflict", "too_large", "unprocessable",
                 "rate_limited", "internal", "unavailable", "storage_full")


def error_body(exc: BaseException) -> dict[str, Any]:
    """The one error shape for ``exc``: ours as they say, anything else an opaque internal
    error (its details belong in the log, not in an answer)."""
    error_class = getattr(exc, "error_class", None)
    if not isinstance(error_class, str) or error_class not in ERROR_CLASSES:
        return {"error": {"code": "INTERNAL", "class": "internal", "retryable": True,
                          "message": "internal error; see the server log"}}
    message = getattr(exc, "message", None)
    return {"error": {"code": str(getattr(exc, "code", "ERROR")), "class": error_class,
                      "retryable": bool(getattr(exc, "retryable", False)),
                      "message": message if isinstance(message, str) else str(exc)}}


class ElementError(Exception):
    """Base of every element-layer error."""

    code = "ELEMENT_ERROR"
    error_class = "internal"
    retryable = False

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ElementNotFound(ElementError):
    """No element lives at this path."""

    code = "ELEMENT_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, path: str) -> None:
        super().__init__(f"no element at {path!r}")
        self.path = path


class InvalidRequest(ElementError):
    """A request field is missing, of the wrong type or out of range."""

    code = "INVALID_REQUEST"
    error_class = "validation"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field


class ImportInvalid(ElementError):
    """A memory import refused whole (nothing written): a bad line, a foreign format or
    version, or a file cut short. ``line`` is the 1-based line (0: the file as a whole)."""

    code = "IMPORT_INVALID"
    error_class = "validation"

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line


class ImportTooLarge(ElementError):
    """A memory import over HTTP holds more work than one request does (nothing written)."""

    code = "IMPORT_TOO_LARGE"
    error_class = "too_large"


class InvalidProperty(ElementError):
    """An element property does not fit its type's schema."""

    code = "ELEMENT_INVALID_PROPERTY"
    error_class = "validation"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"properties.{field}: {reason}")
        self.field = field


class SlugTaken(ElementError):
    """An element with this slug already exists in the circle."""

    code = "ELEMENT_SLUG_TAKEN"
    error_class = "conflict"

    def __init__(self, path: str) -> None:
        super().__init__(f"an element already exists at {path!r}")
        self.path = path


class Unauthorized(ElementError):
    """No valid bearer token came with the request."""

    code = "UNAUTHORIZED"
    error_class = "unauthorized"

    def __init__(self, message: str = "a valid bearer token is required") -> None:
        super().__init__(message)


class CatalogFull(ElementError):
    """A catalog write failed because the disk is full; its transaction was rolled back."""

    code = "STORAGE_FULL"
    error_class = "storage_full"
    retryable = True

    def __init__(self) -> None:
        super().__init__("the catalog cannot be written: the disk is full; free space and "
                         "retry (the catalog transaction was rolled back)")


class Forbidden(ElementError):
    """The principal's role or an attached policy does not allow this op."""

    code = "FORBIDDEN"
    error_class = "forbidden"


class OpNotFound(ElementError):
    """The element type has no op at this method and path."""

    code = "OP_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, element_type: str, method: str, path: str) -> None:
        super().__init__(f"{element_type} elements have no op {method} /ops/{path}")


class MethodNotAllowed(ElementError):
    """An op answers at this path, but with another method."""

    code = "METHOD_NOT_ALLOWED"
    error_class = "method_not_allowed"

    def __init__(self, method: str, path: str, allowed: list[str]) -> None:
        super().__init__(f"{method} /ops/{path} is not allowed; use "
                         f"{' or '.join(allowed)}")
        self.allowed = allowed
        self.headers = {"Allow": ", ".join(allowed)}


class ElementDisabled(ElementError):
    """The element is disabled or deleted and cannot be used."""

    code = "ELEMENT_DISABLED"
    error_class = "conflict"

    def __init__(self, path: str, state: str) -> None:
        super().__init__(f"element {path!r} is {state}")
        self.path = path


class TokenNotFound(ElementError):
    """No active token has this id (never one, or revoked already)."""

    code = "TOKEN_NOT_FOUND"
    error_class = "not_found"

    def __init__(self, token_id: str) -> None:
        super().__init__(f"no active token {token_id!r}")
        self.token_id = token_id
