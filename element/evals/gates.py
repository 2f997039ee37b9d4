"""Promotion gates: what ``source_promote`` checks before demo or live moves (docs/evals.md).

A memory element's spec may declare::

    promotion_gates:
      eval: {min_pass_rate: 0.95, no_regression: true}
      protected: [subject_scoping, conscious_access, max_per_subject]

Both specs' gates apply, the target's (what is in force there, which a promotion must not
be able to escape) and the candidate's (what it declares for itself): the highest
``min_pass_rate``, ``no_regression`` if either asks, every property either protects, and,
once the target declares gates, ``promotion_gates`` itself.

* **protected**: a promotion that changes a protected property needs an admin of the
  circle, whatever the op's level (Write), and a ``reason``; a member's is refused
  (``ADMIN_ONLY``, 403).
* **eval**: the candidate commit's recall cases run with the candidate's spec, over the
  same memories an ``eval`` would use; cases the target has and the candidate dropped run
  too (deleting a failing case does not pass the gate). ``min_pass_rate``: the pass rate
  must reach it. ``no_regression``: the same cases also run with the target's spec, and no
  case that passes there may fail with the candidate's. A failing gate refuses the
  promotion (``PROMOTION_GATE_FAILED``, 409), naming the failing cases; an admin may pass it
  with ``force: true`` and a ``reason``.

Every refusal and every forced or protected promotion is in the element's activity, with
its reason; the candidate's eval is recorded in the catalog (trigger ``promotion``). The
commit that was checked is the commit that moves (``source.promote(commit=...)``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index import MemorySettings
from source import PROMOTIONS, SourceError, read_spec, resolve_rev

from ..catalog import now_iso
from ..errors import ElementError, InvalidRequest
from ..governance.guard import AdminOnly, may_govern
from ..spec.spec_file import normalize_spec
from .cases import Suite, load_suites
from .runner import run_suites

if TYPE_CHECKING:
    from ..catalog import Element
    from ..governance.access import Principal
    from ..home import Home

__all__ = ["PromotionRefused", "Gates", "gates_of", "properties_at", "check_promotion",
           "GateCheck", "MAX_REASON", "gated_branches"]

log = logging.getLogger(__name__)

MAX_REASON = 500
#: Failing cases an error message names before saying how many more.
_NAMED = 10


class PromotionRefused(ElementError):
    """A promotion gate failed: the eval's pass rate, or a case that regressed."""

    code = "PROMOTION_GATE_FAILED"
    error_class = "conflict"


@dataclass(frozen=True)
class Gates:
    """The gates a promotion meets (both specs' together)."""

    min_pass_rate: float | None = None
    no_regression: bool = False
    protected: frozenset[str] = frozenset()

    @property
    def evals(self) -> bool:
        return self.min_pass_rate is not None or self.no_regression


def gates_of(target: Mapping[str, Any], candidate: Mapping[str, Any]) -> Gates | None:
    """The gates of a promotion from properties ``candidate`` onto properties ``target``;
    None when neither declares any."""
    declared = [g for g in (target.get("promotion_gates"), candidate.get("promotion_gates"))
                if isinstance(g, Mapping)]
    if not declared:
        return None
    rates = [float(g["eval"]["min_pass_rate"]) for g in declared
             if isinstance(g.get("eval"), Mapping) and g["eval"].get("min_pass_rate")
             is not None]
    protected = {str(p) for g in declared for p in g.get("protected") or []}
    if isinstance(target.get("promotion_gates"), Mapping):
        protected.add("promotion_gates")
    return Gates(max(rates) if rates else None,
                 any(isinstance(g.get("eval"), Mapping) and g["eval"].get("no_regression")
                     for g in declared),
                 frozenset(protected))


def properties_at(home: Home, element: Element, commit: str) -> dict[str, Any]:
    """The properties of ``element``'s spec at ``commit``, checked (defaults filled)."""
    raw = read_spec(home.repo_path(element), branch=commit)
    if raw is None:
        raw = {}
    spec = normalize_spec(raw, circle=element.circle, element_type_name=element.element_type,
                          slug=element.slug)
    return dict(spec["properties"])


def gated_branches(home: Home, element: Element) -> list[str]:
    """The branches among demo and live whose spec declares ``promotion_gates``: an
    overwrite by import replaces them without a promotion, so only an admin may."""
    if element.element_type != "memory":
        return []
    gated = []
    for branch in PROMOTIONS:
        try:
            raw = read_spec(home.repo_path(element), branch=branch)
        except SourceError:
            continue
        props = raw.get("properties") if isinstance(raw, Mapping) else None
        if isinstance(props, Mapping) and props.get("promotion_gates"):
            gated.append(branch)
    return gated


@dataclass
class GateCheck:
    """What :func:`check_promotion` decided: the commit to promote and the report."""

    commit: str | None
    report: dict[str, Any] = field(default_factory=dict)


def _with_kept(candidate: list[Suite], target: list[Suite]) -> list[Suite]:
    """The candidate's suites, plus the target's cases the candidate no longer has."""
    have = {(s.file, c.id) for s in candidate for c in s.cases}
    kept = []
    for suite in target:
        cases = [c for c in suite.cases if (suite.file, c.id) not in have]
        if cases:
            kept.append(Suite(suite.file, cases, suite.seeds, origin="kept"))
    return candidate + kept


def _target_suites(repo: Path, commit: str, path: str) -> list[Suite]:
    try:
        return load_suites(repo, commit)
    except SourceError as exc:
        # Validated at push when it was pushed; a target that cannot be read must not
        # block every promotion after it.
        log.warning("the evals of %s at %s cannot be read: %s", path, commit[:12], exc)
        return []


