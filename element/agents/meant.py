"""Which of the speaker's memories an ending means, when the thing ended is named in
other words than the memory's (``ending_grammar.py`` reads the ending's grammar).

The thing ended ("coffee", "a cyclist", "the allotment") is compared with each of the
speaker's one-fact memories among a search's hits: first by its own words, when all of them
are in one memory only ("the allotment" and "rents an allotment by the river": the model
reads them .28 apart); else by the cosine of the thing and the memory with its subject's
name and change words stripped (``updates.strip_for_attribute``), the memory read as it is
and as its activity ("cycles to work every day" as "cycling to work every day", near "a
cyclist"), the closest meant when close enough (``ENDED_MIN``) and clearly closer than the
next (``ENDED_MARGIN``). Pure functions over texts and an embedding function; no case, no
benchmark, no name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import numpy as np

from index import terms

from .episode_words import PAST
from .holders import memory_holder, same_holder
from .named import ENDING
from .profile import values
from .slots import another_value
from .updates import (NOT_NOW, FACT_WORDS, Memory, first_person, is_event, nearest_attribute,
                      strip_for_attribute)

__all__ = ["ENDED_MIN", "ENDED_MARGIN", "ACTIVITY_COST", "REPLACED_MIN", "activity",
           "ended_by_meaning", "names_another", "replaced_unlike"]

#: The least cosine of the thing ended and a memory (both stripped) for the memory to be
#: the one ended; an unrelated fact of the same person scores under .3 ("the food bank"
#: and "takes the bus to work" .25), the one meant in other words over it ("red meat" and
#: "eats steak a couple of times a week" .38, "caffeine" and "drinks five cups of coffee a
#: day" .51).
ENDED_MIN = 0.33
#: How much closer than the next memory it must be.
ENDED_MARGIN = 0.1


def ended_by_meaning(thing: str, candidates: Sequence[Memory], who: str,
                     embed: Callable[[list[str]], np.ndarray],
                     skip: Sequence[str] = (), holder: str = "",
                     chosen: bool = False) -> Memory | None:
    """The speaker's one-fact memory among ``candidates`` (a search's hits for ``thing``)
    whose fact ``thing`` names in other words: at least ``ENDED_MIN`` and ``ENDED_MARGIN``
    closer than the next (see the module's note); of ``holder``'s (a person of the
    speaker's: "dad") when given. A thing that names nothing but a pronoun and a light
    verb ("got it" of "finally got it done") means no memory; a thing naming a value
    (a name: "my job at Door Dash") means no memory naming others and not it ("works at
    Google"): another thing of the same kind; nor, ended, another value of an attribute
    that adds up ("the piano lessons" of "plays the cello", ``slots.another_value``).
    ``chosen``: the thing is a value chosen in the memory's place ("it's green tea for
    me these days" of "drinks black coffee"), where another value is what is meant."""
    first = thing.split()[0].lower() if thing.split() else ""
    bare = len(thing.split()) == 1 and (first in PAST or first.endswith("ed"))
    words = set(terms(thing)) - _LIGHT_TERMS
    if not words and not bare:
        return None
    named = values("x " + thing, who)
    pool = []
    for memory in candidates:
        if memory["id"] in skip:
            continue
        if named and names_another(thing, memory["content"], who, named) or \
                places_apart(thing, memory["content"]):
            continue    # "my job at Door Dash" is no job at Google
        said = first_person(memory["content"], who)
        if len(said) != 1 or len(said[0].split()) > FACT_WORDS or is_event(said[0]) or \
                ENDING.search(said[0]) or NOT_NOW.search(said[0]):
            continue
        if not chosen and another_value(thing, said[0]):
            continue    # "the piano lessons" end no "plays the cello": one of many
        if not same_holder(memory_holder(said[0]), holder):
            continue
        pool.append(memory)
    if not pool:
        return None
    # A thing said by a bare past verb ("haven't played in months") is an answer's
    # ellipsis, its object left to what was asked (``polarity.py``): read as said.
    # The thing named in the memory's own words, and in no other's ("the allotment" and
    # "rents an allotment by the river", .28 by the model): that memory is meant.
    if words and not bare:
        naming = [m for m in pool if words <= set(terms(first_person(m["content"], who)[0]))]
        if len(naming) == 1:
            return naming[0]
    closest, best, second = (nearest_attribute if bare else _nearest_activity)(
        thing, pool, who, embed)
    return closest if best >= ENDED_MIN and best - second >= ENDED_MARGIN else None


def names_another(thing: str, content: str, who: str,
                  named: frozenset[str] | None = None) -> bool:
    """Whether ``thing`` names a value (``named``, else read from it) and ``content`` names
    others and not it: "my job at Door Dash" and "works at Google" are two jobs."""
    named = values("x " + thing, who) if named is None else named
    return bool(named) and bool(_named(content, who)) and \
        not _shares(named, thing, content, who)


#: Where a thing is or is done, told unnamed: "at the garden centre", "for a charity".
_PLACE = re.compile(r"\b(?:at|for)\s+(?:the|a|an|my|our|their)\s+((?:[\w'-]+\s+){0,2}[\w'-]+)",
                    re.I)


def places_apart(thing: str, content: str) -> bool:
    """Whether ``thing`` and ``content`` each name where they are by a phrase of its own
    (:data:`_PLACE`) and the two share no content word: "my job at the garden centre"
    and "volunteers at the food bank" are two things, as a name apart tells
    (:func:`names_another`) of named ones."""
    here, there = _PLACE.findall(thing), _PLACE.findall(content)
    if not here or not there:
        return False
    return not (set(terms(" ".join(here))) - _LIGHT_TERMS) & set(terms(" ".join(there)))


def _named(text: str, who: str) -> frozenset[str]:
    """The values ``text`` names (``profile.values``), and the initials of each name of
    several words ("ou" of "Open University": "the OU degree" names it too)."""
    runs = re.findall(r"(?-i:[A-Z])[\w'-]*(?:\s+(?:&\s+|and\s+)?(?-i:[A-Z])[\w'-]*)+", text)
    return values(text, who) | {"".join(w[0] for w in run.split() if w[0].isupper()).lower()
                                for run in runs}


def _shares(named: frozenset[str], thing: str, content: str, who: str) -> bool:
    """Whether a thing naming ``named`` may name what ``content`` names: a name of the
    thing's among the memory's words or names (by its first four letters: "Sainsbury's",
    "Sainsburys"), its initials among the memory's names' ("the OU"), or the thing's own
    initials ("M&S") those of a name of the memory's."""
    words = set(re.findall(r"[a-z0-9]+", content.lower())) | _named(content, who)
    stems = {w[:4] for w in words}
    if any(n in words or len(n) >= 4 and n[:4] in stems for n in named):
        return True
    short = {re.sub(r"[^a-z]", "", w.lower()) for w in re.findall(r"\b(?-i:[A-Z])[A-Z&.]+\b",
                                                                    thing)}
    return bool(short & words)


#: Words a thing says nothing distinctive by: "my", "thing", "stuff", "habit".
_LIGHT_TERMS = frozenset(terms("my our the a an this that thing things stuff habit lot "
                               "whole one bit kind sort it its them got get gets getting "
                               "done did do does"))


#: Verbs whose "-ing" form is irregular or that are auxiliaries in a first-person fact.
_ING = {"am": "being", "are": "being", "'m": "being", "'re": "being", "have": "having",
        "do": "doing", "see": "seeing", "be": "being", "lie": "lying", "die": "dying",
        "go": "going"}
#: Words after the speaker that are no verb of theirs to turn into an activity.
_NOT_VERB = frozenset("can can't cannot could will would should must may might don't do "
                      "not never no still also always usually often just only really".split())


def activity(fact: str) -> str:
    """A first-person fact said as its activity, the verb's "-ing" form without the
    speaker ("I cycle to work every day" -> "cycling to work every day", "I am a nurse at
    St Thomas'" -> "being a nurse at St Thomas'"); "" when it opens on no plain verb.

    An ending names the activity or the role ("not much of a cyclist", "done with
    nursing"), a memory the habit in its finite form; the model reads the finite "cycles to
    work" far from "a cyclist" (.14) and the activity near it (.48)."""
    m = re.match(r"^(?:i|we)\s+([a-z']+)\s+(.+)$", fact.strip(), re.I)
    if m is None or m[1].lower() in _NOT_VERB:
        return ""
    verb = m[1].lower()
    if verb in _ING:
        ing = _ING[verb]
    elif verb.endswith("ie"):
        ing = verb[:-2] + "ying"
    elif verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        ing = verb[:-1] + "ing"
    elif re.fullmatch(r"[^aeiou]*[aeiou][bdfgklmnprstvz]", verb):
        ing = verb + verb[-1] + "ing"     # one syllable, one vowel: "run" -> "running"
    else:
        ing = verb + "ing"
    return f"{ing} {m[2]}"


#: What a memory read as its activity pays against its own words: a short activity reads a
#: little nearer anything (the calibration of the read sets' facts: an unrelated one's
#: activity up to .05 above its words), the one meant far more ("a cyclist" and "cycling
#: to work every day" .48, "cycles to work every day" .14).
ACTIVITY_COST = 0.05


def _nearest_activity(thing: str, pool: Sequence[Memory], who: str,
                      embed: Callable[[list[str]], np.ndarray]) -> tuple[Memory, float, float]:
    """``updates.nearest_attribute`` with each memory also read as its activity
    (:func:`activity`): a memory's cosine is the better of the two, so "a cyclist" finds
    "cycles to work every day", and every other memory is measured the same way. (Not
    the activity without the name its thing goes by: "pet" and "having a rabbit" .42, but
    "car" and "having a cat" .40.)"""
    texts = [strip_for_attribute(thing, who)]
    for memory in pool:
        texts.append(strip_for_attribute(memory["content"], who))
        said = activity(first_person(memory["content"], who)[0])
        texts.append(strip_for_attribute(said, who) if said else texts[-1])
    vectors = np.asarray(embed(texts), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    scores = (vectors[1:] @ vectors[0]).reshape(len(pool), 2)
    scores[:, 1:] -= ACTIVITY_COST
    scores = scores.max(axis=1)
    order = np.argsort(-scores)
    second = float(scores[order[1]]) if len(order) > 1 else -1.0
    return pool[int(order[0])], float(scores[order[0]]), second


#: The least cosine of the replacement told beside an ending and the memory found ended
#: (both stripped): the new value of an attribute reads near its old value's memory ("I
#: cycle to work now" and "drives to work" .26, "I use Apple Music now" and "listens to
#: music on their phone" .39), another pursuit far ("I watch YouTube instead" and "loves
#: a good detective novel" .07).
REPLACED_MIN = 0.15
#: A clause telling what holds in the ended thing's place: "instead", "now", "these days".
_IN_PLACE = re.compile(r"\b(?:instead|now|nowadays|these\s+days)\b", re.I)


def replaced_unlike(clauses: Sequence[str], thing: str, memory: Memory, who: str,
                    embed: Callable[[list[str]], np.ndarray]) -> bool:
    """Whether a clause of the ending's sentence (``clauses``) other than the one naming
    the ``thing`` ended tells what replaced it (:data:`_IN_PLACE`) and that replacement
    reads unlike ``memory`` (under :data:`REPLACED_MIN`): "I quit Netflix, I watch
    YouTube instead" ends a viewing habit, not "loves a good detective novel", which the
    bare name "Netflix" reads near (.38). A replacement is a value of the same attribute
    as the thing it replaced, so the memory meant reads near both."""
    told = [c for c in clauses if _IN_PLACE.search(c) and thing.lower() not in c.lower()]
    if not told:
        return False
    texts = [strip_for_attribute(memory["content"], who)] + \
        [strip_for_attribute(c, who) for c in told]
    vectors = np.asarray(embed(texts), dtype=np.float32)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    return float((vectors[1:] @ vectors[0]).max()) < REPLACED_MIN
