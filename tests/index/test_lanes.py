"""Vector lanes: hnswlib vs exact search, in-index filters, slot reuse, persistence."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.embed import HashingEmbedder
from index.lanes import Lane, LaneSet
from index.params import IndexParams
from index.ranking import Ranking
from index.slots import GENERAL, SlotTable
from index.validity import CURRENT, Validity

HNSW_ONLY = IndexParams(exact_below=0)   # force the hnswlib path of the planner


def sentences(n: int, seed: int = 7) -> list[str]:
    """Generated sentences with structure: topics share vocabulary, sentences vary."""
    rng = random.Random(seed)
    topics = [[f"t{t}w{i}" for i in range(30)] for t in range(40)]
    common = [f"c{i}" for i in range(200)]
    out = []
    for _ in range(n):
        topic = rng.choice(topics)
        words = rng.sample(topic, 4) + rng.sample(common, rng.randint(2, 6))
        rng.shuffle(words)
        out.append(" ".join(words))
    return out


def build_lane(vectors: np.ndarray, owners: list[int], params: IndexParams,
               deferred: bool = False) -> Lane:
    slots = SlotTable()
    for code in set(owners):
        if code != GENERAL:
            slots.subject_codes[("guest", str(code))] = code
            slots.owner_labels[code] = set()
    lane = Lane("content", vectors.shape[1], slots, params)
    lane.deferred = deferred
    for i, owner in enumerate(owners):
        label = slots.allocate(f"id{i}", owner=owner, category="fact", seq=i, created=0.0,
                               access=0)
        lane.put(label, vectors[i])
    lane.sync()
    return lane


@pytest.fixture(scope="module")
def corpus():
    embedder = HashingEmbedder(128)
    data = embedder.embed(sentences(4000))
    queries = embedder.embed(sentences(200, seed=99))
    return data, queries


def recall_at_10(lane: Lane, data: np.ndarray, queries: np.ndarray,
                 owner=None, allowed=None) -> float:
    hits = total = 0
    for q in queries:
        exact = data @ q
        if allowed is not None:
            exact = np.where(allowed, exact, -np.inf)
        tenth = np.sort(exact)[-10]
        got = lane.search(q, 10, owner, None)
        # Ties at the 10th place are common with bag-of-words vectors: any row at least
        # as similar as the exact 10th best is a correct answer.
        hits += int(np.sum(exact[got] >= tenth - 1e-6))
        total += 10
    return hits / total


def test_hnsw_recall_against_exact_search(corpus):
    data, queries = corpus
    lane = build_lane(data, [GENERAL] * len(data), HNSW_ONLY)
    assert recall_at_10(lane, data, queries) >= 0.98


def test_batch_build_recall_matches_incremental(corpus):
    data, queries = corpus
    lane = build_lane(data, [GENERAL] * len(data), HNSW_ONLY, deferred=True)
    assert lane.all.index.get_current_count() == len(data) == lane.general.size
    assert recall_at_10(lane, data, queries) >= 0.98


def test_filtered_recall_inside_the_index(corpus):
    data, queries = corpus
    owners = [GENERAL if i % 3 == 0 else 1 + i % 7 for i in range(len(data))]
    lane = build_lane(data, owners, HNSW_ONLY)
    allowed = np.array(owners) == 2
    assert recall_at_10(lane, data, queries, owner=2, allowed=allowed) >= 0.98
    # The general pool is walked in its own graph, without a filter.
    general = np.array(owners) == GENERAL
    assert lane.general.size == int(general.sum())
    assert recall_at_10(lane, data, queries, owner=GENERAL, allowed=general) >= 0.98


def test_a_rare_subject_is_found_by_the_filtered_walk(corpus):
    data, _ = corpus
    owners = [GENERAL] * len(data)
    rare = [17, 1800, 3999]
    for i in rare:
        owners[i] = 5
    lane = build_lane(data, owners, HNSW_ONLY)
    query = data[1800] + 0.01
    # The filter runs inside hnswlib's walk: asking for 3 gives exactly the 3 allowed rows.
    labels, _ = lane.all.index.knn_query(query, k=3, num_threads=1,
                                         filter=lane._filter(5, None))
    assert sorted(labels[0].tolist()) == rare
    assert sorted(lane.search(query, 10, 5, None).tolist()) == rare
    # The adaptive planner answers the same with an exact scan of the 3 rows.
    lane.params = IndexParams()
    assert sorted(lane.search(query, 10, 5, None).tolist()) == rare
    assert lane.search(query, 10, 6, None).tolist() == []


def test_category_filter_inside_the_index(corpus):
    data, _ = corpus
    slots = SlotTable()
    lane = Lane("content", data.shape[1], slots, HNSW_ONLY)
    for i in range(1000):
        label = slots.allocate(f"id{i}", owner=GENERAL,
                               category="correction" if i % 50 == 0 else "fact",
                               seq=i, created=0.0, access=0)
        lane.put(label, data[i])
    got = lane.search(data[0], 40, None, [4])
    assert sorted(got.tolist()) == list(range(0, 1000, 50))
    assert lane.allowed_count(None, [4]) == 20 and lane.allowed_count(GENERAL, [0]) == 980


def test_freed_slots_are_reused_without_growing_the_graph(corpus):
    data, _ = corpus
    lane = build_lane(data[:300], [GENERAL] * 300, HNSW_ONLY)
    slots = lane.slots
    for label in range(100):
        lane.drop(label)
        slots.release(label)
    assert lane.size == 200
    assert lane.search(data[5], 5, None, None).tolist().count(5) == 0
    for i in range(100):
        label = slots.allocate(f"new{i}", owner=GENERAL, category="fact", seq=1000 + i,
                               created=0.0, access=0)
        assert label < 100
        lane.put(label, data[1000 + i])
    assert lane.all.index.get_current_count() == 300 == lane.general.index.get_current_count()
    top = lane.search(data[1050], 1, None, None)
    assert np.allclose(lane.vectors[top[0]], data[1050])


def test_scrub_overwrites_the_vector_inside_hnswlib(tmp_path, corpus):
    data, _ = corpus
    lane = build_lane(data[:50], [GENERAL] * 50, HNSW_ONLY)
    secret = data[7].astype(np.float32).tobytes()
    lane.drop(7)
    lane.all.save(tmp_path / "plain.hnsw")
    assert secret in (tmp_path / "plain.hnsw").read_bytes()   # mark_deleted keeps it
    lane.drop(8)
    lane.slots.release(8)
    lane.drop(9, scrub=True)
    lane.drop(7, scrub=True)   # already deleted: revived, zeroed, deleted again
    for graph in (lane.all, lane.general):
        graph.save(tmp_path / "scrubbed.hnsw")
        saved = (tmp_path / "scrubbed.hnsw").read_bytes()
        assert secret not in saved and data[9].astype(np.float32).tobytes() not in saved
    assert 7 not in lane.search(data[7], 10, None, None).tolist()


def test_save_and_load_round_trip(tmp_path, corpus):
    data, queries = corpus
    owners = [GENERAL if i % 2 else 3 for i in range(2000)]
    lane = build_lane(data[:2000], owners, HNSW_ONLY)
    lane.drop(10)
    files = (tmp_path / "c.hnsw", tmp_path / "c.general.hnsw", tmp_path / "c.npy",
             tmp_path / "c.flags.npy")
    lane.save(*files)
    again = Lane("content", data.shape[1], lane.slots, HNSW_ONLY)
    again.load(*files)
    assert again.size == lane.size and again.oc_count == lane.oc_count
    assert again.general.size == lane.general.size == 1000
    assert again.owner_sets == {k: v for k, v in lane.owner_sets.items() if v}
    assert np.array_equal(again.vectors[:2000], lane.vectors[:2000])
    for q in queries[:20]:
        assert again.search(q, 10, 3, None).tolist() == lane.search(q, 10, 3, None).tolist()
        assert again.search(q, 10, GENERAL, None).tolist() == \
            lane.search(q, 10, GENERAL, None).tolist()
    with pytest.raises(ValueError):
        Lane("content", 64, lane.slots, HNSW_ONLY).load(*files)


def test_similarities_mark_missing_lanes_absent():
    slots = SlotTable()
    lanes = LaneSet(4, slots, IndexParams())
    a = slots.allocate("a", owner=GENERAL, category="fact", seq=0, created=0, access=0)
    b = slots.allocate("b", owner=GENERAL, category="fact", seq=1, created=0, access=0)
    e = np.eye(4, dtype=np.float32)
    lanes.put(a, {"content": e[0], "context": e[1]})
    lanes.put(b, {"content": e[1]})
    sims, present, name = lanes.similarities(np.array([a, b]), {"content": e[0], "context": e[1]},
                                             e[1])
    assert present.tolist() == [[True, True, False], [True, False, False]]
    assert sims[0, :2].tolist() == [1.0, 1.0] and sims[1, 0] == 0.0
    assert name is not None and name.tolist() == [0.0, 1.0]     # the extra query's cosines
    assert sorted(lanes.candidates({"context": e[1]}, [None], None,
                                   {"context": 5}).tolist()) == [a]


def test_the_content_lane_walks_wider_only_beside_other_lanes(monkeypatch):
    params = IndexParams(oversample=4, min_candidates=64, content_factor=3)
    assert params.candidates_for(10, "content") == 192
    assert params.candidates_for(10, "content", lanes=2) == 192
    assert params.candidates_for(10, "content", lanes=1) == 64
    assert params.candidates_for(10, "context", lanes=1) == 64
    assert params.candidates_for(50, "content", lanes=1) == 200
    slots = SlotTable()
    lanes = LaneSet(8, slots, params)
    asked: list[tuple[str, int]] = []
    monkeypatch.setattr(Lane, "search", lambda self, query, k, owner, cats, valid=None:
                        asked.append((self.name, k)) or np.zeros(0, dtype=np.int64))
    vector = np.ones(8, dtype=np.float32) / np.sqrt(8)
    ranking = Ranking(params, np.ones(3), 0.0, 10)
    for queries, walks in (({"content": vector}, [("content", 64)]),
                           ({"content": vector, "context": vector},
                            [("content", 192), ("context", 64)])):
        asked.clear()
        lanes.candidates(queries, [None], None,
                         {lane: ranking.lane_candidates(lane, len(queries))
                          for lane in queries})
        assert asked == walks


@settings(settings.get_profile("triform-index"), max_examples=25)
@given(seed=st.integers(0, 10_000), ended=st.floats(0.0, 0.95), k=st.integers(1, 40),
       as_of=st.booleans(), walked=st.booleans())
def test_a_lane_returns_the_nearest_rows_its_validity_holds(seed, ended, k, as_of, walked):
    """Whatever share of rows no longer holds, and wherever they sit, a lane answers
    min(k, rows that hold) rows, every one held; exactly searched, the k nearest of them."""
    rng = np.random.default_rng(seed)
    n = 300
    vectors = rng.standard_normal((n, 16)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    # The rows nearest the query end first: the crowding the walk must see past.
    query = vectors[0]
    order = np.argsort(-(vectors @ query))
    ends = np.zeros(n, dtype=bool)
    ends[order[:int(ended * n)]] = True
    slots = SlotTable()
    lane = Lane("content", 16, slots, HNSW_ONLY if walked else IndexParams())
    for i in range(n):
        label = slots.allocate(f"id{i}", owner=GENERAL, category="fact", seq=i,
                               created=0.0, access=0,
                               valid=(float(i), 10.0 * n if ends[i] else np.inf))
        lane.put(label, vectors[i])
    valid = Validity(as_of=n / 2) if as_of else CURRENT
    held = np.flatnonzero(valid.mask(slots.valid_from[:n], slots.until[:n]))
    found = lane.search(query, k, None, None, valid)
    assert len(found) == min(k, len(held)) and set(found.tolist()) <= set(held.tolist())
    exact = lane.exact_search(query, k, None, None, valid)
    nearest = held[np.argsort(-(vectors[held] @ query))][:k]
    assert sorted(exact.tolist()) == sorted(nearest.tolist())
