"""Whether a clause tells a thing closed or paused for a while, not ended: "the lido is shut
for repairs until March", "the pool's closed for the summer", "our choir is on a break
till after Easter" (issue 23: a false supersede takes a true fact out of recall).

A marker of ending (``named.ENDING``: "shut", "closed", "paused", "suspended") beside a
stored fact's value reads as that fact's end ("The leisure centre closed, so I run
outdoors now"). But a closure bounded by a time ahead ("until March", "for the summer",
"for six weeks") or by its works ("for repairs", "for a refit") is a pause, and so is one
occasion of a thing that recurs called off ("Zumba was cancelled this week"): the fact holds
again when the thing reopens, and what the speaker does meanwhile is told beside it (a
stay, ``stays.py``), not in its place. A closure told as for good ("closed for good",
"shut down", "permanently") is an ending all the same.

Why it is general: the verbs of closing and pausing, the prepositions of a time ahead
with closed classes of periods (months, seasons, holidays, units of time) and the nouns of
works on a building; no case, value or benchmark. A pure function over a clause; it
imports nothing of the finders (``named.py`` and ``endings.py`` read it).
"""

from __future__ import annotations

import re

__all__ = ["paused"]

#: A closure or a pause of a thing.
_PAUSE = re.compile(r"\b(?:shut|closed|closing|paused|suspended|frozen|on\s+hold|"
                    r"on\s+(?:a|its|their|our)\s+break|mothballed)\b", re.I)
_MONTHS = (r"january|february|march|april|may|june|july|august|september|october|"
           r"november|december")
#: A period: a month, a season or a holiday, or a count of units of time.
_PERIOD = (rf"(?:{_MONTHS}|(?:the\s+)?(?:summer|winter|spring|autumn|holidays?|half-?term|"
           r"term|season|christmas|easter|new\s+year)|"
           r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+|a\s+few|"
           r"a\s+couple\s+of|several|the\s+next)\s+(?:days?|weeks?|months?|terms?))")
#: A time ahead the closure lasts to or for: "until March", "till my knee is better", "for
#: the summer", "for six weeks", "while the roof is fixed".
_AHEAD = re.compile(rf"\b(?:(?:until|till|til|through\s+to)\s+(?!recently\b|last\b)\w|"
                    rf"for\s+(?:the\s+(?:whole|rest)\s+of\s+)?{_PERIOD}\b|"
                    rf"while\s+(?:the|my|our|his|her|their|its|i|we|she|he|they|it)\b)", re.I)
#: Why a thing is closed for a while: its works.
_WORKS = re.compile(r"\bfor\s+(?:(?:a|the|its|some)\s+)?(?:repairs?|refurb\w*|renovations?|"
                    r"maintenance|(?:building\s+)?works|refits?|restoration|upgrades?|"
                    r"resurfacing)\b", re.I)
#: One occasion of a thing that recurs, called off: "Zumba was cancelled this week",
#: "football got rained off on Saturday", "choir's off tonight" (the passive or "off": not
#: "I cancelled my membership this week", the speaker's own ending of the thing).
_CALLED_OFF = re.compile(r"\b(?:is|was|were|got|gets|'s|has\s+been|have\s+been|been)\s+"
                         r"(?:\w+\s+)?(?:cancell?ed|called\s+off|postponed|rained\s+off|"
                         r"off)\b", re.I)
#: ... not an agreement, which ends however soon it is told ("my contract was cancelled today").
_AGREEMENT = re.compile(r"\b(?:contract|membership|subscription|account|policy|tenancy|lease|"
                        r"insurance|licen[cs]e|visa|registration|card|deal|plan|pass)\b", re.I)
_DAYS = r"monday|tuesday|wednesday|thursday|friday|saturday|sunday"
#: The one occasion: "this week", "today", "tonight", "on Saturday", "last night".
_OCCASION = re.compile(rf"\b(?:this\s+(?:week|weekend|morning|afternoon|evening|time|once|"
                       rf"{_DAYS})|today|tonight|yesterday|last\s+night|(?:on|last|this|next)\s+"
                       rf"(?:{_DAYS})|for\s+once)\b", re.I)
#: A closure told as for good.
_FOR_GOOD = re.compile(r"\b(?:for\s+good|permanently|for\s+ever|forever|down)\b", re.I)
#: The negation of the speaker's own doing ("haven't swum for six months"): an ending of
#: the habit (``named.ENDING``), no closure.
_NEGATED = re.compile(r"n't\b|\bnot\b|\bnever\b", re.I)


def paused(clause: str) -> bool:
    """Whether ``clause`` tells a thing closed or paused for a while (see the module's
    note): a closure or a pause bounded by a time ahead or by its works, not told as for
    good, nor negated."""
    if _FOR_GOOD.search(clause) or _NEGATED.search(clause):
        return False
    return bool(_PAUSE.search(clause)) and bool(_AHEAD.search(clause) or _WORKS.search(clause)) \
        or bool(_CALLED_OFF.search(clause)) and bool(_OCCASION.search(clause)) and \
        not _AGREEMENT.search(clause)
