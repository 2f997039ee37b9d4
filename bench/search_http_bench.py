"""HTTP search latency at 10k, this tree beside a before-build, requests interleaved.

The machine is shared and noisy, so a figure alone says little: this bench serves the
same home twice, once with this tree's code and once with another revision's (the
"before" build, ``git archive <rev>`` unpacked under ``bench/out/``), and sends every
search to both, one after the other (the order alternating), over keep-alive
connections. The load of the moment falls on both alike; the ratios are the result.

    .venv/bin/python bench/search_http_bench.py              # before: git merge-base HEAD main
    .venv/bin/python bench/search_http_bench.py --base a525b3c --rounds 3
    .venv/bin/python bench/search_http_bench.py --profile            # cProfile, in-process
    .venv/bin/python bench/search_http_bench.py --interleaved --base main  # with the model
    .venv/bin/python bench/search_http_bench.py --interleaved --base main --stages
    .venv/bin/python bench/search_http_bench.py --interleaved --stages --spans index.search:_lexical

The home: ``--size`` memories of ``textgen.py`` (seed 7, the vectors of
``memory_bench.py``'s cache: real all-MiniLM-L6-v2 vectors, pre-embedded), stored with
``store_many`` with three lanes, ``subject_scoping`` on, ``relevance_threshold`` 0. Each
search has a subject with memories and limit 10; "query only" sends the question alone
(the content lane), "3 lanes" the question, window and goal. Query vectors are looked up
(pre-embedded): the model is not in the figures. Servers run waitress with 8 threads as
``triform serve`` does, each a subprocess with the same embedder and Python.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "search_http"
CIRCLE = "bench"
ELEMENT_PATH = f"{CIRCLE}/memory"
QUERIES = 600


def _child_serve(argv: list[str]) -> None:
    """``_serve <src> <home> <seed> <size>``: serve ``home`` with the code under ``src``."""
    src, home_path, seed, size = argv[0], Path(argv[1]), int(argv[2]), int(argv[3])
    # The bench's own modules (and its vector cache) from this tree; the served code
    # (api, element, source, index) from ``src``: bench modules import none at load.
    sys.path.insert(0, str(ROOT))
    from bench import stages        # this tree's timers, around the served code's functions
    from bench.memory_bench import CHUNK, LookupEmbedder, VectorCache, _add_items
    from bench.textgen import TextGen
    assert "index" not in sys.modules
    sys.path.insert(0, src)
    from api.app import create_app
    from api.server import make_server
    from element import Home
    gen = TextGen(seed)
    cache = VectorCache(gen, _no_model)
    embedder = LookupEmbedder(_no_model)
    _add_items(embedder, cache, "query", gen.queries(0, QUERIES),
               cache.vectors("query", CHUNK, progress=False)[:QUERIES])
    _add_items(embedder, cache, "memory", gen.memories(0, size),
               cache.vectors("memory", size, progress=False))
    if os.environ.get("SEARCH_BENCH_MODEL"):    # --interleaved: the query through the model
        from index import load_embedder
        embedder = load_embedder(log=lambda _: None)
        embedder.embed(["warm up"])
    else:
        _add_name_texts(embedder, [q["query"] for q in gen.queries(0, QUERIES)])
    home = Home(home_path, lambda: embedder)
    element = home.catalog.element_at(ELEMENT_PATH)
    with home.memory_store(element):    # opened now, not on the first request
        pass
    tune = dict(item.split("=", 1) for item in
                os.environ.get("SEARCH_BENCH_TUNE", "").split(",") if item)
    if tune.get("floor"):
        # The floor: the store's search (under its lock, once the query is embedded)
        # answers nothing at no cost; the HTTP stack, the op path and the model run.
        from index.backend import SearchResult
        from index.store import MemoryStore
        MemoryStore._recall = lambda *_, **__: SearchResult([], None)  # type: ignore
    timers = os.environ.get("SEARCH_BENCH_STAGES")
    if timers:                          # --stages: where each search's time goes
        spans = [s for s in os.environ.get("SEARCH_BENCH_SPANS", "").split(",") if s]
        app = stages.install(Path(timers), spans)(create_app({"ENV": "draft"}, home=home))
    else:
        app = create_app({"ENV": "draft"}, home=home)
    if "switch" in tune:                # the GIL's switch interval, seconds
        sys.setswitchinterval(float(tune["switch"]))
    if "blas" in tune:                  # BLAS threads (the app sets one)
        from index import limit_blas_threads
        limit_blas_threads(int(tune["blas"]))
    if tune.get("gcfreeze"):
        import gc
        gc.collect()
        gc.freeze()
    server = make_server(app, host="127.0.0.1", port=0, threads=int(tune.get("threads", 8)))
    import index
    print(json.dumps({"port": server.effective_port, "index": index.__file__}), flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        server.run()
    finally:
        home.close()


def _add_name_texts(embedder: Any, questions: list[str]) -> None:
    """Put in ``embedder``'s table the other texts a search of these questions embeds
    (the first name alone, the question without its names: ``index/names.py``, of the
    served code; the profile bank's questions), embedded once by the real model, so a
    search never misses the table (a miss would fail the embedding and score every memory
    by text instead)."""
    try:
        from index.names import first_name, query_names, without_names
    except ImportError:             # a revision before the name levers embeds nothing else
        return
    texts: set[str] = set()
    for question in questions:
        names = query_names(question)
        texts.update(t for t in (first_name(question, names), without_names(question, names))
                     if t is not None and t not in embedder.table)
    try:        # the profile bank's questions (``asked_of``), embedded once per model
        from index.profile_bank import ATTRIBUTES
        texts.update(q for a in ATTRIBUTES for q in a.questions if q not in embedder.table)
    except ImportError:             # a revision before the bank
        pass
    if texts:
        from bench.memory_bench import _load_real_embedder
        from index import embed_for_lanes
        ordered = sorted(texts)
        embedder.add(ordered, embed_for_lanes(_load_real_embedder(), ["content"] * len(ordered),
                                              ordered))


def _no_model(*_: Any) -> Any:
    raise RuntimeError("every text of this bench is in the vector cache")


def built_home(home: Path, args: argparse.Namespace) -> str:
    """The bench home's token: with ``--reuse-home``, the home left by an earlier run of
    the same ``--size``, ``--seed`` and lane models (a test's small run leaves one in the
    same place, and timing 300 memories as if they were 6,000 says nothing; a store of
    other models re-embeds itself, and its searches meanwhile are scored by text); else one
    built anew."""
    from index import lane_models
    shape = f"{args.size} {args.seed} {sorted(lane_models().items())}"
    token_file, shape_file = OUT / "token", OUT / "home-shape"
    if (args.reuse_home and token_file.exists() and shape_file.exists()
            and shape_file.read_text() == shape):
        return token_file.read_text().strip()
    shape_file.unlink(missing_ok=True)
    token = build_home(home, args.size, args.seed)
    token_file.write_text(token)
    shape_file.write_text(shape)
    return token


def build_home(path: Path, size: int, seed: int) -> str:
    """A home of ``size`` pre-embedded memories; returns an admin token."""
    sys.path.insert(0, str(ROOT))
    from bench.memory_bench import LookupEmbedder, VectorCache, _add_items, _load_real_embedder
    from bench.textgen import TextGen
    from element import Home, create_token
    from index import MemorySettings, MemoryStore
    gen = TextGen(seed)
    cache = VectorCache(gen, _load_real_embedder)
    memories = gen.memories(0, size)
    embedder = LookupEmbedder(_load_real_embedder)
    _add_items(embedder, cache, "memory", memories, cache.vectors("memory", size))
    cache.vectors("query", 1000)
    if path.exists():
        shutil.rmtree(path)
    home = Home(path, lambda: embedder)
    root = home.create_element(circle=CIRCLE, element_type_name="circle", slug=None)
    element = home.create_element(
        circle=CIRCLE, element_type_name="memory", slug="memory", parent=root,
        properties={"max_memories": 10_000_000, "max_per_subject": 10_000_000,
                    "relevance_threshold": 0.0, "subject_scoping": True})
    token = create_token(home.catalog, CIRCLE, "admin", "bench")
    settings = MemorySettings(max_memories=10_000_000, max_per_subject=10_000_000,
                              relevance_threshold=0.0, subject_scoping=True)
    with MemoryStore(home.runtime_path(element), embedder) as store:
        for start in range(0, size, 256):
            store.store_many(memories[start:start + 256], settings=settings)
    home.close()
    return token


def subjects(size: int, seed: int) -> list[tuple[str, str]]:
    from bench.textgen import TextGen
    found = sorted({(m["subject_type"], m["subject_id"]) for m in
                    TextGen(seed).memories(0, size) if m["subject_type"] is not None})
    return found


class Server:
    def __init__(self, name: str, src: Path, home: Path, seed: int, size: int,
                 token: str, tune: str = "", model: bool = False,
                 stages: Path | None = None, spans: str = "") -> None:
        import http.client
        self.name = name
        self.stages = stages
        # ``--tune python=PATH``: the server run by another interpreter (another build of
        # the same Python version, with the same packages installed).
        python = dict(item.split("=", 1) for item in tune.split(",") if item).get(
            "python", sys.executable)
        self.proc = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "_serve", str(src), str(home),
             str(seed), str(size)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=src, env={**os.environ, "SEARCH_BENCH_TUNE": tune,
                                     "SEARCH_BENCH_MODEL": "1" if model else "",
                                     "SEARCH_BENCH_STAGES": str(stages or ""),
                                     "SEARCH_BENCH_SPANS": spans})
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            err = self.proc.stderr.read()[-3000:] if self.proc.stderr else ""
            raise RuntimeError(f"{name} server did not start: {err}")
        ready = json.loads(line)
        self.index = ready["index"]
        self.conn = http.client.HTTPConnection("127.0.0.1", ready["port"], timeout=120)
        self.headers = {"Authorization": f"Bearer {token}",
                        "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[float, Any]:
        data = json.dumps(body).encode() if body is not None else None
        started = time.perf_counter()
        self.conn.request(method, path, body=data, headers=self.headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        ms = (time.perf_counter() - started) * 1000
        if resp.status >= 300:
            raise RuntimeError(f"{self.name} {method} {path}: {resp.status} {raw[:300]!r}")
        return ms, json.loads(raw)

    def stop(self) -> None:
        self.conn.close()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def pct(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1]


def bodies(seed: int, size: int, lanes: str, unique: int = 0) -> list[dict[str, Any]]:
    """The ``QUERIES`` searches, or ``unique`` ones that never repeat a question."""
    from bench.textgen import TextGen
    gen = TextGen(seed)
    subs = subjects(size, seed)
    out = []
    queries = gen.queries(0, QUERIES)
    if unique:
        queries = list({q["query"]: q for q in gen.queries(0, 8 * unique)}.values())[:unique]
    for i, q in enumerate(queries):
        body: dict[str, Any] = {"query": q["query"], "limit": 10,
                                "subject_type": subs[(i * 7919 + 13) % len(subs)][0],
                                "subject_id": subs[(i * 7919 + 13) % len(subs)][1]}
        if lanes == "all":
            body.update(context=q["window"], intention=q["goal"])
        out.append(body)
    return out


def unpack(base: str, base_src: Path = OUT / "src-before") -> tuple[Path, str]:
    """``git archive <base>`` unpacked under ``base_src``; with its short hash."""
    rev = subprocess.run(["git", "rev-parse", "--short", base], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    if base_src.exists():
        shutil.rmtree(base_src)
    base_src.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", base], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(base_src)], input=archive, check=True)
    return base_src, rev


def compare(args: argparse.Namespace) -> None:
    base_src, rev = unpack(args.base)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    home_a = OUT / "home-after"
    home_b = OUT / "home-before"
    token = built_home(home_a, args)
    if home_b.exists():
        shutil.rmtree(home_b)
    shutil.copytree(home_a, home_b)
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"{' '.join(sys.argv)}; load average {os.getloadavg()[0]:.1f}")
    print(f"after: this tree ({head}, with uncommitted changes if any); before: "
          f"{args.base} ({rev})")
    servers = {"before": Server("before", base_src, home_b, args.seed, args.size, token),
               "after": Server("after", ROOT, home_a, args.seed, args.size, token)}
    if args.tune:
        home_t = OUT / "home-tuned"
        if home_t.exists():
            shutil.rmtree(home_t)
        shutil.copytree(home_b, home_t)
        servers["tuned"] = Server("tuned", ROOT, home_t, args.seed, args.size, token,
                                  args.tune)
        print(f"tuned: this tree with {args.tune}")
    try:
        for name, server in servers.items():
            print(f"  {name} serves index from {server.index}")
        base = f"/api/{ELEMENT_PATH}/ops/search"
        results: dict[tuple[str, str], list[float]] = {}
        workloads = [(lanes, bodies(args.seed, args.size, lanes))
                     for lanes in ("content", "all")]
        for _, work in workloads:          # warm-up: every query once on each
            for body in work[:50]:
                for server in servers.values():
                    server.call("POST", base, body)
        for round_ in range(args.rounds):
            for lanes, work in workloads:
                for i, body in enumerate(work):
                    order = list(servers)
                    order = order[(i + round_) % len(order):] + order[:(i + round_) % len(
                        order)]
                    for name in order:
                        ms, answer = servers[name].call("POST", base, body)
                        # A search scored by text (its embedding failed) is not the
                        # search this bench times.
                        assert answer["results"] and "fallback" not in answer, answer
                        results.setdefault((lanes, name), []).append(ms)
        health = {name: [s.call("GET", "/healthz")[0] for _ in range(300)]
                  for name, s in servers.items()}
    finally:
        for server in servers.values():
            server.stop()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print(f"\nHTTP search at {args.size}, scoping on, pre-embedded, limit 10; "
          f"{args.rounds} x {QUERIES} searches each, interleaved; ms")
    names = list(servers)
    print(f"{'workload':<14}" + "".join(f"{n + ' p50 / p95 / p99':>26}" for n in names)
          + "".join(f"   {n}/before p50  p95  p99" for n in names[1:]))
    for lanes, label in (("content", "query only"), ("all", "3 lanes")):
        figures = {}
        for name in names:
            values = results[(lanes, name)]
            figures[name] = [statistics.median(values), pct(values, 95), pct(values, 99)]
        line = f"{label:<14}" + "".join(
            f"{' / '.join(f'{v:.2f}' for v in figures[n]):>26}" for n in names)
        for name in names[1:]:
            line += "   " + f"{'':>{len(name) + 7}}" + "  ".join(
                f"{x / y:.2f}" for x, y in zip(figures[name], figures["before"], strict=True))
        print(line)
    print(f"{'GET /healthz':<14}" + "".join(
        f"{statistics.median(health[n]):>17.2f} / {pct(health[n], 95):.2f}" for n in names))


def interleaved(args: argparse.Namespace) -> None:
    """Query-only HTTP search with the model in it, beside the model alone: each question
    searched over HTTP (the server embeds it, this tree's code), then embedded in-process
    by the server's content model (``$TRIFORM_LANE_MODELS``, MiniLM in INT8 by default),
    the order going through every order of the steps (with ``--base``,
    each server is as often right after the client's model run as the other), so the
    machine's drift falls on all alike. Every question is asked once (the stores'
    embedding cache never answers)."""
    from index import lane_models, load_embedder
    token = built_home(OUT / "home-after", args)
    homes = {"HTTP search": OUT / "home-interleaved"}
    srcs = {"HTTP search": ROOT}
    tunes = {"HTTP search": ""}
    if args.tune:
        label = f"HTTP search, {args.tune}"
        homes[label], srcs[label], tunes[label] = OUT / "home-interleaved-tuned", ROOT, args.tune
    if args.base:
        label = f"HTTP search at {args.base}"
        homes[label], srcs[label] = OUT / "home-interleaved-before", unpack(args.base)[0]
    for home in homes.values():
        if home.exists():
            shutil.rmtree(home)
        shutil.copytree(OUT / "home-after", home)
    # The server's content lane's model: the ratio is to what the server itself runs.
    model = load_embedder(log=lambda _: None, lanes=lane_models()["content"])
    print(f"# {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"{' '.join(sys.argv)}; load average {os.getloadavg()[0]:.1f}")
    servers = {label: Server(label, srcs[label], home, args.seed, args.size, token,
                             tune=tunes.get(label, ""), model=True,
                             stages=OUT / f"stages-{n}.json" if args.stages else None,
                             spans=args.spans)
               for n, (label, home) in enumerate(homes.items())}
    base = f"/api/{ELEMENT_PATH}/ops/search"
    work = bodies(args.seed, args.size, "content", unique=args.rounds * QUERIES)
    steps = [*servers, "one query embedding"]
    ms: dict[str, list[float]] = {step: [] for step in steps}
    try:
        for i in range(20):                 # warm-up, on texts the questions never use
            for server in servers.values():
                server.call("POST", base, {**work[i], "query": f"warm up {i}"})
            model.embed([f"warm up {i}"])
        # Each question in the next of every order of the steps: a rotation (A B E,
        # B E A, E A B) put the in-process embedding before A twice as often as before B,
        # and a server that runs right after the client's model run finds the shared
        # caches evicted (the same tree served twice read 1.83x and 1.73x that way).
        orders = list(itertools.permutations(steps))
        for i, body in enumerate(work):
            for step in orders[i % len(orders)]:
                if step in servers:
                    took, answer = servers[step].call("POST", base, body)
                    assert (answer["results"] or "floor=1" in step) \
                        and "fallback" not in answer, answer
                    ms[step].append(took)
                else:
                    started = time.perf_counter()
                    model.embed([body["query"]])
                    ms[step].append((time.perf_counter() - started) * 1000)
    finally:
        for server in servers.values():
            server.stop()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print(f"\nquery-only HTTP search at {args.size}, scoping on, limit 10, the question "
          f"embedded by the server; beside one in-process embedding of the same question "
          f"({len(work)} questions, each once, interleaved); ms")
    print(f"{'':<34}{'p50':>8}{'p95':>8}{'p99':>8}")
    figures = {}
    for label in steps:
        values = ms[label]
        figures[label] = [statistics.median(values), pct(values, 95), pct(values, 99)]
        print(f"{label:<34}" + "".join(f"{v:>8.2f}" for v in figures[label]))
    for label in servers:
        print(f"{'ratio' + label[len('HTTP search'):]:<34}" + "".join(
            f"{x / y:>7.2f}x" for x, y in zip(figures[label], figures["one query embedding"],
                                             strict=True)))
    if args.stages:
        from bench.stages import table
        print("\nquery-only search, by stage (bench/stages.py):\n" + table(
            {label: ms[label] for label in servers},
            {label: json.loads(Path(str(server.stages)).read_text())[-len(work):]
             for label, server in servers.items()}))


def profile(args: argparse.Namespace) -> None:
    """cProfile of HTTP searches in-process (Flask test client, this tree's code)."""
    import cProfile
    import pstats
    sys.path.insert(0, str(ROOT))
    from api.app import create_app
    from bench.memory_bench import CHUNK, LookupEmbedder, VectorCache, _add_items
    from bench.textgen import TextGen
    from element import Home
    home_a = OUT / "home-after"
    token = built_home(home_a, args)
    gen = TextGen(args.seed)
    cache = VectorCache(gen, _no_model)
    embedder = LookupEmbedder(_no_model)
    _add_items(embedder, cache, "query", gen.queries(0, QUERIES),
               cache.vectors("query", CHUNK, progress=False)[:QUERIES])
    _add_name_texts(embedder, [q["query"] for q in gen.queries(0, QUERIES)])
    home = Home(home_a, lambda: embedder)
    app = create_app({"ENV": "draft"}, home=home)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    base = f"/api/{ELEMENT_PATH}/ops/search"
    work = bodies(args.seed, args.size, "content")
    for body in work[:50]:
        client.post(base, json=body, headers=headers)
    times = []
    prof = cProfile.Profile()
    for body in work * args.rounds:
        started = time.perf_counter()
        prof.enable()
        client.post(base, json=body, headers=headers)
        prof.disable()
        times.append((time.perf_counter() - started) * 1000)
    home.close()
    print(f"in-process (test client, profiled) query only: p50 {statistics.median(times):.2f}"
          f" p95 {pct(times, 95):.2f} p99 {pct(times, 99):.2f} ms")
    pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        _child_serve(sys.argv[2:])
        return
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", default=None,
                        help="the before revision (git; default: where this branch left "
                             "main, git merge-base HEAD main)")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tune", default="",
                        help="also serve this tree with settings (with --interleaved: a "
                             "server of its own in the rotation; switch=SECONDS: the GIL "
                             "switch interval; gcfreeze=1: gc.freeze() after the open; "
                             "blas=N: BLAS threads; threads=N: waitress threads; "
                             "python=PATH: run by another interpreter; floor=1: the "
                             "store's search answering nothing at no cost)")
    parser.add_argument("--reuse-home", action="store_true",
                        help="serve the home an earlier run built (access counts differ)")
    parser.add_argument("--interleaved", action="store_true",
                        help="only query-only HTTP search with the model in it, beside one "
                             "in-process embedding of each question, interleaved (with "
                             "--base, that revision's server too, in the same rotation)")
    parser.add_argument("--stages", action="store_true",
                        help="with --interleaved: time each search's stages in the servers "
                             "(bench/stages.py) and print them beside the client's time")
    parser.add_argument("--spans", default="",
                        help="with --stages: more functions of the search to time, "
                             "comma-separated, each module:name or module:Class.name "
                             "(index.search:_lexical,index.lanes:Lane.search)")
    parser.add_argument("--profile", action="store_true",
                        help="only a cProfile of searches through the Flask test client")
    args = parser.parse_args()
    if args.base is None and not (args.profile or args.interleaved):
        args.base = subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT,
                                   check=True, capture_output=True, text=True).stdout.strip()
    if args.profile:
        profile(args)
    elif args.interleaved:
        interleaved(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
