"""The memory an ending names by its words, when meaning alone does not tell.

An ending names its thing as said ("packed in the gym membership", "the Corsa"), and the
memory it ends often says it in a word of the same family rather than the same word: "a
member of PureGym" for "the gym membership" (a noun and its derivation, a brand compound
ending in the common noun). The model reads such pairs too far apart to be "clearly
meant" (``meant.ENDED_MIN``), and the ending was stored as an episode linked to nothing,
the memory it ends left current. So, failing meaning, the thing's own words (its head: the
words before a preposition, "the apron at the Bean Counter" is the apron) name the memory
when exactly one of the speaker's one-fact memories of the present shares most of them,
by stem or by a word of the same family: one a prefix of the other ("member" and
"membership"), or the longer a compound ending in the shorter ("puregym" and "gym").

A memory of a person, of another's, of an event or of an ending is no thing to end; the
speaker's name names nothing. Pure functions over texts; no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index import terms

from .holders import memory_holder, same_holder
from .named import ENDING
from .slots import PEOPLE
from .updates import FACT_WORDS, NOT_NOW, Memory, first_person, is_event

__all__ = ["held_now", "named_by_words", "similar_words", "sole_best"]

#: Where the thing's head ends: what it is at, of or for is another thing ("the apron at
#: the Bean Counter", "driving to work": the apron, the driving).
_PREPOSITION = re.compile(r"\s+(?:at|in|on|of|with|from|for|to|by|near|behind|after|before|"
                          r"about|over|into)\s+.*$", re.I)
#: Words too light to name a memory by: determiners, times, things in general.
_LIGHT = frozenset(terms(
    "the my our a an this that these those all whole thing things stuff time lot bit one ones "
    "old new last first day days week weeks month months year years good little big "
    "have has had get got go went gone do did done make made take took"))
_PERSON = "|".join(re.escape(p) for p in sorted(PEOPLE, key=len, reverse=True))
#: A person of the speaker's named in a memory of having them: no thing to end.
_A_PERSON = re.compile(rf"^(?:i|we)\s+(?:have|'ve\s+got|got)\s+(?:an?|one|two|three|four|\d+)"
                       rf"\s+(?:[\w-]+\s+){{0,2}}?(?:{_PERSON})s?\b", re.I)


#: The endings that derive a word of the family from its stem ("member" + "ship"); not
#: any letters after a prefix ("sing" and "single" are no family).
_SUFFIXES = frozenset("ship ships er ers ism ist ists ing ment ments ness ation al ic ian "
                      "ery ry hood dom ee ees or ors".split())


#: The subject and verb opening a memory's fact: "I drink", "we are", "I have got".
_VERB = re.compile(r"^(?:i|we)\s+(?:(?:am|are|have|has|do|'m|'re|'ve)\s+)?[\w'-]+\s*", re.I)


def similar_words(a: str, b: str) -> bool:
    """Whether two stemmed words are of one family: the same, one the other with a
    derivational ending (the shorter of four letters or more: "member", "membership"), or
    the longer a compound ending in the shorter (three letters or more, three more before
    it: "puregym", "gym")."""
    if a == b:
        return True
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and long.startswith(short) and long[len(short):] in _SUFFIXES or \
        len(short) >= 3 and len(long) >= len(short) + 3 and long.endswith(short)


def held_now(memory: Memory, who: str, person: re.Pattern[str] = _A_PERSON) -> str | None:
    """A one-fact memory of the speaker's of the present, of no person (``person``: a
    memory of having one, "I have a younger brother called Owen"): its fact, else None."""
    said = first_person(memory["content"], who)
    if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
            ENDING.search(said[0]) or NOT_NOW.search(said[0]) or \
            not same_holder(memory_holder(said[0]), "") or \
            not re.match(r"^(?:i|we)\s+(?!(?:was|were|did|used)\b)", said[0], re.I) or \
            person.match(said[0]):
        return None
    return said[0]


def named_by_words(thing: str, memories: Sequence[Memory], who: str,
                   skip: Sequence[str] = ()) -> Memory | None:
    """The one memory of the speaker's held now that the words of ``thing``'s head name
    most, by stem or family (:func:`similar_words`), when no other is named as much;
    None when none, a tie, or the head has no word of weight."""
    own = set(terms(who))
    words = set(terms(_PREPOSITION.sub("", thing))) - _LIGHT - own
    if not words:
        return None
    ranked = []
    for memory in memories:
        if memory["id"] in skip or (said := held_now(memory, who)) is None:
            continue
        # The memory's thing, not its verb: "drink coffee" ends no "I drink rooibos tea",
        # "played" no "I play the viola" (a thing unnamed is the question's, ``polarity``).
        theirs = set(terms(_VERB.sub("", said))) - _LIGHT - own
        shared = sum(1 for w in words if any(similar_words(w, t) for t in theirs))
        if shared:
            ranked.append((shared, memory))
    return sole_best(ranked)


def sole_best(ranked: list[tuple[int, Memory]]) -> Memory | None:
    """The memory named most, of (count, memory) pairs, when no other is named as much."""
    ranked = sorted(ranked, key=lambda pair: pair[0], reverse=True)
    if not ranked or len(ranked) > 1 and ranked[1][0] == ranked[0][0]:
        return None
    return ranked[0][1]
