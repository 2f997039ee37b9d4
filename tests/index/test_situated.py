"""Situated recall: a memory is found by the situation it was formed in (lexical.py).

The context a memory was stored with takes part when the query has no window of its own:
its words are in the BM25 index, a lighter field beside the content.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, IndexParams, MemorySettings
from index.lexical import CONTENT_WEIGHT, LexicalIndex
from index.recall import boost_time

PROFILE = settings.get_profile("triform-index")
EVERYTHING = MemorySettings(relevance_threshold=0.0)
WINDOW = "Melanie: did you finally sign up for the pottery class?"


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


@settings(PROFILE, max_examples=60)
@given(scores=st.lists(st.floats(0, 1), min_size=1, max_size=20),
       inside=st.lists(st.booleans(), min_size=20, max_size=20),
       weight=st.floats(0, 1))
def test_boost_time_stays_in_bounds_and_lifts_only_inside(scores, inside, weight):
    s = np.array(scores)
    occurred = np.where(np.array(inside[:len(s)]), 15.0, 25.0)
    out = boost_time(s, occurred, 10.0, 20.0, weight)
    assert np.all(out >= s - 1e-12) and np.all(out <= 1.0 + 1e-12)
    assert np.array_equal(out[occurred == 25.0], s[occurred == 25.0])


def test_context_words_count_but_less_than_content_words():
    index = LexicalIndex()
    index.add(0, "Caroline: yes, last Tuesday!", WINDOW)
    index.add(1, "Melanie: the pottery class is on Tuesday")
    index.add(2, "Jon: I moved to Lisbon")
    scores = index.scores("pottery class", 3)
    assert scores[0] > 0 and scores[1] > scores[0] and scores[2] == 0
    plain = LexicalIndex(situated=False)
    plain.add(0, "Caroline: yes, last Tuesday!", WINDOW)
    assert plain.scores("pottery class", 1)[0] == 0.0
    assert CONTENT_WEIGHT > 1


def test_an_index_saved_under_another_scheme_is_refused():
    plain = LexicalIndex(situated=False)
    plain.add(0, "tea", "coffee")
    arrays = plain.to_arrays()
    with pytest.raises(ValueError):
        LexicalIndex.from_arrays(arrays, situated=True)
    # Saved before schemes existed, or before an apostrophe's ending was folded into its
    # word ("Abe's" indexed "abe" and "s"): refused, so the store re-indexes its records.
    for stats, situated in ((arrays["stats"][:2], False), (np.array([1, 1, 1]), False),
                            (np.array([1, 1, 2]), True)):
        with pytest.raises(ValueError):
            LexicalIndex.from_arrays(dict(arrays, stats=stats), situated=situated)
    assert LexicalIndex.from_arrays(arrays, situated=False).scores("tea", 1)[0] > 0


def _short_turn_store(make_store, params: IndexParams):
    store = make_store(index_params=params, embedder=HashingEmbedder(256))
    answer = store.store(content="Caroline: yes, last Tuesday!", category="context",
                         context=WINDOW, settings=EVERYTHING).memory
    for text in ("Jon: the bakery opens at six", "Gina: my dog loves the beach",
                 "Jon: Tuesday was a long day"):
        store.store(content=text, category="context", settings=EVERYTHING)
    return store, answer


def test_a_short_turn_is_found_by_what_it_answered(make_store):
    store, answer = _short_turn_store(make_store, IndexParams())
    found = store.search(query="When did Caroline go to the pottery class?",
                         settings=EVERYTHING).results
    assert found[0]["memory"]["id"] == answer["id"]
    assert found[0]["score"] > found[1]["score"] + 0.2
    # A query without a window of its own leaves the context lane out.
    assert found[0]["lanes"]["context"] is None


def test_the_defaults_are_the_situated_lexical_index_and_the_time_boost():
    params = IndexParams()
    assert params.situated_lexical
    assert 0 < params.time_weight <= 1


def test_without_the_lever_only_its_own_words_count(make_store):
    # The name boost and the answers lever off too: the turn opens with the "Caroline"
    # the question names, and says a time ("last Tuesday") where the question asks when.
    store, answer = _short_turn_store(make_store, IndexParams(situated_lexical=False,
                                                              name_weight=0.0,
                                                              answer_weight=0.0))
    found = store.search(query="When did Caroline go to the pottery class?",
                         settings=EVERYTHING).results
    mine = next(r for r in found if r["memory"]["id"] == answer["id"])
    assert mine["lanes"]["context"] is None
    assert mine["score"] < found[-2]["score"] + 0.1     # "Caroline" alone: barely ahead


def test_a_query_with_its_own_window_compares_windows_as_before(make_store):
    store, answer = _short_turn_store(make_store, IndexParams())
    found = store.search(query="pottery", context=WINDOW, settings=EVERYTHING).results
    top = found[0]
    assert top["memory"]["id"] == answer["id"]
    assert top["lanes"]["context"] == pytest.approx(1.0, abs=1e-5)


def test_updating_the_context_reindexes_its_words(make_store):
    store, answer = _short_turn_store(make_store, IndexParams())
    store.update(answer["id"], context="Melanie: how was the violin lesson?",
                 settings=EVERYTHING)
    top = store.search(query="violin lesson", settings=EVERYTHING).results[0]
    assert top["memory"]["id"] == answer["id"]
    store.update(answer["id"], context="", settings=EVERYTHING)
    found = store.search(query="violin lesson", settings=EVERYTHING).results
    assert all(r["lanes"]["content"] < 0.5 for r in found if r["memory"]["id"] == answer["id"])


@pytest.mark.file_only("checkpoint files")
def test_an_older_checkpoint_is_reindexed_on_open(make_store, tmp_path):
    # The name boost and the answers lever off too: the turn opens with the "Caroline"
    # the question names, and says a time ("last Tuesday") where the question asks when.
    store, answer = _short_turn_store(make_store, IndexParams(situated_lexical=False,
                                                              name_weight=0.0,
                                                              answer_weight=0.0))
    store.close()
    again = make_store(index_params=IndexParams(), embedder=HashingEmbedder(256))
    assert again.open_report["sidecar"] == "loaded"
    found = again.search(query="pottery class", settings=EVERYTHING).results
    assert found[0]["memory"]["id"] == answer["id"]
