"""IndexParams: how a search gathers candidates and ranks them, one set for every backend.

The file store's hnswlib fields (``M``, ``ef_construction``, ``seed``, ``build_threads``,
``exact_below``) are used by ``lanes.py`` alone; pgvector keeps its own defaults (16 and
64) and ``postgres/search.py`` reads the walk and candidate fields. The recall levers
(``situated_lexical``, ``time_weight``, ``neighbour_*``) are read by ``ranking.py`` and
by each backend's gathering, so a lever is set here once for both.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IndexParams", "NEIGHBOUR_REACH"]

# How many memories on each side of a hit are its neighbours while the far ones are
# pulled (``IndexParams.neighbour_far_weight``): the nearest and the two after it.
NEIGHBOUR_REACH = 3


@dataclass(frozen=True)
class IndexParams:
    """Tuning of the vector indexes and of candidate generation.

    ``oversample`` and ``min_candidates``: each lane returns ``max(limit * oversample,
    min_candidates)`` candidates per owner pool (``content_factor`` times that for the
    content lane); their union is rescored exactly on all lanes, so a memory that is only
    moderately close on each lane is still found. ``ef`` of a walk is
    ``max(ef_search_min, ef_factor * k)``. ``exact_below``: the planner's threshold (None:
    adaptive, see ``lanes.py``). Defaults were chosen on real all-MiniLM-L6-v2
    vectors (``docs/memory-runtime.md``).

    Recall levers (``docs/recall.md`` measures each, alone and together):
    ``situated_lexical`` indexes a memory's context beside its content in BM25
    (``lexical.py``; changing it re-indexes the contents on open); ``time_weight`` is the
    boost of memories that occurred in the span the query names (``recall.boost_time``;
    0 turns it off). ``calibrate`` reads a search's scores against what the query reaches
    on the newest memories of its subject or scope (``recall.calibrate``, an increasing
    map: the same order; off: the scores as before 2026-12-04, for the benches).
    ``neighbour_weight`` pulls the memories stored next to one of the ``neighbour_hits``
    best results (same owner, adjacent in creation order, occurred within
    ``neighbour_gap`` seconds of it: the turns around a hit of one conversation) toward
    that hit's score (``recall.boost_neighbours``; 0 turns it off; on LoCoMo .5 lifts
    R@10 by .008 per conversation and .011 in the mixed store, for ~0.2 ms).
    ``neighbour_far_weight`` pulls the memories two and three places away on each side
    (``NEIGHBOUR_REACH``, the same rule) toward the hit by that share of the gap: a turn
    that finishes an answer is often one more turn away (0 turns it off, and only the
    nearest is looked for).
    ``name_weight`` boosts the memories about a name the query names: that open with it
    or say it otherwise than as an address (``names.named_in``, ``recall.boost_named``;
    0 turns it off). ``name_projection`` (``p``) embeds the first name a query names
    alone (in the same model call; a name recurs, so most often it comes from the
    embedding cache) and reads the content cosine as ``(1 - p) cos + p cos'``, ``cos'``
    the cosine with that name's direction taken out of query and memory
    (``recall.without_name``); 0 turns it off. Both at full strength (.6 and 1, since
    2026-12-04) on LoCoMo: R@5 / R@10 .712 / .796 -> .727 / .807 per conversation (every
    conversation up on both), .708 / .791 -> .717 / .799 in the mixed store; on the
    updates bench's read sets, beside the answers-first lever, 1 newer-first and 3 as-of
    cases of 242 lost (with the boost reading only a memory's opening name they cost 1 to
    3 update cases on each set; ``docs/recall.md``, Names, fifth round).
    ``query_without_names`` embeds a query that names someone a second time without its
    first name and searches with the mean of the two vectors (``names.without_names``:
    one more text through the model, in the same call); off by default: it adds .014 R@5
    on LoCoMo but puts the newer fact first in 3 fewer of 73 updates
    (``bench/updates_bench.py``), for +2 ms of model time (``docs/recall.md``, Names).
    ``answer_weight`` lifts, for a query that asks when (``asks.asks_time``: "When did
    John get his dog?"), the memories that say a time (``asks.says_time``: "ten years
    ago", "last Friday") by pulling their content similarity toward 1
    (``recall.boost_answers``; 0 turns it off). On LoCoMo .3 lifts R@1 / R@10 by .007 /
    .004 per conversation (temporal questions .593 / .874 -> .625 / .894;
    ``docs/recall.md``, Answers). The same weight lifts, for a query that asks for a
    thing by a noun (``asks.asks_name``: "What books has Melanie read?"), the memories
    that say a name (``asks.says_name``: "... called Xenoblade"), in the places after
    the fifth only (``ranking.Ranking._late``; ``docs/recall.md``, eleventh round).
    ``lend_superseded``: in a default (current) search, a superseded memory in scope
    lends its score to the current memory that superseded it, of the same subject
    (``lend.py``; off: superseded memories play no part, as before 2026-12-04).
    ``hop_places``: after the 7th result, this many places go to the lexical second hop,
    the memories that say the top hit's rarest words fused with the first ranking
    (``hop.py``; 0 turns it off; ``docs/recall.md``, eighth round).
    BM25 joins the vectors by pulling the content cosine up (``recall.boost_content``).
    """

    M: int = 16
    ef_construction: int = 200
    ef_search_min: int = 64
    ef_factor: float = 1.0
    oversample: int = 4
    min_candidates: int = 64
    content_factor: int = 3
    exact_below: int | None = None
    seed: int = 100
    build_threads: int = -1
    situated_lexical: bool = True
    calibrate: bool = True
    time_weight: float = 0.4
    neighbour_weight: float = 0.5
    neighbour_hits: int = 5
    neighbour_gap: float = 3600.0
    neighbour_far_weight: float = 0.3
    name_weight: float = 0.6
    query_without_names: bool = False
    name_projection: float = 1.0
    answer_weight: float = 0.3
    lend_superseded: bool = True
    hop_places: int = 3

    @property
    def neighbour_reach(self) -> int:
        """How many neighbours a hit has on each side: ``NEIGHBOUR_REACH`` while the far
        ones are pulled, else the nearest alone."""
        return NEIGHBOUR_REACH if self.neighbour_far_weight > 0 else 1

    def candidates_for(self, limit: int, lane: str = "context", lanes: int = 3) -> int:
        """How many candidates a lane contributes per owner pool for a search of ``limit``
        that gives ``lanes`` query lanes.

        The content lane gets ``content_factor`` times more when the query gives other
        lanes too: it is always present and weighs most, so blended winners are most often
        found through it. A query of the content lane alone ranks by that lane (and BM25,
        whose best matches are candidates too), so its top ``limit`` is among the lane's
        nearest: the walk needs no more (at 10k memories the top 10 was the exhaustive one
        for all 600 queries of ``bench/search_http_bench.py``, scoped and not, for 40%
        less search time).
        """
        base = max(limit * self.oversample, self.min_candidates)
        return base * self.content_factor if lane == "content" and lanes > 1 else base
