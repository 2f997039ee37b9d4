"""Fixtures of the subconscious's tests that read with the real model."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def model(model_cache: Any) -> Any:
    """The real embedder, loaded once per test process: the rules' tests on both backends
    read meaning with it (``tests/element/speaker.py`` opens their stores)."""
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)
