"""element/agents/kinds.py: two things of one kind ("the tennis club", "the golf club") are
told apart by grammar, so an ending of one never ends the other; a thing named again, or
named in a switch beside the other, is the same.

The sentences are written for these tests (none is a case of ``bench/data``).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from element.agents.kinds import other_named, other_of_kind


@pytest.mark.parametrize("said,held", [
    ("I quit the squash club in March.", "Ana is a member of the rugby club."),
    ("I've stopped going to the Friday market.", "Ana shops at the Sunday market."),
    ("We sold the electric bike.", "Ana rides a mountain bike to work."),
])
def test_the_same_noun_with_another_modifier_is_another_thing(said, held):
    assert other_of_kind(said, held)


@pytest.mark.parametrize("said,held", [
    # The same thing, said again or in other words.
    ("I let my gym membership run out.", "Ana has a gym membership."),
    ("I haven't needed glasses since the operation.", "Ana wears glasses."),
    ("The Thursday choir is behind me.", "Ana sings in the Thursday choir."),
    # A switch names both: the old thing is named, so this is not another one.
    ("I left the squash club and joined the rugby club.", "Ana is a member of the squash club."),
    # A verb and its object are no modifier and noun.
    ("I don't play darts anymore.", "Ana throws darts on Fridays."),
])
def test_the_same_thing_or_no_modifier_is_not_another(said, held):
    assert not other_of_kind(said, held)


_WORD = st.sampled_from("club market bike choir office team shop class league band".split())
_MOD = st.sampled_from("tennis golf Sunday Friday electric mountain London Leeds".split())


@given(_MOD, _WORD, st.sampled_from(["I quit the", "We left the", "No more of the"]))
def test_a_text_is_never_another_thing_than_itself(mod, head, opening):
    """Whatever it names, a statement never names a thing of another kind than the one
    it names: the memory saying the same thing is never told apart from it."""
    said = f"{opening} {mod} {head}."
    assert not other_of_kind(said, said)
    assert not other_of_kind(said, f"Ana goes to the {mod} {head}.")


@pytest.mark.parametrize("said,held,other", [
    ("I haven't been to Paris in years", "Ana lives in Lyon.", True),
    ("I haven't been to the Crown and Anchor in months", "Ana drinks at the Crown and Anchor.",
     False),
    # A time is no thing's name.
    ("Not a cigarette since Boxing Day", "Ana smokes Camel Blue.", False),
    ("I haven't set foot in a gym since March", "Ana trains at the gym.", False),
])
def test_a_negation_naming_another_proper_name_is_of_another_thing(said, held, other):
    assert other_named(said, held) is other
