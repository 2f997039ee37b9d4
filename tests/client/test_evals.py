"""Recall evals and promotion gates through the Python client (docs/evals.md)."""

from __future__ import annotations

from typing import Any

import pytest
from triform_client import Client, Conflict, Forbidden, TooLarge, ValidationError

from source import commit_files

CASES = b"""\
k: 1
seed:
  - {key: ana-tea, content: Ana prefers green tea, category: preference}
cases:
  - {id: ana, query: Ana prefers tea, expect: [{seed: ana-tea}]}
"""


def test_eval_status_and_a_gated_promotion(tf: Client, connect: Any, server: Any) -> None:
    element = server.home.catalog.element_at("demo/memory")
    commit_files(server.home.repo_path(element), {".triform/evals/team.yaml": CASES},
                 message="cases")
    memory = tf.memory("demo/memory")
    run = memory.eval()
    assert run["summary"]["pass_rate"] == 1.0 and run["cases"][0]["name"] == "team.yaml#ana"
    assert memory.eval("live")["summary"]["cases"] == 0
    status = memory.eval_status()
    assert status["last"]["draft"]["commit"] == run["commit"]
    assert status["draft_vs_live"]["pass_rate"] is None        # live had no case to score
    with pytest.raises(ValidationError):
        memory.eval(cases=["team.yaml#nope"])

    memory.spec_update({"promotion_gates": {"eval": {"min_pass_rate": 1.0}},
                        "relevance_threshold": 0.999})
    member = connect("member").memory("demo/memory")
    with pytest.raises(Conflict) as refused:
        member.source.promote("demo")
    assert refused.value.code == "PROMOTION_GATE_FAILED" and "team.yaml#ana" in str(
        refused.value)
    with pytest.raises(Forbidden):
        member.source.promote("demo", force=True, reason="please")
    forced = memory.source.promote("demo", force=True, reason="threshold trial")
    assert forced["promoted"] and forced["gates"]["forced"] is True

    server.home.max_eval_work = 0
    commit_files(server.home.repo_path(element), {".triform/evals/all.yaml":
                 b"cases: [{id: c, query: q, reject: [{content: x}]}]\n"}, message="more")
    memory.store("one memory", "fact")
    with pytest.raises(TooLarge):
        memory.eval()
