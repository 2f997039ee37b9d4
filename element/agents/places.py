"""Where "there" is: the place a speaker named in the same turn. "Have you been to
Universal Studios? Planning a trip there next month" tells a trip to Universal Studios; a
memory saying "a trip there" tells a reader nothing of where. Only a name after a
preposition of place counts ("to Universal Studios", "in Lisbon"), and only one named in
the turn itself: a place of another turn may be what the other person spoke of.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["named_place", "placed"]

#: A name after a preposition of place or a verb of visiting ("to Universal Studios", "in
#: Lisbon", "visit the Cliffs of Moher"); the name's words capitalised, "of" between them.
_PLACE = re.compile(r"\b(?P<prep>to|in|at|from|visit|visited|visiting|around)\s+(?P<p>(?:the\s+)?"
                    r"(?!(?:January|February|March|April|May|June|July|August|September|October|"
                    r"November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
                    r"Sunday|Christmas|Easter)\b)[A-Z][\w'-]+(?:\s+(?:of\s+)?[A-Z][\w'-]+){0,3})")
#: "there" as a place ("a trip there", "I had a blast there"); not "there is", "out
#: there", "over there", "here and there", "been there, done that", "just sitting there".
_THERE = re.compile(r"(?<!\bout )(?<!\bover )(?<!\bup )(?<!\bdown )(?<!\bin )(?<!\bright )"
                    r"(?<!\bsitting )(?<!\bstanding )(?<!\blying )(?<!\bsat )(?<!\bstood )"
                    r"(?<!\bhere and )\bthere\b(?!\s+(?:is|are|was|were|will|has|have|had|would|"
                    r"must|might|could|seems?|goes)\b)(?!\s*,\s*done)", re.I)
#: Going somewhere: "there" is where to ("a trip there" -> "a trip to Rome").
_TOWARD = re.compile(r"\b(?:trip|trips|go|goes|going|went|gone|travel\w*|mov\w+|get|got|"
                     r"fly|flew|flying|drive|drove|driving|head\w*|visit\w*|back|way|tour)\s+"
                     r"(?:\w+\s+){0,1}$", re.I)


def named_place(raw: str, people: Iterable[str] = ()) -> tuple[str, str] | None:
    """The place ``raw`` names first (``_PLACE``) and its preposition, not a person's name
    in ``people``."""
    names = set(people) | {"I"}
    found = [(m["prep"].lower(), m["p"]) for m in _PLACE.finditer(raw)
             if m["p"].split()[-1] not in names]
    # The first of a sentence: those after it tell more of it ("Woodhaven, a small town in
    # the Midwest").
    return found[0] if found else None


def placed(text: str, place: tuple[str, str] | None) -> str:
    """``text`` with "there" as ``place`` ("to Rome" after going, "at Google" where it was
    "at", else "in Rome")."""
    if place is None or place[1].lower() in text.lower():
        return text
    prep, name = place

    def put(m: re.Match[str]) -> str:
        toward = _TOWARD.search(text[:m.start()])
        return f"{'to' if toward else 'at' if prep == 'at' else 'in'} {name}"

    return _THERE.sub(put, text, count=1)
