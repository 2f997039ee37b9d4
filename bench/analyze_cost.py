"""What the ``ANALYZE`` a bulk write runs on PostgreSQL costs (``index/postgres/statistics.py``),
beside the write that called for it.

    .venv/bin/python bench/analyze_cost.py                    # 10k built, grown to 100k
    .venv/bin/python bench/analyze_cost.py --quick            # 1000, grown to 5000

Starts a server from ``tests/pg.py`` with ``autovacuum=off`` (only the store analyses),
builds N memories with ``store_many`` in batches of 500 (the hashing embedder; the bench
``hop_plan.py``'s made-up words), and prints how many times the build analysed the tables
and the build's time per memory. Then it times ``ANALYZE`` of the three memory tables (and
of ``memories`` alone), three times each, at N and again after the table is grown to
``--grow`` rows by copying the element's rows and postings under other element keys (an
``ANALYZE`` reads a sample of at most 30k rows from the table's pages: its cost follows
the table's size, not which element a row is of; a build of 100k by ``store_many`` takes
10-20 minutes here, the copy about 5). The last line compares one ``ANALYZE`` with the write of the
smallest batch that calls for it (the rule's share of the table, at the build's time
per memory): the wait a request sees on top of its own write.
"""

from __future__ import annotations

import argparse
import statistics as stats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.hop_plan import items  # noqa: E402
from index import HashingEmbedder, MemorySettings  # noqa: E402

SETTINGS = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                          relevance_threshold=0.0, subject_scoping=True)


def _timed(conn: Any, statement: str, runs: int = 3) -> list[float]:
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        conn.execute(statement)
        out.append((time.perf_counter() - started) * 1000.0)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--grow", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="1000 grown to 5000")
    args = parser.parse_args(argv)
    import psycopg

    from index.postgres import PostgresMemoryStore
    from index.postgres.statistics import TABLES
    from tests.pg import start_server
    n, grow = (1000, 5000) if args.quick else (args.memories, args.grow)
    server = start_server("fsync=off", "autovacuum=off")
    try:
        url = server.create_database("analyze_cost")
        data = items(n)
        started = time.perf_counter()
        with PostgresMemoryStore(url, "e0", HashingEmbedder(384)) as store:
            for lo in range(0, n, 500):
                store.store_many(data[lo:lo + 500], settings=SETTINGS)
        per_row = (time.perf_counter() - started) * 1000.0 / n
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT analyze_count FROM pg_stat_user_tables WHERE "
                               "relname = 'memories'").fetchone()
            print(f"# built {n} in batches of 500: {per_row:.2f} ms a memory, the store "
                  f"analysed the tables {row[0] if row else '?'} times", flush=True)
            threshold, scale = conn.execute(
                "SELECT current_setting('autovacuum_analyze_threshold')::int, "
                "current_setting('autovacuum_analyze_scale_factor')::float8").fetchone()

            def report() -> None:
                count = conn.execute("SELECT count(*) FROM memories").fetchone()[0]
                three = _timed(conn, f"ANALYZE {', '.join(TABLES)}")
                alone = _timed(conn, "ANALYZE memories")
                batch = threshold + scale * count
                print(f"{count} rows: ANALYZE of the 3 tables median "
                      f"{stats.median(three):.0f} ms {[round(x) for x in three]}, "
                      f"memories alone {stats.median(alone):.0f} ms; the smallest batch "
                      f"that calls for it ({batch:.0f} memories) writes in about "
                      f"{batch * per_row / 1000.0:.1f} s: +"
                      f"{100.0 * stats.median(three) / (batch * per_row):.1f}%",
                      flush=True)
            report()
            columns = {t: [str(r[0]) for r in conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                "ORDER BY ordinal_position", (t,))] for t in ("memories", "memory_postings")}
            for k in range(1, -(-grow // n)):
                for table, names in columns.items():
                    chosen = ", ".join(f"'e{k}'" if c == "element" else
                                       f"md5(id || '{k}')" if c == "id" else c
                                       for c in names)
                    conn.execute(f"INSERT INTO {table} ({', '.join(names)}) SELECT "
                                 f"{chosen} FROM {table} WHERE element = 'e0'".encode())
            report()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
