"""Embedders: turn texts into L2-normalized float32 vectors.

The runtime depends only on the :class:`Embedder` protocol, so the engine is chosen by the
caller. The production engine is fastembed running all-MiniLM-L6-v2 (``index/model.py``);
:class:`HashingEmbedder` is for tests that exercise storage and scoring but not meaning.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Embedder", "HashingEmbedder", "normalize_rows", "embed_for_lanes", "lane_of"]


@runtime_checkable
class Embedder(Protocol):
    """Anything that embeds texts.

    ``embed`` returns an array of shape ``(len(texts), dim)``, dtype float32, each row of
    unit length. It raises :class:`index.errors.EmbeddingFailed` when it cannot.
    """

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


def lane_of(key: str) -> str:
    """The lane a store's embedding key names: ``"context"`` or ``"3:context"``."""
    return key.rpartition(":")[2]


def embed_for_lanes(embedder: Embedder, lanes: Sequence[str],
                    texts: Sequence[str]) -> np.ndarray:
    """Embed ``texts[i]``, the text of lane ``lanes[i]``, with that lane's model.

    An embedder with ``embed_lanes`` (:class:`index.lane_models.LaneEmbedder`, or a cache
    around one) is given the lanes (a store's keys such as ``"3:context"`` are reduced to
    the lane); any other embedder has one model for every lane and gets ``embed(texts)``.
    """
    by_lane = getattr(embedder, "embed_lanes", None)
    if by_lane is None:
        if str(embedder.model_id).startswith("content="):
            # A wrapper that hides a LaneEmbedder's embed_lanes would embed every lane
            # with the content model under an id that says otherwise.
            raise TypeError(f"{embedder!r} has lanes of several models "
                            f"({embedder.model_id}) but no embed_lanes")
        return embedder.embed(texts)
    out: np.ndarray = by_lane([lane_of(lane) for lane in lanes], texts)
    return out


def normalize_rows(vectors: np.ndarray) -> np.ndarray:
    """Scale each row to unit length; an all-zero row stays zero."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    out: np.ndarray = vectors / norms
    return out


_TOKEN = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    """A deterministic bag-of-words embedder: shared words give similar vectors.

    Only for tests that do not test meaning: it is fast, needs no model and gives the same
    vector for the same text on every machine.
    """

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.model_id = f"hashing-{dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for token in _TOKEN.findall(text.lower()):
                digest = hashlib.blake2b(token.encode(), digest_size=8).digest()
                bucket = int.from_bytes(digest[:4], "little") % self.dim
                sign = 1.0 if digest[4] & 1 else -1.0
                out[row, bucket] += sign
        return normalize_rows(out)
