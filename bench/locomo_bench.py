"""LoCoMo retrieval benchmark: evidence recall of MemoryStore search on the dev split.

Each turn of a conversation becomes one memory (``"<speaker>: <text>"`` plus ``[image:
<caption>]``), stored as an agent's ``observe`` would: with its conversation window (the
previous ``--window`` turns of the same session) as ``context`` and the session's date as
``occurred_at``. Each question of categories 1-4 with evidence is a search with the
question alone as the query (no window, no goal), asked "now" = a day after the
conversation's last session. Prints recall@1/5/10, hit@5 and MRR, overall and per
category, beside the baselines of ``shared/eval/README.md`` (same split), with the search
latency of each configuration.

Two layouts: one store per conversation (the README's task), and ``--mixed N``: one
user-scoped store of N memories, each conversation one subject, filled up with other
users' and general memories (``textgen.py``), searched with the conversation's subject.

    .venv/bin/python bench/locomo_bench.py                       # the default levers
    .venv/bin/python bench/locomo_bench.py --ablation            # each lever alone, all, none
    .venv/bin/python bench/locomo_bench.py --ablation --mixed 10000
    .venv/bin/python bench/locomo_bench.py --levers none --window 0   # the old baseline

Vectors are cached in ``bench/out/locomo-vectors.npz`` (text -> vector, the real model):
the first run embeds, later runs (and every ablation row) reuse them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from index import IndexParams, MemorySettings, MemoryStore

BASELINES = {  # shared/eval/README.md, 760 questions of this split
    "BM25 (Lucene, English stopwords)": (.238, .452, .527, .497, .369),
    "BM25 + Snowball stemming": (.282, .482, .562, .537, .415),
    "dense MiniLM cosine": (.170, .401, .493, .449, .314),
    "RRF (BM25 + stemming, dense), k=60": (.256, .497, .588, .555, .410),
}
LEVERS = ("situated_lexical", "time", "neighbours", "names", "unnamed", "answers")
DEFAULT = frozenset(LEVERS) - {"unnamed"}                         # IndexParams() as it ships
BEFORE = frozenset({"situated_lexical", "time"})                  # the default until 2026-12-02
BEFORE_NAMES = frozenset({"situated_lexical", "time", "neighbours"})   # until 2026-12-04
ABLATION: tuple[tuple[str, int, frozenset[str]], ...] = (
    ("no window, no levers (the .584 baseline)", 0, frozenset()),
    ("window, no levers", 3, frozenset()),
    ("+ situated lexical only", 3, frozenset({"situated_lexical"})),
    ("+ time only", 3, frozenset({"time"})),
    ("+ neighbours only", 3, frozenset({"neighbours"})),
    ("situated lexical + time (before)", 3, BEFORE),
    ("lexical + time + neighbours (before names)", 3, BEFORE_NAMES),
    ("+ names only", 3, frozenset({"names"})),
    ("+ query without names only", 3, frozenset({"unnamed"})),
    ("lexical + time + neighbours + names (before answers)", 3, DEFAULT - {"answers"}),
    ("... + answers, when -> a time (default)", 3, DEFAULT),
    ("... + query without names (off)", 3, DEFAULT | {"unnamed"}),
    ("default, window of 6 turns", 6, DEFAULT),
)
# Search-time variants of the levers before neighbours (``--variants``, on stores built
# with ``BEFORE``): IndexParams fields, plus
# ``lexical_weight`` (``recall.LEXICAL_WEIGHT``) and ``k1``/``b`` (the BM25 index's).
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("situated lexical + time (before)", {}),
    ("fusion: lexical boost weight .5", {"lexical_weight": 0.5}),
    ("fusion: lexical boost weight .9", {"lexical_weight": 0.9}),
    ("BM25 b .5", {"b": 0.5}),
    ("BM25 k1 2.0", {"k1": 2.0}),
    ("pool: 32 candidates, content x1", {"min_candidates": 32, "content_factor": 1}),
    ("pool: 128 candidates", {"min_candidates": 128}),
    ("pool: 256 candidates", {"min_candidates": 256}),
    ("neighbours .25 of the top 5", {"neighbour_weight": 0.25}),
    ("neighbours .5 of the top 5", {"neighbour_weight": 0.5}),
    ("neighbours .75 of the top 5", {"neighbour_weight": 0.75}),
    ("neighbours .5 of the top 3", {"neighbour_weight": 0.5, "neighbour_hits": 3}),
    ("neighbours .5 of the top 10", {"neighbour_weight": 0.5, "neighbour_hits": 10}),
    ("neighbours .5, BM25 b .5", {"neighbour_weight": 0.5, "b": 0.5}),
    ("neighbours .4 of the top 5", {"neighbour_weight": 0.4}),
    ("neighbours .6 of the top 5", {"neighbour_weight": 0.6}),
    ("neighbours .5, pool of 32, content x1", {"neighbour_weight": 0.5,
                                               "min_candidates": 32, "content_factor": 1}),
)
OUT = Path(__file__).resolve().parent / "out"
_ID = re.compile(r"^D(\d+):(\d+)$")
DAY = 86_400.0


class Clock:
    """The store's clock: ingestion runs at each turn's date, questions a day after."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class DiskCachedEmbedder:
    """The real model, with every vector it computed kept in one ``.npz`` (text -> row)."""

    def __init__(self, inner: Any, path: Path) -> None:
        self.inner, self.path = inner, path
        self.model_id, self.dim = inner.model_id, inner.dim
        self.vectors: dict[str, np.ndarray] = {}
        self.added = 0
        if path.exists():
            with np.load(path, allow_pickle=False) as data:
                self.vectors = dict(zip(data["keys"].tolist(), data["rows"], strict=True))

    @staticmethod
    def key(text: str) -> str:
        return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self.key(t) for t in texts]
        missing = sorted({k: t for k, t in zip(keys, texts, strict=True)
                          if k not in self.vectors}.items())
        if missing:
            rows = self.inner.embed([t for _, t in missing])
            self.vectors.update({k: row for (k, _), row in zip(missing, rows, strict=True)})
            self.added += len(missing)
        return np.stack([self.vectors[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        if self.added:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            keys = sorted(self.vectors)
            with open(self.path, "wb") as f:
                np.savez(f, keys=np.array(keys), rows=np.stack([self.vectors[k] for k in keys]))
            self.added = 0


CACHES: list[DiskCachedEmbedder] = []


def save_caches() -> None:
    """Write the vectors the runs computed to disk."""
    for cache in CACHES:
        cache.save()


def lane_embedder(spec: str | None) -> Any:
    """The runtime's lane assignment (``spec``, else its default), MiniLM's vectors kept on
    disk (the static model costs microseconds a text: it is run every time)."""
    from index import LaneEmbedder, StaticEmbedder, provision_static_model
    from index.lane_models import lane_models
    from index.provision import load_minilm
    lanes = lane_models(spec)
    models: dict[str, Any] = {}
    if "minilm" in lanes.values():
        models["minilm"] = DiskCachedEmbedder(load_minilm(), OUT / "locomo-vectors.npz")
        CACHES.append(models["minilm"])
    if "minilm8" in lanes.values():
        from index.int8_provision import load_minilm_int8
        models["minilm8"] = DiskCachedEmbedder(load_minilm_int8(),
                                               OUT / "locomo-vectors-int8.npz")
        CACHES.append(models["minilm8"])
    if "static" in lanes.values():
        models["static"] = StaticEmbedder(provision_static_model())
    if len(models) == 1:
        return next(iter(models.values()))
    return LaneEmbedder({lane: models[name] for lane, name in lanes.items()})


def session_time(text: str) -> float:
    """``"1:56 pm on 8 May, 2023"`` as POSIX seconds (UTC)."""
    parsed = datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return parsed.replace(tzinfo=UTC).timestamp()


def turns(conversation: dict[str, Any], window: int) -> list[dict[str, Any]]:
    """The turns in order, each with its text, window (previous turns) and date."""
    out: list[dict[str, Any]] = []
    for key in sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)),
                      key=lambda k: int(k.split("_")[1])):
        when = session_time(conversation[f"{key}_date_time"])
        texts: list[str] = []
        for turn in conversation[key]:
            text = f"{turn['speaker']}: {turn['text']}"
            if turn.get("blip_caption"):
                text += f" [image: {turn['blip_caption']}]"
            out.append({"dia_id": turn["dia_id"], "text": text, "time": when,
                        "window": "\n".join(texts[-window:]) if window else None})
            texts.append(text)
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


