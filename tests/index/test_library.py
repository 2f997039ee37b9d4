"""index/ is a plain library: importable alone, documented, one error shape."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
from pathlib import Path

import index
from index import errors

ROOT = Path(__file__).resolve().parents[2]


def test_importing_index_pulls_in_no_upper_layer_or_web_stack():
    code = ("import sys, index; from index import MemoryStore; "
            "bad = [m for m in ('flask', 'werkzeug', 'dulwich', 'pygit2', 'api', 'element', "
            "'source', 'yaml') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == "[]"


def test_every_module_declares_all():
    for path in sorted((ROOT / "index").glob("*.py")):
        if path.name != "__init__.py":
            assert "__all__" in path.read_text(), path.name


def test_every_error_has_the_shape_and_is_documented():
    doc = (ROOT / "docs" / "memory-runtime.md").read_text()
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass)
               if issubclass(c, errors.StoreError)]
    assert len(classes) >= 10
    for cls in classes:
        assert re.fullmatch(r"[A-Z]+(_[A-Z]+)+", cls.code), cls
        assert cls.error_class in {"validation", "not_found", "conflict", "unprocessable",
                                   "internal", "storage_full", "unavailable"}, cls
        assert isinstance(cls.retryable, bool)
        assert cls.__doc__ and cls.__doc__.strip(), cls
        assert f"`{cls.code}`" in doc, cls.code


def test_public_api_is_exported():
    for name in ("MemoryStore", "MemorySettings", "StoreResult", "SearchResult",
                 "HashingEmbedder", "MemoryCapacity", "StoreLocked"):
        assert name in index.__all__ and hasattr(index, name)
