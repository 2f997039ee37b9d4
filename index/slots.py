"""Slots: the small integer label of each live memory, and per-label columns.

Every live memory holds one slot, an int label shared by its three lanes (the hnswlib
label and the row of each lane's vector array). A deleted memory's slot goes back to a
free list and is reused, so arrays and indexes stay as large as the peak population.

The columns are kept twice where that pays: numpy arrays for vectorized work (eviction
choice, retention sweep, pool masks) and plain Python lists for the per-candidate filter
hnswlib calls during a search, where indexing a list is several times cheaper than
indexing a numpy array from Python.

Owner codes: ``FREE`` (-1) for an unused slot, ``GENERAL`` (0) for a memory about no one,
and 1, 2, ... for each distinct ``(subject_type, subject_id)`` seen since the store opened.

Names (``names.named_in``, the name boost's signal): a code per label, 0 for none and
1, 2, ... for each distinct set of names a memory is about, filled the first time a
search scores the label (``UNREAD`` until then, and again once its content changes), so a
search compares a few sets instead of reading each scored memory's text, and a cold start
reads none (a served store reads them all just after it opens, on a thread of its own:
``MemoryStore``). Whether a memory says a time (``asks.says_time``, the signal of a query that
asks when) is read with them, in the same pass.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable

import numpy as np

from .asks import says_name, says_time
from .names import named_in
from .records import CATEGORY_CODES

__all__ = ["FREE", "GENERAL", "UNREAD", "SlotTable", "CATEGORY_CODES"]

FREE = -1
GENERAL = 0
UNREAD = -1
"""The names code of a label whose content has not been read since it changed."""


class SlotTable:
    """Allocates labels and holds each label's owner, category, access count, age and
    the time its memory occurred (``occurred``, POSIX seconds)."""

    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = 0
        self.high_water = 0            # labels in [0, high_water) have been used
        self._free: list[int] = []     # heap: the lowest free label is reused first
        self.ids: list[str | None] = []
        self.owner_list: list[int] = []
        self.cat_list: list[int] = []
        self.owner = np.zeros(0, dtype=np.int32)
        self.cat = np.zeros(0, dtype=np.int8)
        self.access = np.zeros(0, dtype=np.int64)
        self.seq = np.zeros(0, dtype=np.int64)
        self.created = np.zeros(0, dtype=np.float64)
        self.occurred = np.zeros(0, dtype=np.float64)
        # Validity (issue 23): from when each memory holds and until when (inf: current);
        # ``ended`` counts the live memories no longer current, so a search skips the
        # validity mask while there are none.
        self.valid_from = np.zeros(0, dtype=np.float64)
        self.until = np.zeros(0, dtype=np.float64)
        self.ended = 0
        self.opening = np.zeros(0, dtype=np.int32)
        self.time_said = np.zeros(0, dtype=bool)   # read with ``opening``, valid once it is
        self.name_said = np.zeros(0, dtype=bool)   # the same (``asks.says_name``)
        self.name_codes: dict[frozenset[str], int] = {frozenset(): 0}
        #: The codes of the name sets holding each name: a search looks its names up here
        #: rather than testing each distinct set among its candidates.
        self.codes_by_name: dict[str, list[int]] = {}
        self._about_kept: tuple[tuple[str, ...], np.ndarray] | None = None
        self.subject_codes: dict[tuple[str, str], int] = {}
        self.owner_labels: dict[int, set[int]] = {GENERAL: set()}
        self.live = 0
        self.grow(capacity)

    def grow(self, needed: int) -> None:
        """Make room for labels below ``needed``."""
        if needed <= self.capacity:
            return
        new = max(needed, 2 * self.capacity, 1024)
        extra = new - self.capacity
        self.ids.extend([None] * extra)
        self.owner_list.extend([FREE] * extra)
        self.cat_list.extend([0] * extra)
        self.owner = np.concatenate([self.owner, np.full(extra, FREE, dtype=np.int32)])
        self.cat = np.concatenate([self.cat, np.zeros(extra, dtype=np.int8)])
        self.access = np.concatenate([self.access, np.zeros(extra, dtype=np.int64)])
        self.seq = np.concatenate([self.seq, np.zeros(extra, dtype=np.int64)])
        self.created = np.concatenate([self.created, np.zeros(extra, dtype=np.float64)])
        self.occurred = np.concatenate([self.occurred, np.zeros(extra, dtype=np.float64)])
        self.valid_from = np.concatenate([self.valid_from, np.zeros(extra, dtype=np.float64)])
        self.until = np.concatenate([self.until, np.full(extra, np.inf, dtype=np.float64)])
        self.opening = np.concatenate([self.opening, np.full(extra, UNREAD, dtype=np.int32)])
        self.time_said = np.concatenate([self.time_said, np.zeros(extra, dtype=bool)])
        self.name_said = np.concatenate([self.name_said, np.zeros(extra, dtype=bool)])
        self.capacity = new

    def subject_code(self, subject: tuple[str, str] | None, *, create: bool = True) -> int:
        """The owner code of a subject (GENERAL for None); FREE if unknown and not created."""
        if subject is None:
            return GENERAL
        code = self.subject_codes.get(subject)
        if code is None:
            if not create:
                return FREE
            code = len(self.subject_codes) + 1
            self.subject_codes[subject] = code
            self.owner_labels[code] = set()
        return code

    def allocate(self, memory_id: str, *, owner: int, category: str, seq: int,
                 created: float, access: int, label: int | None = None,
                 occurred: float | None = None,
                 valid: tuple[float, float] | None = None) -> int:
        """Take a slot (the given ``label`` when restoring a snapshot, else the lowest free)."""
        if label is None:
            label = heapq.heappop(self._free) if self._free else self.high_water
        self.grow(label + 1)
        if label >= self.high_water:
            for gap in range(self.high_water, label):
                heapq.heappush(self._free, gap)
            self.high_water = label + 1
        code = CATEGORY_CODES[category]
        self.ids[label] = memory_id
        self.owner_list[label] = owner
        self.cat_list[label] = code
        self.owner[label] = owner
        self.cat[label] = code
        self.access[label] = access
        self.seq[label] = seq
        self.created[label] = created
        self.occurred[label] = created if occurred is None else occurred
        self.valid_from[label], self.until[label] = \
            (self.occurred[label], np.inf) if valid is None else valid
        self.ended += valid is not None and not np.isinf(valid[1])
        self.opening[label] = UNREAD
        self.owner_labels[owner].add(label)
        self.live += 1
        return label

    def release(self, label: int) -> None:
        """Return a slot to the free list."""
        owner = self.owner_list[label]
        self.owner_labels[owner].discard(label)
        self.ids[label] = None
        self.owner_list[label] = FREE
        self.owner[label] = FREE
        self.access[label] = 0
        heapq.heappush(self._free, label)
        self.live -= 1

    def set_category(self, label: int, category: str) -> None:
        """Change a live slot's category."""
        code = CATEGORY_CODES[category]
        self.cat_list[label] = code
        self.cat[label] = code

    def opens_named(self, labels: np.ndarray, names: tuple[str, ...],
                    content: Callable[[int], str]) -> np.ndarray:
        """Whether each of ``labels`` is about one of ``names`` (``names.query_names``:
        one of them is in ``names.named_in(content)``); ``content(label)`` gives the
        text of a label whose names are not read yet (``UNREAD``)."""
        codes = self._read(labels, content)
        return np.asarray(self._about(names)[codes], dtype=bool)

    def _about(self, names: tuple[str, ...]) -> np.ndarray:
        """Whether each name code's set holds one of ``names``: a table over the codes (one
        per distinct name set, fewer than the labels), cheaper to index than np.isin's
        sort of the candidates. A search asks it for its candidates, its background and
        its neighbours with the same names: kept until the names or the codes change
        (a code's sets only change when codes are added)."""
        kept = self._about_kept
        if kept is not None and kept[0] == names and len(kept[1]) == len(self.name_codes):
            return kept[1]
        about = np.zeros(len(self.name_codes), dtype=bool)
        for name in names:
            about[self.codes_by_name.get(name, [])] = True
        self._about_kept = (names, about)
        return about

    def says_time(self, labels: np.ndarray, content: Callable[[int], str]) -> np.ndarray:
        """Whether each of ``labels`` says a time (``asks.says_time``), read with its names
        (``content`` as in :meth:`opens_named`)."""
        self._read(labels, content)
        return np.asarray(self.time_said[labels], dtype=bool)

    def says_name(self, labels: np.ndarray, content: Callable[[int], str]) -> np.ndarray:
        """Whether each of ``labels`` says a name (``asks.says_name``), read as
        :meth:`says_time`."""
        self._read(labels, content)
        return np.asarray(self.name_said[labels], dtype=bool)

    def unread(self, low: int, high: int) -> np.ndarray:
        """The live labels in ``[low, high)`` whose names are not read yet (``UNREAD``)."""
        high = min(high, self.high_water)
        if high <= low:
            return np.zeros(0, dtype=np.int64)
        return np.flatnonzero((self.opening[low:high] == UNREAD)
                              & (self.owner[low:high] != FREE)) + low

    def read_names(self, labels: np.ndarray, content: Callable[[int], str]) -> None:
        """Read the names of ``labels`` now (``content`` as in :meth:`opens_named`), as the
        first search to score them would."""
        self._read(labels, content)

    def _read(self, labels: np.ndarray, content: Callable[[int], str]) -> np.ndarray:
        """The names codes of ``labels``, reading the text of those not read yet (their
        names and whether they say a time)."""
        codes: np.ndarray = self.opening[labels]
        unread = np.flatnonzero(codes == UNREAD)
        if len(unread):
            table = self.name_codes
            for i in unread.tolist():
                label = int(labels[i])
                text = content(label)
                named = named_in(text)
                code = table.get(named)
                if code is None:
                    code = table[named] = len(table)
                    for name in named:
                        self.codes_by_name.setdefault(name, []).append(code)
                self.opening[label] = codes[i] = code
                self.time_said[label] = says_time(text)
                self.name_said[label] = says_name(text)
        return codes

    def restore(self, labels: np.ndarray, ids: list[str], owners: np.ndarray,
                cats: np.ndarray, seqs: np.ndarray, created: np.ndarray,
                access: np.ndarray, high_water: int,
                occurred: np.ndarray | None = None) -> None:
        """Load every live slot at once (sidecar restore) into this empty table.

        :raise ValueError: a label repeats or reaches ``high_water``.
        """
        if len(labels) and (int(labels.max()) >= high_water
                            or len(np.unique(labels)) != len(labels)):
            raise ValueError("snapshot labels are out of range or repeat")
        self.grow(high_water)
        self.high_water = high_water
        self.owner[labels] = owners
        self.cat[labels] = cats
        self.seq[labels] = seqs
        self.created[labels] = created
        self.access[labels] = access
        self.occurred[labels] = created if occurred is None else occurred
        self.valid_from[labels] = self.occurred[labels]
        self.until[labels] = np.inf
        self.opening[labels] = UNREAD
        self.owner_list = self.owner.tolist()
        self.cat_list = self.cat.tolist()
        for label, memory_id in zip(labels.tolist(), ids, strict=True):
            self.ids[label] = memory_id
        self.owner_labels = {GENERAL: set()}
        self.owner_labels.update({code: set() for code in self.subject_codes.values()})
        order = np.argsort(owners, kind="stable")
        bounds = np.flatnonzero(np.diff(owners[order])) + 1
        for group in np.split(order, bounds):
            if len(group):
                self.owner_labels[int(owners[group[0]])] = set(labels[group].tolist())
        self.live = len(labels)
        self.restore_free_list()

    def restore_free_list(self) -> None:
        """Rebuild the free list from the owner column (after restoring explicit labels)."""
        self._free = [int(x) for x in np.flatnonzero(self.owner[:self.high_water] == FREE)]
        heapq.heapify(self._free)

    def pool_labels(self, owner: int | None) -> np.ndarray:
        """Live labels of one owner (None: every live label), as an int64 array."""
        if owner is None:
            return np.flatnonzero(self.owner[:self.high_water] != FREE)
        labels = self.owner_labels.get(owner)
        if not labels:
            return np.zeros(0, dtype=np.int64)
        if owner == GENERAL and len(labels) > 4096:
            return np.flatnonzero(self.owner[:self.high_water] == GENERAL)
        return np.fromiter(labels, dtype=np.int64, count=len(labels))

    def pool_size(self, owner: int | None) -> int:
        """How many live labels one owner (None: everyone) holds."""
        if owner is None:
            return self.live
        labels = self.owner_labels.get(owner)
        return len(labels) if labels else 0
