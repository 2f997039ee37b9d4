"""Online backup and restore of a whole home (issue 11), as a user runs them: ``triform
backup`` beside a running ``triform serve`` while four clients write, ``backup --verify``,
``triform restore`` into a new home, then serving that home: the same tokens, elements,
versions, branches and memories, and the journey "clone, push, store, search" passes."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from element import backup_home, verify_backup
from tests.helpers import Served, commit_all, run_cli, run_git, serve

MEMORY = "/api/demo/memory/ops"


def all_ids(client: Any, path: str = "demo/memory") -> set[str]:
    ids, cursor = set(), None
    while True:
        reply = client.get(f"/api/{path}/ops/memories?limit=500"
                           + (f"&cursor={cursor}" if cursor else ""))
        assert reply.status == 200, reply.body
        ids |= {m["id"] for m in reply.body["memories"]}
        cursor = reply.body["next_cursor"]
        if cursor is None:
            return ids


class Writers:
    """Four clients storing memories in a loop (two elements), recording what each write
    acknowledged and when."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.acked: list[tuple[float, str, str]] = []      # (monotonic, path, id)
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True)
                        for i in range(4)]

    def run(self, n: int) -> None:
        client = self.served.client()
        path = "demo/memory" if n % 2 == 0 else "demo/notes"
        i = 0
        while not self.stop.is_set() and i < 400:
            reply = client.post(f"/api/{path}/ops/store",
                                {"content": f"writer {n} memory {i}", "category": "fact"})
            assert reply.status == 201, reply.body
            with self.lock:
                self.acked.append((time.monotonic(), path, reply.body["memory"]["id"]))
            i += 1

    def before(self, instant: float) -> dict[str, set[str]]:
        with self.lock:
            found: dict[str, set[str]] = {}
            for at, path, memory_id in self.acked:
                if at < instant:
                    found.setdefault(path, set()).add(memory_id)
            return found


