"""One access log line per request: method, path, status, milliseconds; never a token, a
body or a query string. Checked over a real socket, git included; and the middleware alone,
for when a line is written: as the last byte of an answer goes out, so a client that has
its answer and asks again finds its first request logged first."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.access_log import AccessLog
from tests.helpers import clone

LINE = re.compile(r"^127\.0\.0\.1 (?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) "
                  r"(?P<ms>\d+\.\d) ms$")


def lines(caplog: pytest.LogCaptureFixture) -> list[re.Match[str]]:
    found = []
    for record in caplog.records:
        if record.name == "triform.access":
            match = LINE.match(record.getMessage())
            assert match, record.getMessage()
            found.append(match)
    return found


def test_each_request_is_one_line_without_secrets(server: Any, caplog: pytest.LogCaptureFixture,
                                                  tmp_path: Path, git_env: dict[str, str]
                                                  ) -> None:
    caplog.set_level(logging.INFO, logger="triform.access")
    client = server.client("member", live=True)
    secret = "a body nobody may read in a log"
    assert client.post("/api/demo/memory/ops/store",
                       {"content": secret, "category": "fact"}).status == 201
    assert client.get("/api/demo/memory/ops/memories?limit=1").status == 200
    assert client.get("/api/demo/memory/ops/store").status == 405
    assert client.get("/api/demo/memory/ops/stats", token="tfm_wrong").status == 401
    clone(server, git_env, tmp_path / "wc")
    # A streamed answer (git's upload-pack) is logged when it ends, which may be after
    # the client read it all: compare as sets, once every line is in.
    wanted = {("POST", "/api/demo/memory/ops/store", "201"),
              ("GET", "/api/demo/memory/ops/memories", "200"),
              ("GET", "/api/demo/memory/ops/store", "405"),
              ("GET", "/api/demo/memory/ops/stats", "401"),
              ("GET", "/git/demo/memory.git/info/refs", "200"),
              ("POST", "/git/demo/memory.git/git-upload-pack", "200")}
    deadline = time.monotonic() + 10
    while True:
        seen = [(m["method"], m["path"], m["status"]) for m in lines(caplog)]
        if wanted <= set(seen) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert wanted <= set(seen), seen
    api = [s for s in seen if s[1].startswith("/api/")]
    assert sorted(api) == sorted(w for w in wanted if w[1].startswith("/api/"))
    text = "\n".join(r.getMessage() for r in caplog.records if r.name == "triform.access")
    for token in server.tokens.values():
        assert token not in text
    assert secret not in text and "limit=1" not in text and "tfm_wrong" not in text


def answering(*chunks: bytes, length: bool = True) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        headers = [("Content-Type", "text/plain")]
        if length:
            headers.append(("Content-Length", str(sum(map(len, chunks)))))
        start_response("200 OK", headers)
        yield from chunks
    return app


def environ(path: str) -> dict[str, Any]:
    return {"REQUEST_METHOD": "GET", "PATH_INFO": path, "SCRIPT_NAME": "",
            "REMOTE_ADDR": "127.0.0.1"}


def test_logged_when_the_last_byte_leaves_before_the_server_resumes(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="triform.access")
    served = AccessLog(answering(b"hello ", b"world"))(environ("/healthz"),
                                                       lambda *a: None)
    assert next(served) == b"hello "
    assert not caplog.records            # half sent: not done yet
    assert next(served) == b"world"      # the last byte is out; the server has not resumed
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith("127.0.0.1 GET /healthz 200 ") and line.endswith(" ms")
    assert list(served) == []
    assert len(caplog.records) == 1      # once, not again when the generator ends


def test_a_streamed_answer_is_logged_at_its_end(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="triform.access")
    served = AccessLog(answering(b"a", b"b", length=False))(environ("/api/events"),
                                                             lambda *a: None)
    assert [next(served), next(served)] == [b"a", b"b"]
    assert not caplog.records            # no length: it may go on
    assert list(served) == []
    assert len(caplog.records) == 1


def test_an_app_that_fails_is_still_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="triform.access")

    def broken(environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        raise RuntimeError("boom")
        yield b""

    with pytest.raises(RuntimeError):
        list(AccessLog(broken)(environ("/healthz"), lambda *a: None))
    [line] = [r.getMessage() for r in caplog.records]
    assert " GET /healthz - " in line
