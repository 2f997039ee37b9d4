"""The embedding cache on an observe-driven workload: hit rate and what it saves.

Replays LoCoMo dev conversations as an agent would live them: after each turn, the
subconscious ``observe`` runs on the last six turns (the speaker as ``user``, the other as
``assistant``, subject = the speaker; the built-in rule evaluator), then the agent recalls
with that turn as the query and the same window as its context. The same workload runs
twice side by side in one process, on fresh stores: with the store's default cache
(``CachedEmbedder``, 4096 texts) and with ``embed_cache=0``. It prints the cache's hit
rate, the texts the model embedded each way, and the wall time per turn.

    .venv/bin/python bench/cache_bench.py [--conversations 2] [--turns 150]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import CachedEmbedder, MemorySettings, MemoryStore

WINDOW_TURNS = 6


class CountingEmbedder:
    """The real model, counting the texts it embeds and the time it takes."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.texts = 0
        self.seconds = 0.0

    def embed(self, texts: list[str]) -> np.ndarray:
        started = time.perf_counter()
        out = self.inner.embed(texts)
        self.seconds += time.perf_counter() - started
        self.texts += len(texts)
        return np.asarray(out)


def conversation_turns(sample: dict[str, Any], limit: int) -> list[tuple[str, str]]:
    conv = sample["conversation"]
    sessions = sorted((k for k in conv if k.startswith("session_") and k[8:].isdigit()),
                      key=lambda k: int(k[8:]))
    return [(t["speaker"], t["text"]) for k in sessions for t in conv[k]][:limit]


def replay(samples: list[dict[str, Any]], model: Any, turns: int, cache: bool
           ) -> dict[str, Any]:
    counting = CountingEmbedder(model)
    settings = MemorySettings(subject_scoping=True, relevance_threshold=0.0,
                              max_memories=100_000, max_per_subject=100_000)
    per_turn: list[float] = []
    stats = None
    for sample in samples:
        lived = conversation_turns(sample, turns)
        with tempfile.TemporaryDirectory() as tmp, \
                MemoryStore(Path(tmp), counting, embed_cache=4096 if cache else 0) as store:
            for i, (speaker, _) in enumerate(lived):
                recent = lived[max(0, i - WINDOW_TURNS + 1):i + 1]
                observation = Observation(
                    tuple(Turn("user" if who == speaker else "assistant", text, who)
                          for who, text in recent),
                    subject=("guest", f"{sample['sample_id']}:{speaker}"))
                window = observation.window(len(recent) - 1)
                started = time.perf_counter()
                observe(store, settings, observation, RuleEvaluator())
                store.search(query=recent[-1][1], context=window, subject_type="guest",
                             subject_id=f"{sample['sample_id']}:{speaker}",
                             settings=settings)
                per_turn.append((time.perf_counter() - started) * 1000)
            if isinstance(store.embedder, CachedEmbedder):
                got = store.embedder.stats()
                stats = got if stats is None else type(got)(
                    stats.hits + got.hits, stats.misses + got.misses, got.entries)
    return {"texts": counting.texts, "embed_s": counting.seconds, "per_turn": per_turn,
            "stats": stats}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[1].parent / "shared" / "eval"
                        / "locomo-dev.json")
    parser.add_argument("--conversations", type=int, default=2)
    parser.add_argument("--turns", type=int, default=150, help="turns per conversation")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed")
    args = parser.parse_args()
    if args.embedder == "hashing":
        from index import HashingEmbedder
        model: Any = HashingEmbedder(384)
    else:
        from index import load_embedder
        model = load_embedder()
    samples = json.loads(args.data.read_text())[:args.conversations]
    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {' '.join(sys.argv)}")
    replay(samples[:1], model, 20, cache=True)          # warm the model
    runs = {name: replay(samples, model, args.turns, cache=name == "cache")
            for name in ("cache", "no cache")}
    stats = runs["cache"]["stats"]
    print(f"turns: {len(runs['cache']['per_turn'])} (observe + one recall each)")
    print(f"cache: {stats.hits} hits, {stats.misses} misses: hit rate {stats.hit_rate:.1%}")
    for name, run in runs.items():
        print(f"{name:<9} texts embedded {run['texts']:>6}, model time {run['embed_s']:6.1f} s"
              f", per turn p50 {statistics.median(run['per_turn']):6.1f} ms, p95 "
              f"{statistics.quantiles(run['per_turn'], n=20)[18]:6.1f} ms")
    saved = 1 - runs["cache"]["texts"] / runs["no cache"]["texts"]
    ratio = statistics.median(runs["no cache"]["per_turn"]) / \
        statistics.median(runs["cache"]["per_turn"])
    print(f"the cache spares {saved:.0%} of the texts; per-turn p50 ratio no cache / cache "
          f"{ratio:.2f}x")


if __name__ == "__main__":
    main()
