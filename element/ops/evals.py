"""``eval``: run a branch's recall cases (``.triform/evals/*.yaml``) with that branch's spec.

The cases, the runner and the gates are in ``element/evals/`` (format: docs/evals.md); this
module declares the op, checks its request, and records a whole run: in the catalog
(``catalog.evals``: branch, commit, scores, time, who) and in the element's activity.
``source_branches`` shows each branch's last run and the draft-vs-live difference
(``element.evals.eval_status``), and ``batch_stats`` the runs of a circle's memory
elements.
"""

from __future__ import annotations

from typing import Any

from index import MemorySettings
from source import BRANCHES, resolve_rev

from ..catalog import now_iso
from ..errors import InvalidRequest
from ..evals import case_name, load_suites, properties_at, run_suites, select
from .files import repo_of
from .memory import settings_of
from .op import MEMORY, Activity, OpCall, OpResult, OpTable, Schema
from .schemas import (BOOLEAN, COMMIT, OBJECT, REV, STRING, array, integer, nullable, obj)
from .source import rev_of

__all__ = ["ops", "EVAL_SUMMARY", "MAX_NAMED"]

ops = OpTable()

#: Cases an eval request may name; failing cases kept with a recorded run.
MAX_NAMED = 1000
_RECORDED_FAILING = 50

_SCORE = nullable({"type": "number", "minimum": 0, "maximum": 1})
EVAL_SUMMARY: Schema = obj({
    "cases": integer(0), "passed": integer(0), "failed": integer(0), "pass_rate": _SCORE,
    "recall_at_k": _SCORE, "mrr": _SCORE, "failing": array(STRING)},
    ["cases", "passed", "failed", "pass_rate", "recall_at_k", "mrr", "failing"])
_RANKED = obj({"target": STRING, "rank": nullable(integer(1)), "score": nullable(
    {"type": "number"}), "in_top_k": BOOLEAN}, ["target", "rank", "score", "in_top_k"])
_CASE = obj({
    "name": {**STRING, "description": "FILE#ID"}, "file": STRING, "id": STRING,
    "line": integer(1), "origin": {"type": "string", "enum": ["commit", "kept"]},
    "memories": {"type": "string", "enum": ["element", "seed"]}, "k": integer(1),
    "passed": BOOLEAN, "reasons": array(STRING), "expected": array(_RANKED),
    "rejected": array(_RANKED), "recall": _SCORE, "reciprocal_rank": _SCORE,
    "fallback": nullable(STRING),
    "results": array(obj({"rank": integer(1), "score": {"type": "number"},
                          "content": STRING, "memory_id": STRING, "seed": nullable(STRING)},
                         ["rank", "score", "content"]))},
    ["name", "file", "id", "line", "memories", "k", "passed", "reasons", "expected",
     "rejected", "recall", "reciprocal_rank", "results"], closed=False)
_ANSWER = obj({
    "element": STRING, "branch": STRING, "commit": COMMIT,
    "settings": {**OBJECT, "description": "the evaluated spec's runtime settings"},
    "files": array(OBJECT), "cases": array(_CASE), "summary": EVAL_SUMMARY,
    "warnings": array(STRING), "recorded": BOOLEAN, "at": STRING},
    ["element", "branch", "commit", "settings", "files", "cases", "summary", "warnings",
     "recorded", "at"])


def _scopes(call: OpCall) -> bool:
    """Whether the element scopes by subject on any branch (or for this call): over its own
    memories an eval then keeps scoping on, whatever the evaluated spec says, so no case
    shows one subject another's memories (a draft that turns scoping off is what a gate's
    ``protected`` is for, not a way to read across subjects)."""
    if settings_of(call).subject_scoping:
        return True
    return any(MemorySettings.from_properties(
        call.home.properties_for(call.element, branch)).subject_scoping
        for branch in BRANCHES)


@ops.op("eval", "POST", "eval", "read", types=MEMORY,
        summary="Run a branch's recall evals with its spec",
        request=obj({"branch": {**REV, "description": "draft (default), demo, live or a "
                                "commit id"},
                     "cases": {**array({"type": "string", "minLength": 1, "maxLength": 200},
                                       maxItems=MAX_NAMED),
                               "description": "run only these cases (FILE#ID or ID); a "
                                              "partial run is answered, not recorded"}}),
        response=_ANSWER,
        description="Runs the branch's .triform/evals/*.yaml cases with that branch's spec, "
                    "over the element's memories (writing nothing there) or a file's own "
                    "seed memories in a scratch store; answers each case's ranks and "
                    "scores, pass rate, R@k and MRR, and records a whole run in activity "
                    "and the catalog (docs/evals.md).")
def run_eval(call: OpCall) -> OpResult:
    branch = rev_of(call.body.get("branch"), "branch")
    names = call.body.get("cases")
    repo = repo_of(call)
    commit = resolve_rev(repo, branch)
    settings = MemorySettings.from_properties(properties_at(call.home, call.element, commit))
    suites = load_suites(repo, commit)
    chosen = select(suites, names)
    if names is not None:
        known = {name for s in suites for c in s.cases for name in (c.id,
                                                                  case_name(s.file, c.id))}
        for name in names:
            if name not in known:
                raise InvalidRequest("cases", f"{name!r} names no case of {branch} "
                                     f"({commit[:12]})")
    run = run_suites(call.home, call.element, chosen, [settings],
                     keep_scoping=_scopes(call))[0]
    at = now_iso()
    summary = run["summary"]
    whole = names is None
    if whole:
        call.home.catalog.evals.record(
            call.element.id, branch=branch, commit=commit,
            summary={**summary, "failing": summary["failing"][:_RECORDED_FAILING]},
            trigger="eval", principal=call.who, at=at)
    answer: dict[str, Any] = {
        "element": call.element.path, "branch": branch, "commit": commit,
        "settings": settings.to_properties(), "files": run["files"], "cases": run["cases"],
        "summary": summary, "warnings": run["warnings"], "recorded": whole, "at": at}
    detail = {"branch": branch, "commit": commit,
              **{k: summary[k] for k in ("cases", "passed", "pass_rate", "recall_at_k",
                                         "mrr")},
              "failing": summary["failing"][:_RECORDED_FAILING], "recorded": whole}
    return OpResult(answer, activity=[Activity(detail)])
