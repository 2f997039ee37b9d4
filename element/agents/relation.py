"""The same relation with a new value: "I'm playing for Kingston Town now" after "Emil plays
for Hilltop FC" (the speaker's verb and its preposition, "play for", with another name).

A statement of the speaker's in a relation the keyed rules do not name is matched with the
one-fact memory of the speaker's in the same relation (the verb's stem and the
preposition after it), whose value (a proper name) the statement does not hold. Light verbs
("am in", "went to") name no attribute. Pure functions over texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from index import terms

from .holders import holder_of, without_opening
from .updates import Memory, content_terms, first_person, is_event

__all__ = ["relation", "relation_target", "provider_target"]

#: The speaker's verb and the preposition after it: "I am playing for X now" -> play for.
_RELATION = re.compile(r"^(?:i|we)\s+(?:(?:am|are|have|had|been|just|also|now|still|really|"
                       r"currently|finally|recently|mostly|usually|actually)\s+)*"
                       r"(?P<v>[a-z]{2,})\s+(?P<p>to|for|with|at|in|on|from)\s+(?P<x>\S.*)$",
                       re.I)
#: Verbs too common to name an attribute by their preposition ("I am in Rome").
_LIGHT_VERBS = frozenset("am are is was were be been have has had get got do did make made "
                         "went come came say said".split())


def relation(sentence: str) -> tuple[str, str, str] | None:
    """A first-person statement's relation and value: "I play for Hilltop FC" -> ("play",
    "for", "Hilltop FC"); None for a light verb or no preposition after the verb."""
    m = _RELATION.match(without_opening(sentence))
    if m is None or m["v"].lower() in _LIGHT_VERBS:
        return None
    stem = terms(m["v"]) or [m["v"].lower()]
    return stem[0], m["p"].lower(), m["x"]


def relation_target(sentence: str, memories: Iterable[Memory], who: str,
                    skip: Iterable[str] = ()) -> Memory | None:
    """The newest one-fact memory of the speaker's in the same relation as ``sentence``
    ("I'm playing for Kingston Town now" and "Emil plays for Hilltop FC") with another
    value: a name the memory lacks."""
    rel = relation(sentence)
    if rel is None:
        return None
    # The value is a name ("for Kingston Town"), not a thing with a name in it ("on a
    # new project set in Ohio": one more project).
    value = re.match(r"(?:the\s+)?(?P<n>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)", rel[2],
                     re.I)
    names = [t for t in terms(value["n"])] if value else []
    if not names:
        return None
    avoid = set(skip)
    for memory in memories:
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or is_event(said[0]) or holder_of(said[0]):
            continue
        old = relation(said[0])
        if old is not None and old[:2] == rel[:2] and \
                not set(names) <= content_terms(memory["content"], who):
            return memory
    return None


#: A provider chosen: "I've gone with Aviva this year", "ported my number over to
#: giffgaff", "we remortgaged with Coventry Building Society": a verb of change, what
#: moved (optional), then to/with a name that ends the clause.
_CHOSEN = re.compile(
    r"^(?:i|we)\s+(?:(?:have|had|just|now|finally|recently|also|then|actually)\s+)*"
    r"(?:gone|switched|changed|moved|ported|transferred|remortgaged|swapped|signed\s+up)"
    r"(?:\s+(?:my|our)\s+(?P<moved>[a-z]+(?:\s+[a-z]+)?))?(?:\s+(?:over|across|back))?\s+"
    r"(?:to|with)\s+"
    r"(?P<n>(?-i:[A-Z])[\w&'-]*(?:\s+(?-i:[A-Z])[\w&'-]*)*)"
    r"(?=\s*(?:[,.;!?]|$)|\s+(?:now|this|last|instead|when|because|as|after|since|in)\b)",
    re.I)
#: What may follow the name of a provider chosen: a time, nothing else. A clause of its own
#: ("switched to Vodafone, the signal is much better") tells what the provider is for, which
#: the one held may not be: the speaker's bank is not replaced by a phone network.
_ONLY_WHEN = re.compile(r"\s*(?:(?:now|this|last|instead|since|in)\b[\w\s]*)?[.!?]*\s*")
#: A provider held: "my car insurance is with Admiral", "our mortgage is with Barclays",
#: or by the verb of the service ("I bank with Lloyds", "we insure through Aviva", "I'm
#: with Vodafone"). Not an employer: "I switched to Octopus" after "I work at Tesco" is as
#: likely a new energy supplier as a new job, and a job lost is the dearer mistake.
_HELD = re.compile(r"^(?:(?:my|our)\s+(?:[\w'-]+\s+){0,3}(?:is|are)|(?:i|we)\s+(?:bank|insure)|"
                   r"i\s+am|we\s+are)\s+(?:with|through|from)\s+(?-i:[A-Z])", re.I)


def provider_target(sentence: str, memories: Iterable[Memory], who: str,
                    skip: Iterable[str] = ()) -> Memory | None:
    """The speaker's one memory of a provider held ("my car insurance is with Admiral")
    that a provider chosen (``sentence``: "I've gone with Aviva this year") replaces: only
    when exactly one such memory lacks the new name (with several, which one is meant is
    not said), and the sentence says nothing more of what was moved than that memory does
    (a thing named, "switched my phone over to ...", must be the memory's; a clause after
    the name, none)."""
    chosen = without_opening(sentence)
    m = _CHOSEN.match(chosen)
    if m is None or not _ONLY_WHEN.fullmatch(chosen[m.end("n"):]):
        return None
    names = set(terms(m["n"]))
    avoid = set(skip)
    held = []
    for memory in memories:
        said = first_person(memory["content"], who)
        if memory["id"] in avoid or len(said) != 1 or not _HELD.match(said[0]):
            continue
        held.append(memory)
    if len(held) != 1 or names <= content_terms(held[0]["content"], who):
        return None
    if m["moved"] and not set(terms(m["moved"])) & content_terms(held[0]["content"], who):
        return None
    return held[0]
