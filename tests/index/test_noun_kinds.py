"""Which attribute a statement is about, read from what its held nouns name (WordNet): a
cello is a musical instrument, a spaniel an animal, decaf a beverage; a noun seen, wished
for or another's is no value held, and without the lexicon nothing is read."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from index import ATTRIBUTES
from index.noun_kinds import held_nouns, kind_first, named_attribute


def _name(text: str) -> str | None:
    found = named_attribute(text)
    return None if found is None else ATTRIBUTES[found].name


@pytest.mark.parametrize("text,attribute", [
    ("the cello's taking over my evenings", "instrument"),
    ("Got myself a labrador puppy", "pet"),
    ("Pepper the tortoise is our only pet these days", "pet"),
    ("I'm on the oat lattes these days", "drink"),
    ("These days it's decaf only, doctor's orders.", "drink"),
    ("Traded the Fiesta in for a pickup in March", "vehicle"),
    ("Saturday mornings are all badminton now", "sport"),
    # a place the thing is taken to is where, not a thing held: "the bus"
    ("Lugging a double bass onto the bus for rehearsals", "instrument"),
])
def test_a_held_noun_names_its_attribute(wordnet: Any, text: str, attribute: str) -> None:
    assert _name(text) == attribute, held_nouns(text)


@pytest.mark.parametrize("text", [
    "Saw a lovely labrador in the park today.",       # seen, not held
    "I'd love a convertible one day.",                # a wish
    "My neighbour's beagle barks all night.",         # another's
    "I had chicken for dinner.",                      # meat before it is a bird
    "I drive a minivan and play the cello.",          # two attributes: neither
    "My sister teaches maths at a school in Derby.",  # nothing of a kind
])
def test_a_noun_not_held_or_of_no_one_kind_names_none(wordnet: Any, text: str) -> None:
    assert _name(text) is None, held_nouns(text)


def test_without_the_lexicon_nothing_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIFORM_LEXICON", "off")
    assert held_nouns("the cello's taking over my evenings") == []
    assert named_attribute("Got myself a labrador puppy") is None


def test_a_kind_decides_among_near_readings_never_against_a_clear_one() -> None:
    row = np.array([0.37, 0.33, 0.10], dtype=np.float32)
    raised = kind_first(row, 1, 0.03, 0.28, 0.08)
    assert int(np.argmax(raised)) == 1 and raised[1] == pytest.approx(0.40)
    far = np.array([0.39, 0.24, 0.10], dtype=np.float32)
    assert np.array_equal(kind_first(far, 1, 0.03, 0.28, 0.08), far)
