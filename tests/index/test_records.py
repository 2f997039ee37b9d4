"""Validation (index/validation.py) and JSON forms (index/records.py) of a memory record."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from index.errors import InvalidCategory, InvalidMemory, SubjectIncomplete
from index.records import MemoryRecord, iso_utc, json_copy, parse_time
from index.validation import (
    MAX_CONTENT_BYTES,
    validate_metadata,
    validate_new,
    validate_subject,
)


def new(**overrides):
    args = dict(content="Alice likes tea", category="preference", subject_type=None,
                subject_id=None, context=None, intention=None, agent=None, source="api",
                metadata=None, idempotency_key=None)
    args.update(overrides)
    return validate_new(**args)


def test_valid_memory_is_normalized():
    memory = new(context="   ", intention="", metadata={"a": [1, 2.5, None, True]})
    assert memory.context is None and memory.intention is None
    assert memory.metadata == {"a": [1, 2.5, None, True]}
    assert memory.subject is None


@pytest.mark.parametrize("category", ["facts", "", None, 3, "FACT"])
def test_bad_category(category):
    with pytest.raises(InvalidCategory):
        new(category=category)


@pytest.mark.parametrize("subject", [("guest", None), (None, "alice")])
def test_subject_incomplete(subject):
    with pytest.raises(SubjectIncomplete):
        new(subject_type=subject[0], subject_id=subject[1])


@pytest.mark.parametrize("subject_type,subject_id,field", [
    ("person", "alice", "subject_type"), ("guest", "", "subject_id"),
    ("guest", "  ", "subject_id"), ("guest", "x" * 257, "subject_id"),
    ("guest", 7, "subject_id")])
def test_bad_subject_names_the_field(subject_type, subject_id, field):
    with pytest.raises(InvalidMemory) as info:
        validate_subject(subject_type, subject_id)
    assert info.value.field == field


@pytest.mark.parametrize("overrides,field", [
    ({"content": ""}, "content"), ({"content": "  \n"}, "content"),
    ({"content": None}, "content"), ({"content": 5}, "content"),
    ({"content": "x" * (MAX_CONTENT_BYTES + 1)}, "content"),
    ({"content": "é" * (MAX_CONTENT_BYTES // 2 + 1)}, "content"),   # limit is in bytes
    ({"content": "bad \ud800 surrogate"}, "content"),
    ({"context": "x" * (32 * 1024 + 1)}, "context"), ({"intention": 3}, "intention"),
    ({"metadata": []}, "metadata"), ({"metadata": "x"}, "metadata"),
    ({"metadata": {"a": float("nan")}}, "metadata.a"),
    ({"metadata": {"a": {1: 2}}}, "metadata.a"), ({"metadata": {"a": object()}}, "metadata.a"),
    ({"source": "robot"}, "source"), ({"agent": ""}, "agent"),
    ({"idempotency_key": ""}, "idempotency_key"),
    ({"idempotency_key": "k" * 256}, "idempotency_key")])
def test_bad_fields_are_named(overrides, field):
    with pytest.raises(InvalidMemory) as info:
        new(**overrides)
    assert info.value.field == field


def test_content_at_the_limit_is_accepted():
    assert new(content="x" * MAX_CONTENT_BYTES).content


def test_metadata_size_limit_and_copy():
    with pytest.raises(InvalidMemory):
        validate_metadata({"blob": "x" * (16 * 1024)})
    original = {"nested": {"list": [1]}}
    copied = validate_metadata(original)
    original["nested"]["list"].append(2)
    assert copied == {"nested": {"list": [1]}}


def test_timestamps_are_fixed_width_and_parse_back():
    text = iso_utc(1_700_000_000.5)
    assert text == "2023-11-14T22:13:20.500000Z"
    assert parse_time(text, "t") == 1_700_000_000.5
    assert parse_time("2023-11-14T23:13:20.5+01:00", "t") == 1_700_000_000.5
    assert parse_time("2023-11-14T22:13:20.5", "t") == 1_700_000_000.5   # naive = UTC
    with pytest.raises(InvalidMemory) as info:
        parse_time("yesterday", "created_after")
    assert info.value.field == "created_after"


def test_record_json_round_trip_and_public_form():
    record = MemoryRecord(id="a" * 32, seq=3, content="c", category="fact",
                          subject_type="guest", subject_id="bob", context=None,
                          intention="i", agent="agent-1", source="fixture",
                          metadata={"k": 1}, created_at=iso_utc(10.0),
                          updated_at=iso_utc(11.0), access_count=2, embedded=True)
    again = MemoryRecord.from_json(record.to_json())
    assert again.to_json() == record.to_json()
    assert again.created_ts == 10.0
    public = record.public()
    assert set(public) == {"id", "content", "category", "subject_type", "subject_id",
                           "context", "intention", "agent", "source", "metadata",
                           "created_at", "updated_at", "occurred_at", "last_accessed_at",
                           "access_count", "embedded", "valid_from", "valid_until",
                           "superseded_by"}
    public["metadata"]["k"] = 99
    assert record.metadata == {"k": 1}


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                     | st.text(max_size=5),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12)


@given(_JSON)
def test_a_returned_metadata_is_a_deep_copy(value) -> None:
    """What a memory's public form holds is the JSON round trip of its metadata, and
    changing any object or array in it leaves the stored metadata as it was."""
    copied = json_copy(value)
    assert copied == json.loads(json.dumps(value))
    before = json.dumps(value)
    stack = [copied]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            item["changed"] = True
        elif isinstance(item, list):
            stack.extend(item)
            item.append("changed")
    assert json.dumps(value) == before
