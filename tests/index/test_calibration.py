"""Calibrated scores (``recall.calibrate``): what a score reads as, never the order.

A search's scores are read against its background, what the query reaches on the newest
memories in scope: about ``CALIBRATION_LEVEL`` (.2) is "as close as an unrelated memory
of this store gets", 1 the same text. The map is increasing, so the ranking is the
formula's, exactly as without calibration; only the threshold's meaning changes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import IndexParams, MemorySettings, MemoryStore
from index.gathered import Gathered, Rows
from index.ranking import Ranking
from index.recall import (
    BACKGROUND_PRIOR,
    CALIBRATION_LEVEL,
    CALIBRATION_STEP,
    DEFAULT_WEIGHTS,
    background_named,
    background_of,
    calibrate,
    weight_vector,
)
from index.timespan import TimeSpan

PROFILE = settings.get_profile("triform-index")
unit = st.floats(0.0, 1.0)


@settings(PROFILE, max_examples=300)
@given(scores=st.lists(unit, min_size=1, max_size=30), centre=st.floats(0.0, 0.99),
       spread=st.floats(0.0, 0.5))
def test_calibration_keeps_the_order_the_ends_and_reads_the_background_as_the_level(
        scores, centre, spread):
    raw = np.array(scores)
    out = calibrate(raw, (centre, spread))
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(out[order]) >= 0.0)                 # increasing: the same order
    distinct = np.diff(raw[order]) > 1e-9
    assert np.all(np.diff(out[order])[distinct] > 0.0)        # strictly: no new ties
    assert np.all(out <= raw + 1e-12) and np.all(out >= 0.0)   # never above the raw score
    assert calibrate(np.array([1.0]), (centre, spread))[0] == pytest.approx(1.0)
    at_centre = calibrate(np.array([centre]), (centre, spread))[0]
    assert at_centre == pytest.approx(min(centre, CALIBRATION_LEVEL))


@settings(PROFILE, max_examples=200)
@given(score=st.floats(0.05, 0.95), centre=st.floats(0.0, 0.9),
       spread=st.floats(0.02, 0.3))
def test_a_score_reads_higher_the_narrower_the_background_it_stands_above(
        score, centre, spread):
    """The same score over the same centre stands more spreads above a narrow background
    than above a wide one, and reads higher (until the cap at its raw value)."""
    narrow, wide = (calibrate(np.array([score]), (centre, s))[0]
                    for s in (spread, 2 * spread))
    if score > centre + 1e-6:
        assert narrow >= wide - 1e-12
    else:
        assert narrow == pytest.approx(wide)


def test_a_score_a_spread_above_the_background_reads_the_step():
    for centre, spread in ((0.3, 0.1), (0.45, 0.05), (0.25, 0.15)):
        one = calibrate(np.array([centre + spread]), (centre, spread))[0]
        assert one == pytest.approx(CALIBRATION_STEP)
        assert calibrate(np.array([centre + 2 * spread]), (centre, spread))[0] > one
    # a spread wider than a quarter of the room above the centre: the straight line
    # from (centre, .2) to (1, 1), as if the spread were that quarter
    wide = calibrate(np.array([0.5, 0.75, 0.9]), (0.5, 0.3))
    np.testing.assert_allclose(wide, 0.2 + 0.8 * (np.array([0.5, 0.75, 0.9]) - 0.5) / 0.5)
    # under its raw value, which caps it: a low background reads scores about as they are
    assert calibrate(np.array([0.33]), (0.2, 0.13))[0] == pytest.approx(0.33)


def test_the_background_is_a_mean_and_spread_shrunk_toward_zero_for_a_small_sample():
    centre, spread = background_of(np.full(100, 0.5))
    assert centre == pytest.approx(0.5 * 100 / (100 + BACKGROUND_PRIOR))
    assert 0.0 < spread < 0.15                          # only the prior's zeros spread it
    assert background_of(np.zeros(0)) == (0.0, 0.0)
    assert background_of(np.array([0.9]))[0] < 0.9 / 2
    wide, narrow = background_of(np.linspace(0.0, 0.6, 128)), background_of(
        np.linspace(0.25, 0.35, 128))
    assert wide[0] == pytest.approx(narrow[0], abs=0.01) and wide[1] > 2 * narrow[1]


@settings(PROFILE, max_examples=200)
@given(scores=st.lists(unit, min_size=1, max_size=30),
       background=st.lists(unit, min_size=1, max_size=40), weight=st.floats(0.0, 0.9))
def test_a_sample_that_all_had_the_name_boost_reads_its_boosted_rows_as_without_it(
        scores, background, weight):
    """The name boost is one affine map, ``w + (1 - w) s``: applied to the rows and read
    against the background lifted the same way (``background_named``), a row stands as
    many spreads above it with as much room left, so a boosted row's calibrated score is
    its unboosted one (unless the cap at the raw score holds it, which the boost lifts)."""
    raw, sample = np.array(scores), np.array(background)
    plain = calibrate(raw, background_of(sample))
    boosted = calibrate(weight + (1 - weight) * raw,
                        background_named(background_of(sample), weight))
    # (above the centre: below it the map runs to (0, 0), which the boost moves)
    free = (plain < raw - 1e-9) & (raw >= background_of(sample)[0])
    np.testing.assert_allclose(boosted[free], plain[free], rtol=1e-6, atol=1e-9)


@settings(PROFILE, max_examples=200)
@given(n=st.integers(1, 60), seed=st.integers(0, 10_000),
       situated=st.booleans())
def test_calibration_never_changes_the_ranking(n, seed, situated):
    """The same rows, ranked with and without calibration, at threshold 0 and no limit:
    the same memories in the same order (the sheet's formula is the ordering)."""
    rng = np.random.default_rng(seed)
    present = rng.random((n, 3)) < 0.8
    present[:, 0] = True
    if not situated:
        present[:, 1:] = False
    rows = Rows(np.array([f"m{i:03d}" for i in range(n)]),
                rng.permutation(n).astype(np.int64),
                rng.choice([100.0, 200.0], n), rng.random((n, 3)), present,
                rng.choice([0.0, 2.0, 6.0], n))
    gathered = Gathered(rows, Rows.empty(), 6.0, None, rows)

    def ranked(calibrated: bool) -> tuple[list[str], list[float]]:
        ranking = Ranking(IndexParams(calibrate=calibrated), weight_vector(DEFAULT_WEIGHTS),
                          0.0, n + 1, TimeSpan(150.0, 250.0, ("then",)))
        found = ranking.rank(gathered)
        return found.keys, found.scores

    keys, scores = ranked(True)
    raw_keys, raw_scores = ranked(False)
    assert keys == raw_keys
    assert all(s <= r + 1e-12 for s, r in zip(scores, raw_scores, strict=True))


@pytest.mark.parametrize("calibrated", [True, False])
def test_memories_that_only_name_the_person_fall_under_the_default_threshold(
        tmp_path: Path, model_cache: Path, calibrated: bool) -> None:
    """Issue 29: with MiniLM, memories that merely name the person a question names score
    like an answer does. Calibrated, the default threshold keeps the answer and drops
    most of them; raw, it drops almost none (the test says so, to show the difference)."""
    from index import FastEmbedEmbedder, provision_model
    others = ["works as an accountant at the city bank", "lives in Berlin with his sister",
              "plays the guitar on weekends", "has a birthday in March", "drives a blue car",
              "studied history at university", "has two cats named Mia and Leo",
              "runs every morning before work", "is learning Spanish",
              "moved house last year", "likes science fiction films",
              "volunteers at the library", "prefers trains to planes", "wears glasses",
              "called his mother on Sunday", "is saving for a boat",
              "has a daughter who starts school in September", "loves the colour green"]
    settings_ = MemorySettings()                          # threshold .4, the default
    with MemoryStore(tmp_path / "mem", FastEmbedEmbedder(provision_model(model_cache)),
                     index_params=IndexParams(calibrate=calibrated)) as store:
        for text in others:
            store.store(content=f"Tom {text}", category="fact", settings=settings_)
        answer = store.store(content="Tom hates mushrooms and never orders them",
                             category="preference", settings=settings_).memory["id"]
        found = store.search(query="what does Tom dislike eating?", settings=settings_,
                             limit=30, count_access=False).results
    assert found[0]["memory"]["id"] == answer
    if calibrated:
        assert len(found) <= 5
    else:
        assert len(found) >= 10


# -- the background sample: what the search could return, the named subject's own first --

# The query and the memories share only stopwords: close vectors (the hashing embedder
# counts every word) and no BM25 (which drops them), so nothing but the background moves
# a score between the stores compared.
_QUERY = "what did he do when they were there?"
_TOM = [f"what did he do when they were there: {word}" for word in
        ("chess", "tea", "books", "dog", "pasta", "aunt", "boats", "radios", "lake",
         "choir", "bees", "stamps")]


def _fill(store, items: list[dict]) -> list[str]:
    ids: list[str] = []
    for start in range(0, len(items), 64):
        ids += [r.memory["id"] for r in store.store_many(
            items[start:start + 64], settings=MemorySettings(max_memories=10_000))]
    return ids


def _scores(store, *, subject: bool, categories: list[str] | None = None
            ) -> dict[str, float]:
    found = store.search(query=_QUERY, categories=categories, settings=MemorySettings(
        relevance_threshold=0.0, subject_scoping=subject), limit=50,
        subject_type="guest" if subject else None, subject_id="tom" if subject else None,
        count_access=False).results
    return {r["memory"]["content"]: r["score"] for r in found
            if r["memory"]["content"] in _TOM}


def _unrelated(n: int) -> list[dict]:
    return [{"content": f"rain fell on harbour {i} at dawn", "category": "fact"}
            for i in range(n)]


def test_the_background_of_a_search_that_names_a_subject_is_the_subjects_own(
        make_store, tmp_path: Path) -> None:
    """In a store where other memories were stored after a subject's, a search naming the
    subject reads its scores against the subject's own memories, as it would in a store
    of that subject alone, however many general memories came after (before: read
    against the newest general memories, unrelated to the query, its memories kept their
    raw scores, as if each stood out)."""
    toms = [{"content": text, "category": "fact", "subject_type": "guest",
             "subject_id": "tom"} for text in _TOM]
    alone = make_store(directory=tmp_path / "alone")
    _fill(alone, toms)
    crowded = make_store(directory=tmp_path / "crowded")
    _fill(crowded, toms + _unrelated(200))
    expected, found = _scores(alone, subject=True), _scores(crowded, subject=True)
    assert set(found) == set(_TOM)
    for text in _TOM:
        assert found[text] == pytest.approx(expected[text], abs=0.03)
    # read against them: under their raw scores (against the newest general memories,
    # unrelated to the query, each would keep its raw score, as if it stood out)
    raw = make_store(directory=tmp_path / "raw", index_params=IndexParams(calibrate=False))
    _fill(raw, toms)
    raw_scores = _scores(raw, subject=True)
    assert sum(found.values()) < sum(raw_scores.values()) - 0.05 * len(_TOM)
    # A filter leaves the background as it is (PostgreSQL reads it by its own statement).
    assert _scores(crowded, subject=True, categories=["fact"]) == pytest.approx(found)


def test_superseded_and_retired_memories_are_not_in_the_background(
        make_store, tmp_path: Path) -> None:
    """Memories no longer current are out of recall, and out of what its scores are read
    against: a store whose newest memories were all retired scores the current ones as a
    store that never had them does."""
    toms = [{"content": text, "category": "fact"} for text in _TOM]
    plain = make_store(directory=tmp_path / "plain")
    _fill(plain, toms)
    kept = make_store(directory=tmp_path / "kept")
    _fill(kept, toms)
    for memory_id in _fill(kept, _unrelated(140)):
        kept.retire(memory_id, reason="no longer true")
    expected, found = _scores(plain, subject=False), _scores(kept, subject=False)
    assert set(found) == set(_TOM)
    for text in _TOM:
        assert found[text] == pytest.approx(expected[text], abs=0.03)


def test_words_every_memory_shares_with_the_query_do_not_lift_them_above_the_threshold(
        make_store, tmp_path: Path) -> None:
    """A search about Tom among many other memories: Tom's name is rare in the store, so
    every memory of Tom shares a strong word with the question. The background is scored
    as the rows are, shared words included, so at a threshold of .3 the answer (and the
    memories stored next to it) stays and the memories that merely name Tom go (before:
    the background was read on cosines alone, and the name lifted all 28 above it)."""
    hobbies = ["chess", "stamps", "boats", "radios", "bees", "choir", "pasta", "kites",
               "maps", "clocks", "shells", "coins", "knots", "puzzles", "candles",
               "violins", "lamps", "ferns", "trains", "quilts", "masks", "drums",
               "bonsai", "origami", "pottery", "fossils", "comics", "gliders"]
    toms = [{"content": f"Tom collects {word}", "category": "fact", "subject_type": "guest",
             "subject_id": "tom"} for word in hobbies]
    answer = {"content": "Tom likes to drink green tea", "category": "preference",
              "subject_type": "guest", "subject_id": "tom"}
    store = make_store()
    _fill(store, _unrelated(300) + toms + [answer])
    found = store.search(query="what does Tom like to drink?", settings=MemorySettings(
        subject_scoping=True, relevance_threshold=0.3), subject_type="guest",
        subject_id="tom", limit=50,
        count_access=False).results
    assert found and found[0]["memory"]["content"] == answer["content"]
    # Beyond it, only its neighbours: the three memories stored nearest before it
    # (``IndexParams.neighbour_far_weight`` pulls the second and third too).
    neighbours = {item["content"] for item in toms[-3:]}
    assert {r["memory"]["content"] for r in found[1:]} <= neighbours


def test_a_small_pools_background_is_the_one_the_label_walk_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of few memories has its background read from the pool (``search._newest``),
    not by walking every label down from the newest: the same labels in the same order,
    whatever was deleted (labels reused) or retired, for each validity."""
    from index import HashingEmbedder
    from index import search
    from index.validity import CURRENT, EVERYTHING, Validity

    store = MemoryStore(tmp_path / "mem", HashingEmbedder(64), clock=lambda: 1.7e9)
    rng = np.random.default_rng(5)
    settings = MemorySettings(max_memories=10_000)
    subjects = [("guest", f"s{i}") for i in range(6)]
    ids = []
    for i in range(400):
        who = subjects[int(rng.integers(0, 7)) - 1] if rng.random() < 0.6 else None
        item = {"content": f"memory {i} about {rng.integers(0, 50)}", "category": "fact",
                **({"subject_type": who[0], "subject_id": who[1]} if who else {})}
        ids.append(store.store_many([item], settings=settings)[0].memory["id"])
        if rng.random() < 0.1:
            store.delete(ids.pop(int(rng.integers(0, len(ids)))))
        if rng.random() < 0.05:
            store.retire(ids.pop(int(rng.integers(0, len(ids)))), reason="no longer true")
    state = store._state
    codes = [state.slots.subject_code(s, create=False) for s in subjects]
    for owners in ([codes[0]], [codes[1], codes[2]], [0], [0, codes[3]]):
        for valid in (CURRENT, EVERYTHING, Validity(as_of=1.7e9)):
            for count in (1, 5, 128):
                read = search._newest(state, owners, count, valid)
                monkeypatch.setattr(search, "_POOL_READ_MAX", -1)
                walked = search._newest(state, owners, count, valid)
                monkeypatch.undo()
                assert read.dtype == walked.dtype and read.tolist() == walked.tolist()
    store.close()
