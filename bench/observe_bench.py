"""Extraction benchmark: what the subconscious (``observe``, rule evaluator) remembers of the
LoCoMo dev conversations, against LoCoMo's own per-session facts.

For each conversation, in a fresh store with the real model: every turn of every session is
observed as a speaker's agent would see it, with the last ``--window`` turns of the session
(that speaker as ``user``, the other as ``assistant``, both named, subject = the speaker,
``session_date`` = the session's date). No turn ids are sent, so idempotency rests on the
derived identities: each observe re-sends turns already seen, and only the newest is new.

Scored as ``shared/eval/README.md`` ("The extraction task") says: speaker names neutralised
in facts and memories ("someone"), one memory matching at most one fact (greedy, best
cosine first, MiniLM in float32 whatever the lanes run: the yardstick stays), at cosine
>= 0.5 / 0.6 / 0.7. Fact recall = matched facts / facts; precision = matched memories /
memories. Also: memories per fact, decisions by action,
observe latency, and the evidence recall of the dev questions (categories 1-4) when
searching the memories observe made (a memory stands for the turns it came from), beside
storing every raw turn.

Conversations 0-2 are where the rules were tuned; 3-4 are reported apart as a held-out
check (the project's real held-out split is elsewhere).

Observe embeds behind by default (its writes are durable without vectors; the store's
background embedder embeds them): the latency is the observe's own, and the background's
model calls are counted apart. ``--inline`` embeds on the observe's path instead (one
model call per observe that writes, as before); ``--compare-behind`` runs every observe
both ways, alternating, on two stores, side by side.

    .venv/bin/python bench/observe_bench.py [--data ../shared/eval/locomo-dev.json]
        [--convs 0,1,2,3,4] [--window 6] [--no-qa] [--hashing-store] [--show N]
        [--dump FILE] [--whole-sessions] [--inline] [--compare-prefetch | --compare-behind]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.locomo_bench import normalise_evidence
from element.agents.subconscious import RuleEvaluator, observe, parse_observation
from index import CachedEmbedder, HashingEmbedder, MemorySettings, MemoryStore
from index import load_embedder

TAUS = (0.5, 0.6, 0.7)
TUNED = {0, 1, 2}
SETTINGS = MemorySettings(relevance_threshold=0.0, max_memories=1_000_000,
                          max_per_subject=1_000_000)


def session_date(raw: str) -> str:
    """LoCoMo's "1:56 pm on 8 May, 2023" as ISO 8601."""
    moment = datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y")
    return moment.replace(tzinfo=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def sessions(conversation: dict[str, Any]) -> list[tuple[str, list[dict[str, Any]]]]:
    keys = sorted((k for k in conversation if re.fullmatch(r"session_\d+", k)),
                  key=lambda k: int(k.split("_")[1]))
    return [(conversation[f"{k}_date_time"], conversation[k]) for k in keys]


def neutral(text: str, names: list[str]) -> str:
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}'s\b", "someone's", text)
        text = re.sub(rf"\b{re.escape(name)}\b", "someone", text)
    return text


def greedy(sim: np.ndarray, tau: float) -> list[tuple[int, int]]:
    """One-to-one matches (fact, memory), best cosine first, at least ``tau``."""
    if sim.size == 0:
        return []
    pairs = np.argwhere(sim >= tau)
    order = np.argsort(-sim[pairs[:, 0], pairs[:, 1]], kind="stable")
    used_f: set[int] = set()
    used_m: set[int] = set()
    out = []
    for k in order:
        f, m = (int(x) for x in pairs[k])
        if f not in used_f and m not in used_m:
            used_f.add(f)
            used_m.add(m)
            out.append((f, m))
    return out


def subject_of(name: str) -> dict[str, str]:
    return {"subject_type": "guest", "subject_id": re.sub(r"[^a-z0-9]+", "-", name.lower())}


