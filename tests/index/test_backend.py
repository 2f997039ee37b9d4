"""The backend interface (index/backend.py): both backends implement it exactly, through
the one core (index/core.py), and iter_memories streams what list pages through."""

from __future__ import annotations

import inspect

import pytest

from index import (
    HashingEmbedder,
    InvalidCategory,
    InvalidMemory,
    MemoryBackend,
    MemorySettings,
    MemoryStore,
)
from index.core import MemoryCore
from index.postgres import PostgresMemoryStore
from tests.index.import_cases import refused_part_way

S = MemorySettings(max_memories=10_000)
BACKENDS = (MemoryStore, PostgresMemoryStore)


def protocol_methods() -> list[str]:
    return sorted(name for name, value in vars(MemoryBackend).items()
                  if callable(value) and (not name.startswith("_") or name in
                                          ("__len__", "__enter__", "__exit__")))


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda cls: cls.__name__)
def test_the_protocol_lists_every_public_op_of_each_backend(backend):
    ops = {name for name in dir(backend) if not name.startswith("_")
           and callable(getattr(backend, name))}
    assert ops == set(protocol_methods()) - {"__len__", "__enter__", "__exit__"}


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda cls: cls.__name__)
def test_each_op_is_written_once_in_the_core(backend):
    """A backend implements the core's primitives, never an op of the contract: so a new
    rule of an op is written once, and both backends keep it."""
    assert issubclass(backend, MemoryCore)
    assert not set(vars(backend)) & set(protocol_methods()) - {"__init__"}
    assert not backend.__abstractmethods__


@pytest.mark.parametrize("name", protocol_methods())
def test_the_core_has_the_protocols_signature(name):
    ours = inspect.signature(getattr(MemoryCore, name))
    theirs = inspect.signature(getattr(MemoryBackend, name))
    if name in ("__enter__", "__exit__"):
        assert len(ours.parameters) >= 1
        return
    assert list(ours.parameters.values()) == list(theirs.parameters.values()), name
    assert ours.return_annotation == theirs.return_annotation, name


def test_every_protocol_method_states_its_contract_once():
    for name in protocol_methods():
        if name not in ("__enter__", "__exit__"):
            assert inspect.getdoc(getattr(MemoryBackend, name)), name
            # The core and the backends do not repeat it: their help is the contract's.
            assert getattr(MemoryCore, name).__doc__ is None, name
            assert inspect.getdoc(getattr(MemoryStore, name)) == \
                inspect.getdoc(getattr(MemoryBackend, name)), name


def test_a_store_is_a_backend(make_store):
    assert isinstance(make_store(), MemoryBackend)


def test_iter_memories_streams_every_page_in_list_order(make_store):
    store = make_store()
    store.store_many([{"content": f"memory {i}", "category": "fact" if i % 3 else "context",
                       "subject_type": "guest" if i % 2 else None,
                       "subject_id": f"g{i % 4}" if i % 2 else None} for i in range(1003)],
                     settings=S)
    listed, cursor = store.list(limit=500)
    while cursor:
        page, cursor = store.list(limit=500, cursor=cursor)
        listed += page
    assert list(store.iter_memories()) == listed and len(listed) == 1003
    facts = list(store.iter_memories(category="fact", subject_type="guest"))
    assert facts == [m for m in listed if m["category"] == "fact"
                     and m["subject_type"] == "guest"]
    assert all(m["access_count"] == 0 for m in store.iter_memories())


def test_iter_memories_is_lazy_and_stable_while_memories_change(make_store):
    store = make_store()
    ids = [r.memory["id"] for r in store.store_many(
        [{"content": f"m{i}", "category": "fact"} for i in range(1001)], settings=S)]
    stream = store.iter_memories()
    first = next(stream)
    assert first["id"] == ids[-1]
    store.store(content="stored meanwhile", category="fact", settings=S)
    store.delete(ids[0])                                 # not yet yielded
    rest = [m["id"] for m in stream]
    assert rest == ids[-2:0:-1]                          # each once, none new, none deleted


