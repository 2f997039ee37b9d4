"""Lane assignments side by side: live three-lane HTTP search, store and store_batch at 10k.

    .venv/bin/python bench/lanes_bench.py                      # 10k, 200 queries, 4 servers
    .venv/bin/python bench/lanes_bench.py --memories 1000 --queries 50
    .venv/bin/python bench/lanes_bench.py --assignments "minilm,static,static|minilm8,static,static"
    .venv/bin/python bench/lanes_bench.py --assignments minilm8,static,static --base main

One served home per lane assignment (``minilm``: MiniLM in every lane; ``minilm,static,
static``: the static model for context and intention; ``minilm8,static,static``: the same
with MiniLM's INT8 weights for content, the default; ``static``: the static model in every
lane), each a copy of one home of ``--memories`` ``textgen.py`` memories with three lanes,
subject scoping on. Each server runs ``triform serve``'s app on waitress (8 threads) in a
process of its own, its lanes embedded live by the assignment's real models; every request
goes to the three servers in turn (the order rotating), so the machine's drift hits all.

- **search**: ``POST ops/search`` with query, context (the window) and intention (the goal),
  limit 10, as a subject, texts never seen before (the models run in the request);
- **store**: ``POST ops/store`` of a new memory with its three lanes;
- **store_batch**: ``POST ops/store_batch`` of 256 new memories with three lanes;
- **model alone**: the assignment's embedder in a process of its own on the search's three
  texts.

The stored memories' vectors are the static model's in every lane, whatever the server's
assignment (they are looked up, not computed, and the servers all read the same vectors):
the figures are of latency, the scores of a MiniLM query against them mean nothing. Recall
per assignment is ``locomo_bench.py --lanes``'s.

``--base REV`` also serves each assignment with another revision's code (``git archive``
unpacked under ``bench/out/lanes/src-before``: its ``api``, ``element``, ``source`` and
``index``), as a server of its own in the same rotation, and times that revision's models
alone too (in a subprocess of its own, alternating with this tree's): this tree's change
against the one before, side by side.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CIRCLE = "bench"
ASSIGNMENTS = ("minilm", "minilm,static,static", "minilm8,static,static", "static")
LANES = ("content", "context", "intention")
#: The id the stores carry whatever the server's assignment: their vectors are looked up.
STORED_ID = "lanes-bench-static-lookup"


class Lookup:
    """An embedder whose known texts (the stored memories) get the static model's vectors
    from a table, under one model id for every server; any other text (a live query, a new
    memory) is embedded by the assignment's real models, by lane."""

    def __init__(self, live: Any, static: Any) -> None:
        self.model_id, self.dim = STORED_ID, 384
        self.live, self.static = live, static
        self.table: dict[str, np.ndarray] = {}

    def add(self, texts: Sequence[str]) -> None:
        for text, row in zip(texts, self.static.embed(list(texts)), strict=True):
            self.table[text] = row

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return self.embed_lanes(["content"] * len(texts), texts)

    def embed_lanes(self, lanes: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        from index import embed_for_lanes
        out = np.empty((len(texts), self.dim), np.float32)
        missing = [i for i, t in enumerate(texts) if t not in self.table]
        for i, t in enumerate(texts):
            if t in self.table:
                out[i] = self.table[t]
        if missing and self.live is not None:
            out[missing] = embed_for_lanes(self.live, [lanes[i] for i in missing],
                                           [texts[i] for i in missing])
        return out


def _static() -> Any:
    from index import StaticEmbedder, provision_static_model
    return StaticEmbedder(provision_static_model(log=lambda *_: None))


def _child_serve(argv: list[str]) -> None:
    """``_serve <home> <assignment> <seed> <size> [<src>]``: ``src``'s code (default this
    tree's)."""
    # The bench's modules from this tree, whatever code is served.
    from bench import stages
    from bench.peer_bench import serve
    from bench.textgen import TextGen
    if len(argv) > 4:
        sys.path.insert(0, argv[4])
    from element import Home
    from index import embed_for_lanes, load_embedder
    home_path, spec, seed, size = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    timers = os.environ.get("LANES_BENCH_STAGES")
    wrap = stages.install(Path(timers)) if timers else None
    live = load_embedder(log=lambda *_: None, lanes=spec)
    embedder = Lookup(live, _static())
    embedder.add([m[lane] for m in TextGen(seed).memories(0, size) for lane in LANES
                  if m[lane]])
    embed_for_lanes(live, list(LANES), ["warm up", "warm up", "warm up"])
    serve(Home(home_path, lambda: embedder), wrap)


def build_home(path: Path, size: int, seed: int) -> str:
    """A home of ``size`` memories (the static model's vectors); returns an admin token."""
    from bench.peer_bench import make_home
    from bench.textgen import TextGen
    from element import Home
    from index import MemorySettings, MemoryStore
    token = make_home(path, {"max_memories": 10_000_000, "max_per_subject": 10_000_000,
                             "relevance_threshold": 0.0, "subject_scoping": True})
    memories = TextGen(seed).memories(0, size)
    embedder = Lookup(None, _static())
    embedder.add([m[lane] for m in memories for lane in LANES if m[lane]])
    home = Home(path, lambda: embedder)
    settings = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                              relevance_threshold=0.0, subject_scoping=True)
    element = home.catalog.element_at(f"{CIRCLE}/memory")
    with MemoryStore(home.runtime_path(element), embedder) as store:
        for start in range(0, size, 256):
            store.store_many(memories[start:start + 256], settings=settings)
    home.close()
    return token


