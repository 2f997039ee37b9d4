"""A newer value the write time did not link, put first by recall (issue 23, item 5):
the query read with its person's name projected out (``index/unnamed.py``), a newer fact told as a
change ahead of the older value it ties with on the query (``index/changed_ahead.py``),
and a value told begun among the words of now (``told.BEGUN``, ``told.says_now``).

The store tests run the real model on both backends; the controls (another person's
change, an addition, a newer fact of no change) keep the older value first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import MemoryBackend, MemorySettings
from index.changed_ahead import changed_ahead
from index.told import BEGUN, says_now

EVERYTHING = MemorySettings(relevance_threshold=0.0)
OONA: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "oona"}
OTHERS = ["Oona can't whistle, never could.", "Oona goes camping every Labor Day weekend.",
          "Oona always falls asleep halfway through movies."]
OLD = "Oona cycles to work along the canal."
QUERY = "How does Oona get to work?"


@pytest.mark.parametrize("text", [
    "The removal van dropped the last boxes at Percival's new place in Walthamstow.",
    "Imogen's first week on the wards at Guy's went better than Imogen feared.",
    "At the AGM they voted Sunniva in as chair.",
    "The new GP, Dr Mensah, sorted out the prescription this morning.",
    "Since the office moved out to Slough Oona catches the train every morning.",
])
def test_a_value_told_begun_or_changed_says_now(text: str) -> None:
    assert says_now(text)


@pytest.mark.parametrize("text", [
    "Oona visited the new museum in Leeds.",    # another's new thing, in an event
    "Happy new year from Oona.",
    "Oona is new to the area.",
    "Oona went to the cinema on Friday.",
    "Oona hired a Transit van on Saturday to help a friend shift a sofa.",  # rented
])
def test_an_event_of_no_change_says_no_now(text: str) -> None:
    assert not BEGUN.search(text) and not says_now(text)


def _unit(*values: float) -> np.ndarray:
    vector = np.asarray(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


def _ahead(newer: str, cosines: tuple[float, float], values: tuple[bool, bool] = (True, False),
           relations: frozenset[str] = frozenset()) -> list[int]:
    """Two facts of one subject, the older ranked first: the order ``changed_ahead``
    gives them, with the query at (1, 0) and each fact at its cosine with it."""
    query = _unit(1.0, 0.0)
    vectors = [_unit(c, float(np.sqrt(1 - c * c))) for c in cosines]
    return changed_ahead([0, 1], ["s", "s"], [1.0, 2.0], vectors, [OLD, newer],
                         [True, True], list(values), [False, False], query, relations)


def test_a_newer_fact_told_as_a_change_goes_ahead_within_the_tie() -> None:
    newer = "Since the office moved out to Slough Oona catches the train every morning."
    assert _ahead(newer, (0.60, 0.578)) == [1, 0]
    # Beyond the tie the query tells them apart: the older keeps its place.
    assert _ahead(newer, (0.80, 0.578)) == [0, 1]
    # An older fact that answers no attribute clearly is no value to pass.
    assert _ahead(newer, (0.60, 0.578), values=(False, False)) == [0, 1]


@pytest.mark.parametrize("newer", [
    "Oona also catches the train on rainy days now.",                  # an addition
    "Oona's brother moved to Slough and catches the train every day.",  # another's
    "Oona catches the train on Fridays.",                               # no change told
    "Oona would love to switch to the train one day.",                  # a wish
])
def test_no_change_of_the_subjects_own_goes_ahead(newer: str) -> None:
    assert _ahead(newer, (0.60, 0.59)) == [0, 1]


# A name the model reads as much as the question ("How does Bartholomew get to work?"
# asks no attribute clearly until read unnamed), and a newer statement the bank reads as
# no clear value: only the query's cosines tie them.
BART: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "bartholomew"}
B_OTHERS = [t.replace("Oona", "Bartholomew") for t in OTHERS]
B_OLD = OLD.replace("Oona", "Bartholomew")
B_QUERY = QUERY.replace("Oona", "Bartholomew")


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _store(make_store: Callable[..., MemoryBackend], served: object,
           newer: str) -> MemoryBackend:
    store = make_store(embedder=served)
    for content, when in [*((text, "2024-01-06T10:00:00Z") for text in B_OTHERS),
                          (B_OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **BART)
    return store


def _found(store: MemoryBackend) -> list[str]:
    found = store.search(query=B_QUERY, settings=EVERYTHING, limit=10, count_access=False,
                         **BART).results
    return [r["memory"]["content"] for r in found]


def test_the_commute_told_by_an_offices_move_comes_first(
        make_store: Callable[..., MemoryBackend], served: object,
        monkeypatch: pytest.MonkeyPatch) -> None:
    newer = "Since the office moved out to Slough Bartholomew catches the train every morning."
    store = _store(make_store, served, newer)
    found = _found(store)
    assert found.index(newer) < found.index(B_OLD)
    import index.core
    import index.recency
    monkeypatch.setattr(index.recency, "changed_ahead", lambda order, *_a, **_k: order)
    # The query said with "they" asks the commute clearly, and the newest value of it
    # comes first by that reading too (``they.py``): left out, changed_ahead alone moves it.
    monkeypatch.setattr(index.core, "they_query", lambda *_a: None)
    found = _found(store)
    assert found.index(B_OLD) < found.index(newer), "the setup: ranked second otherwise"


def test_another_persons_change_keeps_the_older_first(
        make_store: Callable[..., MemoryBackend], served: object) -> None:
    newer = "Bartholomew's brother moved out to Slough and catches the train every morning."
    found = _found(_store(make_store, served, newer))
    assert found.index(B_OLD) < found.index(newer)


def test_a_query_the_name_hides_asks_its_attribute_unnamed(served: object) -> None:
    from index.embed import embed_for_lanes
    from index.profile_bank import ATTRIBUTES, question_vectors
    from index.recency import asked, asked_of
    vector, name = embed_for_lanes(served, ["content"] * 2,   # type: ignore[arg-type]
                                   [B_QUERY, "Bartholomew"])
    vector, name = vector / np.linalg.norm(vector), name / np.linalg.norm(name)
    questions = question_vectors(served)    # type: ignore[arg-type]
    assert asked(vector, B_QUERY, questions) is None, "the setup: the name hides it"
    assert asked_of(served, {"content": vector}, B_QUERY) is None   # type: ignore[arg-type]
    found = asked_of(served, {"content": vector}, B_QUERY, name)    # type: ignore[arg-type]
    assert found is not None and ATTRIBUTES[found.attribute].name == "commute"
    assert found.faint and found.unnamed   # a second guess: only a tied change moves
