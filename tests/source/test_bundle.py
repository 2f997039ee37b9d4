"""source/bundle.py: export accepted by stock git; import refuses hostile bundles cleanly."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path

import pytest

from source.bundle import export_bundle, export_findings, import_bundle
from source.errors import BundleInvalid, BundleTooLarge, RepoExists, SourceError
from source.promote import promote
from source.repo import branch_tips, commit_files, read_file
from source.validate import validate
from tests.source.conftest import blob, commit_tree, raw_tree


@pytest.fixture
def el(make_repo) -> Path:
    path = make_repo()
    commit_files(path, {"notes/a.md": b"a\n"}, message="a")
    promote(path, "demo")
    commit_files(path, {"notes/b.md": b"b\n"}, message="b")
    return path


def _git_bundle(git, path: Path, tmp_path: Path, *revs: str, name: str = "x.bundle") -> bytes:
    out = tmp_path / name
    git("--git-dir", str(path), "bundle", "create", str(out), *revs)
    return out.read_bytes()


def _refuse(data: bytes, dest: Path, exc: type[SourceError] = BundleInvalid, **kw) -> SourceError:
    before = sorted(os.listdir(dest.parent)) if dest.parent.exists() else None
    with pytest.raises(exc) as e:
        import_bundle(data, dest, **kw)
    assert not dest.exists()
    if before is not None:
        assert sorted(os.listdir(dest.parent)) == before          # no temp dir left behind
    assert e.value.error_class in ("validation", "too_large")
    return e.value


def test_export_verified_and_cloned_by_git(el: Path, git, tmp_path: Path) -> None:
    data = export_bundle(el)
    assert data.startswith(b"# v2 git bundle\n")
    f = tmp_path / "el.bundle"
    f.write_bytes(data)
    assert "is okay" in git("-C", str(el), "bundle", "verify", str(f)).stderr
    heads = git("bundle", "list-heads", str(f), cwd=tmp_path).stdout
    assert {line.split()[1] for line in heads.splitlines()} == \
        {"refs/heads/draft", "refs/heads/demo", "refs/heads/live", "HEAD"}
    git("clone", "-q", str(f), str(tmp_path / "wc"))
    wc = tmp_path / "wc"
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=wc).stdout.strip() == "draft"
    assert (wc / "notes" / "b.md").read_bytes() == b"b\n"


def test_fresh_repo_bundle_clones_draft(make_repo, git, tmp_path: Path) -> None:
    """All three branches equal: git must still pick draft for HEAD."""
    f = tmp_path / "el.bundle"
    f.write_bytes(export_bundle(make_repo()))
    git("clone", "-q", str(f), str(tmp_path / "wc"))
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=tmp_path / "wc").stdout.strip() == "draft"


def test_round_trip(el: Path, git, tmp_path: Path) -> None:
    dest = tmp_path / "imported" / "x.git"
    res = import_bundle(export_bundle(el), dest)
    assert res["branches"] == branch_tips(el) == branch_tips(dest)
    assert res["dropped_refs"] == [] and res["objects"] > 0
    assert (dest / "HEAD").read_text().strip() == "ref: refs/heads/draft"
    assert git("--git-dir", str(dest), "config", "core.logAllRefUpdates").stdout.strip() == "always"
    git("--git-dir", str(dest), "fsck", "--full")
    assert read_file(dest, "notes/b.md") == b"b\n"
    assert sorted(os.listdir(dest.parent)) == ["x.git"]
    with pytest.raises(RepoExists):
        import_bundle(export_bundle(el), dest)


def test_import_git_made_bundle_drops_other_refs(el: Path, git, tmp_path: Path) -> None:
    git("--git-dir", str(el), "branch", "feature", "draft~1")
    git("--git-dir", str(el), "tag", "v1", "demo")
    data = _git_bundle(git, el, tmp_path, "--all")
    res = import_bundle(data, tmp_path / "y.git")
    assert res["dropped_refs"] == ["refs/heads/feature", "refs/tags/v1"]
    assert res["branches"] == {"draft": branch_tips(el)["draft"], "demo": branch_tips(el)["demo"],
                               "live": branch_tips(el)["live"]}
    git("--git-dir", str(tmp_path / "y.git"), "fsck", "--full")


def test_missing_demo_live_start_at_draft(el: Path, git, tmp_path: Path) -> None:
    res = import_bundle(_git_bundle(git, el, tmp_path, "draft"), tmp_path / "z.git")
    d = branch_tips(el)["draft"]
    assert res["branches"] == {"draft": d, "demo": d, "live": d}


@pytest.mark.parametrize("data,needle", [
    (b"", "not a git bundle"),
    (b"hello world\n", "not a git bundle"),
    (b"PK\x03\x04zipfile", "not a git bundle"),
    (b"# v2 git bundle\n", "truncated or malformed bundle header"),
    (b"# v2 git bundle\nzz refs/heads/draft\n\n", "malformed ref line"),
    (b"# v3 git bundle\n@object-format=sha256\n", "unsupported object-format=sha256"),
])
def test_not_a_bundle(tmp_path: Path, data: bytes, needle: str) -> None:
    assert needle in _refuse(data, tmp_path / "n.git").message


def test_truncated_and_corrupt_bundles(el: Path, tmp_path: Path) -> None:
    data = export_bundle(el)
    for cut in (len(data) // 2, len(data) - 5, data.index(b"PACK") + 6):
        _refuse(data[:cut], tmp_path / "t.git")
    flipped = bytearray(data)
    flipped[len(data) - 40] ^= 0xFF
    assert "checksum" in _refuse(bytes(flipped), tmp_path / "t.git").message


def test_thin_bundle_refused(el: Path, git, tmp_path: Path) -> None:
    data = _git_bundle(git, el, tmp_path, "demo..draft")
    assert "thin bundle" in _refuse(data, tmp_path / "t.git").message


def test_bundle_without_draft_refused(el: Path, git, tmp_path: Path) -> None:
    git("--git-dir", str(el), "branch", "main", "draft")
    data = _git_bundle(git, el, tmp_path, "main")
    err = _refuse(data, tmp_path / "t.git")
    assert "no refs/heads/draft" in err.message and "refs/heads/main" in err.message


def test_ref_pointing_outside_pack_refused(el: Path, tmp_path: Path) -> None:
    data = export_bundle(el)
    fake = b"1" * 40
    draft = branch_tips(el)["draft"].encode()
    data = data.replace(draft + b" refs/heads/draft", fake + b" refs/heads/draft", 1)
    assert "does not contain" in _refuse(data, tmp_path / "t.git").message


@pytest.mark.parametrize("mode,name,target", [
    ("100644", b"..", None), ("100644", b".git", None), ("100644", b".GIT", None),
    ("100644", b"/etc", None), ("100644", b"a/../../x", None),
    ("120000", b"link", b"../../etc/passwd"), ("120000", b".gitmodules", b"README.md"),
])
def test_hostile_trees_refused(el: Path, git, tmp_path: Path, mode, name, target) -> None:
    content = blob(el, target if target is not None else b"x")
    tree = raw_tree(el, [("100644", b"README.md", blob(el, b"r")), (mode, name, content)])
    commit_tree(el, tree, branch_tips(el)["draft"], branch="draft")
    err = _refuse(export_bundle(el), tmp_path / "h.git")
    assert err.findings, err.message
    assert {f["kind"] for f in err.findings} <= {"unsafe_path", "symlink"}


def test_hostile_nested_tree_refused(el: Path, tmp_path: Path) -> None:
    sub = raw_tree(el, [("100644", b"..", blob(el, b"x"))])
    tree = raw_tree(el, [("40000", b"dir", sub)])
    commit_tree(el, tree, branch_tips(el)["draft"], branch="draft")
    err = _refuse(export_bundle(el), tmp_path / "h.git")
    assert [(f["path"], f["kind"]) for f in err.findings] == [("dir/..", "unsafe_path")]


def test_secret_in_history_refused(el: Path, tmp_path: Path) -> None:
    assert export_findings(el) == []
    commit_files(el, {"k.txt": b"AKIAZ7QW3ERTY5UIOP2X"}, message="leak")
    commit_files(el, {"k.txt": None}, message="unleak")
    err = _refuse(export_bundle(el), tmp_path / "s.git")
    assert err.findings[0]["kind"] == "secret"
    # the tip alone is clean; the export (every commit) is what import judges
    assert validate(el) == []
    assert export_findings(el) == err.findings


def test_secret_in_an_old_commit_message_refused(el: Path, tmp_path: Path) -> None:
    token = "tfm_" + ("Q1w2E3r4T5y6U7i8O9p0_-" * 2)[:43]
    commit_files(el, {"c.md": b"c\n"}, message=f"temporary token {token}")
    commit_files(el, {"d.md": b"d\n"}, message="clean")
    err = _refuse(export_bundle(el), tmp_path / "m.git")
    assert [(f["path"], f["reason"]) for f in err.findings] == [
        ("<commit message>", "contains a Triform API token")]


def test_too_large_bundle(el: Path, tmp_path: Path) -> None:
    data = export_bundle(el)
    err = _refuse(data, tmp_path / "big.git", BundleTooLarge, max_bytes=len(data) - 1)
    assert err.code == "SOURCE_BUNDLE_TOO_LARGE" and err.limit == len(data) - 1


def test_zip_bomb_refused_before_unpacking(make_repo, tmp_path: Path) -> None:
    path = make_repo()
    commit_files(path, {"zeros.bin": b"\0" * (12 * 1024 * 1024)}, message="bomb")
    data = export_bundle(path)
    assert len(data) < 200_000                                   # tiny on the wire
    err = _refuse(data, tmp_path / "bomb.git", BundleTooLarge)
    assert err.limit == 10 * 1024 * 1024
    _refuse(data, tmp_path / "bomb.git", BundleTooLarge, max_file_bytes=20 << 20,
            max_unpacked_bytes=5 << 20)


def test_too_many_objects(el: Path, tmp_path: Path) -> None:
    err = _refuse(export_bundle(el), tmp_path / "m.git", BundleTooLarge, max_objects=3)
    assert err.unit == "objects" and err.limit == 3 and err.size > 3
    assert err.message == f"pack has {err.size} objects, more than the limit of 3"


def test_size_messages_name_what_was_measured(el: Path, tmp_path: Path) -> None:
    data = export_bundle(el)
    whole = _refuse(data, tmp_path / "a.git", BundleTooLarge, max_bytes=100)
    assert whole.message == f"bundle has {len(data)} bytes, more than the limit of 100"
    one = _refuse(data, tmp_path / "b.git", BundleTooLarge, max_file_bytes=8)
    assert one.message.startswith("an object has ") and "bytes once inflated" in one.message
    total = _refuse(data, tmp_path / "c.git", BundleTooLarge, max_unpacked_bytes=300)
    assert total.message.startswith("pack has ") and total.message.endswith("the limit of 300")


def _readme(size: int) -> bytes:
    """Markdown that compresses well, like a real README (so the stream ends inside a tail)."""
    lines = (f"## Section {i}\nThe memory element keeps facts and procedures.\n"
             for i in range(size))
    return "".join(lines).encode()[:size]


@pytest.mark.parametrize("content", [
    pytest.param(_readme(116_000), id="116KB-readme"),
    pytest.param(_readme(64 * 1024), id="exactly-64KiB"),
    pytest.param(_readme(64 * 1024 + 1), id="64KiB+1"),
    pytest.param(_readme(300_000), id="300KB-readme"),
    pytest.param(random.Random(7).randbytes(150_000), id="150KB-incompressible"),
])
def test_round_trip_with_large_blobs_followed_by_more_objects(make_repo, git, tmp_path: Path,
                                                              content: bytes) -> None:
    """A blob over zlib's 64 KiB output step, with more objects after it in the pack."""
    path = make_repo()
    commit_files(path, {"README.md": content, "z/after.txt": b"after\n",
                        "z/more.txt": b"more\n"}, message="big readme")
    dest = tmp_path / "copy.git"
    out = import_bundle(export_bundle(path), dest)
    assert out["branches"] == branch_tips(path)
    assert read_file(dest, "README.md") == content
    assert read_file(dest, "z/more.txt") == b"more\n"
    git("--git-dir", str(dest), "fsck", "--full")


