"""clients/python/README.md, run: its install command in a fresh virtual environment that
has none of the server's dependencies, then its Python examples, in order, against a real
server. A block after ``<!-- needs: PATH -->`` runs only when the server's OpenAPI document
has a route ending in PATH (ops still being built elsewhere)."""

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
_BLOCK = re.compile(r"(?:<!-- needs: (?P<needs>\S+) -->\n)?```(?P<lang>\w+)\n(?P<code>.*?)```",
                    re.S)


def blocks(lang: str) -> list[tuple[str | None, str]]:
    return [(m["needs"], m["code"]) for m in _BLOCK.finditer(README.read_text())
            if m["lang"] == lang]


@pytest.fixture(scope="module")
def clean_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new venv where the README's install command ran (from the repository's root)."""
    venv = tmp_path_factory.mktemp("client-venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    [(_, install)] = blocks("sh")
    assert install.strip() == "pip install -e clients/python"
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q",
                    "--disable-pip-version-check", "-e", "clients/python"],
                   cwd=ROOT, check=True, capture_output=True)
    return venv / "bin" / "python"


def test_the_client_needs_none_of_the_servers_packages(clean_python: Path) -> None:
    probe = ("import importlib.util, triform_client; "
             f"print([m for m in {SERVER_PACKAGES!r} if importlib.util.find_spec(m)])")
    done = subprocess.run([str(clean_python), "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


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