RAW = {"on": False}       # --raw: scores before calibration
OVERRIDES: dict[str, Any] = {}   # --params: IndexParams fields set on top of the levers


def parse_overrides(text: str) -> dict[str, Any]:
    """``"name_projection=1,name_weight=.5"`` as IndexParams fields (typed as the field's
    default)."""
    defaults = IndexParams()
    out: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, _, value = item.partition("=")
        if not hasattr(defaults, key):
            raise SystemExit(f"--params: IndexParams has no field {key!r}")
        kind = type(getattr(defaults, key))
        out[key] = value.lower() in ("1", "true", "on") if kind is bool else kind(value)
    return out


def params_for(levers: frozenset[str]) -> IndexParams:
    import dataclasses
    return dataclasses.replace(_params_for(levers), **OVERRIDES)


def _params_for(levers: frozenset[str]) -> IndexParams:
    return IndexParams(calibrate=not RAW["on"],
                       situated_lexical="situated_lexical" in levers,
                       time_weight=IndexParams().time_weight if "time" in levers else 0.0,
                       neighbour_weight=IndexParams().neighbour_weight
                       if "neighbours" in levers else 0.0,
                       name_weight=IndexParams().name_weight if "names" in levers else 0.0,
                       answer_weight=IndexParams().answer_weight if "answers" in levers
                       else 0.0,
                       query_without_names="unnamed" in levers)


