"""The file store's lane walk with memories no longer current (issue 23): filtered after
the walk (before) or kept to the current ones by the walk (``lanes.py``, "Validity").

    .venv/bin/python bench/validity_walk_bench.py          # 20k rows, 200 queries of each
    .venv/bin/python bench/validity_walk_bench.py --memories 100000 --ended 0.3

One lane of ``--memories`` random unit vectors (384 dimensions, one pool: subject
scoping off, the default, so the whole ``all`` graph is walked), a share of them
(``--ended``) no longer current, scattered. Then ``--planted`` facts, each a query
vector with ``--crowded`` superseded versions close around it (cosine about .9) and one
current memory further off (about .6) that every other row is further still: what a
person's fact superseded many times looks like to the walk. ``--queries`` of each kind:

- **plain**: random query vectors (the ended rows are nowhere in particular);
- **crowded**: the planted facts' query vectors, in turn.

Each query runs both ways in turn (the order alternating), the content lane's 64
candidates: **before** walks without validity and drops the rows no longer current
after the walk (what the lane did before); **now** asks the lane for current rows
(``Lane.search(..., valid)``). Printed: the median and p95 latency of each, their ratio,
and for the crowded queries how often the current memory is among the candidates.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from index.lanes import Lane
from index.params import IndexParams
from index.slots import GENERAL, SlotTable
from index.validity import CURRENT

DIM = 384
K = 64


def _unit(rows: np.ndarray) -> np.ndarray:
    out: np.ndarray = (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)
    return out


def _near(rng: np.random.Generator, centre: np.ndarray, cosine: float, count: int
          ) -> np.ndarray:
    """``count`` unit vectors at about ``cosine`` to the unit ``centre``."""
    noise = _unit(rng.standard_normal((count, DIM)))
    noise -= (noise @ centre)[:, None] * centre[None, :]
    noise = _unit(noise)
    return _unit(cosine * centre[None, :] + np.sqrt(1 - cosine ** 2) * noise)


def build(memories: int, ended: float, planted_facts: int, crowded: int, seed: int
          ) -> tuple[Lane, np.ndarray, np.ndarray]:
    """The lane, the planted query vectors, and each one's current memory's label."""
    rng = np.random.default_rng(seed)
    planted = _unit(rng.standard_normal((planted_facts, DIM)))
    rows = [_unit(rng.standard_normal((memories, DIM)))]
    ends = [rng.random(memories) < ended]
    answers = []
    at = memories
    for q in planted:
        rows.append(_near(rng, q, 0.9, crowded))
        ends.append(np.ones(crowded, dtype=bool))
        rows.append(_near(rng, q, 0.6, 1))
        ends.append(np.zeros(1, dtype=bool))
        at += crowded
        answers.append(at)
        at += 1
    vectors = np.concatenate(rows)
    until = np.where(np.concatenate(ends), 1.0, np.inf)
    slots = SlotTable(len(vectors))
    lane = Lane("content", DIM, slots, IndexParams())
    lane.deferred = True
    for label, vector in enumerate(vectors):
        slots.allocate(f"m{label}", owner=GENERAL, category="fact", seq=label, created=0.0,
                       access=0, valid=(0.0, float(until[label])))
        lane.put(label, vector)
    lane.sync()
    return lane, planted, np.array(answers)


def before(lane: Lane, query: np.ndarray) -> np.ndarray:
    found = lane.search(query, K, None, None)
    kept: np.ndarray = found[np.isinf(lane.slots.until[found])]
    return kept


def now(lane: Lane, query: np.ndarray) -> np.ndarray:
    return lane.search(query, K, None, None, CURRENT)


def measure(lane: Lane, queries: np.ndarray, answers: np.ndarray | None) -> None:
    times: dict[str, list[float]] = {"before": [], "now": []}
    hits = {"before": 0, "now": 0}
    ways = [("before", before), ("now", now)]
    for i, query in enumerate(queries):
        for name, way in (ways if i % 2 == 0 else ways[::-1]):
            start = time.perf_counter()
            found = way(lane, query)
            times[name].append((time.perf_counter() - start) * 1000)
            if answers is not None:
                hits[name] += int(answers[i] in found)
    for name in ("before", "now"):
        ms = sorted(times[name])
        line = (f"  {name:6} median {statistics.median(ms):6.3f} ms  "
                f"p95 {ms[int(0.95 * (len(ms) - 1))]:6.3f} ms")
        if answers is not None:
            line += f"  current memory found {hits[name]}/{len(queries)}"
        print(line)
    print(f"  now / before (median): "
          f"{statistics.median(times['now']) / statistics.median(times['before']):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--memories", type=int, default=20_000)
    parser.add_argument("--ended", type=float, default=0.1,
                        help="share of the random rows no longer current")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--planted", type=int, default=20,
                        help="planted facts (each crowded query asks one of them)")
    parser.add_argument("--crowded", type=int, default=200,
                        help="superseded versions around each planted fact")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    start = time.perf_counter()
    lane, planted, answers = build(args.memories, args.ended, args.planted, args.crowded,
                                   args.seed)
    plain = _unit(np.random.default_rng(args.seed + 1).standard_normal((args.queries, DIM)))
    asked = np.arange(args.queries) % args.planted
    print(f"{lane.size} rows ({int(np.count_nonzero(~np.isinf(lane.slots.until)))} no "
          f"longer current), built in {time.perf_counter() - start:.1f} s; "
          f"{K} candidates a query")
    print(f"plain ({len(plain)} random queries):")
    measure(lane, plain, None)
    print(f"crowded ({args.queries} queries of {args.planted} facts, {args.crowded} "
          "superseded versions nearest each):")
    measure(lane, planted[asked], answers[asked])


if __name__ == "__main__":
    main()
