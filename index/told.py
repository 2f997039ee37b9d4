"""What a memory's words tell of time and of whom (issue 23, item 5): the text readers
of recall's newest-first order (``recency.py``) and of a newer value joining from under
the threshold (``answers_under.py``).

Whether a sentence says its value holds now (:data:`CURRENT`) or adds to an old one
(:data:`ADDITION`); places it in the past or in a wished future (:func:`aside`:
:data:`PAST`, :data:`WISH`, unless it tells the change, :data:`CHANGE`); ends a value
(:data:`ENDING`, :func:`yields`); and whose fact it is (:func:`relations`, the people of
the subject's it names; :func:`told_of`, those its sentences are about). Read from the
words alone, no vector: kept apart from the ranking's reorderings so that each rule of
language is read and tested in one place.
"""

from __future__ import annotations

import re

from .profile_bank import RELATIONS

__all__ = ["ADDITION", "CHANGE", "CURRENT", "ENDING", "HOUSEHOLD", "PAST", "WISH", "aside",
           "relations", "told_of", "yields"]

#: A memory that says its value holds now, against what was: "it is decaf from now on",
#: "these days the weekends are all about motorbikes", "the commute is a walk now".
CURRENT = re.compile(r"\b(?:now|these days|nowadays|from now on|currently|any\s?more|"
                     r"no longer|instead|ever since)\b", re.I)
#: ... unless it adds to the old one ("has started running too", "also has a cat now").
#: ("second-year" is a year, no second one.)
ADDITION = re.compile(r"\b(?:also|too|as well|another|second|in addition)\b(?!-)", re.I)

#: A memory whose sentence places its value in the past, not a newer value of the
#: attribute: a past state ("grew up in Cork", "used to work at a bank", "was a teacher",
#: "lived in Leeds", "back when ...", "as a kid"). "has lived / has worked" (a present
#: perfect) still holds, so it is no past.
PAST = re.compile(r"\b(?:grew up|growing up|used to|back when|as a (?:kid|child|teen(?:ager)?)|"
                  r"(?:was|were) (?:a|an|the|in|at|from|based)|"
                  r"(?<!has )(?<!have )(?<!'s )(?<!'ve )(?:lived|worked|studied))\b", re.I)
#: ... or in a wished, planned or hypothetical future ("dreams of a cottage in Cornwall",
#: "would love to", "plans to", "is thinking about", "one day", "if ...", "toying with
#: the idea of moving out at some point", "might").
WISH = re.compile(r"\b(?:dream(?:s|ed|ing)? (?:of|about)|(?:would|'d) (?:love|like) to|"
                  r"(?:wants?|wanting|hopes?|hoping|plans?|planning) to|"
                  r"thinking (?:about|of)|one day|some ?day|at some point|the idea of|"
                  r"considering|might|maybe|if)\b", re.I)
#: ... unless it tells the change that makes the present ("moved to Lisbon, used to live
#: in Porto", "was a teacher, now a nurse"): a past change is a newer value.
CHANGE = re.compile(r"\b(?:moved|relocated|switched|started|joined|got a (?:new )?job|"
                    r"took a job|now|these days|nowadays|currently)\b", re.I)


#: A memory that tells a value ending, not a value that holds: "Karin and Nils got
#: divorced last year", "The Skoda got written off in a crash", "No more trains", "quit
#: accounting", "Sunny escaped out the kitchen window".
ENDING = re.compile(r"\b(?:divorced|broke up|broken up|split up|separated|passed away|died|"
                    r"RIP|put down|put to sleep|ran away|escaped|went missing|sold|"
                    r"written off|stolen|scrapped|quit|left|resigned|retired|(?:got|was) fired|"
                    r"laid off|made redundant|let go|gave up|given up|stopped|ended|"
                    r"cancell?ed|closed down|shut down|moved out|no more|no longer|"
                    r"any\s?more|said goodbye to|got rid of)\b", re.I)
#: ... unless it tells the new value too ("cancelled the membership and joined the
#: climbing gym instead", "left the bank and started as a nurse").
_CHANGE_VERB = re.compile(r"\b(?:moved to|relocated|switched|started|joined|took a job|"
                          r"got a (?:new )?job|taken up|took up|got into|became)\b", re.I)


def yields(text: str | None) -> bool:
    """Whether a memory is no current value beside one told with it or later: a past or a
    wish (:func:`aside`), or an ending (:data:`ENDING`) that names no new value."""
    said = text or ""
    return aside(said) or bool(ENDING.search(said)) and not _CHANGE_VERB.search(said)


def aside(text: str | None) -> bool:
    """Whether a memory tells a value of the past or of a wish (:data:`PAST`,
    :data:`WISH`, no :data:`CHANGE`): it takes no part in newest first, keeping its
    ranked place."""
    said = text or ""
    return bool(PAST.search(said) or WISH.search(said)) and not CHANGE.search(said)


#: A person of the subject's named as whose a fact is: "Maria's brother", "their older
#: sister", "his boss".
_RELATION = re.compile(r"(?:\w's|\w'|\b(?:their|his|her|my|our))\s+((?:[\w-]+\s+)?[\w-]+)",
                       re.I)


#: The subject's household, not another person: the subconscious writes a speaker's
#: "we" of home life as "<name>'s family" ("Cosmo's family has got a cockatiel now"), and
#: where the family lives or what pet it has is the subject's answer too.
HOUSEHOLD = frozenset({"family", "household"})


def relations(text: str) -> frozenset[str]:
    """The people of the subject's a text names as whose something is (``RELATIONS``; not
    the :data:`HOUSEHOLD`)."""
    return frozenset(w for m in _RELATION.finditer(text)
                     for w in re.split(r"[\s-]+", m[1].lower())
                     if w in RELATIONS and w not in HOUSEHOLD)


#: The words a sentence's subject may open with before the person whose it is: names
#: (capitalised), articles and "and" ("Yesterday Maria's brother", "The twins' mum").
_LEAD_WORD = re.compile(r"[A-Z][\w.'-]*|the|a|an|and|both|one|of")


def told_of(text: str) -> frozenset[str]:
    """The people of the subject's a memory is about (:func:`relations` named in the
    subject of one of its sentences: "Maria's brother lives in Brighton", "Erin's
    girlfriend Chloe ..."), not those named only in what the subject does ("Theo has been
    driving their dad's old Volvo", "Maria lives in Porto with Maria's husband"): that is
    the subject's own fact."""
    found: set[str] = set()
    for sentence in re.split(r"(?<=[.!?;])\s+", text):
        for m in _RELATION.finditer(sentence):
            lead = re.sub(r"[\w'-]*$", "", sentence[:m.start() + 1]).split()
            if all(_LEAD_WORD.fullmatch(w) for w in lead):
                found |= relations(m[0])
    return frozenset(found)
