"""Embedding behind the write (``index/behind.py``), on both backends: a write made with
``embed_later`` is acknowledged durable without vectors and found by text at once; the
store's background embedder gives it its vectors; a close, a crash or a failing model
loses nothing, and a store opened with ``repair_on_open`` embeds what is still pending.

The embedders are real (hashing, so meaning is not tested here: ``tests/api/
test_subconscious.py`` does it with the model); :class:`Gated` holds the background
thread's calls at a gate so a test can see the state *before* the vectors land without
sleeping on the clock.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import HashingEmbedder, MemorySettings, MemoryStore

EVERYTHING = MemorySettings(relevance_threshold=0.0)
SPARE_KEY = {"content": "the spare key is under the blue pot", "category": "fact",
             "context": "house sitting instructions", "intention": "let the sitter in"}


class Gated(HashingEmbedder):
    """The hashing embedder, whose calls from the background embedder's thread wait at a
    gate (``release()`` opens it); ``entered`` is set when one reaches it."""

    def __init__(self, dim: int = 256) -> None:
        super().__init__(dim)
        self.gate = threading.Event()
        self.entered = threading.Event()
        self.behind_calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if threading.current_thread().name.startswith("embed-behind:"):
            self.behind_calls += 1
            self.entered.set()
            assert self.gate.wait(60), "the test never opened the gate"
        return super().embed(texts)

    def release(self) -> None:
        self.gate.set()


def behind_thread_of(backend: str, tmp_path: Path) -> list[threading.Thread]:
    """The background embedder of ``make_store``'s store, if its thread runs (it is named
    after the element: the directory's name, or on PostgreSQL the element key)."""
    name = "mem" if backend == "file" else str(tmp_path / "mem")
    return [t for t in threading.enumerate() if t.name == f"embed-behind:{name}"]


def test_a_write_embedded_later_is_found_by_text_at_once_then_by_vector(
        make_store: Any) -> None:
    gated = Gated()
    store = make_store(embedder=gated, embed_cache=0)
    result = store.store(**SPARE_KEY, settings=EVERYTHING, embed_later=True)
    # Acknowledged without vectors, and without the warning of a failed embedding.
    assert not result.memory["embedded"] and result.warnings == []
    assert not store.get(result.memory["id"])["embedded"]
    found = store.search(query="where is the spare key", settings=EVERYTHING)
    assert found.fallback == "text"
    assert found.results[0]["memory"]["id"] == result.memory["id"]
    assert not store.flush_embeddings(0.05)      # held at the gate: not yet
    gated.release()
    assert store.flush_embeddings(30)
    assert store.get(result.memory["id"])["embedded"]
    healed = store.search(query="spare key blue pot", context="house sitting instructions",
                          settings=EVERYTHING)
    assert healed.fallback is None and healed.results[0]["memory"]["id"] == \
        result.memory["id"]
    assert healed.results[0]["lanes"]["context"] > 0.99
    assert store.stats(settings=EVERYTHING)["unembedded"] == 0


def test_flush_returns_at_once_when_nothing_was_handed_over(make_store: Any) -> None:
    store = make_store()
    store.store(content="inline", category="fact", settings=EVERYTHING)
    assert store.flush_embeddings(0)


def test_an_update_embedded_later_drops_the_old_vectors_then_gets_new_ones(
        make_store: Any) -> None:
    store = make_store()
    memory = store.store(content="lives in Oslo", category="fact", settings=EVERYTHING).memory
    assert memory["embedded"]
    updated = store.update(memory["id"], content="lives in Bergen", settings=EVERYTHING,
                           embed_later=True)
    assert not updated["embedded"]      # the Oslo vector must not answer for Bergen
    assert store.flush_embeddings(30)
    assert store.get(memory["id"])["embedded"]
    found = store.search(query="lives in Bergen", settings=EVERYTHING)
    assert found.fallback is None and found.results[0]["score"] > 0.99
    # A change of no text (category only) keeps the vectors and wakes nothing.
    same = store.update(memory["id"], category="context", settings=EVERYTHING,
                        embed_later=True)
    assert same["embedded"]


def test_a_failing_model_is_never_an_error_and_is_retried(make_store: Any,
                                                          make_flaky: Any) -> None:
    flaky = make_flaky(failing=True)
    store = make_store(embedder=flaky, embed_cache=0)
    result = store.store(**SPARE_KEY, settings=EVERYTHING, embed_later=True)
    assert result.warnings == [] and not result.memory["embedded"]
    assert not store.flush_embeddings(30)        # the pass failed: told at once, not raised
    found = store.search(query="spare key", settings=EVERYTHING)
    assert found.fallback == "text" and found.results[0]["memory"]["id"] == \
        result.memory["id"]
    flaky.failing = False
    assert store.flush_embeddings(30)            # retried (a flush asks for it at once)
    assert store.get(result.memory["id"])["embedded"]


def test_close_while_the_model_is_busy_loses_nothing_and_reopen_embeds(
        make_store: Any, backend: str, tmp_path: Path) -> None:
    gated = Gated()
    store = make_store(embedder=gated, embed_cache=0)
    ids = [store.store(content=f"note {i} about the garden", category="fact",
                       settings=EVERYTHING, embed_later=True).memory["id"] for i in range(3)]
    assert gated.entered.wait(30)                # a pass is inside the model
    closer = threading.Thread(target=store.close)
    closer.start()
    gated.release()                              # its batch ends; close waits for it
    closer.join(60)
    assert not closer.is_alive() and not behind_thread_of(backend, tmp_path)
    # Reopened without repair: every memory is there, with or without its vectors.
    plain = make_store(embedder=HashingEmbedder(256))
    assert sorted(m["id"] for m in plain.list(limit=10)[0]) == sorted(ids)
    plain.close()
    again = make_store(embedder=HashingEmbedder(256), repair_on_open=True)
    assert again.flush_embeddings(30)
    assert all(again.get(i)["embedded"] for i in ids)


