"""The TypeScript client's own suite (clients/typescript, node's test runner), run from
``make test``: ``npm ci`` from the committed lockfile, then ``npm test``, which builds the
package, type-checks the README's examples and runs every test file against a real
``triform serve`` it starts with this interpreter. Skipped, saying so, only where node
or npm is not installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "clients" / "typescript"


def run(*argv: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TRIFORM_PYTHON": sys.executable, "NO_COLOR": "1",
           "npm_config_fund": "false", "npm_config_audit": "false"}
    return subprocess.run(list(argv), cwd=PACKAGE, env=env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                    reason="node and npm are not installed: the TypeScript client's tests "
                           "(clients/typescript, npm test) cannot run here")
def test_the_typescript_client_suite_passes() -> None:
    installed = run("npm", "ci", "--no-progress", timeout=600)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    done = run("npm", "test", timeout=1200)
    summary = [line for line in done.stdout.splitlines() if line.startswith("# ")]
    assert done.returncode == 0, (done.stdout[-6000:] + "\n" + done.stderr[-3000:])
    counts = {line.split()[1]: int(line.split()[2]) for line in summary
              if len(line.split()) == 3 and line.split()[2].isdigit()}
    assert counts.get("fail") == 0 and counts.get("pass", 0) >= 30, summary
