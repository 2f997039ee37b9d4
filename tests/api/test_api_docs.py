"""docs/api.md documents every op's body: its Bodies section is generated from the schemas
the op path checks (``python -m api.openapi --bodies``) and must not go stale."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from api.op_docs import bodies_markdown, type_text
from element import registry

ROOT = Path(__file__).resolve().parents[2]


def section(name: str) -> str:
    text = (ROOT / "docs" / "api.md").read_text()
    start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
    assert start in text and end in text
    return text.split(start, 1)[1].split(end, 1)[0]


def test_the_bodies_section_is_current() -> None:
    assert section("bodies") == bodies_markdown(), (
        "docs/api.md's Bodies section is stale: regenerate it with "
        "`python -m api.openapi --bodies` and paste it between the bodies markers")


def test_the_command_prints_the_section() -> None:
    done = subprocess.run([sys.executable, "-m", "api.openapi", "--bodies"], cwd=ROOT,
                          capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout == bodies_markdown()


def test_every_op_has_its_request_and_answer_documented() -> None:
    text = section("bodies")
    for op in registry():
        block = text.split(f"### `{op.name}`\n", 1)[1].split("\n### ", 1)[0]
        assert f"`{op.method} /ops/{op.path}`" in block, op.name
        assert "| body field |" in block or "No body." in block or "Body: `{}`" in block \
            or "Body: `application/x-ndjson`" in block      # import_memories
        assert "| answer field |" in block or "Answer:" in block, op.name
        for field in (op.request or {}).get("properties", {}):
            assert f"| `{field}` |" in block, (op.name, field)


def test_store_batch_names_its_items_and_their_fields() -> None:
    block = section("bodies").split("### `store_batch`\n", 1)[1].split("\n### ", 1)[0]
    row = next(line for line in block.splitlines() if line.startswith("| `memories` |"))
    assert "(1..256 items)" in row and "yes" in row
    for field in ("content: string", "category: ", "subject_type?", "idempotency_key?"):
        assert field in row, field


def test_types_read_as_a_user_writes_them() -> None:
    assert type_text({"type": "integer", "minimum": 1, "maximum": 100}) == "integer 1..100"
    assert type_text({"anyOf": [{"type": "string"}, {"type": "null"}]}) == "string or null"
    assert type_text({"type": "array", "items": {"$ref": "#/components/schemas/Memory"}}) \
        == "[Memory]"
    assert type_text({"type": "object", "properties": {"a": {"type": "boolean"},
                                                       "b": {"enum": ["x", "y"]}},
                      "required": ["a"]}) == '{a: boolean, b?: "x" | "y"}'
    assert re.fullmatch(r"\{string: integer >= 0\}", type_text(
        {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}))
