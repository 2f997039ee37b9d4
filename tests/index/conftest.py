"""Fixtures for the memory runtime tests: real stores in tmp dirs, real embedders.

``make_store`` runs each test on both backends: ``file`` (``MemoryStore`` in a tmp dir)
and ``postgres`` (``PostgresMemoryStore`` in a real PostgreSQL, one element per test
directory, so reopening the same directory reopens the same element). A test about a
file-only behaviour (sidecars, log replay, the element lock) is marked
``@pytest.mark.file_only("why")`` and skipped on PostgreSQL with that reason.

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

from index import HashingEmbedder, MemoryBackend, MemorySettings, MemoryStore
from tests.pg import PgServer

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


# Options only the file-backed store has; the PostgreSQL store ignores them.
FILE_ONLY_OPTIONS = ("checkpoint_every", "restore_log", "lock_timeout")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "file_only(reason): a test of the file-backed "
                            "store's own mechanics, skipped on PostgreSQL")


@pytest.fixture(scope="session")
def pg_database(request: pytest.FixtureRequest) -> Iterator[object]:
    """One migrated database of the session server, and a pool shared by the tests."""
    from index.postgres import Database
    server: PgServer = request.getfixturevalue("pg_server")
    db = Database(server.create_database("index_tests"))
    db.migrate()
    yield db
    db.close()


@pytest.fixture(params=["file", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    """Which memory backend ``make_store`` opens."""
    if request.param == "postgres":
        marker = request.node.get_closest_marker("file_only")
        if marker is not None:
            pytest.skip(f"file-backed store only: {marker.args[0] if marker.args else ''}")
    return str(request.param)


@pytest.fixture
def make_store(tmp_path: Path, embedder: HashingEmbedder, clock: Clock, backend: str,
               request: pytest.FixtureRequest) -> Iterator[Callable[..., MemoryBackend]]:
    """Factory: ``make_store(**overrides)`` opens a store in ``tmp_path/mem`` (on PostgreSQL:
    the element named by that path); all are closed."""
    opened: list[MemoryBackend] = []

    def factory(**overrides: object) -> MemoryBackend:
        kwargs: dict = {"embedder": embedder, "clock": clock}
        kwargs.update(overrides)
        directory = kwargs.pop("directory", tmp_path / "mem")
        store: MemoryBackend
        if backend == "postgres":
            from index.postgres import PostgresMemoryStore
            for name in FILE_ONLY_OPTIONS:
                kwargs.pop(name, None)
            store = PostgresMemoryStore(request.getfixturevalue("pg_database"),
                                        str(directory), **kwargs)
        else:
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
