"""Ranking: how the candidates of one search become its results, the same on every backend.

A search has two halves. Each backend *gathers* (``search.py`` over the in-memory state,
``postgres/search.py`` in SQL): the memories in scope worth scoring, each with its exact
per-lane similarities (the cosines of the query's lanes with the memory's vectors) and
its BM25 for the query; the memories scored by text instead (no vectors, or a query that
could not be embedded); the best BM25 in scope; and a way to find the neighbours of a
hit. :meth:`Ranking.rank` then turns them into results, once for both:

1. the content lane's cosine, in part (``IndexParams.name_projection``) read with the
   direction of the query's first name taken out when the query names someone
   (``recall.without_name``; each backend fills ``Rows.name_sim``), is pulled up by BM25,
   against the best BM25 in scope (``recall.boost_content``), and, when the query asks
   when, for the memories that say a time (``recall.boost_answers``, ``asks.py``; each
   backend fills ``Rows.answers``);
2. similarities are clamped to ``[0, 1]`` and blended over the lanes present, with the
   element's lane weights (``recall.blend``); when the query brings a situation (context
   or intention), each row is also scored as the query alone would score it (the content
   lane only: the ``alone`` column beside ``situated``);
3. memories about a name the query names are boosted (``recall.boost_named``,
   ``names.py``; each backend fills ``Rows.named``), then those that occurred in the span
   the query names (``recall.boost_time``);
4. the memories stored next to the best hits (same owner, adjacent in creation order,
   close in time) join and are pulled toward their hit (``recall.boost_neighbours``), in
   each column by its own hits: the nearest on each side halfway, the next two less;
5. each column is calibrated against what the query reaches on the newest current
   memories of the subject the search names, else of its scope (``recall.calibrate``
   over ``Gathered.background``): an increasing map, so the order is the formula's and
   only what a score reads as changes;
6. a row is kept when its score *or* its query-alone score reaches
   ``relevance_threshold`` (a situation reorders and adds, it never hides what the query
   alone finds), ranked best first by its score (equal scores: newer first) and cut at
   :attr:`Ranking.depth` (``limit``, at least 16: each backend orders them newer first,
   ``recency.newer_first``, then cuts at ``limit``); when the query asks for a thing by
   a noun, the places after the fifth go to the rows ranked with the memories that say a
   name lifted (``Ranking._late``; ``Rows.answers`` read as a name, ``asks.py``); with
   ``IndexParams.hop_places``, the places after the 7th are filled by the lexical second
   hop, what the top hit's rarest words find (``hop.py``); the best rows not chosen go
   along (``Ranked.under``): a newer value of what the query asks may join from there
   (``answers_under.py``, each backend).

*Which* memories are candidates each backend finds its own fast way, by rules written
once (``gathered.py``, with the shapes a backend fills): the owner pools of the scope
(``pools_in_scope``); each lane's top
:meth:`Ranking.lane_candidates` per pool and the best :meth:`Ranking.lexical_candidates`
BM25 matches that have a content vector; a time window (``occurred_after`` /
``occurred_before``) scored whole when it holds few memories (``window_plan``); the
memories of a named span added when they are few (:meth:`Ranking.span`); a hit's
neighbours looked for among ``NEIGHBOUR_SCAN`` creation positions on each side.

A new ranking lever is a step of :meth:`Ranking.rank`; when it needs a signal the rows do
not carry yet, a column of ``gathered.Rows`` that each backend's gathering fills.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .gathered import (
    Gathered,
    HopFinder,
    Ranked,
    Rows,
    newest,
    subset,
)
from .hop import HOP_KEEP, hop_order, rows_of, shown
from .lend import Lenders, lend
from .params import IndexParams
from .query import Bounds
from .recall import (
    BACKGROUND_SIZE,
    LANES,
    SCORE_EPSILON,
    background_named,
    background_of,
    blend,
    calibrate,
    boost_answers,
    boost_content,
    boost_named,
    boost_neighbours,
    boost_time,
    rank,
    weight_vector,
    without_name,
)
from .settings import MemorySettings
from .timespan import TimeSpan

__all__ = ["Ranking"]


@dataclass(frozen=True)
class Ranking:
    """The ranking of one search: its parameters, and :meth:`rank`."""

    params: IndexParams
    weights: np.ndarray
    threshold: float
    limit: int
    when: TimeSpan | None = None
    names: tuple[str, ...] = ()
    exact: str | None = None
    name: np.ndarray | None = None
    name_query: float = 0.0
    asks: str | None = None
    #: The query with "they" for its first name (``they.py``): what it asks is read from
    #: it when the query's own words ask nothing clearly (``asked.asked_of``); no score is.
    they: str | None = None

    @property
    def background_size(self) -> int:
        """How many memories the calibration's background sample holds (0: none, the
        calibration is off)."""
        return BACKGROUND_SIZE if self.params.calibrate else 0

    @property
    def depth(self) -> int:
        """How many rows the ranking chooses: ``limit``, and at least as many as the
        largest limit whose candidates are the floor (``IndexParams.candidates_for``:
        ``min_candidates / oversample``, 16). Each backend orders them newer first
        (``recency.newer_first``) and only then cuts at ``limit``: that order moves a
        newer near-duplicate up from below, and over ``limit`` rows alone a search of 10
        and the first 10 of a search of 16 differed (161 of LoCoMo's 760 questions in the
        10k mixed store). Chosen from the same candidates, a search of any limit up to the
        depth is the first of a search of any larger limit up to it; past it (a search of
        50), the more rows a search chooses, the more may move up."""
        floor = self.params.min_candidates // max(self.params.oversample, 1)
        return max(self.limit, floor)

    @property
    def hops(self) -> bool:
        """Whether the lexical second hop fills places after ``hop.HOP_KEEP`` (a backend
        finds its memories only then: ``Gathered.hop``)."""
        return self.depth > HOP_KEEP and self.params.hop_places > 0

    @classmethod
    def of(cls, params: IndexParams, settings: MemorySettings, limit: int,
           when: TimeSpan | None, names: tuple[str, ...] = (), *,
           exact: str | None = None, name: np.ndarray | None = None,
           query: np.ndarray | None = None, asks: str | None = None,
           they: str | None = None) -> Ranking:
        """The ranking a search of ``limit`` results runs under these settings (``when``:
        the span its query names; ``names``: the names it names, ``names.query_names``,
        kept only when the name boost is on: a backend looks for none otherwise).

        ``exact``: the query's text when its content vector is not the query's own (the
        query without its names mixed in): a memory whose content is exactly that text
        gets the content similarity 1 that its own vector would give it (each backend
        fills ``Rows.same``), so that the same text still scores 1.

        ``name``: the unit vector of the query's first name alone, ``query`` the query's
        content vector (``IndexParams.name_projection``): each backend fills
        ``Rows.name_sim``, and the content cosine is read with the name's direction
        taken out (``recall.without_name``).

        ``asks``: what the query asks for (``asks.asked``: "time" when it asks when,
        "name" when it asks for a thing by a noun), kept only when
        ``IndexParams.answer_weight`` is on: each backend fills ``Rows.answers``, and the
        memories that say it are lifted (``recall.boost_answers``): a time in every place,
        a name in the places after the fifth (``_late``)."""
        if name is None or query is None or params.name_projection <= 0:
            name, against = None, 0.0
        else:
            against = float(np.dot(query, name))
        return cls(params, weight_vector(settings.association_weights),
                   settings.relevance_threshold, limit, when,
                   names if params.name_weight > 0 else (), exact, name, against,
                   asks if params.answer_weight > 0 else None, they)

    # -- candidate rules -------------------------------------------------------------------

    def lane_candidates(self, lane: str, lanes: int) -> int:
        """How many candidates a lane's walk gives per owner pool, the query giving
        ``lanes`` lanes (``IndexParams.candidates_for``)."""
        return self.params.candidates_for(self.depth, lane, lanes)

    def lexical_candidates(self) -> int:
        """How many of the best BM25 matches (with a content vector) join the candidates."""
        return self.params.candidates_for(self.depth, "content")

    def span(self, occurred: Bounds) -> Bounds | None:
        """Exclusive bounds of the span the query names (half-open ``[start, end)``),
        inside ``occurred``, when it boosts; else None. Its memories join the candidates
        when there are at most ``SPAN_CANDIDATES_MAX`` of them."""
        if self.when is None or self.params.time_weight <= 0:
            return None
        after = float(np.nextafter(self.when.start, -np.inf))
        if occurred[0] is not None:
            after = max(after, occurred[0])
        before = self.when.end if occurred[1] is None else min(self.when.end, occurred[1])
        return after, float(before)

    # -- the ranking -----------------------------------------------------------------------

    def rank(self, gathered: Gathered) -> Ranked:
        """Boost, blend, pull neighbours, calibrate, threshold and rank (the module
        docstring)."""
        table = self._table(gathered)
        fallback = "text" if gathered.vector is None or len(gathered.text) else None
        if table is None:
            return Ranked([], [], [], fallback)
        if gathered.vector is not None and gathered.neighbours is not None \
                and self.params.neighbour_weight > 0:
            # The query alone's first, over the rows its own search would have: its
            # hits are then the query-alone search's own.
            for column in ("alone", "situated"):
                if column in table.scores:
                    self._pull_neighbours(gathered, table, column)
        background = self._background(gathered)
        scores = {column: self._calibrated(values, column, background)
                  for column, values in table.scores.items()}
        situated = scores["situated"]
        hop = gathered.hop if self.hops and gathered.vector is not None else None
        # With the hop, the rows its places may push down too.
        order = rank(situated, self.threshold,
                     self.depth + (0 if hop is None else self.params.hop_places),
                     tiebreak=table.seq,
                     gate=np.maximum(situated, scores["alone"]) if "alone" in scores
                     else None)
        chosen = np.asarray(order, dtype=np.int64)
        if self.asks == "name" and len(chosen) > LATE_KEEP:
            chosen = self._late(chosen, table, np.maximum(situated, scores["alone"])
                                if "alone" in scores else situated)
        if hop is not None and len(chosen):
            chosen, values = self._hop(hop, gathered.best, table, chosen, background,
                                       scores)
        else:
            values = shown(situated[chosen])
        chosen, values = chosen[:self.depth], values[:self.depth]
        return _ranked(table, chosen, values, fallback,
                       lambda: _under(table, situated, chosen))

    def _late(self, order: np.ndarray, table: _Table, gate: np.ndarray) -> np.ndarray:
        """``order`` (the first ranking's best) with its first ``LATE_KEEP`` places kept
        and the rest ranked again with the memories that say a name lifted
        (``recall.boost_answers`` on their scores before calibration, an increasing map;
        ``asks.asks_name``): a list's other instances, told by their names, come up
        into the places after the first five, and the first five do not move. Every row
        that passes the threshold may take those places."""
        keep, places = order[:LATE_KEEP], len(order) - LATE_KEEP
        passes = gate >= self.threshold - SCORE_EPSILON
        passes[keep] = False
        rest = np.flatnonzero(passes)
        late = boost_answers(table.scores["situated"][rest], table.said[rest],
                             self.params.answer_weight)
        if len(rest) > places:
            # Only the rows at or above the last place's lifted score are sorted.
            last = np.partition(late, len(late) - places)[len(late) - places]
            rest, late = rest[late >= last], late[late >= last]
        rest = rest[np.lexsort((-table.seq[rest], -late))][:places]
        return np.concatenate([keep, rest]).astype(np.int64)

    def _hop(self, hop: HopFinder, best: float, table: _Table, order: np.ndarray,
             background: _Background | None,
             scores: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """The lexical second hop (``hop.py``): ``order`` (the first ranking's best,
        ``hop_places`` past the limit; ``scores`` each column's calibrated scores) with
        the places after ``HOP_KEEP`` filled by the fusion of the first ranking and the
        second, and the scores the results read (``hop.shown``). The memories the hop
        finds that are not rows yet join the table, scored as the first ranking would
        score them."""
        situated = scores["situated"]
        found = hop(table.keys[order[0]])
        if found is None or not len(found[0]):
            return order, shown(situated[order])
        rows, extra = found
        # The rows' similarities before the boosts, once: with the words' BM25 added for
        # the second ranking, and without for the rows that join (elementwise, so a
        # joining row's are what its own ``_similarities`` give, bit for bit).
        unboosted = self._unboosted(rows)
        second_of = self._scores(
            self._boosted(unboosted, rows,
                          (np.zeros(len(rows)) if rows.bm25 is None else rows.bm25) + extra,
                          best),
            rows.present, rows.occurred, rows.opens_named(), ["situated"])["situated"]
        at = rows_of(table.keys, rows.keys)
        new = at < 0
        if new.any():
            start, joining = len(table.keys), subset(rows, new)
            table.add(joining, self._boosted(unboosted, rows, rows.bm25, best)[new],
                      self._scores)
            at[new] = np.arange(start, len(table.keys))
            # The new rows' scores read as the others' (the same background).
            scores = {column: np.concatenate([values, self._calibrated(
                table.scores[column][start:], column, background)])
                for column, values in scores.items()}
            situated = scores["situated"]
        gate = np.maximum(situated, scores["alone"]) if "alone" in scores else situated
        passes = gate >= self.threshold - SCORE_EPSILON
        kept = passes[at]
        at, second_of = at[kept], second_of[kept]
        raw = table.scores["situated"][at]
        second = self._calibrated(np.maximum(raw, second_of), "situated", background)
        merged = hop_order(order, passes.nonzero()[0], at, situated, second, table.seq,
                           self.params.hop_places)
        return merged, shown(situated[merged])

    def _table(self, gathered: Gathered) -> _Table | None:
        """Every gathered row, scored (None: no rows)."""
        parts: list[tuple[Rows, np.ndarray]] = []
        if gathered.vector is not None and len(gathered.vector):
            parts.append((gathered.vector, self._similarities(gathered.vector,
                                                              gathered.best)))
        text = gathered.text
        if len(text):
            parts.append((text, np.clip(text.sims, 0.0, 1.0)))
        if not parts:
            return None
        if len(parts) == 1:     # the common case (no rows scored by text): no copies
            rows, sims = parts[0]
            table = _Table(rows.keys, rows.seq, rows.occurred, sims, rows.present,
                           rows.opens_named(), {}, _said(rows))
        else:
            table = _Table(np.concatenate([rows.keys for rows, _ in parts]),
                           np.concatenate([rows.seq for rows, _ in parts]),
                           np.concatenate([rows.occurred for rows, _ in parts]),
                           np.concatenate([s for _, s in parts]),
                           np.concatenate([rows.present for rows, _ in parts]),
                           np.concatenate([rows.opens_named() for rows, _ in parts]), {},
                           np.concatenate([_said(rows) for rows, _ in parts]))
        columns = ("situated", "alone") if table.present[:, 1:].any() else ("situated",)
        table.scores = self._scores(table.sims, table.present, table.occurred, table.named,
                                    columns)
        if gathered.lenders is not None:
            self._lend(gathered.lenders, table, gathered.best)
        return table

    def _lend(self, lenders: Lenders, table: _Table, best: float) -> None:
        """The heirs not yet among the rows added, then each heir's score in every
        column raised to its lenders' (``lend.py``)."""
        rows, heir_rows = lenders.rows, lenders.heir_rows
        new = ~np.isin(heir_rows.keys, table.keys)
        if new.any():
            table.add(subset(heir_rows, new), self._similarities(
                subset(heir_rows, new), best), self._scores)
        lent = self._scores(self._similarities(rows, best), rows.present, rows.occurred,
                            rows.opens_named(), list(table.scores))
        for column, values in lent.items():
            table.scores[column] = lend(table.keys, table.scores[column], values,
                                        lenders.heirs)

    def _background(self, gathered: Gathered) -> _Background | None:
        """The calibration's background rows with their similarities, scored once for
        every column (``_calibrated``): the vector background the backend gathered, or,
        when the query has no vectors, the newest text rows (read against each other).
        None: calibration off, or no background."""
        background = gathered.background if gathered.vector is not None \
            else newest(gathered.text)
        if not self.params.calibrate or background is None or not len(background):
            return None
        # The background is scored as the rows are, shared words included: words that
        # every memory of the sample shares with the query (the name of the person it
        # asks about) lift the rows and the background alike.
        sims = self._similarities(background, gathered.best) \
            if gathered.vector is not None else np.clip(background.sims, 0.0, 1.0)
        return _Background(background, sims, {})

    def _calibrated(self, scores: np.ndarray, column: str,
                    background: _Background | None) -> np.ndarray:
        """``column``'s scores read against the ``background`` (``recall.calibrate``,
        ``_background``); with none, as they are."""
        if background is None:
            return scores
        level = background.levels.get(column)
        if level is None:
            level = background.levels[column] = self._level(background, column)
        return calibrate(scores, level)

    def _level(self, background: _Background, column: str) -> tuple[float, float]:
        """``column``'s background level (``recall.background_of``), read once per
        search: the rows, the hop's and the second ranking are calibrated against it."""
        rows, sims = background.rows, background.sims
        present = rows.present & _CONTENT_ONLY if column == "alone" else rows.present
        level = background_of(blend(sims, present, self.weights))
        if self.names and rows.opens_named().any():
            # Where some memories of the sample are about a name the query names, those
            # are what a result must be told apart from (the person's other memories):
            # the background is read as theirs, as if the whole sample had the name
            # boost. When every memory of the sample opens with it (a subject's own, all
            # "Tom ..."), the boost is then the same map on rows and background, and the
            # calibrated scores above its centre do not move.
            level = background_named(level, self.params.name_weight)
        return level

    def _similarities(self, rows: Rows, best: float) -> np.ndarray:
        """Vector rows' similarities: the content cosine (in part without the name's
        direction, ``Ranking.of``'s ``name``; 1 for the query's own text, its ``exact``)
        boosted by BM25 and, for a query that asks when, where the memory says a time
        (``Ranking.asks``), all clamped."""
        return self._boosted(self._unboosted(rows), rows, rows.bm25, best)

    def _unboosted(self, rows: Rows) -> np.ndarray:
        """:meth:`_similarities` before the lexical and answer boosts (a new array): the
        hop boosts the same rows twice, with and without its words' BM25."""
        sims = np.array(rows.sims, dtype=np.float64)
        if self.name is not None and rows.name_sim is not None and len(rows):
            share = self.params.name_projection
            projected = without_name(sims[:, 0], rows.name_sim, self.name_query)
            # The whole share (the default) takes the projection as it is: ``1 * x + 0 *
            # cos`` differs from ``x`` only in the sign of a zero, which the lexical
            # boost below (every vector row has BM25) makes +0 either way.
            sims[:, 0] = projected if share == 1.0 and rows.bm25 is not None else \
                share * projected + (1.0 - share) * sims[:, 0]
        if rows.same is not None and len(rows):
            sims[np.asarray(rows.same, dtype=bool), 0] = 1.0
        return sims

    def _boosted(self, unboosted: np.ndarray, rows: Rows, bm25: np.ndarray | None,
                 best: float) -> np.ndarray:
        """:meth:`_similarities` from :meth:`_unboosted`'s ``unboosted`` (left as it is)
        with ``bm25`` as the rows' BM25 (None: no lexical boost)."""
        sims = unboosted.copy()
        if len(rows) and bm25 is not None:
            sims[:, 0] = boost_content(sims[:, 0], bm25, best)
        if self.asks == "time" and rows.answers is not None and len(rows):
            sims[:, 0] = boost_answers(sims[:, 0].clip(0.0, 1.0), rows.answers,
                                       self.params.answer_weight)
        out: np.ndarray = sims.clip(0.0, 1.0)     # ``np.clip`` without its Python layers
        return out

    def _scores(self, sims: np.ndarray, present: np.ndarray, occurred: np.ndarray,
                named: np.ndarray, columns: Sequence[str]) -> dict[str, np.ndarray]:
        """Each row's score in ``columns``: ``situated``, the blend over every lane
        present, with the name and time boosts; ``alone`` (when a lane of the situation takes
        part), the score the query alone gives it (the content lane only), which keeps
        it above the threshold: context reorders and adds, never hides."""
        return {column: self._blend(sims, present & _CONTENT_ONLY if column == "alone"
                                    else present, occurred, named) for column in columns}

    def _named(self, scores: np.ndarray, named: np.ndarray) -> np.ndarray:
        """``scores`` with the name boost (``recall.boost_named``), when it is on."""
        if not self.names:
            return scores
        return boost_named(scores, named, self.params.name_weight)

    def _blend(self, sims: np.ndarray, present: np.ndarray,
               occurred: np.ndarray, named: np.ndarray) -> np.ndarray:
        """The blended score of each row, with the name and time boosts."""
        scores = self._named(blend(sims, present, self.weights), named)
        if self.when is not None and self.params.time_weight > 0:
            scores = boost_time(scores, occurred, self.when.start, self.when.end,
                                self.params.time_weight)
        return scores

    def _pull_neighbours(self, gathered: Gathered, table: _Table, column: str) -> None:
        """Add the neighbours of the ``neighbour_hits`` best rows by ``column``'s score and
        pull them toward their hit (``recall.boost_neighbours``); the rows added are
        scored in every column."""
        assert gathered.neighbours is not None
        scores, seq = table.scores[column], table.seq
        count = min(self.params.neighbour_hits, len(scores))
        if count <= 0:
            return
        # The best rows, ties broken newer first, so every backend picks the same hits
        # (only the rows tied with the last one are sorted).
        last = np.partition(scores, len(scores) - count)[len(scores) - count]
        tied = (scores >= last).nonzero()[0]
        top = tied[np.lexsort((-seq[tied], -scores[tied]))][:count]
        hits, wanted, steps, rows = gathered.neighbours(table.keys[top], table.keys)
        if not len(hits):
            return
        if len(rows):
            table.add(rows, self._similarities(rows, gathered.best), self._scores)
        # Every hit is a row already, and every neighbour one now: their rows, by key.
        keys = table.keys
        order = keys.argsort(kind="stable")
        rows_of = order[keys[order].searchsorted(np.concatenate([hits, wanted]))]
        # The nearest on each side pulled by ``neighbour_weight``, the farther ones by
        # ``neighbour_far_weight``.
        weights = np.where(steps <= 1, self.params.neighbour_weight,
                           self.params.neighbour_far_weight)
        table.scores[column] = boost_neighbours(
            table.scores[column], rows_of[:len(hits)], rows_of[len(hits):], weights)


_CONTENT_ONLY = np.array([[True, False, False]])

#: A query that asks for things by a plural noun keeps its first ranking's first places
#: this many; the lift of the memories that say a name orders the rest (``_late``).
LATE_KEEP = 5


#: At most this many rows not chosen are handed over (``Ranked.under``): a subject's
#: newer value under the threshold is among a scoped search's few next rows.
UNDER_MAX = 16


def _ranked(table: _Table, chosen: np.ndarray, values: np.ndarray, fallback: str | None,
            below: Callable[[], Ranked | None] | None = None) -> Ranked:
    """The rows ``chosen`` of ``table`` at their scores ``values`` (``below``: how to make
    the rows not chosen, ``Ranked.under``, when they are read)."""
    lane_sims, lane_present = table.sims[chosen].tolist(), table.present[chosen].tolist()
    return Ranked(
        keys=table.keys[chosen].tolist(), scores=np.asarray(values).tolist(),
        lanes=[{lane: (sims[j] if flags[j] else None) for j, lane in enumerate(LANES)}
               for sims, flags in zip(lane_sims, lane_present, strict=True)],
        fallback=fallback, below=below)


def _under(table: _Table, situated: np.ndarray, chosen: np.ndarray) -> Ranked | None:
    """Step 6's best ``UNDER_MAX`` rows not chosen, by their (calibrated) scores: a newer
    value of what the query asks may join from there in its older value's place
    (``answers_under.py``). None: none."""
    rest = np.setdiff1d(np.arange(len(situated)), chosen)
    if not len(rest):
        return None
    rest = rest[np.argsort(-situated[rest], kind="stable")][:UNDER_MAX]
    return _ranked(table, rest, situated[rest], None)


def _said(rows: Rows) -> np.ndarray:
    """Whether each of ``rows`` says what the query asks for (``Rows.answers``; False
    where not read)."""
    if rows.answers is None:
        return np.zeros(len(rows), dtype=bool)
    return np.asarray(rows.answers, dtype=bool)


@dataclass(frozen=True)
class _Background:
    """The calibration's background rows of one search, their similarities, and each
    column's level once read (``Ranking._level``)."""

    rows: Rows
    sims: np.ndarray
    levels: dict[str, tuple[float, float]]


@dataclass
class _Table:
    """The rows of one ranking: keys, creation order, occurred, similarities, lanes
    present, whether each is about a name the query names, each score column
    (``Ranking._scores``, before calibration), and whether each says what the query asks
    for (``Rows.answers``, read by ``Ranking._late``)."""

    keys: np.ndarray
    seq: np.ndarray
    occurred: np.ndarray
    sims: np.ndarray
    present: np.ndarray
    named: np.ndarray
    scores: dict[str, np.ndarray]
    said: np.ndarray

    def add(self, rows: Rows, sims: np.ndarray,
            score: Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Sequence[str]],
                            dict[str, np.ndarray]]) -> None:
        """Append ``rows`` (their ``sims``), scored by ``score`` in every column."""
        named = rows.opens_named()
        new = score(sims, rows.present, rows.occurred, named, list(self.scores))
        self.keys = np.concatenate([self.keys, rows.keys])
        self.seq = np.concatenate([self.seq, rows.seq])
        self.occurred = np.concatenate([self.occurred, rows.occurred])
        self.sims = np.concatenate([self.sims, sims])
        self.present = np.concatenate([self.present, rows.present])
        self.named = np.concatenate([self.named, named])
        self.said = np.concatenate([self.said, _said(rows)])
        for column in self.scores:
            self.scores[column] = np.concatenate([self.scores[column], new[column]])
