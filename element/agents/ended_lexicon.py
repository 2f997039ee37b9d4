"""The memory an ending ends, found by what its thing is (WordNet's nouns).

An ending names its thing by its kind, by another word for it, or by the specific name
where the memory had the broad word, and the small model does not read the two as one
thing: "we had to rehome the dog" after "we've got a cocker spaniel called Biscuit", "the
bunnies went to my niece" after "we keep two rabbits", "I gave up the flat" after "I rent
a studio in Clapton", "our old labrador died" after "we have a dog". Meaning
(``meant.ENDED_MIN``), the memory's words (``ended_words``) and the one-valued kind of a
profile question (``ended_kind``: not "the dog", pets add up) all fall short, and the
ending was stored as an episode linked to nothing, the old fact left current.

The lexicon (``index.lexicon``) knows what a noun names. The ending's head noun (a
compound first: "the exercise machine") and a noun of a memory's held thing (the words
after its verb, a compound first: "cocker spaniel") are one thing when they share a sense
(``same_thing``), or when one is a kind of the other (``is_a``: a spaniel is a dog, a
bunny a rabbit, a kayak a boat) and they are close kin: few steps apart
(:data:`MAX_STEPS`) under a kind of some depth (:data:`MIN_DEPTH`), so "the animal" ends
no "I have a cat" and a violin no piano (kin, neither a kind of the other).

A memory's thing WordNet does not know (a brand or a model: "a Skoda Fabia", "my
Brompton", "a Kawasaki Ninja") is read by its frame: the verb that holds it says its kind
(:data:`FRAMES`: one drives a car, rides a bicycle, a motorcycle or a horse, plays an
instrument), and the ending's noun must be that kind, a kind of it, or a kind it is ("sold
the car", "my bike", "the motorbike", "the vehicle"). Only a name (a capitalised word
unknown to WordNet) is read by its frame: "I play padel" names no instrument.

Exactly one of the speaker's one-fact memories held now must be so related (two dogs: no
link). Without the lexicon (``lexicon()`` None, ``TRIFORM_LEXICON=off``) nothing is
found, as before. Pure functions over texts and the lexicon; closed classes of English (the
verbs of a frame, determiners, light words); no case, no benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from index import Lexicon, lexicon

from .ended_words import held_now
from .updates import Memory

__all__ = ["FRAMES", "MAX_STEPS", "MIN_DEPTH", "ended_by_what_it_is", "one_thing"]

#: How far a word may lie under its kind: a spaniel is 3 steps under "dog", a van 3 under
#: "vehicle", a cat 7 under "animal" (too general to mean it).
MAX_STEPS = 5
#: How deep the kind they share must lie below WordNet's root: "musical instrument",
#: "vehicle", "machine", "dwelling" lie at 7; "animal" and "device" (6) are too general to
#: name one held thing by ("the animal"), "artifact" (4) holds everything.
MIN_DEPTH = 7

#: The kinds a verb's object is, for a name WordNet does not know ("I drive a Skoda").
FRAMES: dict[str, tuple[str, ...]] = {
    "drive": ("car",), "drives": ("car",),
    "ride": ("bicycle", "motorcycle", "horse"), "rides": ("bicycle", "motorcycle", "horse"),
    "cycle": ("bicycle",), "cycles": ("bicycle",),
    "play": ("musical instrument",), "plays": ("musical instrument",),
    "sail": ("boat",), "sails": ("boat",),
    "fly": ("airplane",), "flies": ("airplane",),
}

#: The subject and its auxiliaries opening a memory's fact ("we have got", "I'm").
_SUBJECT = re.compile(r"^(?:i|we)(?:\s+(?:am|are|have|has|had|do|does|'m|'re|'ve|also|still|"
                      r"now|currently|just))*\s+", re.I)
#: Where the thing's head ends: what it is at, of, for or with is another thing.
_PREPOSITION = re.compile(r"\s+(?:at|in|on|of|with|from|for|to|by|near|behind|after|before|"
                          r"about|over|into|and|that|which|who|when)\b.*$", re.I)
#: Words that name no thing: determiners, pronouns, numbers, light adjectives and nouns.
_LIGHT = frozenset("""a an the my our your his her their its this that these those some any
all both each every no one two three four five six seven eight nine ten couple pair few
lot lots bit thing things stuff one ones old new little big last first final whole same
other own current local trusty faithful beloved poor battered ancient expensive fancy
lovely gorgeous little i we me us it them he she they you time times day days week weeks
month months year years weekend weekends""".split())
#: A thing the speaker's possessive marks, to its end ("on my Brompton", "on their plot":
#: a memory rewritten in the third person says "their").
_POSSESSED = re.compile(r"\b(?:my|our|their)\s+(?P<x>[\w' -]+)", re.I)
#: A name given after the thing ("a spaniel called Biscuit"): a name, not a kind.
_CALLED = re.compile(r"\s+(?:called|named|nicknamed|known\s+as)\s+.*$", re.I)


def _words(text: str) -> list[str]:
    return re.findall(r"[A-Za-z][\w'-]*", text)


def _head_nouns(thing: str, lex: Lexicon) -> list[str]:
    """The ending's thing as WordNet knows it: its last two words as a compound ("the
    exercise machine"), else its last word; [] for a light or unknown head."""
    words = [w.lower() for w in _words(_PREPOSITION.sub("", thing.strip(" .")))]
    while words and words[0] in _LIGHT:
        words = words[1:]
    if not words or words[-1] in _LIGHT:
        return []
    heads = [" ".join(words[-2:])] if len(words) >= 2 else []
    heads += [words[-1]]
    return [h for h in heads if lex.knows(h)][:1]


