"""The words that say a value holds now are one list (``index/told.py``: ``PRESENT_TIME``,
``NOW_WORD``, ``NOWISH``), read alike by each reader that asks whether a sentence is of
the present: recall ordering what it found (``told.NOW``), the subconscious's cues of
change (``cues.signals``), a bare answer written whole with the question's time
(``answered.fragment``) and the value told first (``inverted``: "York's where we are
now"). "Right now", "just now" (a moment), "for now", "until now" (a stay, a past) and
"now and then" (a habit) say no present against before, to any of them: a visit "right
now" is no home, and a value said "for now" is not told as the newer one by one side only.
(A question's "for" before "now" is the verb's own: "Who are you playing for now?".)
"""

from __future__ import annotations

import pytest

from element.agents.answered import fragment
from element.agents.cues import signals
from element.agents.inverted import inverted
from index.told import NOW

#: Said as holding now.
PRESENT = ["now", "these days", "nowadays", "at the moment", "currently"]
#: "Now" said of a moment, a stay, a past or a habit.
NOT_PRESENT = ["right now", "just now", "for now", "until now", "till now", "now and then"]


@pytest.mark.parametrize("when", PRESENT)
def test_every_reader_reads_the_present(when: str) -> None:
    assert NOW.search(f"Asha drives a Skoda {when}")
    assert signals(f"I drive a Skoda {when}").now
    assert fragment("A Skoda.", f"What are you driving {when}?") == \
        f"I am driving a Skoda {when}."
    assert inverted(f"York's where we are {when}.") == f"We live in York {when}."


def test_a_question_reads_for_before_now_as_its_verbs() -> None:
    assert fragment("The Rovers.", "Who are you playing for now?") == \
        "I am playing for the Rovers now."


@pytest.mark.parametrize("when", NOT_PRESENT)
def test_no_reader_reads_a_moment_stay_past_or_habit_as_the_present(when: str) -> None:
    assert not NOW.search(f"Asha drives a Skoda {when}")
    assert not signals(f"I drive a Skoda {when}").now
    if when != "for now":
        assert fragment("A Skoda.", f"What are you driving {when}?") == "A Skoda."
    assert "live in York" not in inverted(f"York's where we are {when}.")


def test_now_that_says_its_clause_holds_now_to_both_sides() -> None:
    # "Now that ..." tells the reason after the change: the clause before it holds now.
    assert NOW.search("Asha cycles to work now that the evenings are lighter")
    assert signals("I cycle to work now that the evenings are lighter").now