class CountingEmbedder:
    """The model, counting its calls and the time spent in them (``ms``): those made on
    the bench's own thread (the observe's path), and apart those of the stores'
    background embedders (``behind_*``)."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.owner = threading.get_ident()
        self.calls = 0
        self.texts = 0
        self.ms = 0.0
        self.behind_calls = 0
        self.behind_texts = 0
        self.behind_ms = 0.0

    def embed(self, texts: Any) -> Any:
        return self._count(texts, lambda: self.inner.embed(texts))

    def embed_lanes(self, lanes: Any, texts: Any) -> Any:
        """The stores embed their lanes each with its model (``index.embed_for_lanes``):
        without this, a wrapper of several models is refused."""
        by_lane = getattr(self.inner, "embed_lanes", None)
        return self._count(texts, lambda: by_lane(lanes, texts) if by_lane is not None
                           else self.inner.embed(texts))

    def _count(self, texts: Any, call: Any) -> Any:
        started = time.perf_counter()
        try:
            return call()
        finally:
            spent = (time.perf_counter() - started) * 1000
            if threading.get_ident() == self.owner:
                self.calls += 1
                self.texts += len(texts)
                self.ms += spent
            else:
                self.behind_calls += 1
                self.behind_texts += len(texts)
                self.behind_ms += spent


def observations(sample: dict[str, Any], window: int, whole_sessions: bool
                 ) -> list[tuple[str, list[str], dict[str, Any]]]:
    """(speaker, dia ids of the new user turns, observe body) in the order they are sent:
    each turn with the ``window`` turns before it, or each whole session once per speaker."""
    out = []
    for raw_date, turns in sessions(sample["conversation"]):
        date = session_date(raw_date)
        if whole_sessions:
            spans = [(speaker, turns) for speaker in dict.fromkeys(t["speaker"] for t in turns)]
        else:
            spans = [(t["speaker"], turns[max(0, j - window + 1):j + 1])
                     for j, t in enumerate(turns)]
        for speaker, shown in spans:
            body = {"turns": [{"role": "user" if t["speaker"] == speaker else "assistant",
                               "content": t["text"], "name": t["speaker"]} for t in shown],
                    "session_date": date, **subject_of(speaker)}
            out.append((speaker, [t["dia_id"] for t in shown if t["speaker"] == speaker],
                        body))
    return out


#: How each arm's observe runs: the bench's main arm, and the "before" arm of a comparison.
ARMS = {"behind": {"embed_behind": True},
        "inline": {"embed_behind": False, "prefetch": True},
        "one-by-one": {"embed_behind": False, "prefetch": False}}


def run_conversation(sample: dict[str, Any], embedder: Any, window: int,
                     tmp: Path, *, whole_sessions: bool = False, arm: str = "behind",
                     compare: Any = None, compare_arm: str = "inline") -> dict[str, Any]:
    """Observe the conversation into a fresh store, the observe running as ``arm`` says
    (``ARMS``). With ``compare`` (an embedder), the same observes also go, in alternating
    order, to a second store whose observe runs as ``compare_arm``: before/after side by
    side. Before an inline observe, the other store's background embedder is let finish
    (outside the timing), so an arm never pays for the other's model work; a behind arm
    pays for its own (its thread embeds while the next observes run)."""
    conv = sample["conversation"]
    names = [conv["speaker_a"], conv["speaker_b"]]
    latencies: list[float] = []
    model_ms: list[float] = []
    calls: list[int] = []
    before: dict[str, list[float]] = {"latency": [], "model_ms": [], "calls": []}
    actions: Counter[str] = Counter()
    sources: dict[str, set[str]] = defaultdict(set)     # memory id -> dia ids
    said: dict[str, str] = {}                            # memory id -> its content
    changes: list[tuple[str, str, str]] = []             # supersede/retire: old, new
    refreshed = 0
    counting = CountingEmbedder(embedder)
    store = MemoryStore(tmp / sample["sample_id"], counting)
    other = CountingEmbedder(compare) if compare is not None else None
    store_b = MemoryStore(tmp / f"before-{sample['sample_id']}", other) \
        if other is not None else None
    for k, (_, dia_ids, body) in enumerate(observations(sample, window, whole_sessions)):
        observation = parse_observation(body)
        arms = [(store, counting, False)] + ([(store_b, other, True)]
                                             if store_b is not None else [])
        if k % 2:
            arms.reverse()      # neither arm always runs first on a noisy machine
        for target, model, is_before in arms:
            assert target is not None and model is not None
            how = ARMS[compare_arm if is_before else arm]
            if not how["embed_behind"]:
                for quiet in (store, store_b):
                    if quiet is not None:
                        quiet.flush_embeddings(600)
            ms0, calls0 = model.ms, model.calls
            started = time.perf_counter()
            outcome = observe(target, SETTINGS, observation, RuleEvaluator(), **how)
            spent = (time.perf_counter() - started) * 1000
            if is_before:
                before["latency"].append(spent)
                before["model_ms"].append(model.ms - ms0)
                before["calls"].append(model.calls - calls0)
                continue
            latencies.append(spent)
            model_ms.append(model.ms - ms0)
            calls.append(model.calls - calls0)
            for decision in outcome.decisions:
                actions[decision.action] += 1
                if decision.action in ("supersede", "retire"):
                    changes.append((decision.action, said.get(str(decision.memory_id), "?"),
                                    decision.content or ""))
                written = decision.superseded_by or decision.memory_id
                if decision.action in ("add", "update", "supersede") and written:
                    said[written] = decision.content or ""
                    sources[written].update(dia_ids[-1:] if not whole_sessions else dia_ids)
                    if decision.superseded_by:      # what the old memory stood for
                        sources[written] |= sources.get(str(decision.memory_id), set())
                if decision.reason.startswith("already observed"):
                    refreshed += 1
    if store_b is not None:
        store_b.close()
    store.flush_embeddings(600)     # the searches below compare vectors
    memories: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        page, cursor, rows = None, None, []
        while True:
            page, cursor = store.list(**subject_of(name), limit=500, cursor=cursor)
            rows += page
            if cursor is None:
                break
        memories[name] = rows
    return {"store": store, "names": names, "latencies": latencies, "actions": actions,
            "changes": changes,
            "sources": sources, "memories": memories, "already": refreshed,
            "model_ms": model_ms, "calls": calls, "texts": counting.texts, "before": before,
            "behind": (counting.behind_calls, counting.behind_texts, counting.behind_ms),
            "before_behind": (other.behind_calls, other.behind_texts, other.behind_ms)
            if other is not None else (0, 0, 0.0),
            "cache": store.embedder.stats() if isinstance(store.embedder, CachedEmbedder)
            else None}


def facts_of(sample: dict[str, Any], with_turns: bool = False) -> dict[str, list[Any]]:
    """Each speaker's facts (with ``with_turns``: (fact, its dia ids) pairs)."""
    out: dict[str, list[Any]] = defaultdict(list)
    for per_session in sample["observation"].values():
        for speaker, pairs in per_session.items():
            out[speaker] += [(fact, turns) if with_turns else fact for fact, turns in pairs]
    return out