def _memory_things(fact: str) -> tuple[list[str], list[str], str]:
    """A memory's fact read for its thing: the nouns of what it holds (compounds first,
    names left out), the names (capitalised words) in it, and its verb. What it holds is
    its verb's object up to a preposition ("a cocker spaniel", "two rabbits") and what a
    possessive of the speaker's marks ("to the office on my Brompton"); a noun in passing
    is none ("brainstorming ways to help with job training" holds no job)."""
    rest = _CALLED.sub("", _SUBJECT.sub("", fact.strip(" .")))
    words = _words(rest)
    if not words:
        return [], [], ""
    verb = words[0].lower()
    held = [_PREPOSITION.sub("", rest[len(words[0]):])]
    held += [_PREPOSITION.sub("", m["x"]) for m in _POSSESSED.finditer(rest)]
    nouns: list[str] = []
    names: list[str] = []
    for part in held:
        said = _words(part)
        names += [w for w in said if w[0].isupper()]
        common = [w.lower() for w in said if not w[0].isupper() and w.lower() not in _LIGHT]
        nouns += [f"{a} {b}" for a, b in zip(common, common[1:], strict=False)] + common
    return nouns, names, verb


def one_thing(a: str, b: str, lex: Lexicon) -> bool:
    """Whether ``a`` and ``b`` name one thing: a shared sense, or one a kind of the other
    and close kin (:data:`MAX_STEPS`, :data:`MIN_DEPTH`)."""
    if lex.same_thing(a, b):
        return True
    return any(kin is not None and kin.steps <= MAX_STEPS and kin.depth >= MIN_DEPTH
               for kin in (lex.kind_of(a, b), lex.kind_of(b, a)))


def _related(head: str, fact: str, lex: Lexicon) -> bool:
    """Whether the ending's ``head`` names the thing a memory's ``fact`` holds: by a noun
    of it, or, for a name WordNet does not know, by the kind its verb's frame says."""
    nouns, names, verb = _memory_things(fact)
    if any(lex.knows(n) and one_thing(head, n, lex) for n in nouns):
        return True
    kinds = FRAMES.get(verb, ())
    unknown = [n for n in names if not lex.knows(n)]
    return bool(kinds and unknown) and any(one_thing(head, kind, lex) for kind in kinds)


def ended_by_what_it_is(thing: str, memories: Sequence[Memory], who: str,
                        skip: Sequence[str] = ()) -> Memory | None:
    """The speaker's one memory held now whose thing the ending's ``thing`` names by what
    it is (see the module's note), else None (no lexicon, no such memory, or several)."""
    lex = lexicon()
    if lex is None:
        return None
    heads = _head_nouns(thing, lex)
    if not heads:
        return None
    found = [memory for memory in memories
             if memory["id"] not in skip and (fact := held_now(memory, who)) is not None
             and _related(heads[0], fact, lex)]
    return found[0] if len(found) == 1 else None
