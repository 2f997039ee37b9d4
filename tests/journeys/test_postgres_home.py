"""A home served on PostgreSQL: ``triform init --database``, ``triform serve --database``,
store and search over HTTP, restart, the memories are still there (and not in files)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from tests.helpers import Served, run_cli
from tests.pg import PgServer


def test_a_home_on_postgres_keeps_its_memories_across_a_restart(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("journey_home")
    home = tmp_path / "home"
    outputs = []
    for _ in range(2):   # init is re-runnable: the second run changes nothing
        done = run_cli(home, "init", "--database", url)
        assert done.returncode == 0, done.stderr
        assert "memory database ready" in done.stdout
        outputs.append(done.stdout)
    token = next(line.strip() for line in outputs[0].splitlines()
                 if line.strip().startswith("tfm_"))
    srv = serve("home", args=("--database", url))
    client = srv.client(token)
    stored = client.post("/api/demo/memory/ops/store", {
        "content": "Ana prefers tea over coffee", "category": "preference",
        "context": "chat about breakfast"})
    assert stored.status == 201, stored.body
    memory_id = stored.body["memory"]["id"]
    assert srv.stop() == 0
    srv.start()
    found = srv.client(token).post("/api/demo/memory/ops/search", {"query": "Ana prefers tea"})
    assert found.status == 200, found.body
    assert [r["memory"]["id"] for r in found.body["results"]] == [memory_id]
    # Nothing of the memory went to the home's runtime files.
    runtime = home / "runtime"
    assert not any(b"Ana prefers" in p.read_bytes() for p in runtime.rglob("*") if p.is_file())


def test_migrate_moves_a_home_into_postgres_and_back(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    """An embedded home grows up: ``triform migrate --to URL`` copies its memories whole
    (ids, subjects, times, statistics), is re-runnable, refuses while served, and
    ``--to files`` brings what was added on PostgreSQL back."""
    url = pg_server.create_database("migrate_home")
    home = tmp_path / "home"
    srv = serve("home")
    client = srv.client()
    ids = []
    for n, subject in enumerate(["ana", "ben", "ana"]):
        stored = client.post("/api/demo/memory/ops/store", {
            "content": f"note {n} about {subject}", "category": "fact",
            "subject_type": "guest", "subject_id": subject})
        assert stored.status == 201, stored.body
        ids.append(stored.body["memory"]["id"])
    client.get(f"/api/demo/memory/ops/memories/{ids[0]}")     # an access to keep
    before = {m["id"]: m for m in client.get(
        "/api/demo/memory/ops/memories?subject_type=guest&subject_id=ana").body["memories"]}
    refused = run_cli(home, "migrate", "--to", url)
    assert refused.returncode == 2 and "stop it first" in refused.stderr
    assert srv.stop() == 0

    moved = run_cli(home, "migrate", "--to", url)
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert (report["from"], report["to"], report["memories"], report["missing"]) == \
        ("files", "database", 3, 0)
    again = json.loads(run_cli(home, "migrate", "--to", url).stdout)["elements"]
    assert [(e["imported"], e["skipped"]) for e in again] == [(0, 3)]

    on_pg = serve("home", args=("--database", url))
    pg = on_pg.client(srv.token)
    after = {m["id"]: m for m in pg.get(
        "/api/demo/memory/ops/memories?subject_type=guest&subject_id=ana").body["memories"]}
    assert after == before       # the same memories, to the access count and timestamp
    added = pg.post("/api/demo/memory/ops/store", {"content": "note 3 stored on postgres",
                                                   "category": "fact"}).body["memory"]["id"]
    assert on_pg.stop() == 0

    back = run_cli(home, "--database", url, "migrate", "--to", "files")
    assert back.returncode == 0, back.stderr
    (element,) = json.loads(back.stdout)["elements"]
    assert (element["imported"], element["skipped"], element["missing"]) == (1, 3, 0)
    same = run_cli(home, "--database", url, "migrate", "--to", url)
    assert same.returncode == 2 and "there already" in same.stderr
    on_files = serve("home").client(srv.token)
    listed = on_files.get("/api/demo/memory/ops/memories").body["memories"]
    assert sorted(m["id"] for m in listed) == sorted([*ids, added])
