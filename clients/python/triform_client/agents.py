"""Agents (docs/agents.md): the subconscious ``observe`` and the conscious memory tools.

Both a triformer (an agent, bonding memories) and a memory element (its own single bond)
answer them, so both handles share :class:`AgentFacing`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from .elements import Element
from .models import JSON, Observation, SubjectType, Turn

__all__ = ["AgentFacing", "Agent"]


class AgentFacing(Element):
    """An element an agent talks to: it observes conversations and offers tools."""

    def observe(self, turns: Sequence[Turn], *, subject_type: SubjectType | None = None,
                subject_id: str | None = None, agent: str | None = None) -> Observation:
        """Let the subconscious decide what to add, update or forget from ``turns``.

        Never repeated after a lost answer: observing twice could act twice.
        """
        return cast(Observation, self._post("observe", {
            "turns": list(turns), "subject_type": subject_type, "subject_id": subject_id,
            "agent": agent}, safe=False))

    def tools(self) -> JSON:
        """The conscious tools (MCP ``tools/list`` shape) and the bonded memories."""
        return cast(JSON, self._get("tools"))

    def call_tool(self, name: str, arguments: JSON | None = None, *,
                  subject_type: SubjectType | None = None,
                  subject_id: str | None = None) -> Any:
        """Call one tool with the conversation's subject fixed; answer its ``result``.

        :raise Forbidden: the memory's ``conscious_access`` does not allow the tool.
        """
        answer = self._post("tools/call", {"name": name, "arguments": arguments,
                                           "subject_type": subject_type,
                                           "subject_id": subject_id}, safe=False)
        return answer["result"]


class Agent(AgentFacing):
    """A triformer element."""
