"""Pulls keep working after whatever repacks a repo: bundle import, repair's prune, git gc.

``git gc`` writes a bitmap for the one pack it makes; every later push adds a pack without
one. dulwich's bitmap reachability then died on the missing ``.bitmap`` file, mid-response,
so a stale clone's ``git pull`` failed with ``curl 18`` while fresh clones still worked.
Each journey here is stock git against the real smart-HTTP app on 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from source.bundle import export_bundle, import_bundle
from source.repair import repair
from source.repo import branch_tips, commit_files
from tests.source.conftest import TOKEN, Served


def _bitmaps(repo: Path) -> list[Path]:
    return sorted((repo / "objects" / "pack").glob("*.bitmap"))


def _edit(git: Callable[..., Any], wc: Path, name: str, text: str) -> str:
    (wc / name).write_text(text)
    git("add", name, cwd=wc)
    git("commit", "-q", "-m", f"edit {name}", cwd=wc)
    return str(git("rev-parse", "HEAD", cwd=wc).stdout.strip())


def _two_clones(git: Callable[..., Any], server: Served, tmp_path: Path,
                name: str) -> tuple[Path, Path]:
    a, b = tmp_path / "a", tmp_path / "b"
    git("clone", "-q", server.url(name), str(a))
    git("clone", "-q", server.url(name), str(b))
    return a, b


def _push_then_pull(git: Callable[..., Any], server: Served, repo: Path, name: str,
                    pusher: Path, puller: Path, label: str) -> None:
    new = _edit(git, pusher, f"{label}.txt", f"{label}\n")
    git("push", "-q", server.url(name, token=TOKEN), "draft", cwd=pusher)
    assert branch_tips(repo)["draft"] == new
    git("pull", "-q", "--ff-only", cwd=puller)
    assert git("rev-parse", "HEAD", cwd=puller).stdout.strip() == new
    assert (puller / f"{label}.txt").read_text() == f"{label}\n"


def test_import_then_two_clones_push_and_pull(make_repo, repos: Path, server: Served, git,
                                              tmp_path: Path) -> None:
    source_repo = make_repo("demo/origin")
    commit_files(source_repo, {"notes/a.md": b"a\n"}, message="a")
    imported = repos / "demo" / "copy.git"
    import_bundle(export_bundle(source_repo), imported)
    assert _bitmaps(imported), "import's git gc is expected to write a bitmap"
    a, b = _two_clones(git, server, tmp_path, "demo/copy")
    _push_then_pull(git, server, imported, "demo/copy", a, b, "first")
    _push_then_pull(git, server, imported, "demo/copy", b, a, "second")
    git("fetch", "-q", cwd=b)                         # a plain fetch, nothing new
    git("--git-dir", str(imported), "fsck", "--full")


def test_repair_prune_now_then_push_and_pull(make_repo, server: Served, git,
                                             tmp_path: Path) -> None:
    repo = make_repo()
    a, b = _two_clones(git, server, tmp_path, "demo/notes")
    # An object nothing refers to (a refused push leaves none any more: issue 26).
    git("--git-dir", str(repo), "hash-object", "-w", "--stdin", input=b"abandoned\n")
    report = repair(repo, dry_run=False, prune_age="now")
    assert [i["check"] for i in report["fixed"]] == ["dangling"]
    assert _bitmaps(repo)
    _push_then_pull(git, server, repo, "demo/notes", a, b, "after-repair")
    _push_then_pull(git, server, repo, "demo/notes", b, a, "again")


def test_existing_repo_gc_by_hand_between_pushes(make_repo, server: Served, git,
                                                 tmp_path: Path) -> None:
    """Any later repack (an operator's git gc) on a repo that already has packs and pushes."""
    repo = make_repo()
    a, b = _two_clones(git, server, tmp_path, "demo/notes")
    for round_ in range(3):
        _push_then_pull(git, server, repo, "demo/notes", a, b, f"before-gc-{round_}")
        git("--git-dir", str(repo), "gc", "-q")
        assert _bitmaps(repo)
        _push_then_pull(git, server, repo, "demo/notes", b, a, f"after-gc-{round_}")
    fresh = tmp_path / "fresh"
    git("clone", "-q", server.url("demo/notes"), str(fresh))
    assert (fresh / "after-gc-2.txt").exists()


def test_stale_clone_pulls_many_packs_after_gc(make_repo, server: Served, git,
                                               tmp_path: Path) -> None:
    """One bitmapped pack plus several packs without bitmaps, fetched in one go."""
    repo = make_repo()
    a, b = _two_clones(git, server, tmp_path, "demo/notes")
    git("--git-dir", str(repo), "gc", "-q")
    pushed = ""
    for i in range(4):
        pushed = _edit(git, a, f"n{i}.txt", f"{i}\n")
        git("push", "-q", server.url("demo/notes", token=TOKEN), "draft", cwd=a)
    assert len(list((repo / "objects" / "pack").glob("*.pack"))) >= 5
    git("pull", "-q", "--ff-only", cwd=b)
    assert git("rev-parse", "HEAD", cwd=b).stdout.strip() == pushed