def match(embedder: Any, result: dict[str, Any], sample: dict[str, Any],
          dump: list[dict[str, Any]] | None = None
          ) -> tuple[dict[float, tuple[int, int]], int, int, list[tuple[str, str, str]]]:
    """Per tau: (matched facts, matched memories); facts; memories; and some misses. With
    ``dump``, one row per fact and per memory is appended to it: its text, its turns, the
    best cosine against the other side and whether it is matched at 0.6."""
    names = result["names"]
    facts = facts_of(sample)
    turns_of = {name: [t for _, t in pairs] for name, pairs in
                facts_of(sample, with_turns=True).items()}
    per_tau = {tau: (0, 0) for tau in TAUS}
    n_facts = n_mem = 0
    unmatched: list[tuple[str, str, str]] = []
    for name in names:
        fs = facts.get(name, [])
        ms = [m["content"] for m in result["memories"][name]]
        n_facts += len(fs)
        n_mem += len(ms)
        if not fs or not ms:
            continue
        fv = np.asarray(embedder.embed([neutral(f, names) for f in fs]), dtype=np.float32)
        mv = np.asarray(embedder.embed([neutral(m, names) for m in ms]), dtype=np.float32)
        fv /= np.linalg.norm(fv, axis=1, keepdims=True)
        mv /= np.linalg.norm(mv, axis=1, keepdims=True)
        sim = fv @ mv.T
        for tau in TAUS:
            pairs = greedy(sim, tau)
            a, b = per_tau[tau]
            per_tau[tau] = (a + len(pairs), b + len(pairs))
            if tau == 0.6:
                hit = {m for _, m in pairs}
                unmatched += [("memory", name, ms[m]) for m in range(len(ms)) if m not in hit]
                if dump is not None:
                    matched_f = dict(pairs)
                    rows = result["memories"][name]
                    for f, fact in enumerate(fs):
                        best = int(np.argmax(sim[f]))
                        dump.append({"kind": "fact", "conv": sample["sample_id"],
                                     "speaker": name, "text": fact,
                                     "turns": turns_of[name][f],
                                     "matched": f in matched_f, "best": float(sim[f, best]),
                                     "nearest": ms[best]})
                    for m, row in enumerate(rows):
                        best = int(np.argmax(sim[:, m]))
                        dump.append({"kind": "memory", "conv": sample["sample_id"],
                                     "speaker": name, "text": ms[m],
                                     "turns": sorted(result["sources"].get(row["id"], ())),
                                     "matched": m in hit, "best": float(sim[best, m]),
                                     "nearest": fs[best]})
    return per_tau, n_facts, n_mem, unmatched


