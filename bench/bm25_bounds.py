"""What early termination could skip of BM25 on ``pg_bench.py``'s memories, at best.

    .venv/bin/python bench/bm25_bounds.py                      # 100k memories, top 64
    .venv/bin/python bench/bm25_bounds.py --memories 10000 --top 10
    .venv/bin/python bench/bm25_bounds.py --quick              # a smoke run (tests)

Exact top-k BM25 with early termination skips postings by upper bounds: MaxScore leaves
out the lists of the terms whose maxima together stay below the k-th best score (they
are then read only for the memories the other lists make candidates), block-max WAND
skips a block of sequence numbers whose terms' block maxima add up to less. Here each is
given the exact k-th best score in advance, the most it can know, on ``pg_bench.py``'s
memories (BM25 of ``lexical.py``, numpy, no database): the share of the postings in
MaxScore's essential lists, how many memories they make candidates (each needs the
other lists' terms), and the share of blocks block-max must read. ``--top`` is the
number of BM25 matches a search asks for (64 for a search of 10, ``Ranking``).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.pg_bench import items, text  # noqa: E402
from index.lexical import BM25_B, BM25_K1, term_counts, terms  # noqa: E402


def postings(n: int) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], np.ndarray]:
    """Each term's ``(sequence numbers, term frequencies)`` and each memory's length."""
    lists: dict[str, tuple[list[int], list[int]]] = {}
    length = np.zeros(n)
    for seq, item in enumerate(items(n, "rare", max(10, n // 1000))):
        counts = term_counts(item["content"], item["context"], True)
        length[seq] = sum(counts.values())
        for term, tf in counts.items():
            seqs, tfs = lists.setdefault(term, ([], []))
            seqs.append(seq)
            tfs.append(tf)
    return {t: (np.array(s), np.array(f, dtype=float)) for t, (s, f) in lists.items()}, length


def bounds(n: int, top: int, queries: int, blocks: list[int]) -> dict[str, float | int]:
    """The figures of the module docstring, averaged over ``queries`` queries."""
    lists, length = postings(n)
    average = float(length.mean())
    rng = np.random.default_rng(13)
    essential, candidates = [], []
    read: dict[int, list[float]] = {size: [] for size in blocks}
    for _ in range(queries):
        words = sorted(set(terms(text(rng, 6))) & lists.keys())
        part: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for w in words:
            seq, tf = lists[w]
            idf = math.log(1 + (n - len(seq) + 0.5) / (len(seq) + 0.5))
            norm = BM25_K1 * (1 - BM25_B + BM25_B * length[seq] / average)
            part[w] = (seq, idf * tf * (BM25_K1 + 1) / (tf + norm))
        total = np.zeros(n)
        for seq, score in part.values():
            total[seq] += score
        kth = float(np.sort(total)[-top])
        # MaxScore: the terms of the smallest maxima whose sum stays below the k-th best.
        by_max = sorted(words, key=lambda w: float(part[w][1].max()))
        below, skipped = 0.0, 0
        for w in by_max:
            if below + float(part[w][1].max()) >= kth:
                break
            below += float(part[w][1].max())
            skipped += 1
        kept = by_max[skipped:]
        essential.append(sum(len(part[w][0]) for w in kept)
                         / sum(len(part[w][0]) for w in words))
        partial, hit = np.zeros(n), np.zeros(n, dtype=bool)
        for w in kept:
            partial[part[w][0]] += part[w][1]
            hit[part[w][0]] = True
        candidates.append(int((hit & (partial + below >= kth)).sum()))
        for size in blocks:
            bound = np.zeros((n + size - 1) // size)
            for seq, score in part.values():
                best = np.zeros(len(bound))
                np.maximum.at(best, seq // size, score)
                bound += best
            read[size].append(float((bound >= kth).mean()))
    return {"MaxScore: share of the postings in essential lists": statistics.mean(essential),
            "MaxScore: candidates to complete, p50": int(statistics.median(candidates)),
            **{f"block-max, blocks of {size}: share of blocks read": statistics.mean(v)
               for size, v in read.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=100_000)
    parser.add_argument("--top", type=int, default=64)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--quick", action="store_true", help="2000 memories, 5 queries")
    args = parser.parse_args(argv)
    n, queries = (2000, 5) if args.quick else (args.memories, args.queries)
    print(f"# bm25_bounds: {n} memories, {queries} queries, top {args.top}, the exact "
          "k-th best score known in advance")
    for label, value in bounds(n, args.top, queries, [64, 1024]).items():
        print(f"{label}: {value:.3f}" if isinstance(value, float) else f"{label}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
