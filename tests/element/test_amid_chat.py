"""News told in few words amid chat (issue 23: each wrote no memory, so a control's new
fact was lost): a thing of the closed class a person has, got ("We got a puppy too"), the
speaker just back from somewhere ("Just back from a weekend in York"), the speaker's days
filled by an activity and where ("Saturdays are climbing at the wall now"). Chat phrases
of the same build still write nothing.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

import pytest

from element.agents.episodes import episode


@pytest.mark.parametrize("text,memory", [
    ("So yeah, we got a kitten too. The dog is not amused.", "Sam's family got a kitten too"),
    ("I bought a campervan!", "Sam bought a campervan"),
    ("Just back from a week in Harlech, the beach was lovely.",
     "Sam is just back from a week in Harlech"),
    ("Haha. Anyway, Sundays are swimming at the lido now, so much better.",
     "Sundays are swimming at the lido now"),
])
def test_news_in_few_words_amid_chat_is_a_memory(text: str, memory: str) -> None:
    told = episode(text, "Sam")
    assert told is not None and memory in told.content, told


@pytest.mark.parametrize("text", [
    "Just back from work.", "Mornings are dark now.", "We got a bit lost.", "Haha yes!",
])
def test_chat_of_the_same_build_writes_nothing(text: str) -> None:
    assert episode(text, "Sam") is None
