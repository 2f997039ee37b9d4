"""Which attribute of the profile bank a statement is about, read from what its nouns name.

The bank (``profile_bank.py``) reads an attribute by meaning, and the small model knows
everyday nouns poorly: "the cello's taking over my evenings", "a spaniel puppy tearing
round the flat", "it's decaf only" fall under the bank's margins or answer another
question best ("evenings": a schedule). WordNet (``lexicon.py``) says what such a noun
*is*: a cello is a musical instrument, a spaniel an animal, decaf a beverage. So each
attribute whose values are things of a kind gets the WordNet kinds its values are
(:data:`KINDS`: the schema of the bank, one row per attribute, never a case's words), and
a statement whose held nouns name the kinds of exactly one attribute reads as that
attribute (:func:`named_attribute`), beside the embedding's reading
(:func:`kind_first`: agreement keeps it, a reading under the margins or of another
attribute near it is raised to it).

What a noun is read from: the content words of the statement, a two-word compound first
("double bass", "guinea pig"), then the word; not a proper name (a capitalised word past
the first: "Pepper the tortoise" is a tortoise, not a spice), not a function word. A noun
named but not held is no value: seen, heard, wished for or another person's ("saw a
saxophone in a window", "I'd love a convertible", "my neighbour's beagle": a clause of
perception or wish, or a possessive of another before it), and a noun whose senses name
the kinds of two attributes ("cricket": an insect and a sport) reads as neither. A word
WordNet does not know (a brand, "kombucha") says nothing: the embedding's reading alone
decides, as it did without the lexicon.
"""

from __future__ import annotations

import re

import numpy as np

from .lexicon import lexicon
from .profile_bank import ATTRIBUTES

__all__ = ["KINDS", "held_nouns", "kind_first", "named_attribute", "noun_attributes"]

#: The WordNet kinds the values of an attribute are (its name in ``profile_bank``): the
#: bank's schema told as kinds of things, not words of any case. An attribute told by a
#: name (a bank, an employer) or a place is none of them: WordNet knows no brands.
KINDS: dict[str, tuple[str, ...]] = {
    "pet": ("animal",),
    "instrument": ("musical instrument",),
    "drink": ("beverage",),
    "vehicle": ("motor vehicle", "car"),
    "sport": ("sport",),
    "computer": ("computer",),
    "phone": ("telephone",),
    "medication": ("medicine",),
    "language": ("natural language",),
    "music": ("music genre",),
}

#: What a value of an attribute is not, though a first sense says so: a word one of whose
#: first senses is a bicycle ("bike": a motorcycle first in WordNet, a bicycle in
#: everyday British talk) is how one gets about or a pastime, not the vehicle one drives.
_UNLESS: dict[str, tuple[str, ...]] = {"vehicle": ("bicycle",)}

#: Where each attribute of :data:`KINDS` stands in the bank.
_INDEX = {a.name: i for i, a in enumerate(ATTRIBUTES)}

#: Words that name no thing: determiners, pronouns, prepositions, auxiliaries, and the
#: adverbs of time and degree statements are told with.
_FUNCTION = frozenset("""a an the my our your his her their its this that these those i we
you he she they it me us him them of in on at to for with from by about as and or but is
am are was were be been being have has had do does did not no every each some any all one
own very so too just also now still then there here what which who when where how if than
these days nowadays really quite bit lot lots new old little big""".split())

#: A clause in which a noun is named but not held: perceived, met, visited, wished for,
#: looked at ("saw a lovely labrador in the park", "I'd love a convertible", "thinking of
#: getting a kitten").
_NOT_HELD = re.compile(
    r"\b(?:saw|seen|see|sees|seeing|watch(?:ed|es|ing)?|heard|hear(?:s|ing)?|met|meet(?:s|ing)?|"
    r"spotted|noticed|visit(?:ed|s|ing)?|admir(?:ed|es|ing)|"
    r"(?:would|'d|’d)\s+(?:love|like)|wish(?:es|ed)?|want(?:s|ed)?|fancy|fancies|"
    r"hop(?:e|es|ing)\s+(?:to|for)|dream(?:s|ing)?\s+of|thinking\s+(?:of|about)|"
    r"looking\s+(?:at|for|into)|one\s+day|some\s+day|someday)\b", re.I)

