"""One request's work is bounded (issue 26, Low 13).

A 786 KB observe cost 60 s of CPU (every one of thousands of statements decided and
written, each against a growing pool); a 100k-line import held a thread for 8 minutes.
Now an observe reads at most ``MAX_STATEMENTS`` statements, and an import over HTTP takes
at most ``MAX_IMPORT_MEMORIES`` memories, of which at most ``MAX_IMPORT_EMBEDDED`` without
usable vectors; the home's operator (the command line on its own files) is not bounded.
"""

from __future__ import annotations

import json
import random
import string
from typing import Any

from element import Invocation, invoke
from element.agents.rule_evaluator import MAX_STATEMENTS
from element.ops.transfer import MAX_IMPORT_EMBEDDED, MAX_IMPORT_MEMORIES
from tests.helpers import Server, assert_error

MEMORY = "/api/demo/memory/ops"
NDJSON = {"Content-Type": "application/x-ndjson"}


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_lowercase) for _ in range(7))


def test_an_observe_reads_a_bounded_number_of_statements(server: Server) -> None:
    rng = random.Random(26)
    text = "".join(f"I like {_word(rng)}. I live in {_word(rng)}. " for _ in range(400))
    member = server.client("member")
    server.client().post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 100000}})
    reply = member.post(f"{MEMORY}/observe", {"turns": [
        {"role": "user", "content": text[:16000]}]})
    assert reply.status == 200, reply.body
    decisions = reply.body["decisions"]
    written = [d for d in decisions if d["action"] in ("add", "update")]
    assert len(written) <= MAX_STATEMENTS
    assert any("left out" in d.get("reason", "") for d in decisions), decisions[:3]
    total = member.get(f"{MEMORY}/stats").body["total"]
    assert 0 < total <= MAX_STATEMENTS


def _export(n: int, *, vectors: bool = False, model: str | None = None) -> bytes:
    header: dict[str, Any] = {"format": "triform-memories", "version": 1, "count": n}
    if model:
        header["model"] = model
    lines = [{"id": f"{i:032x}", "content": f"memory {i}", "category": "fact",
              "created_at": "2024-01-01T00:00:00Z"} for i in range(n)]
    return b"".join(json.dumps(x).encode() + b"\n" for x in [header, *lines])


def test_an_import_over_http_takes_a_bounded_number_of_memories(server: Server) -> None:
    member = server.client("member")
    too_many = _export(MAX_IMPORT_MEMORIES + 1)
    error = assert_error(member.post(f"{MEMORY}/import/memories", raw=too_many,
                                     headers=NDJSON), 413, "IMPORT_TOO_LARGE")
    assert str(MAX_IMPORT_MEMORIES) in error["message"]
    to_embed = _export(MAX_IMPORT_EMBEDDED + 1)
    error = assert_error(member.post(f"{MEMORY}/import/memories", raw=to_embed,
                                     headers=NDJSON), 413, "IMPORT_TOO_LARGE")
    assert "vectors" in error["message"]
    assert member.get(f"{MEMORY}/stats").body["total"] == 0
    fits = member.post(f"{MEMORY}/import/memories", raw=_export(MAX_IMPORT_EMBEDDED),
                       headers=NDJSON)
    assert fits.status == 200 and fits.body["imported"] == MAX_IMPORT_EMBEDDED


def test_the_operator_is_not_bounded(server: Server) -> None:
    done = invoke(server.home, Invocation("demo/memory", op="import_memories",
                                          operator="cli",
                                          raw_body=_export(MAX_IMPORT_EMBEDDED + 5)))
    assert done.body["imported"] == MAX_IMPORT_EMBEDDED + 5
