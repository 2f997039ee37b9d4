"""Recall evals of memory elements, and the promotion gates they feed (docs/evals.md).

``cases.py`` reads a commit's ``.triform/evals/*.yaml`` (parsed by ``source``) and checks
them as the memory runtime would; ``runner.py`` runs them with a branch's settings over
the element's memories or the files' own seed memories in a scratch store; ``gates.py``
decides whether ``source_promote`` may move demo or live; ``status.py`` reads back the runs
the catalog kept. The ``eval`` op is in
``element/ops/evals.py``; the runs are kept in the catalog (``catalog/evals.py``).
"""

from .cases import Case, Suite, Target, case_name, eval_reasons, load_suites
from .gates import (GateCheck, Gates, PromotionRefused, check_promotion, gated_branches,
                    gates_of, properties_at)
from .runner import DEPTH, SUBJECT_SCOPING_KEPT, EvalTooLarge, run_suites, select, summarize
from .status import eval_status, weighted

__all__ = ["Case", "Suite", "Target", "case_name", "eval_reasons", "load_suites", "GateCheck",
           "Gates", "PromotionRefused", "check_promotion", "gated_branches", "gates_of",
           "properties_at",
           "DEPTH", "SUBJECT_SCOPING_KEPT", "EvalTooLarge", "run_suites", "select",
           "summarize", "eval_status", "weighted"]
