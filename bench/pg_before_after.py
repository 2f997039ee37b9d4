"""PostgreSQL search of this tree beside another revision's, and the file store's, in one run.

    .venv/bin/python bench/pg_before_after.py --before main          # 10k, 200 queries
    .venv/bin/python bench/pg_before_after.py --before main --quick  # 500, 20 (a smoke run)
    .venv/bin/python bench/pg_before_after.py --before main --cpu    # CPU time, not wall
    .venv/bin/python bench/pg_before_after.py --before main --cpu --files-only
    .venv/bin/python bench/pg_before_after.py --before main --cpu --before-first
    .venv/bin/python bench/pg_before_after.py --before main --database URL --element NAME
    .venv/bin/python bench/pg_before_after.py --before main --database URL --element NAME \
        --files DIR                                                  # and its file store

Builds ``pg_bench.py``'s memories once in PostgreSQL (a server from ``tests/pg.py``
unless ``--database`` names one) and once in a file store, then opens the one element
with this tree's ``PostgresMemoryStore``, with that of ``--before`` (its whole ``index``
package from git, imported as ``index_before`` beside this one; the schema must be the
same, or the revision builds the memories again in a database of its own on the same
server), and with this tree's store without neighbour turns. Every query runs on every
store in a rotating order, so load and caches fall on all alike: search p50/p95 of a
query alone with scoping off (one pool of all N, walked), with scoping on (the general
pool, scored whole) and for the rare subject, and how much of the file store's unscoped
top-10 each returns; and each build's time and the p50 of its 200 single stores
(PostgreSQL of another revision only when it built its own database). The hashing
embedder (384 dims) measures the backends, not the model.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import io
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pg_bench import items, text  # noqa: E402
from index import HashingEmbedder, IndexParams, MemorySettings, MemoryStore  # noqa: E402
from index.postgres import SCHEMA_VERSION  # noqa: E402


def classes_of(revision: str, folder: Path) -> tuple[Any, Any]:
    """``(PostgresMemoryStore, MemoryStore)`` as ``revision`` has them: that revision's
    whole ``index`` package, imported as ``index_before`` beside this tree's (its modules
    import each other relatively), each call's ``settings`` converted to its own."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "index"],
                             capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    (folder / "index").rename(folder / "index_before")
    sys.path.insert(0, str(folder))
    package = importlib.import_module("index_before")

    def theirs(settings: Any) -> Any:
        return package.MemorySettings(**{f.name: getattr(settings, f.name)
                                         for f in dataclasses.fields(settings)})

    def adapted(store_class: Any) -> Any:
        class Before:
            """The revision's store, taking this tree's ``MemorySettings``."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                self._inner = store_class(*args, **kwargs)

            def __getattr__(self, name: str) -> Any:
                method = getattr(self._inner, name)

                def call(*args: Any, **kwargs: Any) -> Any:
                    if "settings" in kwargs:
                        kwargs["settings"] = theirs(kwargs["settings"])
                    return method(*args, **kwargs)
                return call
        return Before
    postgres = importlib.import_module("index_before.postgres").PostgresMemoryStore
    return adapted(postgres), adapted(package.MemoryStore)


def before_schema(revision: str) -> int:
    """The number of PostgreSQL migrations ``revision`` has (its schema version)."""
    source = subprocess.run(["git", "-C", str(ROOT), "show",
                             f"{revision}:index/postgres/db.py"],
                            capture_output=True, check=True, text=True).stdout
    return len(re.findall(r"^    \((\d+), ", source, re.MULTILINE))


def build(store: Any, data: list[dict[str, Any]], settings: MemorySettings
          ) -> tuple[float, float]:
    """``pg_bench.run``'s memories: N in batches of 500, then 200 general ones, one
    ``store`` each; the seconds of the batches and the p50 ms of a ``store``."""
    started = time.perf_counter()
    for lo in range(0, len(data), 500):
        store.store_many(data[lo:lo + 500], settings=settings)
    batches = time.perf_counter() - started
    rng = np.random.default_rng(11)
    stores = []
    for i in range(200):
        t = time.perf_counter()
        store.store(content=f"{text(rng, 8)} extra {i}", category="fact", settings=settings)
        stores.append(time.perf_counter() - t)
    return batches, float(np.percentile(stores, 50)) * 1000.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision to compare with")
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="500 memories, 20 queries")
    parser.add_argument("--database", help="a postgresql:// URL (default: start one)")
    parser.add_argument("--cpu", action="store_true",
                        help="time each search by this thread's CPU time, not the wall "
                             "clock: the file stores' own cost whatever the machine's load "
                             "(PostgreSQL's columns then leave the server's time out)")
    parser.add_argument("--files-only", action="store_true",
                        help="the two file stores alone (no PostgreSQL)")
    parser.add_argument("--before-first", action="store_true",
                        help="build (and list) --before's file store first")
    parser.add_argument("--element",
                        help="with --database: search this element of pg_bench.py's "
                             "memories as it is (e.g. bench-100000, built before by "
                             "pg_bench.py), without the file stores or a build (--before "
                             "must have this tree's schema)")
    parser.add_argument("--files", type=Path,
                        help="with --element: a file store of the same memories, built "
                             "before (pg_bench.py --files DIR), searched beside as it is")
    args = parser.parse_args(argv)
    if args.files and not args.element:
        parser.error("--files needs --element")
    if args.element and (not args.database or args.files_only):
        parser.error("--element needs --database (and PostgreSQL)")
    n, queries = (500, 20) if args.quick else (args.memories, args.queries)
    clock = time.thread_time if args.cpu else time.perf_counter
    embedder = HashingEmbedder(384)
    scoped = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                            relevance_threshold=0.0, subject_scoping=True)
    unscoped = dataclasses.replace(scoped, subject_scoping=False)
    data = items(n, "rare", max(10, n // 1000))
    load = [os.getloadavg()[0]]
    server = None
    url = args.database
    if url is None and not args.files_only:
        from tests.pg import start_server
        server = start_server()
        url = server.create_database("pg_before_after")
    from index.postgres import PostgresMemoryStore
    stores: dict[str, Any] = {}
    # Each store's build: seconds of the batches, p50 ms of one store (PostgreSQL's
    # revision of the same schema searches this tree's element: no build of its own).
    built: dict[str, tuple[float, float]] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            before, file_before = classes_of(args.before, Path(tmp))
            # The file store built first searches slower in a run beside PostgreSQL,
            # whichever revision it is (bench/README.md): --before-first swaps them.
            files = [("file", MemoryStore, "mem"),
                     (f"file {args.before}", file_before, "mem-before")]
            if args.element:
                files = []
                if args.files:
                    stores["file"] = MemoryStore(args.files, embedder)
            for name, make, folder in files[::-1] if args.before_first else files:
                stores[name] = make(Path(tmp) / folder, embedder)
                built[name] = build(stores[name], data, scoped)
            element = args.element or f"before-after-{n}"
            if not args.files_only:
                if not args.element:
                    with PostgresMemoryStore(url, element, embedder) as builder:
                        built["pg this tree"] = build(builder, data, scoped)
                before_url = url
                if before_schema(args.before) != SCHEMA_VERSION and args.element:
                    parser.error(f"{args.before} has another schema: leave out --element")
                if before_schema(args.before) != SCHEMA_VERSION:
                    # A revision of another schema builds the memories again in its own
                    # database, on the same server (same load, same settings).
                    if server is None:
                        parser.error(f"{args.before} has another schema: leave out "
                                     "--database, so both databases share one server")
                    before_url = server.create_database("pg_before_after_before")
                    builder = before(before_url, element, embedder)
                    built[f"pg {args.before}"] = build(builder, data, scoped)
                    builder.close()
                stores[f"pg {args.before}"] = before(before_url, element, embedder)
                stores["pg this tree"] = PostgresMemoryStore(url, element, embedder)
                stores["pg this tree, no neighbours"] = PostgresMemoryStore(
                    url, element, embedder, index_params=IndexParams(neighbour_weight=0.0))
            kinds: dict[str, dict[str, Any]] = {
                "unscoped (query, all N)": {"settings": unscoped},
                "scoped (query, general pool)": {"settings": scoped},
                "filtered (rare subject)": {"settings": scoped, "subject_type": "guest",
                                            "subject_id": "rare"}}
            names = list(stores)
            times: dict[tuple[str, str], list[float]] = {(k, s): [] for k in kinds
                                                         for s in names}
            agree: dict[str, list[float]] = {s: [] for s in names}
            # The unscoped top-10 each store returns, beside the file store's (without
            # file stores: beside the first PostgreSQL store's).
            reference = names[0]
            rng = np.random.default_rng(5)
            for _ in range(3):   # warm every store and its connections
                for s in stores.values():
                    s.search(query=text(rng, 6), limit=10, settings=unscoped)
            for i in range(queries):
                q = text(rng, 6)
                order = names[i % len(names):] + names[:i % len(names)]
                for kind, kw in kinds.items():
                    got = {}
                    for name in order:
                        t = clock()
                        found = stores[name].search(query=q, limit=10, **kw)
                        times[(kind, name)].append(clock() - t)
                        got[name] = {r["memory"]["content"] for r in found.results}
                    if kind.startswith("unscoped"):
                        for name in names:
                            agree[name].append(len(got[name] & got[reference]) / 10)
            for s in stores.values():
                s.close()
    finally:
        if server is not None:
            server.stop()
    load.append(os.getloadavg()[0])
    what = f"element {args.element}" if args.element else f"{n} memories"
    print(f"# pg_before_after: {what}, {queries} queries of each kind, before = "
          f"{args.before}, {'thread CPU time' if args.cpu else 'wall clock'}, load average "
          f"{load[0]:.1f} -> {load[1]:.1f} on {os.cpu_count()} cores")
    print("| search p50 / p95 ms | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for kind in kinds:
        cells = []
        for name in names:
            ms = np.array(times[(kind, name)]) * 1000.0
            cells.append(f"{np.percentile(ms, 50):.1f} / {np.percentile(ms, 95):.1f}")
        print(f"| {kind} | " + " | ".join(cells) + " |")
    for label, at in (("build s (batches of 500)", 0), ("store p50 ms", 1)):
        print(f"| {label} | " + " | ".join(
            f"{built[name][at]:.{1 if at == 0 else 2}f}" if name in built else "-"
            for name in names) + " |")
    print(f"| unscoped top-10 = {reference}'s | "
          + " | ".join(f"{statistics.mean(agree[name]):.3f}" for name in names) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
