"""Whether a statement tells a value held for a bounded time: a stay, a let, a stint
("We're renting a cottage in the Lake District for the whole of September", "I'm
house-sitting in Brighton until June", "working at the garden centre over the summer").

A single-valued attribute (a home, an employer) has one value at a time, and a finder by
meaning reads a stay as that attribute's new value: the cottage answers "Where do they
live?" as a move would. But a value bounded by a period ahead or under way is a stay
beside the one held, which holds again when the stay ends; recall's list of stays
(``index.TOLD_NOT_NOW``: "for a week", "for a few days") has the short ones, and this
reads the rest: a named period ("for the whole of September", "for the summer", "over
Christmas"), a span of months ("for six months"), an end told ("until June", "till the
end of the year"), a period spent ("spending a month in Lisbon this winter"). Not a span
up to now ("have lived here for six months", "in Leeds for a few months now"): that holds
now. And a stay told as over ("Back from my brother's
cottage on Skye", "just got home from a week in Lisbon"): the value held before holds
again, unless the return is a move ("moved back from London", "back from Sydney for
good") or comes with a present value ("back from leave and at Aldi now").

Why it is general: the grammar of a bounded period (a preposition of duration with a
period, or of an end with a time), over closed classes (months, seasons, holidays, units
of time); no case, value or benchmark. A pure function over a sentence.
"""

from __future__ import annotations

import re

from .continued import undertaking

__all__ = ["bounded", "stay_beside", "visit"]

_MONTHS = (r"january|february|march|april|may|june|july|august|september|october|"
           r"november|december")
_PERIOD = (rf"(?:{_MONTHS}|(?:the\s+)?(?:summer|winter|spring|autumn|holidays?|"
           r"half-?term|term|season|christmas|easter|new\s+year)|"
           r"(?:a|an|the|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
           r"\d+|a\s+few|a\s+couple\s+of|several|the\s+next|the\s+coming)\s+"
           r"(?:days?|nights?|weeks?|weekends?|fortnights?|months?|terms?|seasons?))")
#: A bounded period: "for (the whole of) September", "for six months", "until June",
#: "till the end of the year", "through to Easter".
BOUNDED = re.compile(
    rf"\b(?:for\s+(?:the\s+(?:whole|rest|length)\s+of\s+|"
    rf"all\s+of\s+|most\s+of\s+)?{_PERIOD}"
    rf"|(?:until|till|til|through\s+to|up\s+to)\s+(?:the\s+end\s+of\s+)?(?:{_PERIOD}|"
    rf"(?:next|this)\s+\w+|the\s+\w+\s+of))\b(?!\s+(?:now|so\s+far|already)\b)", re.I)
#: A period spent somewhere: "We're spending a month in Lisbon", "spent the summer at my
#: gran's", "spending Christmas in Bruges": a stay, however the period is said.
_SPENT = re.compile(rf"\b(?:spend|spends|spending|spent)\s+(?:the\s+(?:whole|rest)\s+of\s+)?"
                    rf"{_PERIOD}\b", re.I)
#: A span up to now, not a period ahead: the perfect ("have lived here for six months",
#: "'ve been at Tesco for two months"), or "for ... now" (read by :data:`BOUNDED`).
_UP_TO_NOW = re.compile(r"\b(?:have|has|'ve|had)\s+(?:\w+\s+)?(?:been|lived|worked|had|"
                        r"stayed|rented|owned|run|taught|studied)\b", re.I)


#: "Over the summer", "during the holidays": a period, bounding what goes on in it
#: ("I'm working at a garden centre over the summer") but dating what was done in it
#: ("we relocated to Valencia over the summer"): read in the progressive or the future
#: only.
_OVER = re.compile(rf"\b(?:over|during|throughout)\s+(?:the\s+(?:whole|rest)\s+of\s+)?"
                   rf"{_PERIOD}\b", re.I)
_ONGOING = re.compile(r"\b(?:am|are|'m|'re)\s+(?:\w+ly\s+)?\w+ing\b|\bwill\b|'ll\b|"
                      r"\bgoing\s+to\b", re.I)


#: A return from a stay: "back from", "home from", "returned from", "got in from".
_RETURNED = re.compile(r"\b(?:back|home|returned|got\s+in)\s+from\b", re.I)
#: A return that is a move ("moved back from", "back from Sydney for good"), or beside
#: a value told as the present ("back from maternity leave and working at Aldi now").
_RETURN_MOVED = re.compile(r"\b(?:moved|moving|relocated|relocating|emigrated)\s+"
                           r"(?:\w+\s+)?(?:back|home)\b|\bfor\s+good\b|\bpermanently\b|"
                           r"\b(?:now|nowadays|these\s+days|instead)\b", re.I)


#: A leave from what one does: "on maternity leave", "off on sick leave", "on sabbatical",
#: "furloughed": the job held still, paused for a while.
_LEAVE = re.compile(r"\bon\s+(?:\w+\s+)?(?:maternity|paternity|parental|adoption|sick|annual|study|"
                    r"compassionate|garden(?:ing)?|unpaid|extended)\s+leave\b|\bon\s+(?:a\s+)?"
                    r"sabbatical\b|\bfurloughed\b|\bon\s+furlough\b", re.I)
