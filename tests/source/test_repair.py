"""source/repair.py: refs, HEAD, config, dangling and missing objects, caller checks."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from source.errors import RepoNotFound
from source.promote import promote
from source.repair import repair, spec_check
from source.repo import branch_tips, commit_files, read_spec
from tests.source.conftest import blob, side_commit


def _checks(report: dict, key: str = "found") -> list[str]:
    return [i["check"] for i in report[key]]


def test_healthy_repo_reports_nothing(make_repo) -> None:
    path = make_repo()
    assert repair(path) == {"dry_run": True, "found": [], "fixed": []}


def test_missing_branch_restored_from_reflog(make_repo) -> None:
    path = make_repo()
    c = commit_files(path, {"a": b"1"}, message="one")
    promote(path, "demo")
    os.remove(Path(path) / "refs" / "heads" / "demo")
    report = repair(path)
    assert _checks(report) == ["branches"] and report["fixed"] == []
    assert branch_tips(path)["demo"] is None                   # dry run touched nothing
    report = repair(path, dry_run=False)
    assert report["fixed"][0]["fix"].startswith("restored from the reflog of demo")
    assert branch_tips(path)["demo"] == c
    assert repair(path)["found"] == []


def test_missing_branch_without_reflog_copied_from_neighbour(make_repo) -> None:
    path = make_repo()
    base = branch_tips(path)["live"]
    commit_files(path, {"a": b"1"}, message="one")
    for b in ("demo", "live"):
        os.remove(Path(path) / "refs" / "heads" / b)
        os.remove(Path(path) / "logs" / "refs" / "heads" / b)
    report = repair(path, dry_run=False)
    fixes = {i["branch"]: i["fix"] for i in report["fixed"]}
    # demo falls back to live, live to demo, and only then to draft: both are gone here
    assert fixes["demo"].startswith("recreated from draft")
    assert branch_tips(path)["live"] == branch_tips(path)["demo"]
    assert base != branch_tips(path)["demo"]


def test_head_and_config_fixed(make_repo, git) -> None:
    path = make_repo()
    git("--git-dir", str(path), "symbolic-ref", "HEAD", "refs/heads/live")
    git("--git-dir", str(path), "config", "--unset", "core.logAllRefUpdates")
    assert sorted(_checks(repair(path))) == ["config", "head"]
    assert sorted(_checks(repair(path, dry_run=False), "fixed")) == ["config", "head"]
    assert (Path(path) / "HEAD").read_text().strip() == "ref: refs/heads/draft"
    assert repair(path)["found"] == []


def test_dangling_objects_pruned(make_repo, git) -> None:
    path = make_repo()
    side_commit(path, branch_tips(path)["draft"], {"x": b"abandoned"})
    report = repair(path)
    assert _checks(report) == ["dangling"] and report["found"][0]["objects"]
    kept = repair(path, dry_run=False)                    # default age keeps young objects
    assert kept["fixed"][0]["remaining"] > 0
    done = repair(path, dry_run=False, prune_age="now")
    assert done["fixed"][0]["remaining"] == 0
    assert repair(path)["found"] == []
    git("--git-dir", str(path), "fsck", "--full")
    assert branch_tips(path)["draft"]
    assert (Path(path) / "logs" / "refs" / "heads" / "draft").exists()


def test_fsck_complaints_about_unreachable_objects_do_not_stop_the_gc(make_repo, git) -> None:
    """Issue 26, Medium 7: once a refused push had left a tree with a ``.git`` entry (fsck:
    ``hasDotgit``), fsck's warning about that unreachable tree stopped every later gc of
    the repository. An object nothing reachable refers to is what the gc removes."""
    path = make_repo()
    gd = ["--git-dir", str(path)]
    hook = git(*gd, "hash-object", "-w", "--stdin", input=b"#!/bin/sh\n").stdout.strip()
    inner = git(*gd, "mktree", input=f"100644 blob {hook.decode()}\tpost-checkout\n"
                .encode()).stdout.strip()
    tree = git(*gd, "mktree", input=f"040000 tree {inner.decode()}\t.git\n".encode()
               ).stdout.strip()
    git(*gd, "commit-tree", tree.decode(), "-m", "hostile", input=b"")
    fsck = git(*gd, "fsck", "--no-dangling", check=False)
    assert "hasDotgit" in fsck.stdout + fsck.stderr
    report = repair(path, dry_run=False, prune_age="now")
    assert "objects" not in _checks(report), report["found"]
    assert _checks(report, "fixed") == ["dangling"] and report["fixed"][0]["remaining"] == 0
    assert repair(path)["found"] == []


def test_missing_object_reported_not_gc(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"gone.txt": b"gone"}, message="m")
    oid = blob(path, b"gone")
    os.remove(Path(path) / "objects" / oid[:2] / oid[2:])
    report = repair(path, dry_run=False, prune_age="now")
    objects = [i for i in report["found"] if i["check"] == "objects"]
    assert objects and any(oid in i["problem"] for i in objects)
    assert not report["fixed"]


def test_order_problem_reported(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"hot": b"1"}, message="hotfix", branch="live")
    report = repair(path)
    assert _checks(report) == ["order"] and "live is not an ancestor of demo" in \
        report["found"][0]["problem"]


def test_extra_checks_and_spec_check(make_repo) -> None:
    path = make_repo()
    catalog = {"element_type": "memory", "properties": {"max_memories": 10}}
    calls = []

    def sidecar(p: Path, dry_run: bool) -> list[dict]:
        calls.append(dry_run)
        return [{"problem": "sidecar stale", "fixed": not dry_run}]

    def broken(p: Path, dry_run: bool) -> list[dict]:
        raise RuntimeError("boom")

    report = repair(path, extra_checks=[spec_check(catalog), sidecar, broken])
    assert _checks(report) == ["spec", "sidecar", "broken"] and report["fixed"] == []
    assert "differs from the catalog" in report["found"][0]["problem"]
    assert "boom" in report["found"][2]["problem"]
    report = repair(path, dry_run=False, extra_checks=[spec_check(lambda: catalog), sidecar])
    assert _checks(report, "fixed") == ["spec", "sidecar"]
    assert read_spec(path) == catalog and calls == [True, False]
    assert repair(path, extra_checks=[spec_check(catalog)])["found"] == []


def test_not_a_repo(tmp_path: Path) -> None:
    with pytest.raises(RepoNotFound):
        repair(tmp_path)


def test_repo_folder_open_to_others_is_closed(make_repo) -> None:
    path = make_repo()
    os.chmod(path, 0o755)
    [item] = repair(path)["found"]
    assert item["check"] == "mode" and "0755" in item["problem"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o755                 # a dry run changes nothing
    report = repair(path, dry_run=False)
    assert [i["check"] for i in report["fixed"]] == ["mode"]
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert repair(path)["found"] == []
