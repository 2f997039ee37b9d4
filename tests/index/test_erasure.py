"""Erasure whatever runs beside it, on both backends: a delete or a forget_subject leaves
no text of the memory in the store's files nor in its embedding cache, even when the
background embedder was computing that memory's vectors (or warming the names the store's
memories open with) at that very moment.

The background thread is held inside the model at a gate (a real hashing embedder that
waits), the memory is erased meanwhile, then the gate opens: each interleaving is made
deterministic, without sleeping on the clock. Whether the cache holds a text is asked the
way a caller would find out: embedding it again is a miss, not a hit.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from index import CachedEmbedder, HashingEmbedder, MemorySettings
from tests.helpers import files_holding

EVERYTHING = MemorySettings(relevance_threshold=0.0)
ZELDA = {"subject_type": "guest", "subject_id": "zelda"}
SECRET = "Zelda keeps the locker key in the greenhouse"
WINDOW = "Zelda whispered about the greenhouse locker"


class Gated(HashingEmbedder):
    """The hashing embedder; calls from the background embedder's thread wait at a gate
    (``entered`` is set when one reaches it)."""

    def __init__(self, dim: int = 256) -> None:
        super().__init__(dim)
        self.gate = threading.Event()
        self.entered = threading.Event()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if threading.current_thread().name.startswith("embed-behind:"):
            self.entered.set()
            assert self.gate.wait(60), "the test never opened the gate"
        return super().embed(texts)


def cached(store: Any, text: str) -> bool:
    """Whether the store's embedding cache holds ``text`` (embedding it is a hit)."""
    cache: CachedEmbedder = store.embedder
    misses = cache.stats().misses
    cache.embed([text])
    return cache.stats().misses == misses


def on_disk(store: Any, backend: str, word: str) -> list[str]:
    """The store's files holding ``word`` (the database's are PostgreSQL's own: see
    docs/deploy.md, "What a delete leaves on disk")."""
    return files_holding(store.directory, word) if backend == "file" else []


def test_a_pass_embedding_a_memory_as_its_subject_is_forgotten_brings_nothing_back(
        make_store: Any, backend: str) -> None:
    gated = Gated()
    store = make_store(embedder=gated)
    kept = store.store(content="The office closes at six", category="fact",
                       settings=EVERYTHING).memory
    store.store(content=SECRET, category="fact", context=WINDOW, **ZELDA,
                settings=EVERYTHING, embed_later=True)
    assert gated.entered.wait(30)       # the pass is computing Zelda's vectors
    assert store.forget_subject("guest", "zelda", confirm=True)["deleted"] == 1
    gated.gate.set()
    assert store.flush_embeddings(30)
    assert [m["id"] for m in store.list()[0]] == [kept["id"]]
    assert store.stats(settings=EVERYTHING)["unembedded"] == 0
    for word in ("greenhouse", "whispered", "Zelda"):
        assert on_disk(store, backend, word) == [], word
    for text in (SECRET, WINDOW, "Zelda"):
        assert not cached(store, text), text


def test_names_warmed_as_their_memory_is_forgotten_leave_the_cache(
        make_store: Any, backend: str) -> None:
    """The model is computing the names (Zelda's among them) when she is forgotten."""
    first = make_store()
    for i in range(20):
        first.store(content=f"Name{chr(97 + i)} likes tea",
                    category="fact", settings=EVERYTHING)
    first.store(content=SECRET, category="fact", **ZELDA, settings=EVERYTHING)
    first.close()
    gated = Gated()
    store = make_store(embedder=gated, repair_on_open=True)
    assert gated.entered.wait(30)       # warming the first 32 names
    assert store.forget_subject("guest", "zelda", confirm=True)["deleted"] == 1
    gated.gate.set()
    assert store.flush_embeddings(30)
    assert not cached(store, "Zelda")
    assert not cached(store, SECRET)
    assert on_disk(store, backend, "greenhouse") == []


def test_a_delete_takes_the_memorys_texts_out_of_the_cache(make_store: Any) -> None:
    store = make_store(embedder=HashingEmbedder(256))
    gone = store.store(content=SECRET, category="fact", context=WINDOW,
                       settings=EVERYTHING).memory
    store.update(gone["id"], content="Zelda moved the key to the shed",
                 settings=EVERYTHING)
    kept = store.store(content="Zelda waters the plants", category="fact",
                       settings=EVERYTHING).memory
    assert cached(store, SECRET) and cached(store, WINDOW)
    store.delete(gone["id"])
    for text in (SECRET, WINDOW, "Zelda moved the key to the shed"):
        assert not cached(store, text), text
    assert cached(store, kept["content"])           # another memory's texts stay
    assert store.search(query="who waters the plants",
                        settings=EVERYTHING).results[0]["memory"]["id"] == kept["id"]


def test_a_model_call_in_flight_caches_nothing_a_forget_dropped() -> None:
    """The cache alone: a text dropped while the model computes it is not cached back,
    and the call still answers its vectors."""
    inner = Gated()
    cache = CachedEmbedder(inner)
    out: list[np.ndarray] = []
    caller = threading.Thread(target=lambda: out.append(cache.embed([SECRET])),
                              name="embed-behind:test")
    caller.start()
    assert inner.entered.wait(30)
    assert cache.forget([SECRET]) == 0 and cache.erasures == 1
    inner.gate.set()
    caller.join(30)
    assert np.allclose(out[0], HashingEmbedder(256).embed([SECRET]))
    assert cache.stats().entries == 0
    cache.embed([SECRET])
    assert cache.stats().entries == 1 and cache.forget([SECRET, "other"]) == 1