def test_backup_under_four_writers_restores_every_acknowledged_write(
        serve: Callable[..., Served], tmp_path: Path, git_env: dict[str, str]) -> None:
    original = serve("home")
    admin = original.client()
    assert admin.post("/api/demo/ops/create", {"element_type": "memory",
                                               "slug": "notes"}).status == 201
    writers = Writers(original)
    for thread in writers.threads:
        thread.start()
    time.sleep(1.0)
    started = time.monotonic()
    done = run_cli(original.home, "backup", "--to", str(tmp_path / "backup"))
    writers.stop.set()
    for thread in writers.threads:
        thread.join(60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["elements"] >= 3 and report["files"] > 0
    acked = writers.before(started)
    assert sum(len(v) for v in acked.values()) >= 8, "the writers had not started"

    verified = run_cli(None, "backup", "--verify", str(tmp_path / "backup"))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["ok"] is True

    restored_home = tmp_path / "restored"
    done = run_cli(None, "restore", "--from", str(tmp_path / "backup"), "--home",
                   str(restored_home))
    assert done.returncode == 0, done.stderr
    history = {op: admin.get(f"/api/demo/memory/ops/{op}").body
               for op in ("version", "source/branches", "spec")}
    elements = admin.get("/api/demo/ops/tree").body
    original.stop()

    restored = serve("restored")
    assert restored.token is None           # not a fresh home: nothing new minted
    client = restored.client(original.token)   # the same tokens
    for path, ids in acked.items():
        assert ids <= all_ids(client, path), f"{path}: acknowledged writes lost"
    # The same elements, versions, branches and spec.
    assert client.get("/api/demo/ops/tree").body == elements
    for op, answer in history.items():
        assert client.get(f"/api/demo/memory/ops/{op}").body == answer, op

    # Restore, then serve: clone, push, store, search.
    restored.token = original.token
    wc = clone_from(restored, git_env, tmp_path / "wc")
    (wc / "NOTES.md").write_text("restored and pushed\n")
    commit_all(git_env, wc, "after restore")
    run_git(git_env, "push", "-q", "origin", "HEAD:draft", cwd=wc)
    stored = client.post(f"{MEMORY}/store", {"content": "Ana likes tea after restore",
                                             "category": "fact"})
    assert stored.status == 201, stored.body
    found = client.post(f"{MEMORY}/search", {"query": "Ana likes tea after restore"})
    assert found.body["results"][0]["memory"]["id"] == stored.body["memory"]["id"]


def clone_from(served: Served, git_env: dict[str, str], dest: Path) -> Path:
    url = f"http://t:{served.token}@127.0.0.1:{served.port}/git/demo/memory.git"
    run_git(git_env, "clone", "-q", url, str(dest))
    return dest


def test_a_subject_forgotten_after_the_backup_stays_forgotten_on_restore(
        tmp_path: Path) -> None:
    srv = serve(tmp_path / "home")
    try:
        client = srv.client(live=True)
        for content, who in (("Ana likes tea", "ana"), ("Ben likes chess", "ben")):
            assert client.post(f"{MEMORY}/store", {"content": content, "category": "fact",
                                                   "subject_type": "guest",
                                                   "subject_id": who}).status == 201
        manifest = backup_home(srv.home, tmp_path / "backup")   # the stores are held here
        assert all(e["log"]["under_lock"] for e in manifest["elements"]
                   if e["element_type"] == "memory" and "log" in e)
        forgot = client.post(f"{MEMORY}/forget_subject",
                             {"subject_type": "guest", "subject_id": "ana"},
                             headers={"X-Confirm": "destructive"})
        assert forgot.status == 200 and forgot.body["deleted"] == 1
    finally:
        srv.close()
    done = run_cli(None, "restore", "--from", str(tmp_path / "backup"), "--home",
                   str(tmp_path / "restored"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["forgotten_dropped"] == {"demo/memory": 1}
    listed = run_cli(tmp_path / "restored", "memory", "list", "demo/memory")
    contents = {m["content"] for m in json.loads(listed.stdout)["memories"]}
    assert contents == {"Ben likes chess"}
    # Ana's text is gone from the restored log too, not only hidden.
    log = next((tmp_path / "restored" / "runtime").glob("*/memories.jsonl")).read_text()
    assert "Ana likes tea" not in log


def backup_of_one_memory(tmp_path: Path, name: str) -> Path:
    """A home (``tmp_path/home``) holding one memory, "kept", backed up to ``name``."""
    srv = serve(tmp_path / "home")
    try:
        srv.client(live=True).post(f"{MEMORY}/store", {"content": "kept", "category": "fact"})
        backup_home(srv.home, tmp_path / name)
    finally:
        srv.close()
    return tmp_path / name


def test_a_damaged_backup_is_named_and_not_restored(tmp_path: Path) -> None:
    backup_of_one_memory(tmp_path, "backup")
    assert verify_backup(tmp_path / "backup")["ok"]
    log = next((tmp_path / "backup" / "runtime").glob("*/memories.jsonl"))
    log.write_bytes(log.read_bytes().replace(b"kept", b"kelp"))
    done = run_cli(None, "backup", "--verify", str(tmp_path / "backup"))
    assert done.returncode == 1
    assert any("checksum" in p for p in json.loads(done.stdout)["problems"])
    done = run_cli(None, "restore", "--from", str(tmp_path / "backup"), "--home",
                   str(tmp_path / "restored"))
    assert done.returncode == 1 and "BACKUP_INVALID" in done.stderr
    assert not (tmp_path / "restored").exists()
    again = run_cli(None, "backup", "--to", str(tmp_path / "backup"),
                    env={"TRIFORM_HOME": str(tmp_path / "home")})
    assert again.returncode == 1 and "not an empty folder" in again.stderr
    missing = run_cli(None, "backup", "--verify", str(tmp_path))
    assert missing.returncode == 1 and "no manifest.json" in missing.stderr


def test_a_log_caught_mid_append_is_copied_up_to_its_last_whole_line(tmp_path: Path) -> None:
    from index import copy_log_file

    runtime = tmp_path / "runtime"
    runtime.mkdir()
    (runtime / "memories.jsonl").write_bytes(b'{"op":"header"}\n{"op":"store"}\n{"op":"sto')
    copied = copy_log_file(runtime, tmp_path / "copy.jsonl")
    assert (tmp_path / "copy.jsonl").read_bytes() == b'{"op":"header"}\n{"op":"store"}\n'
    assert copied["bytes"] == 31
    assert copy_log_file(tmp_path / "never-opened", tmp_path / "none.jsonl")["bytes"] == 0


def _outside_file_as(backup: Path, rel: str, outside: Path) -> None:
    """What a local user who can write the backup folder does: one listed file becomes a
    link to a file outside, and the manifest is rewritten to match that file."""
    (backup / rel).unlink()
    (backup / rel).symlink_to(outside)
    manifest = json.loads((backup / "manifest.json").read_text())
    for item in manifest["files"]:
        if item["path"] == rel:
            item["bytes"] = outside.stat().st_size
            item["sha256"] = hashlib.sha256(outside.read_bytes()).hexdigest()
    (backup / "manifest.json").write_text(json.dumps(manifest))


def test_verify_and_restore_follow_no_link_out_of_the_backup(tmp_path: Path) -> None:
    """Issue 26.14: a listed file or folder that is a symbolic link (to outside the
    backup, with the manifest rewritten to match) is named by --verify and refused by
    restore, which copies nothing from outside into the new home; a FIFO does not hang
    the check."""
    backup_of_one_memory(tmp_path, "clean")
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("the neighbour's secret\n")
    manifest = json.loads((tmp_path / "clean" / "manifest.json").read_text())
    repo = next(p for p in manifest["dirs"] if p.startswith("repos/") and p.endswith(".git"))

    linked_file = tmp_path / "linked-file"
    shutil.copytree(tmp_path / "clean", linked_file, symlinks=True)
    _outside_file_as(linked_file, f"{repo}/description", secret)
    # A folder of the backup replaced by a link to a copy of it outside: the same bytes.
    linked_dir = tmp_path / "linked-dir"
    shutil.copytree(tmp_path / "clean", linked_dir, symlinks=True)
    shutil.move(linked_dir / repo / "refs", tmp_path / "outside" / "refs")
    (linked_dir / repo / "refs").symlink_to(tmp_path / "outside" / "refs")
    # A FIFO where a file was: reading it would wait forever.
    fifo = tmp_path / "fifo"
    shutil.copytree(tmp_path / "clean", fifo, symlinks=True)
    (fifo / repo / "description").unlink()
    os.mkfifo(fifo / repo / "description")

    for folder, why in ((linked_file, "symbolic link"), (linked_dir, "symbolic link"),
                        (fifo, "not a regular file")):
        checked = run_cli(None, "backup", "--verify", str(folder), timeout=60)
        assert checked.returncode == 1, (folder.name, checked.stdout)
        assert any(why in problem for problem in json.loads(checked.stdout)["problems"])
        restored = tmp_path / f"restored-{folder.name}"
        done = run_cli(None, "restore", "--from", str(folder), "--home", str(restored),
                       timeout=60)
        assert done.returncode == 1 and "BACKUP_INVALID" in done.stderr, done.stderr
        assert not restored.exists()
    # The clean backup restores, and nothing of the outside came in.
    done = run_cli(None, "restore", "--from", str(tmp_path / "clean"), "--home",
                   str(tmp_path / "restored"))
    assert done.returncode == 0, done.stderr
    assert not any(b"neighbour" in p.read_bytes()
                   for p in (tmp_path / "restored").rglob("*") if p.is_file())
