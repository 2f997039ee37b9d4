"""Journeys: what a user does, in order, across features, against ``triform serve`` run as
a user runs it (a subprocess: waitress, the discovery file, the access log) and stock git.

``serve(name="home", embedder="hashing", **options)`` starts a server on a fresh home under
``tmp_path`` (``embedder=None``: the real model, for journeys about meaning) and returns its
:class:`tests.helpers.Served`; every server a test started is stopped after it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Served


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(name: str = "home", embedder: str | None = "hashing", **options: Any) -> Served:
        served = Served(tmp_path / name, embedder=embedder, **options)
        started.append(served)
        return served.start()
    yield start
    for served in started:
        served.kill()
