"""The ``eval`` op (docs/evals.md) through the app, with the hashing embedder: a branch's
cases run with that branch's spec, over seed memories in a scratch store or the element's
own memories (writing nothing to either), recorded in activity and the catalog and shown
by ``source_branches`` and ``batch_stats``; malformed eval files refused at push with the
file and line; the command line's table. Real git, real files; nothing mocked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from source import commit_files
from tests.helpers import (Server, activity_events, assert_error, clone, commit_all, create,
                           run_cli, run_git, serve)

EVAL = "/api/demo/memory/ops/eval"

TEAM = b"""\
k: 1
seed:
  - {key: ana-tea, content: Ana prefers green tea, category: preference}
  - {key: ben-lyon, content: Ben lives in Lyon, category: fact}
  - {key: dana-train, content: Dana takes the early train, category: fact}
cases:
  - id: ana
    query: Ana prefers tea
    expect: [{seed: ana-tea}]
    reject: [{content: Lyon}]
  - id: ben
    query: Ben lives in Lyon now
    expect: [{seed: ben-lyon}]
  - id: wrong
    query: Dana takes the train
    expect: [{seed: ana-tea}]
"""


def put(server: Server, files: dict[str, bytes], path: str = "demo/memory") -> str:
    """Commit eval files to an element's draft, as a push would land them."""
    element = server.home.catalog.element_at(path)
    return commit_files(server.home.repo_path(element),
                        {f".triform/evals/{name}": data for name, data in files.items()},
                        message="evals")


def run(server: Server, body: dict[str, Any] | None = None, role: str = "member",
        path: str = "demo/memory") -> dict[str, Any]:
    reply = server.client(role).post(f"/api/{path}/ops/eval", body or {})
    assert reply.status == 200, reply.body
    return dict(reply.body)


def case(answer: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in answer["cases"] if c["name"] == name)


def test_a_branchs_cases_run_with_its_spec_and_the_run_is_recorded(server: Server) -> None:
    commit = put(server, {"team.yaml": TEAM})
    answer = run(server)
    assert (answer["branch"], answer["commit"], answer["recorded"]) == ("draft", commit, True)
    assert answer["summary"] == {"cases": 3, "passed": 2, "failed": 1, "pass_rate": 0.6667,
                                 "recall_at_k": 0.6667, "mrr": 0.6667,
                                 "failing": ["team.yaml#wrong"]}
    ana = case(answer, "team.yaml#ana")
    assert ana["passed"] and ana["memories"] == "seed" and ana["line"] == 7
    assert ana["expected"][0]["rank"] == 1 and ana["rejected"][0]["in_top_k"] is False
    assert ana["results"][0]["seed"] == "ana-tea" and "memory_id" not in ana["results"][0]
    wrong = case(answer, "team.yaml#wrong")
    assert not wrong["passed"] and wrong["reciprocal_rank"] < 1 and wrong["recall"] == 0
    assert wrong["reasons"][0].startswith("seed:ana-tea ")
    assert "(must be in the top 1)" in wrong["reasons"][0]
    [event] = activity_events(server.client(), "demo/memory", "eval")
    assert event["detail"]["pass_rate"] == 0.6667 and event["detail"]["commit"] == commit
    assert event["principal"] == "member"
    evals = server.client("viewer").get("/api/demo/memory/ops/source/branches").body["evals"]
    assert evals["last"]["draft"]["commit"] == commit and evals["last"]["draft"]["current"]
    assert evals["last"]["live"] is None and evals["draft_vs_live"] is None

    # The spec of the branch evaluated is what recall uses: a threshold only draft has.
    admin = server.client()
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "relevance_threshold": 0.999}}).status == 200
    draft = run(server)
    assert draft["settings"]["relevance_threshold"] == 0.999
    assert "is not recalled" in case(draft, "team.yaml#ben")["reasons"][0]
    live = run(server, {"branch": "live"})
    assert live["settings"]["relevance_threshold"] == 0.4 and live["commit"] != commit
    assert live["summary"]["cases"] == 0        # live has no eval files yet
    assert admin.post("/api/demo/memory/ops/source/promote", {"to": "demo"}).status == 200
    assert admin.post("/api/demo/memory/ops/source/promote", {"to": "live"}).status == 200
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "relevance_threshold": None}}).status == 200
    run(server, {"branch": "live"})
    run(server)
    diff = admin.get("/api/demo/memory/ops/source/branches").body["evals"]["draft_vs_live"]
    assert diff["pass_rate"] == pytest.approx(0.6667) and diff["mrr"] is not None


