"""element/agents/paused.py: a thing closed or paused for a while ("the lido is shut for
repairs until March") is a pause, not an ending: the finders of an ending by name
(``named.ended_target``) and by meaning (``ending_grammar.endings``) leave the memory of it alone,
and what the speaker does meanwhile is told beside it (issue 23: a control keeps both
facts). A closure for good still ends it.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from element.agents.ending_grammar import endings
from element.agents.named import ended_target
from element.agents.paused import paused

from tests.element.speaker import background_kept, ends, open_store, tell_after
from tests.element.speaker import current as contents


@pytest.mark.parametrize("clause,pause", [
    ("The baths are shut for repairs until April", True),
    ("the climbing centre is closed for the winter", True),
    ("our orchestra is on a break till after Christmas", True),
    ("the library has closed for refurbishment", True),
    ("I have paused my gym membership for three months", True),
    ("the baths closed down last year", False),
    ("the café is shut for good", False),
    ("I haven't swum for six months", False),
    ("I quit the orchestra", False),
])
def test_a_closure_for_a_while_is_a_pause(clause: str, pause: bool) -> None:
    assert paused(clause) is pause


def test_no_ending_is_read_in_a_pause() -> None:
    memory = {"id": "m1", "content": "Ana swims at the Moorside baths every morning."}
    assert ended_target("The Moorside baths are shut for repairs until April", [memory],
                        "Ana") is None
    assert ended_target("The Moorside baths closed down in the autumn", [memory],
                        "Ana") is memory
    assert endings("The climbing centre is closed for the winter") == []


@pytest.fixture(params=["file"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "paused")


def test_what_is_done_meanwhile_is_told_beside(store: Any) -> None:
    decided = tell_after(store, "I swim at the Moorside baths every morning.",
                         "The Moorside baths are shut for repairs until April, so I'm "
                         "swimming at the sports centre.")
    now = contents(store)
    assert "supersede" not in decided, now
    assert "swims at the Moorside baths" in now and "sports centre" in now, now
    assert background_kept(now), now


def test_a_closure_for_good_still_ends(store: Any) -> None:
    ends(store, "I swim at the Moorside baths every morning.",
         "The Moorside baths closed for good in the autumn, so I swim at the sports centre "
         "now.", "swims at the Moorside baths")
