"""The goal of a user turn: its first request or question that is not about memory, stored
as the memory's intention (the third lane of recall: the goal a memory served). Pure
functions, English only; split from ``rules.py``."""

from __future__ import annotations

import re

from .cleaning import CORRECTION, statements

__all__ = ["goal_of"]

#: How a request opens ("Can you ...", "please ...", "I need to ...", "help me ...").
_REQUEST = re.compile(
    r"^(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+|i\s+(?:want|need|would like|"
    r"wish)\s+to\s+|i\s+am\s+(?:trying|hoping)\s+to\s+|(?:help me|i need help)(?:\s+(?:to|with))?"
    r"\s+|let(?:'s|\s+us)\s+)(?P<x>.+)$", re.I)
_ORDER = re.compile(r"^(?:tell|show|find|give|book|plan|write|suggest|recommend|explain|"
                    r"summari[sz]e|"
                    r"remind|make|create|send|schedule|order|help|fix|draft|translate|check|"
                    r"compare|list|describe|calculate|organi[sz]e|prepare|search|look up|get|buy|"
                    r"review|edit|set up|cook|choose|pick|teach|i am looking for)\b.+$", re.I)
_MEMORY_WORDS = re.compile(r"^(?:remember|forget|note|keep in mind|always|never)\b", re.I)


def goal_of(text: str) -> str | None:
    """The goal of a user turn: its first request or question that is not about memory.

    "Can you suggest a recipe?" -> "suggest a recipe"; "What should I cook tonight?" ->
    "What should I cook tonight". None when the turn asks for nothing.
    """
    for _, s, question in statements(text):
        if marker := CORRECTION.match(s):
            s = s[marker.end():].strip()
        m = _REQUEST.match(s)
        goal = m["x"] if m else (s if question or _ORDER.match(s) else None)
        if goal and not _MEMORY_WORDS.match(goal):
            return " ".join(goal.split()[:30])
    return None
