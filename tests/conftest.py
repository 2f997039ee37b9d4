"""Shared fixtures: a home with tokens, served by the app in-process or on 127.0.0.1.

``server`` builds ``create_app()`` over a fresh home. ``server.client(role)`` calls the app
in-process (Flask's test client); ``server.url`` / ``server.port`` start a real werkzeug
server on 127.0.0.1 (port 0, a daemon thread) the first time a test asks for them, for git,
SSE and anything that needs a socket. Nothing of ours is mocked. Helpers shared by test
modules are in ``tests/helpers.py``.

Every test is marked by what makes it slow, here, by where it lives and what it uses (a
new test is marked without saying so): ``journey`` (tests/journeys: ``triform serve`` in a
subprocess), ``package`` (tests/packaging: wheels built and installed), ``bench``
(tests/bench), ``browser`` (Chromium), ``pg`` (a real PostgreSQL: the ``pg_server`` or
``pg_database`` fixture, or a ``postgres``/``postgresql`` parameter such as
``make_store``'s and ``catalog_at``'s), ``model`` (the real embedding model), ``process``
(the test or a fixture it uses starts a process of ours: ``triform`` through
``run_cli``, a served home, a Python child, a fork) and ``slow`` (a few long unit tests,
named in :data:`SLOW_TESTS`). ``make test-fast`` runs what none of them marks;
``make test`` runs everything (CONTRIBUTING.md).
"""

from __future__ import annotations

import os
import hashlib
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from api.config import default_model_cache
from tests.helpers import Served, Server, run_cli, serve
from tests.pg import PgServer, pg_server_fixture

settings.register_profile("triform", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                 HealthCheck.too_slow])
settings.load_profile("triform")

#: Marks given by folder (under tests/), and by the fixtures a test uses.
SLOW_FOLDERS = {"journeys": "journey", "packaging": "package", "bench": "bench"}
SLOW_FIXTURES = {"pg_server": "pg", "pg_database": "pg", "chromium": "browser",
                 "model_cache": "model", "model_dir": "model"}
#: A parameter with one of these values runs the test on PostgreSQL.
PG_PARAMETERS = {"postgres", "postgresql"}
#: Names whose use in a test's code (or a fixture's, or a function of its module that it
#: calls) means it starts a process of ours: the command line, a server, a Python child
#: (``sys.executable``), a fork. Stock git alone is quick and stays in the fast path.
PROCESS_NAMES = {"executable", "fork", "ServeProcess"}
PROCESS_HELPERS = (run_cli, Served)
#: Tests of the unit layer that take longer than the rest of their file together (over 15
#: s each in a full run at load 12 to 20, 2026-12-03): big stores, many Hypothesis
#: examples. ``slow``, so the fast path stays fast; ``@pytest.mark.slow`` marks others.
SLOW_TESTS = ("tests/element/test_observed.py::test_observing_the_same_window_twice_equals_once",
              "tests/index/test_store.py::test_a_rare_subject_among_thousands_is_recalled",
              "tests/index/test_properties.py::test_replaying_the_log_equals_the_live_state",
              "tests/hardening/test_idle_stores.py::test_concurrent_writers_over_more_elements",
              "tests/index/test_lanes.py::test_hnsw_recall_against_exact_search")
MARKS = {"journey": "a user's journey against `triform serve` in a subprocess",
         "package": "builds the wheels and installs them in a fresh virtualenv",
         "bench": "runs a benchmark script",
         "browser": "drives Chromium through the console",
         "pg": "needs a real PostgreSQL (tests/pg.py)",
         "model": "loads the real embedding model",
         "process": "starts a process: the triform command, a server, a fork",
         "slow": "a unit test that takes long (tests/conftest.py SLOW_TESTS)"}


def pytest_configure(config: pytest.Config) -> None:
    for name, what in MARKS.items():
        config.addinivalue_line("markers", f"{name}: {what} (not in make test-fast)")


