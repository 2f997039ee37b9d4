"""readme, source, intention and the source_* ops, through the real server and stock git."""

from __future__ import annotations

import base64
import json
from pathlib import Path

from source import SPEC_PATH, branch_tips, commit_files
from tests.helpers import assert_error, clone, commit_all, run_git, serve

MEMORY = "/api/demo/memory/ops"


def repo_of(server, path: str = "demo/memory") -> Path:
    return Path(server.home.repo_path(server.home.catalog.element_at(path)))


# -- readme, source, intention ------------------------------------------------------------

def test_readme_missing_is_empty_then_updated(server) -> None:
    commit_files(repo_of(server), {"README.md": None}, message="no readme")
    viewer, member = server.client("viewer"), server.client("member")
    empty = viewer.get(f"{MEMORY}/readme").body
    assert empty == {"path": "README.md", "branch": "draft", "format": "markdown",
                     "exists": False, "content": ""}
    reply = member.post(f"{MEMORY}/readme_update", {"content": "# Notes\n\nÜber alles.\n"})
    assert reply.status == 200 and reply.body["changed"] is True
    assert viewer.get(f"{MEMORY}/readme").body["content"] == "# Notes\n\nÜber alles.\n"
    # demo still has the README it was created with; unchanged content makes no commit.
    assert viewer.get(f"{MEMORY}/readme?branch=demo").body["content"].startswith("# Memory")
    again = member.post(f"{MEMORY}/readme_update", {"content": "# Notes\n\nÜber alles.\n"})
    assert again.body["changed"] is False and again.body["commit"] == reply.body["commit"]
    for bad in ({}, {"content": 5}, {"content": "x", "mode": "append"}):
        assert_error(member.post(f"{MEMORY}/readme_update", bad), 400)
    assert_error(viewer.post(f"{MEMORY}/readme_update", {"content": "x"}), 403)
    events = viewer.get(f"{MEMORY}/activity").body["events"]
    assert [e["op"] for e in events].count("readme_update") == 1


def test_source_reads_files_and_refuses_unsafe_paths(server) -> None:
    repo = repo_of(server)
    commit_files(repo, {"bin/blob.dat": b"\x00\xff\x10", "docs/a.md": b"A\n"}, message="f")
    client = server.client("viewer")
    spec = client.get(f"{MEMORY}/source?path=.triform/spec.yaml").body
    assert spec["exists"] is True and "element_type: memory" in spec["content"]
    assert spec["commit"] == branch_tips(repo)["draft"] and spec["encoding"] == "utf-8"
    binary = client.get(f"{MEMORY}/source?path=bin/blob.dat").body
    assert binary["encoding"] == "base64"
    assert base64.b64decode(binary["content"]) == b"\x00\xff\x10" and binary["size"] == 3
    missing = client.get(f"{MEMORY}/source?path=nope/x.md").body
    assert missing["exists"] is False and missing["content"] == ""
    assert client.get(f"{MEMORY}/source?path=docs/a.md&branch=demo").body["exists"] is False
    for bad in ("../x", "docs/../../etc/passwd", "/etc/passwd", "docs/a.md%00", "a%00b",
                "docs//a.md", "docs\\a.md"):
        reply = client.get(f"{MEMORY}/source?path={bad}")
        # A NUL is refused for every query parameter first (issue 26); the rest in the
        # op's own words.
        error = assert_error(reply, 400)
        assert error["code"] == ("INVALID_REQUEST" if "%00" in bad
                                 else "SOURCE_UNSAFE_PATH"), error
    assert_error(client.get(f"{MEMORY}/source"), 400, "INVALID_REQUEST")
    assert_error(client.get(f"{MEMORY}/source?path=docs"), 400, "SOURCE_NOT_A_FILE")
    assert_error(client.get(f"{MEMORY}/source?path=a.md&branch=main"), 400)
    commit = branch_tips(repo)["draft"]        # commits by id are not served, only branches
    assert_error(client.get(f"{MEMORY}/source?path=docs/a.md&branch={commit}"), 400)


def test_intention_direct_inherited_resolved(server) -> None:
    client = server.client("viewer")
    body = client.get(f"{MEMORY}/intention").body
    assert body["direct"] == {"source": "description",
                              "text": "Long-term memory for this circle's agents"}
    assert [i["level"] for i in body["inherited"]] == ["category", "root"]
    assert body["inherited"][0]["name"] == "data"
    assert body["inherited"][1] == {"level": "root", "path": "demo", "text": "The demo circle"}
    assert body["resolved"].startswith("Long-term memory for this circle's agents. ")
    assert body["resolved"].endswith("The demo circle.")
    server.client().post(f"{MEMORY}/spec_update",
                         {"properties": {"description": "What the support team learned"}})
    body = client.get(f"{MEMORY}/intention").body
    assert body["direct"]["source"] == "properties.description"
    circle = client.get("/api/demo/ops/intention").body
    assert circle["direct"]["text"] == "The demo circle"
    assert [i["level"] for i in circle["inherited"]] == ["category"]


