"""How the keyed rules read a turn (``element/agents/cleaning.py``), seen through what
``rules.extract`` stores."""

from __future__ import annotations

import pytest

from element.agents.rules import extract


@pytest.mark.parametrize("text", [
    "Oh no! Sorry to hear that.",
    "Oh no, that's awful. Hope you feel better soon.",
    "Aw no! That sounds rough.",
])
def test_dismay_at_the_others_news_corrects_nothing(text: str) -> None:
    assert extract(text, 1, "John") == []


def test_a_plain_no_still_corrects() -> None:
    [fixed] = extract("No. I live in Leeds.", 1, "John")
    assert (fixed.kind, fixed.key) == ("correct", "fact:location")
