"""Two ``triform serve`` workers on one home and one PostgreSQL database, as a team runs
them behind a load balancer (docs/deploy.md): whatever one worker acknowledges, the other
serves, over HTTP, SSE and git."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.api.test_events import Stream, read_stream
from tests.helpers import Served, commit_all, create, run_cli, run_git
from tests.pg import PgServer

MEMORY = "/api/demo/memory/ops"


def clone_url(srv: Served, token: str) -> str:
    return f"http://triform:{token}@127.0.0.1:{srv.port}/git/demo/memory.git"


def stream_from(port: int, token: str, query: str) -> tuple[threading.Thread, list[Stream]]:
    """An SSE stream read on a thread, open once this returns: (the thread, its stream)."""
    streamed: list[Stream] = []
    opened = threading.Event()
    reader = threading.Thread(target=lambda: streamed.append(read_stream(
        port, token, query, when_open=opened.set)))
    reader.start()
    assert opened.wait(30)
    return reader, streamed


def assert_limited_across(one: Served, two: Served, home: Path, url: str,
                          token: str) -> None:
    """A limit of three requests a minute, attached through worker two, counts a member's
    requests on both workers together: the fourth, wherever it lands, is refused."""
    create(one.client(token), "rate-limit", "three-a-minute", requests=3, per_seconds=60)
    assert two.client(token).post("/api/demo/memory/ops/compose",
                                  {"add": [{"ref": "three-a-minute"}]}).status == 200
    member = run_cli(home, "--database", url, "token", "create", "--circle", "demo",
                     "--role", "member").stdout.strip()
    answers = [worker.client(member).get(f"{MEMORY}/memories").status
               for worker in (one, two, one, two)]
    assert answers == [200, 200, 200, 429]


def test_two_workers_serve_one_home_as_one(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer,
        git_env: dict[str, str]) -> None:
    url = pg_server.create_database("many_workers")
    done = run_cli(tmp_path / "home", "init", "--database", url)
    assert done.returncode == 0, done.stderr
    token = next(line.strip() for line in done.stdout.splitlines()
                 if line.strip().startswith("tfm_"))
    one = serve("home", args=("--database", url))
    two = serve("home", args=("--database", url))
    first, second = one.client(token), two.client(token)

    # A stream on worker two sees what worker one commits.
    reader, streamed = stream_from(two.port, token, "path=demo/memory&limit=2&timeout=30")
    stored = first.post(f"{MEMORY}/store", {"content": "Ana moved to Porto in May",
                                            "category": "fact"})
    assert stored.status == 201, stored.body
    memory_id = stored.body["memory"]["id"]
    # ... and a write on worker two, already seen by worker one's search.
    found = second.post(f"{MEMORY}/search", {"query": "Ana moved to Porto"})
    assert [r["memory"]["id"] for r in found.body["results"]] == [memory_id]
    updated = second.post(f"{MEMORY}/memories/{memory_id}/update",
                          {"content": "Ana moved to Lisbon in June"})
    assert updated.status == 200, updated.body
    assert first.get(f"{MEMORY}/memories/{memory_id}").body["memory"]["content"] == \
        "Ana moved to Lisbon in June"
    reader.join(40)
    (stream,) = streamed
    # Each once; worker one's event may come after a later local one (docs/deploy.md).
    by_seq = sorted(stream.events, key=lambda event: int(event["seq"]))
    assert [(e["op"], e["detail"].get("memory_id")) for e in by_seq] == \
        [("store", memory_id), ("update", memory_id)]

    # Git: clones of either worker see one repository, and its refs move by
    # compare-and-swap whichever worker a push reaches.
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    run_git(git_env, "clone", "-q", clone_url(one, token), str(alice))
    run_git(git_env, "clone", "-q", clone_url(two, token), str(bob))
    (alice / "alice.md").write_text("Alice\n")
    commit_all(git_env, alice, "Alice's notes")
    (bob / "bob.md").write_text("Bob\n")
    commit_all(git_env, bob, "Bob's notes")
    run_git(git_env, "push", "-q", "origin", "draft", cwd=alice)
    late = run_git(git_env, "push", "origin", "draft", cwd=bob, check=False)
    assert late.returncode != 0 and "fetch first" in late.stderr   # not a lost update
    run_git(git_env, "pull", "-q", "--rebase", cwd=bob)
    run_git(git_env, "push", "-q", "origin", "draft", cwd=bob)
    promoted = first.post(f"{MEMORY}/source/promote", {"to": "demo"})
    assert promoted.status == 200, promoted.body
    heads = {line.split("\t")[1]: line.split("\t")[0] for line in run_git(
        git_env, "ls-remote", clone_url(two, token), cwd=tmp_path).stdout.splitlines()}
    bob_head = run_git(git_env, "rev-parse", "HEAD", cwd=bob).stdout.strip()
    assert heads["refs/heads/draft"] == heads["refs/heads/demo"] == bob_head
    for name, text in (("alice.md", "Alice\n"), ("bob.md", "Bob\n")):
        source = second.get(f"{MEMORY}/source?path={name}&branch=demo").body
        assert source["content"] == text, source

    # A token minted beside the running workers holds on both at once (one catalog, in
    # the database: the command names it too).
    minted = run_cli(tmp_path / "home", "--database", url, "token", "create", "--circle",
                     "demo", "--role", "viewer")
    assert minted.returncode == 0, minted.stderr
    viewer = minted.stdout.strip()
    for worker in (one, two):
        listed = worker.client(viewer).get(f"{MEMORY}/memories")
        assert [m["id"] for m in listed.body["memories"]] == [memory_id]

    # A rate limit counts a caller's requests on every worker together.
    assert_limited_across(one, two, tmp_path / "home", url, token)


def test_a_worker_killed_mid_load_loses_nothing_and_the_other_serves_on(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer) -> None:
    url = pg_server.create_database("killed_worker")
    done = run_cli(tmp_path / "home", "init", "--database", url)
    token = next(line.strip() for line in done.stdout.splitlines()
                 if line.strip().startswith("tfm_"))
    one = serve("home", args=("--database", url))
    two = serve("home", args=("--database", url))
    acked: list[str] = []
    failed = {"one": 0, "two": 0}
    stop = threading.Event()

    def writer(name: str, worker: Served) -> None:
        client, n = worker.client(token), 0
        while not stop.is_set():
            n += 1
            try:
                reply = client.post(f"{MEMORY}/store", {"content": f"{name} note {n}",
                                                        "category": "fact"})
            except OSError:              # the killed worker: connection refused or reset
                failed[name] += 1
                time.sleep(0.05)
                continue
            if reply.status == 201:
                acked.append(reply.body["memory"]["id"])
            else:
                failed[name] += 1

    writers = [threading.Thread(target=writer, args=(name, worker))
               for name, worker in (("one", one), ("two", two)) for _ in range(2)]
    for thread in writers:
        thread.start()
    deadline = time.monotonic() + 60
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.05)
    one.kill()                            # SIGKILL, mid-load
    before = len(acked)
    while len(acked) < before + 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    for thread in writers:
        thread.join(60)
    assert len(acked) >= before + 20, "worker two stopped serving"
    assert failed["two"] == 0
    stored: set[str] = set()
    cursor = None
    while True:
        page = two.client(token).get(f"{MEMORY}/memories?limit=500"
                                     + (f"&cursor={cursor}" if cursor else "")).body
        stored |= {m["id"] for m in page["memories"]}
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert set(acked) <= stored           # every acknowledged write, from either worker


def test_workers_on_two_machines_share_one_home_through_the_database(
        serve: Callable[..., Served], tmp_path: Path, pg_server: PgServer,
        git_env: dict[str, str]) -> None:
    """Two machines: each worker has a home folder of its own, and only ``repos/`` is
    shared (a network volume: here one folder both link to); the catalog, the rate
    windows and the memories are in PostgreSQL. No SQLite file is shared, or made."""
    url = pg_server.create_database("two_machines")
    volume = tmp_path / "volume"
    for machine in ("a", "b"):
        (tmp_path / machine).mkdir()
        (tmp_path / machine / "repos").symlink_to(volume / "repos", target_is_directory=True)
    volume.mkdir()
    (volume / "repos").mkdir()
    done = run_cli(tmp_path / "a", "init", "--database", url)
    assert done.returncode == 0, done.stderr
    token = next(line.strip() for line in done.stdout.splitlines()
                 if line.strip().startswith("tfm_"))
    one = serve("a", args=("--database", url))
    # Worker b follows other workers' events only every 30 s by polling: an event that
    # arrives sooner was pushed by NOTIFY.
    two = serve("b", args=("--database", url), env={"TRIFORM_EVENTS_FOLLOW": "30"})
    first, second = one.client(token), two.client(token)

    # The token made by `init` on machine a holds on machine b; a token made on b, on a.
    assert second.get(f"{MEMORY}/memories").status == 200
    minted = run_cli(tmp_path / "b", "--database", url, "token", "create", "--circle",
                     "demo", "--role", "viewer")
    assert minted.returncode == 0, minted.stderr
    assert one.client(minted.stdout.strip()).get(f"{MEMORY}/memories").status == 200

    # An element created on a is served by b, its repository included.
    create(first, "prompt", "greeting")
    assert second.get("/api/demo/greeting/ops/readme").status == 200
    listed = run_git(git_env, "ls-remote",
                     f"http://triform:{token}@127.0.0.1:{two.port}/git/demo/greeting.git",
                     cwd=tmp_path).stdout
    assert "refs/heads/draft" in listed

    # A stream on b sees a write on a promptly.
    reader, streamed = stream_from(two.port, token, "path=demo/memory&limit=1&timeout=25")
    stored = first.post(f"{MEMORY}/store", {"content": "Ana moved to Porto in May",
                                            "category": "fact"})
    assert stored.status == 201, stored.body
    acked = time.monotonic()
    reader.join(40)
    took = time.monotonic() - acked
    (stream,) = streamed
    assert [(e["op"], e["detail"].get("memory_id")) for e in stream.events] == \
        [("store", stored.body["memory"]["id"])]
    assert took < 5, f"the event took {took:.1f} s: followed, not notified"

    # A rate limit counts a caller's requests on both machines together.
    assert_limited_across(one, two, tmp_path / "a", url, token)

    for machine in ("a", "b"):
        assert not list((tmp_path / machine).glob("*.db*")), "a SQLite file in a home"


def test_workers_starting_together_on_an_empty_database_all_start(
        tmp_path: Path, pg_server: PgServer) -> None:
    """Every worker of a new deployment runs the first-run setup (the circle and its
    memory element) when it finds the catalog empty; started at the same moment, they
    all come up and the catalog holds each element once, with one repository each."""
    from api.config import embedder_factory
    from element import Home

    url = pg_server.create_database("together")
    repos = tmp_path / "shared-repos"
    repos.mkdir()
    homes = []
    for n in range(4):
        (tmp_path / f"worker-{n}").mkdir()
        (tmp_path / f"worker-{n}" / "repos").symlink_to(repos)
        homes.append(Home(tmp_path / f"worker-{n}", embedder_factory("hashing", None),
                          database=url))
    start = threading.Barrier(len(homes))
    outcomes: list[Any] = []

    def first_run(home: Home) -> None:
        start.wait()
        try:
            root, memory, created = home.init("demo")
            outcomes.append((root.path, memory.path, created))
        except Exception as exc:  # what the worker would die of
            outcomes.append(exc)

    try:
        threads = [threading.Thread(target=first_run, args=(h,)) for h in homes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert all(isinstance(o, tuple) for o in outcomes), outcomes
        assert [o[:2] for o in outcomes] == [("demo", "demo/memory")] * len(homes)
        # Exactly one worker made the circle: only it mints an admin token.
        assert sum(o[2] for o in outcomes) == 1
        elements = homes[0].catalog.elements()
        assert sorted(e.path for e in elements) == ["demo", "demo/memory"]
        assert sorted(p.name for p in repos.iterdir()) == sorted(f"{e.id}.git"
                                                                   for e in elements)
    finally:
        for home in homes:
            home.close()
