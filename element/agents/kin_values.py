"""A new value of a many-valued attribute, told as what holds now, of one kind with the old.

The profile finder (``profile.py``) replaces a value by meaning only for a single-valued
attribute (a home, a job) unless a strong cue says a change ("swapped", "instead"): a
person may play two sports or two instruments, and a second is told as often as a new one.
But told as what holds *now* ("I play squash now" after "plays tennis at the club",
"these days it's the trumpet I practise" after "plays the clarinet"), a value of the very
kind the old one is answers the question the old one answered in its place: the speaker
says what their sport or their instrument is today. An addition says so ("too", "as
well", "a second": those statements never come here, ``Signals.replaces``).

What "of one kind" is: the nouns each statement holds (``index.held_nouns``, the subject's
name and its verb left out) share a kind deep in WordNet (``index.lexicon``: squash and
tennis are court games, a trumpet and a clarinet wind instruments, a latte and a
cappuccino coffee), few steps up from both, and are not one thing said twice. A shallow
kind shared ("beverage": wine at dinner and coffee in the morning are two drinks of a
day; "activity") is not enough. Not a kind of time ("mornings", "an hour": when, not
what), nor living things: a pet, a child, a friend is one more, not one in another's
place, unless an ending is told (the ending finders' reading). Without the lexicon
(``TRIFORM_LEXICON=off``, or a word it does not know: a brand, "padel") nothing is found
and the finder reads as it did.
"""

from __future__ import annotations

import re

from index import TOLD_NOWISH, held_nouns, lexicon

__all__ = ["of_a_kind", "KIN_DEPTH", "KIN_STEPS"]

#: How deep below WordNet's root the shared kind lies at least ("court game" 8, "wind
#: instrument" 8, "coffee" 6; "beverage" 5 and "activity" 5 are too general a kind).
KIN_DEPTH = 6
#: How many steps up from both nouns together the shared kind lies at most.
KIN_STEPS = 6
#: Kinds whose members are never a value replaced by a kind-mate: when, and who (a word's
#: first sense: "squash" is a plant before it is a game, and a game here).
_NOT_VALUES = ("time period", "time unit", "animal", "person")


def _nouns(text: str, who: str) -> list[str]:
    """The nouns ``text`` (third person, of ``who``) holds, past its subject and verb."""
    lead = re.match(rf"\s*{re.escape(who)}(?:'s)?\s+(\w+)", text) if who else None
    verb = lead[1].lower() if lead else ""
    own = {w.lower() for w in who.split()}
    return [n for n in held_nouns(text) if n not in own and n != verb]


def _not_value(noun: str) -> bool:
    """Whether ``noun`` names a time or a living being (:data:`_NOT_VALUES`)."""
    lex = lexicon()
    return lex is not None and any(lex.is_a(noun, kind, senses=1) for kind in _NOT_VALUES)


def of_a_kind(new: str, old: str, who: str) -> bool:
    """Whether ``new`` (a third-person statement of ``who``'s, told as what holds now)
    names a value of one kind with a value ``old`` (a stored fact) names, and not it."""
    if not TOLD_NOWISH.search(new):
        return False
    lex = lexicon()
    if lex is None:
        return False
    said, held = _nouns(new, who), _nouns(old, who)
    for noun in said:
        if noun in held or _not_value(noun):
            continue
        for other in held:
            if other in said or lex.same_thing(noun, other):
                continue
            kin = lex.kinship(noun, other)
            if kin is not None and kin.depth >= KIN_DEPTH and kin.steps <= KIN_STEPS and \
                    not _not_value(other):
                return True
    return False