def test_seed_memories_never_reach_the_element(server: Server) -> None:
    member = server.client("member")
    stored = member.post("/api/demo/memory/ops/store", {"content": "The office opens at 9",
                                                        "category": "fact"}).body["memory"]
    put(server, {"team.yaml": TEAM})
    run(server)
    run(server, {"cases": ["team.yaml#ana"]})
    listed = member.get("/api/demo/memory/ops/memories").body["memories"]
    assert [m["id"] for m in listed] == [stored["id"]]
    assert member.get("/api/demo/memory/ops/stats").body["total"] == 1
    assert not list(server.home.path.glob(".eval-scratch-*"))      # the scratch is gone
    element = server.home.catalog.element_at("demo/memory")
    runtime = server.home.runtime_path(element)
    log = (runtime / "memories.jsonl").read_text()
    assert "Ana prefers green tea" not in log


def test_over_the_elements_memories_an_eval_writes_nothing(server: Server) -> None:
    admin = server.client()
    fixtures = {".triform/fixtures/people.yaml": b"kind: memory\nrecords:\n"
                b"  - {key: ana-tea, content: Ana prefers green tea, category: preference}\n"}
    element = server.home.catalog.element_at("demo/memory")
    commit_files(server.home.repo_path(element), fixtures, message="fixtures")
    assert admin.post("/api/demo/memory/ops/source/fixtures", {
        "dry_run": False, "confirm": True}).status == 200
    ben = admin.post("/api/demo/memory/ops/store", {"content": "Ben lives in Lyon",
                                                    "category": "fact"}).body["memory"]
    put(server, {"element.yaml": f"""\
k: 1
cases:
  - id: ana
    query: Ana prefers green tea
    expect: [{{fixture: people.yaml#ana-tea}}]
  - id: ben
    query: Ben lives in Lyon
    expect: [{{memory: {ben['id']}}}]
    reject: [{{content: tea}}]
""".encode()})
    log = server.home.runtime_path(element) / "memories.jsonl"
    before = log.read_bytes()
    answer = run(server)
    assert answer["summary"]["passed"] == 2, answer["cases"]
    assert case(answer, "element.yaml#ben")["results"][0]["memory_id"] == ben["id"]
    assert log.read_bytes() == before                   # not even an access count
    memories = admin.get("/api/demo/memory/ops/memories").body["memories"]
    assert {m["access_count"] for m in memories} == {0}


def test_one_subjects_memories_never_show_in_anothers_case(server: Server) -> None:
    admin = server.client()
    for who, text in (("bob", "Bob is allergic to peanuts"),
                      ("carol", "Carol is allergic to shellfish")):
        assert admin.post("/api/demo/memory/ops/store", {
            "content": text, "category": "fact", "subject_type": "guest",
            "subject_id": who}).status == 201
    put(server, {"people.yaml": b"""\
k: 5
cases:
  - id: carol
    query: who is allergic to peanuts or shellfish?
    subject_type: guest
    subject_id: carol
    expect: [{content: shellfish}]
    reject: [{content: peanuts}]
"""})
    # A draft that turns scoping off still runs over the element's memories scoped: the
    # element scopes by subject where it is governed now.
    assert admin.post("/api/demo/memory/ops/spec_update", {"properties": {
        "subject_scoping": False}}).status == 200
    answer = run(server, role="viewer")
    carol = case(answer, "people.yaml#carol")
    assert carol["passed"], carol
    assert [r["content"] for r in carol["results"]] == ["Carol is allergic to shellfish"]
    assert answer["settings"]["subject_scoping"] is False
    assert answer["warnings"][0].startswith("SUBJECT_SCOPING_KEPT: ")
    # Live still scopes (demo/memory is made with scoping on): no warning there.
    put(server, {"people.yaml": b"cases: [{id: c, query: q, reject: [{content: x}]}]\n"})
    assert run(server, {"branch": "live"})["warnings"] == []


