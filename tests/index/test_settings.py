"""MemorySettings defaults and validation (index/settings.py)."""

from __future__ import annotations

import json

import pytest

from index.errors import InvalidMemory
from index.settings import MemorySettings


def test_defaults_match_the_reference_sheet():
    s = MemorySettings()
    assert (s.subject_scoping, s.max_memories, s.max_per_subject, s.relevance_threshold) \
        == (False, 1000, 200, 0.4)
    assert s.association_weights == pytest.approx(
        {"content": 0.6, "context": 0.25, "intention": 0.15})
    assert s.retention == {}
    assert MemorySettings.from_properties({}) == s
    assert MemorySettings.from_properties(None) == s


def test_from_properties_ignores_element_only_properties_and_nulls():
    s = MemorySettings.from_properties({"description": "x", "scope": "shared",
                                        "conscious_access": "read", "max_memories": None,
                                        "subject_scoping": True})
    assert s.subject_scoping and s.max_memories == 1000


def test_weights_are_normalized_and_missing_lanes_weigh_zero():
    s = MemorySettings.from_properties({"association_weights": {"content": 3, "context": 1}})
    assert s.association_weights == {"content": 0.75, "context": 0.25, "intention": 0.0}
    assert sum(s.association_weights.values()) == pytest.approx(1.0)
    assert MemorySettings.from_properties({"association_weights": {}}) == MemorySettings()


def test_settings_serialize_and_do_not_share_caller_dicts():
    weights = {"content": 1.0, "context": 1.0, "intention": 0.0}
    s = MemorySettings(association_weights=weights, retention={"context": 7})
    weights["content"] = 100.0
    assert s.association_weights["content"] == 0.5
    assert json.loads(json.dumps(s.to_properties()))["retention"] == {"context": 7.0}


@pytest.mark.parametrize("props,field", [
    ({"subject_scoping": "yes"}, "subject_scoping"), ({"max_memories": 0}, "max_memories"),
    ({"max_memories": 2.5}, "max_memories"), ({"max_memories": True}, "max_memories"),
    ({"max_per_subject": -1}, "max_per_subject"),
    ({"relevance_threshold": 1.5}, "relevance_threshold"),
    ({"relevance_threshold": "0.4"}, "relevance_threshold"),
    ({"relevance_threshold": float("nan")}, "relevance_threshold"),
    ({"association_weights": [1, 2]}, "association_weights"),
    ({"association_weights": {"content": -1}}, "association_weights"),
    ({"association_weights": {"content": 0, "context": 0}}, "association_weights"),
    ({"association_weights": {"smell": 1}}, "association_weights"),
    ({"association_weights": {"content": "1"}}, "association_weights"),
    ({"retention": {"facts": 3}}, "retention"), ({"retention": {"fact": 0}}, "retention"),
    ({"retention": {"fact": "3"}}, "retention"), ({"retention": [1]}, "retention"),
])
def test_bad_property_names_the_field(props, field):
    with pytest.raises(InvalidMemory) as info:
        MemorySettings.from_properties(props)
    assert info.value.field == field
    assert info.value.error_class == "validation"


def test_retention_null_means_never():
    assert MemorySettings.from_properties({"retention": {"fact": None, "context": 1}}) \
        .retention == {"context": 1.0}