def test_trailing_garbage_and_not_bytes(el: Path, tmp_path: Path) -> None:
    _refuse(export_bundle(el) + b"junk", tmp_path / "g.git")
    from source.errors import InvalidArgument
    with pytest.raises(InvalidArgument):
        import_bundle("not bytes", tmp_path / "g.git")  # type: ignore[arg-type]


def test_garbage_pack_never_crashes(el: Path, tmp_path: Path) -> None:
    """Random byte flips with a recomputed checksum reach the object parser and dulwich."""
    data = export_bundle(el)
    off = data.index(b"PACK")
    rnd = random.Random(7)
    outcomes = set()
    for _ in range(60):
        b = bytearray(data[:-20])
        for _ in range(rnd.randrange(1, 4)):
            b[rnd.randrange(off + 12, len(b))] = rnd.randrange(256)
        b += hashlib.sha1(b[off:]).digest()
        try:
            import_bundle(bytes(b), tmp_path / "r.git")
            outcomes.add("imported")        # a flip inside e.g. a commit message can be valid
            shutil.rmtree(tmp_path / "r.git")
        except (BundleInvalid, BundleTooLarge) as e:
            outcomes.add(type(e).__name__)
        assert not (tmp_path / "r.git").exists()
    assert "BundleInvalid" in outcomes
    assert not [p for p in os.listdir(tmp_path) if p.endswith(".import")]


def test_export_of_damaged_repo_is_a_clean_error(el: Path) -> None:
    oid = blob(el, b"b\n")
    os.remove(el / "objects" / oid[:2] / oid[2:])
    with pytest.raises(SourceError) as e:
        export_bundle(el)
    assert "repair" in e.value.message


def test_failed_import_removes_parent_dirs_it_created(el: Path, tmp_path: Path) -> None:
    commit_files(el, {".env": b"A=1"}, message="env")
    dest = tmp_path / "new" / "deeper" / "x.git"
    _refuse(export_bundle(el), dest)
    assert not (tmp_path / "new").exists()
