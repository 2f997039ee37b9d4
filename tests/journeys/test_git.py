"""Journeys through git: what a user does with clones, pushes and pulls after the API has
moved things under them (imports, repairs, merges), and what stock git shows them."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from pathlib import Path

from tests.helpers import Served, commit_all, run_cli, run_git


def clone_url(srv: Served, path: str, token: str | None = None) -> str:
    return f"http://triform:{token or srv.token}@127.0.0.1:{srv.port}/git/{path}.git"


def clone(srv: Served, git_env: dict[str, str], path: str, dest: Path) -> Path:
    run_git(git_env, "clone", "-q", clone_url(srv, path), str(dest))
    return dest


def change(git_env: dict[str, str], wc: Path, name: str, text: str) -> None:
    (wc / name).write_text(text)
    commit_all(git_env, wc, f"write {name}")


def test_an_imported_element_clones_twice_pushes_and_pulls(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    """Export with the CLI while the server runs, import over HTTP (the import repacks:
    the bitmap case), then two clones take turns."""
    srv = serve()
    bundle = tmp_path / "memory.bundle"
    exported = run_cli(srv.home, "export", "demo/memory", "-o", str(bundle))
    assert exported.returncode == 0, exported.stderr
    admin = srv.client()
    imported = admin.post("/api/demo/ops/import/bundle", {
        "bundle_base64": base64.b64encode(bundle.read_bytes()).decode(), "slug": "notes"})
    assert imported.status == 200 and imported.body["counts"]["imported"] == 1
    alice = clone(srv, git_env, "demo/notes", tmp_path / "alice")
    bob = clone(srv, git_env, "demo/notes", tmp_path / "bob")
    change(git_env, alice, "plan.md", "Alice's plan\n")
    pushed = run_git(git_env, "push", "origin", "draft", cwd=alice)
    assert "draft -> draft" in pushed.stderr
    pulled = run_git(git_env, "pull", "--no-rebase", cwd=bob)
    assert "plan.md" in pulled.stdout and (bob / "plan.md").read_text() == "Alice's plan\n"
    change(git_env, bob, "review.md", "Bob's review\n")
    run_git(git_env, "push", "origin", "draft", cwd=bob)
    run_git(git_env, "pull", "--no-rebase", cwd=alice)
    assert (alice / "review.md").read_text() == "Bob's review\n"
    files = admin.get("/api/demo/notes/ops/source?path=review.md").body
    assert files["exists"] and files["content"] == "Bob's review\n"


def test_repair_with_prune_then_push_and_pull(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    """A push refused for its content leaves nothing behind (issue 26); one refused as a
    non-fast-forward leaves its valid commits, for source_merge: a dry run finds them, a
    string is not a boolean, the real repair prunes them (and repacks); pushes and pulls
    go on."""
    srv = serve()
    admin = srv.client()
    alice = clone(srv, git_env, "demo/memory", tmp_path / "alice")
    bob = clone(srv, git_env, "demo/memory", tmp_path / "bob")
    (alice / "__pycache__").mkdir()
    change(git_env, alice, "__pycache__/x.pyc", "compiled")
    refused = run_git(git_env, "push", "origin", "draft", cwd=alice, check=False)
    assert refused.returncode != 0 and "remote rejected" in refused.stderr
    assert "__pycache__/ is generated output" in refused.stderr
    run_git(git_env, "reset", "-q", "--hard", "origin/draft", cwd=alice)
    repair = "/api/demo/memory/ops/source/repair"
    assert admin.post(repair, {"prune_age": "now"}).body["found"] == []
    change(git_env, alice, "alice.md", "first\n")
    run_git(git_env, "push", "origin", "draft", cwd=alice)
    change(git_env, bob, "bob.md", "diverged\n")
    stale = run_git(git_env, "push", "--force", "origin", "draft", cwd=bob, check=False)
    assert stale.returncode != 0 and "non-fast-forward" in stale.stderr
    run_git(git_env, "fetch", "-q", cwd=bob)
    run_git(git_env, "reset", "-q", "--hard", "origin/draft", cwd=bob)

    dry = admin.post(repair, {"prune_age": "now"})
    assert dry.status == 200 and dry.body["dry_run"] is True
    assert any(p["check"] == "dangling" for p in dry.body["found"]), dry.body
    not_a_boolean = admin.post(repair, {"dry_run": "no", "prune_age": "now"})
    assert not_a_boolean.status == 400
    assert not_a_boolean.body["error"]["code"] == "INVALID_REQUEST"
    assert "dry_run" in not_a_boolean.body["error"]["message"]
    assert admin.post(repair, {"prune_age": "now"}).body["found"] == dry.body["found"]
    fixed = admin.post(repair, {"dry_run": False, "prune_age": "now"})
    assert fixed.status == 200 and "dangling" in [f["check"] for f in fixed.body["fixed"]]
    assert admin.post(repair, {"prune_age": "now"}).body["found"] == []

    change(git_env, alice, "after-repair.md", "still works\n")
    run_git(git_env, "push", "origin", "draft", cwd=alice)
    run_git(git_env, "pull", "--no-rebase", cwd=bob)
    assert (bob / "after-repair.md").read_text() == "still works\n"
    change(git_env, bob, "and-back.md", "both ways\n")
    run_git(git_env, "push", "origin", "draft", cwd=bob)
    run_git(git_env, "pull", "--no-rebase", cwd=alice)
    assert (alice / "and-back.md").exists()


def test_a_pushed_symlink_exports_and_imports_elsewhere(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    """One symlink rule: what a push accepts, status calls portable and another home's
    import takes; a link out of the checkout is refused at the push, with the reason."""
    here = serve("here")
    wc = clone(here, git_env, "demo/memory", tmp_path / "wc")
    os.symlink("README.md", wc / "readme-link")
    commit_all(git_env, wc, "a link to the README")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    status = here.client().get("/api/demo/memory/ops/source/status").body
    assert status["export"]["portable"] is True and status["health"]["ok"] is True

    os.symlink("../../etc/passwd", wc / "escape")
    commit_all(git_env, wc, "a link out")
    refused = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert refused.returncode != 0 and "escape" in refused.stderr, refused.stderr
    run_git(git_env, "reset", "-q", "--hard", "HEAD~1", cwd=wc)

    bundle = here.client().get("/api/demo/memory/ops/export/bundle")
    assert bundle.status == 200
    elsewhere = serve("elsewhere")
    imported = elsewhere.client().post("/api/demo/ops/import/bundle", {
        "bundle_base64": base64.b64encode(bundle.raw).decode(), "slug": "copy"})
    assert imported.status == 200, imported.body
    assert imported.body["counts"] == {"imported": 1, "skipped": 0, "errors": 0}
    there = clone(elsewhere, git_env, "demo/copy", tmp_path / "there")
    assert (there / "readme-link").is_symlink()
    assert os.readlink(there / "readme-link") == "README.md"
    assert (there / "readme-link").read_text() == (there / "README.md").read_text()
    assert not (there / "escape").exists()


def test_a_stale_clone_catches_up_with_stock_git_then_on_the_server(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    """docs/source-ops.md's flows: merge locally and push; or deliver the commit with a
    push the server refuses, preview it with source_diff3 and merge it with source_merge."""
    srv = serve()
    admin = srv.client()
    alice = clone(srv, git_env, "demo/memory", tmp_path / "alice")
    bob = clone(srv, git_env, "demo/memory", tmp_path / "bob")
    change(git_env, alice, "alice.md", "Alice\n")
    run_git(git_env, "push", "origin", "draft", cwd=alice)
    change(git_env, bob, "bob.md", "Bob\n")
    first = run_git(git_env, "push", "origin", "draft", cwd=bob, check=False)
    assert first.returncode != 0 and "(fetch first)" in first.stderr
    run_git(git_env, "pull", "--no-rebase", "--no-edit", cwd=bob)
    run_git(git_env, "push", "origin", "draft", cwd=bob)
    tree = {f for f in ("alice.md", "bob.md")
            if admin.get(f"/api/demo/memory/ops/source?path={f}").body["exists"]}
    assert tree == {"alice.md", "bob.md"}

    run_git(git_env, "pull", "--no-rebase", cwd=alice)
    change(git_env, alice, "alice.md", "Alice, again\n")
    run_git(git_env, "push", "origin", "draft", cwd=alice)
    change(git_env, bob, "bob.md", "Bob, again\n")
    delivered = run_git(git_env, "push", "--force", "origin", "draft", cwd=bob, check=False)
    assert delivered.returncode != 0
    assert "non-fast-forward: fetch and merge first" in delivered.stderr
    theirs = run_git(git_env, "rev-parse", "HEAD", cwd=bob).stdout.strip()
    preview = admin.get(f"/api/demo/memory/ops/source/diff3?theirs={theirs}").body
    assert preview["clean"] is True and preview["fast_forward"] is False
    assert [c["path"] for c in preview["changes"]] == ["bob.md"]
    merged = admin.post("/api/demo/memory/ops/source/merge", {"theirs": theirs})
    assert merged.status == 200 and merged.body["merged"] is True, merged.body
    pulled = run_git(git_env, "pull", "--no-rebase", cwd=bob)
    assert "Fast-forward" in pulled.stdout
    assert (bob / "alice.md").read_text() == "Alice, again\n"
    log = run_git(git_env, "log", "--format=%s", "-1", cwd=bob).stdout
    assert log.startswith(f"Merge {theirs[:12]}")


def test_tokens_roles_and_paths_as_git_reports_them(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    """What git prints for each mistake: a token for a circle that does not exist cannot
    be made; a viewer clones but cannot push; an unknown element is 'not found'; another
    circle is forbidden; a revoked token is refused."""
    srv = serve()
    nope = run_cli(srv.home, "token", "create", "--circle", "nope", "--role", "admin")
    assert nope.returncode == 1 and nope.stdout == ""
    assert json.loads(nope.stderr)["error"]["code"] == "ELEMENT_NOT_FOUND"
    viewer = run_cli(srv.home, "token", "create", "--circle", "demo", "--role", "viewer",
                     "--name", "reader").stdout.strip()
    wc = tmp_path / "wc"
    run_git(git_env, "clone", "-q", clone_url(srv, "demo/memory", viewer), str(wc))
    change(git_env, wc, "x.md", "x\n")
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert push.returncode != 0 and "403" in push.stderr
    missing = run_git(git_env, "clone", clone_url(srv, "demo/nothing-here"),
                      str(tmp_path / "m"), check=False)
    assert missing.returncode != 0 and "not found" in missing.stderr.lower()
    assert "Authentication failed" not in missing.stderr
    run_cli(srv.home, "element", "create", "--circle", "other", "--type", "circle")
    other = run_git(git_env, "clone", clone_url(srv, "other/anything"),
                    str(tmp_path / "o"), check=False)
    assert other.returncode != 0 and "403" in other.stderr
    listed = json.loads(run_cli(srv.home, "token", "list", "--circle", "demo").stdout)
    reader = next(t for t in listed if t["name"] == "reader")
    assert run_cli(srv.home, "token", "revoke", reader["id"]).returncode == 0
    revoked = run_git(git_env, "fetch", cwd=wc, check=False)
    assert revoked.returncode != 0
    assert "Authentication failed" in revoked.stderr or "could not read" in revoked.stderr


def test_promotion_moves_demo_and_live_never_a_push(
        serve: Callable[..., Served], git_env: dict[str, str], tmp_path: Path) -> None:
    srv = serve()
    admin = srv.client()
    wc = clone(srv, git_env, "demo/memory", tmp_path / "wc")
    change(git_env, wc, "policy.md", "v2 of the policy\n")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    protected = run_git(git_env, "push", "origin", "draft:demo", cwd=wc, check=False)
    assert protected.returncode != 0
    assert "protected: promote via the API" in protected.stderr
    demo = admin.post("/api/demo/memory/ops/source/promote", {"to": "demo"})
    assert demo.status == 200 and demo.body["promoted"] is True
    run_git(git_env, "fetch", "-q", cwd=wc)
    shown = run_git(git_env, "show", "origin/demo:policy.md", cwd=wc).stdout
    assert shown == "v2 of the policy\n"
    assert run_git(git_env, "show", "origin/live:policy.md", cwd=wc, check=False).returncode
    live = admin.post("/api/demo/memory/ops/source/promote", {"to": "live"})
    assert live.status == 200 and live.body["promoted"] is True
    again = admin.post("/api/demo/memory/ops/source/promote", {"to": "live"})
    assert again.body["promoted"] is False
    run_git(git_env, "fetch", "-q", cwd=wc)
    assert run_git(git_env, "show", "origin/live:policy.md", cwd=wc).stdout == \
        "v2 of the policy\n"
