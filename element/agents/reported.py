"""A change told as reported speech: "The nurse told me I can't give blood anymore", "I
told my mum last week that I'd left Barclays for Monzo". The reporting frame (a verb of
saying, whom it was said to, when) says who said it, not what holds: the clause reported
about the speaker ("I can't give blood anymore") is read for a change as its own
sentence (``change_statements._now_clause``), and the sentence is told whole.

Why it is general: the frame is English grammar (a verb of saying, an optional addressee
and time, an optional "that"), never a value; only a reported clause of the speaker's
("I ...", "we ...") is read, so "my boss told me she's leaving" changes nothing of the
speaker's. Pure functions over texts.
"""

from __future__ import annotations

import re

__all__ = ["reported"]

#: A verb of saying, whom to and when, then "that": what follows is what was said.
_FRAME = re.compile(
    r"\b(?:told|tell|telling|said|says|saying|mentioned|explained|informed|announced|"
    r"admitted|confirmed|let\s+\w+\s+know)"
    r"(?:\s+(?:to\s+)?(?:me|us|him|her|them|(?:my|our|the)\s+[\w'-]+|(?-i:[A-Z])[\w'-]+))?"
    r"(?:\s+(?:last\s+\w+|yesterday|today|earlier|this\s+morning|on\s+\w+day))?"
    r"\s+(?:that\s+)?(?P<x>(?:i|we)\b.+)$", re.I)

#: "I'd left" cleaned as "I would left": before a past participle, "'d" was "had".
_WOULD_DONE = re.compile(r"\b(would)\s+(?=(?:\w+ed|left|gone|been|sold|quit|got|taken|"
                         r"made|become|done|given|begun|moved)\b)", re.I)


def reported(sentence: str) -> str | None:
    """The clause of the speaker's ``sentence`` reports ("I had left Barclays for Monzo"
    of "I told my mum that I'd left Barclays for Monzo"), or None."""
    m = _FRAME.search(sentence)
    if m is None or m.start() > 40:
        return None
    return _WOULD_DONE.sub("had ", m["x"]).strip()
