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


# -- issue 26, Medium 10: a large body is read only for a caller who may send it ----------
def _head_only(port: int, method_path: str, length: int, token: str | None = None,
               extra: str = "") -> tuple[bytes, float]:
    """Send a request's head announcing ``length`` bytes, none of them; the answer."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        started = time.monotonic()
        sock.sendall(f"{method_path} HTTP/1.1\r\nHost: x\r\n{auth}{extra}"
                     f"Content-Type: application/x-ndjson\r\n"
                     f"Content-Length: {length}\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
        return answer, time.monotonic() - started


IMPORT = "POST /api/demo/memory/ops/import/memories"


def test_a_large_body_without_a_token_is_refused_on_its_headers(waitress_port: int) -> None:
    answer, took = _head_only(waitress_port, IMPORT, 50 * 1024 * 1024)
    assert answer.startswith(b"HTTP/1.1 401"), answer[:200]
    assert b'"code": "UNAUTHORIZED"' in answer or b'"code":"UNAUTHORIZED"' in answer
    assert took < 3


def test_a_large_body_from_a_token_that_may_not_write_there_is_refused(
        server, waitress_port: int) -> None:
    for role, status in (("viewer", b"403"), ("other", b"403"), (None, b"401")):
        token = server.tokens[role] if role else "tfm_not-a-token"
        answer, _ = _head_only(waitress_port, IMPORT, 20 * 1024 * 1024, token)
        assert answer.startswith(b"HTTP/1.1 " + status), (role, answer[:200])


def test_a_body_over_its_routes_limit_is_refused_on_its_headers(server,
                                                                waitress_port: int) -> None:
    answer, took = _head_only(waitress_port, "POST /api/demo/memory/ops/store",
                              2 * 1024 * 1024, server.tokens["member"])
    assert answer.startswith(b"HTTP/1.1 413") and b"REQUEST_TOO_LARGE" in answer, answer[:300]
    assert took < 3


def test_a_git_push_without_credentials_is_refused_on_its_headers(waitress_port: int) -> None:
    answer, _ = _head_only(waitress_port, "POST /git/demo/memory.git/git-receive-pack",
                           50 * 1024 * 1024)
    assert answer.startswith(b"HTTP/1.1 401") and b"www-authenticate: basic" in answer.lower()


def test_a_members_large_import_is_read(server, waitress_port: int) -> None:
    lines = [{"id": f"{n:032x}", "content": "x" * 2000, "category": "fact",
              "created_at": "2024-01-01T00:00:00Z"} for n in range(700)]
    header = {"format": "triform-memories", "version": 1, "count": len(lines)}
    import json
    body = b"".join(json.dumps(x).encode() + b"\n" for x in [header, *lines])
    assert len(body) > 1024 * 1024
    with socket.create_connection(("127.0.0.1", waitress_port), timeout=60) as sock:
        sock.sendall(f"{IMPORT} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                     f"Authorization: Bearer {server.tokens['member']}\r\n"
                     f"Content-Type: application/x-ndjson\r\nContent-Length: {len(body)}"
                     "\r\n\r\n".encode() + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]


def test_the_documented_import_limit_is_the_servers(server) -> None:
    """Issue 26, Low 17: the docs said 256 MiB for an import; waitress refused anything
    over ~101 MiB (its limit left the import route out)."""
    from api.limits import refusal_on_headers
    limit = server.app.config["MAX_IMPORT_BODY"]
    assert server_settings(server.app)["max_request_body_size"] > limit
    headers = {"CONTENT_LENGTH": str(limit), "AUTHORIZATION":
               f"Bearer {server.tokens['member']}"}
    assert refusal_on_headers(server.app, "/api/demo/memory/ops/import/memories",
                              headers) is None
    over = refusal_on_headers(server.app, "/api/demo/memory/ops/import/memories",
                              {**headers, "CONTENT_LENGTH": str(limit + 1)})
    assert over is not None and over[0].startswith("413")
