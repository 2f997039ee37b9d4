"""A home served on PostgreSQL: ``triform init --database``, ``triform serve --database``,
store and search over HTTP, restart, the memories are still there (and not in files)."""

from __future__ import annotations

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
