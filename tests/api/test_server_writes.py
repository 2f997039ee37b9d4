"""The server's answers on the wire: the bytes waitress's own task sends, the head of an
answer of known length written with its body in one write (``api/server.py``,
``OneWriteTask``). A real waitress server of ``make_server`` beside a plain waitress
server, the same WSGI app, raw sockets."""

from __future__ import annotations

import re
import socket
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from flask import Flask
from waitress.server import create_server

from api.config import DEFAULTS
from api.server import CheckedChannel, make_server

BODY = b'{"results": [' + b'"memory", ' * 900 + b'"end"]}\n'


def _app(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
    """Answers of each kind waitress writes: one sized part, several, a stream of unknown
    length (chunked), no body (204), more bytes than announced."""
    path = environ["PATH_INFO"]
    if path == "/one":
        start_response("200 OK", [("Content-Type", "application/json"),
                                  ("Content-Length", str(len(BODY)))])
        return [BODY]
    if path == "/parts":
        start_response("201 CREATED", [("Content-Length", str(2 * len(BODY)))])
        return [BODY, BODY]
    if path == "/stream":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return iter([b"a" * 10, b"b" * 5000])
    if path == "/empty":
        start_response("204 NO CONTENT", [])
        return [b""]
    start_response("200 OK", [("Content-Length", "10")])
    return [BODY]


class Served:
    def __init__(self, server: Any) -> None:
        self.server = server
        self.thread = threading.Thread(target=server.run, daemon=True)
        self.thread.start()

    def get(self, path: str, version: str = "1.1") -> bytes:
        with socket.create_connection(("127.0.0.1", self.server.effective_port),
                                      timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/{version}\r\nHost: x\r\n"
                         f"Connection: close\r\n\r\n".encode())
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        return re.sub(rb"\r\nDate: [^\r]*", b"", b"".join(chunks))

    def close(self) -> None:
        self.server.close()
        self.thread.join(10)


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[Served, Served]]:
    flask_app = Flask("writes")
    flask_app.config.from_mapping(DEFAULTS)
    ours = make_server(flask_app, host="127.0.0.1", port=0, threads=2)
    ours.application = _app          # the settings of flask_app's, this WSGI app
    theirs = create_server(_app, host="127.0.0.1", port=0, threads=2)
    both = Served(ours), Served(theirs)
    yield both
    for served in both:
        served.close()


@pytest.mark.parametrize("path", ["/one", "/parts", "/stream", "/empty", "/excess"])
@pytest.mark.parametrize("version", ["1.0", "1.1"])
def test_every_kind_of_answer_sends_the_bytes_waitress_sends(
        servers: tuple[Served, Served], path: str, version: str) -> None:
    ours, theirs = servers
    assert ours.get(path, version) == theirs.get(path, version)


def test_an_answer_of_known_length_is_one_write(servers: tuple[Served, Served],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    writes: list[bytes] = []
    real = CheckedChannel.write_soon

    def write_soon(self: CheckedChannel, data: bytes) -> int:
        writes.append(bytes(data))
        return int(real(self, data))

    monkeypatch.setattr(CheckedChannel, "write_soon", write_soon)
    answer = servers[0].get("/one")
    assert len(writes) == 1 and writes[0].endswith(BODY)
    assert answer.startswith(b"HTTP/1.1 200 OK\r\n") and answer.endswith(BODY)