def test_a_partial_run_is_answered_not_recorded(server: Server) -> None:
    put(server, {"team.yaml": TEAM})
    answer = run(server, {"cases": ["team.yaml#ana", "ben"]})
    assert [c["name"] for c in answer["cases"]] == ["team.yaml#ana", "team.yaml#ben"]
    assert answer["recorded"] is False
    assert server.home.catalog.evals.runs(answer["commit"]) == []
    branches = server.client().get("/api/demo/memory/ops/source/branches").body
    assert branches["evals"]["last"]["draft"] is None
    unknown = server.client().post(EVAL, {"cases": ["team.yaml#nope"]})
    assert "'team.yaml#nope' names no case of draft" in assert_error(unknown, 400)["message"]
    assert_error(server.client().post(EVAL, {"branch": "nightly"}), 404,
                 "SOURCE_BRANCH_NOT_FOUND")
    assert_error(server.client().post(EVAL, {"cases": "team.yaml#ana"}), 400)
    assert_error(server.client("other").post(EVAL, {}), 403)
    assert_error(server.client().post("/api/demo/ops/eval", {}), 404, "OP_NOT_FOUND")


def test_an_eval_past_its_bounds_is_refused_before_it_runs(server: Server) -> None:
    admin = server.client()
    for text in ("one", "two", "three"):
        admin.post("/api/demo/memory/ops/store", {"content": text, "category": "fact"})
    put(server, {"all.yaml": b"cases:\n" + b"".join(
        f"  - {{id: c{i}, query: q{i}, reject: [{{content: x}}]}}\n".encode()
        for i in range(4))})
    server.home.max_eval_work = 11          # 4 cases x 3 memories = 12
    error = assert_error(admin.post(EVAL, {}), 413, "EVAL_TOO_LARGE")
    assert "12 case x memory pairs" in error["message"] and "'cases' field" in error["message"]
    assert activity_events(admin, "demo/memory", "eval") == []
    assert run(server, {"cases": ["c0", "c1", "c2"]})["summary"]["cases"] == 3


def test_a_malformed_eval_file_is_refused_at_push_with_file_and_line(
        server: Server, tmp_path: Path, git_env: dict[str, str]) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    before = server.client().get("/api/demo/memory/ops/source/branches").body
    for body, shown in (
            (TEAM.replace(b"{seed: ben-lyon}", b"{seed: ben-paris}"),
             "refused: .triform/evals/team.yaml: line 13: cases[1].expect[0].seed: "
             "'ben-paris' is no key of this file's seed"),
            (TEAM.replace(b"category: fact}\n  - {key: dana", b"category: facts}\n  - {key: "
                          b"dana"),
             ".triform/evals/team.yaml: line 4: seed[1]: category 'facts' is not one of"),
            (TEAM.replace(b"  - id: ben\n", b"  - id: ben\n    as_of: last week\n"),
             ".triform/evals/team.yaml: line 12: cases[1].as_of: 'last week' is not an "
             "ISO-8601 date-time")):
        (wc / ".triform" / "evals").mkdir(exist_ok=True)
        (wc / ".triform" / "evals" / "team.yaml").write_bytes(body)
        commit_all(git_env, wc, "cases")
        pushed = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
        assert pushed.returncode != 0 and shown in pushed.stderr, pushed.stderr
        run_git(git_env, "reset", "-q", "--hard", "HEAD~1", cwd=wc)
    after = server.client().get("/api/demo/memory/ops/source/branches").body
    assert after["branches"]["draft"]["commit"] == before["branches"]["draft"]["commit"]
    (wc / ".triform" / "evals").mkdir(exist_ok=True)
    (wc / ".triform" / "evals" / "team.yaml").write_bytes(TEAM)
    commit_all(git_env, wc, "cases")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    assert run(server)["summary"]["cases"] == 3


