"""The source ops through the client, with stock git on the other side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from triform_client import Client, Conflict

from tests.api.test_push_policy import clone, commit_all, run_git

MEMORY = "demo/memory"


def diverged_commit(server: Any, git_env: dict[str, str], wc: Path,
                    files: dict[str, str]) -> str:
    """A commit beside draft's tip: pushed after draft moved, so refused, but its objects
    stay on the server for ``source_merge`` to take by id."""
    for name, text in files.items():
        (wc / name).write_text(text)
    commit_all(git_env, wc, "client change")
    run_git(git_env, "push", "--force", "origin", "draft", cwd=wc, check=False)
    return run_git(git_env, "rev-parse", "HEAD", cwd=wc).stdout.strip()


def test_status_branches_validate_repair(tf: Client, server: Any, tmp_path: Path,
                                         git_env: dict[str, str]) -> None:
    source = tf.element(MEMORY).source
    status = source.status()
    assert status["clone_url"].endswith("/git/demo/memory.git")
    assert set(source.branches()["branches"]) == {"draft", "demo", "live"}
    assert source.validate()["ok"] is True
    assert source.repair()["dry_run"] is True
    assert source.file(".triform/spec.yaml")["exists"] is True


def test_diff3_merge_and_its_conflicts(tf: Client, server: Any, tmp_path: Path,
                                       git_env: dict[str, str]) -> None:
    element = tf.element(MEMORY)
    wc = clone(server, git_env, tmp_path / "wc")
    element.readme_update("# server title\n")
    theirs = diverged_commit(server, git_env, wc, {"README.md": "# client title\n"})
    preview = element.source.diff3(theirs)
    assert preview["clean"] is False
    before = element.source.branches()["branches"]["draft"]["commit"]
    with pytest.raises(Conflict) as conflict:
        element.source.merge(theirs)
    assert conflict.value.code == "SOURCE_MERGE_CONFLICT"
    assert [c["path"] for c in conflict.value.body["conflicts"]] == ["README.md"]
    assert element.source.branches()["branches"]["draft"]["commit"] == before
    clean = diverged_commit(server, git_env, clone(server, git_env, tmp_path / "wc2"),
                            {"notes.md": "client notes\n"})
    merged = element.source.merge(clean, message="take the notes")
    assert merged["merged"] is True
    assert element.source.file("notes.md")["content"] == "client notes\n"


def test_promote_and_fixtures(tf: Client, server: Any, tmp_path: Path,
                              git_env: dict[str, str]) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / ".triform" / "fixtures" / "seed.yaml").write_text(
        "kind: memory\nrecords:\n  - content: The office opens at nine\n    category: fact\n")
    commit_all(git_env, wc, "seed")
    run_git(git_env, "push", "origin", "draft", cwd=wc)
    source = tf.element(MEMORY).source
    assert [r["status"] for r in source.fixtures()["records"]] == ["new"]
    assert [r["status"] for r in source.fixtures(dry_run=False, confirm=True)["records"]] \
        == ["stored"]
    assert [m["content"] for m in tf.memory(MEMORY).list()] == ["The office opens at nine"]
    promoted = source.promote("demo")
    assert promoted["promoted"] is True
    assert source.file(".triform/fixtures/seed.yaml", branch="demo")["exists"] is True
