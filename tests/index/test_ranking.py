"""The one ranking (ranking.py): what a backend gathers, in whatever order, ranks the same.

The file store gathers its candidates in label order, PostgreSQL in id order; both hand
them to ``Ranking.rank``. So the results, the neighbour hits among them, must not depend
on the order of the rows, ties included (equal scores rank newer first).
"""

from __future__ import annotations

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from index.params import IndexParams
from index.gathered import Gathered, Ranked, Rows, window_plan, WINDOW_EXACT_MAX
from index.ranking import Ranking
from index.recall import weight_vector, DEFAULT_WEIGHTS
from index.timespan import TimeSpan

PROFILE = settings.get_profile("triform-index")


def _rows(keys: np.ndarray, seq: np.ndarray, occurred: np.ndarray, sims: np.ndarray,
          present: np.ndarray, bm25: np.ndarray | None) -> Rows:
    return Rows(keys, seq, occurred, sims, present, bm25)


def _universe(n: int, seed: int) -> dict[str, np.ndarray]:
    """``n`` memories with coarse similarities (so scores tie) and creation order."""
    rng = np.random.default_rng(seed)
    return {"keys": np.array([f"m{i:03d}" for i in range(n)]),
            "seq": rng.permutation(10 * n)[:n].astype(np.int64),
            "occurred": rng.choice([100.0, 200.0, 300.0], n),
            "sims": rng.choice([0.0, 0.2, 0.5], (n, 3)),
            "present": rng.random((n, 3)) < 0.8,
            "bm25": rng.choice([0.0, 0.0, 4.0], n)}


def _gathered(u: dict[str, np.ndarray], chosen: np.ndarray, text: np.ndarray) -> Gathered:
    pick = {name: column[chosen] for name, column in u.items()}
    vector = _rows(pick["keys"], pick["seq"], pick["occurred"], pick["sims"],
                   pick["present"], pick["bm25"])
    texts = _rows(u["keys"][text], u["seq"][text], u["occurred"][text], u["sims"][text],
                  u["present"][text], None)
    by_key = {key: i for i, key in enumerate(u["keys"].tolist())}

    def neighbours(hits: np.ndarray, known: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, Rows]:
        # The memory stored next (key order) to each hit, as a backend would find it.
        pairs = [(hit, u["keys"][by_key[hit] + 1]) for hit in hits.tolist()
                 if by_key[hit] + 1 < len(u["keys"])]
        seen = set(known.tolist())
        new = sorted({by_key[n] for _, n in pairs if n not in seen})
        rows = _rows(u["keys"][new], u["seq"][new], u["occurred"][new], u["sims"][new],
                     u["present"][new], u["bm25"][new])
        return (np.array([h for h, _ in pairs], dtype=str),
                np.array([n for _, n in pairs], dtype=str), np.ones(len(pairs), dtype=int),
                rows)
    # The calibration's background: every memory of the universe with a content vector.
    has = u["present"][:, 0]
    background = _rows(u["keys"][has], u["seq"][has], u["occurred"][has], u["sims"][has],
                       u["present"][has], u["bm25"][has])
    return Gathered(vector, texts, float(u["bm25"].max()), neighbours, background)


@settings(PROFILE, max_examples=400)
@given(n=st.integers(2, 60), seed=st.integers(0, 10_000), shuffle=st.integers(0, 10_000),
       limit=st.integers(1, 20), threshold=st.sampled_from([0.0, 0.3, 0.6]))
