"""Running recall cases: each case is a search with a branch's settings, scored against what
it expects and rejects (docs/evals.md).

Where a suite's memories come from:

* a file with ``seed`` memories runs over those alone, stored in a **scratch store**: a
  file-backed :class:`index.MemoryStore` in a temporary folder of the home, opened for the
  run and deleted after it. The element's own store is never opened for it, so a seed
  memory can never reach the element's memories, whatever happens during the run.
* a file without runs over the **element's memories**, read with ``count_access=False``:
  an eval writes nothing there (no access counts, so what eviction picks is unchanged).
  There it never shows one subject another subject's memories: subject scoping is on when
  the evaluated spec has it or ``keep_scoping`` says the element scopes by subject on any
  branch (warning ``SUBJECT_SCOPING_KEPT``). Seed memories are the eval author's own, and follow
  the evaluated spec exactly.

Scores, per case: ``passed`` (every expected target in the top k, no rejected one),
``recall`` (the share of expected targets in the top k), ``reciprocal_rank`` (1/rank of the
first expected target within the top :data:`DEPTH`, 0 past it). Per run: ``pass_rate``,
``recall_at_k`` and ``mrr``, the means over the cases (recall and MRR over those that
expect something); None when there is nothing to average.

Bounds: at most :data:`MAX_RUN_CASES` cases and :data:`MAX_RUN_SEEDS` seed memories, and
cases x memories searched at most ``home.max_eval_work`` (``MAX_EVAL_WORK``): past them the
run is refused before anything runs (:class:`EvalTooLarge`), saying how to make it
smaller.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index import SEARCH_LIMIT_MAX, MemoryBackend, MemorySettings, MemoryStore
from source import FIXTURES_DIR, fixture_key

from ..errors import ElementError
from .cases import Case, Suite, Target, case_name

if TYPE_CHECKING:
    from ..catalog import Element
    from ..home import Home

__all__ = ["DEPTH", "MAX_RUN_CASES", "MAX_RUN_SEEDS", "SUBJECT_SCOPING_KEPT",
           "EvalTooLarge", "run_suites", "summarize", "select"]

#: How deep each case's search looks: ranks past k are reported (and count for MRR).
DEPTH = 20
MAX_RUN_CASES = 1000
MAX_RUN_SEEDS = 2000
#: Characters of a result's content an answer shows.
SHOWN_CHARS = 200
SUBJECT_SCOPING_KEPT = "SUBJECT_SCOPING_KEPT"
#: Seed memories stored per call (one embedding pass each).
_SEED_BATCH = 256
#: The fields of a seed memory that are a store's.
_STORED = ("content", "category", "subject_type", "subject_id", "context", "intention",
           "occurred_at")


class EvalTooLarge(ElementError):
    """An eval would run more cases, seed memories or cases x memories than allowed."""

    code = "EVAL_TOO_LARGE"
    error_class = "too_large"


def select(suites: list[Suite], names: Sequence[str] | None) -> list[Suite]:
    """Only the cases named ``FILE#ID`` (or ``ID`` alone) in ``names``; all with None."""
    if names is None:
        return suites
    wanted = set(names)
    chosen = []
    for suite in suites:
        cases = [c for c in suite.cases
                 if c.id in wanted or case_name(suite.file, c.id) in wanted]
        if cases:
            chosen.append(dataclasses.replace(suite, cases=cases))
    return chosen


def _check_size(suites: list[Suite], element_memories: int, max_work: int) -> None:
    cases = sum(len(s.cases) for s in suites)
    seeds = sum(len(s.seeds) for s in suites if s.seeds is not None)
    work = sum(len(s.cases) * (len(s.seeds) if s.seeds is not None else element_memories)
               for s in suites)
    if cases > MAX_RUN_CASES:
        raise EvalTooLarge(f"this eval has {cases} cases, over the limit of {MAX_RUN_CASES} "
                           "per run: run some of them (the op's 'cases' field)")
    if seeds > MAX_RUN_SEEDS:
        raise EvalTooLarge(f"this eval seeds {seeds} memories, over the limit of "
                           f"{MAX_RUN_SEEDS} per run: split its files' seeds or run some "
                           "cases (the op's 'cases' field)")
    if work > max_work:
        raise EvalTooLarge(
            f"this eval would search {work:,} case x memory pairs ({cases} cases, the "
            f"element holding {element_memories:,} memories), over the limit of "
            f"{max_work:,}: run fewer cases (the op's 'cases' field) or give the cases "
            "seed memories of their own")


