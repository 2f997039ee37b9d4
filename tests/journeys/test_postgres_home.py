"""A home served on PostgreSQL: ``triform init --database``, ``triform serve --database``,
store and search over HTTP, restart, the memories are still there (and not in files)."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from element import Catalog
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
    # Nor is the catalog a file of the home; a backup writes it there from the database.
    assert not list(home.glob("*.db*"))
    backup = tmp_path / "backup"
    done = run_cli(home, "--database", url, "backup", "--to", str(backup))
    assert done.returncode == 0, done.stderr
    assert run_cli(home, "backup", "--verify", str(backup)).returncode == 0
    shutil.copy(backup / "catalog.db", tmp_path / "copy.db")
    copied = Catalog(tmp_path / "copy.db")
    assert [e.path for e in copied.elements()] == ["demo", "demo/memory"]
    assert copied.last_seq() >= 1 and len(copied.tokens()) == 1


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
    # Other folders holding the same files: where later runs come from once the home
    # itself lives in the database (a run that succeeds marks its folder so too).
    twin, stale_twin = tmp_path / "twin", tmp_path / "stale-twin"
    for folder in (twin, stale_twin):
        shutil.copytree(home, folder)

    moved = run_cli(home, "migrate", "--to", url)
    assert moved.returncode == 0, moved.stderr
    report = json.loads(moved.stdout)
    assert (report["from"], report["to"], report["memories"], report["missing"]) == \
        ("files", "database", 3, 0)
    # The catalog went first, whole, and was checked table by table.
    tables = report["catalog"]["tables"]
    assert report["catalog"]["verified"]
    assert tables["elements"]["written"] == tables["elements"]["rows"] >= 2
    assert tables["tokens"]["rows"] == 1 and tables["activity"]["rows"] >= 3
    # The home now lives in the database: a command that forgets the URL is refused
    # rather than served from the folder's stale files; the record holds no password.
    for forgetful in (("migrate", "--to", url), ("token", "create", "--circle", "demo",
                                                     "--role", "viewer")):
        done = run_cli(home, *forgetful)
        assert done.returncode == 2 and "pass --database URL" in done.stderr, done.stderr
    assert json.loads((home / "database.json").read_text()) == {"database": url}
    again = json.loads(run_cli(twin, "migrate", "--to", url).stdout)
    assert [(e["imported"], e["skipped"]) for e in again["elements"]] == [(0, 3)]
    assert again["catalog"]["verified"]
    assert all(t["written"] == t["replaced"] == 0 for t in again["catalog"]["tables"].values())

    on_pg = serve("home", args=("--database", url))
    pg = on_pg.client(srv.token)
    after = {m["id"]: m for m in pg.get(
        "/api/demo/memory/ops/memories?subject_type=guest&subject_id=ana").body["memories"]}
    assert after == before       # the same memories, to the access count and timestamp
    added = pg.post("/api/demo/memory/ops/store", {"content": "note 3 stored on postgres",
                                                   "category": "fact"}).body["memory"]["id"]
    # An element and a token made on PostgreSQL: the catalog there is now ahead.
    assert pg.post("/api/demo/ops/create", {"element_type": "prompt",
                                            "slug": "greeting"}).status == 201
    assert on_pg.stop() == 0
    viewer = run_cli(home, "--database", url, "token", "create", "--circle", "demo",
                     "--role", "viewer").stdout.strip()
    stale = run_cli(stale_twin, "migrate", "--to", url)       # files -> database again: refused
    assert stale.returncode == 1 and "CATALOG_AHEAD" in stale.stderr + stale.stdout

    back = run_cli(home, "--database", url, "migrate", "--to", "files")
    assert back.returncode == 0, back.stderr
    moved_back = json.loads(back.stdout)
    (element,) = moved_back["elements"]
    assert (element["imported"], element["skipped"], element["missing"]) == (1, 3, 0)
    assert moved_back["catalog"]["verified"]
    assert not (home / "database.json").exists()     # the home lives in its files again
    same = run_cli(home, "--database", url, "migrate", "--to", url)
    assert same.returncode == 2 and "there already" in same.stderr
    on_files = serve("home").client(srv.token)
    listed = on_files.get("/api/demo/memory/ops/memories").body["memories"]
    assert sorted(m["id"] for m in listed) == sorted([*ids, added])
    assert on_files.get("/api/demo/greeting/ops/readme").status == 200
    assert on_files.get("/api/demo/memory/ops/memories", token=viewer).status == 200


def test_a_database_outage_is_a_retryable_503_and_the_worker_recovers(
        serve: Callable[..., Served], tmp_path: Path) -> None:
    """The catalog is in the database too: while it is down, every call (a token check
    first of all) answers 503 with Retry-After in the one error shape, never a 500; when
    it is back, the same worker serves again. A worker cannot start without it."""
    from tests.pg import start_server
    server = start_server("fsync=off")
    try:
        url = server.url
        done = run_cli(tmp_path / "home", "init", "--database", url)
        assert done.returncode == 0, done.stderr
        token = next(line.strip() for line in done.stdout.splitlines()
                     if line.strip().startswith("tfm_"))
        srv = serve("home", args=("--database", url))
        client = srv.client(token)
        assert client.get("/api/demo/memory/ops/memories").status == 200
        server.halt()
        for method, path, body in (("GET", "/api/demo/memory/ops/memories", None),
                                   ("POST", "/api/demo/memory/ops/store",
                                    {"content": "during", "category": "fact"}),
                                   ("GET", "/api/events?timeout=1", None)):
            reply = client.post(path, body) if method == "POST" else client.get(path)
            assert reply.status == 503, (path, reply.status, reply.body)
            assert reply.headers["Retry-After"]
            error = reply.body["error"]
            assert (error["code"], error["class"], error["retryable"]) == \
                ("DATABASE_UNAVAILABLE", "unavailable", True)
        assert "Traceback" not in srv.log
        server.start("fsync=off")
        assert client.get("/api/demo/memory/ops/memories").status == 200
        assert srv.stop() == 0
        server.halt()
        refused = run_cli(tmp_path / "home", "serve", "--database", url, "--port", "0")
        assert refused.returncode == 1
        assert "DATABASE_UNAVAILABLE" in refused.stderr and "Traceback" not in refused.stderr
    finally:
        try:
            server.stop()
        except subprocess.CalledProcessError:     # halted already: only the folder is left
            shutil.rmtree(server.root, ignore_errors=True)


def test_a_restore_keeps_forgotten_what_the_database_home_forgot(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    """A backup taken on files, the home moved into PostgreSQL, a person forgotten there:
    restoring the backup must not bring them back. The forgotten list is read from the
    database (the folder's catalog.db is stale), and the restored home is files even
    with the URL in the environment."""
    url = pg_server.create_database("restore_forgotten")
    home = tmp_path / "home"
    srv = serve("home")
    client = srv.client()
    for content, who in (("Ana likes tea", "ana"), ("Ben likes chess", "ben")):
        assert client.post("/api/demo/memory/ops/store", {
            "content": content, "category": "fact", "subject_type": "guest",
            "subject_id": who}).status == 201
    assert srv.stop() == 0
    backup = tmp_path / "backup"
    assert run_cli(home, "backup", "--to", str(backup)).returncode == 0
    assert run_cli(home, "migrate", "--to", url).returncode == 0
    on_pg = serve("home", args=("--database", url))
    forgot = on_pg.client(srv.token).post(
        "/api/demo/memory/ops/forget_subject", {"subject_type": "guest", "subject_id": "ana"},
        headers={"X-Confirm": "destructive"})
    assert forgot.status == 200 and forgot.body["deleted"] == 1
    assert on_pg.stop() == 0

    restored = tmp_path / "restored"
    blind = run_cli(None, "restore", "--from", str(backup), "--home", str(restored))
    assert blind.returncode == 2 and "pass --database URL" in blind.stderr, blind.stderr
    assert not restored.exists()       # refused before anything was written
    done = run_cli(None, "restore", "--from", str(backup), "--home", str(restored),
                   env={"TRIFORM_DATABASE_URL": url})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["forgotten_dropped"] == {"demo/memory": 1}
    assert report["forgotten_checked_against"] == str(home)
    assert not (restored / "database.json").exists()
    listed = run_cli(restored, "memory", "list", "demo/memory", env={"TRIFORM_DATABASE_URL": ""})
    assert {m["content"] for m in json.loads(listed.stdout)["memories"]} == {"Ben likes chess"}
    log = next((restored / "runtime").glob("*/memories.jsonl")).read_text()
    assert "Ana likes tea" not in log
    # The database, which the restore read from, kept Ben and recorded one forget.
    again = serve("home", args=("--database", url)).client(srv.token)
    assert [m["content"] for m in again.get("/api/demo/memory/ops/memories").body[
        "memories"]] == ["Ben likes chess"]
