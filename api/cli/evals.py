"""``triform eval``: run a memory element's recall cases on a branch and print a table.

The ``eval`` op (docs/evals.md) in-process on a stopped home, through the server on a
served one (it reads the memories the server holds). A table by default, the op's answer
with ``--json``. Exit 0 when every case passed, 3 when one failed (so a script or CI can
stop on it), 1 when the op refused, as for every command.
"""

from __future__ import annotations

import argparse
from typing import Any

from .common import guarded, home_of, print_json, run_op
from .remote import remote_eval, served

__all__ = ["cmd_eval", "print_table", "EXIT_FAILED_CASES"]

#: Some case failed (the table says which and why).
EXIT_FAILED_CASES = 3


def _score(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _ranks(case: dict[str, Any]) -> str:
    """Each expected target's rank, ``-`` for one not found (past the search's depth)."""
    return ",".join(str(e["rank"] or "-") for e in case["expected"]) or "-"


def print_table(answer: dict[str, Any]) -> int:
    """The eval as a table on stdout; the exit code (3 when a case failed)."""
    summary = answer["summary"]
    print(f"{answer['element']}  {answer['branch']} @ {answer['commit'][:12]}  "
          f"({summary['cases']} cases)")
    rows = [("case", "memories", "k", "ranks", "recall", "rr", "result")]
    for case in answer["cases"]:
        rows.append((case["name"], case["memories"], str(case["k"]), _ranks(case),
                     _score(case["recall"]), _score(case["reciprocal_rank"]),
                     "pass" if case["passed"] else "FAIL  " + "; ".join(case["reasons"])))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True))
              + "  " + row[-1])
    print(f"pass rate {_score(summary['pass_rate'])} ({summary['passed']} of "
          f"{summary['cases']})  R@k {_score(summary['recall_at_k'])}  "
          f"MRR {_score(summary['mrr'])}")
    for warning in answer["warnings"]:
        print(f"warning: {warning}")
    return EXIT_FAILED_CASES if summary["failed"] else 0


@guarded
def cmd_eval(args: argparse.Namespace) -> int:
    def show(answer: dict[str, Any]) -> int:
        if args.json:
            print_json(answer)
            return EXIT_FAILED_CASES if answer["summary"]["failed"] else 0
        return print_table(answer)
    server = served(args)
    if server is not None:
        return remote_eval(args, server, show)
    body: dict[str, Any] = {"branch": args.branch}
    if args.case:
        body["cases"] = args.case
    with home_of(args) as home:
        result = run_op(home, args.element, "eval", body=body)
    assert isinstance(result.body, dict)
    return show(result.body)
