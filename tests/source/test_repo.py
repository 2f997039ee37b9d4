"""source/repo.py against real bare repos and stock git."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pygit2
import pytest

from source.errors import (
    BranchNotFound,
    CommitNotFound,
    FileTooLarge,
    InvalidArgument,
    NotAFile,
    RepoExists,
    RepoNotFound,
    SpecInvalid,
    UnsafePath,
)
from source.paths import check_relpath
from source.repo import (
    BRANCHES,
    branch_tips,
    commit_files,
    create_repo,
    history,
    list_files,
    open_repo,
    read_file,
    read_spec,
    ref_log,
    resolve_rev,
    spec_blob,
)


def test_create_repo_layout(tmp_path: Path, git) -> None:
    path = tmp_path / "c" / "el.git"
    head = create_repo(path, {"README.md": b"hi\n", "a/b/c.txt": b"x"}, message="init")
    assert branch_tips(path) == {b: head for b in BRANCHES}
    assert (path / "HEAD").read_text().strip() == "ref: refs/heads/draft"
    assert git("--git-dir", str(path), "config", "core.logAllRefUpdates").stdout.strip() == "always"
    assert git("--git-dir", str(path), "config", "core.bare").stdout.strip() == "true"
    git("--git-dir", str(path), "fsck", "--full")
    assert read_file(path, "a/b/c.txt") == b"x"
    # nothing left beside the repo
    assert sorted(p.name for p in path.parent.iterdir()) == ["el.git"]


def test_create_repo_refuses_existing_and_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "el.git"
    create_repo(path, {"a": b"1"}, message="init")
    with pytest.raises(RepoExists) as e:
        create_repo(path, {"a": b"1"}, message="init")
    assert str(tmp_path) not in e.value.message
    with pytest.raises(UnsafePath):
        create_repo(tmp_path / "bad.git", {"../x": b"1"}, message="init")
    with pytest.raises(InvalidArgument):
        create_repo(tmp_path / "bad.git", {"a": b"1"}, message="init", author="no email")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["el.git"]


def test_commit_files_add_update_delete(make_repo) -> None:
    path = make_repo()
    base = branch_tips(path)["draft"]
    c1 = commit_files(path, {"x/y.txt": b"1", "README.md": b"new\n"}, message="edit")
    assert c1 != base and read_file(path, "x/y.txt") == b"1"
    assert read_file(path, "README.md", branch="demo") == b"# notes\n"  # other branches untouched
    c2 = commit_files(path, {"x": None, "nope": None}, message="delete dir")
    assert read_file(path, "x/y.txt") is None
    # a no-op change makes no commit
    assert commit_files(path, {"README.md": b"new\n"}, message="same") == c2
    assert commit_files(path, {"README.md": b"new\n"}, message="same", allow_empty=True) != c2
    log = history(path)
    assert [h["message"] for h in log[:3]] == ["same", "delete dir", "edit"]
    assert log[0]["author"] == "Triform <triform@localhost>"
    assert [e["message"] for e in ref_log(path, "draft")][:2] == ["same", "delete dir"]


def test_commit_files_keeps_executable_mode(make_repo) -> None:
    path = make_repo()
    with open_repo(path) as repo:
        ref = repo.references["refs/heads/draft"]
        idx = pygit2.Index()
        idx.read_tree(repo[ref.target].tree)
        idx.add(pygit2.IndexEntry("run.sh", repo.create_blob(b"#!/bin/sh\n"),
                                  pygit2.enums.FileMode.BLOB_EXECUTABLE))
        sig = pygit2.Signature("t", "t@x")
        c = repo.create_commit(None, sig, sig, "x", idx.write_tree(repo), [ref.target])
        ref.set_target(c)
    commit_files(path, {"run.sh": b"#!/bin/sh\necho\n"}, message="edit")
    kinds = {f["path"]: f["kind"] for f in list_files(path)}
    assert kinds["run.sh"] == "executable"


def test_commit_files_concurrent_threads_lose_nothing(make_repo, git) -> None:
    path = make_repo()
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            commit_files(path, {f"t/{i}.txt": str(i).encode()}, message=f"t{i}")
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert {f["path"] for f in list_files(path) if f["path"].startswith("t/")} == \
        {f"t/{i}.txt" for i in range(20)}
    git("--git-dir", str(path), "fsck", "--full")


@pytest.mark.parametrize("bad", ["", "/etc/passwd", "../x", "a/../b", "a//b", "a/", "./a",
                                 "a\x00b", "a\nb", "a\\b", "a/./b", "..", ".git/config",
                                 "x/.GIT./hooks/post-checkout", "git~1/config",
                                 ".g\u200cit/config", "a\ud800b.txt"])
def test_unsafe_paths_rejected(make_repo, bad: str) -> None:
    path = make_repo()
    with pytest.raises(UnsafePath):
        read_file(path, bad)
    with pytest.raises(UnsafePath):
        commit_files(path, {bad: b"x"}, message="m")


def test_check_relpath_accepts_ordinary_names() -> None:
    for ok in ("README.md", ".triform/spec.yaml", "a b/c-d_e.txt", "x..y", "..x"):
        assert check_relpath(ok) == ok


def test_read_file_errors(make_repo) -> None:
    path = make_repo()
    assert read_file(path, "missing.txt") is None
    with pytest.raises(NotAFile):
        read_file(path, ".triform")
    with pytest.raises(BranchNotFound):
        read_file(path, "README.md", branch="main")
    with pytest.raises(CommitNotFound):
        read_file(path, "README.md", branch="deadbeef" * 5)
    commit_files(path, {"big.bin": b"x" * 2000}, message="big")
    with pytest.raises(FileTooLarge):
        read_file(path, "big.bin", max_bytes=1000)
    tip = branch_tips(path)["draft"]
    assert read_file(path, "big.bin", branch=tip[:10]) == b"x" * 2000
    assert resolve_rev(path, "draft") == tip


def test_missing_branch_is_branch_not_found(make_repo) -> None:
    path = make_repo()
    os.remove(path / "refs" / "heads" / "demo")
    assert branch_tips(path)["demo"] is None
    with pytest.raises(BranchNotFound):
        read_file(path, "README.md", branch="demo")
    with pytest.raises(BranchNotFound):
        commit_files(path, {"a": b"1"}, message="m", branch="demo")


def test_open_repo_does_not_search_parents(make_repo, tmp_path: Path) -> None:
    path = make_repo()
    for inner in (path / "refs" / "heads", path / "objects"):
        with pytest.raises(RepoNotFound) as e:
            with open_repo(inner):
                pass
        assert str(tmp_path) not in e.value.message
    with pytest.raises(RepoNotFound):
        read_file(path / "refs", "README.md")


def test_read_spec(make_repo) -> None:
    path = make_repo()
    assert read_spec(path) == {"element_type": "memory"}
    commit_files(path, {".triform/spec.yaml": b"a: [1,\n"}, message="broken")
    with pytest.raises(SpecInvalid):
        read_spec(path)
    commit_files(path, {".triform/spec.yaml": b"- 1\n"}, message="list")
    with pytest.raises(SpecInvalid):
        read_spec(path)
    commit_files(path, {".triform/spec.yaml": None}, message="gone")
    assert read_spec(path) is None
    assert read_spec(path, branch="live") == {"element_type": "memory"}


def test_git_clone_of_created_repo_checks_out_draft(make_repo, git, tmp_path: Path) -> None:
    path = make_repo()
    commit_files(path, {"new.txt": b"n"}, message="new")
    wc = tmp_path / "wc"
    git("clone", str(path), str(wc))
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=wc).stdout.strip() == "draft"
    assert (wc / "new.txt").read_bytes() == b"n"


def test_spec_blob_names_the_spec_without_raising(make_repo, tmp_path: Path) -> None:
    path = make_repo()
    commit, blob = spec_blob(path)
    assert commit == branch_tips(path)["draft"]
    with open_repo(path) as repo:
        assert blob == str(repo[commit].tree[".triform/spec.yaml"].id)
    same = commit_files(path, {"README.md": b"other\n"}, message="readme only")
    assert spec_blob(path) == (same, blob)               # the spec's blob did not change
    changed = commit_files(path, {".triform/spec.yaml": b"element_type: memory\nx: 1\n"},
                           message="spec")
    new_commit, new_blob = spec_blob(path)
    assert new_commit == changed and new_blob not in (None, blob)
    assert spec_blob(path, commit) == (commit, blob)     # a commit id, as well as a branch
    assert spec_blob(path, "demo") == (commit, blob)
    gone = commit_files(path, {".triform/spec.yaml": None}, message="no spec")
    assert spec_blob(path) == (gone, None)
    for rev in ("main", "0" * 40, "feed"):
        assert spec_blob(path, rev) == (None, None)
    (path / "refs" / "heads" / "live").unlink()
    assert spec_blob(path, "live") == (None, None)
    assert spec_blob(tmp_path / "nowhere.git") == (None, None)


def _objects(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in (path / "objects").rglob("*") if p.is_file()}


BAD_TEXT = [
    ({"message": "fix\x00 it"}, InvalidArgument, "message"),
    ({"message": "lone \ud800 surrogate"}, InvalidArgument, "message"),
    ({"message": b"bytes"}, InvalidArgument, "message"),
    ({"author": "Ann\x00 <ann@example.com>"}, InvalidArgument, "author"),
    ({"author": "Ann <ann\x00@example.com>"}, InvalidArgument, "author"),
    ({"author": "Ann\ud800 <ann@example.com>"}, InvalidArgument, "author"),
    ({"author": "Ann\r <ann@example.com>"}, InvalidArgument, "author"),
    ({"path": "notes/\udcff.md"}, UnsafePath, "path"),
    ({"path": "notes/\x00.md"}, UnsafePath, "path"),
]


@pytest.mark.parametrize("bad,exc,field", BAD_TEXT, ids=[b[2] + str(i) for i, b in
                                                         enumerate(BAD_TEXT)])
def test_bad_text_refused_before_anything_is_written(make_repo, tmp_path: Path, bad, exc,
                                                     field: str) -> None:
    """NUL cuts a libgit2 string short; a lone surrogate cannot be encoded at all."""
    path = make_repo()
    tips, objects = branch_tips(path), _objects(path)
    args: dict = {"message": "ok", "author": "Ann <ann@example.com>", **bad}
    rel = args.pop("path", "notes/ok.md")
    with pytest.raises(exc) as e:
        commit_files(path, {rel: b"content\n"}, **args)
    assert e.value.error_class == "validation"
    assert field in str(e.value.message) or field == "path"
    assert branch_tips(path) == tips and _objects(path) == objects
    dest = tmp_path / "new.git"
    with pytest.raises(exc):
        create_repo(dest, {rel: b"content\n"}, **args)
    assert not dest.exists() and [p.name for p in tmp_path.iterdir()] == ["repos"]


def test_merge_and_promote_messages_checked_first(make_repo) -> None:
    from source.merge import merge
    from source.promote import promote
    path = make_repo()
    side = commit_files(path, {"s.md": b"s\n"}, message="side")
    tips = branch_tips(path)
    for call in (lambda: merge(path, side, message="m\x00"),
                 lambda: promote(path, "demo", message="p\ud800")):
        with pytest.raises(InvalidArgument):
            call()
    assert branch_tips(path) == tips


@pytest.mark.parametrize("umask", [0o000, 0o002, 0o022])
def test_repo_folders_are_private_whatever_the_umask(tmp_path: Path, umask: int) -> None:
    from source.bundle import export_bundle, import_bundle
    old = os.umask(umask)
    try:
        made = tmp_path / "circle" / "made.git"
        create_repo(made, {"README.md": b"private\n"}, message="init")
        imported = tmp_path / "circle" / "imported.git"
        import_bundle(export_bundle(made), imported)
    finally:
        os.umask(old)
    for repo in (made, imported):
        assert stat.S_IMODE(repo.stat().st_mode) == 0o700, repo.name
