"""LoCoMo retrieval benchmark: evidence recall of MemoryStore search on the dev split.

Each turn of a conversation becomes one memory (``"<speaker>: <text>"`` plus ``[image:
<caption>]``); each question of categories 1-4 with evidence is a search with the question
as the query. Prints recall@1/5/10, hit@5 and MRR, overall and per category, beside the
baselines of ``shared/eval/README.md`` (measured on the same split).

    .venv/bin/python bench/locomo_bench.py [--data ../shared/eval/locomo-dev.json]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import json

from index import MemorySettings, MemoryStore

BASELINES = {  # shared/eval/README.md, 760 questions of this split
    "BM25 (Lucene, English stopwords)": (.238, .452, .527, .497, .369),
    "BM25 + Snowball stemming": (.282, .482, .562, .537, .415),
    "dense MiniLM cosine": (.170, .401, .493, .449, .314),
    "RRF (BM25 + stemming, dense), k=60": (.256, .497, .588, .555, .410),
}
_ID = re.compile(r"^D(\d+):(\d+)$")


def turns(conversation: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for key in sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)),
                      key=lambda k: int(k.split("_")[1])):
        date = conversation.get(f"{key}_date_time", "")
        for turn in conversation[key]:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [image: {turn['blip_caption']}]"
            out.append({"dia_id": turn["dia_id"], "text": text, "date": date})
    return out


def normalise_evidence(raw: list[str], known: set[str]) -> tuple[list[str], int]:
    """Split ``"D8:6; D9:17"``, repair ``D:11:26`` and ``D30:05``; drop what matches nothing."""
    found, dropped = [], 0
    for item in raw:
        for part in re.split(r"[;,\s]+", item.strip()):
            if not part:
                continue
            part = re.sub(r"^D:(\d+)", r"D\1", part)
            m = _ID.match(part)
            ident = f"D{int(m.group(1))}:{int(m.group(2))}" if m else part
            if ident in known:
                found.append(ident)
            else:
                dropped += 1
    return list(dict.fromkeys(found)), dropped


def run(data: Path, embedder: Any, with_context: bool) -> None:
    samples = json.loads(data.read_text())
    settings = MemorySettings(relevance_threshold=0.0, max_memories=100_000)
    per_q: list[tuple[int, list[float]]] = []
    dropped_total, store_ms, search_ms = 0, [], []
    for sample in samples:
        conv_turns = turns(sample["conversation"])
        known = {t["dia_id"] for t in conv_turns}
        with tempfile.TemporaryDirectory() as tmp, MemoryStore(Path(tmp), embedder) as store:
            by_memory: dict[str, str] = {}
            previous = ""
            for turn in conv_turns:
                started = time.perf_counter()
                result = store.store(content=turn["text"], category="context",
                                     context=(previous or None) if with_context else None,
                                     settings=settings)
                store_ms.append((time.perf_counter() - started) * 1000)
                by_memory[result.memory["id"]] = turn["dia_id"]
                previous = turn["text"]
            for qa in sample["qa"]:
                if qa.get("category") == 5 or not qa.get("evidence"):
                    continue
                evidence, dropped = normalise_evidence(qa["evidence"], known)
                dropped_total += dropped
                if not evidence:
                    continue
                started = time.perf_counter()
                found = store.search(query=qa["question"], limit=10, settings=settings)
                search_ms.append((time.perf_counter() - started) * 1000)
                ranked = [by_memory[r["memory"]["id"]] for r in found.results]
                per_q.append((qa["category"], metrics(ranked, evidence)))
    report(per_q, dropped_total, store_ms, search_ms)


def metrics(ranked: list[str], evidence: list[str]) -> list[float]:
    gold = set(evidence)
    recall = [len(gold & set(ranked[:k])) / len(gold) for k in (1, 5, 10)]
    hit5 = float(bool(gold & set(ranked[:5])))
    rank = next((i + 1 for i, d in enumerate(ranked) if d in gold), None)
    return [*recall, hit5, 1.0 / rank if rank else 0.0]


def report(per_q: list[tuple[int, list[float]]], dropped: int, store_ms: list[float],
           search_ms: list[float]) -> None:
    def row(name: str, values: list[list[float]]) -> str:
        means = [statistics.fmean(col) for col in zip(*values)]
        return f"{name:<40} " + " ".join(f"{m:5.3f}" for m in means) + f"   n={len(values)}"
    print(f"{'method':<40}   R@1   R@5  R@10 hit@5   MRR")
    for name, figures in BASELINES.items():
        print(f"{name:<40} " + " ".join(f"{m:5.3f}" for m in figures) + "   (README)")
    print(row("Triform MemoryStore search", [m for _, m in per_q]))
    for cat, label in ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"),
                       (4, "single-hop")):
        print(row(f"  category {cat} {label}", [m for c, m in per_q if c == cat]))
    print(f"evidence ids dropped (resolve to no turn): {dropped}")
    q = statistics.quantiles
    print(f"store p50 {statistics.median(store_ms):.1f} ms, search p50 "
          f"{statistics.median(search_ms):.1f} ms p95 {q(search_ms, n=20)[18]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[1].parent / "shared" / "eval"
                        / "locomo-dev.json")
    parser.add_argument("--context", action="store_true",
                        help="store the previous turn as each memory's context")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed")
    args = parser.parse_args()
    if args.embedder == "hashing":
        from index import HashingEmbedder
        embedder: Any = HashingEmbedder(256)
    else:
        from index.model import load_embedder
        embedder = load_embedder()
    run(args.data, embedder, args.context)


if __name__ == "__main__":
    main()
