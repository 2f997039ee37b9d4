"""docs/agents.md names every module of element/agents/: a reader who opens the table
finds each reading the subconscious makes, and a new module cannot land unlisted."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_agents_module_is_in_the_table() -> None:
    table = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(?:element/agents/)?([a-z_]+\.py)`", table))
    modules = {p.name for p in (ROOT / "element" / "agents").glob("*.py")
               if p.name != "__init__.py"}
    assert modules - named == set(), "modules missing from docs/agents.md"
    assert modules, "element/agents/ holds no modules"
