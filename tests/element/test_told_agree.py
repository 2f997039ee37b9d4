"""The subconscious and recall read what a sentence tells of time by one set of lists
(``index/told.py``): said as now, an addition, not now. What the write side reads in a
person's words when it decides whether a statement replaces a remembered value
(``updates.signals``, ``present.present_state``), the read side reads in the stored
memory when it orders the values it found (``told.aside``, ``answers_under.told_now``),
so a statement the write side lets stand beside the old value for one of these reasons
is ordered by recall for the same reason. Each case is said by a person and stored as the
subconscious writes it (third person, the speaker named).
"""

from __future__ import annotations

import pytest

from element.agents.present import present_state
from element.agents.updates import signals
from index.answers_under import told_now
from index.told import ADDITION, CURRENT, NOT_NOW, NOW, aside

#: A value said as holding now: the write side reads a present state, the read side a
#: newer value that may go ahead of the old one.
NOW_SAID = [
    ("I'm a health visitor these days", "Asha is a health visitor these days"),
    ("I'm vegan nowadays", "Asha is vegan nowadays"),
    ("I'm on the night shift at the moment", "Asha is on the night shift at the moment"),
    ("I'm a third-year now", "Asha is a third-year now"),
    ("I've been at Aviva since March", "Asha has been at Aviva since March"),
]

#: One more value, beside the old one: never a replacement, on either side.
ADDED = [
    ("I also have a cat now", "Asha also has a cat now"),
    ("I've got a second car now", "Asha has got a second car now"),
    ("We've bought a holiday cottage in Wales now", "Asha's family has bought a holiday "
     "cottage in Wales now"),
    ("I'm learning Italian as well these days", "Asha is learning Italian as well these days"),
    ("I speak some Dutch too these days", "Asha speaks some Dutch too these days"),
]

#: Not the present: a plan or wish, a past habit, a stay. (Told with a change, "used to
#: live in Porto, moved to Lisbon", recall reads the change as the newer value:
#: ``told.CHANGE``.)
NOT_NOW_SAID = [
    ("I'm thinking of a job in Leeds", "Asha is thinking of a job in Leeds"),
    ("I'm going to be a nurse", "Asha is going to be a nurse"),
    ("I used to live in Porto", "Asha used to live in Porto"),
    ("I'm staying in Leeds for a few days", "Asha is staying in Leeds for a few days"),
    ("I'd love to live by the sea one day", "Asha would love to live by the sea one day"),
    # A wish or a stay that also says "now" or a change verb is still no present value:
    # the write side read these as not now while recall read "now" as the newer value.
    ("I'm thinking of moving to Leeds now", "Asha is thinking of moving to Leeds now"),
    ("I'd love to switch to oat milk", "Asha would love to switch to oat milk"),
    ("I'm staying at my mum's for a few days now that the flat has flooded",
     "Asha is staying at Asha's mum's for a "
     "few days now that the flat has flooded"),
    ("I moved in with my sister for a week", "Asha moved in with Asha's sister for a week"),
]

#: A span up to now ("for a few weeks now") is no stay: the value holds now, to both.
SPAN_TO_NOW = [
    ("I've been vegan for a few weeks now", "Asha has been vegan for a few weeks now"),
    ("I've been in Leeds for a couple of weeks now",
     "Asha has been in Leeds for a couple of weeks now"),
]


@pytest.mark.parametrize(("said", "stored"), NOW_SAID)
def test_said_as_now_is_now_to_both(said: str, stored: str) -> None:
    assert present_state(said) == "now"
    assert NOW.search(said) and CURRENT.search(stored)
    assert not signals(said).addition and not signals(said).not_now
    assert not aside(stored) and told_now([stored], ["fact"], 0) == {0}


@pytest.mark.parametrize(("said", "stored"), ADDED)
def test_an_addition_replaces_nothing_on_either_side(said: str, stored: str) -> None:
    assert signals(said).addition and not signals(said).replaces
    assert present_state(said) is None
    assert ADDITION.search(stored) and told_now([stored], ["fact"], 0) == frozenset()


@pytest.mark.parametrize(("said", "stored"), NOT_NOW_SAID)
def test_not_now_is_no_present_value_on_either_side(said: str, stored: str) -> None:
    assert signals(said).not_now and not signals(said).replaces
    assert present_state(said) is None
    assert NOT_NOW.search(stored) or aside(stored)
    assert aside(stored) and told_now([stored], ["fact"], 0) == frozenset()


def test_a_year_or_a_kind_is_no_second_one() -> None:
    """"a third-year", "a second-hand car": an ordinal of a value, not one more."""
    for said in ("I'm a third-year now", "I drive a second-hand Fiesta now"):
        assert not signals(said).addition
        assert not ADDITION.search(said.replace("I'm", "Asha is").replace("I ", "Asha "))


@pytest.mark.parametrize(("said", "stored"), SPAN_TO_NOW)
def test_a_span_up_to_now_is_no_stay_on_either_side(said: str, stored: str) -> None:
    assert not signals(said).not_now and not NOT_NOW.search(said)
    assert not aside(stored)


def test_a_change_told_in_a_sentence_of_its_own_beside_a_wish_is_the_present() -> None:
    """Each side reads a wish in its own sentence: the change told beside it holds."""
    assert not signals("I moved to Lisbon in May.").not_now
    assert not aside("Asha moved to Lisbon in May. Asha would love to buy a flat there one day.")
    assert aside("Asha moved to Lisbon and would love to buy a flat there one day.")
