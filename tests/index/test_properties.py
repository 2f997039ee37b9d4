"""Property tests of the runtime: scoping never leaks, replay equals live, weights sum to 1."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, IndexParams, MemoryNotFound, MemorySettings, MemoryStore

PROFILE = settings.get_profile("triform-index")
WORDS = ["tea", "coffee", "chess", "jazz", "budget", "trip", "tokyo", "paris", "dog", "cat",
         "meeting", "deadline", "allergy", "peanut", "birthday", "gift"]
SUBJECTS = [None, ("guest", "ann"), ("guest", "ben"), ("circle_member", "ann"),
            ("entity", "acme"), ("guest", "cy")]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)
subject = st.sampled_from(SUBJECTS)


class Clock:
    """A settable clock (each Hypothesis example needs its own, so no fixture)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def open_store(directory: Path, clock=None, **kw) -> MemoryStore:
    return MemoryStore(directory, HashingEmbedder(128), clock=clock or Clock(), **kw)


# (1) ------------------------------------------------------------------------------------

@settings(PROFILE, max_examples=25)
@given(memories=st.lists(st.tuples(text, subject, st.one_of(st.none(), text)), min_size=1,
                         max_size=60),
       searches=st.lists(st.tuples(text, subject, st.one_of(st.none(), text)), min_size=1,
                         max_size=8),
       hnsw=st.booleans())
def test_scoped_search_never_returns_another_subjects_memory(memories, searches, hnsw):
    scoped = MemorySettings(subject_scoping=True, relevance_threshold=0.0)
    params = IndexParams(exact_below=0, min_candidates=8) if hnsw else IndexParams()
    with tempfile.TemporaryDirectory() as tmp, open_store(Path(tmp), index_params=params) \
            as store:
        for content, who, context in memories:
            store.store(content=content, category="fact", context=context,
                        subject_type=who and who[0], subject_id=who and who[1],
                        settings=scoped)
        for query, who, window in searches:
            found = store.search(query=query, context=window, subject_type=who and who[0],
                                 subject_id=who and who[1], limit=100, settings=scoped)
            for result in found.results:
                memory = result["memory"]
                owner = (memory["subject_type"], memory["subject_id"])
                assert owner == (None, None) or owner == who
            # threshold 0 and a large limit: everything in scope comes back
            in_scope = [m for m in memories if m[1] is None or m[1] == who]
            assert len(found.results) == len(in_scope)


# (2) ------------------------------------------------------------------------------------

op = st.one_of(
    st.tuples(st.just("store"), text, subject, st.one_of(st.none(), text),
              st.sampled_from(["fact", "preference", "context"]),
              st.one_of(st.none(), st.sampled_from(["k1", "k2", "k3"]))),
    st.tuples(st.just("update"), st.integers(0, 50), st.one_of(st.none(), text),
              st.one_of(st.none(), st.just(""), text)),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("search"), text, subject),
    st.tuples(st.just("advance"), st.integers(0, 3 * 86_400)),
    st.tuples(st.just("reap")),
    st.tuples(st.just("forget"), subject),
    st.tuples(st.just("compact")),
)


def observe(store: MemoryStore) -> dict:
    listed = store.list(limit=500)[0]
    return {"list": listed, "get": {m["id"]: store.get(m["id"]) for m in listed},
            "len": len(store)}


@settings(PROFILE, max_examples=30)
@given(ops=st.lists(op, min_size=1, max_size=40), scoping=st.booleans())
def test_replaying_the_log_equals_the_live_state(ops, scoping):
    s = MemorySettings(subject_scoping=scoping, relevance_threshold=0.0, max_memories=12,
                       max_per_subject=4, retention={"context": 1})
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "mem"
        store = open_store(directory, clock, checkpoint_every=4)
        made: list[str] = []
        for step in ops:
            kind = step[0]
            try:
                if kind == "store":
                    _, content, who, context, category, key = step
                    made.append(store.store(content=content, category=category,
                                            context=context, subject_type=who and who[0],
                                            subject_id=who and who[1], idempotency_key=key,
                                            settings=s).memory["id"])
                elif kind == "update" and made:
                    _, i, content, context = step
                    store.update(made[i % len(made)], content=content, context=context,
                                 settings=s)
                elif kind == "delete" and made:
                    store.delete(made[step[1] % len(made)])
                elif kind == "search":
                    who = step[2]
                    store.search(query=step[1], subject_type=who and who[0],
                                 subject_id=who and who[1], settings=s)
                elif kind == "advance":
                    clock.advance(step[1])
                elif kind == "reap":
                    store.reap(settings=s)
                elif kind == "forget" and step[1] is not None:
                    store.forget_subject(*step[1], confirm=True)
                elif kind == "compact":
                    store.compact()
            except MemoryNotFound:
                pass
            except Exception as exc:   # capacity refusals are legitimate outcomes
                if getattr(exc, "code", None) != "MEMORY_CAPACITY":
                    raise
        live = observe(store)
        crash = Path(tmp) / "crash"
        shutil.copytree(directory, crash, ignore=shutil.ignore_patterns("lock"))
        store.close()
        for path in (directory, crash):
            with open_store(path, clock) as reopened:
                assert observe(reopened) == live
        for path in directory.iterdir():
            if path.name not in ("memories.jsonl", "lock"):
                path.unlink()
        with open_store(directory, clock) as rebuilt:
            assert rebuilt.open_report["rebuilt"]
            assert observe(rebuilt) == live


# (3) ------------------------------------------------------------------------------------

@settings(PROFILE)
@given(st.fixed_dictionaries({}, optional={
    "content": st.floats(0, 100), "context": st.floats(0, 100),
    "intention": st.floats(0, 100)}).filter(lambda w: sum(w.values()) > 0))
def test_settings_weights_sum_to_one(weights):
    s = MemorySettings.from_properties({"association_weights": weights})
    assert sum(s.association_weights.values()) == pytest.approx(1.0)
    assert set(s.association_weights) == {"content", "context", "intention"}
