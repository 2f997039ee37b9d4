"""Journeys: memory quality as code (docs/evals.md), with the real model, against ``triform
serve`` and stock git. A team keeps recall cases in the element's repository; a weights
change that drops recall is refused at promotion with the failing cases named, one that
improves it passes; a member cannot promote ``subject_scoping: false``, an admin can, with
a reason on record; and an eval of a subject-scoped element never shows one subject's
memories in another's case. This repository's own cases pass with its own spec."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from source import commit_files
from tests.helpers import ROOT, HttpClient, Served, commit_all, run_cli, run_git
from tests.helpers import serve as in_process

OPS = "/api/demo/memory/ops"
TEAM = (ROOT / ".triform" / "evals" / "team.yaml").read_bytes()
TEAM_CASES = ["team.yaml#ana-drink", "team.yaml#dana-arrival", "team.yaml#bob-food",
              "team.yaml#ben-city"]
#: Weights that let the conversation's context outweigh what a memory says.
CONTEXT_HEAVY = {"content": 0.1, "context": 0.9}


def member_of(srv: Served) -> tuple[str, HttpClient]:
    made = run_cli(srv.home, "token", "create", "--circle", "demo", "--role", "member",
                   "--name", "member")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    return token, srv.client(token)


def push_evals(srv: Served, token: str, git_env: dict[str, str], wc: Path,
               files: dict[str, bytes]) -> None:
    url = f"http://triform:{token}@127.0.0.1:{srv.port}/git/demo/memory.git"
    run_git(git_env, "clone", "-q", url, str(wc))
    (wc / ".triform" / "evals").mkdir()
    for name, data in files.items():
        (wc / ".triform" / "evals" / name).write_bytes(data)
    commit_all(git_env, wc, "recall cases")
    run_git(git_env, "push", "-q", "origin", "draft", cwd=wc)


def ok(reply: Any, status: int = 200) -> Any:
    assert reply.status == status, reply.body
    return reply.body


def test_a_weights_change_that_drops_recall_is_refused_one_that_improves_it_passes(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    srv = serve(embedder=None)
    admin = srv.client()
    token, member = member_of(srv)
    push_evals(srv, token, git_env, tmp_path / "wc", {"team.yaml": TEAM})
    # Live starts out recalling by the conversation's context: every case misses.
    ok(admin.post(f"{OPS}/spec_update", {"properties": {
        "association_weights": CONTEXT_HEAVY}}))
    for to in ("demo", "live"):
        ok(admin.post(f"{OPS}/source/promote", {"to": to}))
    assert ok(member.post(f"{OPS}/eval", {"branch": "live"}))["summary"]["passed"] == 0

    # The team declares gates and the member fixes the weights on draft: it improves
    # recall, so it passes, to demo and to live.
    ok(admin.post(f"{OPS}/spec_update", {"properties": {"promotion_gates": {
        "eval": {"min_pass_rate": 0.75, "no_regression": True},
        "protected": ["subject_scoping", "conscious_access", "max_per_subject"]}}}))
    ok(member.post(f"{OPS}/spec_update", {"properties": {"association_weights": None}}))
    for to in ("demo", "live"):
        moved = ok(member.post(f"{OPS}/source/promote", {"to": to}))
        assert moved["promoted"] and moved["gates"]["eval"]["pass_rate"] == 1.0
        assert moved["gates"]["eval"]["baseline_pass_rate"] == 0.0
    ok(member.post(f"{OPS}/eval", {"branch": "live"}))

    # A change back to context-heavy weights drops recall: refused, the cases named.
    ok(member.post(f"{OPS}/spec_update", {"properties": {
        "association_weights": CONTEXT_HEAVY}}))
    demo_before = ok(admin.get(f"{OPS}/source/branches"))["branches"]["demo"]["commit"]
    refused = member.post(f"{OPS}/source/promote", {"to": "demo"})
    assert refused.status == 409, refused.body
    assert refused.body["error"]["code"] == "PROMOTION_GATE_FAILED"
    for name in TEAM_CASES:
        assert name in refused.body["error"]["message"]
    assert "no_regression" in refused.body["error"]["message"]
    branches = ok(admin.get(f"{OPS}/source/branches"))
    assert branches["branches"]["demo"]["commit"] == demo_before
    # The command line shows the same, as a table (exit 3: a case failed).
    table = run_cli(srv.home, "eval", "demo/memory", "--branch", "draft",
                    env={"TRIFORM_TOKEN": token})
    assert table.returncode == 3, table.stderr
    assert "pass rate 0.00 (0 of 4)" in table.stdout
    assert all(f"{name}" in table.stdout for name in TEAM_CASES)
    diff = ok(admin.get(f"{OPS}/source/branches"))["evals"]["draft_vs_live"]
    assert diff["pass_rate"] == -1.0
    events = ok(admin.get(f"{OPS}/activity"))["events"]
    refusal = next(e for e in events if e["op"] == "source_promote_refused")
    assert refusal["principal"] == "member" and refusal["detail"]["failing"] == TEAM_CASES


SUBJECTS = b"""\
k: 5
cases:
  - id: carol-allergy
    query: what is this person allergic to?
    subject_type: guest
    subject_id: carol
    expect: [{content: shellfish}]
    reject: [{content: peanuts}]
  - id: bob-allergy
    query: what is this person allergic to?
    subject_type: guest
    subject_id: bob
    expect: [{content: peanuts}]
    reject: [{content: shellfish}]
  - id: nobody
    query: what is this person allergic to?
    reject: [{content: peanuts}, {content: shellfish}]