def metrics(ranked: list[str], evidence: list[str]) -> list[float]:
    gold = set(evidence)
    recall = [len(gold & set(ranked[:k])) / len(gold) for k in (1, 5, 10)]
    hit5 = float(bool(gold & set(ranked[:5])))
    rank = next((i + 1 for i, d in enumerate(ranked) if d in gold), None)
    return [*recall, hit5, 1.0 / rank if rank else 0.0]


class Run:
    """The figures of one configuration."""

    def __init__(self) -> None:
        self.per_q: list[tuple[int, list[float]]] = []
        self.conversation: list[str] = []    # each question's conversation (sample_id)
        self.search_ms: list[float] = []
        self.store_ms: list[float] = []
        self.dropped = 0


#: ``--query-context summary``: each question is asked with a situation, the summary of
#: the session its first evidence turn is in (LoCoMo's ``session_summary``), so that the
#: context lane (stored windows against a paraphrase of the situation) counts. A bench of
#: the lanes' models, not of recall: the summary says much of what the answer is near.
QUERY_CONTEXT: dict[str, str] = {}
SITUATED = {"on": False}


def _questions(sample: dict[str, Any], known: set[str], run: Run) -> list[tuple[str, int,
                                                                             list[str]]]:
    out = []
    for qa in sample["qa"]:
        if qa.get("category") == 5 or not qa.get("evidence"):
            continue
        evidence, dropped = normalise_evidence(qa["evidence"], known)
        run.dropped += dropped
        if evidence:
            out.append((qa["question"], qa["category"], evidence))
            session = evidence[0].split(":")[0].lstrip("D")
            summary = sample.get("session_summary", {}).get(f"session_{session}_summary")
            if SITUATED["on"] and summary:
                QUERY_CONTEXT[qa["question"]] = summary
    return out


def _store_turns(store: MemoryStore, clock: Clock, conv: list[dict[str, Any]],
                 settings: MemorySettings, run: Run, occurred: bool,
                 subject: tuple[str, str] | None) -> dict[str, str]:
    by_memory: dict[str, str] = {}
    for turn in conv:
        clock.now = turn["time"]
        started = time.perf_counter()
        result = store.store(content=turn["text"], category="context",
                             context=turn["window"] or None,
                             occurred_at=datetime.fromtimestamp(turn["time"], UTC).isoformat()
                             if occurred else None,
                             subject_type=subject[0] if subject else None,
                             subject_id=subject[1] if subject else None, settings=settings)
        run.store_ms.append((time.perf_counter() - started) * 1000)
        by_memory[result.memory["id"]] = turn["dia_id"]
    return by_memory


def _search(store: MemoryStore, question: str, settings: MemorySettings, run: Run,
            subject: tuple[str, str] | None) -> list[str]:
    started = time.perf_counter()
    found = store.search(query=question, context=QUERY_CONTEXT.get(question), limit=10,
                         settings=settings,
                         subject_type=subject[0] if subject else None,
                         subject_id=subject[1] if subject else None)
    run.search_ms.append((time.perf_counter() - started) * 1000)
    return [r["memory"]["id"] for r in found.results]


