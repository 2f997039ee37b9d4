"""A newer value of one kind put first by recall (issue 23, item 5; ``index/kind_ahead.py``):
"took up the cello over the winter" weeks after "plays the violin", asked "What instrument
does Ana play?". WordNet says the two are one kind of thing; the model does not.

The readings run on the real lexicon (``wordnet``); the store tests run the real model on
both backends, and the controls (another person's, a past, a wish, an addition, a thing of
another kind, a query naming the older) keep the older first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings
from index.kind_ahead import held_by_subject, kin_nouns, kind_ahead, of_one_kind
from index.told import ADDITION, aside, yields

EVERYTHING = MemorySettings(relevance_threshold=0.0)
ANA: dict[str, Any] = {"subject_type": "circle_member", "subject_id": "ana"}
OLD = "Ana plays the violin in a community orchestra."
NEWER = "Ana took up the cello over the winter and practises most evenings."


@pytest.mark.parametrize(("older", "newer"), [
    (OLD, NEWER),
    ("Priya drinks a lot of coffee, usually three cups before lunch.",
     "Priya's new thing is green tea; Priya gets through a whole pot every morning."),
    ("Kwame plays squash twice a week at the leisure centre.",
     "Kwame's weekends are all about badminton with the club these days."),
    ("Hugo is learning Spanish on an app.", "Hugo has been having Portuguese lessons."),
    ("Lena rides a bicycle everywhere.", "Lena zips around town on a scooter now."),
])
def test_two_things_of_one_kind(wordnet: Any, older: str, newer: str) -> None:
    assert of_one_kind(older, newer)


@pytest.mark.parametrize(("older", "newer"), [
    ("Joss plays tennis at the club.", "Joss bought a second-hand cello last week."),
    ("Hal has a golden retriever called Max.", "Hal adopted a cat."),   # two pets
    ("Hal has a cat.", "Hal's new kitten is a tabby."),     # a thing and its kind
    ("Ana plays the violin most evenings.", "Ana plays the violin in a quartet now."),
    ("Ana swims in the morning.", "Ana reads in the evening."),   # times are no values
    ("Nia swims at the leisure centre three mornings a week.",        # nor places
     "Nia is taking a fortnight off the pool while the ear infection clears."),
    ("Ptolemy has a Labrador called Biscuit.",
     "Ptolemy picked up a kitten from the rescue centre on Saturday."),
])
def test_no_two_things_of_one_kind(wordnet: Any, older: str, newer: str) -> None:
    assert not of_one_kind(older, newer)


def _ahead(newer: str, query: str = "What instrument does Ana play?",
           relations: frozenset[str] = frozenset()) -> list[int]:
    """The older value ranked first, the newer second: the order ``kind_ahead`` gives."""
    texts = [OLD, newer]
    gives_way = [aside(t) or bool(ADDITION.search(t)) or yields(t) for t in texts]
    return kind_ahead([0, 1], ["ana", "ana"], [1.0, 2.0], texts, [True, True],
                      [True, True], [True, False], gives_way, relations, query)


def test_a_newer_thing_of_one_kind_goes_ahead(wordnet: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert _ahead(NEWER) == [1, 0]
    # The query names the older's thing: it asks of the older.
    assert _ahead(NEWER, "Does Ana still play the violin?") == [0, 1]
    assert kin_nouns(OLD, NEWER) == {"violin"}
    # Without the lexicon, nothing moves: the other readings decide.
    monkeypatch.setenv("TRIFORM_LEXICON", "off")
    assert _ahead(NEWER) == [0, 1]


@pytest.mark.parametrize("newer", [
    "Ana used to play the cello at school.",                       # a past
    "Ana would love to learn the cello one day.",                  # a wish
    "Ana also plays the cello.",                                   # an addition
    "Ana's son has started cello lessons.",                        # another's
    "Ana bought a second-hand bicycle last week.",                 # another kind
])
def test_no_newer_value_of_the_subjects_own_goes_ahead(wordnet: Any, newer: str) -> None:
    assert _ahead(newer) == [0, 1]


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _found(make_store: Callable[..., MemoryBackend], served: object, newer: str,
           query: str = "What instrument does Ana play?", as_of: str | None = None,
           directory: Path | None = None) -> list[str]:
    store = make_store(embedder=served, **({} if directory is None else
                                           {"directory": directory}))
    for content, when in [("Ana is allergic to cats.", "2024-01-01T10:00:00Z"),
                          ("Ana works as a pharmacist.", "2024-01-01T10:00:00Z"),
                          (OLD, "2024-01-08T10:00:00Z"), (newer, "2024-03-01T10:00:00Z")]:
        store.store(content=content, category="fact", occurred_at=when,
                    settings=EVERYTHING, **ANA)
    found = store.search(query=query, settings=EVERYTHING, limit=10, count_access=False,
                         as_of=as_of, **ANA).results
    return [r["memory"]["content"] for r in found]


def test_search_puts_the_newer_instrument_of_one_kind_first(
        make_store: Callable[..., MemoryBackend], served: object, wordnet: Any,
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    found = _found(make_store, served, NEWER)
    assert found.index(NEWER) < found.index(OLD)
    import index.recency
    monkeypatch.setattr(index.recency, "kind_ahead", lambda order, *_a, **_k: order)
    found = _found(make_store, served, NEWER, directory=tmp_path / "without")
    assert found.index(OLD) < found.index(NEWER), "the setup: ranked second otherwise"


def test_search_as_of_before_answers_the_older_instrument(
        make_store: Callable[..., MemoryBackend], served: object, wordnet: Any) -> None:
    found = _found(make_store, served, NEWER, as_of="2024-01-08T10:01:00Z")
    assert found[0] == OLD and NEWER not in found


def test_search_keeps_the_older_first_of_another_persons_instrument(
        make_store: Callable[..., MemoryBackend], served: object, wordnet: Any) -> None:
    newer = "Ana's son has started cello lessons at school."
    found = _found(make_store, served, newer)
    assert found.index(OLD) < found.index(newer)


@pytest.mark.parametrize(("newer", "own"), [
    ("Farah's sister talked Farah into rowing. Farah is on the river every Saturday.", True),
    ("The neighbours have been patient with the scales since Ana took up the cello.", True),
    ("Like Ana's dad, Ana is all about the cello these days.", True),
    ("Ana's son has started cello lessons at school.", False),
    ("Ana's girlfriend Chloe just took up the cello.", False),
    ("Chloe took up the cello.", False),
])
def test_whose_thing_a_newer_naming_another_person_holds(newer: str, own: bool) -> None:
    things = frozenset({"cello", "rowing"})
    assert held_by_subject(newer, "Ana swims and Farah plays the violin.", things) is own
