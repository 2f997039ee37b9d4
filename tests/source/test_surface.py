"""source/__init__.py: the one public surface of the git layer, sealed from pygit2/dulwich."""

from __future__ import annotations

import inspect

import source


def test_every_public_name_exists() -> None:
    missing = [n for n in source.__all__ if not hasattr(source, n)]
    assert not missing
    assert len(set(source.__all__)) == len(source.__all__)


def test_no_public_signature_hands_out_pygit2_or_dulwich() -> None:
    """Upper layers never drive pygit2 or dulwich: nothing public takes or returns their types."""
    leaks = []
    for name in source.__all__:
        obj = getattr(source, name)
        if not callable(obj) or inspect.isclass(obj):
            continue
        for part, ann in [*((p.name, p.annotation) for p in
                            inspect.signature(obj).parameters.values()),
                          ("return", inspect.signature(obj).return_annotation)]:
            if any(lib in str(ann) for lib in ("pygit2", "dulwich")):
                leaks.append(f"{name}({part}: {ann})")
    assert not leaks
    assert "open_repo" not in source.__all__         # it yields a pygit2.Repository
