"""The memory ops' settings, remembered per properties (``element/ops/memory._settings``):
the same as built anew for every value, a changed value seen at once, a bad one refused
every time."""

from __future__ import annotations

import math

import pytest

from element.ops.memory import _settings
from index import InvalidMemory, MemorySettings


@pytest.mark.parametrize("properties", [
    None, {}, {"relevance_threshold": 0.25}, {"relevance_threshold": 0},
    {"max_memories": 10, "subject_scoping": True},
    {"association_weights": {"content": 1, "context": 1}, "retention": {"fact": 3}},
    {"association_weights": {"content": 1.0, "context": 1.0}, "name": "other"},
])
def test_remembered_settings_are_those_built_anew(properties):
    assert _settings(properties) == MemorySettings.from_properties(properties)
    assert _settings(properties) == MemorySettings.from_properties(properties)


def test_a_changed_value_is_seen_and_a_bad_one_refused_every_time():
    assert _settings({"relevance_threshold": 0.3}).relevance_threshold == 0.3
    assert _settings({"relevance_threshold": 0.4}).relevance_threshold == 0.4
    assert _settings({"max_memories": 1}).max_memories == 1
    for bad in ({"max_memories": 1.0}, {"max_memories": True},
                {"relevance_threshold": math.nan}, {"relevance_threshold": "0.3"}):
        for _ in range(2):
            with pytest.raises(InvalidMemory):
                _settings(bad)
