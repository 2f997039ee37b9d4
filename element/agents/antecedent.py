"""An ending whose thing is a pronoun, read with the thing the sentence before named.

People name a thing once and end it in the next sentence by a pronoun: "Had the Fiesta
ten years. Scrapped it on Monday.", "Our Labrador Bramble was fourteen. We had to let
her go in May." The ending grammar (``ending_grammar.py``, ``told_ended.py``) reads a
pronoun as naming nothing, so the ending was stored as an episode linked to nothing.
Here the pronoun object of the sentence is read as the thing the previous sentence of the
same turn named (its first name, or its first noun phrase of the speaker's or a definite
one), and the sentence so read is given to the finders of the memory an ending ends. A
pronoun in a later clause of a sentence is read first as the thing a clause before it
named: "The hives were too much work with the new baby, so we've given them to a
neighbour" is read "we have given the hives to a neighbour".

What is not read so: a previous sentence whose subject is another person ("My dad had
the Octavia for twenty years. Sold it last week." is his sale), a previous sentence
naming nothing but light words ("Had that thing for years."), a pronoun as the subject
("it broke down": told of the thing, not an act on it), and any sentence but the one
just before in the same turn (or a clause before in the same sentence). Pure functions
over texts; closed classes of English.
"""

from __future__ import annotations

import re

from .cleaning import clean, norm
from .decisions import Pool
from .ending_grammar import clauses, speakers_own
from .endings import ended_memory
from .observation import Observation
from .restated import change_to
from .rules import Candidate
from .sentences import split_sentences, untag
from .slots import PEOPLE
from .told_ended import event_ended

__all__ = ["antecedent", "antecedent_change", "resolved"]

#: Words that end a noun phrase: prepositions, times, counts, verbs' particles.
_NP_END = (r"(?:for|since|from|to|at|in|on|with|of|about|after|before|until|till|and|but|so|"
           r"because|that|which|who|when|was|were|is|are|has|had|have|went|got|a|an|the|"
           r"one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+|years?|"
           r"months?|weeks?|days?|ages|now|then|last|this|every|all|still|just|really)")
#: The first noun phrase of the speaker's, or a definite one, of up to three words.
_NP = re.compile(rf"\b(?P<x>(?:the|my|our)\s+(?:(?!{_NP_END}\b)[\w'-]+\s+){{0,2}}?"
                 rf"(?!{_NP_END}\b)[\w'-]+)(?=\s+{_NP_END}\b|\s*[,.;!?]|\s*$)", re.I)
#: A sentence opening on its subject, the thing, before its verb: "The motorbike frightened
#: me after the crash" names "the motorbike" (a past verb is no part of a noun phrase).
_SUBJECT_NP = re.compile(r"^(?P<x>(?:the|my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+?)\s+(?:[a-z]+ed|"
                         r"was|were|is|had|has|went|got|broke|died|kept|made|gave|took|"
                         r"cost|ate|bit|fell|ran|wore)\b", re.I)
#: A name: a capitalised word past the sentence's opening, with "the" before it if said.
_NAME = re.compile(r"(?<=\s)(?P<x>(?:the\s+)?(?-i:[A-Z])[\w'-]*(?:\s+(?-i:[A-Z])[\w'-]*)?)",
                   re.I)
#: Words that are no name: the speaker, days, months.
_NOT_NAME = frozenset("""i i'm i've i'd i'll monday tuesday wednesday thursday friday saturday
sunday january february march april may june july august september october november
december christmas easter""".split())
#: Words too light to name a thing by.
_LIGHT = frozenset("""the my our thing things stuff one lot bit place time old new little
same whole""".split())
#: An object pronoun: after a word, not the subject of its own verb ("it broke").
_OBJECT = re.compile(r"(?<=[a-z]\s)(?:it|him|her|them)\b(?!\s*(?:'s|is|was|has|had|will|would|"
                     r"broke|died|went|got|failed|needs|needed)\b)", re.I)


#: A clause's first letter, and a conjunction opening it ("so we've given them away").
_CAPITAL = re.compile(r"^\w")
_OPENING = re.compile(r"^(?:and|so|then|and\s+then|but)\s+", re.I)


def antecedent(previous: str, who: str) -> str:
    """The thing ``previous`` (a cleaned sentence) names for a pronoun after it to point
    back at: its first name, else its first noun phrase of the speaker's or a definite
    one; "" when it names none, or it is told of another person."""
    if not speakers_own(previous) or set(previous.lower().split()[:2]) & PEOPLE:
        return ""
    for m in _NAME.finditer(previous):
        words = m["x"].lower().split()
        if words[-1] not in _NOT_NAME and m["x"] != who and words[-1] != who.lower():
            return m["x"]
    np_ = _SUBJECT_NP.match(previous) or _NP.search(previous)
    if np_ is None or set(np_["x"].lower().split()) <= _LIGHT or \
            set(np_["x"].lower().split()) & PEOPLE:
        return ""
    return np_["x"]


def resolved(sentence: str, text: str, who: str) -> str | None:
    """``sentence`` (a cleaned sentence of the turn ``text``) with its object pronoun read
    as the thing the sentence before it named (:func:`antecedent`); None when it has no
    object pronoun, no sentence before it, or that names nothing."""
    if not _OBJECT.search(sentence):
        return None
    if (within := _within(sentence, who)) is not None:
        return within
    sentences = [clean(untag(s)[0]) for s in split_sentences(text)]
    at = next((i for i, s in enumerate(sentences) if norm(s) == norm(sentence)), None)
    if not at:
        return None
    thing = antecedent(sentences[at - 1], who)
    return _OBJECT.sub(thing, sentence, count=1) if thing else None


def _within(sentence: str, who: str) -> str | None:
    """The clause of ``sentence`` holding its object pronoun, the pronoun read as the thing
    a clause before it in the same sentence named ("The hives were too much work, so
    we've given them to a neighbour"); None when the pronoun is in the first clause, or
    the clauses before it name nothing (or are told of another person)."""
    parts = clauses(sentence)
    at = next((i for i, part in enumerate(parts) if _OBJECT.search(part)), None)
    if not at:
        return None
    for before in reversed(parts[:at]):
        if thing := antecedent(_CAPITAL.sub(lambda m: m[0].upper(), before, count=1), who):
            said = _OPENING.sub("", parts[at])
            thing = re.sub(r"^The\b", "the", thing)
            return _OBJECT.sub(thing, said, count=1)
    return None


def antecedent_change(sentence: str, pool: Pool, who: str, turn: int,
                      observation: Observation, taken: list[str]) -> Candidate | None:
    """``sentence`` as a change superseding the memory its ending ends, the thing ended
    named by a pronoun and read as the sentence before named it; told with the thing
    named ("Scrapped the Fiesta on Monday"), so the memory says what ended. Else None."""
    said = resolved(sentence, observation.turns[turn].content, who)
    if said is None:
        return None
    target = ended_memory(said, pool, who, taken) or event_ended(said, pool, who, taken)
    return change_to(target, said, who, turn, observation, taken, source=sentence)
