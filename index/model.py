"""The production embedder: all-MiniLM-L6-v2 on fastembed (ONNX Runtime), loaded from disk.

The model lives in a cache directory (``$TRIFORM_MODEL_CACHE``, else
``~/.cache/triform/models``) as a plain folder ``all-MiniLM-L6-v2/`` that fastembed loads with
``specific_model_path``, so loading never touches the network. Filling that folder is
``provision.py``'s job; this module only loads and runs it. See docs/embeddings.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .errors import EmbeddingFailed, ModelUnavailable

__all__ = ["FastEmbedEmbedder", "default_cache_dir", "MODEL_ID", "MODEL_DIR_NAME", "DIM",
           "MAX_SEQ_LENGTH", "MODEL_FILES", "OPTIONAL_FILES"]

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_DIR_NAME = "all-MiniLM-L6-v2"
DIM = 384
MAX_SEQ_LENGTH = 256
BATCH_SIZE = 64
# Batches of at most this many texts are tokenized one by one (``FastEmbedEmbedder._run``).
_ONE_BY_ONE = 8
MODEL_FILES = ("model.onnx", "tokenizer.json", "tokenizer_config.json", "config.json",
               "special_tokens_map.json")
OPTIONAL_FILES = ("vocab.txt",)


def default_cache_dir() -> Path:
    """``$TRIFORM_MODEL_CACHE``, else ``~/.cache/triform/models``."""
    return Path(os.environ.get("TRIFORM_MODEL_CACHE")
                or Path.home() / ".cache" / "triform" / "models")


class FastEmbedEmbedder:
    """all-MiniLM-L6-v2 through fastembed, loaded from a provisioned folder, never the network.

    ``embed`` returns ``(len(texts), 384)`` float32 rows of unit length, in batches of 64 of
    texts sorted by length (less padding), rows in the order given. Calls
    are serialized by a lock, so one instance can serve a threaded web server; onnxruntime
    still uses ``threads`` cores for each batch. Engine errors become
    :class:`index.errors.EmbeddingFailed`.

    :raise ModelUnavailable: the folder lacks a model file or fastembed cannot load it.
    """

    def __init__(self, model_dir: Path, *, threads: int | None = None,
                 batch_size: int = BATCH_SIZE, model_id: str = MODEL_ID) -> None:
        # ``model_id``: another id for another precision of the same model (the INT8
        # folder, ``int8_provision.py``); fastembed still runs it as MiniLM.
        self.model_id = model_id
        self.dim = DIM
        self.model_dir = Path(model_dir)
        self.batch_size = batch_size
        self._lock = threading.Lock()
        missing = [f for f in MODEL_FILES if not (self.model_dir / f).is_file()]
        if missing:
            raise ModelUnavailable(MODEL_ID, f"{self.model_dir} lacks {', '.join(missing)}; "
                                   "run provision_model (`triform model provision`) first")
        try:
            from fastembed import TextEmbedding

            self._engine = TextEmbedding(
                MODEL_ID,
                cache_dir=str(self.model_dir),
                threads=threads,
                providers=["CPUExecutionProvider"],
                local_files_only=True,
                specific_model_path=str(self.model_dir),
            )
            inner: Any = self._engine.model
            self._tokenizer = inner.tokenizer
            self._pad_id = int((self._tokenizer.padding or {}).get("pad_id", 0))
            self._session = _quiet_session(inner.model, self.model_dir / "model.onnx")
            inner.model = self._session
            self._inputs = {node.name for node in self._session.get_inputs()}
        except Exception as exc:  # a corrupt file, a missing dependency
            raise ModelUnavailable(MODEL_ID, f"fastembed could not load {self.model_dir}: "
                                   f"{type(exc).__name__}: {exc}") from exc

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; see the class docstring for the contract.

        :raise TypeError: ``texts`` is one ``str`` rather than a sequence of them.
        :raise EmbeddingFailed: the engine failed or returned something unusable.
        """
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Batches are padded to their longest text: embedding in order of length wastes less
        # on padding (about 1.8x the throughput on mixed lengths); rows are put back after.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i])
                       if isinstance(texts[i], str) else 0)
        try:
            groups = [[texts[order[i]] for i in group] for group in
                      _length_groups([len(str(texts[i])) for i in order], self.batch_size)]
            with self._lock:
                parts = [self._run(group) for group in groups]
            stacked = np.concatenate(parts).astype(np.float32, copy=False)
            out = np.empty_like(stacked)
            out[order] = stacked  # fails if the engine returned a row too few or too many
        except Exception as exc:
            raise EmbeddingFailed(f"{MODEL_ID} failed on {len(texts)} text(s): "
                                  f"{type(exc).__name__}: {exc}") from exc
        if out.shape != (len(texts), self.dim):
            raise EmbeddingFailed(f"{MODEL_ID} returned shape {out.shape}, expected "
                                  f"{(len(texts), self.dim)}")
        if not np.isfinite(out).all():
            raise EmbeddingFailed(f"{MODEL_ID} returned non-finite values")
        return out

    def _run(self, texts: list[str]) -> np.ndarray:
        """One batch through the model on the calling thread: tokens, the encoder, the mean
        of the real tokens' states, normalized (fastembed's own pooling, so the vectors
        are the ones fastembed returns)."""
        from fastembed.common.utils import mean_pooling, normalize

        # A few texts (a query with its name texts) are tokenized one by one by ``encode``
        # and padded here as ``encode_batch`` pads (right, the pad id, mask 0): ``encode_batch``
        # hands them to the tokenizers library's worker threads and waits for them to be
        # scheduled (0.14 / 0.75 / 3.5 ms p50 / p95 / p99 for two texts on a loaded
        # machine, against 0.05 / 0.10 / 0.15 one by one).
        if len(texts) <= _ONE_BY_ONE:
            rows = [self._tokenizer.encode(text) for text in texts]
            width = max(len(row.ids) for row in rows)
            ids = np.full((len(rows), width), self._pad_id, dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for i, row in enumerate(rows):
                ids[i, :len(row.ids)] = row.ids
                mask[i, :len(row.ids)] = row.attention_mask
        else:
            encoded = self._tokenizer.encode_batch(texts)
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids}
        if "attention_mask" in self._inputs:
            feed["attention_mask"] = mask
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        states = self._session.run(None, feed)[0]
        return np.asarray(normalize(mean_pooling(states, mask)), dtype=np.float32)

    def __repr__(self) -> str:
        return f"FastEmbedEmbedder({str(self.model_dir)!r})"


