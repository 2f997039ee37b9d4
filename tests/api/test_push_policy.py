"""git push through the server: the branch policy, the spec check, and the spec mirror.

Stock git against the real server. Pushes to demo/live are refused with a message the git
client shows; a pushed ``.triform/spec.yaml`` must fit the element's type, and once it
lands it is mirrored into the catalog as version vN (right after the push, and lazily
before any op reads the spec).
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path
from typing import Any

import yaml

from source import SPEC_PATH, commit_files, read_spec
from tests.helpers import clone, commit_all, create, run_git

MEMORY = "/api/demo/memory/ops"


def edit_spec(wc: Path, **properties: Any) -> dict[str, Any]:
    spec = yaml.safe_load((wc / SPEC_PATH).read_text())
    spec["properties"].update(properties)
    (wc / SPEC_PATH).write_text(yaml.safe_dump(spec, sort_keys=False))
    return spec


def test_pushed_spec_becomes_a_version(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    edit_spec(wc, max_memories=7, relevance_threshold=0.25)
    commit_all(git_env, wc, "tighten the cap")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc)
    assert "draft -> draft" in push.stderr
    memory = server.home.catalog.element_at("demo/memory")
    assert memory.version == 2 and memory.properties["max_memories"] == 7   # after_push
    client = server.client("viewer")
    history = client.get(f"{MEMORY}/version?history=true").body["history"]
    assert history[0]["version"] == 2 and history[0]["message"].startswith("push ")
    assert history[0]["spec"]["properties"]["relevance_threshold"] == 0.25
    stats = client.get(f"{MEMORY}/stats").body
    assert stats["capacity"]["max_memories"] == 7          # the draft spec governs draft
    events = client.get(f"{MEMORY}/activity").body["events"]
    assert events[0]["op"] == "spec_update" and events[0]["detail"]["via"] == "push"
    assert events[0]["principal"] == "member"
    # A push that does not touch the spec makes no version.
    (wc / "notes.md").write_text("notes\n")
    commit_all(git_env, wc, "notes")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    assert client.get(f"{MEMORY}/version").body["version"] == 2


def test_spec_omitting_defaults_is_the_same_spec(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / SPEC_PATH).write_text("element_type: memory\nslug: memory\nname: Memory\n"
                                "description: Long-term memory for this circle's agents\n"
                                "properties: {subject_scoping: true}\n")
    commit_all(git_env, wc, "shorter spec")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    assert server.client().get(f"{MEMORY}/version").body["version"] == 1
    repair = server.client().post(f"{MEMORY}/source/repair", {}).body
    assert not [f for f in repair["found"] if f["check"] == "spec"]


def test_invalid_spec_push_is_refused_with_the_reason(server, tmp_path: Path,
                                                      git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    cases = [
        (lambda: edit_spec(wc, max_memories=0), "properties.max_memories: must be >= 1"),
        (lambda: edit_spec(wc, association_weights={"content": 0, "context": 0,
                                                    "intention": 0}),
         "properties.association_weights"),
        (lambda: edit_spec(wc, colour="blue"), "properties.colour: is not a known property"),
        (lambda: (wc / SPEC_PATH).write_text("element_type: prompt\n"),
         "spec.element_type: must stay 'memory'"),
        (lambda: (wc / SPEC_PATH).write_text("slug: other\n"), "spec.slug: must stay"),
        (lambda: (wc / SPEC_PATH).write_text("properties: [1, 2\n"), "not valid YAML"),
        (lambda: (wc / SPEC_PATH).unlink(), ".triform/spec.yaml is missing"),
    ]
    tip = server.home.catalog.element_at("demo/memory")
    for change, reason in cases:
        change()
        commit_all(git_env, wc, "bad spec")
        push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
        assert push.returncode != 0, reason
        assert "[remote rejected] draft -> draft" in push.stderr, push.stderr
        assert reason in push.stderr, push.stderr
        run_git(git_env, "reset", "-q", "--hard", "origin/draft", cwd=wc)
    after = server.home.catalog.element_at("demo/memory")
    assert (after.version, after.properties) == (tip.version, tip.properties)


def test_push_to_demo_or_live_is_refused(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / "x.md").write_text("x\n")
    commit_all(git_env, wc, "x")
    for target in ("demo", "live"):
        push = run_git(git_env, "push", "origin", f"draft:{target}", cwd=wc, check=False)
        assert push.returncode != 0
        assert f"[remote rejected] draft -> {target} (refs/heads/{target} is protected: " \
               "promote via the API)" in push.stderr, push.stderr
    push = run_git(git_env, "push", "origin", "draft:feature", cwd=wc, check=False)
    assert "only refs/heads/draft accepts pushes" in push.stderr
    tips = server.client().get(f"{MEMORY}/source/branches").body["branches"]
    assert tips["demo"]["commit"] == tips["live"]["commit"] == tips["draft"]["commit"]


def test_secrets_and_runtime_data_are_refused(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / "keys.txt").write_text("aws = AKIAZ7QW3ERTY5UIOP2X\n")
    commit_all(git_env, wc, "oops")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert "keys.txt" in push.stderr and "refused" in push.stderr
    run_git(git_env, "reset", "-q", "--hard", "origin/draft", cwd=wc)
    (wc / "memories.jsonl").write_text("{}\n")
    commit_all(git_env, wc, "runtime")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert push.returncode != 0 and "memories.jsonl" in push.stderr


def test_a_viewer_cannot_push(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc", role="viewer")
    (wc / "x.md").write_text("x\n")
    commit_all(git_env, wc, "x")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert push.returncode != 0 and "403" in push.stderr, push.stderr


def test_pull_after_readme_update(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    reply = server.client("member").post(f"{MEMORY}/readme_update",
                                         {"content": "# Memory\n\nUpdated over HTTP.\n"})
    assert reply.status == 200 and reply.body["changed"] is True
    run_git(git_env, "pull", "-q", "origin", "draft", cwd=wc)
    assert (wc / "README.md").read_text() == "# Memory\n\nUpdated over HTTP.\n"
    assert run_git(git_env, "rev-parse", "HEAD", cwd=wc).stdout.strip() == reply.body["commit"]


def test_spec_update_then_pull_then_push(server, tmp_path: Path, git_env) -> None:
    """An API spec change reaches the clone; the clone's next spec change comes back."""
    wc = clone(server, git_env, tmp_path / "wc")
    client = server.client("member")
    assert client.post(f"{MEMORY}/spec_update",
                       {"properties": {"max_per_subject": 20}}).body["version"] == 2
    run_git(git_env, "pull", "-q", "origin", "draft", cwd=wc)
    assert yaml.safe_load((wc / SPEC_PATH).read_text())["properties"]["max_per_subject"] == 20
    edit_spec(wc, max_per_subject=30)
    commit_all(git_env, wc, "30")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    spec = client.get(f"{MEMORY}/spec").body
    assert spec["version"] == 3 and spec["spec"]["properties"]["max_per_subject"] == 30


