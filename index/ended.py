"""The file store's memories no longer current, kept in creation order per owner.

A default search lends the relevance of superseded memories to their heirs
(``lend.py``): it wants the newest ``LEND_MAX`` memories no longer current of its owners
that pass its filters. Finding them by scanning every label's ``until`` and sorting the
ended ones costs a search about a millisecond at 100k memories with a tenth superseded
(``bench/lenders_bench.py``), for a handful of rows. This map is kept on every write
instead (``state.py`` adds a memory when it stops being current, and drops it when it is
removed or current again), so a search reads its owners' newest ended labels from the
end, a chunk at a time, until it has enough that pass its filters: the same labels in the
same order as the scan.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["EndedLabels"]

# Labels read per step from an owner's newest end: most searches need one step.
_CHUNK = 512


class EndedLabels:
    """The labels of memories no longer current, by owner (a subject's code, or GENERAL),
    each owner's sorted by creation sequence; and all of them, sorted the same way. Each
    is two parallel lists (sequences, labels): a search reads a slice of labels."""

    def __init__(self) -> None:
        self._owners: dict[int, tuple[list[int], list[int]]] = {}
        self._all: tuple[list[int], list[int]] = ([], [])
        self._of: dict[int, tuple[int, int]] = {}     # label -> (owner, seq)

    def __len__(self) -> int:
        return len(self._of)

    def add(self, label: int, owner: int, seq: int) -> None:
        """The memory at ``label`` is no longer current (again: nothing)."""
        if label in self._of:
            return
        self._of[label] = (owner, seq)
        for seqs, labels in (self._owners.setdefault(owner, ([], [])), self._all):
            at = bisect.bisect_left(seqs, seq)
            seqs.insert(at, seq)
            labels.insert(at, label)

    def discard(self, label: int) -> None:
        """The memory at ``label`` is removed or current again (not kept: nothing)."""
        found = self._of.pop(label, None)
        if found is None:
            return
        owner, seq = found
        for seqs, labels in (self._owners[owner], self._all):
            at = bisect.bisect_left(seqs, seq)
            del seqs[at], labels[at]
        if not self._owners[owner][0]:
            del self._owners[owner]

    def newest(self, owners: Sequence[int | None], keep: Callable[[np.ndarray], np.ndarray],
               want: int, seq: np.ndarray) -> np.ndarray:
        """The newest ``want`` ended labels of ``owners`` (``[None]``: every owner) that
        ``keep`` keeps (it returns those of the labels it is given that pass, in their
        order), newest first; ``seq`` is every label's creation sequence."""
        if owners == [None]:
            return _newest(self._all[1], keep, want)
        found = [_newest(self._owners[o][1], keep, want) for o in dict.fromkeys(owners)
                 if o is not None and o in self._owners]
        if not found:
            return np.zeros(0, dtype=np.int64)
        if len(found) == 1:
            return found[0]
        every = np.concatenate(found)
        merged: np.ndarray = every[np.argsort(-seq[every], kind="stable")][:want]
        return merged


def _newest(labels: list[int], keep: Callable[[np.ndarray], np.ndarray],
            want: int) -> np.ndarray:
    """The newest ``want`` of ``labels`` (oldest first) that ``keep`` keeps, newest
    first."""
    out: list[np.ndarray] = []
    have, end = 0, len(labels)
    while end > 0 and have < want:
        start = max(0, end - _CHUNK)
        kept = keep(np.asarray(labels[start:end][::-1], dtype=np.int64))
        out.append(kept)
        have += len(kept)
        end = start
    if not out:
        return np.zeros(0, dtype=np.int64)
    found: np.ndarray = np.concatenate(out)[:want]
    return found
