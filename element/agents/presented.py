"""Presented: a value held now told after an empty "it's", as a fragment (issue 23: what
is told writes nothing).

Speech presents a new value with a "dummy" it and a time of the present, and no verb of
the speaker's own: "These days it's swimming three mornings a week", "It's Lidl for the
big shop these days", "Nowadays it's decaf only, doctor's orders", "These days it's golf
as well as tennis". Read as they are, these name no speaker ("it" is their subject), no
rule keys them, no episode scores them, and nothing is written; yet each is the verbless
fragment "Swimming three mornings a week these days" with an "it's" in front, a shape
``fragments.py`` reads (completed in the frame of the memory it answers: "I go swimming
three mornings a week these days" of "Hector goes running before work", or kept as said
when it names a value).

:func:`presented` gives that fragment, or None: the "it" must be empty (the sentence
opens on it, or on a time of the present and then it), the value must be a noun phrase
(no clause of its own: "it's what I do", "it's been ages"; no appraisal: "it's great
these days", "it's so busy now") and a time of the present must say it holds now. "For
me" / "for us" after the value say whose it is (the speaker's) and are left out.

General: the sentence's shape and the words of the present; no word of any case.
"""

from __future__ import annotations

import re

from index import TOLD_NOW_WORD as _NOW_WORD, TOLD_PRESENT_TIME as _PRESENT_TIME

from .episode_words import ADVERBS, GENERIC

__all__ = ["presented", "time_first"]

#: The time first: "These days it's X ...", "Nowadays, it's X".
_TIME_FIRST = re.compile(rf"^(?P<t>{_PRESENT_TIME}|{_NOW_WORD})\s*,?\s+"
                         r"it(?:'s|’s|\s+is)\s+(?P<x>[^,;:]+?)(?P<rest>\s*[,;:].*)?$", re.I)
#: The time after the value: "It's Lidl for the big shop these days", "It's decaf now".
_TIME_AFTER = re.compile(r"^it(?:'s|’s|\s+is)\s+(?P<x>[^,;:]+?\s+(?:"
                         rf"{_PRESENT_TIME}|{_NOW_WORD}))(?P<rest>\s*[,;:].*)?$", re.I)
#: Whose the value is, after it: the speaker's ("soya milk for me these days").
_FOR_ME = re.compile(r"\s+for\s+(?:me|us)\b", re.I)
#: Words that make the "value" a clause, a time or a reaction, not a noun phrase: a verb,
#: a pronoun, a word that asks or subordinates ("it's what I do", "it's been ages", "it's
#: time we ...", "it's hard to say").
_CLAUSE = re.compile(r"\b(?:i|you|he|she|we|they|me|him|her|us|them|it|is|are|was|were|be|"
                     r"been|being|am|has|have|had|do|does|did|will|would|can|could|should|"
                     r"may|might|must|what|who|how|why|where|when|which|that|if|because|"
                     r"than|to|not|no|never|ages|while|time|ok|okay|fine|like)\b|n't\b", re.I)


#: The small words of a noun phrase.
_SMALL = frozenset("a an the of on in at to for with and or by from as all way bit lot".split())
#: How things are, said of a time: no value held ("it's quiet these days", "it's mad now").
_STATE = frozenset("""hard tough easy quiet calm hot cold warm mad crazy chaos chaotic hectic
different weird strange odd same normal bad worse worst fine full empty late early dark light
wet dry busy slow fast quick grim bleak rough nuts raining snowing pouring freezing boiling
heaving""".split())
#: The endings of an adjective, a single lower-case word told as the "value".
_ADJECTIVE = ("ly", "ful", "ous", "ive", "ible", "able", "ish", "less", "ic", "al", "y", "ed")


def presented(sentence: str) -> str | None:
    """The verbless fragment ``sentence`` presents after an empty "it's" ("These days
    it's Lidl for the big shop." -> "Lidl for the big shop these days."), or None."""
    core = sentence.strip()
    end = core[len(core.rstrip(".!")):]
    body = core.rstrip(".!").strip()
    if body.endswith("?"):
        return None
    if m := _TIME_FIRST.match(body):
        value, time, rest = m["x"], " " + m["t"].lower(), m["rest"] or ""
    elif m := _TIME_AFTER.match(body):
        value, time, rest = m["x"], "", m["rest"] or ""
    else:
        return None
    value = _FOR_ME.sub("", value).strip()
    words = re.findall(r"[A-Za-z][\w'&.-]*|\d+", value)
    if not words or _CLAUSE.search(value):
        return None
    first = words[0].lower()
    # An appraisal or a degree, not a thing held: "great", "so busy", "really quiet".
    content = [w for w in words if w.lower() not in ADVERBS and w.lower() not in GENERIC
               and w.lower() not in _SMALL and w.lower() not in ("now", "these", "days")]
    if not content or first in ADVERBS or first in GENERIC or first in _STATE or \
            first.endswith("ly") and len(first) > 4 or \
            len(content) == 1 and content[0].lower() in _STATE or \
            len(content) == 1 and content[0][:1].islower() and \
            content[0].lower().endswith(_ADJECTIVE):
        return None
    if time and re.search(rf"\b(?:{_PRESENT_TIME}|{_NOW_WORD})\b", value, re.I):
        time = ""   # (the value carries its own: "it's Leeds now")
    fragment = f"{value}{time}{rest}{end or '.'}"
    return fragment[:1].upper() + fragment[1:]


#: A time of the present told first, before the value: "Since March, a Skoda", "At the
#: moment, nights", "For now, York", "These days: rowing".
_TIME_OPENS = re.compile(rf"^(?P<t>{_PRESENT_TIME}|{_NOW_WORD}|for\s+now|right\s+now|"
                         r"since\s+(?:the\s+)?\w+(?:\s+\d{4})?|as\s+of\s+\w+|from\s+(?:this|"
                         r"last)\s+\w+)\s*[,:;-]\s+(?P<x>[^,;:]+?)(?P<rest>\s*[,;:].*)?$", re.I)


def time_first(sentence: str) -> str | None:
    """The fragment of a value told after its time ("Since March, a Skoda Octavia." ->
    "A Skoda Octavia since March."), or None: no time first, or no noun phrase after it
    (a clause: "These days, I cycle")."""
    core = sentence.strip()
    end = core[len(core.rstrip(".!")):]
    body = core.rstrip(".!").strip()
    m = _TIME_OPENS.match(body)
    if m is None or body.endswith("?"):
        return None
    value = m["x"].strip()
    if _CLAUSE.search(value) or value.lower().split()[0] in ADVERBS:
        return None
    time = m["t"][:1].lower() + m["t"][1:]     # (a name in it kept: "since March")
    fragment = f"{value} {time}{m['rest'] or ''}{end or '.'}"
    return fragment[:1].upper() + fragment[1:]
