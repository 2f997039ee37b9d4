"""One subject's results moved among its own places (issue 23, item 5).

Every read-time order of ``recency.newer_first`` moves a result of a subject among that
subject's places in the ranking and nowhere else: newer values ahead of older ones
(``recency._current_ahead``, ``recency._gone_ahead``, ``replaced_ahead.replaced_ahead``,
``changed_ahead.changed_ahead``), an ending or another person's fact after the subject's
own (``replaced_ahead.ending_after``, ``recency._own_first``). The subject's other results
keep their order; general memories and other subjects keep their places. Each of them
collects the subject's places, picks where the result goes among them, and writes them
back: :class:`Theirs` is that idiom, written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Theirs"]


@dataclass
class Theirs:
    """The places of one subject's results in ``out`` (an order of results, best first,
    edited in place): ``held``, their positions in ``out``; ``mine``, the results at
    them, in order; ``at``, the index in ``mine`` of the result to move."""

    out: list[int]
    held: list[int]
    mine: list[int]
    at: int

    @classmethod
    def of(cls, out: list[int], owners: Sequence[Any], result: int) -> Theirs:
        """The places in ``out`` of the results about ``result``'s subject (``owners``)."""
        held = [p for p, i in enumerate(out) if owners[i] == owners[result]]
        mine = [out[p] for p in held]
        return cls(out, held, mine, mine.index(result))

    def move(self, to: int) -> None:
        """Move the result to index ``to`` of ``mine`` (the results between shift by one
        place, in their order) and write the subject's places back into ``out``."""
        self.mine.insert(to, self.mine.pop(self.at))
        for p, i in zip(self.held, self.mine, strict=True):
            self.out[p] = i
        self.at = to
