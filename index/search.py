"""Search over the in-memory state: scope, candidates, similarities, ranking.

No I/O and no locking: :class:`~index.store.MemoryStore` holds its lock around
:func:`score`, then logs the access line for what it returns. The scoring itself is pure
(``recall.py``); this module gathers its inputs:

* **scope** (:func:`owners_in_scope`): scoping off, one pool of everyone; on, the general
  pool plus the given subject's (general only when no subject is given, or the subject
  has no memories);
* **vector candidates**: each query lane's top candidates per pool (``lanes.py``), plus the
  best BM25 matches of the query in scope (``lexical.py``), rescored exactly on the stored
  vectors of all three lanes; the content lane's cosine is then boosted by the BM25 score
  (``recall.boost_content``), so exact words (names, places, rare terms) count;
* **time**: ``occurred`` bounds (``occurred_after``/``occurred_before``, exclusive) narrow
  the scope to memories that occurred between them: candidates outside are dropped, and
  when the window holds few memories (or too few candidates survive) every memory in it
  is scored exactly, so a narrow window never comes back short. A time the query's own
  words name (``when``, ``timespan.py``) does not narrow: memories that occurred in it
  are boosted (``recall.boost_time``) and, when the span holds few memories, added to
  the candidates;
* **text fallback**: memories in scope that have no vectors are scored by text (the same
  blend over binary bag-of-words cosines), and when the query itself could not be
  embedded every memory in scope is. Either way the result says ``fallback = "text"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import InvalidMemory
from .recall import (
    LANES,
    blend,
    boost_content,
    boost_neighbours,
    boost_time,
    rank,
    text_similarity,
    token_set,
)
from .records import (
    MAX_CONTEXT_BYTES,
    MAX_INTENTION_BYTES,
    MAX_QUERY_BYTES,
    parse_time,
    validate_category,
    validate_limit,
    validate_optional_text,
    validate_subject,
    validate_text,
)
from .slots import CATEGORY_CODES, FREE, GENERAL
from .state import MemoryState
from .timespan import TimeSpan

# Bounds on how many memories of a time window or span are scored exactly, per search.
# Exact rescoring costs about 0.3 us per memory and lane: 8192 memories are ~3 ms.
WINDOW_EXACT_MAX = 8192
SPAN_CANDIDATES_MAX = 512
# How far (in labels) to look for a hit's neighbours: labels are handed out in creation
# order, so the memories stored just before and after a hit sit next to it unless freed
# labels were reused in between (then the neighbour is not found and not boosted).
NEIGHBOUR_SCAN = 64

Bounds = tuple[float | None, float | None]

__all__ = ["SearchQuery", "parse_search", "Ranked", "owners_in_scope", "score",
           "SEARCH_LIMIT_MAX"]

SEARCH_LIMIT_MAX = 100


@dataclass(frozen=True)
class SearchQuery:
    """Validated search arguments: the text of each lane the query gives, the subject,
    the limit, the category codes (None: every category) and the exclusive POSIX bounds
    on ``occurred_at`` (None: unbounded)."""

    texts: dict[str, str]
    subject: tuple[str, str] | None
    limit: int
    cats: list[int] | None
    occurred: Bounds = (None, None)


def parse_search(*, query: object, context: object, intention: object,
                 subject_type: object, subject_id: object, limit: object,
                 categories: object, occurred_after: object = None,
                 occurred_before: object = None) -> SearchQuery:
    """Validate search arguments; an empty ``categories`` list means no filter.

    :raise InvalidMemory, InvalidCategory, SubjectIncomplete: naming the bad argument.
    """
    text = validate_text(query, "query", MAX_QUERY_BYTES)
    window = validate_optional_text(context, "context", MAX_CONTEXT_BYTES)
    goal = validate_optional_text(intention, "intention", MAX_INTENTION_BYTES)
    subject = validate_subject(subject_type, subject_id)
    checked = validate_limit(limit, "limit", SEARCH_LIMIT_MAX)
    cats = None
    if categories is not None:
        if isinstance(categories, str) or not isinstance(categories, Sequence):
            raise InvalidMemory("categories", "must be a list of categories")
        # An empty list is "no filter", like leaving it out, rather than "match nothing".
        cats = sorted({CATEGORY_CODES[validate_category(c)] for c in categories}) or None
    texts = {lane: value for lane, value in (("content", text), ("context", window),
                                             ("intention", goal)) if value is not None}
    occurred = (None if occurred_after is None
                else parse_time(occurred_after, "occurred_after"),
                None if occurred_before is None
                else parse_time(occurred_before, "occurred_before"))
    return SearchQuery(texts, subject, checked, cats, occurred)


@dataclass(frozen=True)
class Ranked:
    """The chosen memories, best first, with their scores and per-lane similarities.

    ``lanes[i]`` maps each lane to its similarity for result ``i``, or None when the lane
    dropped out for that memory.
    """

    ids: list[str]
    scores: list[float]
    lanes: list[dict[str, float | None]]
    fallback: str | None


def owners_in_scope(state: MemoryState, subject: tuple[str, str] | None,
                    scoping: bool) -> list[int | None]:
    """Owner pools a search covers: ``[None]`` (everyone) when scoping is off."""
    if not scoping:
        return [None]
    if subject is None:
        return [GENERAL]
    code = state.slots.subject_code(subject, create=False)
    return [GENERAL] if code == FREE else [GENERAL, code]


def score(state: MemoryState, *, queries: dict[str, np.ndarray] | None,
          texts: dict[str, str], owners: list[int | None], cats: list[int] | None,
          weights: np.ndarray, threshold: float, limit: int,
          occurred: Bounds = (None, None), when: TimeSpan | None = None) -> Ranked:
    """Rank the memories in scope for one search.

    :param queries: one unit vector per query lane, or None when embedding failed.
    :param texts: the query texts per lane (for text scoring).
    :param cats: category codes to keep, or None for all.
    :param occurred: exclusive POSIX bounds on ``occurred_at`` (None: unbounded).
    :param when: the span the query's words name, whose memories are boosted.
    """
    parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    bounded = occurred != (None, None)
    params = state.lanes.params
    bm25 = np.zeros(0)
    if queries is not None:
        labels = state.lanes.candidates(queries, owners, cats, limit)
        bm25, lexical = _lexical(state, texts["content"], owners, cats, limit, occurred)
        labels = np.union1d(labels, lexical)
        if bounded:
            labels = labels[_occurred_in(state, labels, occurred)]
            window = _vector_pool(state, owners, cats, occurred, WINDOW_EXACT_MAX + 1)
            if len(window) <= WINDOW_EXACT_MAX or len(labels) < limit:
                labels = window if len(window) <= WINDOW_EXACT_MAX else np.union1d(
                    labels, _vector_pool(state, owners, cats, occurred, None))
        if when is not None and params.time_weight > 0:
            span = _vector_pool(state, owners, cats, _span_bounds(when, occurred),
                                SPAN_CANDIDATES_MAX + 1)
            if len(span) <= SPAN_CANDIDATES_MAX:
                labels = np.union1d(labels, span)
        parts.append((labels, *_vector_similarities(state, labels, queries, bm25)))
    text_labels = _text_pool(state, owners, cats, everything=queries is None)
    if bounded and len(text_labels):
        text_labels = text_labels[_occurred_in(state, text_labels, occurred)]
    fallback = "text" if queries is None or len(text_labels) else None
    if len(text_labels):
        parts.append((text_labels, *_text_similarities(state, text_labels, texts)))
    if not parts:
        return Ranked([], [], [], fallback)
    labels = np.concatenate([p[0] for p in parts]).astype(np.int64)
    sims = np.clip(np.concatenate([p[1] for p in parts]), 0.0, 1.0)
    present = np.concatenate([p[2] for p in parts])
    scores = _blend(state, sims, present, labels, weights, when)
    if queries is not None and params.neighbour_weight > 0 and len(labels):
        labels, sims, present, scores = _with_neighbours(
            state, labels, sims, present, scores, queries=queries, bm25=bm25, cats=cats,
            occurred=occurred, weights=weights, when=when)
    order = rank(scores, threshold, limit, tiebreak=state.slots.seq[labels])
    return Ranked(
        ids=[str(state.slots.ids[int(labels[i])]) for i in order],
        scores=[float(scores[i]) for i in order],
        lanes=[{lane: (float(sims[i, j]) if present[i, j] else None)
                for j, lane in enumerate(LANES)} for i in order],
        fallback=fallback)


def _vector_similarities(state: MemoryState, labels: np.ndarray,
                         queries: dict[str, np.ndarray],
                         bm25: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact per-lane similarities of ``labels``, the content lane boosted by ``bm25``."""
    sims, present = state.lanes.similarities(labels, queries)
    if len(labels) and bm25.size:
        sims[:, 0] = boost_content(sims[:, 0], bm25[labels], float(bm25.max()))
    return sims, present


