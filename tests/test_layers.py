"""The layers import downward only: api -> element -> (source, index).

Checked on the source text with ``ast`` (as dulwich's test_source.py does), so a stray
import fails here before it tangles the layers.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("api", "element", "source", "index")
ALLOWED = {
    "api": {"api", "element", "source", "index"},
    "element": {"element", "source", "index"},
    "source": {"source"},
    "index": {"index"},
}


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def modules() -> list[tuple[str, Path]]:
    return [(layer, p) for layer in LAYERS for p in sorted((ROOT / layer).rglob("*.py"))]


@pytest.mark.parametrize("layer,path", modules(), ids=lambda v: str(v).split("main/")[-1])
def test_imports_point_down(layer: str, path: Path) -> None:
    wrong = (imported_packages(path) & set(LAYERS)) - ALLOWED[layer]
    assert not wrong, f"{path.relative_to(ROOT)} ({layer}) imports {sorted(wrong)}"


@pytest.mark.parametrize("layer,path", [m for m in modules() if m[0] != "api"],
                         ids=lambda v: str(v).split("main/")[-1])
def test_only_api_knows_flask(layer: str, path: Path) -> None:
    assert "flask" not in imported_packages(path), f"{path.relative_to(ROOT)} imports flask"


def test_the_checker_sees_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from element.home import Home\nimport api.app\n")
    assert imported_packages(bad) >= {"element", "api"}
