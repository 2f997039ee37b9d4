"""Which stored memory a change statement makes stale, for the rule evaluator: named by
its old value or attribute (a thing ended, a value named again, a move, the same relation,
the attribute's words), else the clearly closest by attribute (``updates.similar_target``)
with a strong cue, or a short statement of what holds now. Split from
``rule_evaluator.py``, which decides what each statement writes.
"""

from __future__ import annotations

import re
from typing import Any

from .addressed import unaddressed
from .cues import ranked
from .decisions import Pool
from .holding import not_holding
from .meaning import SIMILAR_WORDS, several, still_held
from .meant import replaced_unlike
from .profile import holds_thing, profiles, whose
from .relation import relation_target
from .restated import restate
from .rules import point_key
from .slots import PEOPLE, adds_up, named_target, same_slot, slot_target
from .updates import (NOW_WORDS, SIMILAR_MIN, SIMILAR_MIN_NOW, SIMILAR_MIN_WEAK, Signals,
                      key_target, moved_to, signals, similar_target, value_target)

__all__ = ["change_target", "short_now", "now_alone", "one_more_new"]


def short_now(sentence: str, sig: Signals) -> bool:
    """A short statement of what holds now, with no other cue ("I'm on day shifts now"),
    not of a taste ("I'm loving X right now" adds a taste, replaces nothing)."""
    return sig.now and len(sentence.split()) <= NOW_WORDS and not _TASTE.search(sentence)


def now_alone(sentence: str, sig: Signals) -> bool:
    """A short statement of what holds now (``short_now``) that may replace a memory far
    closer to it than any other (``updates.NOW_CLOSE``): the speaker's by the strict reading
    (``profile.whose``: "my brother has a flat in Brighton now" is his), of one thing (not
    "two phones") and not only of attributes that add up ("I have a dog called Rex now"
    after "I have a cat" is one more)."""
    return short_now(sentence, sig) and whose(sentence) == "" and not several(sentence) \
        and not adds_up(sentence)


def one_more_new(sentence: str, sig: Signals) -> bool:
    """Whether the only change ``sentence`` tells is a new thing of a kind one holds several
    of ("Picked up our new kitten yesterday" beside the Labrador, "my new guitar"): one
    more, not the one held now; an ending told beside it ("after Rex died") is read apart
    (``sig.ended``)."""
    return bool(sig.things) and not sig.ended and all(adds_up(t) for t in sig.things) and \
        not signals(_NEW.sub("", sentence)).change


#: The word that makes a thing the new one ("our new kitten", "my brand new guitar").
_NEW = re.compile(r"\b(?:brand[\s-]+)?new\b\s*", re.I)


#: A taste: "I'm loving X right now" adds one, replaces nothing.
_TASTE = re.compile(r"\b(?:lov|lik|enjoy|prefer|hat|ador|into|fan)(?:e|es|ed|ing|s)?\b", re.I)


def change_target(sentence: str, content: str, sig: Signals, pool: Pool, who: str,
                  skip: list[str], keyed: bool = False) -> dict[str, Any] | None:
    """The memory a change statement makes stale: named by its old value or attribute,
    else (a strong cue, or any for a ``keyed`` statement) the clearly closest by
    attribute (``updates.py``); never one the statement gives no new value (a loan, a
    repair, a shop used, a person of the speaker's, a part of its thing, a stay, a plan
    still under way: ``holding.py``). The listener's name called ("Hey Nate, ...") is no
    value of the speaker's (``addressed.py``)."""
    sentence, content = unaddressed(sentence), unaddressed(content)
    found = _change_target(sentence, content, sig, pool, who, skip, keyed)
    return None if found is not None and not_holding(sentence, found, who) else found