# -- status and branches ------------------------------------------------------------------

def test_source_status_gives_a_clone_url_that_works(server, tmp_path: Path,
                                                    git_env) -> None:
    # Over a real socket: the clone URL comes from the request's Host.
    status = server.client("viewer", live=True).get(f"{MEMORY}/source/status").body
    url = f"http://127.0.0.1:{server.port}/git/demo/memory.git"
    assert status["clone_url"] == url
    authed = url.replace("http://", "http://triform:$TOKEN@")
    assert status["checkout"][0] == f"git clone {authed} memory"
    # The shell expands $TOKEN in the copy-paste lines (double quotes, never single).
    assert '"Authorization: Bearer $TOKEN"' in status["auth"]["example"]
    assert status["draft_commit"] == status["branches"]["draft"] == status["draft"]["commit"]
    assert status["health"] == {"ok": True, "checked": "draft", "findings": []}
    assert status["warnings"] == [] and status["spec"] == {"version": 1, "mirrored": True}
    assert status["export"]["portable"] is True and status["export"]["files"] >= 2
    assert status["child_source_links"] == 0
    assert "Write token" in status["auth"]["push"]
    authed = url.replace("http://", f"http://x:{server.tokens['viewer']}@")
    run_git(git_env, "clone", "-q", authed, str(tmp_path / "wc"))
    assert (tmp_path / "wc" / SPEC_PATH).exists()
    circle = server.client().get("/api/demo/ops/source/status").body
    assert circle["clone_url"].endswith("/git/demo.git")
    assert circle["child_source_links"] == 1 and "envelope" in circle["export"]["format"]


def test_source_status_prefers_public_url_and_ignores_a_bad_host(server) -> None:
    client = server.client()
    odd = client.get(f"{MEMORY}/source/status", headers={"Host": "evil.example/x?"}).body
    assert odd["clone_url"] == "http://localhost/git/demo/memory.git"
    server.home.public_url = "https://memory.example.com/"
    try:
        status = client.get(f"{MEMORY}/source/status").body
    finally:
        server.home.public_url = None
    assert status["clone_url"] == "https://memory.example.com/git/demo/memory.git"


def test_source_branches(server) -> None:
    server.client("member").post(f"{MEMORY}/readme_update", {"content": "# new\n"})
    body = server.client("viewer").get(f"{MEMORY}/source/branches").body
    assert set(body["branches"]) == {"draft", "demo", "live"}
    assert body["branches"]["draft"]["message"] == "Update README.md"
    assert body["branches"]["demo"]["commit"] == body["branches"]["live"]["commit"]
    steps = {(p["from"], p["to"]): p for p in body["promotions"]}
    assert steps[("draft", "demo")]["ahead"] == 1 and steps[("draft", "demo")]["can_promote"]
    assert steps[("demo", "live")]["ahead"] == 0


# -- diff3 and merge ----------------------------------------------------------------------

def _refused_push(server, git_env, wc: Path, files: dict[str, str]) -> str:
    """Commit ``files`` in the clone and push after draft moved: refused, but its objects
    stay on the server, so source_merge can bring the commit in by its id. (``--force``
    only makes git send the pack; the server still refuses a non-fast-forward.)"""
    for name, text in files.items():
        (wc / name).write_text(text)
    commit_all(git_env, wc, "client change")
    push = run_git(git_env, "push", "--force", "origin", "draft", cwd=wc, check=False)
    assert "non-fast-forward" in push.stderr, push.stderr
    return run_git(git_env, "rev-parse", "HEAD", cwd=wc).stdout.strip()


