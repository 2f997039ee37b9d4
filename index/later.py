"""The versions that replaced a memory, read with it (issue 23: recall at a time).

A search ``as_of`` a time answers with the versions that held then (``lend.py``: each
chain's heir is the version of the time, and the later versions lend it their scores).
What a version is about is read from its own words too (``recency.answering``: which
attribute of the profile bank it answers best), and a plain older statement often reads
as another attribute ("keeps tropical fish in a big tank in the lounge" answers the diet
a little above the pets), where the version that replaced it, told as the change ("rehomed
the tank ... got a pair of guinea pigs instead"), reads as the pets clearly: asked now,
the newer answers first; asked of the month the fish held, a background fact ranked
above them. What a fact is about does not change with its value, so the version of the
time is read with the content vectors of its later versions (:func:`later_versions`, its
``superseded_by`` chain, of its own subject): where one answers the asked attribute,
clearly or best, so does it (``recency.answering``). A current memory has no later
version: a search of now reads as before, at no cost; each backend walks the chains of
the results no longer current only (the file store from its records, PostgreSQL by id).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

__all__ = ["CHAIN_MAX", "Version", "later_versions"]

#: At most this many later versions are read of one memory (a chain is cut there).
CHAIN_MAX = 16

#: A version as a backend reads it: the id of the one that replaced it (None: none), its
#: content vector (None: not embedded) and its subject.
Version = tuple[str | None, np.ndarray | None, Hashable]


def later_versions(nexts: Sequence[str | None], owners: Sequence[Any],
                   fetch: Callable[[list[str]], dict[str, Version]]
                   ) -> list[list[np.ndarray]]:
    """The content vectors of each result's later versions, oldest first: ``nexts``, the
    id of the version that replaced each result (its ``superseded_by``; None: current,
    none read); ``owners``, each result's subject (a version of another is not read, nor
    any after it); ``fetch``, a backend's read of versions by id (an id it does not hold
    is left out)."""
    out: list[list[np.ndarray]] = [[] for _ in nexts]
    frontier = {k: n for k, n in enumerate(nexts) if n is not None and owners[k] is not None}
    for _ in range(CHAIN_MAX):
        if not frontier:
            break
        got = fetch(sorted(set(frontier.values())))
        following: dict[int, str] = {}
        for k, version in frontier.items():
            if version not in got:
                continue
            after, vector, owner = got[version]
            if owner != owners[k]:
                continue
            if vector is not None:
                out[k].append(vector)
            if after is not None:
                following[k] = after
        frontier = following
    return out