def per_conversation(samples: list[dict[str, Any]], embedder: Any, window: int,
                     levers: frozenset[str], occurred: bool) -> Run:
    """The README's task: one store per conversation."""
    settings = MemorySettings(relevance_threshold=0.0, max_memories=100_000)
    run = Run()
    for sample in samples:
        conv = turns(sample["conversation"], window)
        clock = Clock()
        with tempfile.TemporaryDirectory() as tmp, \
                MemoryStore(Path(tmp), embedder, clock=clock,
                            index_params=params_for(levers)) as store:
            by_memory = _store_turns(store, clock, conv, settings, run, occurred, None)
            clock.now = max(t["time"] for t in conv) + DAY
            for question, category, evidence in _questions(
                    sample, {t["dia_id"] for t in conv}, run):
                ranked = [by_memory.get(m, "") for m in _search(store, question, settings,
                                                                  run, None)]
                run.per_q.append((category, metrics(ranked, evidence)))
                run.conversation.append(sample["sample_id"])
    return run


MIXED_SETTINGS = MemorySettings(relevance_threshold=0.0, max_memories=10_000_000,
                                max_per_subject=10_000_000, subject_scoping=True)


def fill_mixed(store: MemoryStore, clock: Clock, samples: list[dict[str, Any]],
               convs: list[list[dict[str, Any]]], window: int, occurred: bool, size: int,
               run: Run) -> list[dict[str, str]]:
    """Other users' and general memories up to ``size``, then every conversation as its
    own subject; the memory id -> dia_id map of each conversation."""
    from textgen import TextGen
    gen = TextGen(seed=11)
    first = min(t["time"] for c in convs for t in c)
    items = []
    for i in range(max(0, size - sum(len(c) for c in convs))):
        memory = gen.memory(i)
        items.append({"content": memory["content"], "category": memory["category"],
                      "subject_type": memory["subject_type"],
                      "subject_id": memory["subject_id"],
                      "context": memory["context"] if window else None,
                      "occurred_at": datetime.fromtimestamp(
                          first + (i % 600) * DAY, UTC).isoformat()})
    for start in range(0, len(items), 256):
        store.store_many(items[start:start + 256], settings=MIXED_SETTINGS)
    return [_store_turns(store, clock, conv, MIXED_SETTINGS, run, occurred,
                         ("guest", sample["sample_id"]))
            for sample, conv in zip(samples, convs, strict=True)]


def mixed(samples: list[dict[str, Any]], embedder: Any, window: int, levers: frozenset[str],
          occurred: bool, size: int) -> Run:
    """One user-scoped store of ``size``: every conversation a subject, plus filler."""
    settings = MIXED_SETTINGS
    run = Run()
    convs = [turns(s["conversation"], window) for s in samples]
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp, \
            MemoryStore(Path(tmp), embedder, clock=clock,
                        index_params=params_for(levers)) as store:
        maps = fill_mixed(store, clock, samples, convs, window, occurred, size, run)
        for sample, conv, by_memory in zip(samples, convs, maps, strict=True):
            clock.now = max(t["time"] for t in conv) + DAY
            for question, category, evidence in _questions(
                    sample, {t["dia_id"] for t in conv}, run):
                ranked = [by_memory.get(m, "") for m in _search(
                    store, question, settings, run, ("guest", sample["sample_id"]))]
                run.per_q.append((category, metrics(ranked, evidence)))
                run.conversation.append(sample["sample_id"])
        run.store_ms.append(float(len(store)))
    return run


def latency(samples: list[dict[str, Any]], embedder: Any, size: int, rounds: int) -> None:
    """Search latency of each lever on the mixed store, configurations interleaved query by
    query in one process (so the machine's noise falls on all of them alike)."""
    import dataclasses
    convs = [turns(s["conversation"], 3) for s in samples]
    configs = [(name, levers) for name, window, levers in ABLATION if window == 3]
    timings: dict[str, list[float]] = {name: [] for name, _ in configs}
    for lexical in (False, True):
        clock = Clock()
        with tempfile.TemporaryDirectory() as tmp, \
                MemoryStore(Path(tmp), embedder, clock=clock, index_params=params_for(
                    frozenset({"situated_lexical"}) if lexical else frozenset())) as store:
            fill_mixed(store, clock, samples, convs, 3, True, size, Run())
            mine = [(n, lv) for n, lv in configs if ("situated_lexical" in lv) == lexical]
            questions = [(q, ("guest", s["sample_id"]), max(t["time"] for t in c) + DAY)
                         for s, c in zip(samples, convs, strict=True)
                         for q, _, _ in _questions(s, {t["dia_id"] for t in c}, Run())]
            for _ in range(rounds):
                for question, subject, now in questions:
                    clock.now = now
                    for name, levers in mine:
                        # bench only: flip the search-time levers (the ranking reads them)
                        store._params = dataclasses.replace(
                            params_for(levers), situated_lexical=lexical)
                        run = Run()
                        _search(store, question, MIXED_SETTINGS, run, subject)
                        timings[name].extend(run.search_ms)
    print(f"\nsearch latency on the {size} mixed store, in-process, question vectors cached "
          f"(the model excluded), {rounds} rounds of 760, configurations interleaved")
    print(f"{'configuration':<44} p50 ms  p95 ms  p99 ms")
    for name, _ in configs:
        values = timings[name]
        print(f"{name:<44} {statistics.median(values):6.2f}  {_q(values, 95):6.2f}  "
              f"{_q(values, 99):6.2f}")


