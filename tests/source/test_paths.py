"""source/paths.py: git's .git look-alike rules (stock git fsck as the oracle), the one
symlink rule (a real filesystem as the oracle), and that push, validate and import agree."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from source.bundle import export_bundle, export_findings, import_bundle
from source.errors import BundleInvalid
from source.paths import check_name, check_relpath, is_dotgit, is_git_special_file, symlink_problem
from source.repo import branch_tips, read_file
from source.validate import validate, validate_commits
from tests.source.conftest import TOKEN, Served, blob, commit_tree, raw_tree

LOOKALIKES = [".git", ".GIT", ".Git", ".git.", ".git ", ".git. . .", "git~1", "GIT~1",
              "GiT~1. ", ".git::$INDEX_ALLOCATION", ".git:stream", ".g\u200cit",
              "\u200c.git", ".git\u200d", ".\ufeffgit", ".gi\u206at", ".g\u202eit"]
ORDINARY = [".gitx", "git", "git~2", ".gi", ".github", ".gitignore", "x.git", "git~1x",
            ".git-crypt", ".g\u00efit", ".g\u200cit\u200cx", "\u212agit", ".gi\u0074x"]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_dotgit_lookalikes_refused(name: str) -> None:
    assert is_dotgit(name)
    assert check_name(name) == f"entry name {name!r} would write into .git"


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_pass(name: str) -> None:
    assert not is_dotgit(name) and check_name(name) is None


def _fsck_flags(git: Callable[..., Any], repo: Path, mode: str,
                names: list[bytes]) -> dict[bytes, set[str]]:
    """Write one single-entry tree per name and let stock ``git fsck`` judge each."""
    content = blob(repo, b"README.md")
    trees = {raw_tree(repo, [(mode, name, content)]): name for name in names}
    strict = [f"-c fsck.{m}=error" for m in ("gitattributesSymlink", "gitignoreSymlink",
                                             "mailmapSymlink")]
    args = [a for pair in strict for a in pair.split(" ", 1)]
    p = git(*args, "--git-dir", str(repo), "fsck", "--no-dangling", check=False)
    flags: dict[bytes, set[str]] = {name: set() for name in names}
    for m in re.finditer(r"(?:warning|error) in tree ([0-9a-f]{40}): (\w+):", p.stderr):
        if m[1] in trees:
            flags[trees[m[1]]].add(m[2])
    return flags


def _names(seed: int, seeds: list[str], alphabet: list[str], count: int) -> list[str]:
    """Near misses and hits: each name is a seed name after a few random edits."""
    rnd = random.Random(seed)
    out = set()
    for _ in range(count):
        name = list(rnd.choice(seeds))
        for _ in range(rnd.randint(0, 3)):
            i = rnd.randint(0, len(name))
            edit = rnd.choice(("insert", "delete", "swapcase", "append"))
            if edit == "insert":
                name.insert(i, rnd.choice(alphabet))
            elif edit == "delete" and i < len(name):
                del name[i]
            elif edit == "swapcase" and i < len(name):
                name[i] = name[i].swapcase()
            else:
                name.append(rnd.choice(alphabet))
        out.add("".join(name))
    return sorted(out - {"", ".", ".."})


def test_is_dotgit_agrees_with_git_fsck(make_repo, git) -> None:
    """Every candidate name, stock git's ``hasDotgit`` verdict against ours."""
    repo = make_repo()
    alphabet = [".", "g", "G", "i", "I", "t", "T", "~", "1", "2", " ", ":", "x",
                "\u200c", "\ufeff", "\u206f", "\u00ef"]
    names = sorted(set(_names(1, [".git", "git~1"], alphabet, 1500) + LOOKALIKES + ORDINARY))
    raw = [n.encode() for n in names] + [b".git\xff", b".g\xffit"]
    flags = _fsck_flags(git, repo, "100644", raw)
    disagree = [(n, "hasDotgit" in flags[n]) for n in raw
                if ("hasDotgit" in flags[n]) != is_dotgit(n.decode("utf-8", "surrogateescape"))]
    assert not disagree
    hits = sum("hasDotgit" in f for f in flags.values())
    assert 40 < hits < len(raw) - 40                                # the sample has both kinds


