"""What the file store's lender scan (``index/lend.py``, ``search._lenders``) costs a search,
at scale, with a share of the memories superseded.

    .venv/bin/python bench/lenders_bench.py                       # 10k and 100k, 1% and 10%
    .venv/bin/python bench/lenders_bench.py --sizes 10000 --shares 0.1

Each store: ``--sizes`` memories of ``--subjects`` people (subject scoping on), stored
with ``store_many`` (a hashing embedder of 384 dimensions: the scan's cost is numpy and
Python over the store's rows, not the model's), a ``--shares`` of them superseded (each
a current memory of the same person, chosen at random, superseded by a later one: chains
form). Then ``--queries`` default searches, unscoped (subject scoping off: every
person's memories) and naming one person (scoping on) in turn, each run two ways in turn
(the order alternating) on the same store: **kept** (the lenders read from the kept map,
``index/ended.py``) and **scan** (every label's ``until`` scanned and the ended ones
sorted, as before it); the two must answer the same results and scores. Measured inside
each search: the pick of the lenders (**pick**: the kept map's read, or the scan), the
lenders' whole time (**lenders**: the pick, the heirs' walk, the rows scored;
``search._lenders`` wrapped), and the whole search's. Printed: the medians and p95 of
each, per store.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from index import HashingEmbedder, MemorySettings, MemoryStore
from index import search as search_module

SETTINGS = MemorySettings(relevance_threshold=0.0, subject_scoping=True,
                          max_memories=10_000_000, max_per_subject=10_000_000)
WORDS = ("lives works studies drives eats prefers likes visits owns plays teaches reads "
         "city job school car food music team sport pet garden book friend trip").split()
#: An unscoped search over every person's memories: scoping off, the default.
UNSCOPED = MemorySettings(relevance_threshold=0.0, max_memories=10_000_000)
BATCH = 256


def fill(store: MemoryStore, memories: int, share: float, subjects: int,
         rng: random.Random) -> int:
    """Store ``memories``, ``share`` of them superseding; the number superseded."""
    current: dict[int, list[str]] = {s: [] for s in range(subjects)}
    superseded = 0
    made = 0
    while made < memories:
        items: list[dict[str, Any]] = []
        chosen: set[str] = set()
        for _ in range(min(BATCH, memories - made)):
            who = rng.randrange(subjects)
            item: dict[str, Any] = {
                "content": f"person{who} " + " ".join(rng.choices(WORDS, k=6)) + f" {made}",
                "category": "fact", "subject_type": "guest", "subject_id": f"p{who}"}
            if current[who] and rng.random() < share:
                old = current[who][rng.randrange(len(current[who]))]
                if old not in chosen:
                    chosen.add(old)
                    item["supersedes"] = [old]
            items.append(item)
            made += 1
        results = store.store_many(items, settings=SETTINGS)
        for item, result in zip(items, results, strict=True):
            who = int(item["subject_id"][1:])
            for old in item.get("supersedes") or ():
                current[who].remove(old)
                superseded += 1
            current[who].append(result.memory["id"])
    return superseded


def scanning(state: Any) -> Callable[..., np.ndarray]:
    """What a search read its lenders from before the kept map (``ended.py``): every
    label's ``until`` scanned, the ended ones filtered, sorted newest first."""
    def newest(owners: Any, keep: Callable[[np.ndarray], np.ndarray],
               want: int, seq: np.ndarray) -> np.ndarray:
        slots = state.slots
        hw = min(slots.high_water, len(state.lanes["content"].has))
        ended = keep(np.flatnonzero(np.isfinite(slots.until[:hw])))
        found: np.ndarray = ended[np.argsort(-slots.seq[ended], kind="stable")][:want]
        return found
    return newest


def measure(store: MemoryStore, queries: int, subjects: int, rng: random.Random
            ) -> dict[str, list[float]]:
    """Each query both ways in turn (the order alternating): ``kept`` (the map) and
    ``scan`` (before it); the scan's time and the whole search's, per way and kind."""
    scans: list[float] = []
    real = search_module._lenders
    kept = store._state.ended_labels
    picks: list[float] = []

    def timing(pick: Callable[..., np.ndarray]) -> Callable[..., np.ndarray]:
        def timed_pick(*args: Any) -> np.ndarray:
            start = time.perf_counter()
            try:
                return pick(*args)
            finally:
                picks.append((time.perf_counter() - start) * 1000)
        return timed_pick
    real_newest = kept.newest
    ways = {"kept": timing(real_newest), "scan": timing(scanning(store._state))}

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            scans.append((time.perf_counter() - start) * 1000)
    search_module._lenders = timed   # type: ignore[assignment]
    out: dict[str, list[float]] = {}
    try:
        for i in range(queries):
            text = " ".join(rng.choices(WORDS, k=4))
            order = list(ways) if i % 2 == 0 else list(ways)[::-1]
            for kind, settings, subject in (
                    ("unscoped", UNSCOPED, {}),
                    ("scoped", SETTINGS, {"subject_type": "guest",
                                          "subject_id": f"p{i % subjects}"})):
                answers = []
                for way in order:
                    kept.newest = ways[way]   # type: ignore[method-assign]
                    scans.clear()
                    picks.clear()
                    start = time.perf_counter()
                    found = store.search(query=text, settings=settings, count_access=False,
                                         **subject)
                    out.setdefault(f"{way} search {kind}", []).append(
                        (time.perf_counter() - start) * 1000)
                    out.setdefault(f"{way} lenders {kind}", []).append(sum(scans))
                    out.setdefault(f"{way} pick {kind}", []).append(sum(picks))
                    answers.append([(r["memory"]["id"], r["score"]) for r in found.results])
                if answers[0] != answers[1]:
                    raise SystemExit(f"the two ways answered differently: {text!r}")
    finally:
        search_module._lenders = real    # type: ignore[assignment]
        kept.newest = real_newest         # type: ignore[method-assign]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--shares", default="0.01,0.1")
    parser.add_argument("--subjects", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        for share in (float(s) for s in args.shares.split(",")):
            rng = random.Random(args.seed)
            with tempfile.TemporaryDirectory() as tmp:
                store = MemoryStore(Path(tmp) / "mem", HashingEmbedder(384))
                try:
                    start = time.perf_counter()
                    superseded = fill(store, size, share, args.subjects, rng)
                    built = time.perf_counter() - start
                    print(f"{size} memories, {superseded} superseded "
                          f"({superseded / size:.1%}), built in {built:.0f} s:")
                    found = measure(store, args.queries, args.subjects, rng)
                finally:
                    store.close()
            for name, ms in sorted(found.items()):
                ms = sorted(ms)
                print(f"  {name:24} median {statistics.median(ms):7.3f} ms  "
                      f"p95 {ms[int(0.95 * (len(ms) - 1))]:7.3f} ms")


if __name__ == "__main__":
    main()
