"""A thing of the speaker's told as the subject of its own arrival: "The new Corsa arrived
on Friday" after "I drive a Renault Clio", "Our new Fiesta was delivered this morning",
"My new Pixel 8 came yesterday", "the new Octavia is finally on the drive".

``begun.py`` reads the speaker acting (bought, collected, picked up: the speaker the
subject); people as often tell the same acquisition with the thing as the subject of a
verb of arrival or delivery, the speaker only in "my", "our" or "the new". What arrives to
be the speaker's is had: the result is "Ana has a Corsa", read and linked as ``begun.py``'s
results are (``result_target.py``: the speaker's one one-fact memory of a single-valued
attribute the thing reads clearly as).

Why it is general: English grammar only: a noun phrase of the speaker's (a possessive, or
"the" with "new": the new one is one in place of one before), a named thing (a proper name
or a number: "a new sofa" names no value), an unaccusative verb of arrival or a passive of
delivery ("arrived", "came", "turned up", "was delivered", "is on the drive"),
nothing after it but a time or the post. Guarded, as a false supersede loses a true fact: a
person or an animal (a baby, a new boss, a puppy), another person's thing ("my dad's new
Volvo", "for my daughter"), a plan or a wait ("is due", "hasn't arrived", "should come"), a
question, a place arrived at ("the new Aldi came to town") read nothing. Pure functions
over texts.
"""

from __future__ import annotations

import re

from index import TOLD_ADDITION, TOLD_NOT_NOW, TOLD_PAST

from .slots import PEOPLE

__all__ = ["arrived_result"]

#: The speaker's thing, then its arrival: an opening word of narration, "the"/"my"/"our",
#: "new" (required after "the"), the thing (one to five words), an auxiliary and an adverb,
#: the verb.
_ARRIVAL = re.compile(
    r"^(?:(?:so|and|well|finally|yay|woohoo|oh|right|ok|okay)\b[,!]?\s+)*"
    r"(?P<d>the|my|our)\s+(?P<new>(?:brand[\s-]+)?new\s+)?"
    r"(?P<thing>(?:[\w'&-]+\s+){0,4}?[\w'&-]+)\s+"
    r"(?:(?:has|have|had)\s+|'s\s+)?(?:(?:finally|just|eventually|at\s+last|only|now)\s+)*"
    r"(?P<v>arrived|came|turned\s+up|showed\s+up|(?:was|were|got|been)\s+delivered|"
    # Standing where the speaker's things stand: "is on the drive" ("is here" of the new
    # Lidl is a shop come to town).
    r"(?:is|are)\s+(?:(?:finally|now)\s+)?on\s+(?:the|our|my)\s+drive)\b"
    r"(?P<rest>.*)$", re.I)

#: What may follow the verb: a place arrived at names no thing had ("came to town",
#: "arrived at the station"), the post and a time may.
_PLACE_AFTER = re.compile(r"^\s+(?:in|into|to|at|round|over|along|out|up|down|through|back|"
                          r"off|for)\b(?!\s+the\s+(?:post|mail|door|letterbox))", re.I)

#: A wait, a plan, a negation: not arrived (yet).
_NOT_YET = re.compile(r"\b(?:not|never|no|due|should|will|would|might|may|could|hope\w*|"
                      r"supposed|meant|expected|expecting|yet|soon|tomorrow|next)\b|n't\b|'ll\b",
                      re.I)

#: Another person's: a possessive in the thing's phrase, or the thing got for someone.
_ANOTHERS = re.compile(r"\b(?:his|her|their)\b|\b(?!(?:it|that|there|what|here)'s\b)[a-z-]+'s\s|"
                       r"\bfor\s+(?:my|our|his|her|their|(?-i:[A-Z]))", re.I)

#: What carries a thing, not the thing: "my Amazon parcel arrived", "the Tesco order came".
_CONSIGNMENT = re.compile(r"\b(?:parcel|package|delivery|order|shopping|post|letter|box|"
                          r"shipment|food|takeaway)s?\b", re.I)


def arrived_result(clause: str, who: str) -> str | None:
    """The thing the arrival in ``clause`` (raw, first person) leaves the speaker having,
    told of ``who`` ("The new Corsa arrived on Friday" -> "Sam has a Corsa"), or None (no
    such arrival, or not the speaker's, not named, not (yet) arrived: the guards above)."""
    said = clause.strip().rstrip(".!")
    m = _ARRIVAL.match(said)
    if m is None or said.endswith("?") or _NOT_YET.search(said) or TOLD_NOT_NOW.search(said) \
            or TOLD_PAST.search(said) or TOLD_ADDITION.search(said) or _ANOTHERS.search(said):
        return None
    if m["d"].lower() == "the" and not m["new"]:
        return None     # "the Corsa arrived": any one, not said to be the speaker's new one
    if _PLACE_AFTER.match(m["rest"]):
        return None     # "the new Aldi came to town": a place, arrived at
    thing = m["thing"]
    if not re.search(r"(?-i:[A-Z])|\d", thing) or _CONSIGNMENT.search(thing) or \
            any(w.lower().rstrip("s") in PEOPLE or w.lower() in PEOPLE
                for w in re.findall(r"[\w'-]+", thing)):
        return None     # no name ("the new sofa"), a parcel, a person or a pet ("our baby Rosie")
    return f"{who} has a {thing}"