@contextmanager
def _scratch(home: Home, suite: Suite, settings: MemorySettings
             ) -> Iterator[tuple[MemoryBackend, dict[str, str]]]:
    """A scratch store holding ``suite``'s seeds, and seed key -> memory id; deleted on
    exit. In the home's folder (private, 0700), never under ``runtime/``."""
    folder = Path(tempfile.mkdtemp(prefix=".eval-scratch-", dir=home.path))
    try:
        store = MemoryStore(folder / "store", home.embedder, embed_cache=0)
        try:
            ids: dict[str, str] = {}
            seeds = suite.seeds or []
            for start in range(0, len(seeds), _SEED_BATCH):
                batch = seeds[start:start + _SEED_BATCH]
                items = [{**{k: seed[k] for k in _STORED if seed.get(k) is not None},
                          "source": "fixture", "metadata": {"seed": seed["key"]}}
                         for seed in batch]
                for seed, stored in zip(batch, store.store_many(items, settings=settings),
                                        strict=True):
                    ids[seed["key"]] = stored.memory["id"]
            yield store, ids
        finally:
            store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _fixture_ids(store: MemoryBackend, suites: list[Suite]) -> dict[str, str]:
    """fixture target value (``FILE#KEY``) -> memory id, for the targets the cases name."""
    wanted: dict[str, str] = {}
    for suite in suites:
        for case in suite.cases:
            for target in (*case.expect, *case.reject):
                if target.kind == "fixture":
                    file, _, key = target.value.partition("#")
                    wanted[fixture_key(f"{FIXTURES_DIR}/{file}", key)] = target.value
    if not wanted:
        return {}
    found: dict[str, str] = {}
    for memory in store.iter_memories(source="fixture"):
        stored = (memory.get("metadata") or {}).get("fixture_key")
        if isinstance(stored, str) and stored in wanted:
            found[wanted[stored]] = memory["id"]
    return found


def _matches(target: Target, hit: dict[str, Any], ids: dict[str, str]) -> bool:
    memory = hit["memory"]
    if target.kind == "content":
        return target.value.casefold() in memory["content"].casefold()
    if target.kind == "memory":
        return bool(memory["id"] == target.value)
    return bool(ids.get(target.value) == memory["id"])


def _rank(target: Target, hits: list[dict[str, Any]], ids: dict[str, str], k: int
          ) -> dict[str, Any]:
    for rank, hit in enumerate(hits, 1):
        if _matches(target, hit, ids):
            return {"target": target.name, "rank": rank, "score": round(hit["score"], 4),
                    "in_top_k": rank <= k}
    return {"target": target.name, "rank": None, "score": None, "in_top_k": False}


