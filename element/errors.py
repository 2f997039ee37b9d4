"""Errors raised by the element layer (catalog, types, access, op registry).

Same three attributes as every error of the project (``code``, ``error_class``,
``retryable``); ``api/errors.py`` maps ``error_class`` to an HTTP status, once.
"""

from __future__ import annotations

__all__ = ["ElementError", "ElementNotFound", "InvalidRequest", "SlugTaken", "Unauthorized",
           "Forbidden", "OpNotFound", "NotImplementedOp", "ElementDisabled", "InvalidProperty"]


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


class NotImplementedOp(ElementError):
    """The op is on the reference sheet but not built yet; it never fakes success."""

    code = "NOT_IMPLEMENTED"
    error_class = "not_implemented"

    def __init__(self, op_name: str) -> None:
        super().__init__(f"op {op_name!r} is not implemented yet")
        self.op_name = op_name


class ElementDisabled(ElementError):
    """The element is disabled or deleted and cannot be used."""

    code = "ELEMENT_DISABLED"
    error_class = "conflict"

    def __init__(self, path: str, state: str) -> None:
        super().__init__(f"element {path!r} is {state}")
        self.path = path
