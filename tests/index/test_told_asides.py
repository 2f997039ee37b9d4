"""What recall reads as no newer value, and what it no longer misreads (issue 23, item 5):
a stay told by the time spent away (``told.SPENT``) is aside, a past told in a relative
clause is the described one's, and a name given ("called Dorothy"), a name ending in -ed
("Winifred") or an adjective after a determiner ("a retired teacher") tells no event.

The store tests run the real model on both backends: a week spent in Lisbon stays under
the home it would otherwise pass, and a newer manager described by her past joins ahead of
the older one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings
from index.told import aside, tells_event

SCOPED = MemorySettings(subject_scoping=True)


@pytest.mark.parametrize("text", [
    "Oswin spent a week in Lisbon.",
    "Octavia spent a lovely fortnight in Edinburgh, the castle was amazing.",
    "Cordelia just got back from a week in Lisbon, absolutely gorgeous.",
    "Tobias is back from ten days in Rome, what a city.",
])
def test_a_stay_told_by_the_time_spent_is_aside(text: str) -> None:
    assert aside(text)


@pytest.mark.parametrize("text", [
    "Sam spent two years at Google before the move.",    # years: a spell, not a stay
    "Sam moved to Leeds after a week in Rome.",           # no time spent told
    "Imogen's boss is a woman called Dorothy who used to run the Madrid office.",
    "Sam works for a charity which was founded by their aunt.",
    "Maria grew up in Cork. Maria lives in Dublin now.",  # the change told
])
def test_no_stay_and_a_past_of_another_is_not_aside(text: str) -> None:
    assert not aside(text)


def test_a_past_of_the_subjects_own_is_still_aside() -> None:
    assert aside("Sam used to live in Leeds.")
    assert aside("Sam, who is lovely, used to live in Leeds.")


@pytest.mark.parametrize("text", [
    "Reginald has a tabby cat called Pickle.",
    "Imogen's boss is a woman called Dorothy.",
    "Winifred is with the Riverside Practice.",
    "Nikhil is a chartered accountant.",
    "Sam is a retired teacher.",
])
def test_a_name_or_an_adjective_tells_no_event(text: str) -> None:
    assert not tells_event(text)


@pytest.mark.parametrize("text", [
    "Winifred registered with the Riverside Practice.",
    "Sam visited their aunt in Leeds.",
    "Sam adopted a greyhound named Biscuit.",
])
def test_an_event_is_still_an_event(text: str) -> None:
    assert tells_event(text)


OSWIN: dict[str, Any] = {"subject_type": "guest", "subject_id": "oswin"}
BACKGROUND = ["Oswin hates early mornings", "Oswin collects old postcards",
              "Oswin's favourite band is Blur.", "Oswin is allergic to cats' saliva"]


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _store(make_store: Callable[..., MemoryBackend], served: object,
           told: list[tuple[str, str]]) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in BACKGROUND), *told]:
        store.store(content=content, category="fact", occurred_at=when, settings=SCOPED,
                    **OSWIN)
    return store


def _found(store: MemoryBackend, query: str) -> list[str]:
    found = store.search(query=query, settings=MemorySettings(
        subject_scoping=True, relevance_threshold=0.0), limit=10, count_access=False,
        **OSWIN).results
    return [r["memory"]["content"] for r in found]


def test_a_week_spent_away_stays_under_the_home(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    home, visit = "Oswin lives in Norwich", "Oswin spent a week in Lisbon."
    store = _store(make_store, served, [(home, "2024-01-19T10:00:00Z"),
                                        (visit, "2024-02-09T10:00:00Z")])
    found = _found(store, "Where does Oswin live?")
    assert found.index(home) < found.index(visit)
    import index.told
    monkeypatch.setattr(index.told, "SPENT", index.told.re.compile(r"(?!x)x"))
    found = _found(store, "Where does Oswin live?")
    assert found.index(visit) < found.index(home), "the setup: read as a newer home"


def test_a_newer_manager_described_by_her_past_comes_first(
        make_store: Callable[..., MemoryBackend], served: object) -> None:
    old = "Oswin's manager is Priya"
    newer = "Oswin's boss is a woman called Dorothy who used to run the Madrid office"
    store = _store(make_store, served, [(old, "2024-01-11T10:00:00Z"),
                                        (newer, "2024-03-07T10:00:00Z")])
    found = _found(store, "Who is Oswin's manager?")
    assert found.index(newer) < found.index(old)