CURVE = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8)


def _all_scores(store: MemoryStore, question: str, settings: MemorySettings,
                subject: tuple[str, str] | None) -> dict[str, float]:
    """Every memory in scope's score for ``question`` (memory id -> score), as a search
    with an unbounded limit ranks it (bench only: the store's own search path, with a
    limit past ``SEARCH_LIMIT_MAX``; the store's params make every memory a candidate)."""
    import dataclasses

    from index.query import parse_search
    from index.ranking import Ranking
    from index.timespan import query_span
    request = parse_search(query=question, context=QUERY_CONTEXT.get(question),
                           intention=None, subject_type=subject[0] if subject else None,
                           subject_id=subject[1] if subject else None, limit=10,
                           categories=None)
    request = dataclasses.replace(request, limit=len(store) + 1)
    from index.asks import asked
    from index.names import query_names
    when = query_span(question, store._clock())
    names = query_names(question)
    queries, mixed, name = store._embed_query(request.texts, names)
    ranking = Ranking.of(store._params, settings, request.limit, when, names,
                         exact=question if mixed else None, name=name,
                         query=None if queries is None else queries["content"],
                         asks=asked(question))
    found = store._recall(request, queries, settings.subject_scoping, ranking, False)
    return {r["memory"]["id"]: r["score"] for r in found.results}


def _stores(stack: Any, samples: list[dict[str, Any]], convs: list[list[dict[str, Any]]],
            embedder: Any, size: int, params: IndexParams, settings: MemorySettings
            ) -> list[tuple[Any, ...]]:
    """The stores of a run, built once, closed with ``stack``: one mixed store of ``size``
    memories, or one per conversation. Returns ``(store, clock, subject, sample, conv,
    by_memory)`` per conversation."""
    plan: list[tuple[Any, ...]] = []
    if size:
        clock = Clock()
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        store = stack.enter_context(MemoryStore(Path(tmp), embedder, clock=clock,
                                                index_params=params))
        maps = fill_mixed(store, clock, samples, convs, 3, True, size, Run())
        return [(store, clock, ("guest", s["sample_id"]), s, c, m)
                for s, c, m in zip(samples, convs, maps, strict=True)]
    for sample, conv in zip(samples, convs, strict=True):
        clock = Clock()
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        store = stack.enter_context(MemoryStore(Path(tmp), embedder, clock=clock,
                                                index_params=params))
        plan.append((store, clock, None, sample, conv,
                     _store_turns(store, clock, conv, settings, Run(), True, None)))
    return plan


