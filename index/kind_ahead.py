"""A newer value of one kind goes ahead of the older one (issue 23, item 5): "took up the
cello" weeks after "plays the violin".

A many-valued attribute (instruments, sports, drinks, languages, hobbies, music) holds
several values, so nothing supersedes, and ``recency.newer_first`` never groups its values
(a second pet or language is an addition). Yet a person who played the violin and has
"taken up the cello over the winter", or whose weekends "are all about badminton these
days" after squash, is asked "What instrument does Ana play?" and the newer is the one to
answer first. The embedding model cannot tell: "violin" and "cello" lie far apart for it.
WordNet's nouns can (``lexicon.py``): a cello and a violin are both a "bowed stringed
instrument", two steps apart, deep in the hierarchy; tea and coffee a "beverage", squash
and badminton a "court game". Two values that are things of one kind are one slot of the
attribute filled twice, the newer the one of now.

So, of a many-valued attribute asked, a newer fact or preference of a subject that answers
it (``recency.answering``) goes ahead of the subject's older values of it that rank above
it, when the two memories hold nouns of one deep kind (:func:`of_one_kind`) and the query
does not name the older's thing; both stay among the results. Never a past, a wish, an addition
("also", "as well", "a second"), an ending, nor another person's fact (the readings of
``told.py``): "used to play hockey", "would love to get into tea one day", "my son has
started guitar" keep their places. Where WordNet knows neither noun (brands, "padel"),
or no lexicon is provisioned, nothing moves: the other readings decide.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from .lexicon import Lexicon, lexicon
from .theirs import Theirs
from .profile_bank import RELATIONS
from .told import HOUSEHOLD, told_of

__all__ = ["KIND_DEPTH", "KIND_STEPS", "kind_ahead", "of_one_kind", "kin_nouns", "known_nouns",
           "held_by_subject"]

#: How deep below WordNet's root the shared kind must lie to be "one kind of thing"
#: ("beverage", "popular music" 5; "bowed stringed instrument" 9), where shallower kinds
#: are what any two things are ("artifact" 4, "time period" 4, "abstraction" 1).
KIND_DEPTH = 5
#: How many steps up (from both words, summed) the shared kind may lie: siblings (2) and
#: cousins (3: "lasagne"/"risotto" under "dish", swimming/rowing under "sport"); a dog and
#: a cat (4, "carnivore") or golf and tennis (4) are two pets, two sports.
KIND_STEPS = 3
#: What two held values are never one kind of: persons (a friend and a neighbour, two
#: Europeans), times ("most evenings", "Saturdays"), measures ("three cups", "a pot"),
#: places ("the leisure centre", "a rescue centre": an "area" with "Labrador" the region
#: and with "clears" the clearing): the words around a value. Read of the shared kind,
#: not of each word: "Portuguese" is a person too, in one of its senses, and a language.
_NOT_VALUES = ("person", "time period", "measure", "location")
#: Function words WordNet also knows as nouns ("a" the angstrom, "in" the inch, "I" iodine,
#: "be" beryllium): never a held thing.
_FUNCTION = frozenset("""
a an the and or but nor so yet if then than as at by for from in into of off on onto out
over to up with without about after before since until while during through i me my mine
we us our you your he him his she her it its they them their this that these those who
whom whose which what where when why how is am are was were be been being do does did
have has had having go goes went gone going get gets got all any each every some no not
one two three four five six seven eight nine ten eleven twelve lot lots bit most more
much many few now just still also too very really well
""".split())
_WORD = re.compile(r"[A-Za-z][A-Za-z-]*")


def kind_ahead(order: list[int], owners: Sequence[Any], newness: Sequence[float],
               texts: Sequence[str | None], facts: Sequence[bool], values: Sequence[bool],
               best: list[bool], aside: Sequence[bool], relations: frozenset[str],
               query: str = "", anyone: tuple[Sequence[bool], Sequence[bool]] | None = None
               ) -> list[int]:
    """``order`` with each newer fact or preference (``facts``) that answers the asked
    many-valued attribute (``values``) moved ahead of the first of its subject's older
    values of it ranked above it that hold a thing of one kind with it
    (:func:`of_one_kind`), however far apart their scores: two statements of one slot
    differ in score by what else each says ("drinks a lot of coffee, usually three cups
    before lunch" .85, "new thing is green tea; gets through a whole pot every morning"
    .48). Not past an older value whose thing (:func:`kin_nouns`) the query names
    (``query``, its words: "Does Ana still play the violin?", "Does Priya drink coffee?"
    ask of the older; "What is Marta's hobby?" of both, though the older says "hobby").
    ``aside``: a past, a wish, an addition or an ending (never moved); ``relations``: the
    people of the subject's the query asks about (another's fact is not moved). The
    subject's results it passes keep their order; nothing moves across subjects or
    general memories. ``best`` is updated in place: passing a value that answers the
    question best, it does too (``recency._answers_first``).

    ``anyone``: which results answer the attribute whoever they name, and which of those
    best (``recency.answering(anyone=True)``): a newer one naming another person of the
    subject's is moved when the nearest holder before its thing is the subject
    (:func:`held_by_subject`: "Farah's sister talked Farah into rowing", "the neighbours
    have been patient since Ottilie took up the cello"), never when it is the other
    person ("Ana's son has started cello lessons")."""
    lex = lexicon()
    if lex is None or sum(bool(v) for v in values) < 1:
        return order
    wide, wide_best = anyone or (values, best)
    out = list(order)
    for c in order:
        if not (wide[c] and facts[c]) or owners[c] is None:
            continue
        theirs = Theirs.of(out, owners, c)
        mine = theirs.mine
        # Its words are read only when an older value of its subject ranks above it.
        older = [k for k in range(theirs.at) if values[mine[k]] and facts[mine[k]] and
                 newness[mine[k]] < newness[c]]
        if not older or aside[c]:
            continue
        asks = known_nouns(query, lex)
        kin = next((k for k in older if (kinds := kin_nouns(texts[mine[k]], texts[c], lex))
                    and not kinds & asks and _own(texts[mine[k]], texts[c], lex,
                                                  values[c], relations)), None)
        if kin is None:
            continue
        best[c] = best[c] or best[mine[kin]] or (not values[c] and wide_best[c])
        theirs.move(kin)
    return out


def _own(older: str | None, newer: str | None, lex: Lexicon, value: bool,
         relations: frozenset[str]) -> bool:
    """Whether the newer's thing of one kind with the older's is the subject's own: a
    value naming no other person of the subject's as whose it is (``told.told_of``), or
    one naming others whose thing the subject holds (:func:`held_by_subject`)."""
    said = newer or ""
    if value and told_of(said) <= relations:
        return True
    things = kin_nouns(said, older, lex)
    return bool(things) and not relations and held_by_subject(said, older or "", things)


#: A word, with a possessive's ending ("Farah's").
_WORDS = re.compile(r"[A-Za-z][\w'-]*")


def held_by_subject(newer: str, older: str, things: frozenset[str]) -> bool:
    """Whether, in the sentence of ``newer`` that names one of ``things``, the nearest
    person named before it is the subject (a capitalised name ``older`` names too, not as
    a possessor: "Farah's sister talked Farah into rowing", "... since Ottilie took up the
    cello"), not another person of the subject's (``RELATIONS``: "Ana's son has started
    cello lessons", "Lars's girlfriend took up the bass guitar") nor another name."""
    names = {w.removesuffix("'s") for w in _WORDS.findall(older) if w[0].isupper()}
    for sentence in re.split(r"(?<=[.!?;])\s+", newer):
        words = _WORDS.findall(sentence)
        low = [w.lower() for w in words]
        at = next((i for i, w in enumerate(low) for t in things
                   if t.split() == low[i:i + len(t.split())]), None)
        if at is None:
            continue
        for w in reversed(words[:at]):
            if w.lower() in RELATIONS and w.lower() not in HOUSEHOLD:
                return False
            if w[0].isupper() and w not in _OPENERS:
                return w in names and not w.endswith("'s")
        return False
    return False


#: Capitalised words that open a sentence and name no one.
_OPENERS = frozenset("""
The A An And But So Since Lately Recently These This That Now Then After Before When While
On In At For From With Over For Every Most Last Next Back Like I
""".split())


def of_one_kind(older: str | None, newer: str | None, lex: Lexicon | None = None) -> bool:
    """Whether two memories hold two different things of one kind: a noun of each (not the
    same word, not one a kind of the other) whose nearest shared kind in WordNet lies
    :data:`KIND_STEPS` up at most and :data:`KIND_DEPTH` deep at least ("violin"/"cello":
    "bowed stringed instrument"; "coffee"/"green tea": "beverage"). False where WordNet
    knows no such pair, or there is no lexicon."""
    return bool(kin_nouns(older, newer, lex))


def kin_nouns(older: str | None, newer: str | None,
              lex: Lexicon | None = None) -> frozenset[str]:
    """The nouns of ``older`` of one kind with a noun of ``newer`` (:func:`of_one_kind`):
    the older value's thing ("violin" of "plays the violin in a community orchestra")."""
    lex = lex or lexicon()
    if lex is None or not older or not newer:
        return frozenset()
    mine, theirs = known_nouns(older, lex), known_nouns(newer, lex)
    return frozenset(a for a in mine - theirs if any(_one_kind(a, b, lex)
                                                     for b in theirs - mine))


def _one_kind(a: str, b: str, lex: Lexicon) -> bool:
    if lex.same_thing(a, b) or lex.is_a(a, b) or lex.is_a(b, a):
        return False      # one thing, or a thing and its kind ("a tabby" of "a cat")
    kin = lex.kinship(a, b)
    return kin is not None and kin.steps <= KIND_STEPS and kin.depth >= KIND_DEPTH and \
        not any(lex.is_a(kin.kind, k) for k in _NOT_VALUES)


@lru_cache(maxsize=4096)
def known_nouns(text: str, lex: Lexicon) -> frozenset[str]:
    """The nouns of ``text`` WordNet knows that may name a held thing: its words and pairs
    of words ("green tea", "bass guitar"), no function word. (Unlike
    ``noun_kinds.held_nouns``, which reads a statement's held things, nothing is left out
    here: a query's or a memory's words are compared, not read for who holds them.)"""
    words = [w.lower() for w in _WORD.findall(text.replace("'s ", " "))]
    found = {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)
             if a not in _FUNCTION and b not in _FUNCTION and lex.knows(f"{a} {b}")}
    found |= {w for w in words if len(w) > 2 and w not in _FUNCTION and lex.knows(w)}
    return frozenset(found)