def evidence_recall(store: MemoryStore, sample: dict[str, Any],
                    sources: dict[str, set[str]], known: set[str]) -> dict[int, float]:
    """Mean share of each question's evidence turns among the sources of the top k."""
    got: dict[int, list[float]] = {1: [], 5: [], 10: []}
    for qa in sample["qa"]:
        if qa.get("category") == 5 or not qa.get("evidence"):
            continue
        evidence, _ = normalise_evidence(qa["evidence"], known)
        if not evidence:
            continue
        results = store.search(query=qa["question"], limit=10, settings=SETTINGS).results
        for k in got:
            covered = set().union(*(sources.get(r["memory"]["id"], set())
                                    for r in results[:k])) if results else set()
            got[k].append(len(covered & set(evidence)) / len(evidence))
    return {k: (sum(v) / len(v) if v else 0.0) for k, v in got.items()} | {
        0: float(len(got[1]))}


def raw_turn_recall(sample: dict[str, Any], embedder: Any, tmp: Path) -> dict[int, float]:
    """The same questions against every raw turn stored as a memory (``locomo_bench``)."""
    conv = sample["conversation"]
    sources: dict[str, set[str]] = {}
    with MemoryStore(tmp / f"raw-{sample['sample_id']}", embedder) as store:
        items = [{"content": f"{t['speaker']}: {t['text']}", "category": "context"}
                 for _, turns in sessions(conv) for t in turns]
        ids = [t["dia_id"] for _, turns in sessions(conv) for t in turns]
        for start in range(0, len(items), 64):
            for result, dia in zip(store.store_many(items[start:start + 64],
                                                    settings=SETTINGS),
                                   ids[start:start + 64], strict=True):
                sources[result.memory["id"]] = {dia}
        return evidence_recall(store, sample, sources, set(ids))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/eval/locomo-dev.json")
    parser.add_argument("--convs", default="0,1,2,3,4")
    parser.add_argument("--window", type=int, default=6)
    parser.add_argument("--no-qa", action="store_true", help="skip the question recall")
    parser.add_argument("--hashing-store", action="store_true",
                        help="stores embed with the hashing embedder: latency of the pipeline "
                             "without the model (extraction figures about unchanged; the finders "
                             "by meaning then compare hashed vectors, so supersedes differ; "
                             "question recall is not meaningful then)")
    parser.add_argument("--show", type=int, default=0,
                        help="print this many unmatched memories per conversation, and "
                             "this many supersedes and retires (old -> new)")
    parser.add_argument("--dump", type=Path,
                        help="write every fact and memory (text, turns, best cosine, "
                             "matched at 0.6) to this JSON file, for reading the misses")
    parser.add_argument("--whole-sessions", action="store_true",
                        help="observe each session once per speaker, all its turns new "
                             "(an agent sending the conversation at its end; no question "
                             "recall)")
    parser.add_argument("--inline", action="store_true",
                        help="embed on the observe's path (one model call per observe "
                             "that writes), not behind it")
    parser.add_argument("--compare-prefetch", action="store_true",
                        help="inline, and also run every observe, alternating, on a "
                             "second store that embeds one write at a time "
                             "(observe(prefetch=False)): before/after side by side")
    parser.add_argument("--compare-behind", action="store_true",
                        help="also run every observe, alternating, on a second store "
                             "that embeds inline (one model call per observe that "
                             "writes): inline (before) and behind (after) side by side")
    args = parser.parse_args()
    if args.compare_prefetch and args.compare_behind:
        parser.error("--compare-prefetch and --compare-behind are two separate runs")
    arm = "inline" if args.inline or args.compare_prefetch else "behind"
    compare_arm = "one-by-one" if args.compare_prefetch else "inline"
    comparing = args.compare_prefetch or args.compare_behind
    if args.whole_sessions:
        args.no_qa = True
    samples = json.loads(args.data.read_text())
    chosen = [int(c) for c in args.convs.split(",")]
    embedder = load_embedder(log=lambda *a: None)
    # Memories are matched to facts by one fixed yardstick, MiniLM's float32 weights,
    # whatever the runtime's lanes: the cosine threshold (.6) was set on it, and a
    # quantized content model would move the figures without a memory changing.
    reference = load_embedder(log=lambda *a: None, lanes="minilm")
    load0 = os.getloadavg()
    print(f"observe_bench  {datetime.now():%Y-%m-%d %H:%M}  data {args.data.name}  "
          f"conversations {chosen}  window {args.window}  observe: {arm}"
          + (f" vs {compare_arm}" if comparing else "")
          + f"  load average {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    rows: dict[int, dict[str, Any]] = {}
    all_lat: list[float] = []
    all_model: list[float] = []
    all_calls: list[int] = []
    all_texts = 0
    cache_hits = cache_misses = 0
    all_before: dict[str, list[float]] = {"latency": [], "model_ms": [], "calls": []}
    behind_calls = behind_texts = 0
    behind_ms = 0.0
    all_actions: Counter[str] = Counter()
    dumped: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for c in chosen:
            sample = samples[c]
            started = time.perf_counter()
            store_embedder = HashingEmbedder(384) if args.hashing_store else embedder
            result = run_conversation(sample, store_embedder, args.window, tmp,
                                      whole_sessions=args.whole_sessions, arm=arm,
                                      compare=store_embedder if comparing else None,
                                      compare_arm=compare_arm)
            per_tau, n_facts, n_mem, unmatched = match(reference, result, sample,
                                                     dumped if args.dump else None)
            known = {t["dia_id"] for _, turns in sessions(sample["conversation"])
                     for t in turns}
            qa = qa_raw = None
            if not args.no_qa:
                qa = evidence_recall(result["store"], sample, result["sources"], known)
                qa_raw = raw_turn_recall(sample, embedder, tmp)
            result["store"].close()
            all_lat += result["latencies"]
            all_model += result["model_ms"]
            all_calls += result["calls"]
            all_texts += result["texts"]
            behind_calls += result["behind"][0]
            behind_texts += result["behind"][1]
            behind_ms += result["behind"][2]
            if result["cache"] is not None:
                cache_hits += result["cache"].hits
                cache_misses += result["cache"].misses
            for key in all_before:
                all_before[key] += result["before"][key]
            all_actions += result["actions"]
            rows[c] = {"per_tau": per_tau, "facts": n_facts, "memories": n_mem, "qa": qa,
                       "qa_raw": qa_raw, "observes": len(result["latencies"]),
                       "already": result["already"]}
            print(f"  conv {c} ({sample['sample_id']}): {len(result['latencies'])} observes, "
                  f"{n_mem} memories, {n_facts} facts, recall@0.6 "
                  f"{per_tau[0.6][0] / max(n_facts, 1):.3f}, precision@0.6 "
                  f"{per_tau[0.6][1] / max(n_mem, 1):.3f}  ({time.perf_counter() - started:.0f} s)")
            for kind, name, text in unmatched[:args.show]:
                print(f"      unmatched {kind} [{name}] {text}")
            for action, old, new in result["changes"][:args.show]:
                print(f"      {action}: {old!r} -> {new!r}")

    if args.dump:
        args.dump.write_text(json.dumps(dumped, indent=1))

    def line(label: str, group: list[int]) -> None:
        if not group:
            return
        facts = sum(rows[c]["facts"] for c in group)
        mems = sum(rows[c]["memories"] for c in group)
        cells = []
        for tau in TAUS:
            mf = sum(rows[c]["per_tau"][tau][0] for c in group)
            mm = sum(rows[c]["per_tau"][tau][1] for c in group)
            cells.append(f"{mf / max(facts, 1):.3f} / {mm / max(mems, 1):.3f}")
        print(f"| {label} | {facts} | {mems} | {mems / max(facts, 1):.2f} | "
              + " | ".join(cells) + " |")

    print("\n| conversations | facts | memories | memories/fact | recall / precision @0.5 "
          "| @0.6 | @0.7 |")
    print("|---|---|---|---|---|---|---|")
    line("0-2 (tuned on)", [c for c in chosen if c in TUNED])
    line("3-4 (held out by us)", [c for c in chosen if c not in TUNED])
    line("all", chosen)
    print(f"\nobserve calls {len(all_lat)}, already observed (no new user turn) "
          f"{sum(r['already'] for r in rows.values())}; latency per observe ms: "
          f"p50 {statistics.median(all_lat):.1f}, p95 {pct(all_lat, 0.95):.1f}, "
          f"max {max(all_lat):.1f}")
    print("decisions by action: " + ", ".join(f"{a} {n}" for a, n in
                                              sorted(all_actions.items())))
    # Where an observe's time goes: the model (texts the store's cache did not have) and
    # the rest of the pipeline (rules, pool, log and its fsync, ledger).
    rest = [t - m for t, m in zip(all_lat, all_model, strict=True)]
    embedding = [m for m, c in zip(all_model, all_calls, strict=True) if c]
    print(f"model: {sum(all_calls)} calls, {all_texts} texts for {len(all_lat)} observes "
          f"(calls per observe: " + ", ".join(f"{n}: {k}" for n, k in
                                              sorted(Counter(all_calls).items())) +
          f"); {sum(all_model) / max(sum(all_lat), 1e-9):.0%} of observe time; per observe "
          f"that calls it p50 {statistics.median(embedding) if embedding else 0:.1f} ms, "
          f"p95 {pct(embedding, 0.95):.1f}; the pipeline without the model p50 "
          f"{statistics.median(rest):.1f}, p95 {pct(rest, 0.95):.1f} ms; the store's "
          f"embedding cache answered {cache_hits} of {cache_hits + cache_misses} texts")
    if arm == "behind":
        print(f"behind the observes, the background embedder: {behind_calls} model calls, "
              f"{behind_texts} texts, {behind_ms / 1000:.1f} s of model time "
              f"({behind_texts / max(behind_calls, 1):.1f} texts per call)")
    if comparing:
        b = all_before
        labels = {"one-by-one": "one model call per write (before)",
                  "inline": "the observe's writes embedded inline, one call (before)"
                  if args.compare_behind else "the observe's writes in one call (after)",
                  "behind": "embedded behind the observe (after)"}
        print("\nbefore/after, the same observes alternating on two stores (ms; model "
              "calls on the observe's path):")
        print("| pipeline | model calls | p50 | p95 | max | model ms p95 |\n"
              "|---|---|---|---|---|---|")
        for label, lat, model, n in (
                (labels[compare_arm], b["latency"], b["model_ms"], sum(b["calls"])),
                (labels[arm], all_lat, all_model, sum(all_calls))):
            print(f"| {label} | {int(n)} | {statistics.median(lat):.1f} | "
                  f"{pct(lat, 0.95):.1f} | {max(lat):.1f} | {pct(model, 0.95):.1f} |")
        p50_ratio = statistics.median(all_lat) / statistics.median(b["latency"])
        print(f"ratios after/before: p50 {p50_ratio:.2f}, "
              f"p95 {pct(all_lat, 0.95) / max(pct(b['latency'], 0.95), 1e-9):.2f}, "
              f"model calls {sum(all_calls) / max(sum(b['calls']), 1):.2f}")
    load1 = os.getloadavg()
    print(f"load average at the end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")
    if not args.no_qa:
        print("\nevidence recall of the dev questions (categories 1-4), search over:")
        print("| memories | questions | R@1 | R@5 | R@10 |\n|---|---|---|---|---|")
        for label, key in (("observe's memories", "qa"), ("every raw turn", "qa_raw")):
            n = sum(rows[c][key][0] for c in chosen)
            cells = [sum(rows[c][key][k] * rows[c][key][0] for c in chosen) / max(n, 1)
                     for k in (1, 5, 10)]
            print(f"| {label} | {int(n)} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")


if __name__ == "__main__":
    main()
