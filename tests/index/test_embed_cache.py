"""The embedding cache (index/embed_cache.py): a cached vector is the fresh one, bit for bit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import CachedEmbedder, EmbeddingFailed, HashingEmbedder, MemorySettings

PROFILE = settings.get_profile("triform-index")
EVERYTHING = MemorySettings(relevance_threshold=0.0)


class CountingEmbedder(HashingEmbedder):
    """A real (hashing) embedder that records the texts it was asked to embed."""

    def __init__(self) -> None:
        super().__init__(64)
        self.seen: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.seen.extend(texts)
        return super().embed(texts)


@settings(PROFILE, max_examples=60)
@given(calls=st.lists(st.lists(st.sampled_from(["a b", "c", "a b c", "d e f", "é ö", "x"]),
                               min_size=0, max_size=6), min_size=1, max_size=6),
       size=st.integers(min_value=1, max_value=4))
def test_cached_vectors_equal_fresh_ones_and_each_new_text_is_embedded_once(calls, size):
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, max_entries=size)
    fresh = HashingEmbedder(64)
    for texts in calls:
        before = len(inner.seen)
        out = cache.embed(texts)
        assert out.shape == (len(texts), 64) and out.dtype == np.float32
        if texts:
            assert np.array_equal(out, fresh.embed(texts))
        new = inner.seen[before:]
        assert len(new) == len(set(new))          # a repeat inside one call: embedded once
    assert cache.stats().entries <= size


def test_hits_and_misses_are_counted_and_the_oldest_text_leaves_first():
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, max_entries=2)
    cache.embed(["window", "content one"])
    cache.embed(["window", "content two"])           # window hits; "content one" leaves
    assert inner.seen == ["window", "content one", "content two"]
    cache.embed(["content one"])
    assert inner.seen[-1] == "content one"
    stats = cache.stats()
    assert (stats.hits, stats.misses, stats.entries) == (1, 4, 2)
    assert stats.hit_rate == pytest.approx(0.2)


def test_a_caller_writing_into_its_result_cannot_change_the_cache():
    cache = CachedEmbedder(HashingEmbedder(64))
    first = cache.embed(["text"])
    first[:] = 0.0
    assert np.array_equal(cache.embed(["text"]), HashingEmbedder(64).embed(["text"]))


def test_long_texts_are_not_kept():
    inner = CountingEmbedder()
    cache = CachedEmbedder(inner, max_text_chars=10)
    cache.embed(["a" * 11])
    cache.embed(["a" * 11])
    assert len(inner.seen) == 2 and cache.stats().entries == 0


class BrokenEmbedder(HashingEmbedder):
    def __init__(self, result: np.ndarray | None) -> None:
        super().__init__(64)
        self.result = result

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.result is None:
            raise ConnectionError("down")
        return self.result


@pytest.mark.parametrize("result", [None, np.zeros((2, 64), dtype=np.float32),
                                    np.full((1, 64), np.nan, dtype=np.float32)])
def test_failures_propagate_and_are_not_cached(result):
    cache = CachedEmbedder(BrokenEmbedder(result))
    with pytest.raises((ConnectionError, EmbeddingFailed)):
        cache.embed(["text"])
    assert cache.stats().entries == 0


def test_a_store_embeds_a_repeated_window_once(make_store):
    inner = CountingEmbedder()
    store = make_store(embedder=inner)
    window = "Ann: we moved to Lisbon last spring\nBob: how is it going?"
    store.store_many([{"content": f"fact {i}", "category": "fact", "context": window}
                      for i in range(3)], settings=EVERYTHING)
    store.store(content="fact 3", category="fact", context=window, settings=EVERYTHING)
    store.search(query="where does Ann live", context=window, settings=EVERYTHING)
    assert inner.seen.count(window) == 1
    assert isinstance(store.embedder, CachedEmbedder)
    assert store.embedder.stats().hits == 4


def test_the_cache_can_be_turned_off_or_shared(make_store, tmp_path):
    inner = CountingEmbedder()
    plain = make_store(embedder=inner, embed_cache=0)
    assert plain.embedder is inner
    shared = CachedEmbedder(inner)
    first = make_store(embedder=shared, directory=tmp_path / "one")
    second = make_store(embedder=shared, directory=tmp_path / "two")
    assert first.embedder is shared and second.embedder is shared
