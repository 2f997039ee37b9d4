"""What a query that names its person asks, read from the query said with "they" (issue 23,
item 5; ``index/they.py``, ``asked.asked_of``): the profile bank's questions are worded
about "they", and a name the model has not seen weighs on the query's vector as much as
what it asks. That text is embedded (a second model call, then cached) only when the
query's own words ask nothing clearly and, its name's direction taken out, it nears a
single-valued attribute.

The readers are pure; the reading and the stores run the real model (both backends)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import MemoryBackend, MemorySettings
from index.names import query_names
from index.they import they_query


@pytest.mark.parametrize(("query", "said"), [
    ("Where does Peregrine live now?", "Where do they live now?"),
    ("What is Horatio's job?", "What is their job?"),
    ("What is James' car?", "What is their car?"),
    ("Is Dan married?", "Are they married?"),
    ("Does Barnaby have a season ticket?", "Do they have a season ticket?"),
    ("How does Imogen get to work?", "How do they get to work?"),
    # A place named first is no person asked of: the next name is.
    ("Which part of London does Bilal live in?", "Which part of London do they live in?"),
])
def test_the_person_asked_of_is_said_as_they(query: str, said: str) -> None:
    assert they_query(query, query_names(query)) == said


@pytest.mark.parametrize("query", [
    "Who employs Hortense?",          # an object: no auxiliary's subject, no owner
    "What did the team say about Kyoto?",
    "Where is the nearest pharmacy?",  # names nobody
    "Dan?",                            # the name alone, asked of nothing
])
def test_a_query_naming_no_one_asked_of_has_no_they_reading(query: str) -> None:
    assert they_query(query, query_names(query)) is None


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _read(served: object, query: str, they: bool) -> Any:
    from index.embed import embed_for_lanes
    from index.names import first_name
    from index.recency import asked_of
    names = query_names(query)
    texts = [query, first_name(query, names), they_query(query, names)]
    vectors = embed_for_lanes(served, ["content"] * 3, texts)   # type: ignore[arg-type]
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return asked_of(served, {"content": vectors[0]}, query,    # type: ignore[arg-type]
                    vectors[1], texts[2] if they else None)


@pytest.mark.parametrize(("query", "attribute"), [
    ("Where does Peregrine live now?", "residence"),
    ("Where does Bartholomew work?", "job"),
    ("Where does Winifred live?", "residence"),
])
def test_a_named_query_asks_its_attribute_said_with_they(served: object, query: str,
                                                          attribute: str) -> None:
    from index.profile_bank import ATTRIBUTES
    plain = _read(served, query, they=False)
    assert plain is None or plain.faint or ATTRIBUTES[plain.attribute].name != attribute, \
        "the setup: the name drowns what the query asks"
    read = _read(served, query, they=True)
    assert read is not None and ATTRIBUTES[read.attribute].name == attribute
    assert not read.faint and not read.unnamed
    # The query's own vector stays the one the ranking's cosines read.
    assert read.vector is not None and float(read.vector @ plain_vector(served, query)) > .999


def plain_vector(served: object, query: str) -> np.ndarray:
    from index.embed import embed_for_lanes
    vector = embed_for_lanes(served, ["content"], [query])[0]   # type: ignore[arg-type]
    return np.asarray(vector / np.linalg.norm(vector), dtype=np.float32)


def test_a_many_valued_attribute_said_with_they_is_not_taken(served: object) -> None:
    """A person's hobbies are read from whole memories too roughly for a sharper reading
    of the query to order them ("What do they do on Tuesdays?" put "hates getting up
    early on Mondays" first): the query's own reading stands."""
    query = "What does Sven do on Tuesdays?"
    assert _read(served, query, they=True) == _read(served, query, they=False)


class _Recording:
    """The real model, recording the texts of each call that reaches it."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.batches: list[list[str]] = []

    def embed(self, texts: Any) -> np.ndarray:
        self.batches.append(list(texts))
        return np.asarray(self.inner.embed(texts))

    def embed_lanes(self, lanes: Any, texts: Any) -> np.ndarray:
        self.batches.append(list(texts))
        return np.asarray(self.inner.embed_lanes(lanes, texts))


def test_the_they_text_is_embedded_only_for_a_query_that_asks_nothing_clearly(
        make_store: Callable[..., MemoryBackend], served: object) -> None:
    """A second model call only for a named query whose own words ask nothing clearly and
    which, without its name, nears a single-valued attribute; a query that asks clearly,
    or asks of a person's events, makes none; and the text is the embedding cache's after."""
    model = _Recording(served)
    store = make_store(embedder=model)
    settings = MemorySettings(relevance_threshold=0.0)
    store.store(content="Bartholomew works as an accountant at KPMG.", category="fact",
                settings=settings, subject_type="guest", subject_id="b")
    store.search(query="What does Bartholomew eat?", settings=settings, count_access=False,
                 subject_type="guest", subject_id="b")     # the bank, once per model
    for query, they in [("Where does Bartholomew work?", "Where do they work?"),
                        ("Where does Bartholomew live?", None),    # asked clearly
                        ("When is Bartholomew's hackathon?", None)]:  # an event
        model.batches.clear()
        store.search(query=query, settings=settings, count_access=False,
                     subject_type="guest", subject_id="b")
        said = [text for batch in model.batches for text in batch]
        assert query in said
        assert (they in said) if they else \
            not any("they" in t or "their" in t for t in said), (query, said)
    model.batches.clear()
    store.search(query="Where does Bartholomew work?", settings=settings,
                 count_access=False, subject_type="guest", subject_id="b")
    assert not model.batches    # the query and its "they" text from the cache
