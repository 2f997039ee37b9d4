"""clients/python/README.md, run: its install command in a fresh virtual environment that
has none of the server's dependencies, then its Python examples, in order, against a real
server. A block after ``<!-- needs: PATH -->`` runs only when the server's OpenAPI document
has a route ending in PATH (ops still being built elsewhere); a block after ``<!-- extra:
NAME -->`` runs in another fresh environment where the README's install command for that
extra ran."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "clients" / "python" / "README.md"
SERVER_PACKAGES = ("flask", "werkzeug", "waitress", "dulwich", "pygit2", "hnswlib",
                   "fastembed", "numpy", "yaml")
_BLOCK = re.compile(r"(?:<!-- (?P<kind>needs|extra): (?P<arg>\S+) -->\n)?"
                    r"```(?P<lang>\w+)\n(?P<code>.*?)```", re.S)


def blocks(lang: str, extra: str | None = None) -> list[tuple[str | None, str]]:
    """``(needs, code)`` of the README's ``lang`` blocks for ``extra`` (None: the base)."""
    found = []
    for m in _BLOCK.finditer(README.read_text()):
        block_extra = m["arg"] if m["kind"] == "extra" else None
        if m["lang"] == lang and block_extra == extra:
            found.append((m["arg"] if m["kind"] == "needs" else None, m["code"]))
    return found


def install(venv: Path, command: str, target: str) -> Path:
    """A new venv at ``venv`` where ``pip install -e TARGET`` (the README's) ran."""
    assert command.strip() == f"pip install -e {target}", command
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--disable-pip-version-check",
                    "-e", target.strip("'")], cwd=ROOT, check=True, capture_output=True)
    return venv / "bin" / "python"


@pytest.fixture(scope="module")
def clean_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv where the README's install command ran (from the repository's root)."""
    [(_, command)] = blocks("sh")
    return install(tmp_path_factory.mktemp("client-venv"), command, "clients/python")


def test_the_client_needs_none_of_the_servers_packages(clean_python: Path) -> None:
    probe = ("import importlib.util, triform_client; "
             f"print([m for m in {SERVER_PACKAGES + ('langgraph',)!r} "
             "if importlib.util.find_spec(m)])")
    done = subprocess.run([str(clean_python), "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
    without = subprocess.run([str(clean_python), "-c", "import triform_client.langgraph"],
                             capture_output=True, text=True)
    assert without.returncode == 1
    assert "pip install 'triform-client[langgraph]'" in without.stderr


def test_the_langgraph_example_runs_with_its_extra(server: Any, tmp_path: Path) -> None:
    [(_, command)] = blocks("sh", "langgraph")
    python = install(tmp_path / "venv", command, "'clients/python[langgraph]'")
    [(_, code)] = blocks("python", "langgraph")
    script = tmp_path / "langgraph_readme.py"
    script.write_text(code)
    env = {**os.environ, "TRIFORM_URL": server.url, "TOKEN": server.tokens["admin"]}
    done = subprocess.run([str(python), str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "I prefer oolong tea."
    assert lines[1].startswith("{'text': 'I prefer oolong tea.'}")
    assert lines[2:] == ["['drink']", "[('preferences', 'cleo')]"]


def test_readme_examples_run(server: Any, clean_python: Path, tmp_path: Path) -> None:
    paths = server.client().get("/openapi.json").body["paths"]
    code = [block for needs, block in blocks("python")
            if needs is None or any(p.endswith(needs) for p in paths)]
    assert len(code) >= 6
    script = tmp_path / "readme.py"
    script.write_text("\n".join(code))
    env = {**os.environ, "TRIFORM_URL": server.url, "TOKEN": server.tokens["admin"]}
    done = subprocess.run([str(clean_python), str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "404 MEMORY_NOT_FOUND not_found False" in out
    assert "MEMORY_INVALID_CATEGORY" in out
    assert "{'deleted': 1, 'ids': [" in out
    assert "store" in out and "resume after" in out
    assert "/git/demo/notes.git" in out and "True True" in out