def test_git_special_files_agree_with_git_fsck(make_repo, git) -> None:
    """Symlinks git refuses as .gitmodules/.gitattributes/.gitignore/.mailmap look-alikes."""
    repo = make_repo()
    alphabet = [".", "g", "i", "t", "m", "o", "d", "u", "l", "e", "s", "~", "1", "7", "9",
                " ", ":", "\u200c", "\ufeff", "x"]
    seeds = [".gitmodules", ".gitattributes", ".gitignore", ".mailmap", "gitmod~1",
             "gi7eba~1", "gi250a~1", "gi7d29~1", "maba30~1", "mailma~2"]
    names = _names(2, seeds, alphabet, 1500) + [
        ".gitmodules", ".GITMODULES", ".gitmodules . ", ".gitmodules:x", "gitmod~1",
        "gi7eba~1", "GI7EBA~9", "gi7eb~12", ".gitattributes", "gitatt~3", "gi7d29~1",
        ".gitignore", "gi250a~2", ".mailmap", "mailma~1", "maba30~1", ".git\u200cmodules",
        ".gitmodulesx", "gitmodules", ".mailmapx"]
    raw = [n.encode() for n in sorted(set(names)) if not is_dotgit(n)]
    flags = _fsck_flags(git, repo, "120000", raw)
    git_says = {n for n, f in flags.items() if f & {"gitmodulesSymlink",
                                                    "gitattributesSymlink",
                                                    "gitignoreSymlink", "mailmapSymlink"}}
    ours = {n for n in raw if is_git_special_file(n.decode())}
    assert ours == git_says
    assert 40 < len(ours) < len(raw) - 40


def test_check_relpath_refuses_lookalike_segments_and_surrogates() -> None:
    for bad in (".git/config", "a/.GIT /x", "git~1/hooks/x", "a/.g\u200cit/x", "x\udcff",
                "a\ud800/b"):
        with pytest.raises(Exception) as e:
            check_relpath(bad)
        assert e.value.code == "SOURCE_UNSAFE_PATH"                  # type: ignore[attr-defined]
    assert check_relpath(".github/workflows/ci.yml") == ".github/workflows/ci.yml"


@pytest.mark.parametrize("path,target", [
    ("link", "README.md"), ("a/up", ".."), ("a/b/c", "../../README.md"), ("a/dot", "./x"),
    ("a/b/sib", "../c/d"), ("d", "."), ("notes/today.md", "2024/01.md"),
])
def test_symlinks_inside_the_tree_are_allowed(path: str, target: str) -> None:
    assert symlink_problem(path, target.encode()) is None


@pytest.mark.parametrize("path,target,why", [
    ("link", "/etc/passwd", "absolute"),
    ("link", "..", "leaves the tree"),
    ("a/b/out", "../../..", "leaves the tree"),
    ("a/b/out", "../up/..", "leaves the tree"),          # chain escape past normpath
    ("a/x", "b/../../..", "leaves the tree"),
    ("link", "..\\..\\etc", "'\\'"),
    ("link", "C:evil", "':'"),
    ("link", "a//b", "empty segment"),
    ("link", "x\x00y", "NUL"),
    ("link", "", "empty target"),
    ("hooks", ".git/hooks", "into .git"),
    ("hooks", "a/.GIT./hooks", "into .git"),
    (".gitmodules", "README.md", "may not be a symlink"),
    ("sub/.gitattributes", "README.md", "may not be a symlink"),
    ("GI7EBA~1", "README.md", "may not be a symlink"),
    (".triform/spec.yaml", "../README.md", ".triform/"),
    (".triform", "notes", ".triform/"),
])
def test_symlinks_refused(path: str, target: str, why: str) -> None:
    problem = symlink_problem(path, target.encode())
    assert problem is not None and why in problem
    assert symlink_problem("l", b"x" * 4097) == "symlink target longer than 4096 bytes"
    assert symlink_problem("l", b"\xff") == "symlink target is not UTF-8"