def test_the_order_rows_are_gathered_in_never_changes_the_results(n, seed, shuffle, limit,
                                                                   threshold):
    u = _universe(n, seed)
    chosen = np.arange(0, n, 2)
    text = np.arange(1, n, 4)
    ranking = Ranking(IndexParams(), weight_vector(DEFAULT_WEIGHTS), threshold, limit,
                      TimeSpan(150.0, 250.0, ("then",)))
    first = ranking.rank(_gathered(u, chosen, text))
    again = ranking.rank(_gathered(u, np.random.default_rng(shuffle).permutation(chosen),
                                   np.random.default_rng(shuffle + 1).permutation(text)))
    assert (again.keys, again.scores, again.lanes, again.fallback) == \
        (first.keys, first.scores, first.lanes, first.fallback)
    assert first.scores == sorted(first.scores, reverse=True)
    # The threshold's law, with the neighbour pull on: a result under the threshold is
    # there because the query alone scores it at or above the threshold. Either the
    # query-alone search of the same rows returns it (its content lane, boosts and the pull
    # of the query alone's own hits), or it is a row only the situated search has (a
    # neighbour of a situated hit) whose own query-alone score, unpulled, reaches the
    # threshold: a search of the query alone that gathers that row alone returns it.
    alone = dataclasses.replace(ranking, limit=n + 1).rank(
        _gathered(_query_alone(u), chosen, text))
    gathered = set(u["keys"][chosen].tolist()) | set(u["keys"][text].tolist())
    for key, score in zip(first.keys, first.scores, strict=True):
        if score >= threshold - 1e-5 or key in alone.keys:
            continue
        assert key not in gathered, key
        assert key in _alone_by_itself(u, ranking, key).keys, key


def _alone_by_itself(u: dict[str, np.ndarray], ranking: Ranking, key: str) -> Ranked:
    """The query-alone search of a universe's one memory ``key``, no neighbour pull: the
    memory at its own query-alone score (the same background and best BM25)."""
    row = np.flatnonzero(u["keys"] == key)
    plain = dataclasses.replace(ranking, params=IndexParams(neighbour_weight=0.0),
                                limit=len(u["keys"]) + 1)
    return plain.rank(_gathered(_query_alone(u), row, np.arange(0)))


def _query_alone(u: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The same memories as a search of the query alone sees them (no situation lanes)."""
    return {**u, "present": u["present"] & np.array([[True, False, False]])}


@settings(PROFILE, max_examples=300)
@given(n=st.integers(1, 60), seed=st.integers(0, 10_000), limit=st.integers(1, 70),
       threshold=st.sampled_from([0.0, 0.2, 0.4, 0.6]), calibrate=st.booleans())
def test_the_situation_reorders_and_adds_but_never_hides(n, seed, limit, threshold,
                                                         calibrate):
    """The law at the ranking: what the query alone returns stays among the situated
    results, unless ``depth`` results the situation ranks higher fill the list; and the
    situated results are never fewer."""
    u = _universe(n, seed)
    chosen, text = np.arange(0, n, 2), np.arange(1, n, 4)
    ranking = Ranking(IndexParams(calibrate=calibrate), weight_vector(DEFAULT_WEIGHTS),
                      threshold, limit, TimeSpan(150.0, 250.0, ("then",)))
    situated = ranking.rank(_gathered(u, chosen, text))
    alone = ranking.rank(_gathered(_query_alone(u), chosen, text))
    assert len(situated.keys) >= len(alone.keys)
    for key in alone.keys:
        # The ranking chooses ``depth`` rows (the limit, at least 16; each backend cuts at
        # the limit after the newer-first order).
        assert key in situated.keys or len(situated.keys) == ranking.depth


def test_a_query_without_vectors_is_ranked_by_text_and_says_so():
    u = _universe(6, 1)
    gathered = _gathered(u, np.arange(0), np.arange(6))
    ranked = Ranking(IndexParams(), weight_vector(DEFAULT_WEIGHTS), 0.0, 10).rank(
        Gathered(None, gathered.text))
    assert ranked.fallback == "text" and len(ranked.keys) == 6


def test_a_narrow_window_is_scored_whole():
    assert window_plan(found=200, window=WINDOW_EXACT_MAX, limit=10) == "window"
    assert window_plan(found=3, window=WINDOW_EXACT_MAX + 1, limit=10) == "add"
    assert window_plan(found=30, window=WINDOW_EXACT_MAX + 1, limit=10) == "found"
