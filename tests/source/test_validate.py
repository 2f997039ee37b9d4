"""source/validate.py: name rules, secret patterns, crafted trees, missing objects."""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from source.errors import BranchNotFound, CommitNotFound
from source.paths import check_name
from source.repo import branch_tips, commit_files
from source.validate import COMMIT_MESSAGE, classify_path, scan_secrets, validate, validate_commits
from tests.source.conftest import blob, commit_tree, raw_commit, raw_tree, side_commit

GH = "ghp_" + "A1b2C3d4E5f6" * 3                     # 36 chars after the prefix


@pytest.mark.parametrize("data,what", [
    (b"-----BEGIN RSA PRIVATE KEY-----\nMIIE...", "PEM private key"),
    (b"-----BEGIN PRIVATE KEY-----", "PEM private key"),
    (b"-----BEGIN OPENSSH PRIVATE KEY-----", "PEM private key"),
    (b"-----BEGIN PGP PRIVATE KEY BLOCK-----", "PEM private key"),
    (b"aws_access_key_id = AKIAZ7QW3ERTY5UIOP2X", "AWS access key id"),
    (f"token: {GH}".encode(), "GitHub token"),
    (b"gho_" + b"Z" * 36, "GitHub token"),
    (b"github_pat_" + b"11ABCDEFG0" * 6, "GitHub fine-grained token"),
    (b"SLACK=xoxb-1234567890-abcdefghij", "Slack token"),
    (b"https://hooks.slack.com/services/T0000/B0000/XXXXXXXXXXXXXXXXXXXXXXXX",
     "Slack webhook URL"),
    (b"OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z", "API secret key (sk-...)"),
    (b"sk-ant-api03-Xy7Zq2Wv9Ut4Sr1Qp8On5Ml3Kj6Ih0Gf", "API secret key (sk-...)"),
    (b"stripe sk_live_" + b"a1B2c3D4e5F6g7H8i9J0", "Stripe live key"),
    (b"key=AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "Google API key"),
    (b"hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "Hugging Face token"),
    (b"glpat-abcdefghij1234567890", "GitLab token"),
])
def test_secret_patterns_found(data: bytes, what: str) -> None:
    assert what in scan_secrets(data)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.sampled_from(["", "TOKEN=", "Bearer ", ":"]))
def test_every_triform_token_is_found(raw: bytes, before: str) -> None:
    """Tokens are ``"tfm_" + secrets.token_urlsafe(32)`` (element/governance/access.py)."""
    token = "tfm_" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    assert len(token) == 47
    assert scan_secrets(f"{before}{token}\n".encode()) == ["Triform API token"]


@pytest.mark.parametrize("data", [
    b"export TOKEN=tfm_...",
    b"tfm_short_name = 1",
    b"tfm_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb3dEf6hIj9kLm",     # 46 chars: not ours
])
def test_not_a_triform_token(data: bytes) -> None:
    assert scan_secrets(data) == []


@pytest.mark.parametrize("data", [
    b"This is a task-list-item-with-a-long-descriptive-name-here",
    b"sk-learn-compatible-estimator-wrapper-for-pipelines",
    b"The AWS docs use AKIAIOSFODNN7EXAMPLE as an example key.",
    b"-----BEGIN PUBLIC KEY-----\nMIIB...\n-----BEGIN CERTIFICATE-----",
    b"ghp_short and xoxb- alone",
    b"risk-assessment-for-the-quarterly-planning-cycle-2024",
    b"desk-1234567890abcdefghijklmnopqrstuvwxyz",
    b"We discussed the private key rotation policy.",
])
def test_ordinary_text_is_not_a_secret(data: bytes) -> None:
    assert scan_secrets(data) == []


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(st.characters(categories=["L", "Zs", "P"]), max_size=300))
def test_property_prose_has_no_secrets(text: str) -> None:
    """Words and punctuation without digits never look like keys (all patterns need
    digits or a fixed marker)."""
    assert scan_secrets(text.encode()) == [] or "PRIVATE KEY" in text


@pytest.mark.parametrize("path,kind", [
    ("memories.jsonl", "runtime_data"), ("lanes/content.hnsw", "runtime_data"),
    ("sidecar.json", "runtime_data"), ("catalog.db", "runtime_data"),
    ("data/x.sqlite3", "runtime_data"), ("x.db-wal", "runtime_data"),
    ("m.pyc", "generated_output"), (".env", "secret"), (".env.production", "secret"),
    ("keys/id_rsa", "secret"), ("cert.p12", "secret"), ("home/.aws/credentials", "secret"),
])
def test_classify_files(path: str, kind: str) -> None:
    assert kind in [k for k, _ in classify_path(path)]


@pytest.mark.parametrize("path", ["README.md", "src/runtime.py", "docs/db.md",
                                  ".env.example", "id_rsa.pub", "memories.md"])
def test_classify_ordinary_files(path: str) -> None:
    assert classify_path(path) == []


def test_classify_dirs() -> None:
    assert classify_path("runtime", is_dir=True)[0][0] == "runtime_data"
    assert classify_path("src/runtime", is_dir=True) == []         # only the top-level one
    for d in ("__pycache__", "a/build", "dist", "web/node_modules", ".venv"):
        assert classify_path(d, is_dir=True)[0][0] == "generated_output"


@pytest.mark.parametrize("name", ["", ".", "..", "a/b", "a\\b", "a\x00", ".git", ".GIT",
                                  ".git.", ".git ", "GIT~1"])
def test_check_name_refuses(name: str) -> None:
    assert check_name(name)


