"""store_many puts a batch's vectors into the HNSW graphs in one pass at the end: what it
leaves must be what the same memories stored one by one leave, evictions inside the batch,
subjects and general memories, and a refusal part way included."""

from __future__ import annotations

from typing import Any

import pytest

from index import HashingEmbedder, MemoryCapacity, MemorySettings

CAP = MemorySettings(max_memories=30, relevance_threshold=0.0)
SCOPED = MemorySettings(max_memories=30, max_per_subject=5, subject_scoping=True,
                        relevance_threshold=0.0)


def items(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        item: dict[str, Any] = {"content": f"memory {i} about topic {i % 7} and colour {i % 3}",
                                "category": "fact", "context": f"a talk about topic {i % 5}"}
        if i % 4 == 0:
            item.update(subject_type="guest", subject_id=f"u{i % 3}")
        out.append(item)
    return out


def ranking(store: Any, settings: MemorySettings, **subject: str) -> list[list[tuple]]:
    out = []
    for q in ("topic 3", "colour 1 topic 2", "a talk about topic 4", "memory 17"):
        found = store.search(query=q, context="talk about topic 1", settings=settings,
                             limit=10, **subject).results
        out.append([(r["memory"]["content"], round(r["score"], 5)) for r in found])
    return out


@pytest.mark.file_only("the batch insert into hnswlib is the file store's (PostgreSQL orders "
                       "a batch's ties otherwise, by its own clock)")
@pytest.mark.parametrize("settings", [CAP, SCOPED], ids=["capped", "scoped"])
def test_a_batch_leaves_what_one_by_one_leaves(make_store: Any, tmp_path: Any,
                                               settings: MemorySettings) -> None:
    batch = items(40)   # over the cap: the batch evicts its own first memories
    one = make_store(directory=tmp_path / "one", embedder=HashingEmbedder(64))
    many = make_store(directory=tmp_path / "many", embedder=HashingEmbedder(64))
    try:
        for item in batch:
            one.store(**item, settings=settings)
        refused = None
    except MemoryCapacity as exc:   # scoped: a subject over its share refuses
        refused = exc
    if refused is None:
        many.store_many(batch, settings=settings)
    else:
        with pytest.raises(MemoryCapacity):
            many.store_many(batch, settings=settings)
    assert len(many) == len(one)
    assert ranking(many, settings) == ranking(one, settings)
    assert ranking(many, settings, subject_type="guest", subject_id="u1") == \
        ranking(one, settings, subject_type="guest", subject_id="u1")
