"""The ``triform`` command line, driven as a subprocess the way scripts drive it.

Every command gets ``--home`` and the hidden ``--embedder hashing``; none may prompt (stdin
is closed). Output is checked, and so are the effects, by reading the home in-process
afterwards.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from api.config import embedder_factory
from api.cli import build_parser
from element import Home
from index import HashingEmbedder, MemorySettings, MemoryStore

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("init", "serve", "token", "model", "element", "memory", "export", "import",
            "reindex", "mcp", "backup", "restore", "migrate", "eval")


def triform(home: Path, *args: str, check: bool = True,
            **kw: Any) -> subprocess.CompletedProcess[str]:
    run = subprocess.run([sys.executable, "-m", "api.cli", "--home", str(home),
                          "--embedder", "hashing", *args], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL, cwd=ROOT, timeout=120, **kw)
    if check:
        assert run.returncode == 0, (args, run.returncode, run.stdout, run.stderr)
    return run


def as_json(run: subprocess.CompletedProcess[str]) -> Any:
    return json.loads(run.stdout)


def error_of(run: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    error = json.loads(run.stderr.strip().splitlines()[-1])["error"]
    assert set(error) == {"code", "class", "retryable", "message"}
    return error


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    triform(path, "init")
    return path


def open_home(path: Path) -> Home:
    return Home(path, embedder_factory("hashing", None))


def test_every_command_has_help_and_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    docs = (ROOT / "docs" / "api.md").read_text()
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    assert set(commands) == set(COMMANDS)
    for command in COMMANDS:
        with pytest.raises(SystemExit) as done:
            parser.parse_args([command, "--help"])
        assert done.value.code == 0
        assert "usage: triform" in capsys.readouterr().out, command
        assert f"triform {command}" in docs, f"docs/api.md does not document {command}"
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    assert "--embedder" not in capsys.readouterr().out   # hidden: for tests only


def test_init_prints_a_working_admin_token(tmp_path: Path) -> None:
    run = triform(tmp_path / "h", "init", "--circle", "acme")
    token = next(w for w in run.stdout.split() if w.startswith("tfm_"))
    home = open_home(tmp_path / "h")
    try:
        from element import authenticate
        assert authenticate(home.catalog, token).role == "admin"
        assert home.catalog.element_at("acme/memory").element_type == "memory"
    finally:
        home.close()
    again = triform(tmp_path / "h", "init", "--circle", "acme")
    assert "already holds" in again.stdout


def test_token_create_list_revoke(home: Path) -> None:
    token = triform(home, "token", "create", "--circle", "demo", "--role", "viewer",
                    "--name", "ci").stdout.strip()
    assert token.startswith("tfm_") and "\n" not in token
    listed = as_json(triform(home, "token", "list", "--circle", "demo"))
    ci = next(t for t in listed if t["name"] == "ci")
    assert ci["role"] == "viewer" and "token_hash" not in ci
    assert "revoked" in triform(home, "token", "revoke", ci["id"]).stdout
    again = triform(home, "token", "revoke", ci["id"], check=False)
    assert again.returncode == 1 and error_of(again)["code"] == "TOKEN_NOT_FOUND"


def test_element_create_and_list(home: Path) -> None:
    created = as_json(triform(home, "element", "create", "--circle", "demo", "--type",
                              "memory", "--slug", "notes", "--description", "n",
                              "--properties", '{"max_memories": 5}'))["element"]
    assert created["path"] == "demo/notes"
    assert created["properties"]["max_memories"] == 5
    circle = as_json(triform(home, "element", "create", "--circle", "acme", "--type",
                             "circle"))["element"]
    assert circle["path"] == "acme" and circle["element_type"] == "circle"
    listed = as_json(triform(home, "element", "list", "--circle", "demo"))
    assert [e["path"] for e in listed] == ["demo", "demo/memory", "demo/notes"]
    everything = as_json(triform(home, "element", "list"))
    assert "acme" in [e["path"] for e in everything]
    # The create went through the op: it is in the activity, by the operator.
    opened = open_home(home)
    try:
        events = list(opened.catalog.activity(circle="demo"))
        assert any(e["op"] == "create" and e["principal"] == "cli" for e in events)
    finally:
        opened.close()


def test_element_create_refusals(home: Path) -> None:
    taken = triform(home, "element", "create", "--circle", "demo", "--type", "memory",
                    "--slug", "memory", check=False)
    assert taken.returncode == 1 and error_of(taken)["code"] == "ELEMENT_SLUG_TAKEN"
    bad = triform(home, "element", "create", "--circle", "demo", "--type", "memory",
                  "--slug", "x", "--properties", '{"max_memories": 0}', check=False)
    assert bad.returncode == 1 and error_of(bad)["class"] == "validation"
    not_json = triform(home, "element", "create", "--circle", "demo", "--type", "memory",
                       "--slug", "x", "--properties", "{nope", check=False)
    assert not_json.returncode == 2 and "not valid JSON" in not_json.stderr


def test_memory_store_search_list(home: Path) -> None:
    stored = as_json(triform(home, "memory", "store", "demo/memory", "--content",
                             "Ana prefers tea over coffee", "--category", "preference",
                             "--context", "breakfast chat", "--intention", "plan a meeting",
                             "--subject-type", "guest", "--subject-id", "ana",
                             "--metadata", '{"from": "cli"}', "--idempotency-key", "k1"))
    memory = stored["memory"]
    assert memory["content"] == "Ana prefers tea over coffee"
    assert memory["metadata"] == {"from": "cli"} and memory["subject_id"] == "ana"
    again = as_json(triform(home, "memory", "store", "demo/memory", "--content",
                            "Ana prefers tea over coffee", "--category", "preference",
                            "--context", "breakfast chat", "--intention", "plan a meeting",
                            "--subject-type", "guest", "--subject-id", "ana",
                            "--metadata", '{"from": "cli"}', "--idempotency-key", "k1"))
    assert again["memory"]["id"] == memory["id"]          # a retry stores nothing new
    reused = triform(home, "memory", "store", "demo/memory", "--content", "other",
                     "--category", "fact", "--idempotency-key", "k1", check=False)
    assert reused.returncode == 1 and error_of(reused)["code"] == "IDEMPOTENCY_KEY_REUSED"
    triform(home, "memory", "store", "demo/memory", "--content", "The office is in Lisbon",
            "--category", "fact")
    # demo/memory scopes by subject (init turns it on): Ana's memory answers Ana's search.
    found = as_json(triform(home, "memory", "search", "demo/memory", "tea coffee",
                            "--limit", "1", "--category", "preference",
                            "--subject-type", "guest", "--subject-id", "ana"))
    assert [r["memory"]["id"] for r in found["results"]] == [memory["id"]]
    listed = as_json(triform(home, "memory", "list", "demo/memory", "--limit", "1"))
    assert len(listed["memories"]) == 1 and listed["next_cursor"]
    page2 = as_json(triform(home, "memory", "list", "demo/memory", "--cursor",
                            listed["next_cursor"]))
    assert [m["id"] for m in page2["memories"]] == [memory["id"]]
    by_subject = as_json(triform(home, "memory", "list", "demo/memory", "--subject-type",
                                 "guest", "--subject-id", "ana"))
    assert [m["id"] for m in by_subject["memories"]] == [memory["id"]]


def test_memory_refusals_exit_1_with_the_error_shape(home: Path) -> None:
    run = triform(home, "memory", "store", "demo/memory", "--content", "x", "--category",
                  "fact", "--subject-type", "guest", check=False)
    assert run.returncode == 1 and error_of(run)["code"] == "MEMORY_SUBJECT_INCOMPLETE"
    run = triform(home, "memory", "list", "demo/nowhere", check=False)
    assert run.returncode == 1 and error_of(run)["code"] == "ELEMENT_NOT_FOUND"
    run = triform(home, "memory", "list", "demo", check=False)
    assert run.returncode == 1 and error_of(run)["code"] == "OP_NOT_FOUND"
    run = triform(home, "memory", "store", "demo/memory", "--content", "x", "--category",
                  "gossip", check=False)
    assert run.returncode == 2   # argparse refuses it: not one of the categories


def test_export_writes_a_git_bundle_that_clones(home: Path, tmp_path: Path,
                                                git_env: dict[str, str]) -> None:
    out = tmp_path / "memory.bundle"
    report = as_json(triform(home, "export", "demo/memory", "-o", str(out)))
    assert report["format"] == "git-bundle" and report["bytes"] == out.stat().st_size
    clone = subprocess.run(["git", "clone", "-q", str(out), str(tmp_path / "clone")],
                           env=git_env, capture_output=True, text=True, timeout=60)
    assert clone.returncode == 0, clone.stderr
    assert (tmp_path / "clone" / ".triform" / "spec.yaml").exists()
    to_stdout = subprocess.run([sys.executable, "-m", "api.cli", "--home", str(home),
                                "--embedder", "hashing", "export", "demo/memory", "-o", "-"],
                               capture_output=True, cwd=ROOT, timeout=60)
    assert to_stdout.returncode == 0 and to_stdout.stdout.startswith(b"# v2 git bundle")


def test_import_a_bundle_as_a_new_element(home: Path, tmp_path: Path) -> None:
    out = tmp_path / "memory.bundle"
    triform(home, "export", "demo/memory", "-o", str(out))
    triform(home, "element", "create", "--circle", "acme", "--type", "circle")
    run = triform(home, "import", str(out), "--into", "acme", check=False)
    assert run.returncode == 0, run.stderr
    opened = open_home(home)
    try:
        original = opened.catalog.element_at("demo/memory")
        imported = opened.catalog.element_at("acme/memory")
        assert imported.id != original.id and imported.element_type == "memory"
    finally:
        opened.close()
    skipped = as_json(triform(home, "import", str(out), "--into", "acme"))
    assert skipped["counts"] == {"imported": 0, "skipped": 1, "errors": 0}
    renamed = as_json(triform(home, "import", str(out), "--into", "acme", "--slug", "copy"))
    assert renamed["counts"]["imported"] == 1


def test_export_and_import_a_whole_circle(home: Path, tmp_path: Path) -> None:
    triform(home, "element", "create", "--circle", "demo", "--type", "prompt", "--slug",
            "greeting")
    out = tmp_path / "demo.json"
    assert as_json(triform(home, "export", "demo", "-o", str(out)))["format"] == \
        "json-envelope"
    triform(home, "element", "create", "--circle", "acme", "--type", "circle")
    report = as_json(triform(home, "import", str(out), "--into", "acme"))
    assert report["counts"]["imported"] == 2, report
    listed = [e["path"] for e in as_json(triform(home, "element", "list", "--circle",
                                                 "acme"))]
    assert listed == ["acme", "acme/greeting", "acme/memory"]


def test_import_refuses_garbage(home: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.bundle"
    junk.write_bytes(b"\x00not a bundle")
    run = triform(home, "import", str(junk), "--into", "demo", check=False)
    assert run.returncode == 1, (run.stdout, run.stderr)
    # A refusal goes to stderr (docs/api.md), the report with the error.
    assert run.stdout == ""
    report = json.loads(run.stderr)
    assert report["counts"]["errors"] == 1 and report["error"]["class"] == "validation"
    assert [e.path for e in open_home_elements(home)] == ["demo", "demo/memory"]


def open_home_elements(path: Path) -> list[Any]:
    opened = open_home(path)
    try:
        return opened.catalog.elements()
    finally:
        opened.close()


def store_with_another_model(home: Path, path: str, count: int) -> None:
    """Memories embedded by a 32-dimension model: stale for the CLI's 64-dimension one."""
    opened = Home(home, lambda: HashingEmbedder(32))
    try:
        element = opened.catalog.element_at(path)
        with opened.memory_store(element) as store:
            for i in range(count):
                store.store(content=f"memory number {i}", category="fact",
                            context=f"context {i}" if i % 2 else None,
                            settings=MemorySettings())
    finally:
        opened.close()


