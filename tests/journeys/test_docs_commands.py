"""Every command line in README.md and docs/*.md runs, so a doc example cannot rot.

Command lines live in fenced ``sh`` blocks; every other fence names what it holds (``text``
for a synopsis or a listing, ``json``, ``yaml``, ``python``), so an untagged command cannot
slip past this test. For each file, its ``sh`` blocks run in order, each in ``bash -e -o
pipefail``, in one scratch folder, against ``triform serve`` on a fresh home with the real
model, as a reader would paste them:

* ``127.0.0.1:8765`` becomes the live server's address and ``tfm_...`` its admin token;
  ``$TOKEN`` and ``$TRIFORM_TOKEN`` hold that token and ``$TRIFORM_HOME`` the home;
* git has an author and no prompt;
* docs/*.md are read after the README, so ``triform`` is on PATH for them; README.md's own
  blocks run without it (its activate line must put it there). The scratch folder stands
  for the repository's root: its ``.venv`` links to the real one.

Comments right before a fence steer it: ``<!-- not run: REASON -->`` (the reason is
checked against :data:`NOT_RUN`, which says where else the block is covered),
``<!-- expect: TEXT -->`` (stdout must contain TEXT), ``<!-- runs until stopped: N s -->``
(a stream: it must still run, or end cleanly, after N seconds); ``<!-- mcp-config: ...
-->`` marks an MCP client's configuration, which ``tests/api/test_mcp_http.py`` runs.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.helpers import ROOT, Served

FILES = ["README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md"))]
LANGUAGES = {"sh", "text", "json", "yaml", "python"}
#: Blocks that do not run here, and what covers them instead.
NOT_RUN = {
    "make serve runs in tests/journeys/test_first_run.py; make test is this suite itself",
    "needs a PostgreSQL server: tests/journeys/test_postgres_home.py runs these commands "
    "against one",
    "needs a PostgreSQL server: tests/journeys/test_many_workers.py runs these commands "
    "against one",
    "needs a PostgreSQL server: tests/journeys/test_backup_postgres.py runs these commands "
    "against one",
    "needs a server started with its metrics token: tests/api/test_metrics.py runs these "
    "commands against one",
}
_FENCE = re.compile(r"((?:^<!-- [^\n]+ -->\n)*)^```(\w*)\n(.*?)^```\n", re.S | re.M)


@dataclass
class Block:
    file: str
    line: int
    language: str
    code: str
    not_run: str | None = None
    expect: list[str] = field(default_factory=list)
    runs_until_stopped: float | None = None


def blocks(file: str) -> list[Block]:
    text = (ROOT / file).read_text()
    found = []
    for match in _FENCE.finditer(text):
        block = Block(file, text.count("\n", 0, match.start(2)) + 1, match[2], match[3])
        for directive in re.findall(r"<!-- (.+?) -->", match[1]):
            key, _, value = directive.partition(":")
            if key == "not run":
                block.not_run = value.strip()
            elif key == "expect":
                block.expect.append(value.strip())
            elif key == "runs until stopped":
                block.runs_until_stopped = float(value.strip().removesuffix("s").strip())
            elif key == "mcp-config":
                pass    # a client's configuration: tests/api/test_mcp_http.py runs it
            else:
                raise AssertionError(f"{file}:{block.line}: unknown directive {directive!r}")
        found.append(block)
    return found


def test_every_fence_says_what_it_holds() -> None:
    untagged = [f"{b.file}:{b.line}" for file in FILES for b in blocks(file)
                if b.language not in LANGUAGES]
    assert untagged == [], "tag these fences (sh, text, json, yaml, python)"
    assert sum(b.language == "sh" for file in FILES for b in blocks(file)) >= 8


def test_every_block_left_out_says_where_it_is_covered() -> None:
    for file in FILES:
        for block in blocks(file):
            if block.not_run is not None:
                assert block.not_run in NOT_RUN, f"{file}:{block.line}: {block.not_run}"


def run(block: Block, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    argv = ["bash", "-e", "-o", "pipefail", "-c", block.code]
    if block.runs_until_stopped is None:
        return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=300)
    process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=block.runs_until_stopped)
        code = process.returncode
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 15)
        out, err = process.communicate(timeout=30)
        code = 0     # still running when stopped: what a stream does
    return subprocess.CompletedProcess(argv, code, out, err)


@pytest.mark.parametrize("file", [f for f in FILES if any(b.language == "sh" and
                                                          b.not_run is None
                                                          for b in blocks(f))])
def test_the_command_lines_of(file: str, serve: Callable[..., Served], tmp_path: Path,
                              git_env: dict[str, str]) -> None:
    srv = serve(embedder=None)
    assert srv.token
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (scratch / ".venv").symlink_to(ROOT / ".venv")
    venv_bin = str(ROOT / ".venv" / "bin")
    bare = ":".join(p for p in git_env["PATH"].split(":") if p.rstrip("/") != venv_bin)
    path = bare if file == "README.md" else f"{venv_bin}:{bare}"
    env = {**git_env, "PATH": path, "TOKEN": srv.token, "TRIFORM_TOKEN": srv.token,
           "TRIFORM_HOME": str(srv.home)}
    ran = 0
    for block in blocks(file):
        if block.language != "sh" or block.not_run is not None:
            continue
        block.code = block.code.replace("127.0.0.1:8765", f"127.0.0.1:{srv.port}") \
            .replace("tfm_...", srv.token)
        done = run(block, scratch, env)
        where = f"{file}:{block.line}"
        assert done.returncode == 0, f"{where} failed:\n{block.code}\n{done.stdout}\n" \
                                     f"{done.stderr}"
        for text in block.expect:
            assert text in done.stdout, f"{where}: {text!r} not in\n{done.stdout}"
        ran += 1
    assert ran
