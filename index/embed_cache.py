"""A bounded cache of embeddings of repeated texts, as an :class:`~index.embed.Embedder`.

The same text is embedded again and again in a conversation: ``observe`` stores several
memories formed in one window, each with that window as its ``context``, and the agent
searches with the same window on the same turn. The model costs 3 to 7 ms per text, a
dictionary lookup microseconds, and a vector depends only on the text and the model, so
the cache returns the very vector the model returned the first time (bit for bit).

:class:`CachedEmbedder` wraps any embedder: ``embed(texts)`` looks every text up, embeds
only the texts it has not seen (once each, even when a call repeats one) in one call to
the wrapped embedder, and keeps the newest ``max_entries`` texts (least recently used
first out). Texts longer than ``max_text_chars`` are embedded but not kept, so a few huge
texts cannot hold most of the memory. Thread-safe; the wrapped embedder is called outside
the cache's lock, so two threads may embed the same new text at once (both get the same
vector). Failures are not cached: the wrapped embedder's exception propagates, and a
wrong shape or a non-finite value is :class:`~index.errors.EmbeddingFailed`.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .embed import Embedder
from .errors import EmbeddingFailed

__all__ = ["CachedEmbedder", "CacheStats"]


@dataclass(frozen=True)
class CacheStats:
    """Texts answered without the model (``hits``: cached, or repeated within one call)
    and texts the model embedded (``misses``)."""

    hits: int
    misses: int
    entries: int

    @property
    def hit_rate(self) -> float:
        """``hits / (hits + misses)``, 0 before any lookup."""
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


class CachedEmbedder:
    """An :class:`~index.embed.Embedder` that remembers the vectors of recent texts.

    :param inner: the embedder that computes vectors; its ``model_id`` and ``dim`` are
        this one's.
    :param max_entries: texts kept (at 384 float32 dimensions, 1.5 KiB each).
    :param max_text_chars: longer texts are embedded every time.
    """

    def __init__(self, inner: Embedder, *, max_entries: int = 4096,
                 max_text_chars: int = 8192) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.max_entries = max_entries
        self.max_text_chars = max_text_chars
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        #: Told ``(texts, seconds)`` after each call of the wrapped model (a server's
        #: metrics time its batches here); never told of texts answered from the cache.
        self.on_model_call: Callable[[int, float], None] | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` in order: cached rows, and the rest from the wrapped model."""
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        texts = list(texts)
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for row, text in enumerate(texts):
                vector = self._vectors.get(text)
                if vector is None:
                    missing.setdefault(text, []).append(row)
                else:
                    self._vectors.move_to_end(text)
                    out[row] = vector
            # A text repeated within one call is embedded once: its repeats are hits.
            self._hits += len(texts) - len(missing)
            self._misses += len(missing)
        if missing:
            new = list(missing)
            started = time.perf_counter()
            computed = np.asarray(self.inner.embed(new), dtype=np.float32)
            listener = self.on_model_call
            if listener is not None:
                listener(len(new), time.perf_counter() - started)
            if computed.shape != (len(new), self.dim) or not np.all(np.isfinite(computed)):
                raise EmbeddingFailed(f"{self.model_id} returned shape {computed.shape} "
                                      f"for {len(new)} text(s)")
            with self._lock:
                for text, vector in zip(new, computed, strict=True):
                    for row in missing[text]:
                        out[row] = vector
                    if len(text) <= self.max_text_chars:
                        # Keep a private copy: the caller may write into what it gets.
                        self._vectors[text] = vector.copy()
                        self._vectors.move_to_end(text)
                while len(self._vectors) > self.max_entries:
                    self._vectors.popitem(last=False)
        return out

    def stats(self) -> CacheStats:
        """Hits, misses and entries since the cache was made."""
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._vectors))

    def clear(self) -> None:
        """Forget every cached vector (the counters stay)."""
        with self._lock:
            self._vectors.clear()

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.inner!r}, max_entries={self.max_entries})"

