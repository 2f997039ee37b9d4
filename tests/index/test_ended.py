"""The file store's kept map of memories no longer current (``index/ended.py``) gives a
search's lenders exactly what scanning every label gave: the same labels, in the same
order, through supersedes, retires, deletes that hand an end back, evictions, compaction
and reopening (checkpoint and log replay)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from index import HashingEmbedder, MemoryNotFound, MemorySettings, MemoryStore
from index import ended as ended_module
from index.errors import MemoryNotCurrent
from index.lend import LEND_MAX
from index.search import lendable
from index.slots import FREE, GENERAL
from tests.index.test_properties import Clock

SETTINGS = MemorySettings(relevance_threshold=0.0, max_memories=40)
_WHO = [None, ("guest", "ann"), ("guest", "ben"), ("guest", "cy")]
_OP = st.one_of(
    st.tuples(st.just("store"), st.integers(0, 3), st.integers(0, 60), st.booleans(),
              st.sampled_from(["fact", "preference", "correction"])),
    st.tuples(st.just("retire"), st.integers(0, 60)),
    st.tuples(st.just("delete"), st.integers(0, 60)),
    st.tuples(st.just("update"), st.integers(0, 60)),
    st.just(("compact",)), st.just(("reopen",)))


def _scanned(state, owners, cats, occurred):
    """The lenders' labels as every search found them before the map: every label's
    ``until`` scanned, the ended ones filtered, sorted newest first."""
    slots = state.slots
    hw = min(slots.high_water, len(state.lanes["content"].has))
    ended = np.flatnonzero(np.isfinite(slots.until[:hw]))
    ended = lendable(state, ended, owners, cats, occurred)
    return ended[np.argsort(-slots.seq[ended], kind="stable")][:LEND_MAX]


def _check(store, want):
    state = store._state
    slots = state.slots
    hw = slots.high_water
    # A freed label keeps its last ``until``: live labels only.
    ended = np.flatnonzero(np.isfinite(slots.until[:hw]) & (slots.owner[:hw] != FREE))
    assert len(state.ended_labels) == len(ended) == slots.ended
    codes = [slots.subject_code(who, create=False) for who in _WHO[1:]]
    mid = float(np.median(slots.occurred[:slots.high_water])) if slots.high_water else 0.0
    for owners in ([None], [GENERAL], [codes[0], GENERAL], codes, [c for c in codes
                                                                    if c != FREE]):
        for cats in (None, [0], [1, 2]):
            for occurred in ((None, None), (mid, None), (None, mid)):
                kept = state.ended_labels.newest(
                    owners, lambda found, o=owners, c=cats, t=occurred:
                    lendable(state, found, o, c, t), want, slots.seq)
                scanned = _scanned(state, owners, cats, occurred)[:want]
                assert kept.tolist() == scanned.tolist(), (owners, cats, occurred)


@settings(settings.get_profile("triform-index"), max_examples=30)
@given(ops=st.lists(_OP, min_size=1, max_size=50), want=st.sampled_from([1, 3, LEND_MAX]),
       chunk=st.sampled_from([2, 7, 512]))
def test_the_kept_map_gives_what_the_scan_gave(ops, want, chunk):
    clock = Clock()
    # A small chunk reads an owner's labels over several steps, as a large store does.
    ended_module._CHUNK, default = chunk, ended_module._CHUNK
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp) / "mem"
        store = MemoryStore(directory, HashingEmbedder(32), clock=clock)
        made: list[str] = []
        try:
            for n, op in enumerate(ops):
                clock.advance(600)
                if op[0] == "store":
                    _, who, pick, supersede, category = op
                    subject = _WHO[who]
                    fields = {} if subject is None else {"subject_type": subject[0],
                                                         "subject_id": subject[1]}
                    current = store.list(limit=500, **fields)[0] if fields else [
                        m for m in store.list(limit=500)[0] if m["subject_type"] is None]
                    ids = [current[pick % len(current)]["id"]] if supersede and current \
                        else None
                    made.append(store.store(content=f"fact {n}", category=category,
                                            supersedes=ids, settings=SETTINGS,
                                            **fields).memory["id"])
                elif op[0] in ("retire", "delete", "update") and made:
                    target = made[op[1] % len(made)]
                    try:
                        if op[0] == "retire":
                            store.retire(target, reason="ended")
                        elif op[0] == "delete":
                            store.delete(target)
                        else:
                            store.update(target, content=f"fact {n} again",
                                         settings=SETTINGS)
                    except (MemoryNotFound, MemoryNotCurrent):
                        pass
                elif op[0] == "compact":
                    store.compact()
                elif op[0] == "reopen":
                    store.close()
                    store = MemoryStore(directory, HashingEmbedder(32), clock=clock)
                _check(store, want)
        finally:
            store.close()
            ended_module._CHUNK = default
