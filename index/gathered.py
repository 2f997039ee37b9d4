"""What a backend gathers for one search, and the rules by which it gathers it.

Each backend (``search.py`` over the in-memory state, ``postgres/search.py`` in SQL) fills
the same shapes: :class:`Rows` of scored candidates, a :class:`Gathered` of them for one
search, and reads :class:`Ranked`, what ``ranking.Ranking.rank`` chose. The rules both
follow to find candidates live here once too: the owner pools of a scope
(:func:`pools_in_scope`), a time window scored whole when it is small (:func:`window_plan`),
the bounds on exact rescoring and on a hit's neighbour scan.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from .lend import Lenders
from .recall import BACKGROUND_SIZE, LANES, text_similarity, token_set

__all__ = ["Rows", "Gathered", "Ranked", "NeighbourFinder", "HopFinder", "Pool", "text_rows",
           "pools_in_scope", "window_plan", "subset", "newest", "EVERYONE",
           "WINDOW_EXACT_MAX", "SPAN_CANDIDATES_MAX", "NEIGHBOUR_SCAN"]

# Bounds on how many memories of a time window or span are scored exactly, per search.
# Exact rescoring costs about 0.3 us per memory and lane in the file store: 8192 memories
# are ~3 ms.
WINDOW_EXACT_MAX = 8192
SPAN_CANDIDATES_MAX = 512
# How far (in creation positions) to look for a hit's neighbours on each side: the file
# store's labels are handed out in creation order, so the memories stored just before
# and after a hit sit next to it unless freed labels were reused in between (then the
# neighbour is not found and not boosted); PostgreSQL looks as far in sequence numbers.
NEIGHBOUR_SCAN = 64

EVERYONE = "everyone"
"""The one pool of a search with subject scoping off."""

Pool = str | tuple[str, str] | None
"""An owner pool: :data:`EVERYONE`, None (the general memories) or a subject."""


def pools_in_scope(subject: tuple[str, str] | None, scoping: bool) -> list[Pool]:
    """The owner pools a search covers: everyone with scoping off; with it on, the
    general memories plus the given subject's (never another subject's)."""
    if not scoping:
        return [EVERYONE]
    return [None] if subject is None else [None, subject]


def window_plan(found: int, window: int, limit: int) -> str:
    """How a search bounded in time (``occurred_after``/``occurred_before``) takes its
    candidates, so that a narrow window never comes back short.

    :param found: candidates found inside the window by the lane walks and BM25.
    :param window: memories with a content vector in the window, counted up to
        ``WINDOW_EXACT_MAX + 1``.
    :return: ``"window"``: score every memory of the window instead (it is small);
        ``"add"``: too few candidates, add the whole window; ``"found"``: keep them.
    """
    if window <= WINDOW_EXACT_MAX:
        return "window"
    return "add" if found < limit else "found"


@dataclass
class Rows:
    """Scored candidates: one row per memory.

    ``keys`` are the backend's handles (the file store's labels, PostgreSQL's ids);
    ``seq`` the creation sequence (ties rank newer first); ``occurred`` POSIX seconds;
    ``sims`` ``(n, 3)`` similarities in ``LANES`` order (cosines for vector rows, before
    any boost); ``present`` whether each lane takes part; ``bm25`` each row's BM25 for the
    query (vector rows; None for rows scored by text, which get no lexical boost);
    ``named`` whether the memory is about a name the query names (``names.py``; None:
    none does, or the query names nobody); ``same`` whether its content is exactly the
    query's text (filled when ``Ranking.exact`` is set; None: none is); ``name_sim`` the
    cosine of its content vector with the vector of the query's first name alone (filled
    when ``Ranking.name`` is set; None: not asked); ``answers`` whether its content says
    what the query asks for (``asks.says``; filled when ``Ranking.asks`` is set;
    None: not asked).
    """

    keys: np.ndarray
    seq: np.ndarray
    occurred: np.ndarray
    sims: np.ndarray
    present: np.ndarray
    bm25: np.ndarray | None = None
    named: np.ndarray | None = None
    same: np.ndarray | None = None
    name_sim: np.ndarray | None = None
    answers: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def empty(cls, keys: np.ndarray | None = None) -> Rows:
        """No rows (with ``keys``' dtype when given)."""
        return cls(keys=np.zeros(0, dtype=np.int64) if keys is None else keys[:0],
                   seq=np.zeros(0, dtype=np.int64), occurred=np.zeros(0),
                   sims=np.zeros((0, len(LANES))),
                   present=np.zeros((0, len(LANES)), dtype=bool), bm25=np.zeros(0))

    def opens_named(self) -> np.ndarray:
        """``named`` as a bool array (all False when None)."""
        return np.zeros(len(self), dtype=bool) if self.named is None \
            else np.asarray(self.named, dtype=bool)


NeighbourFinder = Callable[[np.ndarray, np.ndarray],
                          tuple[np.ndarray, np.ndarray, np.ndarray, Rows]]
"""``(hit keys, keys already scored) -> (hits, neighbours, steps, rows)``: one
``(hits[i], neighbours[i], steps[i])`` triple per neighbour found (the memories stored
before and after a hit by the same owner, within ``neighbour_gap`` seconds of it, with a
content vector, passing the search's filters: at most ``IndexParams.neighbour_reach``
each side, ``steps[i]`` 1 for the nearest, 2 for the next), and the scored rows of those
neighbours that are not among the keys already scored."""

HopFinder = Callable[[Any], tuple[Rows, np.ndarray] | None]
"""``top hit's key -> (rows, words' BM25)`` (``hop.py``): the memories that say the top
hit's rarest words (``hop.hop_words``), in the search's scope and passing its filters, with
a content vector, scored as the search's vector rows (their BM25 the query's), and each
one's BM25 for those words; None: no word, or no memory."""


@dataclass
class Gathered:
    """What a backend gathered for one search (see the module docstring).

    ``vector`` is None when the query could not be embedded (everything in scope is then
    in ``text``); ``best`` is the highest BM25 in scope among memories with a content
    vector (0: no match); ``neighbours`` finds a hit's neighbours (None: not looked for);
    ``background`` holds the similarities of the calibration's sample (None: the vector
    rows' scores are not calibrated): the ``BACKGROUND_SIZE`` newest memories with a
    content vector that the search's validity lets it return (superseded ones are not,
    by default; its other filters do not count), the named subject's own when a search
    names a subject that has some, else those of its whole scope: what a search about a
    person must be told apart from is that person's other memories, while general ones
    stored after them are about other things and would read the background low
    (``docs/recall.md``, Scores). Its rows carry BM25 (of every one of them, whatever
    the filters) and are scored as the results are, shared words included.
    """

    vector: Rows | None
    text: Rows
    best: float = 0.0
    neighbours: NeighbourFinder | None = None
    background: Rows | None = None
    lenders: Lenders | None = None
    hop: HopFinder | None = None


@dataclass(frozen=True)
class Ranked:
    """The chosen memories (the backend's keys), best first, with their scores and their
    per-lane similarities (None where the lane dropped out); ``fallback`` is ``"text"``
    when some or all scores came from text matching. ``under``: the best rows not chosen
    (under the threshold or past the limit), best first, from which a newer value of what
    the query asks may join (``answers_under.py``); None: none. ``below`` makes them
    when ``under`` is first read: only a query that asks a single-valued attribute reads
    them, and making them for every search was a tenth of a millisecond (issue 29)."""

    keys: list[Any]
    scores: list[float]
    lanes: list[dict[str, float | None]]
    fallback: str | None
    below: Callable[[], Ranked | None] | None = field(default=None, repr=False,
                                                      compare=False)

    @cached_property
    def under(self) -> Ranked | None:
        """The best rows not chosen, best first (None: none), made on first reading."""
        return None if self.below is None else self.below()


def text_rows(keys: np.ndarray, seq: Sequence[int], occurred: Sequence[float],
              tokens: Sequence[Sequence[frozenset[str] | None]],
              texts: dict[str, str]) -> Rows:
    """Rows scored by text (``recall.text_similarity``): ``tokens[i]`` holds row i's
    token set per lane in ``LANES`` order, None where the memory has no text there."""
    sims = np.zeros((len(tokens), len(LANES)), dtype=np.float64)
    present = np.zeros((len(tokens), len(LANES)), dtype=bool)
    query = [token_set(texts.get(lane)) for lane in LANES] if tokens else []
    for i, lanes in enumerate(tokens):
        for j, lane in enumerate(LANES):
            mine = lanes[j]
            if lane in texts and mine is not None:
                present[i, j] = True
                sims[i, j] = text_similarity(query[j], mine)
    return Rows(keys, np.asarray(seq, dtype=np.int64), np.asarray(occurred, dtype=np.float64),
                sims, present)


def subset(rows: Rows, pick: np.ndarray) -> Rows:
    """The rows of ``pick`` (a mask or indices)."""
    def of(column: np.ndarray | None) -> np.ndarray | None:
        return None if column is None else np.asarray(column)[pick]
    return Rows(rows.keys[pick], rows.seq[pick], rows.occurred[pick], rows.sims[pick],
                rows.present[pick], of(rows.bm25), of(rows.named), of(rows.same),
                of(rows.name_sim), of(rows.answers))


def newest(rows: Rows) -> Rows:
    """The ``BACKGROUND_SIZE`` newest of ``rows`` (creation order): the text rows'
    background (rows scored by text are read against each other)."""
    if len(rows) <= BACKGROUND_SIZE:
        return rows
    pick = np.argpartition(-rows.seq, BACKGROUND_SIZE - 1)[:BACKGROUND_SIZE]
    return Rows(rows.keys[pick], rows.seq[pick], rows.occurred[pick], rows.sims[pick],
                rows.present[pick], named=None if rows.named is None else rows.named[pick])
