"""News told under a label (issue 23: such newer statements wrote nothing at all): "Gym
update: Nuffield Health near the office", "New job: barista at Pret", "Home now: a little
flat in Hove", "Car update - bought a Tesla", "new car!! little red Mazda MX-5". A chat
or a headline names the thing that changed first, as a label, then a colon, a dash or
"!!", then its new value or what happened; read as it is, the label is no subject, the
value has no verb, and the rules store nothing.

The label is a few words naming a thing a person has (the profile's nouns,
``cleaning.owned_nouns``: "gym", "job", "car", "home"), maybe "new", "my" or "current"
before it and a word of news ("update", "news") or "now" after; or a word of news alone
("Update: ..."). What follows is written as the speaker's statement:

- a statement with its own subject ("Big news: I'm a grandad") or a verb whose "I" was
  dropped ("Car update - bought a Tesla", which ``spoken.restore_subject`` reads): the
  label dropped;
- a noun phrase (a name, "a little flat in Hove", "barista at Pret"): the thing's new
  value, "My gym is now Nuffield Health ...", "My new job is barista at Pret", read by
  the rules as any "my X is Y".

Not a label: a person ("Big news from my husband: ...", "Mum: ...": another's news), a
time ("Monday: gym"), anything longer than four words or with a verb. Pure functions over
one turn's text; ``implicit.owned`` calls :func:`labelled` first.
"""

from __future__ import annotations

import re

from index import RELATIONS

from .cleaning import owned_nouns
from .episode_words import FAMILY
from .spoken import restore_subject

__all__ = ["labelled"]

#: Words that say the label announces news, not a thing ("Gym update", "Update").
_NEWS = r"(?:update|updates|news|status|change|alert|announcement)"
#: A label: "my"/"our", "new"/"current"/"latest", a noun or two, a word of news, "now";
#: then its mark: a colon, a spaced dash, or "!" (only after "new ...": "new car!!").
_LABEL = re.compile(r"^(?P<label>(?:(?:my|our)\s+)?(?P<new>(?:brand\s+)?new\s+|current\s+|"
                    r"latest\s+|big\s+|quick\s+)?(?P<thing>(?!" + _NEWS + r"\b)[a-z]+"
                    r"(?:\s+(?!" + _NEWS + r"\b|now\b)[a-z]+)?)?"
                    r"(?P<news>\s*\b" + _NEWS + r")?(?P<now>\s+now)?)"
                    r"\s*(?P<mark>:|\s[-\u2013\u2014]+\s|!+\s+)\s*(?P<rest>\S.*)$", re.I)
#: A statement with its own subject after the label.
_SUBJECT = re.compile(r"^(?:i|i'm|i've|i'd|we|we're|we've|my|our|me)\b", re.I)


#: The nouns of the things a person has (the profile's, ``cleaning.owned_nouns``), not a
#: person: what a label names.
_THINGS = frozenset(n for n in owned_nouns().split("|") if n not in RELATIONS and
                    n not in FAMILY)


def _things() -> frozenset[str]:
    return _THINGS


def labelled(text: str) -> str:
    """``text`` (one user turn) with news told under a label opening it written as the
    speaker's statement (see the module); unchanged otherwise."""
    m = _LABEL.match(text.strip())
    if m is None:
        return text
    thing = (m["thing"] or "").lower()
    new, news, rest = m["new"], m["news"], m["rest"]
    if m["mark"].startswith("!") and not (new and new.strip().endswith("new") and thing):
        return text     # "Wow! ...", "Yay!! ...": an exclamation, no label
    if thing:
        head = thing.split()[-1]
        if head not in _things() and head.rstrip("s") not in _things() and \
                not (new and new.strip().endswith("new")):
            return text     # not a thing of a person's ("Mum: ...", "Monday: gym")
        if len(thing.split()) > 1 and thing.split()[0] not in _things():
            return text     # "from husband": one noun or two nouns only
    elif not news:
        return text
    if _SUBJECT.match(rest):
        return rest     # "Big news: I'm a grandad"
    restored = restore_subject(rest)
    if restored != rest or not thing:
        return rest     # "Car update - bought a Tesla": the cleaning restores its "I"
    if rest[:1].islower() and not re.match(r"[^,;]*?\b(?-i:[A-Z])", rest) and \
            not re.match(r"[a-z]+\s+(?:at|in|for|with|from)\s", rest):
        return text     # "Work: crazy busy": no value of the thing's named, a judgement
    owner = "My" if not m["label"].lower().startswith("our") else "Our"
    now = " now" if (news or m["now"]) and not re.search(r"\bnow\b", rest, re.I) else ""
    return f"{owner} {(new or '').lower()}{thing} is{now} {rest}"
