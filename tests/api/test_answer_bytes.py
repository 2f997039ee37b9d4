"""What the server puts on the wire: an answer's JSON (orjson, ``api/json_answer.py``) and
its head sent with its body in one write (``api/server.py``, ``OneSendTask``).

The JSON is compared with what Flask's own encoder writes, by value, on any JSON-shaped
value (Hypothesis) and on the values orjson would write otherwise (dates, big integers,
lone surrogates...). The sends are counted on the real server's channel, answering over
one keep-alive connection: a body after its head, a head with no body (HEAD), and the
next request on the same connection.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, jsonify
from hypothesis import given
from hypothesis import strategies as st

from api.app import create_app
from api.json_answer import FastJSONProvider
from api.server import CheckedChannel, make_server

_FAST = Flask("fast")
_FAST.json = FastJSONProvider(_FAST)
_FLASK = Flask("flask")

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner,
                                                                max_size=4),
    max_leaves=20)


def answers(value: Any) -> tuple[bytes, bytes]:
    """The answer's body by orjson and by Flask's own provider."""
    with _FAST.app_context():
        fast = jsonify(value)
    with _FLASK.app_context():
        flask = jsonify(value)
    assert fast.mimetype == flask.mimetype == "application/json"
    return fast.get_data(), flask.get_data()


@given(_JSON)
def test_an_answer_holds_the_same_json_as_flask_writes(value: Any) -> None:
    fast, flask = answers(value)
    assert json.loads(fast) == json.loads(flask)
    assert fast.endswith(b"\n")


@dataclasses.dataclass
class _Point:
    x: int


@pytest.mark.parametrize("value", [
    {"at": datetime.datetime(2026, 12, 4, 9, 30)},          # Flask: an HTTP date
    {"big": 2 ** 70}, {1: "a non-string key"}, {"lone": "\ud800"}, _Point(3),
    {"id": uuid.UUID(int=7)}, {"b": 1, "a": 2}])
def test_what_orjson_would_write_otherwise_is_flasks_bytes(value: Any) -> None:
    fast, flask = answers(value)
    assert fast == flask            # the stdlib wrote it, or orjson wrote the same bytes


def test_an_answer_beyond_ascii_is_utf8_and_nan_is_null() -> None:
    fast, flask = answers({"name": "Zoë", "score": float("nan"), "top": float("inf")})
    assert fast == '{"name":"Zoë","score":null,"top":null}\n'.encode()
    assert flask == b'{"name":"Zo\\u00eb","score":NaN,"top":Infinity}\n'   # not JSON


@pytest.fixture
def sends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, list[int]]]:
    """A real server of the app on 127.0.0.1 and the byte counts of each ``send`` its
    channels made."""
    counts: list[int] = []
    send = CheckedChannel.send

    def counted(self: CheckedChannel, data: bytes, do_close: bool = True) -> int:
        sent = int(send(self, data, do_close=do_close))
        counts.append(sent)
        return sent
    monkeypatch.setattr(CheckedChannel, "send", counted)
    app = create_app({"HOME": str(tmp_path / "home"), "EMBEDDER": "hashing"})
    server = make_server(app, host="127.0.0.1", port=0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield server.effective_port, counts
    finally:
        server.close()
        thread.join(10)
        app.extensions["triform"].close()


def _sent(counts: list[int], n: int) -> list[int]:
    """``counts`` once it holds ``n`` sends (the server counts a send after making it, so
    the client may read the answer first)."""
    deadline = time.monotonic() + 10
    while len(counts) < n and time.monotonic() < deadline:
        time.sleep(0.005)
    return list(counts)


def _answer(conn: socket.socket, request: bytes, head_only: bool = False) -> bytes:
    conn.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while not head_only and len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


def test_a_head_goes_out_with_its_body_and_a_bodiless_answer_still_goes(
        sends: tuple[int, list[int]]) -> None:
    port, counts = sends
    get = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        first = _answer(conn, get)
        assert first.startswith(b"HTTP/1.1 200") and first.endswith(b'{"status":"ok"}\n')
        assert _sent(counts, 1) == [len(first)]             # one send: head and body
        head = _answer(conn, b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n", head_only=True)
        assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")
        again = _answer(conn, get)                          # nothing held over
        assert again.startswith(b"HTTP/1.1 200") and again.endswith(b'{"status":"ok"}\n')
        missing = _answer(conn, b"GET /api/x/y/ops/nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        assert missing.startswith(b"HTTP/1.1 4")
        assert json.loads(missing.partition(b"\r\n\r\n")[2])["error"]
    assert len(_sent(counts, 4)) == 4
