"""A backup of a home kept in PostgreSQL holds its memories (issue 25), as a team runs it:
two ``triform serve`` workers on one database store memories, ``triform backup`` runs
while a writer goes on, ``backup --verify`` counts and checks them, and ``triform
restore`` builds a working home from the backup, in files and in a fresh database: every
memory acknowledged before the backup started is there, and found by search. A restore
into a database that holds a home refuses before it writes; a backup killed midway leaves
nothing that ``--verify`` or ``restore`` accepts."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from tests.helpers import ROOT, Served, run_cli
from tests.journeys.test_backup import all_ids
from tests.pg import PgServer

PATHS = ("demo/memory", "demo/notes")


class Writer:
    """Stores memories in a loop, alternating workers and elements, recording what each
    write acknowledged and when."""

    def __init__(self, clients: list[Any], tag: str) -> None:
        self.clients, self.tag = clients, tag
        self.acked: list[tuple[float, str, str, str]] = []    # (monotonic, path, id, text)
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def store(self, i: int) -> None:
        path = PATHS[i % 2]
        content = f"{self.tag} note {i} marker {self.tag}x{i}"
        reply = self.clients[i % len(self.clients)].post(
            f"/api/{path}/ops/store", {"content": content, "category": "fact"})
        assert reply.status == 201, reply.body
        with self.lock:
            self.acked.append((time.monotonic(), path, reply.body["memory"]["id"], content))

    def run(self) -> None:
        i = 0
        while not self.stop.is_set() and i < 2000:
            self.store(i)
            i += 1

    def before(self, instant: float) -> list[tuple[str, str, str]]:
        with self.lock:
            return [(path, memory_id, text) for at, path, memory_id, text in self.acked
                    if at < instant]


def assert_all_there_and_found(client: Any, acked: list[tuple[str, str, str]]) -> None:
    for path in PATHS:
        want = {memory_id for p, memory_id, _ in acked if p == path}
        lost = want - all_ids(client, path)
        assert not lost, f"{path}: {len(lost)} acknowledged memories lost"
    for path, memory_id, text in acked:
        found = client.post(f"/api/{path}/ops/search", {"query": text, "limit": 3})
        assert found.status == 200, found.body
        assert memory_id in [r["memory"]["id"] for r in found.body["results"]], text


def init_on(home: Path, url: str) -> str:
    """``triform init --database URL``; the admin token it printed."""
    done = run_cli(home, "init", "--database", url)
    assert done.returncode == 0, done.stderr
    return next(line.strip() for line in done.stdout.splitlines()
                if line.strip().startswith("tfm_"))


def _rows(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        memories = conn.execute("SELECT count(*) FROM memories").fetchone()
        elements = conn.execute("SELECT count(*) FROM elements").fetchone()
    assert memories is not None and elements is not None
    return int(memories[0]), int(elements[0])


def test_a_database_home_backed_up_under_writes_restores_every_memory(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("backup_source")
    home = tmp_path / "home"
    token = init_on(home, url)
    one = serve("home", args=("--database", url))
    two = serve("home", args=("--database", url))
    assert one.client(token).post("/api/demo/ops/create", {
        "element_type": "memory", "slug": "notes"}).status == 201
    # Memories stored through both workers, then a writer that goes on during the backup.
    first = Writer([one.client(token), two.client(token)], "early")
    for i in range(40):
        first.store(i)
    writer = Writer([two.client(token), one.client(token)], "during")
    writer.thread.start()
    while len(writer.before(time.monotonic())) < 10:
        time.sleep(0.05)
    started = time.monotonic()
    backup = tmp_path / "backup"
    done = run_cli(home, "--database", url, "backup", "--to", str(backup))
    took = time.monotonic() - started
    writer.stop.set()
    writer.thread.join(60)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    acked = [*first.before(started), *writer.before(started)]

    verified = run_cli(None, "backup", "--verify", str(backup))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    report = json.loads(verified.stdout)
    assert report["ok"] is True
    counts = report["memories"]
    assert sum(counts.values()) == answer["memories"]
    for path in PATHS:
        assert counts[path] >= sum(1 for p, _, _ in acked if p == path)
    manifest = json.loads((backup / "manifest.json").read_text())
    assert manifest["backend"] == "database" and manifest["version"] == 2
    listed = {f["path"]: f for f in manifest["files"]}
    for entry in manifest["elements"]:
        if entry["element_type"] == "memory":
            snapshot = entry["memories"]
            assert snapshot["count"] == counts[entry["path"]]
            assert snapshot["with_vectors"] == snapshot["count"]      # no embedding again
            assert listed[snapshot["file"]]["sha256"]
    # The figures of the closing note: what the writer added while the backup ran.
    during = len(writer.acked) - len(writer.before(started))
    inside = (datetime.fromisoformat(answer["finished_at"].replace("Z", "+00:00"))
              - datetime.fromisoformat(answer["started_at"].replace("Z", "+00:00")))
    print(f"\nbackup of a database home: {answer['memories']} memories "
          f"({len(acked)} acknowledged before it started, {during} stored while the "
          f"command ran, {answer['memories'] - len(acked)} of those in it); "
          f"{inside.total_seconds():.2f} s from start to manifest, {took:.2f} s for the "
          f"whole command")

    # Restored into files: a working home, the same token, every memory found.
    origin = {"TRIFORM_DATABASE_URL": url}      # where the origin's later forgets are
    done = run_cli(None, "restore", "--from", str(backup), "--home",
                   str(tmp_path / "restored"), env=origin)
    assert done.returncode == 0, done.stderr
    restored = json.loads(done.stdout)
    assert restored["memories"] == counts and restored["database"] is False
    assert not (tmp_path / "restored" / "database.json").exists()
    files = serve("restored")
    client = files.client(token)
    assert_all_there_and_found(client, acked)
    stored = client.post("/api/demo/memory/ops/store", {"content": "after the restore",
                                                        "category": "fact"})
    assert stored.status == 201, stored.body

    # Restored into a fresh database: the same.
    fresh = pg_server.create_database("backup_target")
    done = run_cli(None, "--database", fresh, "restore", "--from", str(backup), "--home",
                   str(tmp_path / "restored-db"), env=origin)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["memories"] == counts
    # Its folder holds the repositories and the record of its database, nothing else.
    assert sorted(p.name for p in (tmp_path / "restored-db").iterdir()) == \
        sorted(["database.json", "repos", *(["console.key"] if (
            backup / "console.key").exists() else [])])
    on_db = serve("restored-db", args=("--database", fresh))
    assert_all_there_and_found(on_db.client(token), acked)

    # A database that holds a home is refused before anything is written, the origin's
    # and the one just restored into alike.
    for taken in (url, fresh):
        before = _rows(taken)
        refused = run_cli(None, "--database", taken, "restore", "--from", str(backup),
                          "--home", str(tmp_path / "again"), env=origin)
        assert refused.returncode == 1 and "holds a home already" in refused.stderr, \
            refused.stderr
        assert not (tmp_path / "again").exists()
        assert _rows(taken) == before


def _import_body(count: int) -> bytes:
    header = {"format": "triform-memories", "version": 1, "element": "demo/memory",
              "model": None, "dim": None, "count": count, "vectors": False,
              "exported_at": "2025-01-01T00:00:00Z", "filters": {}, "forgotten": []}
    lines = [json.dumps(header)]
    for i in range(count):
        lines.append(json.dumps({"id": uuid.uuid4().hex, "content": f"bulk memory {i}",
                                 "category": "fact", "created_at": "2025-01-01T00:00:00Z"}))
    return ("\n".join(lines) + "\n").encode()


def test_a_backup_killed_midway_leaves_nothing_verify_or_restore_accepts(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("backup_killed")
    home = tmp_path / "home"
    token = init_on(home, url)
    srv = serve("home", args=("--database", url))
    imported = srv.client(token).post(
        "/api/demo/memory/ops/import/memories", raw=_import_body(1000),
        headers={"Content-Type": "application/x-ndjson"})
    assert imported.status == 200 and imported.body["imported"] == 1000, imported.body
    dest = tmp_path / "backup"
    argv = [sys.executable, "-m", "api.cli", "--home", str(home), "--embedder", "hashing",
            "--database", url, "backup", "--to", str(dest)]
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=dict(os.environ))
    try:
        # Killed once it is writing the memories: mid-way by any measure.
        deadline = time.monotonic() + 120
        while not any(p.stat().st_size for p in tmp_path.glob(".backup.partial-*/memories/*")):
            assert process.poll() is None, "the backup ended before it could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.005)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(30)
    assert not dest.exists()
    (partial,) = tmp_path.glob(".backup.partial-*")
    for folder in (dest, partial):
        checked = run_cli(None, "backup", "--verify", str(folder))
        assert checked.returncode == 1 and "no manifest.json" in checked.stderr
        refused = run_cli(None, "restore", "--from", str(folder), "--home",
                          str(tmp_path / "restored"), env={"TRIFORM_DATABASE_URL": url})
        assert refused.returncode == 1, refused.stderr
        assert not (tmp_path / "restored").exists()
    # The leftover does not stand in the way of the next backup.
    again = run_cli(home, "--database", url, "backup", "--to", str(dest))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["memories"] == 1000

    # A snapshot cut at a line boundary, its checksum rewritten to match: the counts
    # still tell (the header's, the manifest's).
    manifest = json.loads((dest / "manifest.json").read_text())
    rel = next(e["memories"]["file"] for e in manifest["elements"] if e.get("memories")
               and e["memories"]["count"])
    cut = (dest / rel).read_bytes().split(b"\n")
    (dest / rel).write_bytes(b"\n".join(cut[:-2]) + b"\n")
    for item in manifest["files"]:
        if item["path"] == rel:
            item["bytes"] = (dest / rel).stat().st_size
            item["sha256"] = hashlib.sha256((dest / rel).read_bytes()).hexdigest()
    (dest / "manifest.json").write_text(json.dumps(manifest))
    checked = run_cli(None, "backup", "--verify", str(dest))
    assert checked.returncode == 1
    assert any("announces 1000 memories and the file holds 999" in problem
               for problem in json.loads(checked.stdout)["problems"]), checked.stdout
