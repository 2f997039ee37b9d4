"""Property-based run of schemathesis (its CLI, as a subprocess) against a live server.

The server is the ``server`` fixture (the real app on 127.0.0.1, hashing embedder). The run
is bounded: the examples and fuzzing phases, ``MAX_EXAMPLES`` cases per operation, one
worker, a fixed seed; about 150 cases in well under a minute. ``TRIFORM_SCHEMATHESIS_FULL=1``
adds the coverage and stateful phases and more examples (a few thousand cases).

Checks: no 5xx, status codes, content types, headers and bodies as the document says.
When it fails, fix the op's declared schemas (beside its handler in ``element/ops/``) or
the server, never the checks.

Left out of the run, each for a reason:

* ``disable``: it would turn the element off for the rest of the run (409 everywhere);
* ``GET /api/events``: a stream, not a request/response (``test_events.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from api.openapi import operation_id, variants
from element import registry

pytest.importorskip("schemathesis")

MAX_EXAMPLES = 2
FULL = os.environ.get("TRIFORM_SCHEMATHESIS_FULL") == "1"
CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
          "response_headers_conformance,response_schema_conformance")


def excluded_operation_ids() -> list[str]:
    # import_memories: schemathesis has no serializer for its NDJSON body;
    # tests/api/test_transfer.py sends it bad lines, cut files and foreign versions.
    names = {"disable", "import_memories"}
    return sorted(operation_id(registry()[n], v) for n in names
                  for v in variants(registry()[n]))


def test_schemathesis_finds_nothing(server, tmp_path: Path) -> None:
    config = tmp_path / "schemathesis.toml"
    # Path parameters: the fixture's circle and memory element, so cases reach the ops
    # instead of 404 (unknown elements are tested in test_auth_and_errors.py).
    config.write_text('[parameters]\n"path.circle" = "demo"\n"path.slug" = "memory"\n')
    report = tmp_path / "report.json"
    command = [
        sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run",
        f"{server.url}/openapi.json",
        "-H", f"Authorization: Bearer {server.tokens['admin']}",
        "--checks", CHECKS, "--seed", "20261130", "--workers", "1", "--no-color",
        "--generation-database", "none", "--request-timeout", "30",
        "--max-examples", str(20 if FULL else MAX_EXAMPLES),
        "--phases", "examples,coverage,fuzzing,stateful" if FULL else "examples,fuzzing",
        "--exclude-path", "/api/events",
        "--report", "json", "--report-json-path", str(report),
    ]
    for op_id in excluded_operation_ids():
        command += ["--exclude-operation-id", op_id]
    run = subprocess.run(command, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "SCHEMATHESIS_HOOKS": ""})
    summary = summarize(report)
    print(f"schemathesis: {summary}")
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
    assert summary["operations"] > 30, summary
    assert summary["cases"] >= summary["operations"], summary


def summarize(report: Path) -> dict[str, int]:
    """Operations tested, cases run, failures and errors, from schemathesis' JSON report."""
    if not report.exists():
        return {"operations": 0, "cases": 0, "failures": -1, "errors": -1}
    data = json.loads(report.read_text())
    return {"operations": int(data["operations"]["tested"]),
            "cases": int(data["test_cases"]["generated"]),
            "failures": len(data["failures"]),
            "errors": sum(int(e.get("count", 1)) for e in data["errors"])}