def _quiet_session(session: Any, path: Path) -> Any:
    """``session``'s model again, as an ONNX Runtime session whose threads never spin.

    By default onnxruntime's threads spin for a while after each run, waiting for more
    work. Where cores are shared (a web server's other requests, another process's model,
    other programs), that spinning takes the cores the next call needs: on this project's
    2-core machine at load 7, one query embedding took 23-39 ms p50 spinning and 12-16 ms
    not, two models in one process (``docs/embeddings.md``). fastembed does not expose
    the option, so the session it built is built once more with it (same thread count).
    """
    import onnxruntime as ort
    options = session.get_session_options()
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options,
                                providers=session.get_providers())


def _length_groups(lengths: Sequence[int], batch_size: int) -> list[range]:
    """Split ascending ``lengths`` into runs of at most ``batch_size`` whose longest is at
    most twice their shortest (plus a small slack for very short texts).

    A batch is padded to its longest text, so a query of a 10-word goal beside a 64-word
    window would pay for three windows: embedded as two batches it costs about a third
    less (bench/memory_bench.py measures both).
    """
    groups: list[range] = []
    start = 0
    for i in range(1, len(lengths) + 1):
        if i == len(lengths) or i - start >= batch_size or \
                lengths[i] > 2 * lengths[start] + 32:
            groups.append(range(start, i))
            start = i
    return groups
