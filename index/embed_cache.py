"""A bounded cache of embeddings of repeated texts, as an :class:`~index.embed.Embedder`.

The same text is embedded again and again in a conversation: ``observe`` stores several
memories formed in one window, each with that window as its ``context``, and the agent
searches with the same window on the same turn. The model costs 3 to 7 ms per text, a
dictionary lookup microseconds, and a vector depends only on the text and the model, so
the cache returns the very vector the model returned the first time (bit for bit).

:class:`CachedEmbedder` wraps any embedder: ``embed(texts)`` looks every text up, embeds
only the texts it has not seen (once each, even when a call repeats one) in one call to
the wrapped embedder, and keeps the newest ``max_entries`` texts (least recently used
first out). Around a :class:`~index.lane_models.LaneEmbedder` it keeps a text once per
model (``embed_lanes``): the same window is another vector in a lane of another model.
Texts longer than ``max_text_chars`` are embedded but not kept, so a few huge texts cannot
hold most of the memory. Thread-safe; the wrapped embedder is called outside
the cache's lock, so two threads may embed the same new text at once (both get the same
vector). Failures are not cached: the wrapped embedder's exception propagates, and a
wrong shape or a non-finite value is :class:`~index.errors.EmbeddingFailed`.

Erasure: a memory deleted or forgotten must not live on in the cache, so the store drops
its texts (:meth:`CachedEmbedder.forget`). A call already computing when that happens
caches nothing it computed (it may be embedding the very text just dropped), and
:attr:`CachedEmbedder.erasures` counts the drops, so a caller that read texts from a store
before computing (a background pass) can tell that it must drop them in turn.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .embed import Embedder, embed_for_lanes, lane_of
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
        self._vectors: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0
        self._erasures = 0
        #: Told ``(texts, seconds)`` after each call of the wrapped model (a server's
        #: metrics time its batches here); never told of texts answered from the cache.
        self.on_model_call: Callable[[int, float], None] | None = None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts`` in order: cached rows, and the rest from the wrapped model
        (texts of no lane: the content lane's model)."""
        if isinstance(texts, str):
            raise TypeError("embed takes a sequence of texts, not one str")
        texts = list(texts)
        return self.embed_lanes(["content"] * len(texts), texts)

    def embed_lanes(self, lanes: Sequence[str], texts: Sequence[str]) -> np.ndarray:
        """Vectors of ``texts[i]`` by the model of lane ``lanes[i]``
        (:func:`~index.embed.embed_for_lanes`); a text is cached once per model."""
        if isinstance(texts, str):
            raise TypeError("embed_lanes takes a sequence of texts, not one str")
        texts = list(texts)
        models = [self.lane_model(lane_of(lane)) for lane in lanes]
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        missing: dict[tuple[str, str], list[int]] = {}
        with self._lock:
            erasures = self._erasures
            for row, key in enumerate(zip(models, texts, strict=True)):
                vector = self._vectors.get(key)
                if vector is None:
                    missing.setdefault(key, []).append(row)
                else:
                    self._vectors.move_to_end(key)
                    out[row] = vector
            # A text repeated within one call is embedded once: its repeats are hits.
            self._hits += len(texts) - len(missing)
            self._misses += len(missing)
        if missing:
            new = list(missing)
            started = time.perf_counter()
            computed = np.asarray(
                embed_for_lanes(self.inner, [lanes[missing[key][0]] for key in new],
                                [text for _, text in new]), dtype=np.float32)
            listener = self.on_model_call
            if listener is not None:
                listener(len(new), time.perf_counter() - started)
            if computed.shape != (len(new), self.dim) or not np.all(np.isfinite(computed)):
                raise EmbeddingFailed(f"{self.model_id} returned shape {computed.shape} "
                                      f"for {len(new)} text(s)")
            with self._lock:
                # A text dropped (``forget``) while the model computed is not cached back.
                keep = erasures == self._erasures
                for key, vector in zip(new, computed, strict=True):
                    for row in missing[key]:
                        out[row] = vector
                    if keep and len(key[1]) <= self.max_text_chars:
                        # Keep a private copy: the caller may write into what it gets.
                        self._vectors[key] = vector.copy()
                        self._vectors.move_to_end(key)
                while len(self._vectors) > self.max_entries:
                    self._vectors.popitem(last=False)
        return out

    def lane_model(self, lane: str) -> str:
        """The model id of ``lane``'s vectors (the wrapped embedder's)."""
        lane_model = getattr(self.inner, "lane_model", None)
        return str(lane_model(lane)) if lane_model else self.model_id

    def stats(self) -> CacheStats:
        """Hits, misses and entries since the cache was made."""
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._vectors))

    @property
    def erasures(self) -> int:
        """How many times :meth:`forget` was called: a caller that read texts from a store
        before embedding them compares it before and after, and forgets them when it moved
        (the memory they came from may be the one just erased)."""
        with self._lock:
            return self._erasures

    def forget(self, texts: Iterable[str]) -> int:
        """Drop the vectors of ``texts`` (by every model): a deleted or forgotten memory's
        texts leave the process with it. Calls computing meanwhile cache nothing. Returns
        how many entries were dropped."""
        gone = set(texts)
        with self._lock:
            self._erasures += 1
            keys = [key for key in self._vectors if key[1] in gone]
            for key in keys:
                del self._vectors[key]
        return len(keys)

    def clear(self) -> None:
        """Forget every cached vector (the counters stay)."""
        with self._lock:
            self._vectors.clear()

    def __repr__(self) -> str:
        return f"CachedEmbedder({self.inner!r}, max_entries={self.max_entries})"

