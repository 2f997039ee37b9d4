"""A job told by its title is what recall answers a job question with (``index/occupation.py``
read by ``own_answer.as_job``), on both backends.

Of a person's few memories, the name weighs on every cosine alike and the small model
reads "is a postman in Derby" as a home (the place it names): asked "What does Osric do
for a living?", "Osric's mum lives in Shrewsbury" ranked first ("living" and "lives") above
"Osric is a staff nurse at the Royal Infirmary". Read by its grammar, the title is the job: it
answers first. A job of another person's ("Osric's mum works as a nurse") is not the
subject's job, and a hobby told with a trade's word ("a keen gardener") is no job.

When the job scores under the threshold ("Osric is a postman in Derby" for "What does
Osric do for a living?": only the mum's home was found), the job read by its grammar
joins the results (``answers_under._missing_job``); a job of another person's does not."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from index import MemoryBackend, MemorySettings, tells_job

OSRIC: dict[str, Any] = {"subject_type": "guest", "subject_id": "osric"}
BACKGROUND = ["Osric has got two cats called Pepper and Salt.", "Osric supports Aston Villa.",
              "Osric's mum lives in Shrewsbury.", "Osric is learning Spanish on Duolingo."]


@pytest.fixture
def served(model_cache: Path) -> object:
    from index import load_embedder
    return load_embedder(model_cache, log=lambda *_: None)


def _first(make_store: Callable[..., MemoryBackend], served: object, memories: list[str],
           query: str) -> str | None:
    store = make_store(embedder=served)
    for day, content in enumerate(memories, start=1):
        store.store(content=content, category="fact", occurred_at=f"2025-03-{day:02d}T10:00:00Z",
                    settings=MemorySettings(), **OSRIC)
    found = store.search(query=query, settings=MemorySettings(), count_access=False,
                         **OSRIC).results
    return found[0]["memory"]["content"] if found else None


@pytest.mark.parametrize(("job", "query"), [
    ("Osric is a postman in Derby.", "What does Osric do for work?"),
    ("Osric drives delivery vans for Ocado.", "What is Osric's job?"),
    ("Osric is a staff nurse at the Royal Infirmary.", "What does Osric do for a living?"),
])
def test_a_job_told_by_its_title_answers_a_job_question_first(
        make_store: Callable[..., MemoryBackend], served: object, job: str, query: str) -> None:
    assert _first(make_store, served, [*BACKGROUND, job], query) == job


@pytest.mark.parametrize("query", ["What does Osric do for a living?", "Where does Osric work?"])
@pytest.mark.parametrize("told_first", [True, False])
def test_a_job_under_the_threshold_joins_the_answer(
        make_store: Callable[..., MemoryBackend], served: object, query: str,
        told_first: bool) -> None:
    job = "Osric is a postman in Derby."
    memories = [job, *BACKGROUND] if told_first else [*BACKGROUND, job]
    assert _first(make_store, served, memories, query) == job


def test_another_persons_job_does_not_join_as_the_subjects(
        make_store: Callable[..., MemoryBackend], served: object) -> None:
    first = _first(make_store, served, [*BACKGROUND, "Osric's mum works as a postwoman in Derby."],
                   "What does Osric do for a living?")
    assert first is None or "postwoman" not in first


@pytest.mark.parametrize(("said", "job"), [
    ("is a postman in Derby.", True),
    ("drives delivery vans for Ocado.", True),
    ("works as a staff nurse at the Royal Infirmary.", True),
    ("is a keen gardener.", False),
    ("volunteers at the food bank on Saturdays.", False),
    ("mum works as a nurse.", False),
    ("lives in Shrewsbury.", False),
])
def test_the_grammar_of_a_living(said: str, job: bool) -> None:
    assert tells_job(said) is job
