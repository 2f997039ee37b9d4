"""A subject's value worded unlike the question joins the answer when none of their results
holds it (``index/unanswered.py``), on both backends.

"The new Corsa arrived on Friday" scores under the threshold for "What car does Osric
drive?" (no word of it in the question): with no older car of Osric's stored, the search
found nothing, or only Osric's background. The memory that answers the attribute asked,
plainly by the profile bank, or a job told by its grammar, joins the results. Another
person's value, a trip told as an event, a wish, a past, a background fact of another
attribute and anything read for a question asked only faintly do not; nor does a sore
"tennis elbow" join beside a tennis club."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings

OSRIC: dict[str, Any] = {"subject_type": "guest", "subject_id": "osric"}
BACKGROUND = ["Osric cannot stand coriander.", "Osric goes to a pottery class on Wednesdays.",
              "Osric is learning Spanish on Duolingo."]


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _found(make_store: Callable[..., MemoryBackend], served: object, memories: list[str],
           query: str) -> list[str]:
    store = make_store(embedder=served)
    for day, content in enumerate(memories, start=1):
        store.store(content=content, category="fact", occurred_at=f"2025-03-{day:02d}T10:00:00Z",
                    settings=MemorySettings(), **OSRIC)
    found = store.search(query=query, settings=MemorySettings(), count_access=False,
                         **OSRIC).results
    return [r["memory"]["content"] for r in found]


@pytest.mark.parametrize(("value", "query"), [
    ("Picked up the keys to a Kia Picanto on Saturday.", "What car does Osric drive?"),
    ("The flat in Clifton is perfect, lots of light.", "Where does Osric live?"),
    ("Osric is a postman in Derby.", "What does Osric do for a living?"),
])
def test_a_value_under_the_threshold_joins_when_no_result_answers(
        make_store: Callable[..., MemoryBackend], served: object, value: str, query: str) -> None:
    assert value in _found(make_store, served, [*BACKGROUND, value], query)


def _joins(served: Any, background: list[str], candidate: str, query: str) -> list[str]:
    """What ``join_under`` joins of ``candidate`` (a row not chosen, told last) when the
    search chose ``background`` (the subject's, told before)."""
    from index.answers_under import join_under
    from index.asked import asked_of
    from index.embed import embed_for_lanes, normalize_rows
    texts = [*background, candidate]
    vectors = normalize_rows(embed_for_lanes(served, ["content"] * (len(texts) + 1),
                                             [query, *texts]))
    question = asked_of(served, {"content": vectors[0]}, query)
    joins = join_under(list(vectors[1:]), ["osric"] * len(texts),
                       [float(i) for i in range(len(texts))], texts, ["fact"] * len(texts),
                       len(background), question)
    return [texts[row] for row, _ in joins]


@pytest.mark.parametrize("background", [[], BACKGROUND[:2]])
@pytest.mark.parametrize(("candidate", "query"), [
    ("Picked up the keys to a Kia Picanto on Saturday.", "What car does Osric drive?"),
    ("The flat in Clifton is perfect, lots of light.", "Where does Osric live?"),
])
def test_the_join_reads_a_plain_value_of_the_subjects(served: Any, background: list[str],
                                                      candidate: str, query: str) -> None:
    assert _joins(served, background, candidate, query) == [candidate]


@pytest.mark.parametrize(("candidate", "query"), [
    ("Osric's husband picked up the keys to a Kia Picanto on Saturday.",
     "What car does Osric drive?"),
    ("Osric spent a long weekend in Edinburgh.", "Where does Osric live?"),
    ("Osric would love a flat in Clifton one day.", "Where does Osric live?"),
    ("Osric used to live in a flat in Clifton.", "Where does Osric live?"),
    ("Osric cannot stand coriander.", "Does Osric have an allotment?"),
    ("Osric goes to a pottery class on Wednesdays.", "Which gym does Osric go to?"),
])
def test_the_join_leaves_another_persons_a_trip_a_wish_a_past_and_another_attribute(
        served: Any, candidate: str, query: str) -> None:
    assert _joins(served, BACKGROUND[2:], candidate, query) == []


def test_a_sore_elbow_does_not_join_a_club_that_shares_its_word(served: Any) -> None:
    assert _joins(served, ["Gideon is a member of the tennis club on Park Road."],
                  "Gideon's tennis elbow is playing up again, the physio says rest it.",
                  "Which club is Gideon a member of?") == []


def test_a_faint_question_joins_nothing_by_the_bank_alone(served: Any) -> None:
    """"Does Delphine have an allotment?" nears a medication by chance (faintly), and a
    dislike answers that plainly: a guess claims no row the score did not find (here
    nothing was found of Delphine's)."""
    assert _joins(served, [],
                  "Delphine cannot stand coriander", "Does Delphine have an allotment?") == []