"""


def test_a_members_promotion_of_subject_scoping_off_is_refused_an_admins_is_recorded(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    srv = serve(embedder=None)
    admin = srv.client()
    token, member = member_of(srv)
    for who, text in (("bob", "Bob is allergic to peanuts"),
                      ("carol", "Carol is allergic to shellfish")):
        ok(member.post(f"{OPS}/store", {"content": text, "category": "fact",
                                        "subject_type": "guest", "subject_id": who}), 201)
    push_evals(srv, token, git_env, tmp_path / "wc", {"subjects.yaml": SUBJECTS})
    ok(admin.post(f"{OPS}/spec_update", {"properties": {"promotion_gates": {
        "eval": {"min_pass_rate": 1.0}, "protected": ["subject_scoping"]}}}))
    for to in ("demo", "live"):
        ok(admin.post(f"{OPS}/source/promote", {"to": to}))

    # demo/memory scopes by subject: no case's results hold another subject's memory.
    def contents(answer: dict[str, Any], name: str) -> list[str]:
        found = next(c for c in answer["cases"] if c["name"] == f"subjects.yaml#{name}")
        assert found["passed"], found
        return [r["content"] for r in found["results"]]
    for branch in ("draft", "live"):
        answer = ok(member.post(f"{OPS}/eval", {"branch": branch}))
        assert contents(answer, "carol-allergy") == ["Carol is allergic to shellfish"]
        assert contents(answer, "bob-allergy") == ["Bob is allergic to peanuts"]
        assert contents(answer, "nobody") == []

    # The member turns scoping off on draft (Write may) and tries to promote it: refused,
    # and recorded. An eval of that draft still keeps each subject's memories theirs.
    ok(member.post(f"{OPS}/spec_update", {"properties": {"subject_scoping": False}}))
    refused = member.post(f"{OPS}/source/promote", {"to": "demo"})
    assert refused.status == 403 and refused.body["error"]["code"] == "ADMIN_ONLY"
    assert "properties.subject_scoping" in refused.body["error"]["message"]
    answer = ok(member.post(f"{OPS}/eval", {"branch": "draft"}))
    assert answer["settings"]["subject_scoping"] is False
    assert answer["warnings"][0].startswith("SUBJECT_SCOPING_KEPT")
    assert contents(answer, "carol-allergy") == ["Carol is allergic to shellfish"]
    demo = ok(admin.get(f"{OPS}/source?path=.triform/spec.yaml&branch=demo"))
    assert yaml.safe_load(demo["content"])["properties"]["subject_scoping"] is True
    scoped = ok(member.post(f"{OPS}/search", {"query": "peanut allergy",
                                              "subject_type": "guest", "subject_id": "carol"},
                            headers={"X-Triform-Env": "demo"}))
    assert scoped["results"] == [] or all("Bob" not in r["memory"]["content"]
                                          for r in scoped["results"])

    # An admin may promote a protected change, with a reason; the eval gate runs the
    # candidate's spec as it is, and with scoping off every subject case fails: the
    # promotion goes through only forced, and both are on record.
    no_reason = admin.post(f"{OPS}/source/promote", {"to": "demo"})
    assert no_reason.status == 400
    reason = "the demo shows a shared team memory"
    gated = admin.post(f"{OPS}/source/promote", {"to": "demo", "reason": reason})
    assert gated.status == 409, gated.body
    assert "subjects.yaml#carol-allergy, subjects.yaml#bob-allergy, subjects.yaml#nobody" \
        in gated.body["error"]["message"]
    moved = ok(admin.post(f"{OPS}/source/promote", {"to": "demo", "reason": reason,
                                                    "force": True}))
    assert moved["promoted"] and moved["gates"]["protected"] == ["subject_scoping"]
    events = ok(admin.get(f"{OPS}/activity"))["events"]
    promoted = next(e for e in events if e["op"] == "source_promote")
    assert promoted["principal"] != "member" and promoted["detail"]["reason"] == reason
    assert promoted["detail"]["gates"]["protected"] == ["subject_scoping"]
    assert promoted["detail"]["gates"]["forced"] is True
    refusals = [e for e in events if e["op"] == "source_promote_refused"]
    assert [(e["principal"], e["detail"]["code"]) for e in refusals] == [
        (promoted["principal"], "PROMOTION_GATE_FAILED"), ("member", "ADMIN_ONLY")]
    assert refusals[1]["detail"]["protected"] == ["subject_scoping"]


def test_this_repositorys_own_evals_pass_with_its_own_spec(tmp_path: Path) -> None:
    """The example cases pass as they are, and docs/evals.md walks through the same file."""
    walkthrough = (ROOT / "docs" / "evals.md").read_text().split(
        "cat > memory/.triform/evals/team.yaml <<'YAML'\n", 1)[1].split("YAML\n", 1)[0]
    assert yaml.safe_load(walkthrough) == yaml.safe_load(TEAM)
    spec = yaml.safe_load((ROOT / ".triform" / "spec.yaml").read_text())
    srv = in_process(tmp_path / "home", embedder="fastembed")
    try:
        admin = srv.client()
        ok(admin.post("/api/demo/ops/create", {
            "element_type": "memory", "slug": spec["slug"],
            "properties": spec["properties"]}), 201)
        element = srv.home.catalog.element_at(f"demo/{spec['slug']}")
        files = {f".triform/evals/{p.name}": p.read_bytes()
                 for p in (ROOT / ".triform" / "evals").iterdir()}
        commit_files(srv.home.repo_path(element), files, message="this repository's cases")
        answer = ok(admin.post(f"/api/demo/{spec['slug']}/ops/eval", {}))
        assert answer["summary"]["failed"] == 0, json.dumps(answer["cases"], indent=1)
        assert answer["summary"]["cases"] >= 6
    finally:
        srv.close()
