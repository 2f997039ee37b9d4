"""A model per lane: each lane's vectors come from its model, on both backends, through the
cache, and a store whose lanes were embedded under another assignment re-embeds itself.

The models are real: the hashing embedder (384 dimensions) for content and the distilled
static model (``test_static_model.py`` provisions it) for the situation's lanes, so that a
text embedded by the wrong model gives another vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from index import CachedEmbedder, HashingEmbedder, LaneEmbedder, MemorySettings
from index.embed import embed_for_lanes
from index.lane_models import parse_lane_models
from index.model import default_cache_dir
from index.static_model import STATIC_MODEL_ID, StaticEmbedder
from index.static_provision import provision_static_model

EVERYTHING = MemorySettings(relevance_threshold=0.0)


@pytest.fixture(scope="module")
def static() -> StaticEmbedder:
    return StaticEmbedder(provision_static_model(default_cache_dir()))


@pytest.fixture
def lanes(static: StaticEmbedder) -> LaneEmbedder:
    return LaneEmbedder({"content": HashingEmbedder(384), "context": static,
                         "intention": static})


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def test_each_text_goes_to_its_lane_model(lanes: LaneEmbedder, static: StaticEmbedder) -> None:
    text = "planning a dinner with friends"
    got = lanes.embed_lanes(["content", "context", "intention"], [text, text, text])
    np.testing.assert_allclose(got[0], HashingEmbedder(384).embed([text])[0], atol=1e-6)
    np.testing.assert_allclose(got[1], static.embed([text])[0], atol=1e-6)
    np.testing.assert_allclose(got[2], got[1], atol=1e-6)
    assert not np.allclose(got[0], got[1])
    # a store's keys ("3:context") name the lane; lanes know nothing else: content's model
    keyed = embed_for_lanes(lanes, ["3:context", "0:content"], [text, text])
    np.testing.assert_allclose(keyed, got[[1, 0]], atol=1e-6)
    np.testing.assert_allclose(lanes.embed([text]), got[:1], atol=1e-6)


def test_model_id_names_each_lane_or_the_one_model(static: StaticEmbedder) -> None:
    mixed = LaneEmbedder({"content": HashingEmbedder(384), "context": static,
                          "intention": static})
    assert mixed.model_id == (f"content=hashing-384;context={STATIC_MODEL_ID};"
                              f"intention={STATIC_MODEL_ID}")
    assert mixed.lane_model("context") == STATIC_MODEL_ID
    one = LaneEmbedder({lane: static for lane in ("content", "context", "intention")})
    assert one.model_id == STATIC_MODEL_ID   # stores of one model keep their id
    with pytest.raises(ValueError, match="one dimension"):
        LaneEmbedder({"content": HashingEmbedder(64), "context": static, "intention": static})
    with pytest.raises(ValueError, match="exactly the lanes"):
        LaneEmbedder({"content": static})


def test_parse_lane_models() -> None:
    assert parse_lane_models("static") == dict.fromkeys(("content", "context", "intention"),
                                                        "static")
    assert parse_lane_models("MiniLM,static,static")["content"] == "minilm"
    for bad in ("", "bert", "minilm,static", "minilm,static,static,static"):
        with pytest.raises(ValueError):
            parse_lane_models(bad)


def test_the_cache_keeps_a_text_once_per_model(lanes: LaneEmbedder) -> None:
    cache = CachedEmbedder(lanes)
    text = "the same window in two lanes"
    first = cache.embed_lanes(["content", "context"], [text, text])
    assert not np.allclose(first[0], first[1])
    again = cache.embed_lanes(["context", "content", "intention"], [text, text, text])
    np.testing.assert_allclose(again, first[[1, 0, 1]], atol=0)
    stats = cache.stats()
    assert (stats.misses, stats.hits, stats.entries) == (2, 3, 2)
    assert cache.lane_model("context") == STATIC_MODEL_ID


def test_a_wrapper_hiding_the_lanes_fails_rather_than_mixing_models(
        lanes: LaneEmbedder, make_store: Any, defaults: MemorySettings) -> None:
    class Hiding:
        def __init__(self, inner: LaneEmbedder) -> None:
            self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim

        def embed(self, texts: Sequence[str]) -> np.ndarray:
            return self.inner.embed(texts)

    with pytest.raises(TypeError, match="embed_lanes"):
        embed_for_lanes(Hiding(lanes), ["context"], ["x"])
    store = make_store(embedder=Hiding(lanes), embed_cache=0)
    result = store.store(content="x", context="y", category="fact", settings=defaults)
    assert result.warnings == ["MEMORY_EMBEDDING_FAILED"]


def test_store_and_search_use_each_lane_model(lanes: LaneEmbedder, static: StaticEmbedder,
                                              make_store: Any) -> None:
    store = make_store(embedder=lanes)
    stored_context = "we talked about the trip to Lisbon and her sister's wedding"
    store.store(content="Dana's sister is getting married in Lisbon", category="fact",
                context=stored_context, intention="remember family events",
                settings=EVERYTHING)
    query_context = "a chat about a wedding abroad"
    found = store.search(query="who is getting married?", context=query_context,
                         intention="plan the family calendar", settings=EVERYTHING).results
    by_static = float(unit(static.embed([stored_context])[0]) @
                      unit(static.embed([query_context])[0]))
    hashing = HashingEmbedder(384).embed([stored_context, query_context])
    assert found[0]["lanes"]["context"] == pytest.approx(by_static, abs=1e-4)
    assert abs(by_static - float(hashing[0] @ hashing[1])) > 0.05
    many = store.store_many([{"content": f"item {i}", "category": "fact",
                              "context": stored_context} for i in range(3)],
                            settings=EVERYTHING)
    assert all(r.memory["embedded"] for r in many)


def test_another_lane_assignment_re_embeds_the_store(static: StaticEmbedder, make_store: Any,
                                                     tmp_path: Path) -> None:
    plain = HashingEmbedder(384)
    store = make_store(embedder=plain)
    memory = store.store(content="lives in Oslo", context="a talk about moving north",
                         category="fact", settings=EVERYTHING).memory
    store.close()
    mixed = LaneEmbedder({"content": plain, "context": static, "intention": static})
    other = make_store(embedder=mixed)
    assert other.model_id == mixed.model_id
    other.repair_embeddings()   # or the background embedder did it already
    assert other.get(memory["id"])["embedded"]
    asked = "we discussed relocating to the north"
    found = other.search(query="lives in Oslo", context=asked, settings=EVERYTHING).results
    by_static = float(unit(static.embed(["a talk about moving north"])[0]) @
                      unit(static.embed([asked])[0]))
    assert found[0]["lanes"]["context"] == pytest.approx(by_static, abs=1e-4)


def test_the_situation_embeds_beside_content_and_many_callers_get_their_own_rows(
        lanes: LaneEmbedder, static: StaticEmbedder) -> None:
    """``embed_lanes`` runs the static model on a thread of its own while content's model
    runs on the caller's; concurrent callers (a server's threads) each get their rows, in
    the order of their lanes."""
    import threading

    calls = [[f"question {n}", f"a window about boats and {n} cats", f"goal {n}"]
             for n in range(24)]
    lanes_of = ["intention", "content", "context"]
    wanted = [np.vstack([static.embed([texts[2]]), HashingEmbedder(384).embed([texts[0]]),
                         static.embed([texts[1]])]) for texts in calls]
    got: dict[int, np.ndarray] = {}

    def work(first: int) -> None:
        for n in range(first, len(calls), 4):
            texts = calls[n]
            got[n] = lanes.embed_lanes(lanes_of, [texts[2], texts[0], texts[1]])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(got) == list(range(len(calls)))
    for n, rows in got.items():
        np.testing.assert_allclose(rows, wanted[n], atol=1e-6)
    assert lanes._side_model is static
