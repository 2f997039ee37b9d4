"""One access log line per request: method, path, status, milliseconds; never a token, a
body or a query string. Checked over a real socket, git included."""

from __future__ import annotations

import logging
import re
import time
from pathlib import Path
from typing import Any

import pytest

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
    # A request's line is written once its answer is sent, so the next request (on
    # another worker thread) may log first, and the clone's last line may still be on its
    # way: compare as sets, once every line is in.
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