def curve(samples: list[dict[str, Any]], embedder: Any, size: int) -> None:
    """The calibration curve: for each threshold, the share of evidence turns a search
    returns and the share of the other turns of the same conversation, with no limit
    (every memory in scope scored, thresholded as ``relevance_threshold`` would)."""
    import contextlib
    convs = [turns(s["conversation"], 3) for s in samples]
    # Every memory a candidate: the curve is about scores, not candidate generation.
    params = dataclasses_replace(params_for(DEFAULT), min_candidates=1_000_000)
    settings = MIXED_SETTINGS if size else MemorySettings(relevance_threshold=0.0,
                                                          max_memories=100_000)
    evidence: list[float] = []
    others: list[float] = []
    general: list[float] = []
    with contextlib.ExitStack() as stack:
        plan = _stores(stack, samples, convs, embedder, size, params, settings)
        save_caches()
        for store, clock, subject, sample, conv, by_memory in plan:
            clock.now = max(t["time"] for t in conv) + DAY
            for question, _, gold in _questions(sample, {t["dia_id"] for t in conv}, Run()):
                scores = _all_scores(store, question, settings, subject)
                for memory_id, score in scores.items():
                    dia = by_memory.get(memory_id)
                    (general if dia is None else evidence if dia in gold else others
                     ).append(score)
                # turns never scored (no vector) count as not returned
                missing = len(by_memory) - sum(m in scores for m in by_memory)
                others.extend([-1.0] * missing)
    layout = f"the {size} mixed store" if size else "one store per conversation"
    print(f"\ncalibration curve on {layout}, default levers, every memory scored "
          f"(no limit){', asked with the summary as context' if SITUATED['on'] else ''}: "
          "share of evidence turns / of the other turns of the same conversation"
          + (" / of the other users' and general memories" if size else "")
          + " scoring at or above each threshold")
    ev, ot, ge = (np.array(v) for v in (evidence, others, general))
    print(f"{'threshold':>10} {'evidence':>9} {'others':>7}" + ("  general" if size else ""))
    for t in CURVE:
        line = f"{t:>10.2f} {np.mean(ev >= t - 1e-5):>9.3f} {np.mean(ot >= t - 1e-5):>7.3f}"
        if size:
            line += f" {np.mean(ge >= t - 1e-5):>8.3f}"
        print(line)
    print(f"({len(ev)} evidence turns, {len(ot)} other turns"
          + (f", {len(ge)} other memories)" if size else ")"))


BANDS = ((1, 10, "top 10"), (11, 20, "11-20"), (21, 50, "21-50"), (51, 10**9, "past 50"))


def misses(samples: list[dict[str, Any]], embedder: Any, size: int) -> None:
    """Where the evidence turns rank (every memory in scope scored, as ``--curve``), by
    band, and what each band's turns and questions have in common: the question's
    category, several evidence turns, another of them in the top 10, next to a top-10
    hit in its session, an image, a speaker the question names."""
    import contextlib

    from index.names import query_names
    convs = [turns(s["conversation"], 3) for s in samples]
    params = dataclasses_replace(params_for(DEFAULT), min_candidates=1_000_000)
    settings = MIXED_SETTINGS if size else MemorySettings(relevance_threshold=0.0,
                                                          max_memories=100_000)
    found: list[tuple[int, dict[str, bool]]] = []
    with contextlib.ExitStack() as stack:
        plan = _stores(stack, samples, convs, embedder, size, params, settings)
        save_caches()
        for store, clock, subject, sample, conv, by_memory in plan:
            clock.now = max(t["time"] for t in conv) + DAY
            text = {t["dia_id"]: t["text"] for t in conv}
            at = {t["dia_id"]: i for i, t in enumerate(conv)}
            for question, category, gold in _questions(sample, set(text), Run()):
                scores = _all_scores(store, question, settings, subject)
                ranked = [by_memory[m] for m, _ in sorted(scores.items(), key=lambda kv: -kv[1])
                          if m in by_memory]
                place = {dia: i + 1 for i, dia in enumerate(ranked)}
                top = ranked[:10]
                named = {n.lower() for n in query_names(question)}
                for dia in gold:
                    found.append((place.get(dia, 10**9), {
                        "multi-hop": category == 1, "temporal": category == 2,
                        "open-domain": category == 3, "single-hop": category == 4,
                        "several evidence turns": len(gold) > 1,
                        "another evidence turn in the top 10":
                            any(g in top for g in gold if g != dia),
                        "next to a top-10 hit": any(abs(at[dia] - at[h]) == 1 for h in top),
                        "an image": "[image:" in text[dia],
                        "said by a speaker the question names":
                            text[dia].split(":")[0].lower() in named,
                        "of 12 words or fewer": len(text[dia].split()) <= 13}))
    layout = f"the {size} mixed store" if size else "one store per conversation"
    print(f"\nwhere the evidence turns rank on {layout} (every memory scored), and the share "
          "of each band with each trait")
    classes = list(found[0][1]) if found else []
    print(f"{'trait':<40}" + "".join(f"{label:>9}" for _, _, label in BANDS))
    bands = [[traits for rank_, traits in found if low <= rank_ <= high]
             for low, high, _ in BANDS]
    print(f"{'evidence turns':<40}" + "".join(f"{len(b):>9}" for b in bands))
    for trait in classes:
        print(f"{trait:<40}" + "".join(
            f"{sum(t[trait] for t in b) / len(b):>9.2f}" if b else f"{'-':>9}"
            for b in bands))


def dataclasses_replace(params: IndexParams, **changes: Any) -> IndexParams:
    import dataclasses
    return dataclasses.replace(params, **changes)


