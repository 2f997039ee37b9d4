"""One hnswlib graph over a subset of slot labels, with what label reuse needs.

A thin adapter: it knows which labels hnswlib has seen (``indexed``: live or deleted) and
which are live, so that

* adding a label hnswlib has never seen inserts it;
* adding a deleted label *revives it in place* (``add_items`` un-deletes and rewrites it
  when ``allow_replace_deleted`` is off), so a reused slot costs no new graph node;
* removing marks the label deleted (``mark_deleted``), never twice;
* scrubbing overwrites the stored vector with zeros before deleting, for erasure.

``allow_replace_deleted`` stays off on purpose: labels are our reused slots, and with it on
hnswlib refuses to revive a deleted label, while ``replace_deleted=True`` would silently
unmap some *other* deleted label.

Space ``ip`` over unit vectors is cosine. hnswlib labels are arbitrary integers; the
element capacity (``max_elements``) counts nodes, so it grows by doubling when full.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import hnswlib
import numpy as np

__all__ = ["HnswGraph"]


class HnswGraph:
    """An hnswlib index plus ``indexed``/``live`` flags per label."""

    def __init__(self, dim: int, *, M: int, ef_construction: int, seed: int,
                 capacity: int = 1024) -> None:
        self.dim = dim
        self.M, self.ef_construction, self.seed = M, ef_construction, seed
        self.index = self._new(max(capacity, 16))
        self.indexed = np.zeros(0, dtype=bool)
        self.live = np.zeros(0, dtype=bool)
        self.size = 0

    def _new(self, max_elements: int) -> hnswlib.Index:
        index = hnswlib.Index(space="ip", dim=self.dim)
        index.init_index(max_elements=max_elements, M=self.M,
                         ef_construction=self.ef_construction, random_seed=self.seed)
        return index

    def grow_flags(self, labels: int) -> None:
        """Make the flag arrays cover labels below ``labels``."""
        if labels > len(self.indexed):
            new = max(labels, 2 * len(self.indexed), 1024)
            self.indexed = _extend(self.indexed, new)
            self.live = _extend(self.live, new)

    def add(self, vectors: np.ndarray, labels: np.ndarray, *, threads: int = 1) -> None:
        """Insert, revive or rewrite ``labels`` with these vectors."""
        if len(labels) == 0:
            return
        self.grow_flags(int(labels.max()) + 1)
        fresh = int(np.count_nonzero(~self.indexed[labels]))
        needed = self.index.get_current_count() + fresh
        if needed > self.index.get_max_elements():
            self.index.resize_index(max(needed, 2 * self.index.get_max_elements()))
        self.index.add_items(vectors, labels, num_threads=threads)
        self.size += int(np.count_nonzero(~self.live[labels]))
        self.indexed[labels] = True
        self.live[labels] = True

    def remove(self, label: int, *, scrub: bool = False) -> None:
        """Mark ``label`` deleted; ``scrub`` first overwrites its stored vector with zeros."""
        if label >= len(self.indexed) or not self.indexed[label]:
            return
        if scrub:
            self.add(np.zeros((1, self.dim), dtype=np.float32), np.array([label]))
        if self.live[label]:
            self.index.mark_deleted(label)
            self.live[label] = False
            self.size -= 1

    def knn(self, query: np.ndarray, k: int, ef: int,
            allowed: Callable[[int], bool] | None) -> np.ndarray:
        """Top ``k`` live labels by inner product (``allowed`` runs inside the walk).

        :raise RuntimeError: hnswlib found fewer than ``k`` (callers fall back to exact).
        """
        self.index.set_ef(max(ef, k))
        labels, _ = self.index.knn_query(query, k=k, num_threads=1, filter=allowed)
        return np.asarray(labels[0], dtype=np.int64)

    def save(self, path: Path) -> None:
        """Write the hnswlib file (the flags are saved by the owner)."""
        self.index.save_index(str(path))

    def load(self, path: Path, indexed: np.ndarray, live: np.ndarray, capacity: int) -> None:
        """Load a saved graph with its flags.

        :raise ValueError: the graph's node count disagrees with ``indexed``.
        """
        index = hnswlib.Index(space="ip", dim=self.dim)
        # Headroom up to the slot capacity: otherwise the first insert after a cold start
        # would resize (copy) the whole graph. Unused capacity is untouched memory.
        index.load_index(str(path), max_elements=max(int(indexed.sum()), capacity, 16))
        if index.get_current_count() != int(indexed.sum()):
            raise ValueError(f"{path.name} does not match its flags")
        self.index = index
        self.indexed = _extend(indexed, capacity)
        self.live = _extend(live, capacity)
        self.size = int(np.count_nonzero(self.live))


def _extend(array: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(max(size, len(array)), dtype=array.dtype)
    out[:len(array)] = array
    return out
