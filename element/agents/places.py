"""Where "there" is: the place a speaker named in the same turn. "Have you been to
Universal Studios? Planning a trip there next month" tells a trip to Universal Studios; a
memory saying "a trip there" tells a reader nothing of where. Only a name after a
preposition of place counts ("to Universal Studios", "in Lisbon"), and only one named in
the turn itself: a place of another turn may be what the other person spoke of.

And whether a name one moves to is a place at all: "Moved to Lidl" after "I work at Tesco"
is a new job, "Moved to York" a new home. English says it by the name alone, so the
model's sense of the name decides (:func:`organisation`): no list of towns or firms.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

import numpy as np

__all__ = ["named_place", "placed", "organisation"]

#: The two readings of a name one moves to, said of it: a town one lives in or a firm one
#: works at (all-MiniLM-L6-v2 ranks a name nearer the reading it knows it by: cities and
#: firms it was never shown apart by any rule here).
_READINGS = ("{} is a city", "{} is a company")
#: How much nearer the firm's reading must be: a small town the model barely knows
#: ("Hove", "Whitby") sits near both, a few hundredths to the firm's side; known firms
#: ("Siemens", "Deloitte") sit further. Unsure is a place, the reading "moved to" had.
ORGANISATION_MARGIN = 0.03

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


def organisation(name: str, embed: Callable[[Sequence[str]], object]) -> bool:
    """Whether ``name`` (a value one "moved to") reads as an organisation rather than a
    place: nearer in meaning to "<name> is a company" than to "<name> is a city" by
    :data:`ORGANISATION_MARGIN`."""
    vectors = np.asarray(embed([name] + [r.format(name) for r in _READINGS]), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9
    city, company = vectors[1:] @ vectors[0]
    return bool(company - city > ORGANISATION_MARGIN)
