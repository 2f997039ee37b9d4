"""Narration's placeholders (U+E001, U+E002: the speaker's "my" and "mine" while a turn is
narrated) never reach a memory: an observation drops them from its turns and names on
the way in (``element/agents/observation.py``), so whatever a turn carries, the memories
the rules write are those of the same turn without them."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from element.agents.observation import PLACEHOLDERS, parse_observation, unmarked
from element.agents.subconscious import Observation, RuleEvaluator, Turn, observe
from index import HashingEmbedder, MemorySettings, MemoryStore

#: Turns the rules write memories from (a place, a job, a family member, a pet, a plan),
#: first person so narration marks their owners.
SAID = ["We moved to Glasgow last year.", "I work at the Leeds branch of Barclays.",
        "My sister lives in Leeds with my nephew.", "I love my dog Rex, he is mine.",
        "I am going to Lisbon next month for my cousin's wedding.",
        "My favourite food is sushi."]
DAY = datetime(2025, 3, 14, tzinfo=UTC)


@st.composite
def marked(draw: st.DrawFn, text: str) -> str:
    """``text`` with placeholders (and other private-use characters, which pass) put
    anywhere: between words, inside a word or a name, at either end."""
    out = text
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(out)))
        out = out[:at] + draw(st.sampled_from(["\ue001", "\ue002", "\ue001\ue002"])) + out[at:]
    return out


def _memories(turns: list[tuple[str, str]], name: str) -> list[dict[str, Any]]:
    """The memories the rules write, on a real (file) store, for these turns."""
    with tempfile.TemporaryDirectory() as folder, \
            MemoryStore(Path(folder) / "m", HashingEmbedder(256)) as store:
        obs = Observation(tuple(Turn(role, text) for role, text in turns), ("guest", "ana"),
                          conversation_id="1", session_date=DAY, subject_name=name)
        observe(store, MemorySettings(), obs, RuleEvaluator())
        return sorted(({k: m[k] for k in ("content", "context", "intention", "category",
                                          "occurred_at", "metadata")}
                       for m in store.list(limit=100)[0]), key=json.dumps)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(SAID), min_size=1, max_size=3, unique=True).flatmap(
    lambda said: st.tuples(*(marked(s) for s in said)).map(list)),
       marked("Ana"))
def test_a_turn_with_placeholders_gives_the_memories_of_the_turn_without(
        said: list[str], name: str) -> None:
    turns = [("user", text) for text in said]
    got = _memories(turns, name)
    assert got, said
    assert not any(c in json.dumps(got, ensure_ascii=False) for c in PLACEHOLDERS)
    assert got == _memories([(role, unmarked(text)) for role, text in turns], "Ana")


def test_an_observe_body_drops_them_from_turns_and_names() -> None:
    obs = parse_observation({"turns": [{"role": "user", "content": "my \ue001dog",
                                        "name": "Jo\ue002"},
                                       {"role": "user", "content": "hi", "name": "\ue001"}],
                             "subject_name": "A\ue002na"})
    assert obs.turns[0] == Turn("user", "my dog", "Jo")
    assert obs.turns[1].name is None and obs.speaker(1) == "Ana"
