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


def _stored(make_store: Callable[..., MemoryBackend], served: object,
            newer: str) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in OTHERS),
                          (OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **OONA)
    return store


def test_a_newer_value_under_the_threshold_joins_first_at_the_olders_score(
        make_store: Callable[..., MemoryBackend], served: object) -> None:
    store = _stored(make_store, served, NEW)
    every = dict(_search(store, QUERY, EVERYTHING))
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
                              newer: str) -> None:
    store = _stored(make_store, served, newer)
    every = dict(_search(store, QUERY, EVERYTHING))
    found = dict(_search(store, QUERY, DEFAULT))
    assert OLD in found
    assert (newer in found) == (every[newer] >= DEFAULT.relevance_threshold)
