"""observe and the conscious tools through the client."""

from __future__ import annotations

from typing import Any

import pytest
from triform_client import Client, Forbidden


@pytest.fixture
def bot(tf: Client) -> Client:
    tf.element("demo/memory").spec_update({"conscious_access": "read"})
    tf.circle("demo").create("triformer", "bot", properties={
        "subconscious": {"memory": {"element": "memory"}}, "evaluator": {"kind": "rules"}})
    return tf


def test_observe_remembers_what_a_person_said(bot: Client) -> None:
    seen = bot.agent("demo/bot").observe(
        [{"role": "user", "content": "I'm vegetarian. Can you suggest a recipe?",
          "name": "Ana"}, {"role": "assistant", "content": "Sure!"}],
        subject_type="guest", subject_id="ana")
    assert seen["memories"] == ["demo/memory"] and seen["evaluator"] == "rules"
    added = [d for d in seen["decisions"] if d["action"] == "add"]
    assert added and added[0]["memory"] == "demo/memory"
    stored = bot.memory("demo/memory").get(added[0]["memory_id"])
    assert (stored["source"], stored["subject_id"]) == ("subconscious", "ana")


def test_tools_follow_conscious_access(bot: Client, connect: Any) -> None:
    bot.memory("demo/memory").store("Ana drinks green tea", "preference")
    agent = connect("member").agent("demo/bot")
    assert [t["name"] for t in agent.tools()["tools"]] == ["memory_search", "memory_recall",
                                                           "memory_history"]
    found = agent.call_tool("memory_search", {"query": "green tea"})
    assert found["results"][0]["memory"]["content"] == "Ana drinks green tea"
    with pytest.raises(Forbidden) as refused:
        agent.call_tool("memory_store", {"content": "x", "category": "fact"})
    assert refused.value.code == "MEMORY_TOOL_FORBIDDEN"
    assert bot.memory("demo/memory").stats()["total"] == 1
