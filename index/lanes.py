"""Lanes: the vectors of one association lane (content, context, intention) and its search.

Each :class:`Lane` keeps, per slot label (``slots.py``):

* ``vectors[label]``: the float32 unit vector (a zero row when the label has none);
* ``has[label]``: the label has a vector in this lane;
* ``all``: an hnswlib graph (``hnsw.py``; space ``ip`` over unit vectors = cosine,
  ``M`` 16, ``ef_construction`` 200) of every vector of the lane, under the same labels;
* ``general``: a second hnswlib graph holding only the *general* memories (no subject).
  With subject scoping on, a search covers the general pool plus one subject; walking a
  graph of exactly the general pool needs no filter at all, where a filter on the ``all``
  graph costs a Python call per visited candidate (about 1-3 us each: several ms per
  search at 100k). General rows are thus indexed twice (memory and insert time);
  subject rows once;
* per owner (general / each subject) the set of labels in this lane, and counts per
  ``(owner, category)``, so a search knows how many rows its filter allows.

**Search planner** (``Lane.search``), per lane and per owner pool (everyone / general /
one subject), with ``m`` rows allowed by the owner and category filter:

* ``m <= exact_below`` (default ``max(1024, sqrt(800 * lane size))``): exact search, a
  dot product over exactly the allowed rows. A subject with 3 memories among 100k gets
  them back, computed in microseconds;
* everyone: the ``all`` graph; general: the ``general`` graph; either with a category
  predicate as ``filter=`` when categories are given;
* one subject with more rows than the threshold: the ``all`` graph with ``filter=`` a
  predicate on the label's owner (and category), applied *inside* the graph walk, so the
  top-k is drawn from allowed rows only, never cut from an unfiltered top-k.

``ef`` is ``max(ef_search_min, 2 * k)``. Should hnswlib find fewer than ``k`` (a sparse
filter on a damaged region), the lane falls back to the exact search. The threshold
follows costs measured at 100k x 384: a filtered walk costs about ``0.2 ms / allowed
fraction``, an exact search about ``0.25 us`` per allowed row; they cross near
``sqrt(800 n)`` rows.

**Validity** (issue 23): memories no longer current stay in the graphs (``as_of`` and
``include_superseded`` read them) but a search returns only those the asked
:class:`~index.validity.Validity` holds, ``k`` of them when there are: the exact search
masks them out before ranking; a walk asks for more by the share of memories no longer
current and, when fewer than ``k`` of its nearest hold, walks once more with the
validity as ``filter=`` inside the walk. Otherwise a subject's fact superseded many
times would fill the nearest ``k`` with old versions and crowd the current one out.
While nothing has ended none of this runs (the mask is skipped). The second walk's
filter is not the first's: a Python call per visited row costs little on one walk but
would on every walk of a store holding any memory no longer current, and walking again
for more without it costs several wider walks where hundreds of old versions sit
nearest (``bench/validity_walk_bench.py``: 7 ms against 0.6 ms at 100k).

Deferred mode (replay): ``put``/``drop`` only touch the arrays and remember the label;
``sync`` then applies all of them to hnswlib in one multi-threaded batch.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np

from .hnsw import HnswGraph
from .params import IndexParams
from .recall import LANES
from .slots import GENERAL, SlotTable
from .validity import EVERYTHING, Validity

__all__ = ["Lane", "LaneSet"]


class Lane:
    """The vectors and the hnswlib graphs of one lane."""

    def __init__(self, name: str, dim: int, slots: SlotTable, params: IndexParams) -> None:
        self.name = name
        self.dim = dim
        self.slots = slots
        self.params = params
        self.capacity = 0
        self.vectors = np.zeros((0, dim), dtype=np.float32)
        self.has = np.zeros(0, dtype=bool)
        self.all = self._graph()
        self.general = self._graph()
        self.owner_sets: dict[int, set[int]] = {}
        self.oc_count: dict[tuple[int, int], int] = {}
        self.cat_count = [0] * 5
        self.size = 0
        self.deferred = False
        self.dirty: set[int] = set()
        self._grow(slots.capacity)

    def _graph(self) -> HnswGraph:
        p = self.params
        return HnswGraph(self.dim, M=p.M, ef_construction=p.ef_construction, seed=p.seed)

    def _grow(self, needed: int) -> None:
        """Make room for labels below ``needed`` in the flags and the vectors."""
        self._grow_flags(needed)
        rows = len(self.vectors)
        if needed > rows:
            new = max(needed, 2 * rows, 1024)
            vectors = _alloc_rows(new, self.dim)
            vectors[:rows] = self.vectors
            vectors[rows:] = 0.0
            self.vectors = vectors

    def _grow_flags(self, needed: int) -> None:
        if needed > self.capacity:
            new = max(needed, 2 * self.capacity, 1024)
            self.has = _extend(self.has, new)
            self.all.grow_flags(new)
            self.general.grow_flags(new)
            self.capacity = new

    def ensure(self) -> None:
        """Grow the flags to the slot table's capacity (labels are indexed blindly).

        Vector rows may stay fewer: only labels that have a vector here need a row.
        """
        if self.capacity < self.slots.capacity:
            self._grow_flags(self.slots.capacity)

    # -- membership ----------------------------------------------------------------------

    def _count(self, label: int, delta: int) -> None:
        owner = self.slots.owner_list[label]
        cat = self.slots.cat_list[label]
        key = (owner, cat)
        self.oc_count[key] = self.oc_count.get(key, 0) + delta
        self.cat_count[cat] += delta
        self.size += delta
        members = self.owner_sets.setdefault(owner, set())
        if delta > 0:
            members.add(label)
        else:
            members.discard(label)

    def put(self, label: int, vector: np.ndarray) -> None:
        """Give ``label`` this vector (add, or replace the old one)."""
        self._grow(label + 1)
        self.vectors[label] = vector
        if not self.has[label]:
            self.has[label] = True
            self._count(label, +1)
        if self.deferred:
            self.dirty.add(label)
            return
        row, labels = vector[None, :], np.array([label])
        self.all.add(row, labels)
        if self.slots.owner_list[label] == GENERAL:
            self.general.add(row, labels)

    def drop(self, label: int, *, scrub: bool = False) -> None:
        """Remove ``label``'s vector; ``scrub`` also overwrites it inside hnswlib.

        A plain drop only marks the label deleted (hnswlib keeps the old vector until the
        slot is reused); ``scrub`` is for right-to-be-forgotten, so that not even the
        derived vector survives in a saved index.
        """
        if label >= self.capacity:
            return
        if self.has[label]:
            self.has[label] = False
            self._count(label, -1)
        if label < len(self.vectors):
            self.vectors[label] = 0.0
        if self.deferred:
            self.dirty.add(label)
            if scrub:
                self.all.remove(label, scrub=True)
                self.general.remove(label, scrub=True)
            return
        self.all.remove(label, scrub=scrub)
        self.general.remove(label, scrub=scrub)

    def recategorize(self, label: int, old_cat: int, new_cat: int) -> None:
        """Move a label's counts from one category to another (slots already updated)."""
        if label < self.capacity and self.has[label]:
            owner = self.slots.owner_list[label]
            self.oc_count[(owner, old_cat)] -= 1
            self.oc_count[(owner, new_cat)] = self.oc_count.get((owner, new_cat), 0) + 1
            self.cat_count[old_cat] -= 1
            self.cat_count[new_cat] += 1

    def sync(self) -> None:
        """Apply deferred changes to hnswlib in one batch and leave deferred mode."""
        self.deferred = False
        if not self.dirty:
            return
        dirty = np.fromiter(self.dirty, dtype=np.int64, count=len(self.dirty))
        dirty.sort()
        self.dirty.clear()
        self._grow(int(dirty.max()) + 1)
        wanted = self.has[dirty]
        general = wanted & (self.slots.owner[dirty] == GENERAL)
        threads = self.params.build_threads
        for graph, want in ((self.all, wanted), (self.general, general)):
            add = dirty[want]
            graph.add(self.vectors[add], add, threads=threads)
            for label in dirty[~want & graph.live[dirty]]:
                graph.remove(int(label))

    # -- search --------------------------------------------------------------------------

    def allowed_count(self, owner: int | None, cats: Sequence[int] | None) -> int:
        """Rows of this lane in an owner pool (None: all) and categories (None: all)."""
        if owner is None:
            return self.size if cats is None else sum(self.cat_count[c] for c in cats)
        if cats is None:
            members = self.owner_sets.get(owner)
            return len(members) if members else 0
        return sum(self.oc_count.get((owner, c), 0) for c in cats)

    def allowed_labels(self, owner: int | None, cats: Sequence[int] | None) -> np.ndarray:
        """The labels :meth:`allowed_count` counts."""
        self.ensure()
        hw = self.slots.high_water
        if owner is None:
            labels = np.flatnonzero(self.has[:hw])
        else:
            members = self.owner_sets.get(owner) or set()
            labels = np.fromiter(members, dtype=np.int64, count=len(members))
        if cats is not None and len(labels):
            labels = labels[np.isin(self.slots.cat[labels], np.asarray(cats))]
        return labels

    def exact_threshold(self) -> int:
        """Pools at most this large are searched exactly (see the module docstring)."""
        if self.params.exact_below is not None:
            return self.params.exact_below
        return max(1024, int(math.sqrt(800 * max(self.size, 1))))

    def _filter(self, owner: int | None,
                cats: Sequence[int] | None) -> Callable[[int], bool] | None:
        """The in-walk predicate for the ``all`` graph (None: everything is allowed)."""
        owners, cat_list = self.slots.owner_list, self.slots.cat_list
        if owner is None:
            if cats is None:
                return None
            allowed = frozenset(cats)
            return lambda label: cat_list[label] in allowed
        if cats is None:
            return lambda label: owners[label] == owner
        allowed = frozenset(cats)
        return lambda label: owners[label] == owner and cat_list[label] in allowed

    def _holding(self, base: Callable[[int], bool] | None,
                 valid: Validity) -> Callable[[int], bool]:
        """``base`` (the owner and category predicate, or None) and ``valid``'s own, in
        one in-walk predicate."""
        since, until = self.slots.valid_from, self.slots.until
        t = valid.as_of
        if t is None:
            def holds(label: int) -> bool:
                return bool(until[label] == math.inf)
        else:
            def holds(label: int) -> bool:
                return bool(since[label] <= t < until[label])
        if base is None:
            return holds
        return lambda label: base(label) and holds(label)

    def search(self, query: np.ndarray, k: int, owner: int | None,
               cats: Sequence[int] | None, valid: Validity = EVERYTHING) -> np.ndarray:
        """Up to ``k`` labels nearest ``query`` among the allowed rows that ``valid``
        holds (see the planner and "Validity" above)."""
        m = self.allowed_count(owner, cats)
        if m == 0 or k <= 0:
            return np.zeros(0, dtype=np.int64)
        k = min(k, m)
        if m > self.exact_threshold():
            graph, base = (self.general, self._filter(None, cats)) if owner == GENERAL \
                else (self.all, self._filter(owner, cats))
            masked = not valid.holds_all(self.slots.ended)
            # Asked for more by the share of memories no longer current, so that
            # scattered ones seldom cost the second walk.
            share = self.slots.ended / max(self.slots.live, 1) if masked else 0.0
            want = min(m, math.ceil(k * (1 + 2 * share)))
            try:
                found = graph.knn(query, want, self._ef(want), base)
                if not masked:
                    return found
                # hnswlib answers nearest first: the first k that hold are the k nearest.
                held: np.ndarray = found[valid.mask(self.slots.valid_from[found],
                                                    self.slots.until[found])]
                if len(held) >= k or want >= m:
                    return held[:k]
                # Old versions crowd the nearest: once more, keeping to the rows that
                # hold inside the walk (a Python call per row visited, so only here).
                return graph.knn(query, k, self._ef(k), self._holding(base, valid))
            except RuntimeError:
                pass   # fewer than asked reachable under this filter: fall back to exact
        return self.exact_search(query, k, owner, cats, valid)

    def _ef(self, k: int) -> int:
        return max(self.params.ef_search_min, math.ceil(self.params.ef_factor * k))

    def exact_search(self, query: np.ndarray, k: int, owner: int | None,
                     cats: Sequence[int] | None, valid: Validity = EVERYTHING
                     ) -> np.ndarray:
        """Brute-force top ``k`` over the allowed rows that ``valid`` holds (exact)."""
        labels = self.allowed_labels(owner, cats)
        if not valid.holds_all(self.slots.ended):
            labels = labels[valid.mask(self.slots.valid_from[labels],
                                       self.slots.until[labels])]
        if len(labels) <= k:
            return labels
        sims = self.vectors[labels] @ query
        top = np.argpartition(-sims, k - 1)[:k]
        return labels[top]

    # -- persistence ---------------------------------------------------------------------

    def save(self, hnsw_path: Path, general_path: Path, vectors_path: Path,
             flags_path: Path) -> None:
        """Write both graphs, the vectors and the flags (has, indexed in each graph)."""
        self.sync()
        self.ensure()
        hw = self.slots.high_water
        self.all.save(hnsw_path)
        self.general.save(general_path)
        rows = min(hw, len(self.vectors))
        with open(vectors_path, "wb") as f:
            # Rows past the lane's last vector are zeros; write them so the file always
            # has one row per label up to high water.
            if rows < hw:
                out = np.zeros((hw, self.dim), dtype=np.float32)
                out[:rows] = self.vectors[:rows]
            else:
                out = self.vectors[:hw]
            np.save(f, out, allow_pickle=False)
        with open(flags_path, "wb") as f:
            np.save(f, np.stack([self.has[:hw], self.all.indexed[:hw],
                                 self.general.indexed[:hw]]), allow_pickle=False)

    def load(self, hnsw_path: Path, general_path: Path, vectors_path: Path,
             flags_path: Path) -> None:
        """Replace this lane's state with saved files; the slot table must already be loaded.

        The vectors file is memory-mapped copy-on-write rather than read: a cold start
        copies nothing, rows come from the page cache as searches touch them, and changed
        rows become private pages. Checkpoints never rewrite a file in place (each writes a
        new generation), so the mapping stays valid after the file is replaced.

        :raise ValueError: the files do not fit the slot table or this lane's dimension.
        """
        hw = self.slots.high_water
        vectors = np.load(vectors_path, mmap_mode="c", allow_pickle=False)
        if vectors.shape != (hw, self.dim) or vectors.dtype != np.float32:
            raise ValueError(f"{self.name} vectors do not match the snapshot")
        flags = np.load(flags_path, allow_pickle=False)
        if flags.shape != (3, hw) or flags.dtype != np.bool_:
            raise ValueError(f"{self.name} flags do not match the snapshot")
        has, in_all, in_general = flags
        general = has & (self.slots.owner[:hw] == GENERAL)
        if (np.any(has & ~in_all) or np.any(general & ~in_general)
                or np.any(has & (self.slots.owner[:hw] < 0))):
            raise ValueError(f"{self.name} flags disagree with the slot table")
        capacity = max(self.slots.capacity, 1024)
        self.all.load(hnsw_path, in_all, has, capacity)
        self.general.load(general_path, in_general, general, capacity)
        self.capacity = capacity
        # A plain ndarray view of the mapping: np.memmap's __getitem__ costs ~2 us a call.
        self.vectors = np.asarray(vectors) if hw else np.zeros((0, self.dim),
                                                               dtype=np.float32)
        self.has = _extend(has, capacity)
        self._recount()

    def _recount(self) -> None:
        """Rebuild the per-owner sets and counts from ``has`` (vectorized)."""
        labels = np.flatnonzero(self.has)
        owners = self.slots.owner[labels].astype(np.int64)
        cats = self.slots.cat[labels].astype(np.int64)
        self.size = len(labels)
        self.cat_count = np.bincount(cats, minlength=5).tolist()
        keys, counts = np.unique(owners * 8 + cats, return_counts=True)
        self.oc_count = {(int(k) // 8, int(k) % 8): int(c)
                         for k, c in zip(keys, counts, strict=True)}
        self.owner_sets = {}
        order = np.argsort(owners, kind="stable")
        bounds = np.flatnonzero(np.diff(owners[order])) + 1
        for group in np.split(order, bounds):
            if len(group):
                self.owner_sets[int(owners[group[0]])] = set(labels[group].tolist())


def _alloc_rows(rows: int, dim: int) -> np.ndarray:
    """An uninitialised float32 ``(rows, dim)`` array.

    ``np.empty`` rather than ``np.zeros``: numpy backs large ``empty`` arrays with huge
    pages, while ``zeros`` gets lazily zeroed 4 KiB pages whose first-touch faults cost
    more than the copy itself (0.45 s versus 0.02 s for 150 MB). Callers fill every row.
    """
    return np.empty((rows, dim), dtype=np.float32)


def _extend(array: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros(size, dtype=array.dtype)
    out[:len(array)] = array
    return out


class LaneSet:
    """The three lanes of one element, sharing a slot table."""

    def __init__(self, dim: int, slots: SlotTable, params: IndexParams) -> None:
        self.dim = dim
        self.slots = slots
        self.params = params
        self.lanes = {name: Lane(name, dim, slots, params) for name in LANES}

    def __getitem__(self, name: str) -> Lane:
        return self.lanes[name]

    def set_deferred(self, deferred: bool) -> None:
        """Enter deferred mode (replay) or leave it, applying the batch (:meth:`sync`)."""
        for lane in self.lanes.values():
            if deferred:
                lane.deferred = True
            else:
                lane.sync()

    def put(self, label: int, vectors: Mapping[str, np.ndarray | None]) -> None:
        """Set (array) or drop (None) the vector of each lane named in ``vectors``."""
        for name, vector in vectors.items():
            if vector is None:
                self.lanes[name].drop(label)
            else:
                self.lanes[name].put(label, vector)

    def drop_all(self, label: int, *, scrub: bool = False) -> None:
        """Remove ``label`` from every lane."""
        for lane in self.lanes.values():
            lane.drop(label, scrub=scrub)

    def recategorize(self, label: int, old_cat: int, new_cat: int) -> None:
        """Keep every lane's category counts right after a category change."""
        for lane in self.lanes.values():
            lane.recategorize(label, old_cat, new_cat)

    def candidates(self, queries: dict[str, np.ndarray], owners: Iterable[int | None],
                   cats: Sequence[int] | None, counts: Mapping[str, int],
                   valid: Validity = EVERYTHING) -> np.ndarray:
        """Union of each query lane's top ``counts[lane]`` candidates that ``valid``
        holds in each owner pool (unique labels)."""
        found = [self.lanes[name].search(vector, counts[name], owner, cats, valid)
                 for name, vector in queries.items() for owner in owners]
        if not found:
            return np.zeros(0, dtype=np.int64)
        return np.unique(np.concatenate(found))

    def similarities(self, labels: np.ndarray, queries: dict[str, np.ndarray],
                     extra: np.ndarray | None = None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Exact cosine per lane: ``(sims, present, extra_sims)``, the first two
        ``(len(labels), 3)``.

        A lane is present for a row when the query gives that lane and the row has a vector
        there. ``extra``: another query of the content lane (a query's first name alone,
        ``Ranking.name``), whose cosine with each row's content vector (0 where it has none)
        is read off the same gathered rows (None when not given): gathering them again
        cost a search about 0.03 ms a call (issue 29).
        """
        sims = np.zeros((len(labels), len(LANES)), dtype=np.float64)
        present = np.zeros((len(labels), len(LANES)), dtype=bool)
        extra_sims = None if extra is None else np.zeros(len(labels), dtype=np.float64)
        for i, name in enumerate(LANES):
            query = queries.get(name)
            if query is None or len(labels) == 0:
                continue
            lane = self.lanes[name]
            lane.ensure()
            has = lane.has[labels]
            present[:, i] = has
            if has.all():       # the common case: one gather, no masks
                rows = lane.vectors[labels]
                sims[:, i] = rows @ query
            else:
                # Only rows with a vector: a lane may have fewer vector rows than labels.
                rows = lane.vectors[labels[has]]
                sims[has, i] = rows @ query
            if name == "content" and extra_sims is not None:
                extra_sims[has] = rows @ extra
        return sims, present, extra_sims

    def sizes(self) -> dict[str, int]:
        """Vectors per lane."""
        return {name: lane.size for name, lane in self.lanes.items()}
