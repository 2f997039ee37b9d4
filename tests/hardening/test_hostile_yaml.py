"""Hostile YAML is refused before it is built (issue 9, High 3): the 523-byte alias bomb
that took 26 s and 200 MB, deep nesting, and oversize text, by every path a spec or a
fixture reaches the server (push, import, fixtures)."""

from __future__ import annotations

import base64
import time
from pathlib import Path

import pytest

from source import (SPEC_PATH, FixtureInvalid, SpecInvalid, commit_files, create_repo,
                    export_bundle, import_bundle, read_fixtures, read_spec)
from tests.helpers import clone, commit_all, run_git

IMPORT = "/api/demo/ops/import/bundle"


def alias_bomb(levels: int = 7, width: int = 9) -> str:
    """``a0: &a0 [x, x, ...]`` then each level nine aliases of the one before."""
    lines = ["element_type: memory", "slug: memory", "properties:",
             "  description: bomb", "x0: &a0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


HOSTILE = {
    "alias-bomb": alias_bomb(),
    "deep": "element_type: memory\nslug: memory\nx: " + "[" * 200 + "]" * 200 + "\n",
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_read_spec_refuses_hostile_yaml_quickly(tmp_path: Path, kind: str) -> None:
    repo = tmp_path / "r.git"
    create_repo(repo, {SPEC_PATH: HOSTILE[kind].encode()}, message=kind)
    started = time.monotonic()
    with pytest.raises(SpecInvalid) as refused:
        read_spec(repo)
    assert time.monotonic() - started < 5
    assert any(w in refused.value.message for w in ("aliases", "nested"))


def test_pushed_alias_bomb_is_refused(server, tmp_path: Path, git_env) -> None:
    wc = clone(server, git_env, tmp_path / "wc")
    (wc / SPEC_PATH).write_text(alias_bomb())
    commit_all(git_env, wc, "bomb")
    started = time.monotonic()
    push = run_git(git_env, "push", "origin", "draft", cwd=wc, check=False)
    assert push.returncode != 0 and "aliases are not allowed" in push.stderr
    assert time.monotonic() - started < 20
    tree = server.client().get("/api/demo/ops/tree")
    assert tree.status == 200


def test_imported_alias_bomb_is_refused(server, tmp_path: Path) -> None:
    memory = server.home.catalog.element_at("demo/memory")
    data = server.client().get("/api/demo/memory/ops/export/bundle").raw
    scratch = tmp_path / "scratch.git"
    import_bundle(data, scratch)
    commit_files(scratch, {SPEC_PATH: alias_bomb().encode()}, message="bomb")
    hostile = base64.b64encode(export_bundle(scratch)).decode()
    reply = server.client("member").post(IMPORT, {"bundle_base64": hostile, "slug": "bomb"})
    assert reply.status == 400
    assert "aliases are not allowed" in reply.body["errors"][0]["message"]
    assert server.home.catalog.element_at("demo/memory").id == memory.id


def test_fixture_with_deep_nesting_is_refused(tmp_path: Path) -> None:
    deep = "kind: memory\nrecords:\n  - content: " + "[" * 100 + "]" * 100 + "\n"
    repo = tmp_path / "r.git"
    create_repo(repo, {".triform/fixtures/deep.yaml": deep.encode()}, message="deep")
    with pytest.raises(FixtureInvalid) as refused:
        read_fixtures(repo)
    assert "nested deeper" in refused.value.message