def test_diff3_and_a_clean_merge(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    member = server.client("member")
    member.post(f"{MEMORY}/readme_update", {"content": "# server side\n"})
    theirs = _refused_push(server, git_env, wc, {"notes.md": "client notes\n"})
    preview = server.client("viewer").get(f"{MEMORY}/source/diff3?theirs={theirs}").body
    assert preview["clean"] is True and preview["fast_forward"] is False
    assert preview["changes"] == [{"path": "notes.md", "status": "added"}]
    before = branch_tips(repo_of(server))["draft"]
    merged = member.post(f"{MEMORY}/source/merge", {"theirs": theirs}).body
    assert merged["merged"] is True and merged["previous"] == before
    run_git(git_env, "pull", "-q", "origin", "draft", cwd=wc)
    assert (wc / "README.md").read_text() == "# server side\n"
    parents = run_git(git_env, "log", "-1", "--format=%P", cwd=wc).stdout.split()
    assert parents == [before, theirs]
    assert member.get(f"{MEMORY}/activity").body["events"][0]["op"] == "source_merge"
    assert_error(member.post(f"{MEMORY}/source/merge", {}), 400)
    assert_error(member.post(f"{MEMORY}/source/merge", {"theirs": "ab" * 20}), 404)
    assert_error(server.client("viewer").get(f"{MEMORY}/source/diff3"), 400)


def test_conflicting_merge_is_409_and_writes_nothing(server, tmp_path: Path,
                                                     git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    member = server.client("member")
    member.post(f"{MEMORY}/readme_update", {"content": "# server title\n"})
    theirs = _refused_push(server, git_env, wc, {"README.md": "# client title\n"})
    preview = member.get(f"{MEMORY}/source/diff3?theirs={theirs}").body
    assert preview["clean"] is False
    assert [c["path"] for c in preview["conflicts"]] == ["README.md"]
    before = branch_tips(repo_of(server))
    reply = member.post(f"{MEMORY}/source/merge", {"theirs": theirs})
    assert_error(reply, 409, "SOURCE_MERGE_CONFLICT")
    assert reply.body["merged"] is False
    conflict = reply.body["conflicts"][0]
    assert conflict["path"] == "README.md" and conflict["theirs"] == "# client title\n"
    assert conflict["ours"] == "# server title\n" and "<<<<<<<" in conflict["merged"]
    assert branch_tips(repo_of(server)) == before


def test_a_merged_spec_change_becomes_a_version(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    server.client().post(f"{MEMORY}/readme_update", {"content": "# moved on\n"})
    spec = (wc / SPEC_PATH).read_text().replace("max_memories: 1000", "max_memories: 77")
    theirs = _refused_push(server, git_env, wc, {SPEC_PATH: spec})
    merged = server.client().post(f"{MEMORY}/source/merge", {"theirs": theirs}).body
    assert merged["spec_version"] == 2 and merged["warnings"] == []
    assert server.home.catalog.element_at("demo/memory").properties["max_memories"] == 77


# -- promote ------------------------------------------------------------------------------

def test_promotion_decides_which_spec_governs_each_env(server) -> None:
    member = server.client("member")
    member.post(f"{MEMORY}/spec_update", {"properties": {"max_memories": 5}})

    def cap(env: str) -> int:
        reply = member.get(f"{MEMORY}/stats", headers={"X-Triform-Env": env})
        return reply.body["capacity"]["max_memories"]

    assert (cap("draft"), cap("demo"), cap("live")) == (5, 1000, 1000)
    reply = member.post(f"{MEMORY}/source/promote", {"to": "demo"})
    assert reply.status == 200 and reply.body["promoted"] is True
    assert reply.body["commit"] == branch_tips(repo_of(server))["draft"]
    assert (cap("draft"), cap("demo"), cap("live")) == (5, 5, 1000)
    assert member.post(f"{MEMORY}/source/promote", {"to": "live"}).body["promoted"] is True
    assert cap("live") == 5
    again = member.post(f"{MEMORY}/source/promote", {"to": "live"}).body
    assert again["promoted"] is False
    ops = [e["op"] for e in member.get(f"{MEMORY}/activity").body["events"]]
    assert ops.count("source_promote") == 2


def test_promotion_refuses_a_diverged_target(server) -> None:
    repo = repo_of(server)
    commit_files(repo, {"hotfix.md": b"x\n"}, message="hotfix on demo", branch="demo")
    server.client().post(f"{MEMORY}/readme_update", {"content": "# draft work\n"})
    before = branch_tips(repo)
    reply = server.client("member").post(f"{MEMORY}/source/promote", {"to": "demo"})
    assert_error(reply, 409, "SOURCE_DIVERGED")
    assert branch_tips(repo) == before
    status = server.client().get(f"{MEMORY}/source/status").body
    assert any("diverged" in w for w in status["warnings"])
    for bad in ({}, {"to": "draft"}, {"to": "prod"}):
        assert_error(server.client().post(f"{MEMORY}/source/promote", bad), 400)
    assert_error(server.client("viewer").post(f"{MEMORY}/source/promote", {"to": "demo"}),
                 403)


# -- validate and repair ------------------------------------------------------------------

def test_validate_reports_findings_per_branch(server) -> None:
    client = server.client("viewer")
    clean = client.post(f"{MEMORY}/source/validate", {}).body
    assert clean["ok"] is True and clean["branch"] == "draft" and clean["findings"] == []
    commit_files(repo_of(server), {"deploy/.env": b"TOKEN=1\n",
                                   "build/out.js": b"x\n"}, message="bypassing the push")
    found = client.post(f"{MEMORY}/source/validate", {"branch": "draft"}).body
    assert found["ok"] is False
    assert {f["kind"] for f in found["findings"]} == {"secret", "generated_output"}
    assert client.post(f"{MEMORY}/source/validate", {"branch": "demo"}).body["ok"] is True
    assert_error(client.post(f"{MEMORY}/source/validate", {"branch": "nope"}), 404)
    assert_error(client.post(f"{MEMORY}/source/validate", {"branch": 3}), 400)


def test_repair_dry_run_then_fix_refs_and_dangling_objects(server, tmp_path: Path,
                                                           git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    server.client().post(f"{MEMORY}/readme_update", {"content": "# moved\n"})
    _refused_push(server, git_env, wc, {"notes.md": "left behind\n"})     # dangling
    repo = repo_of(server)
    (repo / "refs" / "heads" / "demo").unlink()                           # a lost branch
    member = server.client("member")
    dry = member.post(f"{MEMORY}/source/repair", {}).body
    assert dry["dry_run"] is True and dry["fixed"] == []
    checks = {f["check"] for f in dry["found"]}
    assert {"branches", "dangling"} <= checks, dry
    assert "spec" in dry["checks"] and "memory_runtime" in dry["checks"]
    assert branch_tips(repo)["demo"] is None                    # a dry run changes nothing
    fixed = member.post(f"{MEMORY}/source/repair",
                        {"dry_run": False, "prune_age": "now"}).body
    assert {"branches", "dangling"} <= {f["check"] for f in fixed["fixed"]}, fixed
    assert branch_tips(repo)["demo"] is not None
    after = member.post(f"{MEMORY}/source/repair", {}).body
    assert not {"branches", "dangling"} & {f["check"] for f in after["found"]}, after
    assert_error(member.post(f"{MEMORY}/source/repair", {"prune_age": "; rm -rf /"}), 400)
    assert_error(member.post(f"{MEMORY}/source/repair", {"dry_run": "no way"}), 400)


def test_repair_rebuilds_a_stale_or_missing_memory_sidecar(server) -> None:
    client = server.client()
    for text in ("Ana drinks tea", "Bo likes maps"):
        assert client.post(f"{MEMORY}/store", {"content": text,
                                               "category": "fact"}).status == 201
    runtime = Path(server.home.runtime_path(server.home.catalog.element_at("demo/memory")))

    def runtime_findings() -> list[dict]:
        dry = client.post(f"{MEMORY}/source/repair", {}).body
        return [f for f in dry["found"] if f["check"] == "memory_runtime"]

    client.post(f"{MEMORY}/source/repair", {"dry_run": False})
    assert runtime_findings() == []
    # A log tail past the checkpoint is how a running store looks: not a problem.
    client.post(f"{MEMORY}/store", {"content": "Cy reads maps", "category": "fact"})
    assert runtime_findings() == []
    manifest = json.loads((runtime / "sidecar.json").read_text())
    (runtime / "sidecar.json").write_text(json.dumps(dict(manifest, log_id="0" * 32)))
    stale = runtime_findings()
    assert stale and "stale" in stale[0]["problem"], stale
    (runtime / "sidecar.json").unlink()
    dry = client.post(f"{MEMORY}/source/repair", {}).body
    assert ["missing" in f["problem"] for f in dry["found"]
            if f["check"] == "memory_runtime"] == [True]
    fixed = client.post(f"{MEMORY}/source/repair", {"dry_run": False}).body
    assert [f["fix"] for f in fixed["fixed"] if f["check"] == "memory_runtime"] == \
        ["compacted the log and wrote a fresh sidecar"]
    assert (runtime / "sidecar.json").exists()
    after = client.post(f"{MEMORY}/source/repair", {}).body
    assert not [f for f in after["found"] if f["check"] == "memory_runtime"]
    contents = {m["content"] for m in client.get(f"{MEMORY}/memories").body["memories"]}
    assert contents == {"Ana drinks tea", "Bo likes maps", "Cy reads maps"}


# -- fixtures -----------------------------------------------------------------------------

SEED = """kind: memory
description: seed facts for the support team
records:
  - content: The team ships on Fridays
    category: fact
  - key: tz-pref
    content: Prefers UTC timestamps
    category: preference
    subject_type: circle_member
    subject_id: u-42
    metadata: {origin: onboarding}
  - content: Nobody knows this one
    category: gossip
"""


def test_fixtures_dry_run_apply_and_apply_again(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / ".triform" / "fixtures" / "seed.yaml").write_text(SEED)
    commit_all(git_env, wc, "seed")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    member = server.client("member")
    dry = member.post(f"{MEMORY}/source/fixtures", {}).body
    assert dry["dry_run"] is True and dry["files"] == [".triform/fixtures/seed.yaml"]
    assert [r["status"] for r in dry["records"]] == ["new", "new", "invalid"]
    assert "category" in dry["records"][2]["error"]
    assert member.get(f"{MEMORY}/memories").body["memories"] == []       # nothing stored
    assert_error(member.post(f"{MEMORY}/source/fixtures", {"dry_run": False}), 400)
    applied = member.post(f"{MEMORY}/source/fixtures",
                          {"dry_run": False, "confirm": True}).body
    assert [r["status"] for r in applied["records"]] == ["stored", "stored", "error"]
    assert applied["counts"] == {"stored": 2, "error": 1}
    assert "MEMORY_INVALID_CATEGORY" in applied["records"][2]["error"] or \
        "category" in applied["records"][2]["error"]
    memories = member.get(f"{MEMORY}/memories").body["memories"]
    assert len(memories) == 2 and {m["source"] for m in memories} == {"fixture"}
    scoped = [m for m in memories if m["subject_id"] == "u-42"][0]
    assert scoped["metadata"]["origin"] == "onboarding"
    assert scoped["metadata"]["fixture_key"] == applied["records"][1]["key"]
    again = member.post(f"{MEMORY}/source/fixtures", {"dry_run": False, "confirm": True}).body
    assert [r["status"] for r in again["records"]] == ["skipped", "skipped", "error"]
    assert len(member.get(f"{MEMORY}/memories").body["memories"]) == 2   # nothing new
    status = member.post(f"{MEMORY}/source/fixtures", {}).body
    assert [r["status"] for r in status["records"]][:2] == ["applied", "applied"]
    ops = [e["op"] for e in member.get(f"{MEMORY}/activity").body["events"]]
    assert ops.count("source_fixtures") == 2 and ops.count("store") == 2


def test_fixtures_on_an_element_without_a_matching_op(server) -> None:
    circle = server.home.catalog.element_at("demo")
    commit_files(server.home.repo_path(circle),
                 {".triform/fixtures/seed.yaml": SEED.encode()}, message="seed")
    client = server.client()
    dry = client.post("/api/demo/ops/source/fixtures", {}).body
    assert {r["status"] for r in dry["records"]} == {"invalid"}
    applied = client.post("/api/demo/ops/source/fixtures",
                          {"dry_run": False, "confirm": True}).body
    assert applied["counts"] == {"error": 3}
    commit_files(server.home.repo_path(circle),
                 {".triform/fixtures/bad.yaml": b"kind: memory\nrecords: 3\n"}, message="bad")
    assert_error(client.post("/api/demo/ops/source/fixtures", {}), 400,
                 "SOURCE_FIXTURE_INVALID")


def test_a_deleted_log_beside_a_checkpoint_is_refused_then_repaired(tmp_path: Path) -> None:
    first = serve(tmp_path / "home")
    client = first.client()
    for text in ("Ana drinks tea", "Bo likes maps"):
        assert client.post(f"{MEMORY}/store", {"content": text, "category": "fact"}).status \
            == 201
    runtime = Path(first.home.runtime_path(first.home.catalog.element_at("demo/memory")))
    first.close()                                    # a clean stop writes the checkpoint
    (runtime / "memories.jsonl").unlink()
    again = serve(tmp_path / "home", init=False)
    try:
        client = again.client()
        assert_error(client.get(f"{MEMORY}/memories"), 500, "MEMORY_LOG_MISSING")
        dry = client.post(f"{MEMORY}/source/repair", {}).body
        found = [f for f in dry["found"] if f["check"] == "memory_runtime"]
        assert found and found[0]["fixable"], dry
        fixed = client.post(f"{MEMORY}/source/repair", {"dry_run": False}).body
        assert [f["check"] for f in fixed["fixed"]].count("memory_runtime") >= 1, fixed
        contents = {m["content"] for m in client.get(f"{MEMORY}/memories").body["memories"]}
        assert contents == {"Ana drinks tea", "Bo likes maps"}
    finally:
        again.close()
