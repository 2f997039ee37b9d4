"""Every error of the element layer: one shape, a docstring, exported, and documented."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

import element
from element import ERROR_CLASSES, ElementError, error_body

DOCS = "\n".join(p.read_text() for p in (Path(__file__).resolve().parents[2] / "docs")
                 .glob("*.md"))


def _errors() -> list[tuple[object, type[ElementError]]]:
    found = []
    for info in pkgutil.walk_packages(element.__path__, "element."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, ElementError) and cls.__module__ == module.__name__:
                found.append((module, cls))
    return found


def test_every_element_error_has_the_shape_and_is_documented() -> None:
    errors = _errors()
    assert len(errors) >= 20
    codes: dict[str, str] = {}
    for module, cls in errors:
        assert cls.__doc__ and cls.__doc__.strip(), cls
        assert cls.error_class in ERROR_CLASSES, cls
        assert cls.__name__ in getattr(module, "__all__", ()), cls
        if cls is not ElementError:
            assert codes.setdefault(cls.code, cls.__name__) == cls.__name__, \
                f"{cls.code} is used by {codes[cls.code]} and {cls.__name__}"
            assert f"| `{cls.__name__}` | `{cls.code}` | {cls.error_class} |" in DOCS, cls


def test_error_body_is_the_one_shape_and_hides_the_unexpected() -> None:
    mine = error_body(element.InvalidRequest("limit", "must be from 1 to 100"))
    assert mine == {"error": {"code": "INVALID_REQUEST", "class": "validation",
                              "retryable": False, "message": "limit: must be from 1 to 100"}}
    other = error_body(KeyError("/home/secret/path"))
    assert other["error"]["code"] == "INTERNAL" and "secret" not in str(other)
