"""Nobody without a token stops the server by connecting (issue 26, High 1).

``triform serve`` as a user runs it (a subprocess on 127.0.0.1): more idle connections than
its connection limit, and descriptors past 1024 (where ``select()`` gives up), leave it
running and answering; the oldest idle connection makes room for a new one.
"""

from __future__ import annotations

import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.server import connection_limit
from tests.helpers import Served

#: Past waitress's old limit (1000) and past FD_SETSIZE (1024) in the server.
IDLE = 1100


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = IDLE + 512
    if hard != resource.RLIM_INFINITY and hard < want:
        pytest.skip(f"this test needs {want} descriptors; the hard limit is {hard}")
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    srv = Served(tmp_path / "home").start()
    yield srv
    if srv.process is not None and srv.process.poll() is None:
        srv.stop()
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def health(port: int, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def hold(port: int, count: int, head: bytes = b"") -> list[socket.socket]:
    held = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if head:
            sock.sendall(head)
        held.append(sock)
    return held


def test_idle_connections_past_the_limit_leave_the_server_answering(served: Served) -> None:
    held: list[socket.socket] = []
    try:
        held = hold(served.port, IDLE)
        time.sleep(1)                     # let the server's loop take them all in
        assert served.process is not None
        assert served.process.poll() is None, served.log[-2000:]
        started = time.monotonic()
        answer = health(served.port)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
        assert time.monotonic() - started < 5
        # Half-sent requests too: a head, then silence.
        held += hold(served.port, 200, b"POST /healthz HTTP/1.1\r\nHost: x\r\n"
                                       b"Content-Length: 100000\r\n\r\nabc")
        assert health(served.port).startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()
    assert served.process.poll() is None, served.log[-2000:]
    assert "filedescriptor out of range" not in served.log


def test_the_connection_limit_stays_below_the_descriptor_ceiling() -> None:
    # A connection may hold three descriptors (its socket, a spooled body, a spooled
    # answer); 64 open stores hold about 320, and the catalog and git need their own.
    assert connection_limit(1024) * 3 + 512 <= 1024
    assert connection_limit(1_000_000) == 1000
    assert connection_limit(300) >= 1