def _named(names: list[str]) -> str:
    more = f" (+{len(names) - _NAMED} more)" if len(names) > _NAMED else ""
    return ", ".join(names[:_NAMED]) + more


def _refuse(home: Home, element: Element, principal: Principal, exc: ElementError,
            detail: dict[str, Any]) -> ElementError:
    """Record the refusal in the element's activity (who tried what is the point of a
    gate), then answer ``exc``."""
    try:
        home.catalog.record_activity(element, "source_promote_refused", principal.label,
                                     {**detail, "code": exc.code, "message": exc.message})
    except Exception:       # the refusal stands whether or not it could be recorded
        log.exception("recording a refused promotion of %s failed", element.path)
    return exc


def _protected(gates: Gates, target: Mapping[str, Any], candidate: Mapping[str, Any]
               ) -> list[str]:
    return sorted(p for p in gates.protected if target.get(p) != candidate.get(p))


def _eval_gate(home: Home, element: Element, gates: Gates, suites: list[Suite],
               target_props: Mapping[str, Any], candidate_props: Mapping[str, Any]
               ) -> dict[str, Any]:
    specs = [MemorySettings.from_properties(candidate_props)]
    if gates.no_regression:
        specs.append(MemorySettings.from_properties(target_props))
    runs = run_suites(home, element, suites, specs)
    summary = runs[0]["summary"]
    problems: list[str] = []
    if gates.min_pass_rate is not None and summary["pass_rate"] is not None \
            and summary["pass_rate"] < gates.min_pass_rate:
        problems.append(f"pass rate {summary['pass_rate']:.2f} is under min_pass_rate "
                        f"{gates.min_pass_rate:g} (failing: {_named(summary['failing'])})")
    regressions: list[str] = []
    if gates.no_regression:
        before = {c["name"] for c in runs[1]["cases"] if c["passed"]}
        regressions = [name for name in summary["failing"] if name in before]
        if regressions:
            problems.append(f"cases that pass with the target's spec fail with this one "
                            f"(no_regression): {_named(regressions)}")
    return {"cases": summary["cases"], "passed": summary["passed"],
            "pass_rate": summary["pass_rate"], "recall_at_k": summary["recall_at_k"],
            "mrr": summary["mrr"], "failing": summary["failing"],
            "min_pass_rate": gates.min_pass_rate, "no_regression": gates.no_regression,
            "baseline_pass_rate": runs[1]["summary"]["pass_rate"] if len(runs) > 1 else None,
            "regressions": regressions, "ok": not problems, "problems": problems,
            "summary": summary,
            "warnings": ["EVAL_NO_CASES: the gate has no case to run"]
            if not summary["cases"] else []}


def check_promotion(home: Home, element: Element, principal: Principal, to: str, *,
                    force: bool = False, reason: str | None = None) -> GateCheck:
    """Check the promotion of ``element`` to ``to`` against its gates; the commit to move.

    :raise AdminOnly: ``force`` by a non-admin, or a non-admin's promotion changes a
        protected property.
    :raise InvalidRequest: ``force`` or a protected change without a ``reason``.
    :raise PromotionRefused: the eval gate failed and was not forced.
    :raise EvalTooLarge, EvalInvalid: the gate's eval cannot run.
    """
    admin = may_govern(principal)
    if force and not admin:
        raise AdminOnly("force: only an admin of the circle overrides promotion gates")
    if force and not reason:
        raise InvalidRequest("reason", "is required with force: say why the gates are "
                             "overridden (it is recorded in activity)")
    if element.element_type != "memory" or to not in PROMOTIONS:
        return GateCheck(None)
    repo = home.repo_path(element)
    candidate = resolve_rev(repo, PROMOTIONS[to])
    target = resolve_rev(repo, to)
    if candidate == target:
        return GateCheck(candidate)
    target_props = properties_at(home, element, target)
    candidate_props = properties_at(home, element, candidate)
    gates = gates_of(target_props, candidate_props)
    if gates is None:
        return GateCheck(candidate)
    detail: dict[str, Any] = {"to": to, "commit": candidate, "previous": target}
    changed = _protected(gates, target_props, candidate_props)
    report: dict[str, Any] = {"protected": changed, "eval": None, "forced": force,
                              "reason": reason}
    if changed and not admin:
        raise _refuse(home, element, principal, AdminOnly(
            f"promoting to {to} changes {', '.join('properties.' + p for p in changed)}, "
            "protected by promotion_gates: only an admin of the circle promotes that "
            "change (with a reason)"), {**detail, "protected": changed})
    if changed and not reason:
        raise InvalidRequest("reason", f"is required: this promotion changes protected "
                             f"{', '.join('properties.' + p for p in changed)} (the reason "
                             "is recorded in activity)")
    if gates.evals:
        suites = _with_kept(load_suites(repo, candidate),
                            _target_suites(repo, target, element.path))
        verdict = _eval_gate(home, element, gates, suites, target_props, candidate_props)
        summary = verdict.pop("summary")
        home.catalog.evals.record(element.id, branch=PROMOTIONS[to], commit=candidate,
                                  summary=summary, trigger="promotion",
                                  principal=principal.label, at=now_iso())
        report["eval"] = verdict
        if not verdict["ok"] and not force:
            raise _refuse(home, element, principal, PromotionRefused(
                f"promotion to {to} refused by promotion_gates: "
                + "; ".join(verdict["problems"])),
                {**detail, "failing": verdict["failing"][:50],
                 "regressions": verdict["regressions"][:50]})
    return GateCheck(candidate, report)
