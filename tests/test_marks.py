"""The marks that split the fast path from the full one are given by tests/conftest.py from
where a test lives and what it uses, so a test written today is marked without saying so.
"""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

#: A test of each kind, and the marks it must carry (and none of the others it names).
EXPECTED = {
    "tests/journeys/test_cli_memory.py::test_memory_commands_through_the_server":
        {"journey", "process"},
    "tests/index/test_store.py::test_store_and_get[postgres]": {"pg"},
    "tests/index/test_store.py::test_store_and_get[file]": set(),
    "tests/api/test_console_browser.py::test_sign_in_find_edit_and_forget": {"browser"},
    "tests/api/test_cli_grammar.py::test_version": {"process"},
    "tests/api/test_cli_grammar.py::test_the_vocabularies_are_the_layers_own": set(),
    "tests/packaging/test_wheels.py::test_pip_check_and_version": {"package", "process"},
    "tests/packaging/test_wheels.py::test_a_new_user_journey_from_the_installed_wheels":
        {"package", "process", "model"},
}
MARKS = ("journey", "package", "bench", "browser", "pg", "model", "process", "slow")


def collected(mark: str) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-m", mark,
                           *sorted({node.split("::")[0] for node in EXPECTED})],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    return {line.strip() for line in done.stdout.splitlines() if "::" in line}


def test_each_kind_of_test_gets_its_marks() -> None:
    by_mark = {mark: collected(mark) for mark in MARKS}
    for node, marks in EXPECTED.items():
        got = {mark for mark in MARKS if node in by_mark[mark]}
        assert got == marks, (node, got)
