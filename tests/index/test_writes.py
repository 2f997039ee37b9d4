"""Idempotency keys: a retry returns the first result, a reused key is refused (writes.py)."""

from __future__ import annotations

import json

import pytest

from index import IdempotencyKeyReused, MemorySettings, validate_new
from index.engine import LOG_NAME
from index.sidecar import MANIFEST

S = MemorySettings()
FIRST = {"content": "Ana drinks tea", "category": "preference", "subject_type": "guest",
         "subject_id": "ana", "context": "breakfast chat", "metadata": {"a": 1, "b": 2}}


def log_bytes(store) -> bytes:
    return (store.directory / LOG_NAME).read_bytes()


@pytest.mark.file_only("asserts on the log file (keys on PG: tests/index/test_postgres.py)")
def test_a_retry_returns_the_first_result_and_a_new_payload_is_refused(make_store):
    store = make_store()
    first = store.store(**FIRST, idempotency_key="k", settings=S)
    before = log_bytes(store)
    # The same request, spelled differently: metadata keys in another order, a blank
    # intention (no intention), the same subject.
    retry = store.store(**{**FIRST, "metadata": {"b": 2, "a": 1}}, intention="  ",
                        idempotency_key="k", settings=S)
    assert retry == first and log_bytes(store) == before
    for change in ({"content": "Ana drinks coffee"}, {"category": "fact"},
                   {"subject_id": "bo"}, {"context": None}, {"metadata": {"a": 1}},
                   {"agent": "bot"}, {"source": "conscious"}):
        with pytest.raises(IdempotencyKeyReused) as info:
            store.store(**{**FIRST, **change}, idempotency_key="k", settings=S)
        err = info.value
        assert (err.code, err.error_class, err.retryable) == (
            "IDEMPOTENCY_KEY_REUSED", "unprocessable", False), change
        assert err.memory_id == first.memory["id"] and "'k'" in err.message
    assert log_bytes(store) == before and len(store) == 1


@pytest.mark.file_only("asserts on the log file (keys on PG: tests/index/test_postgres.py)")
def test_the_fingerprint_survives_restarts_compaction_and_updates(make_store):
    store = make_store()
    first = store.store(**FIRST, idempotency_key="k", settings=S)
    store.update(first.memory["id"], content="Ana drinks green tea", settings=S)
    store.close()
    reopened = make_store()       # from the checkpoint
    assert reopened.store(**FIRST, idempotency_key="k", settings=S).memory["id"] == \
        first.memory["id"]
    with pytest.raises(IdempotencyKeyReused):
        reopened.store(**{**FIRST, "content": "other"}, idempotency_key="k", settings=S)
    reopened.compact()
    reopened.close()
    (reopened.directory / MANIFEST).unlink()
    rebuilt = make_store()        # from the compacted log alone
    assert rebuilt.open_report["rebuilt"]
    with pytest.raises(IdempotencyKeyReused):
        rebuilt.store(**{**FIRST, "content": "other"}, idempotency_key="k", settings=S)
    assert rebuilt.store(**FIRST, idempotency_key="k", settings=S).memory["content"] == \
        "Ana drinks green tea"   # the first memory, in its current form


def test_a_key_is_free_again_once_its_memory_is_gone(make_store):
    store = make_store()
    first = store.store(**FIRST, idempotency_key="k", settings=S)
    store.delete(first.memory["id"])
    other = store.store(content="something else", category="fact", idempotency_key="k",
                        settings=S)
    assert other.memory["id"] != first.memory["id"]


@pytest.mark.file_only("asserts on the log file (keys on PG: tests/index/test_postgres.py)")
def test_a_key_stored_before_fingerprints_keeps_its_old_meaning(make_store):
    store = make_store()
    first = store.store(**FIRST, idempotency_key="k", settings=S)
    store.close()
    # A log written before fingerprints existed: its store line has no key_fingerprint.
    path = store.directory / LOG_NAME
    lines = [json.loads(line) for line in path.read_bytes().splitlines()]
    for line in lines:
        line.pop("key_fingerprint", None)
    path.write_bytes(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    (store.directory / MANIFEST).unlink()
    legacy = make_store()
    again = legacy.store(content="anything", category="fact", idempotency_key="k",
                         settings=S)
    assert again.memory["id"] == first.memory["id"] and len(legacy) == 1


@pytest.mark.file_only("asserts on the log file (keys on PG: tests/index/test_postgres.py)")
def test_store_many_refuses_a_reused_key_before_writing_anything(make_store):
    store = make_store()
    store.store(**FIRST, idempotency_key="k", settings=S)
    before = log_bytes(store)
    with pytest.raises(IdempotencyKeyReused, match=r"^items\[1\]: "):
        store.store_many([{"content": "new one", "category": "fact"},
                          {**FIRST, "content": "changed", "idempotency_key": "k"}],
                         settings=S)
    with pytest.raises(IdempotencyKeyReused, match=r"^items\[2\]: "):
        store.store_many([{"content": "a", "category": "fact", "idempotency_key": "n"},
                          {"content": "b", "category": "fact"},
                          {"content": "c", "category": "fact", "idempotency_key": "n"}],
                         settings=S)
    assert log_bytes(store) == before and len(store) == 1
    same = store.store_many([{"content": "a", "category": "fact", "idempotency_key": "n"},
                             {"content": "a", "category": "fact", "idempotency_key": "n"},
                             {**FIRST, "idempotency_key": "k"}], settings=S)
    assert same[0] == same[1] and len(store) == 2


def test_fingerprints_ignore_the_key_and_see_every_field():
    base = dict(content="x", category="fact", subject_type=None, subject_id=None,
                context=None, intention=None, agent=None, source="api", metadata=None)
    a = validate_new(**base, idempotency_key="k1")
    assert a.fingerprint == validate_new(**base, idempotency_key="k2").fingerprint
    assert a.fingerprint == validate_new(**{**base, "context": " "},
                                         idempotency_key=None).fingerprint
    variants = [{"content": "y"}, {"category": "preference"},
                {"subject_type": "guest", "subject_id": "a"}, {"context": "c"},
                {"intention": "i"}, {"agent": "a"}, {"source": "fixture"},
                {"metadata": {"k": None}}]
    prints = {validate_new(**{**base, **v}, idempotency_key=None).fingerprint
              for v in variants}
    assert len(prints) == len(variants) and a.fingerprint not in prints
