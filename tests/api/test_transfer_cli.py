"""``triform export PATH --memories -o DIR`` and ``triform import DIR --into CIRCLE`` on a
home no server holds, and the circle envelope that carries memories over HTTP."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import assert_error, run_cli, serve


def _cli(home: Path, *args: str) -> dict | list:
    done = run_cli(home, *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _init(home: Path) -> None:
    assert run_cli(home, "init").returncode == 0


def _contents(home: Path, path: str) -> dict[str, dict]:
    listed = _cli(home, "memory", "list", path, "--limit", "500")
    assert isinstance(listed, dict)
    return {m["id"]: m for m in listed["memories"]}


def test_an_element_moves_with_its_memories_in_one_command_each_way(tmp_path: Path) -> None:
    source, target = tmp_path / "a", tmp_path / "b"
    _init(source)
    _init(target)
    for content in ("Ben lives in Lyon", "Ana likes tea"):
        _cli(source, "memory", "store", "demo/memory", "--content", content,
             "--category", "fact")
    report = _cli(source, "export", "demo/memory", "--memories", "-o", str(tmp_path / "out"))
    assert isinstance(report, dict)
    names = sorted(Path(f["file"]).name for f in report["files"])
    assert names == ["memory.bundle", "memory.memories.ndjson"]
    imported = _cli(target, "import", str(tmp_path / "out"), "--into", "demo",
                    "--slug", "moved")
    assert isinstance(imported, list)
    item = imported[0]["imported"][0]
    assert item["path"] == "demo/moved" and item["memories"]["imported"] == 2
    assert item["memories"]["embedded_here"] == 0        # the vectors travelled
    assert _contents(target, "demo/moved") == _contents(source, "demo/memory")
    # Without --memories nothing changes: a bundle file, no memories.
    plain = _cli(source, "export", "demo/memory", "-o", str(tmp_path / "plain.bundle"))
    assert isinstance(plain, dict) and plain["format"] == "git-bundle"
    refused = run_cli(source, "export", "demo/memory", "--memories", "-o", "-")
    assert refused.returncode == 2 and "folder" in refused.stderr


def test_a_circle_moves_with_every_memory_element(tmp_path: Path) -> None:
    source, target = tmp_path / "a", tmp_path / "b"
    _init(source)
    _cli(source, "memory", "store", "demo/memory", "--content", "Ana likes tea",
         "--category", "fact")
    _cli(source, "export", "demo", "--memories", "-o", str(tmp_path / "circle"))
    _cli(target, "element", "create", "--circle", "demo", "--type", "circle")
    imported = _cli(target, "import", str(tmp_path / "circle"), "--into", "demo")
    assert isinstance(imported, list)
    assert imported[0]["imported"][0]["memories"]["imported"] == 1
    assert [m["content"] for m in _contents(target, "demo/memory").values()] == \
        ["Ana likes tea"]


def test_the_circle_envelope_carries_memories_when_asked(tmp_path: Path) -> None:
    first, second = serve(tmp_path / "a"), serve(tmp_path / "b")
    try:
        a = first.client(live=True)
        a.post("/api/demo/memory/ops/store", {"content": "Ana likes tea", "category": "fact"})
        plain = a.get("/api/demo/ops/export/bundle").body
        assert all("memories_ndjson" not in e for e in plain["elements"])
        envelope = a.get("/api/demo/ops/export/bundle?memories=true").body
        assert_error(a.get("/api/demo/memory/ops/export/bundle?memories=true"), 400)
        b = second.client("other", live=True)       # an admin of circle "other" there
        reply = b.post("/api/other/ops/import/bundle", {"envelope": envelope})
        assert reply.status == 200, reply.body
        assert reply.body["imported"][0]["memories"]["imported"] == 1
        listed = b.get("/api/other/memory/ops/memories").body["memories"]
        assert [m["content"] for m in listed] == ["Ana likes tea"]
    finally:
        first.close()
        second.close()
