"""Pure recall scoring: lane weights, lane drop-out, blending, text fallback, ranking.

The blended score of one memory for one search is::

    score = sum(w[l] * sim[l] for l in present) / sum(w[l] for l in present)

over the three lanes ``content``, ``context`` and ``intention``. ``sim[l]`` is the cosine
similarity between the query side (the query text, the current conversation window, the
current goal) and the memory side (content, stored context, stored intention), clamped to
``[0, 1]``: a negative cosine means "unrelated", never "worse than unrelated", so that
``relevance_threshold = 0`` returns everything.

A lane is *present* for a memory when both sides have text (and, for vector scoring, both
sides have a vector). An absent lane drops out and the weights of the present lanes are
renormalized, so a memory stored without context is not penalised for it, and a search
given no conversation window is scored on content and intention alone. When every present
lane has weight 0 the memory scores 0.

Text fallback (when vectors are unavailable): the same blend, with ``sim`` the cosine of
the two texts' binary bags of words, ``|A & B| / sqrt(|A| * |B|)`` over lowercased ``\\w+``
tokens. It is the set analogue of the vector cosine: 1 for the same words, 0 for none
shared, so the same threshold keeps a comparable meaning.

**Calibration** (``calibrate``): a raw cosine says little by itself: one model's unrelated
texts sit near .2, another's near .45, and memories that all name the person a query names
reach .75 against it. So a search's scores are read against its *background*: the blended
similarities (the content lane boosted by shared words as a result's is, each lane
clamped to ``[0, 1]``, blended over the lanes present, no time boost) that the query
reaches on a sample of the memories it could return (``background_of``: the
``BACKGROUND_SIZE`` newest current ones of the subject it names, else of its scope,
unrelated to the query in all but a few), their centre (mean) and spread (standard
deviation). The centre reads ``CALIBRATION_LEVEL`` (.2), a similarity one spread above it
``CALIBRATION_STEP`` (.4), an identical text 1, linearly in between, and no score rises
above its raw value (a low background leaves the scores about as they are). The map is
increasing, so the order is the sheet's formula's, untouched: only what a score reads as
changes. About .2 or less is "as close as an unrelated memory of this store gets", .4
"a spread above that", and on the LoCoMo dev split the default threshold .4 keeps 89% of
the evidence turns and 13% of the other turns of the same conversation
(``docs/recall.md``, Scores).

Nothing here does I/O; everything takes and returns plain data or numpy arrays.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["LANES", "DEFAULT_WEIGHTS", "SCORE_EPSILON", "normalize_weights",
           "weight_vector", "blend", "token_set", "text_similarity", "rank",
           "LEXICAL_WEIGHT", "LEXICAL_FLOOR", "boost_content", "boost_answers",
           "boost_time", "boost_neighbours", "boost_named", "CALIBRATION_LEVEL", "CALIBRATION_STEP",
           "BACKGROUND_SIZE", "BACKGROUND_PRIOR", "background_of", "background_named",
           "calibrate", "unit", "without_name"]

LANES: tuple[str, ...] = ("content", "context", "intention")

# Content carries most of the weight: it is what the memory says, it is always present,
# and the query is usually a restatement of it. Context (the conversation window) is the
# next best cue but a window is long and shares much everyday vocabulary with unrelated
# windows, so it is a weaker, noisier signal. Intention is a short goal phrase: precise
# when it matches, but sparse. With drop-out, a memory that has content only is scored
# on content alone whatever the weights.
DEFAULT_WEIGHTS: Mapping[str, float] = {"content": 0.6, "context": 0.25, "intention": 0.15}

# The lexical boost of the content lane (``boost_content``). 0.7 and 4.0 were chosen on the
# LoCoMo dev split (bench/locomo_bench.py) among 0.5/0.7/0.9 and 0/4/10; recall@5 moved by
# under .01 across them, so they are not fragile.
LEXICAL_WEIGHT = 0.7
LEXICAL_FLOOR = 4.0

# Calibration (``calibrate``): the score a similarity at the background's centre gets, and
# the score one a spread above it gets. The background is the mean and standard deviation
# of the blended similarities over the ``BACKGROUND_SIZE`` newest memories in scope, read
# as if ``BACKGROUND_PRIOR`` more memories had similarity 0 (a store of a few memories,
# where a relevant one weighs in the mean, reads its scores nearly raw; 16 left a store of
# twenty memories that all name one person nearly raw). The centre: a mean rather than a
# quartile (.75: 84% of evidence kept at .4) or a median (it spreads near-duplicates'
# scores and cost the updates bench, ``docs/recall.md``), the level .2 of a simple reading.
# The step: one spread reads .4, the default threshold, so that the threshold keeps what
# stands a spread above what unrelated memories reach, whatever the model's spread
# (``docs/recall.md``, Scores, fourth round).
CALIBRATION_LEVEL = 0.2
CALIBRATION_STEP = 0.4
BACKGROUND_SIZE = 128
BACKGROUND_PRIOR = 4

# Float32 cosine of a text with itself can come out as 0.99999994; a threshold of 1 must
# still mean "exact match", so comparisons allow this much slack.
SCORE_EPSILON = 1e-5


def normalize_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """Scale lane weights to sum to 1; a lane missing from ``weights`` gets 0.

    :raise ValueError: a weight is negative, not finite, or every weight is 0.
    """
    values = {lane: float(weights.get(lane, 0.0)) for lane in LANES}
    for lane, value in values.items():
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"weight of {lane!r} must be a finite number >= 0")
    total = sum(values.values())
    if total <= 0:
        raise ValueError("at least one weight must be greater than 0")
    return {lane: value / total for lane, value in values.items()}


def weight_vector(weights: Mapping[str, float]) -> np.ndarray:
    """The weights as a float64 array in :data:`LANES` order."""
    return np.array([float(weights.get(lane, 0.0)) for lane in LANES], dtype=np.float64)


def boost_content(cosine: np.ndarray, bm25: np.ndarray, best: float) -> np.ndarray:
    """The content lane's similarity: the cosine, pulled toward 1 by shared words.

    ``sim = cos + LEXICAL_WEIGHT * (1 - cos) * lex``, with ``lex = bm25 / max(best,
    LEXICAL_FLOOR)`` in ``[0, 1]``, ``best`` the highest BM25 in the search's scope. It stays
    in ``[cos, 1]``: a memory that shares no word with the query keeps its cosine, and
    the one sharing the rarest words gains most. The floor keeps a lone weak match (one
    common word) from counting as a full lexical match.
    """
    # ``ndarray.clip`` is ``np.clip``'s ufunc without its two Python layers (a search
    # clamps some twenty-five times: issue 29).
    cosine = np.asarray(cosine, dtype=np.float64).clip(0.0, 1.0)
    lex = (np.asarray(bm25, dtype=np.float64) / max(best, LEXICAL_FLOOR)).clip(0.0, 1.0)
    out: np.ndarray = cosine + LEXICAL_WEIGHT * (1.0 - cosine) * lex
    return out


def boost_answers(similarity: np.ndarray, says: np.ndarray, weight: float) -> np.ndarray:
    """The content lane's similarity of the memories that say what the query asks for
    (``asks.py``: a time, for a query that asks when), pulled toward 1.

    ``sim + weight * (1 - sim)`` where ``says``, unchanged elsewhere. It lifts the
    content lane, as shared words do (``boost_content``), so the calibration's background,
    scored the same way, rises with it where the sample says times too. It reorders and
    never filters, stays in ``[0, 1]`` and keeps the order within each side.
    """
    similarity = np.asarray(similarity, dtype=np.float64)
    return np.where(np.asarray(says, dtype=bool), similarity + weight * (1.0 - similarity),
                    similarity)


def boost_time(scores: np.ndarray, occurred: np.ndarray, start: float, end: float,
               weight: float) -> np.ndarray:
    """Scores pulled toward 1 for memories that occurred in ``[start, end)``.

    ``score + weight * (1 - score)`` inside the span, unchanged outside: a time the query
    names favours what happened then, without hiding what matches better otherwise. With
    ``weight`` in ``[0, 1]`` it stays in ``[0, 1]`` and keeps the order within each side.
    """
    scores = np.asarray(scores, dtype=np.float64)
    occurred = np.asarray(occurred, dtype=np.float64)
    inside = (occurred >= start) & (occurred < end)
    return np.where(inside, scores + weight * (1.0 - scores), scores)


def boost_named(scores: np.ndarray, named: np.ndarray, weight: float) -> np.ndarray:
    """Scores pulled toward 1 for memories about a name the query names.

    ``score + weight * (1 - score)`` where ``named``, unchanged elsewhere (``names.py``
    says which memories are about a name). Like the time boost it reorders
    rather than filters, stays in ``[0, 1]`` and keeps the order within each side.
    """
    scores = np.asarray(scores, dtype=np.float64)
    return np.where(np.asarray(named, dtype=bool), scores + weight * (1.0 - scores), scores)


def boost_neighbours(scores: np.ndarray, hits: np.ndarray, neighbours: np.ndarray,
                     weight: float | np.ndarray) -> np.ndarray:
    """Scores of memories stored next to a strong hit, pulled toward the hit's score.

    For each pair ``(hits[i], neighbours[i])`` (row indices into ``scores``) the neighbour
    gets ``s_n + weight * (s_h - s_n)`` when the hit scores higher (``weight``: one for
    every pair, or one per pair); a neighbour of several hits keeps the largest. The
    turns around an answer in one conversation often hold the rest of it (the question it
    answered, the detail that follows), and a short turn says too little to be found on
    its own. With ``weight`` in ``[0, 1]`` a neighbour never
    passes its hit, and scores stay in ``[0, 1]``; rows in no pair are unchanged.
    """
    out = np.array(scores, dtype=np.float64, copy=True)
    if len(hits) == 0 or np.all(np.asarray(weight) <= 0):
        return out
    source = out[hits]
    target = out[neighbours]
    pulled = target + weight * np.maximum(source - target, 0.0)
    np.maximum.at(out, neighbours, pulled)
    return out


def unit(values: np.ndarray | Sequence[float]) -> np.ndarray:
    """``values`` as float64 clamped to ``[0, 1]``, NaN read as 0 (what
    ``np.clip(np.nan_to_num(values), 0, 1)`` gives, in two ufunc calls instead of some
    fifteen: a search blends its rows several times)."""
    out: np.ndarray = np.fmin(np.fmax(np.asarray(values, dtype=np.float64), 0.0), 1.0)
    return out


def without_name(cosine: np.ndarray, with_name: np.ndarray, name: float) -> np.ndarray:
    """Content cosines with the direction of the query's name taken out of both sides.

    ``cosine`` is each memory's cosine with the query, ``with_name`` its cosine with the
    vector of the name the query names (alone), ``name`` the query's own cosine with that
    vector. With ``a = name`` and ``b = with_name``, each becomes the cosine of the two
    residuals once the name's unit vector ``n`` is projected out of query and memory::

        (cos - a b) / (sqrt(1 - a^2) sqrt(1 - b^2))

    (the partial correlation given the name). A small model's vector of "What did
    Caroline research?" lies close to every memory that says "Caroline", whatever it
    says: what is left is how close the memory is to what was asked. A memory that is
    the query's own text keeps 1; one that says only the name gets 0. Normalising the
    memory's side keeps a short memory, where the name weighs most ("Maria works as a
    paramedic"), from losing more than a long one that says the name once.
    """
    cos = np.asarray(cosine, dtype=np.float64)
    b = np.asarray(with_name, dtype=np.float64).clip(-1.0, 1.0)
    a = min(max(float(name), -1.0), 1.0)
    rest = np.sqrt(max(1.0 - a * a, _RESIDUAL_MIN)) * np.sqrt(np.maximum(1.0 - b * b,
                                                                          _RESIDUAL_MIN))
    out: np.ndarray = ((cos - a * b) / rest).clip(-1.0, 1.0)
    return out


# The squared length under which a residual counts as nothing left (``without_name``):
# a memory or query that is all name.
_RESIDUAL_MIN = 1e-6


def background_of(scores: np.ndarray) -> tuple[float, float]:
    """The background of a search: the centre and spread of the background rows' blended
    similarities ``scores``, read as if ``BACKGROUND_PRIOR`` more rows scored 0 (the mean
    and standard deviation of the sample and the prior's zeros; ``(0, 0)`` for no rows)."""
    values = unit(scores)
    count = len(values) + BACKGROUND_PRIOR
    centre = float(values.sum() / count)
    deviations = float(((values - centre) ** 2).sum()) + BACKGROUND_PRIOR * centre * centre
    return centre, math.sqrt(deviations / count)


def background_named(background: tuple[float, float], weight: float) -> tuple[float, float]:
    """The ``background`` of a sample whose memories all had the name boost
    (``boost_named``): the boost maps a score ``s`` to ``weight + (1 - weight) s``, so it
    moves the centre so and scales the spread by ``1 - weight``."""
    centre, spread = background
    return weight + (1.0 - weight) * centre, (1.0 - weight) * spread


def calibrate(scores: np.ndarray, background: tuple[float, float]) -> np.ndarray:
    """Scores read against the search's ``background`` (``background_of``): by where they
    stand against what unrelated memories reach, in the background's own spread.

    With ``c`` and ``d`` the background's centre and spread, ``A = CALIBRATION_LEVEL``
    and ``B = CALIBRATION_STEP``, the map is linear between the points ``(0, 0)``,
    ``(c, A)``, ``(c + e, B)`` and ``(1, 1)``, and no score rises above its raw value::

        score = min(s, interpolated)        e = min(d, (1 - c) (B - A) / (1 - A))

    So what unrelated memories typically reach scores ``A``, a similarity one spread
    above them ``B``, whatever the model and however wide it spreads its similarities
    (a narrow background needs a smaller lead to stand out than a wide one); an
    identical text scores 1. A spread wider than a quarter of the room above the centre
    (``e``'s bound) reads as the straight line from ``(c, A)`` to ``(1, 1)``: the spread
    only ever brings the step nearer the centre, never farther than that line puts it.
    A background under ``A`` (unrelated memories already score low) leaves the scores
    about as they are: noise is never stretched up. Continuous and strictly increasing
    in ``s``: the order never changes.
    """
    values = unit(scores)
    centre, spread = background
    centre = min(max(float(centre), _CENTRE_MIN), 1.0 - _CENTRE_MIN)
    reach = (1.0 - centre) * (CALIBRATION_STEP - CALIBRATION_LEVEL) / (1.0 - CALIBRATION_LEVEL)
    step = centre + min(max(float(spread), _SPREAD_MIN), reach)
    if step >= 1.0:                      # a centre at 1: nothing left to read
        return values
    reading = np.interp(values, (0.0, centre, step, 1.0),
                        (0.0, CALIBRATION_LEVEL, CALIBRATION_STEP, 1.0))
    out: np.ndarray = np.minimum(values, reading)
    return out


# The narrowest background spread a calibration reads (a sample of identical scores, or
# none, has none), and how close to 0 or 1 its centre may sit (the map's points must
# stay apart).
_SPREAD_MIN = 0.01
_CENTRE_MIN = 1e-6


def blend(sims: np.ndarray, present: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Blend per-lane similarities into one score per row.

    :param sims: ``(n, 3)`` similarities in :data:`LANES` order (values where ``present``
        is False are ignored).
    :param present: ``(n, 3)`` bool, whether the lane takes part for that row.
    :param weights: ``(3,)`` non-negative lane weights.
    :return: ``(n,)`` float64 scores in ``[0, 1]``; a row whose present lanes all weigh 0
        scores 0.
    """
    sims = unit(sims)
    effective = np.where(present, weights[None, :], 0.0)
    total = effective.sum(axis=1)
    weighted = (effective * sims).sum(axis=1)
    out = np.zeros(len(total), dtype=np.float64)
    np.divide(weighted, total, out=out, where=total > 0)
    return out


_WORD = re.compile(r"\w+")


def token_set(text: str | None) -> frozenset[str]:
    """The lowercased ``\\w+`` tokens of ``text`` (empty for None)."""
    if not text:
        return frozenset()
    return frozenset(_WORD.findall(text.lower()))


def text_similarity(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine of two binary bags of words: ``|a & b| / sqrt(|a| * |b|)``, 0 if either is empty."""
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


def rank(scores: Sequence[float] | np.ndarray, threshold: float, limit: int,
         tiebreak: Sequence[int] | np.ndarray | None = None,
         gate: Sequence[float] | np.ndarray | None = None) -> list[int]:
    """Indices of the best ``limit`` scores that reach ``threshold``, best first.

    Equal scores keep a stable order: by ``tiebreak`` descending (newer first, when it is
    a creation sequence), else by index. With ``gate``, a row is kept when its gate value
    reaches ``threshold`` (rather than its score), and still ranked by its score.
    """
    values = np.asarray(scores, dtype=np.float64)
    passes = values if gate is None else np.asarray(gate, dtype=np.float64)
    keep = (passes >= threshold - SCORE_EPSILON).nonzero()[0]
    if len(keep) == 0:
        return []
    if tiebreak is None:
        order = np.lexsort((keep, -values[keep]))
    else:
        tb = np.asarray(tiebreak, dtype=np.int64)[keep]
        order = np.lexsort((-tb, -values[keep]))
    return [int(i) for i in keep[order[:limit]]]
