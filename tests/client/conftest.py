"""Fixtures for the client's tests: the real server of ``tests/conftest.py``, clients of it
with each role, and a loopback proxy that fails on demand."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from triform_client import Client

from tests.client.proxy import Proxy


@pytest.fixture
def connect(server: Any) -> Iterator[Any]:
    """``connect(role="admin", url=None, **options)``: a Client, closed after the test."""
    made: list[Client] = []

    def make(role: str = "admin", url: str | None = None, **options: Any) -> Client:
        options.setdefault("backoff", 0.01)
        options.setdefault("max_backoff", 0.05)
        client = Client(url or server.url, server.tokens.get(role), **options)
        made.append(client)
        return client
    yield make
    for client in made:
        client.close()


@pytest.fixture
def tf(connect: Any) -> Client:
    """An admin client."""
    return connect()


@pytest.fixture
def proxy(server: Any) -> Iterator[Proxy]:
    running = Proxy(server.port)
    yield running
    running.close()
