"""Figures for the production embedder (all-MiniLM-L6-v2 on fastembed).

    python bench/embed_bench.py [--threads N ...] [--singles 200] [--texts 1024]

Prints, for each onnxruntime thread setting: load time, single-sentence latency p50/p95,
throughput in batches of 64 (memory-like texts of 5 to 120 words, ~70 tokens on average; and
short sentences of ~15 tokens), and the largest deviation from the sentence-transformers
reference vectors (tests/data/reference_vectors.json). Provisions the model first if needed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from index import FastEmbedEmbedder, default_cache_dir, provision_model  # noqa: E402

SENTENCES = [
    "The user prefers dark mode in every editor and terminal.",
    "Alice's birthday is on 14 March; she likes tulips.",
    "To deploy, run make release, then push the tag.",
    "The on-call engineer this week is Bob, reachable on the ops channel.",
]


def corpus(n: int) -> list[str]:
    """Memory-like texts of mixed length (5 to ~120 words)."""
    words = ("the agent noted that user project deadline moved because review found issue "
             "with database migration so team agreed to retry after fixing tests").split()
    out = []
    for i in range(n):
        length = 5 + (i * 37) % 116
        out.append(" ".join(words[(i + k) % len(words)] for k in range(length)) + f" #{i}")
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(model_dir: Path, threads: int | None, singles: int, texts: list[str],
        reference: dict) -> None:
    started = time.perf_counter()
    embedder = FastEmbedEmbedder(model_dir, threads=threads)
    load_s = time.perf_counter() - started

    embedder.embed(SENTENCES)  # warm up
    latencies = []
    for i in range(singles):
        t = time.perf_counter()
        embedder.embed([SENTENCES[i % len(SENTENCES)]])
        latencies.append((time.perf_counter() - t) * 1000)

    t = time.perf_counter()
    vectors = embedder.embed(texts)
    bulk_s = time.perf_counter() - t
    assert vectors.shape == (len(texts), 384)

    short = SENTENCES * (len(texts) // len(SENTENCES))
    t = time.perf_counter()
    embedder.embed(short)
    short_rate = len(short) / (time.perf_counter() - t)

    ref_texts = [item["text"] for item in reference["items"]]
    expected = np.array([item["vector"] for item in reference["items"]])
    got = embedder.embed(ref_texts)
    cos = (got * expected).sum(1) / np.linalg.norm(expected, axis=1)

    label = "default" if threads is None else str(threads)
    print(f"threads={label:7s} load {load_s:5.2f} s"
          f" | single p50 {statistics.median(latencies):5.2f} ms"
          f" p95 {pct(latencies, 0.95):5.2f} ms"
          f" | batch64 mixed {len(texts) / bulk_s:6.1f} texts/s ({bulk_s:5.2f} s for {len(texts)})"
          f" short {short_rate:6.1f} texts/s"
          f" | max 1-cos {float(1 - cos.min()):.2e}"
          f" max |diff| {float(np.abs(got - expected).max()):.2e}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=None,
                        help="model cache (default: $TRIFORM_MODEL_CACHE, "
                        "else ~/.cache/triform/models)")
    parser.add_argument("--threads", default="default,1,2",
                        help="comma-separated onnxruntime thread counts ('default' = fastembed's)")
    parser.add_argument("--singles", type=int, default=200)
    parser.add_argument("--texts", type=int, default=1024)
    args = parser.parse_args()

    started = time.perf_counter()
    model_dir = provision_model(args.cache or default_cache_dir())
    print(f"model: {model_dir} (ready in {time.perf_counter() - started:.2f} s)")
    prov = json.loads((model_dir / "provenance.json").read_text())
    print(f"provenance: source={prov.get('source')} "
          f"export_seconds={prov.get('export', {}).get('seconds')} "
          f"check={prov.get('check')}")
    reference = json.loads((ROOT / "tests" / "data" / "reference_vectors.json").read_text())
    texts = corpus(args.texts)
    for item in args.threads.split(","):
        threads = None if item.strip() in ("", "default", "none") else int(item)
        run(model_dir, threads, args.singles, texts, reference)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
