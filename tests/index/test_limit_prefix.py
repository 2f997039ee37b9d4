"""A search's limit only cuts its list (``Ranking.depth``): the first k results of a search
with a larger limit are the search with limit k.

Recall orders its rows newer first before it cuts them (``recency.newer_first``): a newer
near-duplicate ranked below the limit moved up into the list only when a larger limit took
it in, so a search of 10 and the first 10 of a search of 16 differed. The ranking now
chooses at least ``Ranking.depth`` rows (16: the largest limit whose candidates are the
floor of ``IndexParams.candidates_for``) and each backend cuts after the order."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, MemoryBackend, MemorySettings, IndexParams
from index.ranking import Ranking

PROFILE = settings.get_profile("triform-index")
EVERYTHING = MemorySettings(relevance_threshold=0.0)
WHO = [{"subject_type": "circle_member", "subject_id": "ann"},
       {"subject_type": "circle_member", "subject_id": "ben"}, {}]
#: One attribute's values told over time (near-duplicates of each other), and other facts.
SAID = ["{n} lives in {v}", "{n} works as a {v}", "{n} has a dog called {v}",
        "{n} likes {v} in the morning", "{n} is learning {v} these days",
        "{n} used to live in {v}", "{n} sold the {v} last month", "{n} also has a {v}"]
VALUES = ["Porto", "Lisbon", "nurse", "teacher", "Rex", "Biscuit", "tea", "coffee", "Spanish",
          "Vespa"]
QUERIES = ["Where does Ann live?", "What is Ann's job?", "What pet does Ann have?",
           "What does Ann drink in the morning?", "Ann Porto Lisbon", "dog"]
_opened = itertools.count()


@st.composite
def _memories(draw: st.DrawFn) -> list[tuple[str, str, int, str]]:
    """(content, category, day, whose) of up to 30 memories: many near-duplicates of one
    subject told on different days, so that the newer-first order has groups to move."""
    out = []
    for _ in range(draw(st.integers(8, 30))):
        whose = draw(st.sampled_from(range(len(WHO))))
        name = ("Ann", "Ben", "The team")[whose]
        text = draw(st.sampled_from(SAID)).format(n=name, v=draw(st.sampled_from(VALUES)))
        out.append((text, draw(st.sampled_from(["fact", "preference", "context"])),
                    draw(st.integers(0, 40)), str(whose)))
    return out


@settings(PROFILE, max_examples=25)
@given(memories=_memories(), query=st.sampled_from(QUERIES),
       limits=st.tuples(st.integers(1, 16), st.integers(1, 16)))
def test_a_search_is_the_first_of_any_search_with_a_larger_limit(
        make_store: Callable[..., MemoryBackend], tmp_path: Path,
        memories: list[tuple[str, str, int, str]], query: str,
        limits: tuple[int, int]) -> None:
    store = make_store(embedder=HashingEmbedder(64),
                       directory=tmp_path / f"m{next(_opened)}")
    for text, category, day, whose in memories:
        store.store(content=text, category=category, settings=EVERYTHING,
                    occurred_at=f"2024-{1 + day // 28:02d}-{1 + day % 28:02d}T10:00:00Z",
                    **WHO[int(whose)])
    small, large = sorted(limits)

    def search(limit: int, **subject: Any) -> list[tuple[str, float]]:
        found = store.search(query=query, settings=EVERYTHING, limit=limit,
                             count_access=False, **subject).results
        return [(r["memory"]["id"], r["score"]) for r in found]
    for subject in WHO:
        assert search(small, **subject) == search(large, **subject)[:small]


def test_the_depth_is_the_limit_and_at_least_the_candidates_floor() -> None:
    """A search of 10 chooses 16 rows to order (then cuts at 10); a search of 50, 50."""
    ranking = Ranking.of(IndexParams(), EVERYTHING, 10, None)
    assert ranking.depth == 16 and ranking.limit == 10
    assert Ranking.of(IndexParams(), EVERYTHING, 50, None).depth == 50
    params = IndexParams()
    assert params.candidates_for(1) == params.candidates_for(ranking.depth)
