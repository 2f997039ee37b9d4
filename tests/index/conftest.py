"""Fixtures for the memory runtime tests: real stores in tmp dirs, real embedders.

The Hypothesis profile ``triform-index`` is deterministic (derandomized, no example
database, no deadline); test modules apply it with
``@settings(settings.get_profile("triform-index"))`` rather than loading it globally, so
other packages' tests keep their own profile.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from index import HashingEmbedder, MemorySettings, MemoryStore

settings.register_profile(
    "triform-index", derandomize=True, database=None, deadline=None, max_examples=40,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                           HealthCheck.data_too_large])


class Clock:
    """A settable clock: tests move time instead of sleeping."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FlakyEmbedder(HashingEmbedder):
    """A real embedder that raises while ``failing`` is set (an outage), then recovers."""

    def __init__(self, dim: int = 256, *, failing: bool = False) -> None:
        super().__init__(dim)
        self.failing = failing
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if self.failing:
            raise ConnectionError("embedding service unavailable")
        return super().embed(texts)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def embedder() -> HashingEmbedder:
    return HashingEmbedder(256)


@pytest.fixture
def defaults() -> MemorySettings:
    return MemorySettings()


@pytest.fixture
def make_store(tmp_path: Path, embedder: HashingEmbedder,
               clock: Clock) -> Iterator[Callable[..., MemoryStore]]:
    """Factory: ``make_store(**overrides)`` opens a store in ``tmp_path/mem``; all are closed."""
    opened: list[MemoryStore] = []

    def factory(**overrides: object) -> MemoryStore:
        kwargs: dict = {"embedder": embedder, "clock": clock}
        kwargs.update(overrides)
        directory = kwargs.pop("directory", tmp_path / "mem")
        store = MemoryStore(directory, **kwargs)
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


@pytest.fixture
def make_flaky() -> Callable[..., FlakyEmbedder]:
    """Factory for :class:`FlakyEmbedder` (test modules cannot import conftest)."""
    return FlakyEmbedder
