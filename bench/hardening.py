"""The standing adversarial suite, full size: figures for docs/security.md (issue 9).

    .venv/bin/python bench/hardening.py            # the sizes of issue 9 (~20-30 min)
    .venv/bin/python bench/hardening.py --quick    # every section, tiny sizes (~1 min)
    .venv/bin/python bench/hardening.py --only sigkill,leaks --trials 50

Sections (each prints its figures; none asserts: the bounded suite in tests/hardening/
does):

- ``sigkill``: ``triform serve`` (a subprocess, waitress, the hashing embedder) takes
  stores from ``--writers`` concurrent clients and is SIGKILLed at a random moment,
  ``--trials`` times; after each restart every acknowledged store (200 with an id) must be
  readable. Prints the acknowledged writes and how many were lost (the target is 0).
- ``leaks``: ``--searches`` searches, each by one subject with another subject's words, on
  a subject-scoped memory element, plus the same search with another circle's token.
  Prints results from another subject or circle (the target is 0).
- ``hostile``: alias-bomb and deeply nested specs, garbage, truncated and secret-bearing
  bundles imported by a member; a member's spec_update of a rate-limit; a member's git
  pushes (an alias bomb, a rate-limit's spec, a secret, a ``.git`` look-alike, runtime
  data). Prints how many were refused and how many files appeared outside the data home
  (targets: all, 0).
- ``slow``: 150 sockets that never finish their headers, then a health check through
  them; a 300 MB ``Content-Length``. Prints the health check's latency and the 413's.
- ``elements``: a member creates ``--elements`` memory elements and stores into each,
  then reads each back. Prints the stores held open (at most ``MAX_OPEN_STORES``), RSS and
  open descriptors as elements grow (the target: flat past the limit), memories not found
  again (the target: 0) and the latency of ``list`` on a store reopened against one open.
- ``soak``: ``--ops`` mixed ops (store, search, update, delete, list) in-process, RSS and
  open descriptors sampled ten times. Prints first, middle and last (the target: flat).

Round three's sections (issue 26: ``connections``, ``reopen``, ``poison``, ``bodies``,
``erase``) live in
``bench/attacks.py``, which documents each.

Not here: the schemathesis run against ``/openapi.json`` (tests/api/test_schemathesis.py
runs its bounded size in the suite).
"""

from __future__ import annotations

import argparse
import base64
import logging
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.server import make_server  # noqa: E402
from bench import attacks  # noqa: E402
from source import SPEC_PATH, commit_files, export_bundle, import_bundle  # noqa: E402
from tests.hardening.test_hostile_yaml import alias_bomb  # noqa: E402
from tests.helpers import HttpClient, Served, serve  # noqa: E402

MEMORY = "/api/demo/memory/ops"


# -- sigkill ------------------------------------------------------------------------------
def _writer(port: int, token: str, tag: str, acked: list[str], stop: threading.Event
            ) -> None:
    client = HttpClient("127.0.0.1", port, token)
    i = 0
    while not stop.is_set():
        try:
            reply = client.post(f"{MEMORY}/store", {"content": f"{tag} write {i}",
                                                    "category": "fact"},
                                headers={"Idempotency-Key": f"{tag}-{i}"})
        except Exception:   # the server died mid-request: connection reset, bad reply
            return
        if reply.status in (200, 201) and isinstance(reply.body, dict) \
                and "memory" in reply.body:
            acked.append(reply.body["memory"]["id"])
        i += 1


def sigkill(trials: int, writers: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp) / "home")
        served.start()
        token = served.token
        assert token, served.output
        # Room for every write: an eviction is not a loss.
        served.client().post(f"{MEMORY}/spec_update",
                             {"properties": {"max_memories": 10_000_000}})
        total = lost = 0
        started = time.monotonic()
        for trial in range(trials):
            if trial:
                served.start()
            acked: list[str] = []
            stop = threading.Event()
            threads = [threading.Thread(target=_writer, args=(served.port, token,
                                                              f"t{trial}w{w}", acked, stop))
                       for w in range(writers)]
            for t in threads:
                t.start()
            time.sleep(rng.uniform(0.2, 1.2))
            served.kill()
            stop.set()
            for t in threads:
                t.join(30)
            served.start()
            client = served.client()
            for memory_id in acked:
                if client.get(f"{MEMORY}/memories/{memory_id}").status != 200:
                    lost += 1
            total += len(acked)
            served.stop()
        elapsed = time.monotonic() - started
        print(f"sigkill: {trials} trials x {writers} writers, {total} acknowledged stores, "
              f"lost {lost} ({elapsed:.0f} s)")