def _change_target(sentence: str, content: str, sig: Signals, pool: Pool, who: str,
                   skip: list[str], keyed: bool) -> dict[str, Any] | None:
    memories = pool.memories()
    things = [" ".join(v.split()[1:]) for v in sig.ended
              if v.split()[0].lower() in ("my", "our") and len(v.split()) > 1]
    for thing in things + list(sig.things):
        found = key_target(point_key(thing, sentence), memories, who, skip)
        # A new thing of another person's ("my wife got a new job at KPMG") is not the
        # speaker's: only its holder's memory of it (``profile.holds_thing``).
        if found is not None and holds_thing(sentence, thing, found["content"], who):
            return found
    # What the speaker ended is theirs ("I cut out pasta" after "my doctor put me on a
    # diet"); what ended by itself is named in the memory ("Rex passed away"); what a
    # person ended is theirs ("my dad is not drinking anymore").
    by = whose(sentence)
    found = value_target(sig.ended, memories, who, by if set(by.split()) & PEOPLE else "",
                         skip) if sig.ended else None
    if found is not None:
        return found
    # The speaker's old value named again beside a new one of their own ("Equinox got
    # too pricey, I'm at Blink now"): the one fact that names it.
    if sig.change and sig.replaces and \
            (found := named_target(sentence, memories, who, skip)) is not None:
        return found
    # A move of the speaker's to a named place, wherever in the sentence ("we packed
    # up and moved to Denver"): where they live.
    if not sig.holder and moved_to(sentence):
        found = key_target("fact:location", memories, who, skip)
        if found is not None and restate("fact:location", sentence, who, found["content"]):
            return found
    # The same relation with a new value, said to hold now ("I'm playing for Kingston
    # Town now" after "I play for Hilltop FC").
    if not sig.holder and sig.change and \
            (found := relation_target(sentence, memories, who, skip)) is not None:
        return found
    # The same attribute by its words ("the keys to our new house in Walthamstow"
    # after "I rent a flat in Camden"): a statement, not a story.
    if sig.change and len(sentence.split()) <= SIMILAR_WORDS and \
            (found := slot_target(sentence, sig.holder, sig.strong, memories, who,
                                  skip)) is not None:
        return None if sig.ended and _unlike(content, found, who, pool) else found
    if ranked(sentence):
        return None     # "she's now one of the oldest in her year": a rank, not an age
    if sig.strong:
        least = SIMILAR_MIN
    elif (keyed or sig.holder) and sig.change:
        least = SIMILAR_MIN_WEAK
    elif short_now(sentence, sig):
        least = SIMILAR_MIN_NOW
    else:
        return None
    if len(sentence.split()) > SIMILAR_WORDS:
        return None     # a story, not a statement of what changed
    embedder = pool.embedder()
    if embedder is None:
        return None
    near = [m for m in pool.nearest(content, 10) if m["id"] not in skip]
    try:
        found = similar_target(content, near, who, sig.holder, embedder.embed, least,
                               clear=sig.strong and not sig.addition,
                               now=now_alone(sentence, sig),
                               fits=(lambda said: same_slot(sentence, said))
                               if sig.strong else None)
    except Exception:   # a failing model finds nothing: the statement is added
        return None
    if found is not None and (still_held(found, content, sig, who) or
                              sig.ended and _unlike(content, found, who, pool)):
        return None
    if found is not None and sig.ended and \
            replaced_unlike(_SPLIT.split(sentence), sig.ended[0], found, who, embedder.embed):
        return None     # "I quit Netflix, I watch YouTube instead": no novel (``meant``)
    return found


#: Where a statement's clauses meet (the replacement told beside an ending).
_SPLIT = re.compile(r"\s*[,;:]\s*|\s+(?:so|but|and)\s+", re.I)


#: Below both of these, a statement that ends a thing it names ("gave up on the choir")
#: and the memory a slot or the nearest text found are about two attributes
#: (``profile.py``: their centred answers to the profile bank, and their stripped texts;
#: such pairs measure about .2 and .1): a new value of one attribute answers the bank
#: as its old value does.
UNLIKE_ALIKE = 0.3
UNLIKE_SIMILAR = 0.25


def _unlike(content: str, memory: dict[str, Any], who: str, pool: Pool) -> bool:
    """Whether a change statement (third person) that ends a thing it names (asked only
    then: "retrained and is a teacher now" ends nothing named, and its job is told
    beside a clause of no value) and the memory found for it answer the
    profile bank unalike and are unalike in words (``UNLIKE_ALIKE``, ``UNLIKE_SIMILAR``):
    the ending of one thing ("gave up on the choir") is not a new value of an attribute
    of the memory's ("is the secretary of the book club")."""
    embedder = pool.embedder()
    if embedder is None:
        return False
    try:
        new, old = profiles([content, memory["content"]], who, embedder)
    except Exception:   # a failing model keeps the finder's reading
        return False
    return float(new.answers @ old.answers) < UNLIKE_ALIKE and \
        float(new.vector @ old.vector) < UNLIKE_SIMILAR