def _child_models(argv: list[str]) -> None:
    """``_models <assignment> [<src>]``: a JSON list of the three lane texts per stdin line,
    answered with the milliseconds the assignment's models took on them in this process."""
    if len(argv) > 1:
        sys.path.insert(0, argv[1])
    from index import embed_for_lanes, load_embedder
    models = load_embedder(log=lambda *_: None, lanes=argv[0])
    embed_for_lanes(models, list(LANES), ["warm up", "warm up", "warm up"])
    print("ready", flush=True)
    for line in sys.stdin:
        started = time.perf_counter()
        embed_for_lanes(models, list(LANES), json.loads(line))
        print((time.perf_counter() - started) * 1000, flush=True)


class Models:
    """The assignment's models alone, in a process of their own (``src``'s code)."""

    def __init__(self, spec: str, src: Path | None = None) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "_models", spec.split("@")[0]]
            + ([str(src)] if src else []), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, cwd=src or ROOT)
        assert self.proc.stdout and self.proc.stdin
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError(f"the models of {spec} did not load")

    def time(self, texts: list[str]) -> float:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(texts) + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def stop(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)


class Server:
    def __init__(self, spec: str, home: Path, seed: int, size: int, token: str,
                 src: Path | None = None, stages: Path | None = None) -> None:
        self.spec = spec
        self.stages = stages
        env = {**os.environ, "LANES_BENCH_STAGES": str(stages) if stages else ""}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "_serve", str(home),
             spec.split("@")[0], str(seed), str(size)] + ([str(src)] if src else []),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=src or ROOT,
            env=env)
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            err = self.proc.stderr.read()[-3000:] if self.proc.stderr else ""
            raise RuntimeError(f"{spec} server did not start: {err}")
        self.port = json.loads(line)["port"]
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def post(self, op: str, body: Any) -> float:
        """Milliseconds of one request (a connection each: waitress drops idle ones)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        data = json.dumps(body).encode()
        conn.connect()
        started = time.perf_counter()
        conn.request("POST", f"/api/{CIRCLE}/memory/ops/{op}", body=data, headers=self.headers)
        resp = conn.getresponse()
        raw = resp.read()
        ms = (time.perf_counter() - started) * 1000
        conn.close()
        if resp.status >= 300:
            raise RuntimeError(f"{self.spec} {op}: {resp.status} {raw[:300]!r}")
        return ms

    def stop(self) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def pct(values: list[float], q: int) -> float:
    return float(np.percentile(values, q))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--stores", type=int, default=100)
    parser.add_argument("--batches", type=int, default=2, help="store_batch calls of 256")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--assignments", default="|".join(ASSIGNMENTS),
                        help="'|'-separated lane specs")
    parser.add_argument("--base", default=None,
                        help="also serve each assignment with this git revision's code")
    parser.add_argument("--stages", action="store_true",
                        help="time each search's stages in the servers (bench/stages.py)")
    args = parser.parse_args()
    from bench.textgen import TextGen
    specs = args.assignments.split("|")
    before: Path | None = None
    if args.base:
        from bench.search_http_bench import unpack
        before = unpack(args.base, ROOT / "bench" / "out" / "lanes" / "src-before")[0]
        specs += [f"{spec}@{args.base}" for spec in specs]
    gen = TextGen(args.seed)
    subjects = sorted({(m["subject_type"], m["subject_id"])
                       for m in gen.memories(0, args.memories) if m["subject_type"]})
    work = Path(tempfile.mkdtemp(prefix="triform-lanes-"))
    servers: dict[str, Server] = {}
    models: dict[str, Models] = {}
    load = [os.getloadavg()[0]]
    try:
        started = time.perf_counter()
        token = build_home(work / "home", args.memories, args.seed)
        print(f"# lanes_bench: {args.memories} memories (built in "
              f"{time.perf_counter() - started:.0f} s), {args.queries} queries, "
              f"load average {load[0]:.1f}", flush=True)
        for n, spec in enumerate(specs):
            shutil.copytree(work / "home", work / f"home{n}")
            src = before if "@" in spec else None
            servers[spec] = Server(spec, work / f"home{n}", args.seed, args.memories, token,
                                   src, work / f"stages{n}.json" if args.stages else None)
            models[spec] = Models(spec, src)
        ms: dict[str, dict[str, list[float]]] = {s: {} for s in specs}

        def rotate(i: int) -> list[str]:
            return specs[i % len(specs):] + specs[:i % len(specs)]

        for i, q in enumerate(gen.queries(10_000, 10_000 + args.queries, "lanes-live")):
            sub = subjects[(i * 7919 + 13) % len(subjects)]
            body = {"query": q["query"], "context": q["window"], "intention": q["goal"],
                    "limit": 10, "subject_type": sub[0], "subject_id": sub[1]}
            for spec in rotate(i):
                ms[spec].setdefault("search", []).append(servers[spec].post("search", body))
                ms[spec].setdefault("model", []).append(
                    models[spec].time([q["query"], q["window"], q["goal"]]))
        for i, m in enumerate(gen.memories(20_000, 20_000 + args.stores, "lanes-store")):
            for spec in rotate(i):
                body = {**m, "content": f"{m['content']} ({spec})"}
                ms[spec].setdefault("store", []).append(servers[spec].post("store", body))
        for b in range(args.batches):
            batch = gen.memories(30_000 + b * 256, 30_000 + (b + 1) * 256, "lanes-batch")
            for spec in rotate(b):
                items = [{**m, "content": f"{m['content']} ({spec})"} for m in batch]
                ms[spec].setdefault("batch", []).append(
                    len(items) / servers[spec].post("store_batch", {"memories": items}) * 1000)
        load.append(os.getloadavg()[0])
        print("| assignment | search p50 / p95 ms | model alone p50 / p95 ms | store p50 / "
              "p95 ms | store_batch memories/s |\n|---|---|---|---|---|")
        for spec in specs:
            f = ms[spec]
            print(f"| {spec} | {pct(f['search'], 50):.1f} / {pct(f['search'], 95):.1f} | "
                  f"{pct(f['model'], 50):.1f} / {pct(f['model'], 95):.1f} | "
                  f"{pct(f['store'], 50):.1f} / {pct(f['store'], 95):.1f} | "
                  f"{statistics.median(f['batch']):.0f} |")
        print(f"load average {load[0]:.1f} -> {load[1]:.1f}")
        if args.stages:
            for server in servers.values():
                server.stop()
            from bench.stages import table
            print("\nlive three-lane search, by stage (bench/stages.py):\n" + table(
                {spec: ms[spec]["search"] for spec in specs},
                {spec: json.loads(Path(str(servers[spec].stages)).read_text())
                 for spec in specs}))
    finally:
        for server in servers.values():
            server.stop()
        for model in models.values():
            model.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        _child_serve(sys.argv[2:])
    elif len(sys.argv) > 1 and sys.argv[1] == "_models":
        _child_models(sys.argv[2:])
    else:
        main()
