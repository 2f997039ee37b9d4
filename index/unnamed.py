"""The attribute a query asks, read without the person it names (issue 23, item 5).

The profile bank's questions are about "they" (``profile_bank.py``); a query names its
person ("How does Bartholomew get to work?"), and a name the model has not seen weighs
on the query's vector as much as what it asks: .29 to "How do they get to work?", under
:data:`recency.ASKED_MIN`, where "How does they get to work?" is .98. So a query that asks
no attribute clearly as it is (``recency.asked``) is read once more with the name of the
person it asks about written as the bank writes it (:func:`unnamed`: "they", "their"),
one embedding of the query more, only then. A name in the question's subject place
only: after the auxiliary that opens the question ("does Imogen", "is Crispin") or as
whose a thing is ("Philomena's"); a place, a month or a title elsewhere in the query is
what it asks about, and kept.

What the second read finds is taken as asked faintly (``recency.Asked.faint``): only a
person's facts are its values, never a conversation's turns, and one value alone keeps
its place; of a single-valued attribute only, and clearly (:data:`UNNAMED_MIN`,
:data:`UNNAMED_MARGIN`): the bank in "they" meets a question in "they" closer than a
named one, so the bar is higher than the named read's (LoCoMo's questions about events,
"Which city was they in before traveling to Sweden?", reach .5 to .6 with a margin
under .05 for most).
"""

from __future__ import annotations

import re
import numpy as np

from .embed import Embedder, embed_for_lanes
from .profile_bank import ATTRIBUTES, attribute_scores

__all__ = ["UNNAMED_MIN", "UNNAMED_MARGIN", "unnamed", "read_unnamed"]

#: The least cosine of the unnamed query with its attribute's best question (the
#: all-MiniLM-L6-v2 read: "Which hospital does they work at?" .59 to the employer's,
#: "How does they get to work?" .98 to the commute's).
UNNAMED_MIN = 0.55
#: How much better than any other attribute's question it must be asked ("Which
#: hospital ...": employer .59, schedule .51).
UNNAMED_MARGIN = 0.05

#: Words capitalised that name no person: the calendar, "I".
_NOT_NAMES = frozenset("""
January February March April May June July August September October November December
Monday Tuesday Wednesday Thursday Friday Saturday Sunday Christmas Easter I
""".split())
_NAME = r"[A-Z][a-z][\w-]*(?:\s+[A-Z][a-z][\w-]*)?"
#: The question's subject after the auxiliary that inverts it: "does Imogen", "is
#: Crispin", "has Dee".
_AFTER_AUX = re.compile(r"\b((?i:does|did|do|is|was|are|were|has|have|had|can|could|will|"
                        rf"would|should))\s+({_NAME})\b(?!')")
#: Whose a thing is: "Philomena's", "James'".
_OWNER = re.compile(rf"\b({_NAME})(?:'s|')(?=\s)")


def unnamed(text: str) -> str | None:
    """``text`` with the name in its subject place written "they" (whose: "their"), as the
    bank's questions are; None when it names no one there."""
    def owner(m: re.Match[str]) -> str:
        return m[0] if m[1] in _NOT_NAMES else "their"

    def subject(m: re.Match[str]) -> str:
        return m[0] if m[2] in _NOT_NAMES else f"{m[1]} they"
    out = _AFTER_AUX.sub(subject, _OWNER.sub(owner, text))
    return out if out != text else None


def read_unnamed(text: str, embedder: Embedder, questions: np.ndarray) -> int | None:
    """The single-valued attribute (its index in the bank) that ``text`` unnamed asks
    clearly, read from ``embedder``'s content vector of it (one model call); None when it
    names no one or asks none clearly."""
    plain = unnamed(text)
    if plain is None:
        return None
    vector = np.asarray(embed_for_lanes(embedder, ["content"], [plain])[0],
                        dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(vector))
    if norm == 0.0 or vector.shape[0] != questions.shape[1]:
        return None
    row = attribute_scores((vector / norm)[None, :], questions)[0]
    order = np.argsort(-row)
    best = int(order[0])
    if row[best] < UNNAMED_MIN or row[best] - row[order[1]] < UNNAMED_MARGIN or \
            not ATTRIBUTES[best].single:
        return None
    return best