def test_reindex_reembeds_memories_of_another_model(home: Path) -> None:
    store_with_another_model(home, "demo/memory", 5)
    run = triform(home, "reindex", "demo/memory")
    (report,) = as_json(run)["reindexed"]
    assert report == {**report, "path": "demo/memory", "model": "hashing-64",
                      "memories": 5, "reembedded": 5}
    # Not a terminal: plain progress lines, ending with the full count (5 + 2 contexts).
    assert "reindex demo/memory: 7/7 texts" in run.stderr.splitlines()
    assert "\r" not in run.stderr
    again = as_json(triform(home, "reindex", "--all"))["reindexed"]
    assert [r["reembedded"] for r in again] == [0]
    opened = Home(home, lambda: HashingEmbedder(64))
    try:
        with opened.memory_store(opened.catalog.element_at("demo/memory")) as store:
            page, _ = store.list(limit=500)
        assert all(m["embedded"] for m in page) and len(page) == 5
    finally:
        opened.close()


def test_reindex_draws_a_bar_on_a_terminal(home: Path) -> None:
    store_with_another_model(home, "demo/memory", 3)
    leader, follower = pty.openpty()
    try:
        run = subprocess.run([sys.executable, "-m", "api.cli", "--home", str(home),
                              "--embedder", "hashing", "reindex", "demo/memory"],
                             stdout=subprocess.PIPE, stderr=follower,
                             stdin=subprocess.DEVNULL, cwd=ROOT, timeout=120)
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(leader)
    assert run.returncode == 0
    assert b"\r" in drawn and b"] 4/4 texts" in drawn and b"#" in drawn


def test_reindex_usage(home: Path) -> None:
    run = triform(home, "reindex", check=False)
    assert run.returncode == 2 and "--all" in run.stderr
    run = triform(home, "reindex", "demo", check=False)
    assert run.returncode == 1 and error_of(run)["class"] == "validation"


def test_reindex_with_nothing_to_do_is_quick_and_says_so(home: Path) -> None:
    triform(home, "memory", "store", "demo/memory", "--content", "a", "--category", "fact")
    (report,) = as_json(triform(home, "reindex", "--all", "--circle", "demo"))["reindexed"]
    assert report["memories"] == 1 and report["reembedded"] == 0


def test_the_memory_store_is_plain_on_disk_after_the_cli(home: Path) -> None:
    """What the CLI stored, the library reads (the CLI closed the store cleanly)."""
    triform(home, "memory", "store", "demo/memory", "--content", "kept", "--category",
            "fact")
    opened = open_home(home)
    try:
        element = opened.catalog.element_at("demo/memory")
        store = MemoryStore(opened.runtime_path(element), HashingEmbedder())
        try:
            assert [m["content"] for m in store.list()[0]] == ["kept"]
            assert store.open_report["torn_bytes"] == 0
        finally:
            store.close()
    finally:
        opened.close()
