"""Memory export and import rates, and the memory each takes, at N memories (issue 11).

    .venv/bin/python bench/transfer_bench.py                      # 2,000 memories
    .venv/bin/python bench/transfer_bench.py --memories 100000    # the figure in bench/README

Fills a memory element of a fresh home with N memories (three lanes of text each, the
hashing embedder: only bytes matter here, and the real model would take hours to embed
100k x 3 texts), then, each in a child process so its peak RSS is its own, runs through
the op path (``element.invoke``, as HTTP and the CLI do):

* ``export_memories`` with and without ``vectors=true`` into a file (the stream written
  chunk by chunk, as the HTTP answer is);
* ``import_memories`` of each file into a fresh element of a second home (same model: the
  vectors are used, the texts without vectors are embedded).

Printed per step: memories/s, the file's size, the RSS once the home and its store are
open (the store holds every memory in RAM), the peak RSS during the step alone (Linux's
VmHWM, reset after the open), and the RSS after it. Export streams, so its peak stays at
the open store's size as N grows; import reads the whole body (as the HTTP request does)
and checks every line before writing, and its store grows by what it adds.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.config import open_home  # noqa: E402
from element import Invocation, invoke  # noqa: E402
from index import MemorySettings  # noqa: E402

BATCH = 256


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def reset_peak() -> None:
    """Start the peak RSS (VmHWM) over from now, so it measures one step, not the open."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fill(home_path: Path, n: int) -> float:
    started = time.perf_counter()
    with open_home(home_path, embedder="hashing") as home:
        home.init("demo")
        element = home.catalog.element_at("demo/memory")
        home.catalog.update_element(element.id, properties={
            **element.properties, "max_memories": max(n, 1000), "subject_scoping": False})
        element = home.catalog.element_at("demo/memory")
        settings = MemorySettings.from_properties(element.properties)
        with home.memory_store(element) as store:
            for start in range(0, n, BATCH):
                store.store_many([{
                    "content": f"Person {i} mentioned that their favourite dish number "
                               f"{i % 97} is best eaten on day {i % 28} of the month",
                    "category": "fact",
                    "context": f"a conversation about food, thread {i % 13}",
                    "intention": f"plan dinner number {i}", "metadata": {"n": i}}
                    for i in range(start, min(n, start + BATCH))], settings=settings)
    return time.perf_counter() - started


def child_export(home_path: Path, out: Path, vectors: bool) -> dict[str, Any]:
    with open_home(home_path, embedder="hashing") as home:
        with home.memory_store(home.catalog.element_at("demo/memory")):
            opened = rss_mb()
        reset_peak()
        started = time.perf_counter()
        result = invoke(home, Invocation("demo/memory", op="export_memories",
                                         operator="bench",
                                         query={"vectors": "true"} if vectors else {}))
        count = int(result.headers["X-Triform-Count"])
        assert not isinstance(result.body, (bytes, dict))
        with open(out, "wb") as f:
            for chunk in result.body:
                f.write(chunk)
        seconds = time.perf_counter() - started
        after = rss_mb()
    return {"count": count, "seconds": seconds, "bytes": out.stat().st_size,
            "rss_open_mb": opened, "peak_mb": peak_mb(), "rss_after_mb": after}


def child_import(home_path: Path, source: Path) -> dict[str, Any]:
    with open_home(home_path, embedder="hashing") as home:
        home.init("demo")
        element = home.catalog.element_at("demo/memory")
        home.catalog.update_element(element.id, properties={
            **element.properties, "max_memories": 1_000_000, "subject_scoping": False})
        with home.memory_store(element):
            opened = rss_mb()
        reset_peak()
        started = time.perf_counter()
        raw = source.read_bytes()
        answer = invoke(home, Invocation("demo/memory", op="import_memories",
                                         operator="bench", raw_body=raw)).body
        seconds = time.perf_counter() - started
        after = rss_mb()
    assert isinstance(answer, dict)
    return {"count": answer["imported"], "embedded_here": answer["embedded_here"],
            "seconds": seconds, "rss_open_mb": opened, "peak_mb": peak_mb(),
            "rss_after_mb": after}


def run_child(*argv: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, __file__, *argv], capture_output=True,
                          text=True, cwd=ROOT, timeout=7200)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=2000,
                        help="how many memories to export and import (default 2000)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "export":
            print(json.dumps(child_export(Path(rest[0]), Path(rest[1]), rest[2] == "1")))
        else:
            print(json.dumps(child_import(Path(rest[0]), Path(rest[1]))))
        return 0
    n = args.memories
    with tempfile.TemporaryDirectory(prefix="transfer-bench-") as scratch:
        tmp = Path(scratch)
        filled = fill(tmp / "source", n)
        print(f"transfer_bench: {n} memories (hashing embedder, 3 lanes each), filled in "
              f"{filled:.1f} s")
        print(f"{'step':<28}{'memories/s':>12}{'MiB file':>10}{'RSS open':>10}"
              f"{'peak':>8}{'after':>8}")
        for vectors in (False, True):
            name = "vectors" if vectors else "plain"
            out = tmp / f"{name}.ndjson"
            exp = run_child("--child", "export", str(tmp / "source"), str(out),
                            "1" if vectors else "0")
            assert exp["count"] == n, exp
            imp = run_child("--child", "import", str(tmp / f"target-{name}"), str(out))
            assert imp["count"] == n, imp
            for step, res in ((f"export ({name})", exp), (f"import ({name})", imp)):
                print(f"{step:<28}{res['count'] / res['seconds']:>12,.0f}"
                      f"{exp['bytes'] / 2**20:>10.1f}{res['rss_open_mb']:>10.0f}"
                      f"{res['peak_mb']:>8.0f}{res['rss_after_mb']:>8.0f}")
            print(f"  import ({name}) embedded here: {imp['embedded_here']}")
    print("RSS in MiB: 'RSS open' once the home and its store are open, 'peak' the "
          "highest during the step alone, 'after' once it is done (an import's store "
          "grows by the memories it adds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
