"""Shared fixtures: a home with tokens, served by the app in-process or on 127.0.0.1.

``server`` builds ``create_app()`` over a fresh home. ``server.client(role)`` calls the app
in-process (Flask's test client); ``server.url`` / ``server.port`` start a real werkzeug
server on 127.0.0.1 (port 0, a daemon thread) the first time a test asks for them, for git,
SSE and anything that needs a socket. Nothing of ours is mocked. Helpers shared by test
modules are in ``tests/helpers.py``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from api.config import default_model_cache
from tests.helpers import Server, serve
from tests.pg import PgServer, pg_server_fixture

settings.register_profile("triform", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow])
settings.load_profile("triform")


@pytest.fixture(scope="session")
def model_cache() -> Path:
    """Where the real model is provisioned: once per machine, shared by every run."""
    return default_model_cache()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A real PostgreSQL 16 + pgvector on 127.0.0.1, started once per run (tests/pg.py)."""
    yield from pg_server_fixture()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a fresh home with the hashing embedder (for tests not about meaning)."""
    srv = serve(tmp_path / "home")
    yield srv
    srv.close()


@pytest.fixture
def git_env(tmp_path: Path) -> dict[str, str]:
    """Environment for stock git: no prompts, no user or system config."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    (tmp_path / "git-home").mkdir(exist_ok=True)
    env.update(HOME=str(tmp_path / "git-home"), GIT_TERMINAL_PROMPT="0",
               GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="Tester",
               GIT_AUTHOR_EMAIL="tester@example.com", GIT_COMMITTER_NAME="Tester",
               GIT_COMMITTER_EMAIL="tester@example.com")
    return env
