"""A sentence of several clauses, one of them the speaker's statement of what holds now
(``change_statements._now_clause``): that clause alone finds the memory it replaces, whoever
the sentence's first subject is; on both backends with the real model.

The sentences are written for these tests (none is a case of ``bench/data``). The guards
a user relies on: another person's clause, an addition and a short stand-in keep what is
stored.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.element.speaker import tell_after, background_kept, current, open_store


@pytest.fixture(params=["file", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path, model: Any) -> Iterator[Any]:
    yield from open_store(request, tmp_path, model, "nowclause")


@pytest.mark.parametrize("before,after,old", [
    # The cause first, another subject's ("Oakfield merged ..."), the speaker's present
    # after "so": the whole sentence is Oakfield's, the clause is Ana's.
    ("I teach maths at Oakfield Academy.", "Oakfield merged with the grammar school, so "
     "I'm teaching physics at Oakfield now.", "teaches maths"),
    ("I have a gym membership at PureGym.", "PureGym put the price up, so I'm at The Gym "
     "Group now.", "membership at PureGym"),
])
def test_the_speakers_clause_of_now_supersedes_the_fact_it_changes(
        store: Any, before: str, after: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    now = current(store)
    assert old not in now and after.split(",")[0] in now      # told whole, the cause too
    assert background_kept(now)


@pytest.mark.parametrize("before,after,old", [
    # The speaker's clause of change, the other clause's words of one more ("another
    # one") about the band: the clause is read alone.
    ("I play the trumpet in a brass band.", "After my knee op I swapped to the trombone, "
     "and the band was glad of another one.", "trumpet"),
])
def test_a_cue_lost_to_another_clause_is_read_in_the_speakers_clause(
        store: Any, before: str, after: str, old: str) -> None:
    assert "supersede" in tell_after(store, before, after), current(store)
    assert old not in current(store)


@pytest.mark.parametrize("before,after,kept", [
    ("I play the trumpet in a brass band.", "I've got another trumpet now, and I swapped "
     "the old mouthpiece.", "trumpet in a brass band"),
    ("I live in Bristol.", "My sister got a job in Leeds, so she lives in Leeds now.",
     "in Bristol"),
    ("I play tennis on Tuesdays.", "The club built a new court, so I'm playing padel too "
     "now.", "tennis on Tuesdays"),
    ("I have a dog called Rex.", "My neighbour moved away, so I'm looking after her cat "
     "now.", "dog called Rex"),
])
def test_anothers_clause_or_an_addition_keeps_the_fact(store: Any, before: str,
                                                       after: str, kept: str) -> None:
    tell_after(store, before, after)
    assert kept in current(store)
