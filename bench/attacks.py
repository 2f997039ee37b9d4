"""Round three of the adversarial suite (issue 26): sections that ``bench/hardening.py`` runs.

- ``connections``: ``triform serve`` (a subprocess) takes ``--idle`` connections that never
  send a byte and ``--half`` that send a request head and part of a body, then a health
  check. Prints whether the server lives, the health check's latency and the server's open
  descriptors (targets: alive, well under a second, bounded by the connection limit).
- ``reopen``: more memory elements than the home keeps open, listed round-robin by a
  viewer for ``--rounds`` rounds, so every list reopens a closed store. Prints RSS, open
  descriptors and mapped runtime files after each round (the target: flat).
- ``bodies``: ``--bodies`` connections without a token each announce a 100 MiB import and
  send as fast as they can. Prints the answers, how long they took and how much each
  client got to send before the server closed it (the target: 401 on the headers, a few
  socket buffers sent, nothing read).
- ``erase``: a store of ``--erase-memories`` memories; 20 of them deleted through the API.
  Prints the delete's latency (p50, max) and whether any deleted text is left in the
  element's files (the target: none).
- ``poison``: a member imports files of ``--lines`` good lines and one poison line (each
  kind: counts past 2^53 and 2^63, times past 9999, a full pool), then the home restarts.
  Prints how many imports were refused, memories written by them, and whether every
  element opens after the restart and after a poison line written into a log by hand
  (targets: all, 0, yes).
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import tempfile
import time
from pathlib import Path

from tests.helpers import Served, serve


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _fds(pid: int | str = "self") -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def _mapped(under: Path) -> int:
    with open("/proc/self/maps") as maps:
        return sum(1 for line in maps if str(under) in line)


def _health(port: int) -> tuple[bool, float]:
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            ok = sock.recv(65536).startswith(b"HTTP/1.1 200")
    except OSError:
        ok = False
    return ok, time.monotonic() - started


# -- connections --------------------------------------------------------------------------
def connections(idle: int, half: int) -> None:
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = idle + half + 512
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp) / "home").start()
        assert served.process is not None
        held: list[socket.socket] = []
        try:
            started = time.monotonic()
            for n in range(idle + half):
                sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
                if n >= idle:
                    sock.sendall(b"POST /healthz HTTP/1.1\r\nHost: x\r\n"
                                 b"Content-Length: 1000000\r\n\r\n" + b"x" * 600_000)
                held.append(sock)
            opened = time.monotonic() - started
            time.sleep(1)
            ok, latency = _health(served.port)
            alive = served.process.poll() is None
            fds = _fds(served.process.pid) if alive else 0
            print(f"connections: {idle} idle + {half} half-sent bodies opened in "
                  f"{opened:.1f} s; server {'alive' if alive else 'DEAD'}, health check "
                  f"{'200' if ok else 'FAILED'} in {latency * 1000:.0f} ms, server holds "
                  f"{fds} descriptors")
        finally:
            for sock in held:
                sock.close()
            if served.process.poll() is None:
                served.stop()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


# -- reopen -------------------------------------------------------------------------------
def reopen(count: int, rounds: int, open_at_once: int | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        try:
            if open_at_once is not None:
                srv.home.max_open_stores = open_at_once
            member, viewer = srv.client("member"), srv.client("viewer")
            for n in range(count):
                member.post("/api/demo/ops/create", {"element_type": "memory",
                                                     "slug": f"r{n}"})
                member.post(f"/api/demo/r{n}/ops/store",
                            {"content": f"the note of element {n}", "category": "fact"})
            runtime = srv.home.path / "runtime"
            print(f"reopen: {count} memory elements, at most {srv.home.max_open_stores} "
                  f"stores open, listed round-robin by a viewer")
            started = time.monotonic()
            for r in range(rounds):
                for n in range(count):
                    viewer.get(f"/api/demo/r{n}/ops/memories")
                print(f"  round {r + 1}: RSS {_rss_mib():.0f} MiB, {_fds()} fds, "
                      f"{_mapped(runtime)} mapped runtime files "
                      f"({time.monotonic() - started:.0f} s)")
        finally:
            srv.close()


# -- poison -------------------------------------------------------------------------------
POISON = {"access_count 2^63": {"access_count": 2**63},
          "access_count 2^53+1": {"access_count": 2**53 + 1},
          "updated_at past 9999": {"updated_at": "9999-12-31T23:59:59-05:00"},
          "created_at year 0": {"created_at": "0000-01-01T00:00:00Z"},
          "a full pool": {"subject_type": "guest", "subject_id": "bob"}}


def _ndjson(lines: list[dict[str, object]]) -> bytes:
    header = {"format": "triform-memories", "version": 1, "count": len(lines)}
    return b"".join(json.dumps(x).encode() + b"\n" for x in [header, *lines])


def poison(lines: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        srv = serve(home)
        refused = written = 0
        started = time.monotonic()
        try:
            member = srv.client("member")
            for n, (name, fields) in enumerate(POISON.items()):
                slug = f"p{n}"
                member.post("/api/demo/ops/create", {
                    "element_type": "memory", "slug": slug,
                    "properties": {"subject_scoping": True, "max_memories": lines,
                                   "max_per_subject": lines}})
                good = [{"id": f"{n:04x}{i:028x}", "content": f"memory {i}",
                         "category": "fact", "subject_type": "guest", "subject_id": "ana",
                         "created_at": "2024-01-01T00:00:00Z"} for i in range(lines)]
                bad = {**good[0], "id": f"{n:04x}{'f' * 28}", **fields}
                reply = member.post(f"/api/demo/{slug}/ops/import/memories",
                                    raw=_ndjson([bad, *good]),
                                    headers={"Content-Type": "application/x-ndjson"})
                total = member.get(f"/api/demo/{slug}/ops/stats").body["total"]
                refused += reply.status in (400, 409)
                written += total
                print(f"  {name}: {reply.status} "
                      f"{reply.body.get('error', {}).get('code', '-')}, {total} written")
            log = srv.home.runtime_path(srv.home.catalog.element_at("demo/memory")) \
                / "memories.jsonl"
            member.post("/api/demo/memory/ops/store", {"content": "kept", "category": "fact"})
        finally:
            srv.close()
        entry = json.loads(log.read_text().splitlines()[-1])
        entry["record"].update(id="e" * 32, seq=10**6, access_count=2**63)
        with open(log, "a") as f:
            f.write(json.dumps(entry) + "\n")
        srv = serve(home, init=False)
        try:
            viewer = srv.client("viewer")
            opened = sum(viewer.get(f"/api/demo/p{n}/ops/stats").status == 200
                         for n in range(len(POISON)))
            kept = viewer.get("/api/demo/memory/ops/memories").body["memories"]
            stats = viewer.get("/api/demo/ops/batch_stats").status
        finally:
            srv.close()
        print(f"poison: {len(POISON)} imports of {lines} good lines and one poison line, "
              f"{refused} refused, {written} memories written; after a restart "
              f"{opened}/{len(POISON)} elements open; a log holding a line that cannot "
              f"apply opens with {len(kept)} memory (batch_stats {stats}) "
              f"({time.monotonic() - started:.0f} s)")


# -- bodies -------------------------------------------------------------------------------
def _push_body(port: int, results: list[tuple[str, float, int]]) -> None:
    head = (b"POST /api/demo/memory/ops/import/memories HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-ndjson\r\nContent-Length: 104857600\r\n\r\n")
    chunk = b"x" * 65536
    sent, status = 0, "-"
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        try:
            while sent < 104857600 and time.monotonic() - started < 5:
                sent += sock.send(chunk)
        except OSError:
            pass
        try:
            sock.settimeout(5)
            status = sock.recv(65536).split(b"\r\n", 1)[0].decode() or "closed"
        except OSError as exc:
            status = type(exc).__name__
    results.append((status, time.monotonic() - started, sent))


def bodies(count: int) -> None:
    import threading
    with tempfile.TemporaryDirectory() as tmp:
        served = Served(Path(tmp) / "home").start()
        try:
            results: list[tuple[str, float, int]] = []
            threads = [threading.Thread(target=_push_body, args=(served.port, results))
                       for _ in range(count)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            statuses = sorted({r[0] for r in results})
            print(f"bodies: {count} connections announcing 100 MiB without a token: "
                  f"{', '.join(statuses)}; sent before the server closed: median "
                  f"{statistics.median(r[2] for r in results) / 2**20:.1f} MiB, max "
                  f"{max(r[2] for r in results) / 2**20:.1f} MiB; answered within "
                  f"{max(r[1] for r in results):.1f} s")
        finally:
            served.stop()


# -- erase --------------------------------------------------------------------------------
def erase(memories: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        srv = serve(Path(tmp) / "home")
        try:
            member = srv.client("member")
            srv.client().post("/api/demo/memory/ops/spec_update", {"properties": {
                "max_memories": memories * 2, "max_per_subject": memories * 2}})
            ids: list[str] = []
            for start in range(0, memories, 256):
                batch = [{"content": f"secret-{i:06d} of the bench", "category": "fact"}
                         for i in range(start, min(memories, start + 256))]
                reply = member.post("/api/demo/memory/ops/store_batch", {"memories": batch})
                ids += [m["memory"]["id"] for m in reply.body["results"]]
            runtime = srv.home.runtime_path(srv.home.catalog.element_at("demo/memory"))
            timings = []
            for memory_id in ids[:20]:
                started = time.perf_counter()
                member.post(f"/api/demo/memory/ops/memories/{memory_id}/delete", {})
                timings.append((time.perf_counter() - started) * 1000)
            left = sum(1 for i in range(20) for path in runtime.iterdir() if path.is_file()
                       and f"secret-{i:06d}".encode() in path.read_bytes())
            print(f"erase: 20 deletes in a store of {memories} memories: p50 "
                  f"{statistics.median(timings):.0f} ms, max {max(timings):.0f} ms; deleted "
                  f"texts left in the files: {left}")
        finally:
            srv.close()
