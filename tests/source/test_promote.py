"""source/promote.py: fast-forward promotion and branch relations."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from source.errors import Diverged, InvalidArgument, ValidationFailed
from source.promote import branches, promote
from source.repo import branch_tips, commit_files, open_repo, ref_log


def test_promote_draft_to_demo_to_live(make_repo) -> None:
    path = make_repo()
    base = branch_tips(path)["draft"]
    c1 = commit_files(path, {"a": b"1"}, message="one")
    c2 = commit_files(path, {"a": b"2"}, message="two")
    b = branches(path)
    assert b["branches"] == {"draft": c2, "demo": base, "live": base}
    assert b["promotions"] == [
        {"from": "draft", "to": "demo", "ahead": 2, "behind": 0, "can_promote": True},
        {"from": "demo", "to": "live", "ahead": 0, "behind": 0, "can_promote": False}]
    assert promote(path, "live")["promoted"] is False              # demo == live: no-op
    res = promote(path, "demo")
    assert res == {"to": "demo", "from": "draft", "previous": base, "commit": c2,
                   "promoted": True}
    assert promote(path, "demo")["promoted"] is False
    assert promote(path, "live")["commit"] == c2
    assert branch_tips(path) == {"draft": c2, "demo": c2, "live": c2}
    assert ref_log(path, "live")[0]["message"] == "promote demo -> live"
    assert c1 != c2


def test_promote_refuses_diverged_target(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"a": b"1"}, message="draft work")
    commit_files(path, {"hotfix": b"x"}, message="hotfix on demo", branch="demo")
    before = branch_tips(path)
    with pytest.raises(Diverged) as e:
        promote(path, "demo")
    assert e.value.code == "SOURCE_DIVERGED" and e.value.error_class == "conflict"
    assert branch_tips(path) == before
    assert branches(path)["promotions"][0]["behind"] == 1


def test_promote_refuses_backwards(make_repo) -> None:
    """If draft is behind demo (demo ahead), moving demo back would lose commits."""
    path = make_repo()
    base = branch_tips(path)["draft"]
    commit_files(path, {"a": b"1"}, message="one")
    promote(path, "demo")
    with open_repo(path) as repo:
        repo.references["refs/heads/draft"].set_target(pygit2.Oid(hex=base))
    with pytest.raises(Diverged):
        promote(path, "demo")


def test_promote_validates_source(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"runtime/x/memories.jsonl": b"{}"}, message="oops")
    with pytest.raises(ValidationFailed) as e:
        promote(path, "demo")
    assert {f["kind"] for f in e.value.findings} == {"runtime_data"}
    assert promote(path, "demo", check=False)["promoted"]


def test_promote_bad_target(make_repo) -> None:
    path = make_repo()
    for bad in ("draft", "main", ""):
        with pytest.raises(InvalidArgument):
            promote(path, bad)


def test_branches_with_missing_branch(make_repo) -> None:
    path = make_repo()
    (Path(path) / "refs" / "heads" / "live").unlink()
    b = branches(path)
    assert b["branches"]["live"] is None
    assert b["promotions"][1]["ahead"] is None and not b["promotions"][1]["can_promote"]