def variants(samples: list[dict[str, Any]], embedder: Any, size: int,
             names: list[str] | None) -> None:
    """Recall and latency of search-time variants of the levers before neighbours
    (``BEFORE``; "neighbours .5 of the top 5" is today's default), on stores built
    once (one per conversation, or the ``size`` mixed store), variants interleaved
    question by question."""
    import contextlib
    import dataclasses

    import index.recall as recall_module
    chosen = [(n, o) for n, o in VARIANTS if names is None or n in names]
    convs = [turns(s["conversation"], 3) for s in samples]
    per: dict[str, Run] = {name: Run() for name, _ in chosen}
    base = params_for(BEFORE)
    settings = MIXED_SETTINGS if size else MemorySettings(relevance_threshold=0.0,
                                                          max_memories=100_000)
    with contextlib.ExitStack() as stack:
        plan = _stores(stack, samples, convs, embedder, size, base, settings)
        save_caches()
        for store, clock, subject, sample, conv, by_memory in plan:
            clock.now = max(t["time"] for t in conv) + DAY
            state = store._engine.state
            for question, category, evidence in _questions(
                    sample, {t["dia_id"] for t in conv}, Run()):
                for name, overrides in chosen:
                    fields = {k: v for k, v in overrides.items()
                              if k not in ("lexical_weight", "k1", "b")}
                    # bench only: flip search-time settings (the ranking reads them)
                    store._params = dataclasses.replace(base, **fields)
                    recall_module.LEXICAL_WEIGHT = overrides.get("lexical_weight", 0.7)
                    state.lexical.k1 = overrides.get("k1", 1.2)
                    state.lexical.b = overrides.get("b", 0.75)
                    run = per[name]
                    ranked = [by_memory.get(m, "") for m in _search(store, question,
                                                                      settings, run, subject)]
                    run.per_q.append((category, metrics(ranked, evidence)))
            store._params = base
    recall_module.LEXICAL_WEIGHT = 0.7
    layout = f"the {size} mixed store" if size else "one store per conversation"
    print(f"\nsearch-time variants of situated lexical + time on {layout}, variants interleaved "
          "question by question (search ms in-process, question vectors cached)")
    print(f"{'variant':<44}   R@1   R@5  R@10 hit@5   MRR  n     search p50 / p95 ms")
    for name, _ in chosen:
        run = per[name]
        print(row(name, [m for _, m in run.per_q],
                  f"  {statistics.median(run.search_ms):5.2f} / {_q(run.search_ms, 95):5.2f}"))
        for cat, label in ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"),
                           (4, "single-hop")):
            print(row(f"    category {cat} {label}", [m for c, m in run.per_q if c == cat]))


def _means(values: list[list[float]]) -> list[float]:
    return [statistics.fmean(col) for col in zip(*values, strict=True)]


def _q(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100)[p - 1] if len(values) > 1 else values[0]


def row(name: str, values: list[list[float]], extra: str = "") -> str:
    return (f"{name:<44} " + " ".join(f"{m:5.3f}" for m in _means(values))
            + f"  n={len(values):<4}{extra}")


