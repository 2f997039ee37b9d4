"""One HTTP exchange with the server, tried again per :class:`RetryPolicy`.

:class:`Transport` owns the ``httpx.Client`` (connection pool, auth header, timeouts),
builds op URLs, and turns every answer into data or a :class:`TriformError`. Nothing here
knows what an op means: callers say whether a call is ``safe`` to repeat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO, Any
from urllib.parse import quote

import httpx

from .errors import (
    ConnectionFailed,
    InvalidResponse,
    TriformError,
    ValidationError,
    error_from_response,
)
from .retry import RetryPolicy

__all__ = ["Transport", "RetryEvent", "op_url", "VERSION"]

VERSION = "0.1.0"

#: Failures where the request never left: the connection was not made.
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)


@dataclass(frozen=True)
class RetryEvent:
    """Told to ``on_retry`` before each wait: retry number, seconds to wait, the error."""

    attempt: int
    delay: float
    error: TriformError
    method: str
    path: str


def op_url(element_path: str, op_path: str) -> str:
    """``/api/<element_path>/ops/<op_path>`` with every segment percent-encoded.

    :raise ValidationError: an empty, ``.`` or ``..`` segment (it would change which
        element or op the URL names).
    """
    segments = [*element_path.strip("/").split("/"), "ops", *op_path.split("/")]
    for segment in segments:
        if segment in ("", ".", ".."):
            raise ValidationError(f"{element_path!r} / {op_path!r} has an empty, '.' or "
                                  f"'..' segment", code="INVALID_PATH")
    return "/api/" + "/".join(quote(s, safe="") for s in segments)


class Transport:
    """Sends calls, retries them when allowed, raises every failure."""

    def __init__(self, base_url: str, token: str | None, *, timeout: float,
                 policy: RetryPolicy, env: str | None = None,
                 on_retry: Callable[[RetryEvent], None] | None = None,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"User-Agent": f"triform-client/{VERSION}", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if env:
            headers["X-Triform-Env"] = env
        self.timeout = timeout
        self.policy = policy
        self.on_retry = on_retry
        self.http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers,
                                 timeout=timeout, transport=transport)
        self._random = random.Random()

    def close(self) -> None:
        self.http.close()

    def call(self, method: str, path: str, *, safe: bool, json: Any = None,
             params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None,
             content: bytes | IO[bytes] | None = None) -> Any:
        """Send one call and answer its JSON body; an empty body answers None.

        :raise TriformError: the server's error (a subclass by class), a connection that
            failed (:class:`ConnectionFailed`) or a body that is not JSON; after the
            retries the policy allows.
        """
        response = self._send(method, path, safe=safe, json=json, params=params,
                              headers=headers, content=content, stream=False)
        if not response.content:
            return None
        try:
            return response.json()
        except ValueError:
            raise InvalidResponse(f"{method} {path} answered {response.status_code} with a "
                                  "body that is not JSON", code="INVALID_RESPONSE",
                                  status=response.status_code) from None

    @contextmanager
    def open(self, method: str, path: str, *, safe: bool,
             params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None,
             timeout: float | None = None) -> Iterator[httpx.Response]:
        """A successful response whose body is left to the caller to stream; tried again
        as :meth:`call` is until its status line arrives, closed on leaving."""
        response = self._send(method, path, safe=safe, params=params, headers=headers,
                              stream=True, timeout=timeout)
        try:
            yield response
        finally:
            response.close()

    def download(self, path: str, out: IO[bytes], *,
                 params: Mapping[str, Any] | None = None) -> int:
        """Stream a GET's body into ``out`` chunk by chunk (never whole in memory); answer
        the bytes written.

        :raise ConnectionFailed: the body broke off; ``out`` holds what came before.
        """
        written = 0
        with self.open("GET", path, safe=True, params=params) as response:
            try:
                for chunk in response.iter_bytes():
                    out.write(chunk)
                    written += len(chunk)
            except httpx.TransportError as exc:
                raise ConnectionFailed(f"GET {path}: the body broke off after {written} "
                                       f"bytes: {exc}", sent=True) from exc
        return written

    def _send(self, method: str, path: str, *, safe: bool, stream: bool, json: Any = None,
              params: Mapping[str, Any] | None = None, headers: Mapping[str, str] | None = None,
              content: bytes | IO[bytes] | None = None,
              timeout: float | None = None) -> httpx.Response:
        """The loop: send, and on failure wait and send again while the policy allows. A
        file ``content`` is rewound for each try, so only a seekable one is tried again."""
        query = {k: _query_value(v) for k, v in (params or {}).items() if v is not None}
        rewind_to = None
        if content is not None and not isinstance(content, bytes) and content.seekable():
            rewind_to = content.tell()
        can_repeat = content is None or isinstance(content, bytes) or rewind_to is not None
        attempt = 0
        while True:
            if rewind_to is not None and content is not None and not isinstance(content, bytes):
                content.seek(rewind_to)
            response: httpx.Response | None = None
            cause: BaseException | None = None
            try:
                request = self.http.build_request(
                    method, path, json=json, params=query, headers=dict(headers or {}),
                    content=content, timeout=self.timeout if timeout is None else timeout)
                response = self.http.send(request, stream=True)
                if response.is_success and stream:
                    return response
                response.read()
            except httpx.TransportError as exc:
                if response is not None:
                    response.close()
                if response is not None and not response.is_success:
                    error = error_from_response(response)   # the status alone names it
                else:
                    sent = not isinstance(exc, _NOT_SENT)
                    error = ConnectionFailed(
                        f"{method} {path}: {type(exc).__name__}: {exc}" + (
                            " (the request may or may not have been applied)" if sent
                            else ""), sent=sent)
                    cause = exc
            else:
                if response.is_success:
                    return response
                error = error_from_response(response)
            delay = None
            if can_repeat and self.policy.may_retry(
                    retryable=error.retryable, status=error.status,
                    sent=getattr(error, "sent", True), safe=safe):
                delay = self.policy.delay(attempt, error.retry_after, self._random.random())
            if delay is None:
                raise error from cause
            attempt += 1
            if self.on_retry is not None:
                self.on_retry(RetryEvent(attempt, delay, error, method, path))
            time.sleep(delay)


def _query_value(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value
