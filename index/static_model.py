"""The static embedder: all-MiniLM-L6-v2 distilled into one vector per token (model2vec).

A static model has no network to run: a text's vector is the mean of its tokens' vectors,
L2-normalized. The token vectors were computed once, at provisioning, by running every token
of MiniLM's vocabulary through MiniLM itself (model2vec's distillation, ``static_distill.py``
in a throwaway venv), then rotated by PCA (384 dimensions kept) and weighted by Zipf's law
(SIF), so the same weights as the content lane's model, without its attention: about 1000x
cheaper per text, at some cost in meaning (word order and context are lost). The runtime here
needs numpy and the ``tokenizers`` library only. See docs/embeddings.md.

The folder ``<cache>/all-MiniLM-L6-v2-static/`` holds ``embeddings.npy`` (float16, one row a
token id), ``tokenizer.json`` (model2vec's: MiniLM's WordPiece without its special tokens),
``config.json`` and ``provenance.json``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from .errors import EmbeddingFailed, ModelUnavailable

__all__ = ["StaticEmbedder", "STATIC_MODEL_ID", "STATIC_DIR_NAME", "STATIC_FILES",
           "STATIC_MAX_TOKENS"]

STATIC_MODEL_ID = "triform/all-MiniLM-L6-v2-static-384"
STATIC_DIR_NAME = "all-MiniLM-L6-v2-static"
STATIC_DIM = 384
STATIC_FILES = ("embeddings.npy", "tokenizer.json", "config.json")
#: model2vec's default: tokens past this are dropped (a static model has no position limit,
#: but a mean over thousands of tokens says little more and costs time).
STATIC_MAX_TOKENS = 512
#: Calls of at most this many texts are tokenized on the caller's thread.
FEW_TEXTS = 8


class StaticEmbedder:
    """The distilled static model, loaded from a provisioned folder.

    ``embed`` returns ``(len(texts), 384)`` float32 rows of unit length, exactly as
    model2vec's ``StaticModel.encode`` does: WordPiece tokens without special tokens,
    unknown tokens dropped, at most 512 tokens (the text first cut at 512 times the median
    token length in characters), the mean of their vectors, normalized. A text with no known
    token (empty, only emoji) gets a zero row: it matches nothing. Thread-safe (the
    tokenizer is called under a lock; the arithmetic is numpy's).

    :raise ModelUnavailable: the folder lacks a file or cannot be read.
    """

    def __init__(self, model_dir: Path) -> None:
        from tokenizers import Tokenizer

        self.model_id = STATIC_MODEL_ID
        self.dim = STATIC_DIM
        self.model_dir = Path(model_dir)
        missing = [f for f in STATIC_FILES if not (self.model_dir / f).is_file()]
        if missing:
            raise ModelUnavailable(STATIC_MODEL_ID, f"{self.model_dir} lacks "
                                   f"{', '.join(missing)}; run provision_model first")
        try:
            table = np.load(self.model_dir / "embeddings.npy", allow_pickle=False)
            self._table = np.ascontiguousarray(table, dtype=np.float32)
            self._tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        except Exception as exc:  # a corrupt file
            raise ModelUnavailable(STATIC_MODEL_ID, f"cannot load {self.model_dir}: "
                                   f"{type(exc).__name__}: {exc}") from exc
        if self._table.ndim != 2 or self._table.shape[1] != self.dim:
            raise ModelUnavailable(STATIC_MODEL_ID, f"{self.model_dir}/embeddings.npy has "
                                   f"shape {self._table.shape}, expected (n, {self.dim})")
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(STATIC_MAX_TOKENS)
        unk = json.loads((self.model_dir / "tokenizer.json").read_text(encoding="utf-8"))
        self._unk = self._tokenizer.token_to_id(unk["model"].get("unk_token") or "[UNK]")
        vocab = self._tokenizer.get_vocab()
        self._max_chars = STATIC_MAX_TOKENS * int(np.median([len(t) for t in vocab]))
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed ``texts``; see the class docstring for the contract.

        :raise TypeError: ``texts`` is one ``str`` rather than a sequence of them.
        :raise EmbeddingFailed: a text is not a string.
        """
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        texts = list(texts)
        if not all(isinstance(t, str) for t in texts):
            raise EmbeddingFailed(f"{STATIC_MODEL_ID} embeds strings only")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        cut = [t[:self._max_chars] for t in texts]
        with self._lock:
            # A few texts (a search's window and goal, a store's) are tokenized one by one:
            # ``encode_batch_fast`` hands them to the tokenizers library's worker threads
            # and waits for those to be scheduled, milliseconds where cores are shared
            # (docs/embeddings.md, A query and the worker threads); a batch is worth it.
            encodings = [self._tokenizer.encode(t, add_special_tokens=False) for t in cut] \
                if len(cut) <= FEW_TEXTS else \
                self._tokenizer.encode_batch_fast(cut, add_special_tokens=False)
        # One gather and one segmented sum over every token of the call.
        ids = [np.asarray(e.ids, dtype=np.int64) for e in encodings]
        if self._unk is not None:
            ids = [row[row != self._unk] for row in ids]
        counts = np.fromiter((len(row) for row in ids), dtype=np.int64, count=len(ids))
        filled = np.flatnonzero(counts)
        if len(filled):
            flat = np.concatenate([ids[i] for i in filled])
            starts = np.concatenate(([0], np.cumsum(counts[filled])[:-1]))
            sums = np.add.reduceat(self._table[flat], starts, axis=0)
            norms = np.linalg.norm(sums, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            out[filled] = sums / norms  # the mean's direction: the count cancels out
        return out

    def __repr__(self) -> str:
        return f"StaticEmbedder({str(self.model_dir)!r})"