def report(title: str, run: Run, baselines: bool) -> None:
    print(f"\n{title}")
    print(f"{'method':<44}   R@1   R@5  R@10 hit@5   MRR")
    if baselines:
        for name, figures in BASELINES.items():
            print(f"{name:<44} " + " ".join(f"{m:5.3f}" for m in figures) + "  (README)")
    print(row("Triform MemoryStore search", [m for _, m in run.per_q]))
    for cat, label in ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"),
                       (4, "single-hop")):
        print(row(f"  category {cat} {label}", [m for c, m in run.per_q if c == cat]))
    for conversation in dict.fromkeys(run.conversation):
        print(row(f"  conversation {conversation}",
                  [m for (_, m), c in zip(run.per_q, run.conversation, strict=True)
                   if c == conversation]))
    print(f"evidence ids dropped (resolve to no turn): {run.dropped}")
    print(f"search p50 {statistics.median(run.search_ms):.2f} ms, p95 "
          f"{_q(run.search_ms, 95):.2f} ms (in-process, embedding the question included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[1].parent / "shared" / "eval"
                        / "locomo-dev.json")
    parser.add_argument("--window", type=int, default=3,
                        help="previous turns stored as each memory's context (0: none)")
    parser.add_argument("--levers", default="default",
                        help="default (all but unnamed), all, none, or a "
                             "comma list of " + ", ".join(LEVERS))
    parser.add_argument("--no-occurred", action="store_true",
                        help="store no occurred_at (memories occur when stored)")
    parser.add_argument("--ablation", action="store_true",
                        help="every lever alone, together and none, in one table")
    parser.add_argument("--mixed", type=int, default=0, metavar="N",
                        help="one user-scoped store of N memories instead of one per "
                             "conversation")
    parser.add_argument("--latency", type=int, default=0, metavar="ROUNDS",
                        help="only the search latency of each lever on the --mixed store")
    parser.add_argument("--variants", nargs="?", const="all", default=None,
                        metavar="NAMES",
                        help="search-time variants of situated lexical + time, on stores "
                             "built once "
                             "(all, or a '|'-separated list of VARIANTS names)")
    parser.add_argument("--curve", action="store_true",
                        help="only the calibration curve: the share of evidence turns and "
                             "of other turns scoring at or above each threshold")
    parser.add_argument("--misses", action="store_true",
                        help="only where the evidence turns rank (top 10, 11-20, 21-50, "
                             "past 50) and the traits of each band")
    parser.add_argument("--raw", action="store_true",
                        help="scores as before calibration (IndexParams(calibrate=False))")
    parser.add_argument("--embedder", choices=["fastembed", "hashing"], default="fastembed")
    parser.add_argument("--lanes", default=None, metavar="SPEC",
                        help="the model of each lane: minilm, minilm8 (INT8), static, or three "
                             "of them "
                             "(content,context,intention); default $TRIFORM_LANE_MODELS, "
                             "else the runtime's default")
    parser.add_argument("--query-context", choices=["none", "summary"], default="none",
                        help="summary: ask each question with its evidence session's "
                             "summary as the context (the context lane's models compared)")
    parser.add_argument("--params", default="", metavar="FIELD=VALUE,...",
                        help="IndexParams fields set on top of the levers, e.g. "
                             "name_projection=1,name_weight=.5")
    args = parser.parse_args()
    OVERRIDES.update(parse_overrides(args.params))
    SITUATED["on"] = args.query_context == "summary"
    RAW["on"] = args.raw
    if args.embedder == "hashing":
        from index import HashingEmbedder
        embedder: Any = HashingEmbedder(256)
    else:
        embedder = lane_embedder(args.lanes)
    samples = json.loads(args.data.read_text())
    layout = f"one user-scoped store of {args.mixed}" if args.mixed else \
        "one store per conversation"

    def one(window: int, levers: frozenset[str]) -> Run:
        if args.mixed:
            run = mixed(samples, embedder, window, levers, not args.no_occurred, args.mixed)
        else:
            run = per_conversation(samples, embedder, window, levers, not args.no_occurred)
        save_caches()
        return run

    print(f"# {datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {' '.join(sys.argv)}; {layout}; "
          f"model {embedder.model_id}")
    if args.variants:
        variants(samples, embedder, args.mixed, None if args.variants == "all"
                 else args.variants.split("|"))
        return
    if args.latency:
        latency(samples, embedder, args.mixed or 10_000, args.latency)
        return
    if args.curve:
        curve(samples, embedder, args.mixed)
        return
    if args.misses:
        misses(samples, embedder, args.mixed)
        return
    if not args.ablation:
        levers = {"all": frozenset(LEVERS), "none": frozenset(),
                  "default": DEFAULT}.get(args.levers, frozenset(args.levers.split(",")))
        if not levers <= set(LEVERS):
            parser.error(f"unknown lever in {args.levers!r}")
        run = one(args.window, levers)
        report(f"window {args.window}, levers: {', '.join(sorted(levers)) or 'none'}", run,
               baselines=not args.mixed)
        return
    one(3, DEFAULT)                # warm the vector cache and the model outside the table
    print(f"\n{'configuration':<44}   R@1   R@5  R@10 hit@5   MRR  n     search p50 / p95 ms")
    for name, window, levers in ABLATION:
        run = one(window, levers)
        print(row(name, [m for _, m in run.per_q],
                  f"  {statistics.median(run.search_ms):5.2f} / {_q(run.search_ms, 95):5.2f}"),
              flush=True)
        if levers == DEFAULT and window == 3:
            for cat, label in ((1, "multi-hop"), (2, "temporal"), (3, "open-domain"),
                               (4, "single-hop")):
                print(row(f"    category {cat} {label}",
                          [m for c, m in run.per_q if c == cat]))


if __name__ == "__main__":
    main()