def test_what_got_past_a_push_is_reported_and_refused_by_name(server: Server) -> None:
    bad = TEAM.replace(b"category: preference}", b"category: wish}")
    commit = put(server, {"team.yaml": bad})       # landed without the push check
    report = server.client().post("/api/demo/memory/ops/source/validate", {}).body
    assert not report["ok"] and report["commit"] == commit
    assert report["findings"] == [{"path": ".triform/evals/team.yaml", "kind": "eval",
                                   "reason": report["findings"][0]["reason"]}]
    assert report["findings"][0]["reason"].startswith("line 3: seed[0]: category 'wish'")
    error = assert_error(server.client().post(EVAL, {}), 400, "SOURCE_EVAL_INVALID")
    assert error["message"].startswith(".triform/evals/team.yaml: line 3: seed[0]")


def test_batch_stats_weighs_each_elements_eval_by_its_cases(server: Server) -> None:
    admin = server.client()
    create(admin, "memory", "notes")
    put(server, {"team.yaml": TEAM})                                  # 2 of 3 pass
    put(server, {"one.yaml": b"seed: [{key: a, content: A, category: fact}]\ncases:\n"
                 b"  - {id: a, query: A, expect: [{seed: a}]}\n"}, "demo/notes")  # 1 of 1
    run(server)
    run(server, path="demo/notes")
    stats = admin.get("/api/demo/ops/batch_stats").body
    rows = {row["path"]: row for row in stats["children"]}
    assert rows["demo/memory"]["evals"]["draft"]["pass_rate"] == 0.6667
    assert rows["demo/notes"]["evals"]["draft"]["cases"] == 1
    draft = stats["aggregate"]["evals"]["draft"]
    assert (draft["elements"], draft["cases"], draft["passed"]) == (2, 4, 3)
    assert draft["pass_rate"] == 0.75           # (0.6667 * 3 + 1 * 1) / 4, not 0.83


def test_triform_eval_prints_a_table_and_exits_3_on_a_failing_case(tmp_path: Path) -> None:
    home = tmp_path / "home"
    srv = serve(home)
    put(srv, {"team.yaml": TEAM})
    srv.close()
    done = run_cli(home, "eval", "demo/memory", "--branch", "draft")
    assert done.returncode == 3, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("demo/memory  draft @ ") and lines[0].endswith("(3 cases)")
    assert lines[1].split() == ["case", "memories", "k", "ranks", "recall", "rr", "result"]
    assert lines[2].split()[:7] == ["team.yaml#ana", "seed", "1", "1", "1.00", "1.00", "pass"]
    assert "FAIL  seed:ana-tea " in lines[4]
    assert lines[5] == "pass rate 0.67 (2 of 3)  R@k 0.67  MRR 0.67"
    passing = run_cli(home, "eval", "demo/memory", "--case", "team.yaml#ana", "--json")
    assert passing.returncode == 0, passing.stderr
    assert json.loads(passing.stdout)["summary"]["passed"] == 1
    refused = run_cli(home, "eval", "demo/memory", "--branch", "nightly")
    assert refused.returncode == 1
    assert json.loads(refused.stderr)["error"]["code"] == "SOURCE_BRANCH_NOT_FOUND"