_LINK = st.tuples(st.lists(st.sampled_from(["a", "b"]), max_size=2),   # its directories
                  st.sampled_from(["up", "x"]),                          # its name
                  st.lists(st.sampled_from(["..", "up", "a", "b", "."]), min_size=1,
                           max_size=4))                                  # its target


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.lists(_LINK, min_size=1, max_size=8))
def test_allowed_links_never_resolve_outside_a_checkout(tmp_path_factory, links) -> None:
    """Whatever set of links the rule allows, the kernel resolves each one inside the tree."""
    root = tmp_path_factory.mktemp("checkout")
    tree = root / "tree"
    tree.mkdir()
    (root / "outside").mkdir()
    made = []
    for dirs, name, target in links:
        rel = "/".join([*dirs, name])
        text = "/".join(target)
        if symlink_problem(rel, text.encode()) is not None:
            continue
        where = tree.joinpath(*dirs)
        try:
            where.mkdir(parents=True, exist_ok=True)
            os.symlink(text, where / name)
        except (FileExistsError, NotADirectoryError):
            continue                                     # a name taken by another entry
        made.append(where / name)
    real_tree = os.path.realpath(tree)
    for link in made:
        resolved = os.path.realpath(link)
        assert resolved == real_tree or resolved.startswith(real_tree + os.sep), \
            (link, os.readlink(link), resolved)


# -- the one rule, everywhere -------------------------------------------------------------


def _push_tree_with_link(git: Callable[..., Any], server: Served, tmp_path: Path, name: str,
                         link: str, target: str) -> Any:
    wc = tmp_path / "wc"
    git("clone", "-q", server.url("demo/notes"), str(wc))
    (wc / link).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, wc / link)
    git("add", link, cwd=wc)
    git("commit", "-q", "-m", f"link {link}", cwd=wc)
    return git("push", server.url("demo/notes", token=TOKEN), "draft", cwd=wc, check=False)


def test_pushed_in_tree_symlink_is_portable_and_imports(make_repo, server: Served, git,
                                                         tmp_path: Path) -> None:
    """Issue 10: push accepted and portable, but the bundle refused by import forever."""
    repo = make_repo()
    p = _push_tree_with_link(git, server, tmp_path, "demo/notes", "readme-link", "README.md")
    assert p.returncode == 0, p.stderr
    assert validate(repo) == [] and export_findings(repo) == []   # portable
    dest = tmp_path / "elsewhere" / "copy.git"
    out = import_bundle(export_bundle(repo), dest)
    assert out["branches"]["draft"] == branch_tips(repo)["draft"]
    clone = tmp_path / "clone"
    git("clone", "-q", str(dest), str(clone))
    assert os.readlink(clone / "readme-link") == "README.md"
    assert (clone / "readme-link").read_bytes() == read_file(repo, "README.md")


@pytest.mark.parametrize("link,target", [("escape", "../../etc/passwd"),
                                         ("abs", "/etc/passwd"),
                                         ("a/b/out", "../up/..")])
def test_escaping_symlink_refused_alike_by_push_validate_and_import(
        make_repo, server: Served, git, tmp_path: Path, link: str, target: str) -> None:
    repo = make_repo()
    before = branch_tips(repo)["draft"]
    reason = symlink_problem(link, target.encode())
    assert reason is not None
    p = _push_tree_with_link(git, server, tmp_path, "demo/notes", link, target)
    assert p.returncode != 0 and f"{link}: {reason}" in p.stderr, p.stderr
    assert branch_tips(repo)["draft"] == before
    # the same tree planted behind the push policy's back (an old repo, a direct write)
    sub = raw_tree(repo, [("120000", link.split("/")[-1].encode(), blob(repo, target.encode()))])
    entries: list[tuple[str, bytes, str]] = [("100644", b"README.md", blob(repo, b"r\n"))]
    if "/" in link:
        inner = raw_tree(repo, [("40000", b"b", sub)])
        entries.append(("40000", b"a", inner))
    else:
        entries = [("100644", b"README.md", blob(repo, b"r\n")),
                   ("120000", link.encode(), blob(repo, target.encode()))]
    planted = commit_tree(repo, raw_tree(repo, entries), before, branch="draft")
    found = [(f["path"], f["kind"], f["reason"]) for f in validate(repo)]
    assert found == [(link, "symlink", reason)]
    assert [f["reason"] for f in validate_commits(repo, planted, before)] == [reason]
    assert [f["reason"] for f in export_findings(repo)] == [reason]  # not portable
    with pytest.raises(BundleInvalid) as e:
        import_bundle(export_bundle(repo), tmp_path / "copy.git")
    assert [f["reason"] for f in e.value.findings] == [reason]