#: Another person's possession told before the noun: "my neighbour's", "her son's", "his".
_ANOTHERS = re.compile(r"(?:\b(?!(?:it|that|there|here|what|who|where|he|she|how|one|this)"
                       r"['’]s)\w+['’]s|\bhis|\bher)\s+(?:[a-z-]+\s+)?$", re.I)
#: A noun after a preposition of place or motion is where, not what is held: "lugging a
#: double bass onto the bus", "walk the dog round the park".
_WHERE = re.compile(r"\b(?:onto|into|to|from|at|round|around|near|past|through|across|under|"
                    r"behind|outside|inside|by|towards?)\s+(?:(?:a|an|the|my|our|their|his|her|"
                    r"this|that)\s+)?(?:[a-z-]+\s+)?$", re.I)


#: A word's possessive or contracted "is" ("the cello's taking over"): the noun alone.
_POSSESSIVE = re.compile(r"['’]s$")


def _clauses(text: str) -> list[str]:
    """The clauses of ``text``: split at punctuation and at the conjunctions that open one."""
    return [c for c in re.split(r"[.;:!?,]+|\s+(?:and|but|so|because|while|though)\s+", text)
            if c.strip()]


def held_nouns(text: str) -> list[str]:
    """The nouns ``text`` names as things held or done: each content word (a two-word
    compound first, when WordNet knows it as one), outside a clause of perception or wish
    (:data:`_NOT_HELD`), not after another's possessive (:data:`_ANOTHERS`), not a proper
    name (capitalised past a clause's first word)."""
    lex = lexicon()
    if lex is None:
        return []
    found: list[str] = []
    for clause in _clauses(text):
        if _NOT_HELD.search(clause):
            continue
        tokens = list(re.finditer(r"[A-Za-z][A-Za-z'’-]*", clause))
        skip = False
        for n, token in enumerate(tokens):
            if skip:
                skip = False
                continue
            word = _POSSESSIVE.sub("", token.group(0))
            if word.lower() in _FUNCTION or (n > 0 and word[0].isupper()):
                continue
            if _ANOTHERS.search(clause[:token.start()]) or _WHERE.search(clause[:token.start()]):
                continue    # "my neighbour's beagle": another's; "onto the bus": where
            if n + 1 < len(tokens):
                pair = f"{word} {_POSSESSIVE.sub('', tokens[n + 1].group(0))}".lower()
                if "_" not in pair and lex.knows(pair) and \
                        tokens[n + 1].group(0)[0].islower():
                    found.append(pair)
                    skip = True
                    continue
            found.append(word.lower())
    return found


def noun_attributes(noun: str) -> set[int]:
    """The attributes (bank indices) whose kinds ``noun`` is in its first sense (WordNet's
    most frequent: "chicken" is meat before it is a bird, "lager" a camp before a beer)."""
    lex = lexicon()
    if lex is None:
        return set()
    return {_INDEX[name] for name, kinds in KINDS.items()
            if any(lex.is_a(noun, kind, senses=1) for kind in kinds) and
            not any(lex.is_a(noun, kind) for kind in _UNLESS.get(name, ()))}


def named_attribute(text: str) -> int | None:
    """The one attribute (its index in the bank) that the held nouns of ``text`` name the
    kinds of, or None: none named, a noun of two attributes' kinds, or nouns of two
    attributes ("drove the van to the guitar lesson")."""
    named: set[int] = set()
    for noun in held_nouns(text):
        of = noun_attributes(noun)
        if len(of) > 1:
            return None
        named |= of
    return next(iter(named)) if len(named) == 1 else None


def kind_first(row: np.ndarray, attribute: int, lead: float, least: float,
               within: float) -> np.ndarray:
    """A statement's answers to the bank (``profile_bank.attribute_scores``) with
    ``attribute`` (read from its nouns, :func:`named_attribute`) answered best, ``lead``
    above its best other answer and at least ``least``, when the embedding reads it
    within ``within`` of its best: a noun's kind decides among near readings, never
    against a clear reading of another attribute far above it."""
    best = float(np.max(row))
    if float(row[attribute]) < best - within:
        return row
    raised = np.array(row, copy=True)
    others = np.delete(raised, attribute)
    raised[attribute] = max(float(raised[attribute]), float(others.max()) + lead, least)
    return raised
