"""Bad input is a 400 and changes nothing, anywhere (issue 9, Medium 7): JSON nested 1,000
deep, integers over 4,300 digits, a NUL in a commit message, lone surrogates in a name, a
description or a README. After each refusal the draft tip in git and the catalog's version
are what they were (the surrogate once committed to git before the catalog refused it)."""

from __future__ import annotations

import pytest

from source import branch_tips
from tests.helpers import assert_error

MEMORY = "/api/demo/memory/ops"
JSON = {"Content-Type": "application/json"}

CASES = [
    ("POST", f"{MEMORY}/store",
     b'{"content": "x", "category": "fact", "metadata": ' + b"[" * 1000 + b"]" * 1000 + b"}",
     "INVALID_JSON"),
    ("POST", f"{MEMORY}/store",
     b'{"content": "x", "category": "fact", "metadata": {"n": ' + b"9" * 5000 + b"}}",
     "INVALID_JSON"),
    ("POST", f"{MEMORY}/spec_update", b'{"name": "a\\ud800b"}', "INVALID_REQUEST"),
    ("POST", f"{MEMORY}/spec_update", b'{"description": "a\\udfffb"}', "INVALID_REQUEST"),
    ("POST", f"{MEMORY}/spec_update", b'{"name": "ok", "message": "a\\u0000b"}', None),
    ("POST", f"{MEMORY}/readme_update", b'{"content": "# a\\udc00b"}', "INVALID_REQUEST"),
    ("PATCH", f"{MEMORY}/update_meta", b'{"meta": {"k": "\\ud800"}}', None),
]


@pytest.mark.parametrize("method,path,raw,code", CASES)
def test_bad_input_is_400_and_changes_nothing(server, method: str, path: str, raw: bytes,
                                              code: str | None) -> None:
    memory = server.home.catalog.element_at("demo/memory")
    tips = branch_tips(server.home.repo_path(memory))
    reply = server.client("member").request(method, path, raw=raw, headers=JSON)
    assert_error(reply, 400, code)
    after = server.home.catalog.element_at("demo/memory")
    assert (after.version, after.name, after.meta) == (memory.version, memory.name,
                                                       memory.meta)
    assert branch_tips(server.home.repo_path(memory)) == tips
    assert server.client().get(f"{MEMORY}/memories").body["memories"] == []


def test_an_empty_environment_header_is_400_not_the_default(server) -> None:
    reply = server.client("member").get(f"{MEMORY}/memories", headers={"X-Triform-Env": ""})
    assert_error(reply, 400, "INVALID_REQUEST")
