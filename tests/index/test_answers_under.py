"""A newer value under the threshold joins in its older value's place
(``index/answers_under.py``), on both backends.

The older statement of a single-valued attribute is plain and answers the query first;
the newer, uncaught as an update and worded unlike the query, scores under the default
relevance threshold. It joins right ahead of the older (``recency.newer_first``) at the
older's score; a newer memory that is an ending, an addition or another person's fact
does not join, nor does anything when the query asks a many-valued attribute."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings

DEFAULT = MemorySettings()
EVERYTHING = MemorySettings(relevance_threshold=0.0)
OONA: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "oona"}
OTHERS = ["Oona can't whistle, never could.", "Oona goes camping every Labor Day weekend.",
          "Oona always falls asleep halfway through movies."]
OLD = "Oona's pet insurance is with Petplan."
NEW = "Petplan put the premium up again so the dog's insured with ManyPets now."
QUERY = "Who is Oona's pet insurance with?"


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _search(store: MemoryBackend, query: str, settings: MemorySettings,
            limit: int = 10) -> list[tuple[str, float]]:
    found = store.search(query=query, settings=settings, limit=limit, count_access=False,
                         **OONA).results
    return [(r["memory"]["content"], r["score"]) for r in found]


def _ranked_alone(store: MemoryBackend, query: str,
                  monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """Every memory at its own score, as the ranking scored it: no newer value joined
    or lifted (at threshold 0 the newer is a result, and would be lifted)."""
    import index.postgres.store
    import index.store
    with monkeypatch.context() as patch:
        for module in (index.store, index.postgres.store):
            patch.setattr(module, "join_under", lambda *_args, **_kw: [])
        return dict(_search(store, query, EVERYTHING))


def _stored(make_store: Callable[..., MemoryBackend], served: object,
            newer: str) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in OTHERS),
                          (OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **OONA)
    return store


def test_a_newer_value_under_the_threshold_joins_first_at_the_olders_score(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = _stored(make_store, served, NEW)
    every = _ranked_alone(store, QUERY, monkeypatch)
    assert every[NEW] < DEFAULT.relevance_threshold <= every[OLD], \
        "the setup: the newer under the threshold"
    found = _search(store, QUERY, DEFAULT)
    assert [text for text, _ in found[:2]] == [NEW, OLD]
    assert found[0][1] == found[1][1] == every[OLD]
    # The limit holds: the joined value pushes the last one out.
    assert [text for text, _ in _search(store, QUERY, DEFAULT, limit=1)] == [NEW]


@pytest.mark.parametrize("newer", [
    "Petplan went bust last spring, sadly.",                                # an ending
    "Oona also has the dog insured with ManyPets as well.",                 # an addition
    "Oona's sister switched her dog's insurance over to ManyPets.",         # a sister's
])
def test_no_newer_value_joins(make_store: Callable[..., MemoryBackend], served: object,
                              newer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    store = _stored(make_store, served, newer)
    every = _ranked_alone(store, QUERY, monkeypatch)
    found = dict(_search(store, QUERY, DEFAULT))
    assert OLD in found
    assert (newer in found) == (every[newer] >= DEFAULT.relevance_threshold)


CAR_OLD = "Oona drives a Ford Focus."
CAR_QUERY = "What car does Oona drive?"


def _car_store(make_store: Callable[..., MemoryBackend], served: object,
               newer: str) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in OTHERS),
                          (CAR_OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **OONA)
    return store


@pytest.mark.parametrize("newer", [
    # Said as now, inside a sentence about something else: a clear answer, not the best
    # one (the weekend trips answer the hobbies better).
    "Oona's weekend trips to the coast are easier now with the Volvo estate.",
    # Said as neither, a state that holds: the best answer, no past event.
    "The Volvo estate swallows the kids' bikes and the dog with room to spare.",
])
def test_a_newer_value_told_in_passing_joins_first(
        make_store: Callable[..., MemoryBackend], served: object, newer: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = _car_store(make_store, served, newer)
    every = _ranked_alone(store, CAR_QUERY, monkeypatch)
    assert every[newer] < DEFAULT.relevance_threshold <= every[CAR_OLD], \
        "the setup: the newer under the threshold"
    found = _search(store, CAR_QUERY, DEFAULT)
    assert [text for text, _ in found[:2]] == [newer, CAR_OLD]


@pytest.mark.parametrize("newer", [
    "Oona rented a Volvo estate for the trip to Scotland.",  # a past event, unsaid as now
    "Oona would love a Tesla one day.",                     # a wish
])
def test_a_past_event_or_a_wish_does_not_join(
        make_store: Callable[..., MemoryBackend], served: object, newer: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = _car_store(make_store, served, newer)
    every = _ranked_alone(store, CAR_QUERY, monkeypatch)
    found = _search(store, CAR_QUERY, DEFAULT)
    assert found[0][0] == CAR_OLD
    # Found or not by its own score, never joined nor lifted to the older's.
    assert dict(found).get(newer, every[newer]) == every[newer]
    assert (newer in dict(found)) == (every[newer] >= DEFAULT.relevance_threshold)


def test_a_newer_value_found_far_below_its_older_is_lifted_first(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Found, said as now, a clear value of the car: yet scored further below the older
    # than a tie, where reordering alone leaves it second.
    newer = "The school run is so much quicker these days, now that Oona has the Volvo."
    store = _car_store(make_store, served, newer)
    every = _ranked_alone(store, CAR_QUERY, monkeypatch)
    assert DEFAULT.relevance_threshold <= every[newer] < every[CAR_OLD] - 0.2, \
        "the setup: found, further below than a tie"
    found = _search(store, CAR_QUERY, DEFAULT)
    assert [text for text, _ in found[:2]] == [newer, CAR_OLD]
    assert found[0][1] == found[1][1] == every[CAR_OLD]


PET_OLD = "Oona has a budgie called Kiwi."
PET_QUERY = "What pets does Oona have?"


def _pet_store(make_store: Callable[..., MemoryBackend], served: object,
               newer: str) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in OTHERS),
                          (PET_OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **OONA)
    return store


def test_a_many_valued_newer_value_that_says_it_replaces_joins_first(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    newer = "A pair of lop-eared rabbits rule the back garden now."
    store = _pet_store(make_store, served, newer)
    every = _ranked_alone(store, PET_QUERY, monkeypatch)
    assert every[newer] < DEFAULT.relevance_threshold <= every[PET_OLD], \
        "the setup: the newer under the threshold"
    found = _search(store, PET_QUERY, DEFAULT)
    assert [text for text, _ in found[:2]] == [newer, PET_OLD]


@pytest.mark.parametrize("newer", [
    "A pair of lop-eared rabbits rule the back garden too.",        # an addition
    "Oona has started keeping a pair of lop-eared rabbits.",        # begun: one more
    "Oona's sister has a pair of lop-eared rabbits now.",           # a sister's
])
def test_a_many_valued_newer_value_of_no_replacing_does_not_join(
        make_store: Callable[..., MemoryBackend], served: object, newer: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    store = _pet_store(make_store, served, newer)
    every = _ranked_alone(store, PET_QUERY, monkeypatch)
    found = dict(_search(store, PET_QUERY, DEFAULT))
    assert PET_OLD in found
    assert (newer in found) == (every[newer] >= DEFAULT.relevance_threshold)
