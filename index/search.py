"""Search over the in-memory state: the file store's half of a search, gathering.

No I/O and no locking: :class:`~index.store.MemoryStore` holds its lock around
:func:`gather` and the ranking (``ranking.py``, the same for every backend), then logs the
access line for what it returns. This module finds, by the rules ``ranking.py`` states:

* **scope** (:func:`owners_in_scope`): scoping off, one pool of everyone; on, the general
  pool plus the given subject's (general only when no subject is given, or the subject
  has no memories);
* **vector candidates**: each query lane's top candidates per pool (``lanes.py``), plus the
  best BM25 matches of the query in scope (``lexical.py``), with their exact cosines on
  the stored vectors of all three lanes and their BM25;
* **time**: ``occurred`` bounds (``occurred_after``/``occurred_before``, exclusive) narrow
  the scope to memories that occurred between them: candidates outside are dropped, and
  when the window holds few memories (or too few candidates survive) every memory in it
  is scored exactly (``ranking.window_plan``). A span the query's own words name adds its
  memories to the candidates when they are few (``Ranking.span``);
* **text fallback**: memories in scope that have no vectors are scored by text, and when
  the query itself could not be embedded every memory in scope is;
* **neighbours** of the best hits (:func:`_adjacent`), looked up by label;
* **the second hop**: the memories that say the top hit's rarest words (:func:`_hop`).

On a search's path, arrays' own methods (``x.nonzero()[0]``, ``x.argsort()``) stand for
numpy's functions of the same results (``np.flatnonzero``, ``np.argsort``): each function
adds a microsecond or two of Python layers a call, after the model has evicted the caches
more (issue 29).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .gathered import (
    EVERYONE,
    NEIGHBOUR_SCAN,
    SPAN_CANDIDATES_MAX,
    WINDOW_EXACT_MAX,
    Gathered,
    HopFinder,
    Rows,
    pools_in_scope,
    text_rows,
    window_plan,
)
from .hop import pick as pick_words, rare_words
from .lend import LEND_MAX, Lenders
from .query import Bounds, SearchQuery
from .ranking import Ranking
from .recall import LANES
from .records import MemoryRecord
from .slots import FREE, GENERAL
from .state import MemoryState
from .validity import CURRENT, EVERYTHING, Validity

__all__ = ["owners_in_scope", "gather"]

#: Owners holding at most this many memories between them have their background read
#: from their pools (``_newest``).
_POOL_READ_MAX = 512

# No rows scored by text (the common case: every memory in scope has vectors); never
# changed by the ranking.
_NO_TEXT = Rows.empty()


def owners_in_scope(state: MemoryState, subject: tuple[str, str] | None,
                    scoping: bool) -> list[int | None]:
    """The owner codes of ``ranking.pools_in_scope``: ``[None]`` (everyone) with scoping
    off; a subject without memories has no pool."""
    owners: list[int | None] = []
    for pool in pools_in_scope(subject, scoping):
        if pool == EVERYONE:
            owners.append(None)
        elif pool is None:
            owners.append(GENERAL)
        else:
            assert isinstance(pool, tuple)
            code = state.slots.subject_code(pool, create=False)
            if code != FREE:
                owners.append(code)
    return owners


def gather(state: MemoryState, request: SearchQuery, queries: dict[str, np.ndarray] | None,
           scoping: bool, ranking: Ranking) -> Gathered:
    """The candidates of one search, scored for ``ranking.rank``; their keys are labels.

    :param queries: one unit vector per query lane, or None when embedding failed.
    """
    owners = owners_in_scope(state, request.subject, scoping)
    cats, occurred, valid = request.cats, request.occurred, request.valid
    bounded = occurred != (None, None)
    slots = state.slots
    vector: Rows | None = None
    background: Rows | None = None
    lenders: Lenders | None = None
    best = 0.0
    if queries is not None:
        # Each lane's walk per pool (``LaneSet.candidates`` without its ``np.unique``: the
        # union below sorts and dedups them with BM25's).
        walks = [state.lanes[lane].search(vector, ranking.lane_candidates(lane, len(queries)),
                                          owner, cats, valid)
                 for lane, vector in queries.items() for owner in owners]
        bm25, lexical, unfiltered = _lexical(state, request.texts["content"], owners, cats,
                                             ranking.lexical_candidates(), occurred, valid)
        labels = _union(slots.high_water, *walks, lexical)
        # The walks kept to the categories and the validity asked; every other filter
        # applies here.
        labels = _kept(state, labels, None, occurred, valid)
        if bounded:
            window = _vector_pool(state, owners, cats, occurred, WINDOW_EXACT_MAX + 1,
                                  valid)
            plan = window_plan(len(labels), len(window), ranking.depth)
            if plan == "window":
                labels = window
            elif plan == "add":
                labels = np.union1d(labels, _vector_pool(state, owners, cats, occurred,
                                                         None, valid))
        span = ranking.span(occurred)
        if span is not None:
            pool = _vector_pool(state, owners, cats, span, SPAN_CANDIDATES_MAX + 1, valid)
            if len(pool) <= SPAN_CANDIDATES_MAX:
                labels = np.union1d(labels, pool)
        labels = labels.astype(np.int64)
        best = float(bm25.max()) if bm25.size else 0.0
        vector = _vector_rows(state, labels, queries, bm25, ranking)
        if not valid.everything and slots.ended and ranking.params.lend_superseded:
            lenders = _lenders(state, _lending(state, owners, request.subject), cats,
                               occurred, queries, bm25, unfiltered, ranking, valid)
        if ranking.background_size:
            background = _vector_rows(state, _background(state, owners,
                                                         ranking.background_size, valid),
                                      queries, unfiltered, ranking)
    text_labels = _kept(state, _text_pool(state, owners, everything=queries is None), cats,
                        occurred, valid)
    text = _NO_TEXT
    if len(text_labels):
        records = [state.records[str(slots.ids[int(label)])] for label in text_labels]
        tokens = [[state.tokens(r)[lane] if r.lane_text(lane) is not None else None
                   for lane in LANES] for r in records]
        text = text_rows(text_labels, slots.seq[text_labels], slots.occurred[text_labels],
                         tokens, request.texts)
    finder = None
    if queries is not None:
        found = queries

        def finder(hits: np.ndarray, known: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Rows]:
            hit, wanted, steps = _adjacent(state, hits, cats, occurred,
                                           ranking.params.neighbour_gap, valid,
                                           ranking.params.neighbour_reach)
            # The neighbours not scored yet, sorted and distinct (``np.unique``'s), by a
            # mask over the labels.
            fresh = np.zeros(slots.high_water, dtype=bool)
            fresh[wanted] = True
            fresh[known] = False
            new = fresh.nonzero()[0]
            if not len(new):
                return hit, wanted, steps, Rows.empty()
            return hit, wanted, steps, _vector_rows(state, new, found, bm25, ranking)
    hop = None
    if queries is not None and ranking.hops:
        hop = _hop(state, request, owners, queries, bm25, ranking)
    return Gathered(vector, text, best, finder, background, lenders, hop)


def _hop(state: MemoryState, request: SearchQuery, owners: list[int | None],
         queries: dict[str, np.ndarray], bm25: np.ndarray, ranking: Ranking) -> HopFinder:
    """``ranking.HopFinder``: the top hit's rarest words (``hop.hop_words``; its rare
    band kept per memory between writes), their postings kept to the search's scope and
    filters (as ``_lexical`` keeps the query's), scored as the other rows."""
    def find(top: int) -> tuple[Rows, np.ndarray] | None:
        record = state.records.get(str(state.slots.ids[int(top)]))
        lexical = state.lexical
        words = [] if record is None else pick_words(lexical.between_writes(
            int(top), lambda: rare_words(lexical.indexed(record.content, record.context),
                                         lexical.frequency, len(lexical))),
            request.texts["content"])
        if not words:               # no rare word: nothing to look up or score
            return None
        labels, extra = state.lexical.matches(words)
        has = state.lanes["content"].has
        if len(labels) and labels[-1] >= len(has):     # ascending: past the lane's rows
            inside = labels < len(has)
            labels, extra = labels[inside], extra[inside]
        keep = has[labels]
        if not _unfiltered(state, request.cats, request.occurred, request.valid):
            keep &= _passes(state, labels, request.cats, request.occurred, request.valid)
        if owners != [None]:
            keep &= _member(state.slots.owner[labels], owners)
        if not keep.any():
            return None
        return _vector_rows(state, labels[keep], queries, bm25, ranking), extra[keep]
    return find


def _lending(state: MemoryState, owners: list[int | None],
             subject: tuple[str, str] | None) -> list[int | None]:
    """The owners whose superseded memories lend: a search that names a subject, that
    subject's alone (with scoping off, another person's old facts would lift their new
    ones into a search about this one); else every owner in scope."""
    if subject is None:
        return owners
    code = state.slots.subject_code(subject, create=False)
    return [code] if code != FREE else []


def _lenders(state: MemoryState, owners: list[int | None], cats: list[int] | None,
             occurred: Bounds, queries: dict[str, np.ndarray], bm25: np.ndarray,
             unfiltered: np.ndarray, ranking: Ranking,
             valid: Validity = CURRENT) -> Lenders | None:
    """The versions in scope that lend to their heirs (``lend.py``): of the ``LEND_MAX``
    newest superseded memories with a content vector that pass the search's categories
    and occurred bounds, each one's ``superseded_by`` chain; its heir is the version the
    search reads (``valid``: current, the chain's end; ``as_of``, the one that held then),
    of the same owner, that passes every filter of the search; every other version of
    the chain with a content vector lends to it (current: those before it; as of a time,
    those after it too) (None: none)."""
    if not owners:
        return None
    slots, records, labels = state.slots, state.records, state.labels
    ended = state.ended_labels.newest(
        owners, lambda found: lendable(state, found, owners, cats, occurred), LEND_MAX,
        slots.seq)
    pairs: dict[tuple[int, int], None] = {}
    for label in ended.tolist():
        record = records[str(slots.ids[label])]
        chain = [record]
        for _ in range(len(records)):
            if chain[-1].superseded_by is None:
                break
            following = records.get(chain[-1].superseded_by)
            if following is None:
                break
            chain.append(following)
        heir: MemoryRecord | None = chain[-1]
        if valid == CURRENT:
            lending = [record]
            if heir is record or chain[-1].superseded_by is not None:
                continue
        else:
            heir = next((r for r in chain if valid.holds_record(r)), None)
            lending = [r for r in chain if r is not heir]
        if heir is None or heir.id not in labels:
            continue
        heir_label = labels[heir.id]
        for version in lending:
            lender = labels.get(version.id)
            if lender is not None and slots.owner[heir_label] == slots.owner[lender]:
                pairs[(lender, heir_label)] = None
    if not pairs:
        return None
    lenders = np.asarray([lender for lender, _ in pairs], dtype=np.int64)
    found = np.asarray([heir for _, heir in pairs], dtype=np.int64)
    if valid != CURRENT:
        # A later version, current or not, lends as the ended ones do: with a content
        # vector, within the search's categories and occurred bounds.
        keep = np.isin(lenders, lendable(state, lenders, owners, cats, occurred))
        lenders, found = lenders[keep], found[keep]
    kept = np.unique(_kept(state, found, cats, occurred, valid))
    kept = kept[state.lanes["content"].has[kept]]
    keep = np.isin(found, kept)
    if not keep.any():
        return None
    return Lenders(_vector_rows(state, lenders[keep], queries, unfiltered, ranking),
                   found[keep], _vector_rows(state, kept, queries, bm25, ranking))


def lendable(state: MemoryState, found: np.ndarray, owners: list[int | None],
             cats: list[int] | None, occurred: Bounds) -> np.ndarray:
    """Those of ``found`` (memories no longer current) that may lend in a search of
    ``owners``: with a content vector, in scope, within its categories and occurred
    bounds (``EndedLabels.newest`` keeps the newest of them)."""
    slots, has = state.slots, state.lanes["content"].has
    found = found[found < min(slots.high_water, len(has))]
    found = found[has[found] & (_member(slots.owner[found], owners) if owners != [None]
                                else slots.owner[found] != FREE)]
    kept: np.ndarray = found[_passes(state, found, cats, occurred, EVERYTHING)]
    return kept


def _vector_rows(state: MemoryState, labels: np.ndarray, queries: dict[str, np.ndarray],
                 bm25: np.ndarray, ranking: Ranking) -> Rows:
    """Exact per-lane cosines of ``labels``, their BM25, whether each opens with one of
    the names the query names (``SlotTable.opens_named``: the opening name column),
    whether its content is the query's text (``Ranking.exact``) and its content's cosine
    with the query's name (``Ranking.name``, off the rows the content lane's cosine
    gathered), and whether it says what the query asks for, a time or a name
    (``Ranking.asks``)."""
    sims, present, name_sim = state.lanes.similarities(labels, queries, ranking.name)
    named = same = answers = None
    ids, records = state.slots.ids, state.records
    if ranking.names:
        named = state.slots.opens_named(labels, ranking.names,
                                        lambda label: records[str(ids[label])].content)
    if ranking.asks:
        says = state.slots.says_time if ranking.asks == "time" else state.slots.says_name
        answers = says(labels, lambda label: records[str(ids[label])].content)
    if ranking.exact is not None:
        same = np.array([records[str(ids[label])].content == ranking.exact
                         for label in labels.tolist()], dtype=bool)
    if ranking.name is not None and name_sim is None:     # the query had no content lane
        name_sim = np.zeros(len(labels), dtype=np.float64)
    return Rows(labels, state.slots.seq[labels], state.slots.occurred[labels], sims,
                present, bm25[labels] if bm25.size else np.zeros(len(labels)), named, same,
                name_sim, answers)


def _background(state: MemoryState, owners: list[int | None], count: int,
                valid: Validity) -> np.ndarray:
    """The calibration's background (``gathered.Gathered.background``): the ``count``
    newest memories in scope that the search could return (``valid``, whatever its other
    filters) with a content vector; for a search that names a subject, the subject's own
    (the general pool's when it has none; ``gathered.Gathered`` says why).
    """
    if len(owners) > 1:
        mine = _newest(state, owners[1:], count, valid)
        if len(mine):
            return mine
    return _newest(state, owners[:1], count, valid)


def _newest(state: MemoryState, owners: list[int | None], count: int,
            valid: Validity) -> np.ndarray:
    """The ``count`` newest memories of ``owners`` with a content vector that pass
    ``valid``.

    Labels are handed out in creation order, so they are read down from the high-water
    mark in growing blocks; a memory behind a reused label counts where its label sits.
    Owners that hold few memories (a subject's few, fewer than ``count`` often) are read
    from their pools instead, in the same order: the blocks would walk every label.
    """
    slots = state.slots
    has = state.lanes["content"].has
    if owners and owners != [None] \
            and sum(slots.pool_size(o) for o in owners) <= _POOL_READ_MAX:
        pool = np.concatenate([slots.pool_labels(o) for o in owners])
        pool = -np.sort(-pool[pool < min(slots.high_water, len(has))])
        pool = pool[has[pool]]
        newest: np.ndarray = pool[_passes(state, pool, None, (None, None), valid)][:count]
        return newest.astype(np.int64)
    found: list[np.ndarray] = []
    total = 0
    high = min(slots.high_water, len(has))
    block = 4 * count
    while high > 0 and total < count:
        low = max(0, high - block)
        owner = slots.owner[low:high]
        keep = has[low:high] & (owner != FREE if owners == [None] else
                                _member(owner, owners))
        labels = np.flatnonzero(keep)[::-1] + low
        labels = labels[_passes(state, labels, None, (None, None), valid)]
        found.append(labels)
        total += len(labels)
        high, block = low, 2 * block
    return (np.concatenate(found)[:count] if found else np.zeros(0)).astype(np.int64)


def _adjacent(state: MemoryState, hits: np.ndarray, cats: list[int] | None,
              occurred: Bounds, gap: float, valid: Validity = CURRENT,
              reach: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ``reach`` memories stored nearest before and after each hit label by the same
    owner that occurred within ``gap`` seconds of it (and pass the search's filters), with
    a content vector. Returns ``(hit labels, neighbour labels, steps)``, one triple per
    neighbour found, ``steps`` 1 for the nearest on its side, 2 for the next."""
    slots = state.slots
    hw = slots.high_water
    has = state.lanes["content"].has
    near = hits[:, None] + np.arange(-NEIGHBOUR_SCAN, NEIGHBOUR_SCAN + 1)[None, :]
    keep = (near >= 0) & (near < min(hw, len(has)))
    near = np.where(keep, near, hits[:, None])          # out of range: the hit itself
    keep &= slots.owner[near] == slots.owner[hits][:, None]
    keep &= np.abs(slots.occurred[near] - slots.occurred[hits][:, None]) <= gap
    keep &= has[near]
    if not _unfiltered(state, cats, occurred, valid):
        keep &= _passes(state, near.ravel(), cats, occurred, valid).reshape(near.shape)
    # Each candidate's distance in creation order (before: the hit's seq minus its own;
    # after: its own minus the hit's), the others pushed past every real one: the
    # ``reach`` smallest of a side are its neighbours, nearest first. Both sides in one
    # array (the hits' before-rows, then their after-rows), so one sort and one pick
    # serve both, in the order the two sides' results are listed (issue 29: half the
    # numpy calls).
    distance = slots.seq[near] - slots.seq[hits][:, None]
    far = np.iinfo(np.int64).max
    sides = np.concatenate([np.where(keep & (distance < 0), -distance, far),
                            np.where(keep & (distance > 0), distance, far)])
    rows = np.arange(len(sides))[:, None]
    at = sides.argsort(axis=1, kind="stable")[:, :reach]
    found = sides[rows, at] < far
    step = np.broadcast_to(np.arange(1, at.shape[1] + 1), at.shape)
    twice = np.concatenate([hits, hits])
    return (np.broadcast_to(twice[:, None], at.shape)[found].astype(np.int64),
            np.concatenate([near, near])[rows, at][found].astype(np.int64),
            step[found].astype(np.int64))


def _unfiltered(state: MemoryState, cats: list[int] | None, occurred: Bounds,
                valid: Validity) -> bool:
    """Whether :func:`_passes` lets every label through (a new filter is a condition
    here too)."""
    return cats is None and occurred == (None, None) and valid.holds_all(state.slots.ended)


def _kept(state: MemoryState, labels: np.ndarray, cats: list[int] | None,
          occurred: Bounds, valid: Validity = CURRENT) -> np.ndarray:
    """Those of ``labels`` that pass the search's filters (:func:`_passes`); the labels
    themselves when there is no filter."""
    if _unfiltered(state, cats, occurred, valid):
        return labels
    kept: np.ndarray = labels[_passes(state, labels, cats, occurred, valid)]
    return kept


def _passes(state: MemoryState, labels: np.ndarray, cats: list[int] | None,
            occurred: Bounds, valid: Validity = CURRENT) -> np.ndarray:
    """Mask of ``labels`` that pass the search's filters: its categories, occurred
    strictly between the bounds, and valid as asked (current; current at ``as_of``;
    or everything). The file store's one filter of a search (the
    counterpart of ``postgres/rows.filters``), applied to every candidate it adds, to
    neighbours and to the text fallback; the lane walks also filter categories inside
    hnswlib, for speed."""
    slots = state.slots
    keep = np.ones(len(labels), dtype=bool)
    if cats is not None:
        keep &= np.isin(slots.cat[labels], np.asarray(cats, dtype=np.int8))
    after, before = occurred
    if after is not None:
        keep &= slots.occurred[labels] > after
    if before is not None:
        keep &= slots.occurred[labels] < before
    if not valid.holds_all(slots.ended):
        keep &= valid.mask(slots.valid_from[labels], slots.until[labels])
    return keep


def _vector_pool(state: MemoryState, owners: list[int | None], cats: list[int] | None,
                 occurred: Bounds, cap: int | None,
                 valid: Validity = CURRENT) -> np.ndarray:
    """Labels in scope with a content vector that occurred within the bounds.

    Stops counting past ``cap`` (returns more than ``cap`` labels then, not all of them):
    callers only need to know the pool is too large to score whole.
    """
    slots = state.slots
    hw = slots.high_water
    has = state.lanes["content"].has
    keep = _passes(state, np.arange(hw), cats, occurred, valid)
    keep &= has[:hw] if len(has) >= hw else np.pad(has, (0, hw - len(has)))
    if owners != [None]:
        keep &= _member(slots.owner[:hw], owners)
    else:
        keep &= slots.owner[:hw] != FREE
    labels = np.flatnonzero(keep)
    return labels if cap is None else labels[:cap]


def _union(size: int, *labels: np.ndarray) -> np.ndarray:
    """``np.union1d`` of label arrays (each below ``size``): the sorted distinct labels, by
    a mask over the labels rather than ``unique``'s layers of Python (issue 29)."""
    seen = np.zeros(size, dtype=bool)
    for part in labels:
        seen[part] = True
    return seen.nonzero()[0]


def _member(values: np.ndarray, wanted: Sequence[int | None]) -> np.ndarray:
    """``np.isin(values, wanted)`` for the one or two owners of a search, without the sort
    ``isin`` pays (a tenth of a millisecond per call over a query's BM25 matches)."""
    out = np.zeros(len(values), dtype=bool)
    for value in wanted:
        out |= values == value
    return out


def _lexical(state: MemoryState, query: str, owners: list[int | None],
             cats: list[int] | None, want: int,
             occurred: Bounds = (None, None),
             valid: Validity = CURRENT) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """BM25 of the query for every label in scope with a content vector (0 elsewhere),
    the best ``want`` matches (memories without vectors are scored by text), and BM25 of
    every label before any filter (the calibration's background ignores them)."""
    slots = state.slots
    size = slots.high_water
    unfiltered = state.lexical.scores(query, size)
    bm25 = unfiltered.copy()
    matched = bm25.nonzero()[0]
    # Scope checks on the matches only, not on every label: at 100k memories a query
    # matches a few thousand at most (a mask over every label costs more there).
    has = state.lanes["content"].has
    if len(has) < size:     # labels past the lane's arrays have no vector yet
        has = np.pad(has, (0, size - len(has)))
    keep = has[matched]
    if owners != [None]:
        keep &= _member(slots.owner[matched], owners)
    if not _unfiltered(state, cats, occurred, valid):
        keep &= _passes(state, matched, cats, occurred, valid)
    bm25[matched[~keep]] = 0.0
    matched = matched[keep]
    if len(matched) > want:
        matched = matched[(-bm25[matched]).argpartition(want - 1)[:want]]
    return bm25, matched.astype(np.int64), unfiltered


def _text_pool(state: MemoryState, owners: list[int | None], *,
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
    return labels.astype(np.int64)
