"""Retries for real: a rate limit answering 429 with Retry-After, answers lost on the way
back by a loopback proxy, a port where nothing listens. A call is tried again only when its
error allows it and repeating it cannot apply it twice; stores carry idempotency keys, so a
store tried again after a lost answer is stored once."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from triform_client import (
    Client,
    ConnectionFailed,
    RateLimited,
    RetryEvent,
    RetryPolicy,
    ValidationError,
)
from triform_client.retry import parse_retry_after

from tests.client.proxy import Proxy

MEMORY = "demo/memory"


class CountingTransport(httpx.HTTPTransport):
    """httpx's own transport, counting the requests it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(f"{request.method} {request.url.path}")
        return super().handle_request(request)


@pytest.fixture
def heard() -> list[RetryEvent]:
    return []


def limit_memory(tf: Client, requests: int, per_seconds: float) -> None:
    tf.circle("demo").create("rate-limit", "limit", properties={
        "requests": requests, "per_seconds": per_seconds})
    tf.element(MEMORY).compose(add=[{"ref": "limit"}])


def test_a_rate_limited_store_waits_retry_after_then_succeeds(
        tf: Client, connect: Any, heard: list[RetryEvent]) -> None:
    limit_memory(tf, requests=1, per_seconds=1)
    member = connect("member", on_retry=heard.append)
    memory = member.memory(MEMORY)
    memory.store("first", "fact")
    second = memory.store("second", "fact")["memory"]
    assert len(heard) == 1
    assert isinstance(heard[0].error, RateLimited) and heard[0].error.status == 429
    assert heard[0].delay == heard[0].error.retry_after == 1.0      # the server's word
    assert [m["id"] for m in tf.memory(MEMORY).list()][0] == second["id"]
    assert tf.memory(MEMORY).stats()["total"] == 2


def test_without_retries_the_429_is_raised_with_retry_after(tf: Client,
                                                             connect: Any) -> None:
    limit_memory(tf, requests=1, per_seconds=60)
    for client in (connect("member", retries=0), connect("member", max_retry_after=0.5)):
        with pytest.raises(RateLimited) as limited:
            for _ in range(2):
                client.memory(MEMORY).stats()
        error = limited.value
        assert (error.status, error.code, error.retryable) == (429, "RATE_LIMITED", True)
        assert error.retry_after is not None and 1 <= error.retry_after <= 60


def test_a_store_whose_answer_was_lost_is_stored_once(
        tf: Client, connect: Any, proxy: Proxy, heard: list[RetryEvent]) -> None:
    memory = connect(url=proxy.url, on_retry=heard.append).memory(MEMORY)
    proxy.lose_next_response()
    stored = memory.store("Ana prefers tea", "preference")["memory"]
    assert len(heard) == 1 and isinstance(heard[0].error, ConnectionFailed)
    assert heard[0].error.sent is True
    assert [m["id"] for m in tf.memory(MEMORY).list()] == [stored["id"]]
    proxy.lose_next_response()
    batch = memory.store_batch([{"content": f"m{i}", "category": "fact"} for i in range(3)])
    assert len(heard) == 2
    assert tf.memory(MEMORY).stats()["total"] == 4
    assert {r["memory"]["id"] for r in batch} <= {m["id"] for m in tf.memory(MEMORY).list()}


def test_an_op_that_cannot_be_repeated_is_not_tried_again(
        tf: Client, server: Any, proxy: Proxy) -> None:
    counting = CountingTransport()
    with Client(proxy.url, server.tokens["admin"], transport=counting, backoff=0.01) as client:
        proxy.lose_next_response()
        with pytest.raises(ConnectionFailed) as lost:
            client.circle("demo").create("memory", "notes")
    assert lost.value.sent is True and "may or may not" in lost.value.message
    assert counting.sent == ["POST /api/demo/ops/create"]
    assert tf.element("demo/notes").spec()["spec"]["slug"] == "notes"   # it was applied


def test_a_refused_request_is_not_tried_again(server: Any) -> None:
    counting = CountingTransport()
    with Client(server.url, server.tokens["admin"], transport=counting) as client:
        with pytest.raises(ValidationError):
            client.memory(MEMORY).store("x", "gossip")   # type: ignore[arg-type]
    assert counting.sent == ["POST /api/demo/memory/ops/store"]


def test_a_connection_never_made_is_tried_again_then_raised(
        server: Any, heard: list[RetryEvent]) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]         # closed on leaving: nothing listens there
    with Client(f"http://127.0.0.1:{port}", server.tokens["admin"], retries=2,
                backoff=0.01, on_retry=heard.append) as client:
        with pytest.raises(ConnectionFailed) as failed:
            client.circle("demo").create("memory", "never")   # not sent: safe to retry
    assert failed.value.sent is False and failed.value.status is None
    assert [e.attempt for e in heard] == [1, 2]
    assert all(isinstance(e.error, ConnectionFailed) for e in heard)


# -- the policy, pure ---------------------------------------------------------------------

policies = st.builds(RetryPolicy, retries=st.integers(0, 10),
                     backoff=st.floats(0, 5), max_backoff=st.floats(5, 60),
                     max_retry_after=st.floats(0, 120))


@given(policies, st.integers(0, 20), st.floats(0, 1))
def test_backoff_stays_between_half_and_all_of_its_capped_doubling(
        policy: RetryPolicy, attempt: int, jitter: float) -> None:
    delay = policy.delay(attempt, None, jitter)
    if attempt >= policy.retries:
        assert delay is None
        return
    full = min(policy.max_backoff, policy.backoff * 2 ** attempt)
    assert delay is not None and full / 2 - 1e-9 <= delay <= full + 1e-9
    assert delay <= policy.max_backoff + 1e-9


@given(policies, st.integers(0, 20), st.floats(0, 1e6))
def test_retry_after_is_obeyed_or_the_retry_given_up(policy: RetryPolicy, attempt: int,
                                                     retry_after: float) -> None:
    delay = policy.delay(attempt, retry_after, 0.5)
    if attempt >= policy.retries or retry_after > policy.max_retry_after:
        assert delay is None
    else:
        assert delay == retry_after


@given(retryable=st.booleans(), status=st.sampled_from([None, 409, 429, 500, 503]),
       sent=st.booleans(), safe=st.booleans())
def test_only_what_cannot_apply_twice_is_repeated(retryable: bool, status: int | None,
                                                  sent: bool, safe: bool) -> None:
    repeat = RetryPolicy.may_retry(retryable=retryable, status=status, sent=sent, safe=safe)
    if not retryable:
        assert not repeat
    elif safe:
        assert repeat
    elif status is None:
        assert repeat == (not sent)            # only a connection never made
    else:
        assert repeat == (status != 500)       # refused before running: 409, 429, 503


@given(st.integers(0, 10**6))
def test_retry_after_in_seconds_or_as_a_date(seconds: int) -> None:
    assert parse_retry_after(str(seconds)) == seconds
    now = datetime(2026, 1, 1, tzinfo=UTC)
    date = format_datetime(now + timedelta(seconds=seconds), usegmt=True)
    assert parse_retry_after(date, now) == seconds
    assert parse_retry_after(format_datetime(now - timedelta(seconds=seconds + 1),
                                             usegmt=True), now) == 0
    for junk in (None, "", "soon", "nan"):
        assert parse_retry_after(junk) is None
