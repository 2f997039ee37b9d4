"""Slow and oversized clients do not take the service down (issue 9, Medium 10).

A real waitress server with the settings ``triform serve`` uses (``api.server.make_server``):
150 sockets that never finish their headers leave it answering, and a body larger than any
route takes is refused from its ``Content-Length`` before a byte of it is read.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from api.server import make_server, server_settings
from source import MAX_PUSH_BYTES


@pytest.fixture
def waitress_port(server) -> Iterator[int]:
    srv = make_server(server.app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=_run_quietly, args=(srv,), daemon=True)
    thread.start()
    yield int(srv.effective_port)
    srv.task_dispatcher.shutdown()
    srv.close()
    thread.join(5)


def _run_quietly(srv: Any) -> None:
    try:
        srv.run()
    except OSError:          # close() pulls the sockets from under select(): stopping
        pass


def _get(port: int, path: str, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def test_slow_header_sockets_leave_the_server_answering(waitress_port: int) -> None:
    slow = []
    try:
        for _ in range(150):
            sock = socket.create_connection(("127.0.0.1", waitress_port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")   # never ends
            slow.append(sock)
        started = time.monotonic()
        answer = _get(waitress_port, "/healthz")
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert time.monotonic() - started < 5
    finally:
        for sock in slow:
            sock.close()


def test_oversized_content_length_is_refused_before_the_body(server,
                                                             waitress_port: int) -> None:
    assert server_settings(server.app)["max_request_body_size"] > MAX_PUSH_BYTES
    with socket.create_connection(("127.0.0.1", waitress_port), timeout=10) as sock:
        sock.sendall(b"POST /api/demo/ops/import/bundle HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\n"
                     b"Content-Length: 314572800\r\n\r\n")          # 300 MB, none sent
        started = time.monotonic()
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert time.monotonic() - started < 5