def _run_case(store: MemoryBackend, suite: Suite, case: Case, settings: MemorySettings,
              ids: dict[str, str], seeded: dict[str, str] | None) -> dict[str, Any]:
    found = store.search(**case.search, limit=min(SEARCH_LIMIT_MAX, max(case.k, DEPTH)),
                         settings=settings, now=case.as_of, count_access=False)
    hits = found.results
    expected = [_rank(t, hits, ids, case.k) for t in case.expect]
    rejected = [_rank(t, hits, ids, case.k) for t in case.reject]
    reasons = [f"{e['target']} " + (f"is at rank {e['rank']}" if e["rank"] else
                                    f"is not recalled (not in the top {DEPTH} above "
                                    "relevance_threshold)")
               + f" (must be in the top {case.k})" for e in expected if not e["in_top_k"]]
    reasons += [f"{r['target']} is at rank {r['rank']} (must not be in the top {case.k})"
                for r in rejected if r["in_top_k"]]
    ranks = [e["rank"] for e in expected if e["rank"] is not None]
    by_id = {v: k for k, v in (seeded or {}).items()}
    results = []
    for rank, hit in enumerate(hits[:case.k], 1):
        memory = hit["memory"]
        shown = {"rank": rank, "score": round(hit["score"], 4),
                 "content": memory["content"][:SHOWN_CHARS]}
        if seeded is None:
            shown["memory_id"] = memory["id"]
        else:
            shown["seed"] = by_id.get(memory["id"])
        results.append(shown)
    return {
        "name": case_name(suite.file, case.id), "file": suite.file, "id": case.id,
        "line": case.line, "origin": suite.origin,
        "memories": "element" if seeded is None else "seed", "k": case.k,
        "passed": not reasons, "reasons": reasons, "expected": expected,
        "rejected": rejected,
        "recall": sum(e["in_top_k"] for e in expected) / len(expected) if expected else None,
        "reciprocal_rank": (1 / min(ranks) if ranks else 0.0) if expected else None,
        "fallback": found.fallback, "results": results}


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return round(sum(present) / len(present), 4) if present else None


def summarize(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """A run's scores: ``cases``, ``passed``, ``failed``, ``pass_rate``, ``recall_at_k``,
    ``mrr`` and the ``failing`` cases' names."""
    passed = sum(c["passed"] for c in cases)
    return {"cases": len(cases), "passed": passed, "failed": len(cases) - passed,
            "pass_rate": round(passed / len(cases), 4) if cases else None,
            "recall_at_k": _mean([c["recall"] for c in cases]),
            "mrr": _mean([c["reciprocal_rank"] for c in cases]),
            "failing": [c["name"] for c in cases if not c["passed"]]}


def run_suites(home: Home, element: Element, suites: list[Suite],
               settings: Sequence[MemorySettings], *, keep_scoping: bool = False
               ) -> list[dict[str, Any]]:
    """Run every case of ``suites`` once per settings in ``settings`` (a promotion compares
    two specs over the same memories); one answer per settings: ``{cases, summary, files,
    warnings}``.

    :raise EvalTooLarge: the run would pass a bound (nothing ran).
    :raise StoreError: a seed or a case is refused by the runtime (``cases.py`` checks them
        at push, so only for files that skipped it).
    """
    answers: list[dict[str, Any]] = [{"cases": [], "files": [], "warnings": []}
                                     for _ in settings]
    with ExitStack() as stack:
        needs_element = any(s.seeds is None for s in suites)
        store = stack.enter_context(home.memory_store(element)) if needs_element else None
        _check_size(suites, len(store) if store is not None else 0, home.max_eval_work)
        fixtures = _fixture_ids(store, suites) if store is not None else {}
        for answer, chosen in zip(answers, settings, strict=True):
            kept = chosen
            if keep_scoping and not chosen.subject_scoping and store is not None:
                kept = dataclasses.replace(chosen, subject_scoping=True)
                answer["warnings"].append(
                    f"{SUBJECT_SCOPING_KEPT}: this spec turns subject scoping off; over "
                    "the element's own memories its cases ran with it on, as the element "
                    "scopes by subject elsewhere, so no case shows one subject another's "
                    "memories")
            for suite in suites:
                answer["files"].append({"file": suite.file, "origin": suite.origin,
                                        "memories": "element" if suite.seeds is None
                                        else "seed", "cases": len(suite.cases),
                                        "seeds": len(suite.seeds or [])})
                if suite.seeds is None:
                    assert store is not None
                    answer["cases"] += [_run_case(store, suite, case, kept, fixtures, None)
                                        for case in suite.cases]
                    continue
                with _scratch(home, suite, chosen) as (scratch, seeded):
                    answer["cases"] += [_run_case(scratch, suite, case, chosen, seeded,
                                                  seeded) for case in suite.cases]
    for answer in answers:
        answer["summary"] = summarize(answer["cases"])
    return answers
