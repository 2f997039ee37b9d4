"""Promotion gates (docs/evals.md) on the one op path, with the hashing embedder: protected
properties need an admin's promotion with a reason, a failing eval gate refuses the
promotion naming its cases, only an admin forces it, a member cannot escape the gates by
dropping them or the failing cases, and every refusal and override is in activity. The
console's forms are in test_console.py, the Python client's in tests/client/test_evals.py,
the real model's journeys in tests/journeys/test_evals.py."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from source import commit_files
from tests.helpers import Server, activity_events, assert_error

OPS = "/api/demo/memory/ops"
CASES = b"""\
k: 1
seed:
  - {key: ana-tea, content: Ana prefers green tea, category: preference}
  - {key: ben-lyon, content: Ben lives in Lyon, category: fact}
cases:
  - {id: ana, query: Ana prefers tea, expect: [{seed: ana-tea}]}
  - {id: ben, query: Ben lives in Lyon now, expect: [{seed: ben-lyon}]}
"""
GATES = {"eval": {"min_pass_rate": 1.0, "no_regression": True},
         "protected": ["subject_scoping", "conscious_access"]}
#: A weights change that drops recall: cases that give no context score 0 everywhere.
CONTEXT_ONLY = {"association_weights": {"content": 0, "context": 1}}


def put(server: Server, files: dict[str, bytes | None]) -> str:
    element = server.home.catalog.element_at("demo/memory")
    return commit_files(server.home.repo_path(element),
                        {f".triform/evals/{k}": v for k, v in files.items()},
                        message="evals")


def spec(server: Server, **properties: Any) -> None:
    reply = server.client().post(f"{OPS}/spec_update", {"properties": properties})
    assert reply.status == 200, reply.body


def promote(server: Server, role: str = "member", **body: Any) -> Any:
    return server.client(role).post(f"{OPS}/source/promote", {"to": "demo", **body})


def tips(server: Server) -> dict[str, str]:
    branches = server.client().get(f"{OPS}/source/branches").body["branches"]
    return {name: head["commit"] for name, head in branches.items()}


@pytest.fixture
def gated(server: Server) -> Server:
    """demo/memory with cases and gates on draft, demo and live."""
    put(server, {"team.yaml": CASES})
    spec(server, promotion_gates=GATES)
    for to in ("demo", "live"):
        moved = promote(server, "admin", to=to)
        assert moved.status == 200 and moved.body["promoted"], moved.body
    return server


def test_a_member_promotes_what_passes_and_the_gates_say_what_they_checked(
        gated: Server) -> None:
    spec(gated, max_memories=500)
    moved = promote(gated)
    assert moved.status == 200 and moved.body["promoted"], moved.body
    gates = moved.body["gates"]
    assert gates["protected"] == [] and gates["forced"] is False
    assert gates["eval"]["pass_rate"] == 1.0 and gates["eval"]["ok"]
    assert gates["eval"]["baseline_pass_rate"] == 1.0       # no_regression ran both specs
    [event] = activity_events(gated.client(), "demo/memory", "source_promote")[:1]
    assert event["principal"] == "member" and event["detail"]["gates"]["eval"]["cases"] == 2
    [run] = gated.home.catalog.evals.runs(
        gated.home.catalog.element_at("demo/memory").id, limit=1)
    assert (run["trigger"], run["branch"], run["commit"]) == ("promotion", "draft",
                                                              moved.body["commit"])


def test_a_weights_change_that_drops_recall_is_refused_naming_the_cases(
        gated: Server) -> None:
    before = tips(gated)
    spec(gated, **CONTEXT_ONLY)
    refused = promote(gated)
    error = assert_error(refused, 409, "PROMOTION_GATE_FAILED")
    assert "pass rate 0.00 is under min_pass_rate 1" in error["message"]
    assert "team.yaml#ana, team.yaml#ben" in error["message"]
    assert "(no_regression): team.yaml#ana, team.yaml#ben" in error["message"]
    assert tips(gated)["demo"] == before["demo"]                       # nothing moved
    [event] = activity_events(gated.client(), "demo/memory", "source_promote_refused")
    assert event["principal"] == "member"
    assert event["detail"]["failing"] == ["team.yaml#ana", "team.yaml#ben"]
    assert event["detail"]["code"] == "PROMOTION_GATE_FAILED"

    # Only an admin forces it, and only with a reason; the reason is recorded.
    assert_error(promote(gated, force=True, reason="trust me"), 403, "ADMIN_ONLY")
    assert_error(promote(gated, "admin", force=True), 400)
    forced = promote(gated, "admin", force=True, reason="context-heavy trial on demo")
    assert forced.status == 200 and forced.body["gates"]["forced"] is True
    assert tips(gated)["demo"] == tips(gated)["draft"]
    event = activity_events(gated.client(), "demo/memory", "source_promote")[0]
    assert event["detail"]["reason"] == "context-heavy trial on demo"
    assert event["detail"]["gates"]["forced"] is True
    assert event["detail"]["gates"]["eval"]["failing"] == ["team.yaml#ana", "team.yaml#ben"]


def test_an_improvement_passes_no_regression(server: Server) -> None:
    put(server, {"team.yaml": CASES})
    spec(server, **CONTEXT_ONLY)
    assert promote(server, "admin").status == 200      # no gates yet: demo recalls nothing
    spec(server, association_weights=None,
         promotion_gates={"eval": {"min_pass_rate": 0.5, "no_regression": True}})
    moved = promote(server)
    assert moved.status == 200, moved.body
    assert moved.body["gates"]["eval"]["baseline_pass_rate"] == 0.0
    assert moved.body["gates"]["eval"]["pass_rate"] == 1.0


def test_a_dropped_failing_case_still_runs(gated: Server) -> None:
    spec(gated, relevance_threshold=0.999)
    put(gated, {"team.yaml": CASES.replace(
        b"  - {id: ben, query: Ben lives in Lyon now, expect: [{seed: ben-lyon}]}\n", b"")})
    error = assert_error(promote(gated), 409, "PROMOTION_GATE_FAILED")
    assert "team.yaml#ben" in error["message"]
    put(gated, {"team.yaml": None})                      # every case gone
    error = assert_error(promote(gated), 409, "PROMOTION_GATE_FAILED")
    assert "team.yaml#ana, team.yaml#ben" in error["message"]


def test_a_protected_property_needs_an_admins_promotion_with_a_reason(
        gated: Server) -> None:
    before = tips(gated)
    spec(gated, subject_scoping=False)
    error = assert_error(promote(gated), 403, "ADMIN_ONLY")
    assert "properties.subject_scoping" in error["message"]
    assert tips(gated)["demo"] == before["demo"]
    [event] = activity_events(gated.client(), "demo/memory", "source_promote_refused")
    assert event["detail"]["protected"] == ["subject_scoping"]
    assert_error(promote(gated, "admin"), 400)                  # no reason
    moved = promote(gated, "admin", reason="the demo shows shared memories")
    assert moved.status == 200 and moved.body["gates"]["protected"] == ["subject_scoping"]
    event = activity_events(gated.client(), "demo/memory", "source_promote")[0]
    assert event["principal"] == "admin"
    assert event["detail"]["reason"] == "the demo shows shared memories"
    assert event["detail"]["gates"]["protected"] == ["subject_scoping"]


def test_a_member_cannot_drop_the_gates_on_draft_to_pass_them(gated: Server) -> None:
    spec(gated, promotion_gates=None, **CONTEXT_ONLY)
    error = assert_error(promote(gated), 403, "ADMIN_ONLY")
    assert "properties.promotion_gates" in error["message"]


def test_a_member_cannot_overwrite_a_gated_element_by_import(gated: Server) -> None:
    admin = gated.client()
    bundle = admin.get(f"{OPS}/export/bundle").raw
    body = {"bundle_base64": base64.b64encode(bundle).decode(), "slug": "memory",
            "overwrite": True}
    refused = gated.client("member").post("/api/demo/ops/import/bundle", body)
    assert "declares promotion_gates on demo and live" in str(refused.body)
    assert admin.post("/api/demo/ops/import/bundle", body).body["counts"]["imported"] == 1


def test_other_elements_promote_as_before(server: Server) -> None:
    created = server.client().post("/api/demo/ops/create", {"element_type": "prompt",
                                                            "slug": "hello"})
    assert created.status == 201
    server.client().post("/api/demo/hello/ops/readme_update", {"content": "# hi\n"})
    moved = server.client("member").post("/api/demo/hello/ops/source/promote", {"to": "demo"})
    assert moved.status == 200 and moved.body["promoted"] and "gates" not in moved.body
    assert_error(server.client("member").post("/api/demo/hello/ops/source/promote", {
        "to": "demo", "force": True, "reason": "x"}), 403, "ADMIN_ONLY")
