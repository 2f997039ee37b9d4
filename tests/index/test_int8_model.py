"""MiniLM with INT8 weights (the content lane's default model), against the real files.

Provisioned once per machine into the shared cache from the float32 model (the first run
quantizes it in a throwaway venv, about 20 s once pip's cache is warm); later runs reuse it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from index import FastEmbedEmbedder, HashingEmbedder, LaneEmbedder, MemorySettings, load_embedder
from index.int8_provision import (
    INT8_MIN_COSINE,
    INT8_MODEL_ID,
    has_vnni,
    load_minilm_int8,
    provision_int8_model,
)
from index.model import DIM, MODEL_ID, default_cache_dir
from index.provision import PROVENANCE, is_provisioned, load_minilm
from index.static_model import STATIC_MODEL_ID

EVERYTHING = MemorySettings(relevance_threshold=0.0)
TEXTS = [
    "Alice's birthday is on 14 March; she likes tulips.",
    "To deploy, run make release, then push the tag.",
    "The on-call engineer this week is Bob, reachable on the ops channel.",
    "Melanie painted a sunrise over the lake last summer.",
    "ok",
    "Caroline went to a support group for transgender people on Tuesday and felt welcome.",
]


@pytest.fixture(scope="session")
def int8_dir() -> Path:
    return provision_int8_model(default_cache_dir())


@pytest.fixture(scope="session")
def int8(int8_dir: Path) -> FastEmbedEmbedder:
    return load_minilm_int8(int8_dir.parent)


@pytest.fixture(scope="session")
def float32() -> FastEmbedEmbedder:
    return load_minilm(default_cache_dir())


def test_provenance_says_it_was_quantized_and_checked(int8_dir: Path) -> None:
    prov = json.loads((int8_dir / PROVENANCE).read_text())
    assert prov["model"] == INT8_MODEL_ID and prov["source"] == "quantize"
    assert prov["quantize"]["per_channel"] is True
    # 7-bit weights where the CPU's INT8 kernels could saturate 8-bit ones
    assert prov["quantize"].get("reduce_range", False) is (not has_vnni())
    assert prov["check"]["min_cosine_vs_float32"] >= INT8_MIN_COSINE
    assert prov["files"]["model.onnx"]["sha256"] == prov["quantize"]["int8_sha256"]
    # a quarter of float32's size: the weights are one byte each
    assert (int8_dir / "model.onnx").stat().st_size < 30_000_000


def test_provisioned_dir_is_reused_and_is_not_float32s(int8_dir: Path) -> None:
    before = (int8_dir / PROVENANCE).stat().st_mtime_ns
    lines: list[str] = []
    assert provision_int8_model(int8_dir.parent, log=lines.append) == int8_dir
    assert lines == [] and (int8_dir / PROVENANCE).stat().st_mtime_ns == before
    assert not is_provisioned(int8_dir)     # not float32 MiniLM's folder


def test_close_to_float32_and_keeps_its_ranking(int8: FastEmbedEmbedder,
                                                 float32: FastEmbedEmbedder) -> None:
    quantized, reference = int8.embed(TEXTS), float32.embed(TEXTS)
    assert int8.model_id == INT8_MODEL_ID and quantized.shape == (len(TEXTS), DIM)
    np.testing.assert_allclose(np.linalg.norm(quantized, axis=1), 1.0, atol=1e-4)
    assert float((quantized * reference).sum(1).min()) >= INT8_MIN_COSINE
    questions = ["When is Alice's birthday?", "How do I ship a release?",
                 "Who is on call?", "What did Melanie paint?"]
    for model in (int8, float32):
        best = (model.embed(questions) @ model.embed(TEXTS).T).argmax(1)
        assert best.tolist() == [0, 1, 2, 3]


def test_a_texts_vector_does_not_depend_on_its_batch(int8: FastEmbedEmbedder) -> None:
    # Activations are quantized per run: the loader runs each text alone, so a memory
    # stored in a batch gets the vector it gets alone (and the embedding cache's row).
    batch = int8.embed(TEXTS)
    alone = np.concatenate([int8.embed([text]) for text in TEXTS])
    assert float((batch * alone).sum(1).min()) >= 0.99999
    np.testing.assert_array_equal(int8.embed(TEXTS[::-1])[::-1], batch)


def test_the_lane_spec_names_it_and_a_store_re_embeds_under_it(
        int8: FastEmbedEmbedder, float32: FastEmbedEmbedder, make_store, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRIFORM_LANE_MODELS", raising=False)    # the default
    lanes = load_embedder(default_cache_dir())
    assert lanes.model_id == (f"content={INT8_MODEL_ID};context={STATIC_MODEL_ID};"
                              f"intention={STATIC_MODEL_ID}")
    monkeypatch.setenv("TRIFORM_LANE_MODELS", "minilm,static,static")
    assert load_embedder(default_cache_dir()).model_id.startswith(f"content={MODEL_ID};")
    assert load_embedder(default_cache_dir(), lanes="minilm8").model_id == INT8_MODEL_ID
    # a store embedded by float32 MiniLM re-embeds itself under the INT8 one
    store = make_store(embedder=float32)
    memory = store.store(content=TEXTS[1], category="fact", settings=EVERYTHING).memory
    store.close()
    situation = HashingEmbedder(DIM)
    under_int8 = LaneEmbedder({"content": int8, "context": situation, "intention": situation})
    other = make_store(embedder=under_int8)
    assert other.model_id != MODEL_ID
    other.repair_embeddings()
    assert other.get(memory["id"])["embedded"]
    # it scores as a store that was embedded under the INT8 model from the start
    fresh = make_store(embedder=under_int8, directory=tmp_path / "fresh")
    fresh.store(content=TEXTS[1], category="fact", settings=EVERYTHING)
    asked = "how do we ship a release?"
    before = make_store(embedder=float32, directory=tmp_path / "float32")
    before.store(content=TEXTS[1], category="fact", settings=EVERYTHING)
    content = [store.search(query=asked, settings=EVERYTHING).results[0]["lanes"]["content"]
               for store in (other, fresh, before)]
    assert content[0] == pytest.approx(content[1], abs=1e-5)
    assert abs(content[0] - content[2]) > 1e-3      # and not as float32's vectors score


def test_weights_get_seven_bits_unless_the_cpu_has_vnni(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("flags\t\t: fpu sse2 avx2 fma\n")
    assert has_vnni(cpuinfo) is False
    cpuinfo.write_text("flags\t\t: fpu avx2 avx512f avx512_vnni\n")
    assert has_vnni(cpuinfo) is True
    cpuinfo.write_text("flags\t\t: fpu avx2 avx_vnni\n")
    assert has_vnni(cpuinfo) is True
    assert has_vnni(tmp_path / "absent") is False     # unreadable: the safe 7 bits
