"""A memory no longer current is read with the versions that replaced it
(``index/later.py``, issue 23): asked as of the time it held, the version of the time of
a fact whose newer version answers the asked attribute answers it too, and goes ahead of
the person's other memories; on both backends."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import MemoryBackend, MemorySettings, recency
from index.asked import asked
from index.later import later_versions
from index.profile_bank import ATTRIBUTES, question_vectors
from index.recency import newer_first

EVERYTHING = MemorySettings(relevance_threshold=0.0, subject_scoping=True)
CORNELIUS: dict[str, Any] = {"subject_type": "guest", "subject_id": "cornelius"}
QUERY = "What pets does Cornelius have?"
BACKGROUND = ["Cornelius is allergic to shellfish", "Cornelius has a younger brother called Sam.",
              "Cornelius's favourite author is Terry Pratchett.",
              "Cornelius drinks their coffee black."]
OLD = "Cornelius keeps tropical fish in a big tank in the lounge."
NEW = "Cornelius rehomed the tank in the summer and got a pair of guinea pigs instead."


@pytest.fixture
def served(model_cache: Path) -> object:
    """The embedder a served store uses: what a memory answers is read with its vectors."""
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _unit(embedder: Any, texts: list[str]) -> np.ndarray:
    vectors = np.asarray(embedder.embed(texts), dtype=np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_the_version_of_the_time_answers_as_its_later_version_does(
        served: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scored as a store of many people scored them as of the month the fish held (the
    allergy .733 first, the fish .648 last), the fish go first once read with the guinea
    pigs that replaced them; read alone (a store without the chain), the allergy stays.
    (By the model alone: the lexicon reads fish kept as a pet by themselves,
    ``noun_kinds``.)"""
    monkeypatch.setenv("TRIFORM_LEXICON", "off")
    vectors = _unit(served, [QUERY, *BACKGROUND, OLD, NEW])
    question = asked(vectors[0], QUERY, question_vectors(served))  # type: ignore[arg-type]
    assert question is not None and ATTRIBUTES[question.attribute].name == "pet"
    texts = [*BACKGROUND, OLD]
    args = (list(vectors[1:6]), ["cornelius"] * 5, [1.0] * 4 + [2.0],
            [0.733, 0.674, 0.665, 0.653, 0.648])
    alone = newer_first(*args, question=question, contents=texts, categories=["fact"] * 5)
    read = newer_first(*args, question=question, contents=texts, categories=["fact"] * 5,
                       later=[[]] * 4 + [[vectors[6]]])
    assert texts[alone[0]] != OLD
    assert texts[read[0]] == OLD


def test_later_versions_walk_the_chain_of_one_subject() -> None:
    versions = {"b": ("c", np.ones(2), "ann"), "c": ("d", None, "ann"),
                "d": (None, np.zeros(2), "ann"), "x": (None, np.ones(2), "bob")}
    asked_for: list[list[str]] = []

    def fetch(ids: list[str]) -> dict[str, Any]:
        asked_for.append(ids)
        return {i: versions[i] for i in ids if i in versions}
    found = later_versions(["b", None, "x", "gone"], ["ann", "ann", "ann", "ann"], fetch)
    assert [len(f) for f in found] == [2, 0, 0, 0]
    assert asked_for[0] == ["b", "gone", "x"]
    assert later_versions([None, None], ["ann", None], fetch) == [[], []]
    assert len(asked_for) == 3      # nothing fetched when every result is current


def test_as_of_a_superseded_fact_is_read_with_its_successor(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a store, on both backends: asked as of the month the fish held, the fish
    (superseded by the guinea pigs) are read with the guinea pigs' vector and are the
    first answer among the person's memories; asked now, nothing is read with a later
    version."""
    read: list[tuple[list[str | None], list[int]]] = []
    answering = recency.answering

    def spy(vectors: Any, owners: Any, contents: Any, categories: Any, question: Any,
            anyone: bool = False, later: Any = ()) -> tuple[list[bool], list[bool]]:
        read.append((list(contents), [len(v) for v in later] if later else []))
        return answering(vectors, owners, contents, categories, question, anyone, later)
    monkeypatch.setattr(recency, "answering", spy)
    store = make_store(embedder=served)
    for text in BACKGROUND:
        store.store(content=text, category="fact", occurred_at="2024-01-03T10:00:00Z",
                    settings=EVERYTHING, **CORNELIUS)
    old = store.store(content=OLD, category="fact", occurred_at="2024-01-10T10:00:00Z",
                      settings=EVERYTHING, **CORNELIUS).memory
    store.store(content=NEW, category="fact", occurred_at="2024-01-31T10:00:00Z",
                settings=EVERYTHING, supersedes=[old["id"]], **CORNELIUS)
    found = store.search(query=QUERY, settings=EVERYTHING, limit=10, count_access=False,
                         as_of="2024-01-10T10:01:00Z", **CORNELIUS).results
    contents = [r["memory"]["content"] for r in found]
    assert contents[0] == OLD, contents
    assert NEW not in contents
    texts, later = read[-1]
    assert later[texts.index(OLD)] == 1 and sum(later) == 1
    read.clear()
    store.search(query=QUERY, settings=EVERYTHING, limit=10, count_access=False, **CORNELIUS)
    assert read and not any(sum(later) for _, later in read)
