"""The PostgreSQL plan of the lexical second hop's statement (``index/postgres/hop.py``)
on a large element right after a bulk load, before and after ``ANALYZE``.

    .venv/bin/python bench/hop_plan.py                        # 100k memories
    .venv/bin/python bench/hop_plan.py --quick                # 500, 3 queries (a smoke run)
    .venv/bin/python bench/hop_plan.py --database URL --element hop-100000 \
        --forget-statistics                                   # a build again as just loaded

Builds N memories (``store_many`` in batches of 500, the hashing embedder) on a server
from ``tests/pg.py`` started with ``autovacuum=off``: the state of a table a bulk load
just filled, whose statistics autovacuum has not refreshed yet (those the store's own
``ANALYZE`` after a bulk write left, ``index/postgres/statistics.py``, are dropped after
the build, as ``--forget-statistics`` does, so the first stage is a load no one
analysed: what a store before that, or a load by other means, leaves). Each memory says ten
words drawn from a Zipf law over a vocabulary of 20k made-up words, so an element holds
words of every rarity (the hop takes those in 2 to 1% of the memories). Then it runs
searches whose ranking asks for the hop, and for each hop statement prints its plan
(``EXPLAIN (ANALYZE, BUFFERS)``, run in the search's own transaction just after it) with
the scans it makes, then the same after ``ANALYZE`` of the memory tables.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from index import HashingEmbedder, MemorySettings  # noqa: E402

TABLES = ("memories", "memory_postings", "memory_term_df", "memory_elements")
VOCABULARY = 20_000
LETTERS = "bcdfghjklmnprstvz"
VOWELS = "aeiou"


def words(n: int) -> list[str]:
    """``n`` distinct made-up words (consonant-vowel syllables, no digits: the index
    keeps them as they are)."""
    out, i = [], 0
    while len(out) < n:
        word, j = "", i
        for _ in range(3):
            word += LETTERS[j % len(LETTERS)] + VOWELS[(j // len(LETTERS)) % len(VOWELS)]
            j //= len(LETTERS) * len(VOWELS)
        out.append(word + "x")
        i += 1
    return out


def items(n: int, seed: int = 11) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    vocabulary = words(VOCABULARY)
    ranks = rng.zipf(1.2, size=(n, 10))
    out = []
    for i, row in enumerate(ranks):
        said = [vocabulary[(int(r) - 1) % VOCABULARY] for r in row]
        item: dict[str, Any] = {"content": " ".join(said), "category": "fact"}
        if i % 2:
            item.update(subject_type="guest", subject_id=f"g{i % 200}")
        out.append(item)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="500 memories, 3 queries")
    parser.add_argument("--database", help="a postgresql:// URL (default: start one)")
    parser.add_argument("--element", default=None)
    parser.add_argument("--forget-statistics", action="store_true",
                        help="on a reused build: drop the memory tables' planner "
                             "statistics first, as a bulk load leaves them (superuser)")
    args = parser.parse_args(argv)
    import psycopg

    from index.postgres import PostgresMemoryStore
    from index.postgres import hop as hop_sql
    n, queries_n = (500, 3) if args.quick else (args.memories, args.queries)
    settings = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                              relevance_threshold=0.0, subject_scoping=True)
    server = None
    url = args.database
    if url is None:
        from tests.pg import start_server
        server = start_server("fsync=off", "autovacuum=off")
        url = server.create_database("hop_plan")
    plans: list[tuple[str, list[str]]] = []
    searches: dict[str, list[float]] = {}
    find = hop_sql.find

    def explained(conn: Any, *a: Any, **kw: Any) -> Any:
        # The hop's statement, then its plan in the same transaction (same snapshot).
        factory = conn.cursor_factory

        class Explain(factory):  # type: ignore[misc, valid-type]
            def execute(self, query: Any, params: Any = None, **k: Any) -> Any:
                super().execute(query, params, **k)
                found = self.fetchall()
                with psycopg.Cursor(conn) as plain:
                    plain.execute(f"EXPLAIN (ANALYZE, BUFFERS) {query}", params)
                    plans.append((stage, [str(r[0]) for r in plain.fetchall()]))
                self.fetchall = lambda: found  # type: ignore[method-assign]
                return self
        conn.cursor_factory = Explain
        try:
            return find(conn, *a, **kw)
        finally:
            conn.cursor_factory = factory
    hop_sql.find = explained
    stage = "after the load"
    try:
        element = args.element or f"hop-{n}"
        with PostgresMemoryStore(url, element, HashingEmbedder(384)) as store:
            built = len(store) < n
            if built:
                data = items(n)
                started = time.perf_counter()
                for lo in range(len(store), n, 500):
                    store.store_many(data[lo:lo + 500], settings=settings)
                print(f"# built {n} in {time.perf_counter() - started:.0f} s", flush=True)
            with psycopg.connect(url, autocommit=True) as conn:
                # A build of its own is forgotten too: the store analyses the tables
                # after a bulk write (``statistics.py``), and this bench measures them
                # as a load that no one analysed leaves them.
                if args.forget_statistics or built:
                    # Never analysed: no column statistics, and a size the planner
                    # takes from the table's pages (``reltuples = -1``).
                    for table in TABLES:
                        conn.execute("DELETE FROM pg_statistic WHERE starelid = "
                                     "%s::regclass", (table,))
                        conn.execute("UPDATE pg_class SET reltuples = -1, relpages = 0 "
                                     "WHERE oid = %s::regclass", (table,))
                for row in conn.execute(
                        "SELECT relname, n_live_tup, last_analyze, last_autoanalyze FROM "
                        "pg_stat_user_tables WHERE relname LIKE 'memor%' ORDER BY 1"):
                    print("#", *row)
            queries = [" ".join(q["content"].split()[:3]) for q in items(queries_n, 5)]
            for stage in ("after the load", "after ANALYZE"):
                if stage == "after ANALYZE":
                    with psycopg.connect(url, autocommit=True) as conn:
                        conn.execute(f"ANALYZE {', '.join(TABLES)}")
                for query in queries:
                    # The whole search's time too (its plan EXPLAINed in it, so with
                    # the hop's statement run twice: a figure beside the other stage's).
                    started = time.perf_counter()
                    store.search(query=query, limit=10, settings=settings)
                    searches.setdefault(stage, []).append(
                        (time.perf_counter() - started) * 1000.0)
    finally:
        if server is not None:
            server.stop()
    # Each hop statement's time and the scans on the memories table, then the medians.
    times: dict[str, list[float]] = {}
    for stage, plan in plans:
        total = float(next(line for line in plan if line.startswith("Execution Time"))
                      .split()[2])
        times.setdefault(stage, []).append(total)
        print(f"## {stage}: {total:.1f} ms")
        for line in plan:
            if " on memories " in line or "Cond" in line or "Removed" in line:
                print("   ", line.strip()[:160])
    for stage, values in times.items():
        print(f"hop statement {stage}: median {statistics.median(values):.1f} ms, "
              f"max {max(values):.1f} ms ({len(values)} statements)")
    for stage, values in searches.items():
        print(f"whole search {stage}: median {statistics.median(values):.1f} ms, "
              f"max {max(values):.1f} ms ({len(values)} searches)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
