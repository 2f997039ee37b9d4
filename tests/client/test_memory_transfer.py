"""Memory export and import (design.md section 10, issue 11) through the client.

These run only against a server that has the two ops (its OpenAPI document lists them);
until then they are skipped, saying so.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from triform_client import Client, ValidationError


def count(value: Any) -> int:
    return value if isinstance(value, int) else len(value)


@pytest.fixture
def transfer(tf: Client) -> Client:
    paths = tf.openapi()["paths"]
    if not any(p.endswith("/ops/export/memories") for p in paths) or \
            not any(p.endswith("/ops/import/memories") for p in paths):
        pytest.skip("this server has no memory export/import yet (issue 11)")
    return tf


def test_export_streams_ndjson_that_imports_once(transfer: Client) -> None:
    memory = transfer.memory("demo/memory")
    ids = {memory.store(f"memory {i}", "fact")["memory"]["id"] for i in range(3)}
    memory.store("Ana likes tea", "preference", subject_type="guest", subject_id="ana")
    out = io.BytesIO()
    written = memory.export_memories(out, category="fact")
    lines = out.getvalue().splitlines()
    assert written == len(out.getvalue())
    assert json.loads(lines[0])["count"] == 3
    assert {json.loads(line)["id"] for line in lines[1:]} == ids
    transfer.circle("demo").create("memory", "copy")
    copy = transfer.memory("demo/copy")
    out.seek(0)
    assert count(copy.import_memories(out)["imported"]) == 3
    out.seek(0)
    again = copy.import_memories(out)
    assert count(again["imported"]) == 0 and count(again["skipped"]) == 3
    assert {m["id"] for m in copy.list()} == ids


def test_a_bad_line_refuses_the_whole_import(transfer: Client) -> None:
    memory = transfer.memory("demo/memory")
    memory.store("keep", "fact")
    out = io.BytesIO()
    memory.export_memories(out)
    transfer.circle("demo").create("memory", "copy")
    with pytest.raises(ValidationError):
        transfer.memory("demo/copy").import_memories(io.BytesIO(out.getvalue() + b"{oops\n"))
    assert transfer.memory("demo/copy").stats()["total"] == 0
