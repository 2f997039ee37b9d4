"""source/errors.py: one shape, every code documented, public API importable."""

from __future__ import annotations

import inspect
from pathlib import Path

import source
import source.errors as errors

DOC = (Path(__file__).resolve().parents[2] / "docs" / "source.md").read_text()
CLASSES = {"validation", "unauthorized", "forbidden", "not_found", "conflict", "too_large",
           "rate_limited", "internal", "unavailable", "storage_full"}


def _errors() -> list[type[errors.SourceError]]:
    return [c for _, c in inspect.getmembers(errors, inspect.isclass)
            if issubclass(c, errors.SourceError)]


def test_every_error_has_the_shape_and_is_documented() -> None:
    codes = set()
    for cls in _errors():
        assert cls.__doc__ and cls.__doc__.strip(), cls
        assert cls.error_class in CLASSES, cls
        assert cls.code.startswith("SOURCE_") and cls.code not in codes, cls
        codes.add(cls.code)
        assert f"| `{cls.__name__}` | `{cls.code}` | {cls.error_class}" in DOC, cls
        assert cls.__name__ in errors.__all__ and cls.__name__ in source.__all__


def test_ref_moved_is_retryable_conflict() -> None:
    e = errors.RefMoved("draft", 50)
    assert (e.code, e.error_class, e.retryable) == ("SOURCE_REF_MOVED", "conflict", True)
    assert errors.MergeConflict("a" * 40, "b" * 40, [{"path": "x"}]).conflicts == [{"path": "x"}]


def test_public_api_names_resolve() -> None:
    for name in source.__all__:
        assert getattr(source, name) is not None