def slow_marks(item: pytest.Item) -> set[str]:
    """What makes ``item`` slow, from where it lives and what it uses."""
    marks = {SLOW_FOLDERS[part] for part in item.path.relative_to(Path(__file__).parent)
             .parts[:-1] if part in SLOW_FOLDERS}
    marks |= {SLOW_FIXTURES[name] for name in getattr(item, "fixturenames", ())
              if name in SLOW_FIXTURES}
    if "postgres" in item.path.stem:        # test_postgres*.py start servers of their own
        marks.add("pg")
    if _starts_processes(item):
        marks.add("process")
    if item.nodeid.startswith(SLOW_TESTS):
        marks.add("slow")
    callspec = getattr(item, "callspec", None)
    if callspec is not None and any(isinstance(value, str) and value in PG_PARAMETERS
                                    for value in callspec.params.values()):
        marks.add("pg")
    return marks


def _names(code: types.CodeType, module: dict[str, object], seen: set[int]) -> set[str]:
    """The global names ``code`` uses, with those of its nested functions and of the
    functions of ``module`` it calls, transitively."""
    if id(code) in seen:
        return set()
    seen.add(id(code))
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const, module, seen)
    for name in list(names):
        called = module.get(name)
        if isinstance(called, types.FunctionType) and called.__globals__ is module:
            names |= _names(called.__code__, module, seen)
    return names


def _starts(value: object) -> bool:
    """``value`` is a helper that starts our processes, or a command line of Python's."""
    if isinstance(value, (list, tuple)):
        return bool(value) and value[0] == sys.executable
    return any(value is helper for helper in PROCESS_HELPERS)


def _starts_processes(item: pytest.Item) -> bool:
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in (info.name2fixturedefs.values() if info is not None else ()):
        functions += [getattr(d, "func", None) for d in defs]
    seen: set[int] = set()
    for function in functions:
        function = getattr(function, "__wrapped__", function)
        if not isinstance(function, types.FunctionType):
            continue
        names = _names(function.__code__, function.__globals__, seen)
        if names & PROCESS_NAMES or any(_starts(function.__globals__.get(name))
                                        for name in names):
            return True
    return False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for name in sorted(slow_marks(item)):
            item.add_marker(name)


@pytest.fixture(scope="session")
def model_cache() -> Path:
    """Where the real model is provisioned: once per machine, shared by every run."""
    return default_model_cache()


@pytest.fixture(scope="session")
def wordnet(model_cache: Path) -> Any:
    """The real lexicon (WordNet 3.0's nouns), provisioned beside the model once per machine
    and loaded for every reading in this process."""
    from index import Lexicon, provision_lexicon, use_lexicon_at
    folder = provision_lexicon(model_cache)
    use_lexicon_at(model_cache)
    return Lexicon.load(folder)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A real PostgreSQL 16 + pgvector on 127.0.0.1, started once per run (tests/pg.py)."""
    yield from pg_server_fixture()


@pytest.fixture(params=["sqlite", "postgresql"])
def catalog_at(request: pytest.FixtureRequest) -> Iterator[Callable[[Path], Any]]:
    """Opens the catalog kept at ``folder``, on each backend in turn: a ``catalog.db`` file
    there, or a PostgreSQL database of its own (one per folder). Each call opens it anew,
    as another process would."""
    from element import Catalog
    from index import open_database
    opened: list[Any] = []
    made: set[str] = set()

    def open_at(folder: Path) -> Catalog:
        if request.param == "sqlite":
            folder.mkdir(parents=True, exist_ok=True)
            return Catalog(folder / "catalog.db")
        pg: PgServer = request.getfixturevalue("pg_server")
        name = "cat_" + hashlib.sha1(str(folder).encode()).hexdigest()[:16]
        url = pg.database_url(name) if name in made else pg.create_database(name)
        made.add(name)
        database = open_database(url)
        opened.append(database)
        return Catalog(database=database)
    yield open_at
    for database in opened:
        database.close()


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