def test_iter_memories_checks_its_filters_at_the_call(make_store):
    store = make_store()
    with pytest.raises(InvalidCategory):
        store.iter_memories(category="gossip")
    with pytest.raises(InvalidMemory):
        store.iter_memories(created_after="yesterday")


def test_export_then_import_keeps_ids_times_statistics_and_vectors(make_store, tmp_path):
    """An export read back into another store of the same model is the same memories
    (ids, fields, access statistics), carried vectors are used as they are, and a second
    import changes nothing: on every backend."""
    from index import ImportedMemory, validate_imported
    source = make_store(directory=tmp_path / "a")
    for i in range(7):
        source.store(content=f"Ana likes tea number {i}", category="preference",
                     subject_type="guest", subject_id="ana", context=f"chat {i}",
                     settings=S)
    first = source.search(query="tea number 3", settings=S).results[0]["memory"]
    count, memories = source.export(vectors=True)
    exported = list(memories)
    assert count == len(exported) == 7
    assert all(set(m["vectors"]) == {"content", "context"} for m in exported)
    items = [ImportedMemory(validate_imported(
        {k: v for k, v in m.items() if k != "vectors"}).record, m["vectors"])
        for m in reversed(exported)]
    target = make_store(directory=tmp_path / "b")
    done = target.import_memories(items, model_id=source.model_id, settings=S)
    assert sorted(done.imported) == sorted(m["id"] for m in exported)
    assert done.embedded_here == 0 and done.skipped == []
    assert list(target.iter_memories()) == [
        {k: v for k, v in m.items() if k != "vectors"} for m in exported]
    again = target.import_memories(items, model_id=source.model_id, settings=S)
    assert again.imported == [] and len(again.skipped) == 7
    hit = target.search(query="tea number 3", settings=S).results[0]["memory"]
    assert hit["id"] == first["id"]


class _ClosingEmbedder(HashingEmbedder):
    """A real embedder that fails while ``failing`` is set (an outage), and that closes
    ``closes`` when asked to embed (the store shut down while a repair runs)."""

    def __init__(self) -> None:
        super().__init__(256)
        self.failing = True
        self.closes: MemoryBackend | None = None

    def embed(self, texts):
        if self.failing:
            raise ConnectionError("embedding service unavailable")
        if self.closes is not None:
            self.closes.close()
        return super().embed(texts)


@pytest.mark.parametrize("failure", ["the model fails", "the store closes meanwhile"])
def test_verify_reports_every_failure_of_its_repair_on_every_backend(make_store, failure):
    """verify's repair of memories without vectors reports whatever ``StoreError`` the
    repair raises as ``fix_failed``, on both backends alike: a backend that caught only
    ``EmbeddingFailed`` there (as PostgreSQL's did) would raise ``StoreClosed`` instead."""
    embedder = _ClosingEmbedder()
    store = make_store(embedder=embedder, embed_cache=0)
    store.store(content="stored during an outage", category="fact", settings=S)
    if failure == "the store closes meanwhile":
        embedder.failing, embedder.closes = False, store
    items = store.verify(repair=True)
    assert [(i["problem"], "fixed" in i, "fix_failed" in i) for i in items] == [
        ("1 memories have no vectors (text search only)", False, True)]


def test_an_import_refused_part_way_stores_nothing(make_store):
    """Issue 26, Medium 5: the items before a refused one stayed stored (300 of 301 on
    the file store, a batch on PostgreSQL). An import is all or nothing on every backend."""
    from index import MemoryCapacity
    store = make_store()
    full, items = refused_part_way()
    with pytest.raises(MemoryCapacity):
        store.import_memories(items, model_id=None, settings=full)
    assert len(store) == 0 and list(store.iter_memories()) == []
    done = store.import_memories(items[:5], model_id=None, settings=full)
    assert len(done.imported) == 5 and len(store) == 5
