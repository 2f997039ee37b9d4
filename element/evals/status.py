"""What the catalog remembers of an element's evals, for ``source_branches`` (each branch's
last run beside its tip, and draft's scores against live's) and ``batch_stats`` (the
latest runs of a circle's memory elements, weighted by their cases)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..catalog import Catalog

__all__ = ["eval_status", "weighted"]

SCORES = ("pass_rate", "recall_at_k", "mrr")


def eval_status(catalog: Catalog, element_id: str, tips: Mapping[str, str | None]
                ) -> dict[str, Any]:
    """Each branch's last recorded eval (``current``: it ran at the branch's tip ``tips``
    names), and ``draft_vs_live``: draft's scores minus live's (None until both ran)."""
    runs = catalog.evals.latest([element_id])[element_id]
    last = {name: {**runs[name], "current": runs[name]["commit"] == tip}
            if name in runs else None for name, tip in tips.items()}
    draft, live = last.get("draft"), last.get("live")
    diff = None
    if draft is not None and live is not None:
        diff = {key: None if draft[key] is None or live[key] is None
                else round(draft[key] - live[key], 4) for key in SCORES}
        diff.update(draft_commit=draft["commit"], live_commit=live["commit"])
    return {"last": last, "draft_vs_live": diff}


def weighted(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Several elements' runs as one: their cases summed, each score averaged with every
    run weighted by its cases (a run of 40 cases counts four times one of 10)."""
    cases = sum(int(r["cases"]) for r in runs)
    out: dict[str, Any] = {"elements": len(runs), "cases": cases,
                           "passed": sum(int(r["passed"]) for r in runs)}
    for key in SCORES:
        scored = [(r[key], int(r["cases"])) for r in runs if r[key] is not None and r["cases"]]
        weight = sum(n for _, n in scored)
        out[key] = round(sum(v * n for v, n in scored) / weight, 4) if weight else None
    return out