def test_the_thread_ends_with_the_store(make_store: Any, backend: str,
                                       tmp_path: Path) -> None:
    store = make_store()
    assert not behind_thread_of(backend, tmp_path)     # an idle store holds no thread
    store.store(content="x", category="fact", settings=EVERYTHING, embed_later=True)
    assert store.flush_embeddings(30)
    assert behind_thread_of(backend, tmp_path)
    store.close()
    assert not behind_thread_of(backend, tmp_path)


def test_repair_on_open_is_off_for_a_library_store(make_store: Any, make_flaky: Any) -> None:
    flaky = make_flaky(failing=True)
    store = make_store(embedder=flaky, embed_cache=0)
    memory = store.store(content="x", category="fact", settings=EVERYTHING,
                         embed_later=True).memory
    store.close()
    plain = make_store()
    assert plain.flush_embeddings(0) and not plain.get(memory["id"])["embedded"]
    assert plain.repair_embeddings() == 1


class Recording(HashingEmbedder):
    """A :class:`HashingEmbedder` that records the texts it is asked to embed."""

    def __init__(self, dim: int = 256) -> None:
        super().__init__(dim)
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts.extend(texts)
        return super().embed(texts)


def test_a_served_store_embeds_its_names_after_open(make_store: Any) -> None:
    """A store opened to serve (``repair_on_open``) embeds the names its memories open
    with into the cache in the background: the first search naming one of them runs the
    model on the question alone, not on the name too."""
    store = make_store()
    for content in ("Maria planted tomatoes", "Maria moved to Porto", "Jon sings",
                    "the garden needs water", "I like tea", "42 is the answer"):
        store.store(content=content, category="fact", settings=EVERYTHING)
    store.close()
    recording = Recording()
    served = make_store(embedder=recording, repair_on_open=True)
    assert served.flush_embeddings(30)
    assert sorted(recording.texts) == ["Jon", "Maria"]    # names, once; no 'the', no 'I'
    recording.texts.clear()
    served.search(query="Where does Maria live now?", settings=EVERYTHING)
    assert recording.texts and "Maria" not in recording.texts


# -- a crash before the vectors land ------------------------------------------------------

class Never(HashingEmbedder):
    """An embedder whose background calls never return (the process dies first)."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if threading.current_thread().name.startswith("embed-behind:"):
            threading.Event().wait()
        return super().embed(texts)


def _write_then_die(backend: str, where: str, pipe: Any) -> None:
    import os
    store: Any
    if backend == "postgres":
        from index.postgres import PostgresMemoryStore
        url, element = where.split("#", 1)
        store = PostgresMemoryStore(url, element, Never(256))
    else:
        store = MemoryStore(where, Never(256))
    ids = [store.store(content=f"written before the crash {i}", category="fact",
                       settings=EVERYTHING, embed_later=True).memory["id"] for i in range(3)]
    pipe.send(ids)
    pipe.close()
    os._exit(0)     # no close, no checkpoint: as a killed server


def test_a_crash_before_the_vectors_land_loses_nothing(make_store: Any, backend: str,
                                                       tmp_path: Path,
                                                       request: pytest.FixtureRequest) -> None:
    where = str(tmp_path / "mem")
    if backend == "postgres":
        where = f"{request.getfixturevalue('pg_database').url}#{where}"
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_write_then_die, args=(backend, where, child))
    proc.start()
    ids = parent.recv()
    proc.join(60)
    assert proc.exitcode == 0
    store = make_store(repair_on_open=True)
    assert store.flush_embeddings(30)
    assert sorted(m["id"] for m in store.list(limit=10)[0]) == sorted(ids)
    assert all(store.get(i)["embedded"] for i in ids)
    found = store.search(query="written before the crash", settings=EVERYTHING)
    assert found.fallback is None and len(found.results) == 3


# -- several workers on one database ------------------------------------------------------

class Counting(Gated):
    """:class:`Gated` that counts the texts its background calls embed."""

    def __init__(self) -> None:
        super().__init__()
        self.behind_texts = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if threading.current_thread().name.startswith("embed-behind:"):
            self.behind_texts += len(texts)
        return super().embed(texts)


def test_two_workers_never_embed_the_same_memory_twice(pg_database: Any,
                                                       tmp_path: Path) -> None:
    from index.postgres import PostgresMemoryStore
    element = str(tmp_path / "shared")
    first, second = Counting(), Counting()
    second.release()
    a = PostgresMemoryStore(pg_database, element, first, embed_cache=0)
    b = PostgresMemoryStore(pg_database, element, second, embed_cache=0)
    try:
        mine = [a.store(content=f"worker a heard {i}", category="fact", settings=EVERYTHING,
                        embed_later=True).memory["id"] for i in range(3)]
        assert first.entered.wait(30)           # a's pass is inside the model
        theirs = [b.store(content=f"worker b heard {i}", category="fact",
                          settings=EVERYTHING, embed_later=True).memory["id"]
                  for i in range(3)]
        # b's pass waits for a's, which will take b's memories too: b runs no model.
        assert not b.flush_embeddings(0.3)
        assert second.behind_calls == 0
        first.release()
        assert a.flush_embeddings(30) and b.flush_embeddings(30)
        assert all(b.get(i)["embedded"] for i in mine + theirs)
        assert first.behind_texts + second.behind_texts == 6    # each memory once
    finally:
        first.release()
        a.close()
        b.close()
