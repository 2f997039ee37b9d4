"""Wondered: the speaker's news told inside a frame of surprise, said plainly (issue 23:
what is told writes nothing).

"Who'd have thought I'd end up vegan!", "Who knew I'd end up in Norwich of all places!",
"Never thought I'd be a Londoner", "Funny how I'm the one driving now", "Can't believe
I'm a grandad now": the news is the clause after the frame, its verb often put in the
frame's mood ("I'd end up" for "I have ended up", "I'd be" for "I am"). Read as it is,
the frame is the sentence's main clause (a reaction, a question's "who"), its news is no
statement of the speaker's, and nothing is written; or a story is, and the older value
stays beside it. (A question that only frames the news, "Would you believe I'm ...?", is
``sentences.untag``'s.)

:func:`wondered` writes each such sentence as its clause in the present: "I have ended
up vegan.", "I have ended up in Norwich of all places.", "I am a Londoner." Only a frame
of surprise or disbelief opening the sentence (after an interjection) and a clause of
the speaker's (I, we) after it; the rest of the turn as it was said.

General: the frame's words are the language's for surprise, not any case's.
"""

from __future__ import annotations

import re

from .irregular import PARTICIPLES
from .spoken import LEAD

__all__ = ["wondered"]

#: A frame of surprise opening the sentence, then the speaker's clause.
_FRAME = re.compile(
    r"^(?P<f>who(?:'d|’d|\s+would)\s+(?:have|'ve)\s+(?:thought|guessed|believed|imagined|"
    r"predicted)|who\s+(?:knew|would\s+believe)|(?:i\s+)?(?:never|didn't|did\s+not)\s+"
    r"(?:ever\s+)?(?:thought|think|imagined|expected|dreamed|dreamt)|(?:i\s+)?(?:still\s+)?"
    r"(?:can't|cannot|can\s+not)\s+believe|hard\s+to\s+believe|believe\s+it\s+or\s+not|"
    r"(?:it's\s+|it\s+is\s+)?(?:funny|strange|crazy|mad|amazing|weird|odd|wild)\s+(?:how|"
    r"that)|how\s+(?:funny|strange|crazy|mad|amazing|weird|odd|wild)\s+(?:that|how|is\s+it\s+"
    r"that)|fancy\s+that|imagine(?:\s+that)?|look\s+at\s+me(?:\s+now)?)"
    r"(?:\s+that)?[\s,:!-]+(?P<c>(?:i|we)(?:'[a-z]+|’[a-z]+)?\s+.+|"
    r"it(?:'s|’s|\s+is)\s+[^,;]+?\s(?:i|we)\b.+)$", re.I)
#: A clause of what the speaker perceives or says, not of what holds ("I'd see the day").
_PERCEIVED = re.compile(r"^(?:i|we)(?:'d|’d|\s+would)\s+(?:ever\s+)?(?:see|hear|say|feel|"
                        r"live\s+to|get\s+to|find\s+myself|miss|need|want)\b", re.I)
#: A clause of what holds: the present, the perfect or the frame's mood ("I'm", "I've",
#: "I'd"); not a past ("Can't believe I made so much money from it": a story's).
_HOLDS = re.compile(r"^(?:(?:i|we)(?:'m|’m|'re|’re|'ve|’ve|'d|’d|\s+am|\s+are|\s+have|"
                    r"\s+would)\b|it(?:'s|’s|\s+is)\b)", re.I)
#: The frame's mood on the clause's verb: "I'd", "I would", "we'd".
_WOULD = re.compile(r"^(?P<s>i|we)(?:'d|’d|\s+would)\s+(?:ever\s+|one\s+day\s+|actually\s+|"
                    r"really\s+)?(?P<v>[a-z]+)\b", re.I)


def _plain(clause: str) -> str:
    """The clause in the present: "I'd end up vegan" -> "I have ended up vegan"."""
    m = _WOULD.match(clause)
    if m is None:
        return clause
    s, verb, rest = m["s"], m["v"].lower(), clause[m.end():]
    have = "have"
    be = "am" if s.lower() == "i" else "are"
    if verb == "end" and rest.lower().startswith(" up ") or verb in ("be", "become"):
        # What the speaker ended up as, or would be, is what they are now: "I'd end up
        # vegan" -> "I am vegan now" (the present a change finder reads).
        rest = rest[4:] if verb == "end" else rest
        head, sep, tail = re.split(r"(?=[,;:])", rest, maxsplit=1)[0], "", ""
        if len(head) < len(rest):
            sep, tail = rest[len(head)], rest[len(head) + 1:]
        now = "" if re.search(r"\b(?:now|these\s+days|nowadays)\b", head, re.I) else " now"
        return f"{s} {be} {head.strip()}{now}{sep}{tail}"
    if verb in ("become", "have", "get", "turn", "go"):
        said = f"{s} {have} " + {"become": "become", "have": "got", "get": "got",
                                 "turn": "turned", "go": "gone"}[verb]
    elif verb in PARTICIPLES or verb.endswith("ed"):
        said = f"{s} {have} {verb}"     # "I'd moved": had, said of now
    else:
        said = f"{s} {verb}"
    return said + rest


def _sentence(said: str) -> str:
    lead = LEAD.match(said)
    opening = said[:lead.end()] if lead and lead.end() < len(said) else ""
    body = said[len(opening):].strip()
    core = body.rstrip(".!?… ")
    m = _FRAME.match(core)
    if m is None or re.search(r"\b(?:you|your)\b", m["c"], re.I) or \
            _PERCEIVED.match(m["c"].strip()) or not _HOLDS.match(m["c"].strip()):
        return said
    clause = _plain(m["c"].strip())
    return f"{opening}{clause[:1].upper()}{clause[1:]}."


_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def wondered(text: str) -> str:
    """``text`` with each sentence telling the speaker's news inside a frame of surprise
    written as that news, in the present (module docstring)."""
    parts = _SENTENCE.split(text)
    written = [_sentence(p) for p in parts]
    return text if written == parts else " ".join(written)
