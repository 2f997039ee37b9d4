"""Context never hides: the situation of a search reorders and adds, it never removes.

The law, on both backends, for any memories and any query: every memory the query alone
returns above the threshold is still returned when a context and an intention are added
(its rank may change). With a limit, a query-alone result can only be pushed out by
``limit`` results that the situated ranking puts above it; the situated results are
never fewer. Bad situations (empty, blank, huge, not English) obey it as well, and never
fail the search.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from index import MAX_CONTEXT_BYTES, MAX_INTENTION_BYTES, MemorySettings

PROFILE = settings.get_profile("triform-index")
WORDS = ["tea", "coffee", "dinner", "restaurant", "sushi", "allergy", "peanut", "trip",
         "tokyo", "budget", "birthday", "gift", "tom", "dana", "dislikes", "likes",
         "東京", "café", "Überraschung", "ресторан", "🍣"]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
situation = st.one_of(st.none(), st.just(""), st.just("   "), text,
                      text.map(lambda t: (t + " ") * (MAX_CONTEXT_BYTES // len(t) + 2)),
                      st.just("寿司 " * (MAX_INTENTION_BYTES // 3)))
WEIGHTS = [{"content": 0.6, "context": 0.25, "intention": 0.15},
           {"content": 0.2, "context": 0.5, "intention": 0.3},
           {"content": 1.0, "context": 1.0, "intention": 1.0}]
_examples = itertools.count()


@settings(PROFILE, max_examples=30)
@given(memories=st.lists(st.tuples(text, st.one_of(st.none(), text),
                                   st.one_of(st.none(), text)), min_size=1, max_size=25),
       query=text, context=situation, intention=situation,
       threshold=st.sampled_from([0.0, 0.2, 0.3, 0.4, 0.5, 0.7]),
       weights=st.sampled_from(WEIGHTS), limit=st.integers(1, 30))
def test_the_situation_never_hides_what_the_query_alone_finds(
        make_store, tmp_path, memories, query, context, intention, threshold, weights,
        limit):
    settings_ = MemorySettings(relevance_threshold=threshold, association_weights=weights)
    store = make_store(directory=tmp_path / f"law{next(_examples)}")
    for content, stored_context, stored_intention in memories:
        store.store(content=content, category="fact", context=stored_context,
                    intention=stored_intention, settings=settings_)

    def ids(limit: int, **situation: str | None) -> list[str]:
        found = store.search(query=query, limit=limit, settings=settings_,
                             count_access=False, **situation)
        return [r["memory"]["id"] for r in found.results]

    everything = len(memories) + 1
    alone = ids(everything)
    situated = ids(everything, context=context, intention=intention)
    assert set(alone) <= set(situated)
    # With a limit: pushed out only by a full list the situation ranks higher.
    alone_top = ids(limit)
    situated_top = ids(limit, context=context, intention=intention)
    assert len(situated_top) >= len(alone_top)
    for memory_id in alone_top:
        assert memory_id in situated_top or len(situated_top) == limit
    assert situated_top == situated[:limit]
