"""Round three of the adversarial suite (issue 26): sections that ``bench/hardening.py`` runs.

- ``connections``: ``triform serve`` (a subprocess) takes ``--idle`` connections that never
  send a byte and ``--half`` that send a request head and part of a body, then a health
  check. Prints whether the server lives, the health check's latency and the server's open
  descriptors (targets: alive, well under a second, bounded by the connection limit).
- ``reopen``: more memory elements than the home keeps open, listed round-robin by a
  viewer for ``--rounds`` rounds, so every list reopens a closed store. Prints RSS, open
  descriptors and mapped runtime files after each round (the target: flat).
"""

from __future__ import annotations

import os
import socket
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
