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
    # What the upper layers need (issue 8): they import these from index, nothing else.
    needed = ("MemoryStore", "MemoryBackend", "MemorySettings", "StoreResult",
              "SearchResult", "HealthItem", "Memory", "validate_new", "validate_subject",
              "CATEGORIES", "SUBJECT_TYPES", "MAX_CONTENT_BYTES", "MAX_AGENT_CHARS",
              "MAX_KEY_CHARS", "MAX_SUBJECT_ID_CHARS", "LIST_LIMIT_MAX", "SEARCH_LIMIT_MAX",
              "Embedder", "HashingEmbedder", "load_embedder", "provision_model",
              "default_cache_dir", "StorageFull", "LogMissing", "IdempotencyKeyReused")
    for name in needed:
        assert name in index.__all__, name
    for name in index.__all__:
        assert hasattr(index, name), name
    errors_exported = {n for n in index.__all__
                       if isinstance(getattr(index, n), type)
                       and issubclass(getattr(index, n), errors.StoreError)}
    assert errors_exported == set(errors.__all__)