# -- leaks --------------------------------------------------------------------------------
def leaks(searches: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        try:
            admin, other = srv.client(), srv.client("other")
            subjects = [f"s{i}" for i in range(20)]
            owner: dict[str, str] = {}
            topics = ["tea", "jazz", "Lyon", "chess", "sailing", "bread", "Kyoto", "piano"]
            for s in subjects:
                for topic in topics:
                    stored = admin.post(f"{MEMORY}/store", {
                        "content": f"{s} talked about {topic} and their plans",
                        "category": "fact", "subject_type": "guest", "subject_id": s})
                    owner[stored.body["memory"]["id"]] = s
            other.post("/api/other/ops/create", {"element_type": "memory", "slug": "memory"})
            for topic in topics:
                other.post("/api/other/memory/ops/store", {
                    "content": f"other circle knows about {topic}", "category": "fact"})
            leaked = refused = 0
            started = time.monotonic()
            for n in range(searches):
                me, them = rng.sample(subjects, 2)
                query = f"{them} talked about {rng.choice(topics)}"
                results = admin.post(f"{MEMORY}/search", {
                    "query": query, "subject_type": "guest", "subject_id": me,
                    "limit": 10}).body["results"]
                leaked += sum(1 for r in results
                              if owner.get(r["memory"]["id"], "?") not in (me,))
                if n % 10 == 0:
                    refused += other.post(f"{MEMORY}/search", {"query": query}).status == 403
            elapsed = time.monotonic() - started
            print(f"leaks: {searches} cross-subject searches, {leaked} results from another "
                  f"subject or circle; {searches // 10 + (searches % 10 > 0)} cross-circle "
                  f"searches, {refused} refused with 403 ({elapsed:.0f} s)")
        finally:
            srv.close()


# -- hostile ------------------------------------------------------------------------------
def _files_outside(root: Path, home: Path) -> set[str]:
    return {str(p) for p in root.rglob("*") if home not in p.parents and p != home}


def hostile() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        home = root / "home"
        srv = serve(home)
        try:
            member = srv.client("member")
            data = srv.client().get(f"{MEMORY}/export/bundle").raw
            before = _files_outside(root, home)
            cases: dict[str, bytes] = {"garbage": b"# v2 git bundle\n" + b"\0" * 64,
                                       "truncated": data[: len(data) // 2]}
            specs = {"alias-bomb": alias_bomb().encode(),
                     "deep-yaml": b"element_type: memory\nx: " + b"[" * 500 + b"]" * 500,
                     "not-a-mapping": b"- a\n- b\n"}
            files = {"secret": {"keys.txt": b"AKIAZ7QW3ERTY5UIOP2X"},
                     "dotgit": {".g\u200cit/config": b"[core]\n"}}
            with tempfile.TemporaryDirectory(dir=root.parent) as scratch_root:
                for name, spec in specs.items():
                    scratch = Path(scratch_root) / f"{name}.git"
                    import_bundle(data, scratch)
                    commit_files(scratch, {SPEC_PATH: spec}, message=name)
                    cases[name] = export_bundle(scratch)
                for name, changes in files.items():
                    scratch = Path(scratch_root) / f"{name}.git"
                    import_bundle(data, scratch)
                    try:
                        commit_files(scratch, changes, message=name)
                        cases[name] = export_bundle(scratch)
                    except Exception as exc:   # our own writer refuses it first
                        print(f"  {name}: refused by commit_files ({type(exc).__name__})")
            refused = 0
            for name, bundle in cases.items():
                started = time.monotonic()
                reply = member.post("/api/demo/ops/import/bundle", {
                    "bundle_base64": base64.b64encode(bundle).decode(), "slug": "x"})
                ok = reply.status == 400 and reply.body["counts"]["imported"] == 0
                refused += ok
                code = reply.body["errors"][0]["code"] if reply.body.get("errors") else "-"
                print(f"  {name}: {reply.status} {code} in "
                      f"{time.monotonic() - started:.2f} s")
            srv.client().post("/api/demo/ops/create", {
                "element_type": "rate-limit", "slug": "slow",
                "properties": {"requests": 5, "per_seconds": 60}})
            spec_reply = member.post("/api/demo/slow/ops/spec_update",
                                     {"properties": {"requests": 10**6}})
            print(f"  member spec_update of a rate-limit: {spec_reply.status}")
            refused += spec_reply.status == 403
            pushes = _hostile_pushes(srv, root / "git")
            refused += sum(pushes.values())
            after = {p for p in _files_outside(root, home) if not p.startswith(str(root / "git"))}
            print(f"hostile: {len(cases) + 1 + len(pushes)} hostile inputs, {refused} refused, "
                  f"{len(after - before)} files written outside the home")
        finally:
            srv.close()


def _git(env: dict[str, str], *args: str, cwd: Path | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120)


def _hostile_pushes(srv: Any, scratch: Path) -> dict[str, bool]:
    """A member's pushes to draft that must each be refused: {name: refused}."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    scratch.mkdir()
    env.update(HOME=str(scratch), GIT_TERMINAL_PROMPT="0", GIT_CONFIG_NOSYSTEM="1",
               GIT_AUTHOR_NAME="m", GIT_AUTHOR_EMAIL="m@example.com",
               GIT_COMMITTER_NAME="m", GIT_COMMITTER_EMAIL="m@example.com")
    base = f"http://m:{srv.tokens['member']}@127.0.0.1:{srv.port}/git/demo"
    edits: dict[str, tuple[str, dict[str, str]]] = {
        "alias-bomb spec": ("memory", {SPEC_PATH: alias_bomb()}),
        "rate-limit spec": ("slow", {}),
        "secret file": ("memory", {"notes.txt": "AKIAZ7QW3ERTY5UIOP2X\n"}),
        "dotgit look-alike": ("memory", {".g\u200cit/hooks/post-checkout": "#!/bin/sh\n"}),
        "runtime data": ("memory", {"memories.jsonl": "{}\n"}),
        "hostile .gitmodules": ("memory", {".gitmodules": '[submodule "x"]\n\tpath = x\n'
                                           '\turl = --upload-pack=touch /tmp/p\n'}),
    }
    refused: dict[str, bool] = {}
    for n, (name, (slug, files)) in enumerate(edits.items()):
        wc = scratch / f"wc{n}"
        _git(env, "clone", "-q", f"{base}/{slug}.git", str(wc))
        if slug == "slow":
            spec = (wc / SPEC_PATH).read_text().replace("requests: 5", "requests: 1000000")
            files = {SPEC_PATH: spec}
        for rel, text in files.items():
            (wc / rel).parent.mkdir(parents=True, exist_ok=True)
            (wc / rel).write_text(text)
        _git(env, "add", "-A", cwd=wc)
        _git(env, "commit", "-q", "-m", name, cwd=wc)
        push = _git(env, "push", "origin", "draft", cwd=wc)
        refused[name] = push.returncode != 0
        print(f"  push, {name}: {'refused' if refused[name] else 'ACCEPTED'}")
    return refused


# -- slow ---------------------------------------------------------------------------------
def _health(port: int) -> float:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:100]
    return time.monotonic() - started


def _run_quietly(server: Any) -> None:
    try:
        server.run()
    except OSError:          # close() pulls the sockets from under select(): stopping
        pass


def slow(sockets: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        server = make_server(srv.app, host="127.0.0.1", port=0, threads=4)
        thread = threading.Thread(target=_run_quietly, args=(server,), daemon=True)
        thread.start()
        port = int(server.effective_port)
        held = []
        try:
            for _ in range(sockets):
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                held.append(sock)
            latency = _health(port)
            with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
                started = time.monotonic()
                sock.sendall(b"POST /api/demo/ops/import/bundle HTTP/1.1\r\nHost: x\r\n"
                             b"Content-Length: 314572800\r\n\r\n")
                status = sock.recv(65536).split(b"\r\n", 1)[0].decode()
                refused = time.monotonic() - started
            print(f"slow: {sockets} slow-header sockets held, health check in "
                  f"{latency * 1000:.0f} ms; 300 MB Content-Length: {status!r} in "
                  f"{refused * 1000:.0f} ms")
        finally:
            for sock in held:
                sock.close()
            server.task_dispatcher.shutdown()
            server.close()
            thread.join(5)
            srv.close()


# -- soak ---------------------------------------------------------------------------------
def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def soak(ops: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        try:
            client = srv.client("member")
            ids: list[str] = []
            samples: list[tuple[int, float, int]] = []
            started = time.monotonic()
            for n in range(ops):
                roll = rng.random()
                if roll < 0.4 or not ids:
                    reply = client.post(f"{MEMORY}/store", {
                        "content": f"soak memory {n} about {rng.choice('abcdefgh')}",
                        "category": "fact"})
                    ids.append(reply.body["memory"]["id"])
                elif roll < 0.7:
                    client.post(f"{MEMORY}/search", {"query": f"about {rng.choice('abc')}"})
                elif roll < 0.8:
                    client.post(f"{MEMORY}/memories/{rng.choice(ids)}/update",
                                {"content": f"updated {n}"})
                elif roll < 0.9 and len(ids) > 50:
                    client.post(f"{MEMORY}/memories/{ids.pop(rng.randrange(len(ids)))}/delete")
                else:
                    client.get(f"{MEMORY}/memories?limit=20")
                if n % max(1, ops // 10) == 0 or n == ops - 1:
                    samples.append((n, _rss_mib(), _fds()))
            elapsed = time.monotonic() - started
            first, mid, last = samples[0], samples[len(samples) // 2], samples[-1]
            print(f"soak: {ops} ops in {elapsed:.0f} s; RSS MiB {first[1]:.0f} -> "
                  f"{mid[1]:.0f} -> {last[1]:.0f}; open fds {first[2]} -> {mid[2]} -> "
                  f"{last[2]}")
        finally:
            srv.close()


# -- elements -----------------------------------------------------------------------------
def elements(count: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        try:
            member = srv.client("member")
            samples: list[tuple[int, int, float, int]] = []
            for n in range(count):
                member.post("/api/demo/ops/create", {"element_type": "memory",
                                                     "slug": f"m{n}"})
                member.post(f"/api/demo/m{n}/ops/store",
                            {"content": f"the note of element {n}", "category": "fact"})
                if n % max(1, count // 6) == 0 or n == count - 1:
                    samples.append((n + 1, srv.home.open_stores(), _rss_mib(), _fds()))
            missing = 0
            cold: list[float] = []
            warm: list[float] = []
            for n in range(count):
                path = f"/api/demo/m{n}/ops/memories"
                for timings in (cold, warm):     # reopened (closed as idle), then open
                    started = time.perf_counter()
                    reply = member.get(path)
                    timings.append((time.perf_counter() - started) * 1000)
                found = [m["content"] for m in reply.body["memories"]]
                missing += found != [f"the note of element {n}"]
            print(f"elements: {count} memory elements, at most {srv.home.max_open_stores} "
                  "stores open")
            for made, held, rss, fds in samples:
                print(f"  after {made:>5}: {held:>3} stores open, RSS {rss:.0f} MiB, "
                      f"{fds} fds")
            print(f"  memories not found again: {missing}; list p50 on a reopened store "
                  f"{statistics.median(cold):.1f} ms, on an open one "
                  f"{statistics.median(warm):.1f} ms")
        finally:
            srv.close()


SECTIONS = ("sigkill", "leaks", "hostile", "slow", "elements", "soak", "connections",
            "reopen", "poison", "bodies", "erase")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="every section, tiny sizes")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help=f"comma-separated sections ({', '.join(SECTIONS)})")
    parser.add_argument("--trials", type=int, help="SIGKILL trials (default 200; quick 2)")
    parser.add_argument("--writers", type=int, default=4, help="concurrent writers")
    parser.add_argument("--searches", type=int,
                        help="cross-subject searches (default 10000; quick 200)")
    parser.add_argument("--ops", type=int, help="soak ops (default 20000; quick 300)")
    parser.add_argument("--sockets", type=int, default=150, help="slow-header sockets")
    parser.add_argument("--elements", type=int,
                        help="memory elements (default 300; quick 20)")
    parser.add_argument("--idle", type=int, help="idle connections (default 2000; quick 1100)")
    parser.add_argument("--half", type=int,
                        help="connections with half-sent bodies (default 600; quick 100)")
    parser.add_argument("--reopen-elements", type=int,
                        help="memory elements listed round-robin (default 80; quick 12)")
    parser.add_argument("--rounds", type=int, help="reopen rounds (default 5; quick 3)")
    parser.add_argument("--bodies", type=int, default=10,
                        help="connections sending 100 MiB bodies without a token")
    parser.add_argument("--erase-memories", type=int,
                        help="memories in the store deletes erase from (default 10000; "
                             "quick 500)")
    parser.add_argument("--lines", type=int,
                        help="good lines per poison import (default 300; quick 30)")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)   # one line per git request
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    trials = args.trials or (2 if args.quick else 200)
    searches = args.searches or (200 if args.quick else 10_000)
    ops = args.ops or (300 if args.quick else 20_000)
    count = args.elements or (20 if args.quick else 300)
    print(f"bench/hardening.py {' '.join(sys.argv[1:])}  ({time.strftime('%Y-%m-%d %H:%M')}"
          f", nproc {os.cpu_count()}, load {os.getloadavg()[0]:.1f})")
    runs = {"sigkill": lambda: sigkill(trials, args.writers, args.seed),
            "leaks": lambda: leaks(searches, args.seed), "hostile": hostile,
            "slow": lambda: slow(args.sockets), "elements": lambda: elements(count),
            "soak": lambda: soak(ops, args.seed),
            "connections": lambda: attacks.connections(
                args.idle or (1100 if args.quick else 2000),
                args.half or (100 if args.quick else 600)),
            "reopen": lambda: attacks.reopen(
                args.reopen_elements or (12 if args.quick else 80),
                args.rounds or (3 if args.quick else 5), 8 if args.quick else None),
            "poison": lambda: attacks.poison(args.lines or (30 if args.quick else 300)),
            "bodies": lambda: attacks.bodies(args.bodies),
            "erase": lambda: attacks.erase(args.erase_memories
                                           or (500 if args.quick else 10_000))}
    for name in only:
        runs[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
