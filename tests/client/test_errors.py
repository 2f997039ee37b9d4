"""Every error the server answers arrives as the exception of its class, with its code,
class, retryable flag, status and message; nothing is swallowed."""

from __future__ import annotations

from typing import Any

import pytest
from triform_client import (
    Client,
    Conflict,
    Forbidden,
    InvalidResponse,
    MethodNotAllowed,
    NotFound,
    TooLarge,
    TriformError,
    Unauthorized,
    Unavailable,
    ValidationError,
)

from tests.client.proxy import Proxy

MEMORY = "demo/memory"


def raised(call: Any) -> TriformError:
    with pytest.raises(TriformError) as info:
        call()
    return info.value


def test_each_class_maps_to_its_exception(server: Any, connect: Any) -> None:
    admin, viewer, other = connect(), connect("viewer"), connect("other")
    stranger = Client(server.url, "tfm_not-a-token")
    cases = [
        (lambda: admin.memory(MEMORY).store("x", "gossip"),   # type: ignore[arg-type]
         ValidationError, 400, "MEMORY_INVALID_CATEGORY"),
        (lambda: connect(None).memory(MEMORY).stats(), Unauthorized, 401, "UNAUTHORIZED"),
        (lambda: stranger.memory(MEMORY).stats(), Unauthorized, 401, "UNAUTHORIZED"),
        (lambda: viewer.memory(MEMORY).store("x", "fact"), Forbidden, 403, "FORBIDDEN"),
        (lambda: other.memory(MEMORY).stats(), Forbidden, 403, "FORBIDDEN"),
        (lambda: admin.memory(MEMORY).get("0" * 32), NotFound, 404, "MEMORY_NOT_FOUND"),
        (lambda: admin.memory("demo/nothing").stats(), NotFound, 404, "ELEMENT_NOT_FOUND"),
        (lambda: admin.element("demo").create("memory", "memory"), Conflict, 409,
         "ELEMENT_SLUG_TAKEN"),
        (lambda: admin.memory(MEMORY).store("x" * (1 << 20), "fact"), TooLarge, 413,
         "REQUEST_TOO_LARGE"),
        (lambda: admin.call("DELETE", "/openapi.json"), MethodNotAllowed, 405,
         "METHOD_NOT_ALLOWED"),
    ]
    for call, cls, status, code in cases:
        error = raised(call)
        assert type(error) is cls, (code, error)
        assert (error.status, error.code, error.error_class) == (status, code, cls.error_class)
        assert error.retryable is False and error.message
        assert error.body["error"]["code"] == code
        assert code in str(error) and str(status) in str(error)
    stranger.close()


def test_a_disabled_element_is_a_conflict(tf: Client) -> None:
    tf.memory(MEMORY).disable("maintenance")
    error = raised(lambda: tf.memory(MEMORY).store("x", "fact"))
    assert isinstance(error, Conflict) and error.code == "ELEMENT_DISABLED"
    assert tf.memory(MEMORY).enable()["changed"] is True


def test_an_answer_not_in_the_error_shape_is_still_an_error(connect: Any,
                                                           proxy: Proxy) -> None:
    client = connect(url=proxy.url, retries=0)
    proxy.answer_next(b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
                      b"Content-Length: 24\r\nConnection: close\r\n\r\n<h1>upstream is down</h1>")
    error = raised(lambda: client.memory(MEMORY).stats())
    assert (error.status, error.code, error.retryable) == (502, "HTTP_502", True)
    assert "upstream is down" in error.message
    proxy.answer_next(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 9\r\nConnection: close\r\n\r\n{\"total\":")
    error = raised(lambda: client.memory(MEMORY).stats())
    assert isinstance(error, InvalidResponse) and error.status == 200
    proxy.answer_next(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\n"
                      b"Content-Length: 0\r\nConnection: close\r\n\r\n")
    error = raised(lambda: client.memory(MEMORY).stats())
    assert isinstance(error, Unavailable) and error.retry_after == 7.0