#: A state held while another's condition lasts: "while the kitchen gets done", "while
#: Argos refits the store", "while she gets over her operation" (not "while my wife
#: works in York", a whereas; nor "while I cook", a habit's time).
_WHILE = re.compile(r"\bwhile\s+(?:the|my|our|his|her|their|its|she|he|they|it|(?-i:[A-Z])[\w'-]*)"
                    r"(?:\s+[\w'-]+){0,3}?\s+(?:is|are|'s|'re|gets?|getting|being|recovers?|"
                    r"recovering|heals?|healing|refits?|refitting)\b", re.I)


#: A stay in another's home: minding it ("house-sitting for a friend", "dog-sitting at my
#: sister's"), or staying there as a guest ("staying with my mum", "crashing at a mate's",
#: "kipping at Tom's", "been at my in-laws'"): a place held while the other's home is lent,
#: not one's own (not "living with my parents": a home).
_GUEST = re.compile(r"\b(?:house|pet|dog|cat|flat)-?sitting\b|\b(?:staying|crashing|kipping|"
                    r"dossing|sofa-surfing)\s+(?:\w+\s+)?(?:with|at|in)\s+(?:my|our|a|an|his|"
                    r"her|their|(?-i:[A-Z])[\w-]*'s?\b)|"
                    # "We've been at my in-laws' in Shrewsbury all week", "I'm at my mum's
                    # for now": at another's home, its noun left out (or "place", "house")
                    r"\b(?:been|am|are|is|was|were|'m|'re)\s+(?:\w+\s+)?at\s+(?:my|our|his|her|"
                    r"their)\s+(?:[\w-]+\s+)?[\w-]+(?:'s|s')(?:\s+(?:place|house|flat|home))?"
                    r"(?=\s*(?:[,.;!?]|$)|\s+(?:in|for|all|this|since|until|till|over|while|"
                    r"because|at|near)\b)", re.I)


def bounded(sentence: str) -> bool:
    """Whether ``sentence`` (first person, raw) tells its value for a bounded period (a
    stay, a leave, a state held while another's condition lasts), not as its holder's
    value from now on, or tells a stay as over."""
    if _RETURNED.search(sentence) and not _RETURN_MOVED.search(sentence):
        return True
    if _LEAVE.search(sentence) or _WHILE.search(sentence) or _GUEST.search(sentence):
        return True
    if _UP_TO_NOW.search(sentence):
        return False
    # A period spent that ended in a move ("Spent six months in Lisbon and moved there for
    # good") is the move's story.
    spent = bool(_SPENT.search(sentence)) and not _HOME.search(sentence) and \
        not _RETURN_MOVED.search(sentence)
    return bool(BOUNDED.search(sentence)) or spent or \
        bool(_OVER.search(sentence)) and bool(_ONGOING.search(sentence))


#: A trip, told by its noun: "one of my trips to New York", "our holiday in Crete", "a
#: visit to my gran's in Leeds".
_TRIP = re.compile(r"\b(?:trips?|holidays?|vacations?|visits?|getaways?|city\s+breaks?)\s+"
                   r"(?:to|in|at)\b", re.I)
#: Words of where one lives: a trip told beside a move is the move's story ("moved to
#: Lisbon after a trip there").
_HOME = re.compile(r"\b(?:mov(?:e|ed|es|ing)|relocat\w*|emigrat\w*|li(?:ve|ves|ving)|based|"
                   r"settled)\b", re.I)


#: A trip's place: the name after its noun ("trips to New York City").
_TRIP_TO = re.compile(_TRIP.pattern + r"\s+(?:the\s+)?(?:(?-i:[A-Z])[\w'-]*\s*)*", re.I)


def visit(sentence: str) -> bool:
    """Whether ``sentence`` tells a trip by its noun (:data:`_TRIP`), nothing of where its
    teller lives and no name beside the trip's: a place visited, not a home ("I love
    discovering new cities, here is one of my trips to New York City" replaced "lives in
    Norwich"); "once the trip to Osaka was booked, I switched to learning Japanese" names
    the value changed."""
    if not _TRIP.search(sentence) or _HOME.search(sentence) or _RETURN_MOVED.search(sentence):
        return False
    rest = _TRIP_TO.sub(" ", sentence).split()
    return not any(w[:1].isupper() and w != "I" and not w.startswith("I'")
                   for w in rest[1:])


def stay_beside(sentence: str, fact: str) -> bool:
    """Whether ``sentence`` tells a stay (:func:`bounded`) or a trip (:func:`visit`)
    beside ``fact`` (a memory's first-person sentence) that is no stay, trip or plan
    itself ("We're flying to Mexico for Christmas" is changed by another trip): the fact
    still holds."""
    return (bounded(sentence) or visit(sentence)) and \
        not (bounded(fact) or visit(fact) or undertaking(fact))
