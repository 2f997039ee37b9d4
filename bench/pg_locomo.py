"""LoCoMo evidence recall of the PostgreSQL backend beside the file backend, one run.

    .venv/bin/python bench/pg_locomo.py                       # real model, dev split
    .venv/bin/python bench/pg_locomo.py --embedder hashing    # a smoke run
    .venv/bin/python bench/pg_locomo.py --walk                # PostgreSQL's large-pool plan

Runs ``bench/locomo_bench.py``'s per-conversation task twice with the same embedder and
levers: once on ``MemoryStore``, once with each conversation in a ``PostgresMemoryStore``
element (a server from ``tests/pg.py`` unless ``--database`` names one). Same questions,
same metrics; the issue asks for recall within .02 of the embedded backend.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import locomo_bench as lb  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "eval"
                        / "locomo-dev.json")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed")
    parser.add_argument("--database", help="a postgresql:// URL (default: start one)")
    parser.add_argument("--walk", action="store_true",
                        help="PostgreSQL walks every pool (HNSW, BM25 from the postings) "
                             "instead of scoring a pool of at most 1024 memories whole, "
                             "as every LoCoMo conversation is")
    args = parser.parse_args(argv)
    if args.embedder == "hashing":
        from index import HashingEmbedder
        embedder: Any = HashingEmbedder(256)
    else:
        # The runtime's default lanes, MiniLM's vectors kept on disk.
        embedder = lb.lane_embedder(None)
    samples = json.loads(args.data.read_text())
    server = None
    url = args.database
    if url is None:
        from tests.pg import start_server
        server = start_server("fsync=off")
        url = server.create_database("pg_locomo")
    from index.postgres import Database, PostgresMemoryStore
    db = Database(url)
    db.migrate()
    try:
        runs = {"file": lb.per_conversation(samples, embedder, 3, lb.DEFAULT, True)}

        def pg_store(directory: Path, embedder: Any, **kw: Any) -> PostgresMemoryStore:
            return PostgresMemoryStore(db, str(directory), embedder, **kw)
        # The task opens its store by this name; point it at PostgreSQL for the second run.
        lb.MemoryStore = pg_store   # type: ignore[assignment,misc]
        if args.walk:
            from index.postgres import search
            search.EXACT_MAX = 0
        runs["postgres" + " walked" * args.walk] = lb.per_conversation(
            samples, embedder, 3, lb.DEFAULT, True)
    finally:
        lb.save_caches()
        db.close()
        if server is not None:
            server.stop()
    print(f"# pg_locomo: {args.data.name}, embedder {args.embedder}, window 3, default levers")
    print(f"{'backend':<44}   R@1   R@5  R@10 hit@5   MRR  n")
    for name, run in runs.items():
        print(lb.row(name, [m for _, m in run.per_q]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