def _blend(state: MemoryState, sims: np.ndarray, present: np.ndarray, labels: np.ndarray,
           weights: np.ndarray, when: TimeSpan | None) -> np.ndarray:
    """The blended score of each row, with the time boost."""
    scores = blend(sims, present, weights)
    params = state.lanes.params
    if when is not None and params.time_weight > 0:
        scores = boost_time(scores, state.slots.occurred[labels], when.start, when.end,
                            params.time_weight)
    return scores


def _with_neighbours(state: MemoryState, labels: np.ndarray, sims: np.ndarray,
                     present: np.ndarray, scores: np.ndarray, *,
                     queries: dict[str, np.ndarray], bm25: np.ndarray,
                     cats: list[int] | None, occurred: Bounds, weights: np.ndarray,
                     when: TimeSpan | None
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Add the neighbours of the best hits to the rows and pull them toward their hit
    (``recall.boost_neighbours``)."""
    params = state.lanes.params
    count = min(params.neighbour_hits, len(scores))
    if count <= 0:
        return labels, sims, present, scores
    top = np.argpartition(-scores, count - 1)[:count]
    hits, wanted = _adjacent(state, top, labels[top], cats, occurred, params.neighbour_gap)
    if not len(hits):
        return labels, sims, present, scores
    seen = np.zeros(state.slots.high_water, dtype=bool)
    seen[labels] = True
    new = np.unique(wanted[~seen[wanted]])
    if len(new):
        new_sims, new_present = _vector_similarities(state, new, queries, bm25)
        new_sims = np.clip(new_sims, 0.0, 1.0)
        labels = np.concatenate([labels, new])
        sims = np.concatenate([sims, new_sims])
        present = np.concatenate([present, new_present])
        scores = np.concatenate([scores, _blend(state, new_sims, new_present, new,
                                                weights, when)])
    order = np.argsort(labels, kind="stable")
    targets = order[np.searchsorted(labels[order], wanted)]
    return labels, sims, present, boost_neighbours(scores, hits, targets,
                                                   params.neighbour_weight)


def _adjacent(state: MemoryState, rows: np.ndarray, hits: np.ndarray,
              cats: list[int] | None, occurred: Bounds,
              gap: float) -> tuple[np.ndarray, np.ndarray]:
    """The memories stored just before and just after each hit label by the same owner
    that occurred within ``gap`` seconds of it (and pass the search's filters), with a
    content vector: at most one on each side. Returns ``(rows of the hits, neighbour
    labels)``, one pair per neighbour found."""
    slots = state.slots
    hw = slots.high_water
    has = state.lanes["content"].has
    near = hits[:, None] + np.arange(-NEIGHBOUR_SCAN, NEIGHBOUR_SCAN + 1)[None, :]
    keep = (near >= 0) & (near < min(hw, len(has)))
    near = np.where(keep, near, hits[:, None])          # out of range: the hit itself
    keep &= slots.owner[near] == slots.owner[hits][:, None]
    keep &= np.abs(slots.occurred[near] - slots.occurred[hits][:, None]) <= gap
    keep &= has[near]
    if cats is not None:
        keep &= np.isin(slots.cat[near], np.asarray(cats, dtype=np.int8))
    if occurred != (None, None):
        keep &= _occurred_in(state, near.ravel(), occurred).reshape(near.shape)
    seq = slots.seq[near]
    mine = slots.seq[hits][:, None]
    out_rows: list[np.ndarray] = []
    out_labels: list[np.ndarray] = []
    for side, pick in ((keep & (seq < mine), np.argmax), (keep & (seq > mine), np.argmin)):
        found = side.any(axis=1)
        if not found.any():
            continue
        masked = np.where(side, seq, np.iinfo(np.int64).min if pick is np.argmax
                          else np.iinfo(np.int64).max)
        at = pick(masked, axis=1)
        out_rows.append(rows[found])
        out_labels.append(near[np.arange(len(hits)), at][found])
    if not out_rows:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return (np.concatenate(out_rows).astype(np.int64),
            np.concatenate(out_labels).astype(np.int64))


def _occurred_in(state: MemoryState, labels: np.ndarray, occurred: Bounds) -> np.ndarray:
    """Mask of ``labels`` whose memory occurred strictly between the bounds."""
    after, before = occurred
    times = state.slots.occurred[labels]
    keep = np.ones(len(labels), dtype=bool)
    if after is not None:
        keep &= times > after
    if before is not None:
        keep &= times < before
    return keep


def _span_bounds(when: TimeSpan, occurred: Bounds) -> Bounds:
    """Exclusive bounds of a half-open span ``[start, end)``, inside ``occurred``."""
    after = np.nextafter(when.start, -np.inf)
    if occurred[0] is not None:
        after = max(after, occurred[0])
    before = when.end if occurred[1] is None else min(when.end, occurred[1])
    return float(after), float(before)


def _vector_pool(state: MemoryState, owners: list[int | None], cats: list[int] | None,
                 occurred: Bounds, cap: int | None) -> np.ndarray:
    """Labels in scope with a content vector that occurred within the bounds.

    Stops counting past ``cap`` (returns more than ``cap`` labels then, not all of them):
    callers only need to know the pool is too large to score whole.
    """
    slots = state.slots
    hw = slots.high_water
    has = state.lanes["content"].has
    keep = _occurred_in(state, np.arange(hw), occurred)
    keep &= has[:hw] if len(has) >= hw else np.pad(has, (0, hw - len(has)))
    if owners != [None]:
        keep &= _member(slots.owner[:hw], owners)
    else:
        keep &= slots.owner[:hw] != FREE
    if cats is not None:
        keep &= np.isin(slots.cat[:hw], np.asarray(cats, dtype=np.int8))
    labels = np.flatnonzero(keep)
    return labels if cap is None else labels[:cap]


def _member(values: np.ndarray, wanted: Sequence[int | None]) -> np.ndarray:
    """``np.isin(values, wanted)`` for the one or two owners of a search, without the sort
    ``isin`` pays (a tenth of a millisecond per call over a query's BM25 matches)."""
    out = np.zeros(len(values), dtype=bool)
    for value in wanted:
        out |= values == value
    return out


def _lexical(state: MemoryState, query: str, owners: list[int | None],
             cats: list[int] | None, limit: int,
             occurred: Bounds = (None, None)) -> tuple[np.ndarray, np.ndarray]:
    """BM25 of the query for every label in scope (0 elsewhere), and the best matches.

    The best matches are the top ``candidates_for(limit)`` labels with a score above 0 that
    have a content vector (memories without vectors are scored by the text path).
    """
    slots = state.slots
    size = slots.high_water
    bm25 = state.lexical.scores(query, size)
    matched = np.flatnonzero(bm25)
    # Scope checks on the matches only, not on every label: at 100k memories a query
    # matches a few thousand at most.
    keep = np.ones(len(matched), dtype=bool)
    if owners != [None]:
        keep &= _member(slots.owner[matched], owners)
    if cats is not None:
        keep &= np.isin(slots.cat[matched], np.asarray(cats, dtype=np.int8))
    if occurred != (None, None):
        keep &= _occurred_in(state, matched, occurred)
    has = state.lanes["content"].has
    inside = matched < len(has)      # labels past the lane's arrays have no vector yet
    keep &= inside
    keep[inside] &= has[matched[inside]]
    bm25[matched[~keep]] = 0.0
    matched = matched[keep]
    want = state.lanes.params.candidates_for(limit, "content")
    if len(matched) > want:
        matched = matched[np.argpartition(-bm25[matched], want - 1)[:want]]
    return bm25, matched.astype(np.int64)


def _text_pool(state: MemoryState, owners: list[int | None], cats: list[int] | None, *,
               everything: bool) -> np.ndarray:
    """Labels to score by text: those in scope without vectors (or all in scope)."""
    slots = state.slots
    if everything:
        pools = [slots.pool_labels(owner) for owner in owners]
        labels = np.concatenate(pools) if pools else np.zeros(0, dtype=np.int64)
    else:
        if not state.unembedded:
            return np.zeros(0, dtype=np.int64)
        labels = np.fromiter(state.unembedded, dtype=np.int64)
        if owners != [None]:
            labels = labels[np.isin(slots.owner[labels], np.asarray(owners))]
    if cats is not None and len(labels):
        labels = labels[np.isin(slots.cat[labels], np.asarray(cats))]
    return labels.astype(np.int64)


def _text_similarities(state: MemoryState, labels: np.ndarray,
                       texts: dict[str, str]) -> tuple[np.ndarray, np.ndarray]:
    query_tokens = {lane: token_set(texts.get(lane)) for lane in LANES}
    sims = np.zeros((len(labels), len(LANES)), dtype=np.float64)
    present = np.zeros((len(labels), len(LANES)), dtype=bool)
    for row, label in enumerate(labels):
        record = state.records[str(state.slots.ids[int(label)])]
        tokens = state.tokens(record)
        for j, lane in enumerate(LANES):
            if lane in texts and record.lane_text(lane) is not None:
                present[row, j] = True
                sims[row, j] = text_similarity(query_tokens[lane], tokens[lane])
    return sims, present