def test_lazy_mirror_catches_a_change_the_push_hook_missed(server) -> None:
    """A commit that reached draft without this server's push hook (another process, a
    crash between the ref update and the mirror) is mirrored before the spec is read."""
    memory = server.home.catalog.element_at("demo/memory")
    repo = server.home.repo_path(memory)
    spec = read_spec(repo)
    spec["properties"]["max_memories"] = 42
    commit_files(repo, {SPEC_PATH: yaml.safe_dump(spec).encode()}, message="elsewhere")
    assert server.home.catalog.element_at("demo/memory").version == 1     # not yet
    stats = server.client().get(f"{MEMORY}/stats").body                  # a runtime op
    assert stats["capacity"]["max_memories"] == 42
    assert server.home.catalog.element_at("demo/memory").version == 2
    # Mirrored once: reading again adds nothing.
    assert server.client().get(f"{MEMORY}/version").body["version"] == 2


def test_concurrent_readers_mirror_a_change_once(server) -> None:
    """Many requests notice the same new spec at once; the mirror's compare-and-swap lets
    exactly one of them record the version."""
    memory = server.home.catalog.element_at("demo/memory")
    repo = server.home.repo_path(memory)
    spec = read_spec(repo)
    spec["properties"]["max_per_subject"] = 3
    commit_files(repo, {SPEC_PATH: yaml.safe_dump(spec).encode()}, message="elsewhere")
    client = server.client("viewer")
    answers: list[int] = []

    def read() -> None:
        answers.append(client.get(f"{MEMORY}/version").body["version"])

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert answers == [2] * 8
    history = client.get(f"{MEMORY}/version?history=true").body["history"]
    assert [h["version"] for h in history] == [2, 1]


def test_git_answers_by_the_op_path(server, tmp_path: Path, git_env) -> None:
    """404 for an unknown element of the token's circle, 403 for another circle's path
    whether or not it exists, and an auth-policy that denies the export denies a clone."""
    token = server.tokens["viewer"]

    def clone_of(path: str, as_token: str = token) -> subprocess.CompletedProcess[str]:
        url = f"http://t:{as_token}@127.0.0.1:{server.port}/git/{path}.git"
        return run_git(git_env, "clone", "-q", url, str(tmp_path / path.replace("/", "-")),
                       check=False)

    missing = clone_of("demo/nothing-here")
    assert missing.returncode != 0 and "not found" in missing.stderr.lower(), missing.stderr
    for path in ("other/anything", "other/nothing-here"):
        refused = clone_of(path)
        assert refused.returncode != 0 and "403" in refused.stderr, refused.stderr
    admin = server.client()
    create(admin, "auth-policy", "no-export", deny=[{"ops": ["export_bundle"],
                                                    "role": "viewer"}])
    admin.post(f"{MEMORY}/compose", {"add": [{"ref": "no-export"}]})
    denied = clone_of("demo/memory")
    assert denied.returncode != 0 and "403" in denied.stderr, denied.stderr
    assert clone_of("demo/memory", server.tokens["member"]).returncode == 0