def test_clean_tree_has_no_findings(make_repo) -> None:
    path = make_repo()
    assert validate(path) == [] and validate(path, "live") == []


def test_planted_problems_each_named(make_repo) -> None:
    path = make_repo()
    commit_files(path, {
        "memories.jsonl": b"{}\n", "index/content.hnsw": b"\0", "runtime/el/sidecar.json": b"{}",
        "src/__pycache__/x.cpython-311.pyc": b"\0", "dist/app.js": b"x",
        "web/node_modules/a/index.js": b"x", ".env": b"A=1", "notes.txt": GH.encode(),
        "keys/k.pem": b"-----BEGIN EC PRIVATE KEY-----\n", "ok.md": b"fine\n",
    }, message="everything wrong")
    found = {(f["path"], f["kind"]) for f in validate(path)}
    assert found == {
        ("memories.jsonl", "runtime_data"), ("index/content.hnsw", "runtime_data"),
        ("runtime/", "runtime_data"), ("src/__pycache__/", "generated_output"),
        ("dist/", "generated_output"), ("web/node_modules/", "generated_output"),
        (".env", "secret"), ("notes.txt", "secret"), ("keys/k.pem", "secret"),
    }
    assert all(f["reason"] for f in validate(path))


def test_secret_inside_generated_dir_still_reported(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"dist/config.js": f"const t = '{GH}'".encode()}, message="m")
    kinds = {(f["path"], f["kind"]) for f in validate(path)}
    assert kinds == {("dist/", "generated_output"), ("dist/config.js", "secret")}


def test_too_large_file(make_repo) -> None:
    path = make_repo()
    commit_files(path, {"big.bin": b"x" * 5000}, message="big")
    [f] = validate(path, max_file_bytes=4096)
    assert f["kind"] == "too_large" and f["path"] == "big.bin"


def test_crafted_unsafe_names_and_symlinks(make_repo) -> None:
    path = make_repo()
    b = blob(path, b"x")
    out = blob(path, b"../../etc/passwd")
    absolute = blob(path, b"/etc/passwd")
    inside = blob(path, b"../README.md")
    sub = raw_tree(path, [("100644", b"f", b), ("120000", b"up", inside)])
    tree = raw_tree(path, [
        ("100644", b"..", b), ("100644", b".git", b), ("100644", b"README.md", b),
        ("120000", b"escape", out), ("120000", b"abs", absolute), ("40000", b"sub", sub),
        ("160000", b"module", "ab" * 20),
    ])
    c = commit_tree(path, tree, branch_tips(path)["draft"])
    found = {(f["path"], f["kind"]) for f in validate(path, c)}
    assert found == {("..", "unsafe_path"), (".git", "unsafe_path"), ("escape", "symlink"),
                     ("abs", "symlink"), ("module", "submodule")}


def test_missing_objects_are_unreadable_findings(make_repo) -> None:
    path = make_repo()
    c = commit_files(path, {"gone.txt": b"will vanish"}, message="m")
    oid = blob(path, b"will vanish")
    os.remove(Path(path) / "objects" / oid[:2] / oid[2:])
    found = validate(path)
    assert [(f["path"], f["kind"]) for f in found] == [("gone.txt", "unreadable")]
    tree = raw_tree(path, [("40000", b"dir", "cd" * 20)])
    c2 = commit_tree(path, tree, c)
    assert [(f["path"], f["kind"]) for f in validate(path, c2)] == [("dir", "unreadable")]
    assert validate(path, "ef" * 20)[0]["kind"] == "unreadable"


def test_validate_bad_revisions(make_repo) -> None:
    path = make_repo()
    with pytest.raises(BranchNotFound):
        validate(path, "main")
    with pytest.raises(CommitNotFound):
        validate(path, "abcdef12")


def test_validate_commits_covers_history_of_range(make_repo) -> None:
    path = make_repo()
    base = branch_tips(path)["draft"]
    bad = side_commit(path, base, {"k.txt": b"AKIAZ7QW3ERTY5UIOP2X"}, "add key")
    fixed = side_commit(path, bad, {"k.txt": None}, "remove key")
    assert validate(path, fixed) == []                          # the tip alone is clean
    found = validate_commits(path, fixed, base)
    assert [(f["commit"], f["path"], f["kind"]) for f in found] == [(bad, "k.txt", "secret")]
    assert validate_commits(path, fixed, bad) == []             # already on the server
    # a missing parent is reported, not raised
    tree = raw_tree(path, [("100644", b"a", blob(path, b"a"))])
    orphan_child = raw_commit(path, tree, ["12" * 20])
    found = validate_commits(path, orphan_child, base)
    assert ("12" * 20, "unreadable") in {(f["commit"], f["kind"]) for f in found}


def test_secret_in_commit_message_is_a_finding(make_repo) -> None:
    path = make_repo()
    token = "tfm_" + "Zx9_Yw8-Vu7" * 3 + "Ts6Rq5Po4N"
    assert len(token) == 47
    base = branch_tips(path)["draft"]
    c = commit_files(path, {"ok.md": b"fine\n"}, message=f"use {token} for the demo")
    clean = commit_files(path, {"ok.md": b"finer\n"}, message="tidy")
    assert validate(path, c) == [{"path": COMMIT_MESSAGE, "kind": "secret",
                                  "reason": "contains a Triform API token"}]
    assert validate(path, clean) == []                   # a tree check of the tip alone
    found = validate_commits(path, clean, base)          # a push of both commits
    assert [(f["commit"], f["path"]) for f in found] == [(c, COMMIT_MESSAGE)]
