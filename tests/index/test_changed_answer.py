"""A newer value told as a change answers what its older value answered
(``index/changed_answer.py``), on both backends.

"Long story short, it is the drums for Wynne now" weeks after "Wynne has played the violin
since school": the profile bank reads the newer's whole vector as answering no instrument,
and recall left the violin first. Told as a change, of the subject's own, and naming a
thing of the kind the query asks ("What instrument ...": WordNet holds drums one), the
newer answers as the older does and goes first. Another person's change, an addition, or
a newer told without a change keeps the older first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings
from index.changed_answer import answers_as_change, asked_kinds, names_asked_kind

DEFAULT = MemorySettings()
EVERYTHING = MemorySettings(relevance_threshold=0.0)
WYNNE: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "wynne"}
OLD = "Wynne has played the violin since school."
NEW = "Long story short, it is the drums for Wynne now, Wynne is in a garage band."
QUERY = "What instrument does Wynne play?"


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


@pytest.mark.parametrize(("query", "text"), [
    (QUERY, NEW),
    ("What coffee does Fabian drink?", "Fabian: Decaf only these days, doctor's orders."),
    ("What sport does Ana do?", "Mum thinks Ana is mad but Ana has taken up boxing instead."),
    ("What language is Mirela learning?", "Mirela started Japanese lessons instead."),
    ("Which school does Leo's son go to?", "Their boy started at the academy this term."),
    ("What type of dog does Ana have?", "Ana got a spaniel now that the old labrador died."),
])
def test_a_thing_of_the_kind_the_query_asks(wordnet: Any, query: str, text: str) -> None:
    assert names_asked_kind(query, text, wordnet)


@pytest.mark.parametrize(("query", "text"), [
    ("What instrument does Ana play?", "Ana has switched to oat milk in her tea."),
    ("What car does Ana drive?", "Ana takes the train to work these days."),
    ("Where does Ana work?", "Ana lives in Leeds now."),          # asks no kind by name
    ("What does Ana play?", "Ana plays the cello now."),          # nor here
    ("Which gym does Oswin go to?", "Oswin changed dentists last month."),
])
def test_no_thing_of_the_kind_the_query_asks(wordnet: Any, query: str, text: str) -> None:
    assert not names_asked_kind(query, text, wordnet)


def test_the_kind_a_question_asks_is_named_after_what_or_which(wordnet: Any) -> None:
    assert asked_kinds("Which football team does Cressida support?", wordnet) == \
        ("football team", "team")
    assert asked_kinds("What kind of coffee does Ana order?", wordnet) == ("coffee",)
    assert asked_kinds("What does Ana play?", wordnet) == ()


def _read(newer: str, clear: bool) -> tuple[list[bool], list[bool]]:
    """``answers_as_change`` over an older value answering best and ``newer``, told after
    it, answering clearly (``clear``) or not at all."""
    values, best = [True, clear], [True, False]
    answers_as_change(values, best, ["wynne", "wynne"], [1.0, 2.0], [OLD, newer],
                      ["fact", "fact"], frozenset(), QUERY)
    return values, best


@pytest.mark.parametrize("newer", [
    "Wynne is on the drums now.", "Wynne switched to the drums.",
    "Wynne has taken up the drums instead."])
def test_a_clear_value_told_as_a_change_answers_as_its_older(newer: str) -> None:
    assert _read(newer, clear=True) == ([True, True], [True, True])


@pytest.mark.parametrize("newer", [
    "Wynne has also started the drums.",                       # an addition
    "Wynne's son has taken up the drums instead.",             # another person's
    "Wynne used to play the drums.",                           # a past
    "Wynne is learning a few songs on the drums.",             # no change told
    "Wynne is good enough now on the drums to play a gig.",    # a degree reached
])
def test_no_change_of_the_subjects_own_answers_as_the_older(newer: str) -> None:
    assert _read(newer, clear=True) == ([True, True], [True, False])


def test_a_thing_of_the_asked_kind_told_as_a_change_is_a_value(wordnet: Any) -> None:
    assert _read(NEW, clear=False) == ([True, True], [True, True])
    assert _read("Wynne switched to oat milk.", clear=False) == ([True, False], [True, False])


STORED_OLD = "Ana plays the violin in a community orchestra."
STORED_NEW = "Honestly, Ana's evenings are the drums now, there's a kit in the garage."
ANA: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "ana"}


def _found(make_store: Callable[..., MemoryBackend], served: object,
           newer: str) -> list[tuple[str, float]]:
    store = make_store(embedder=served)
    for content, when in [("Ana is allergic to cats.", "2024-01-01T10:00:00Z"),
                          ("Ana works as a pharmacist.", "2024-01-01T10:00:00Z"),
                          (STORED_OLD, "2024-01-08T10:00:00Z"),
                          (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **ANA)
    found = store.search(query="What instrument does Ana play?", settings=DEFAULT,
                         limit=10, count_access=False, **ANA).results
    return [(r["memory"]["content"], r["score"]) for r in found]


def test_search_joins_the_newer_instrument_told_as_a_change_first(
        make_store: Callable[..., MemoryBackend], served: object, wordnet: Any,
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    found = _found(make_store, served, STORED_NEW)
    assert [text for text, _ in found[:2]] == [STORED_NEW, STORED_OLD]
    assert found[0][1] == found[1][1], "joined at the older's score"
    import index.answers_under
    import index.recency
    for module in (index.recency, index.answers_under):
        monkeypatch.setattr(module, "answers_as_change", lambda *_a, **_k: None)
    found = _found(lambda **kw: make_store(directory=tmp_path / "without", **kw), served,
                   STORED_NEW)
    assert [text for text, _ in found] == [STORED_OLD], "the setup: under the threshold"


@pytest.mark.parametrize("newer", [
    "Honestly, Ana's daughter's evenings are the drums now, there's a kit in the garage.",
    "A friend lent Ana her drums and Ana is learning a few songs on them.",
])
def test_search_keeps_the_older_instrument_first_without_a_change_of_their_own(
        make_store: Callable[..., MemoryBackend], served: object, wordnet: Any,
        newer: str) -> None:
    found = [text for text, _ in _found(make_store, served, newer)]
    assert found[0] == STORED_OLD
