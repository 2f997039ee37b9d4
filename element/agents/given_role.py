"""A role given to the speaker, or taken from them, by another: a choir, a club, a firm
("The church choir signed me up as an alto", "The PTA roped me in as treasurer", "The
team voted me vice-captain", "The company let me go in March").

The speaker is the object, a body of people the subject: the episode reader counted such
a sentence as told less surely about the speaker (no "I" acting: ``PASSIVE_COST``), and a
short one fell below its floor and wrote nothing, though what the speaker is in a club or
at work, or that the job ended, is a lasting fact of theirs. The hire words a keyed rule
reads (``facts.HIRED``: "took me on as", "made me head of maths") are not all of them:
any act giving the speaker a place "as" a role is one. Not a way of seeing the speaker
("treated me as a friend", "saw me as a threat").
"""

from __future__ import annotations

import re

#: Verbs that see or take the speaker as something without giving them a place.
_SEEING = (r"treated|treats|saw|sees|regarded|regards|thought|thinks|knew|knows|described|"
           r"describes|viewed|views|see|treat|regard|used|uses|mistook|mistakes|addressed|"
           r"introduced|introduces|remembered|remembers|recognised|recognized|likes|liked|"
           r"loves|loved")
#: "... signed me up as an alto", "... wants me as their second cellist".
_AS_ROLE = re.compile(r"\b(?!(?:" + _SEEING + r")\b)[a-z]+\s+(?:me|us)\s+(?:(?:up|on|in|back|"
                      r"aboard|onto\s+the\s+\w+)\s+)?as\s+(?:(?:a|an|the|their|its|our|"
                      r"his|her)\s+)?(?:[a-z-]+\s+)?[a-z-]{3,}\b", re.I)
#: "... voted me vice-captain", "... elected me chair".
_NAMED_ROLE = re.compile(r"\b(?:voted|elected|named|appointed|crowned|nominated)\s+(?:me|us)\s+"
                         r"(?:as\s+)?(?:(?:the|their|its)\s+)?[a-z-]{4,}\b", re.I)
#: The job taken from the speaker: "let me go", "laid me off", "made me redundant".
_ENDED = re.compile(r"\b(?:let\s+(?:me|us)\s+go|laid\s+(?:me|us)\s+off|made\s+(?:me|us)\s+"
                    r"redundant|sacked\s+(?:me|us)|fired\s+(?:me|us))\b", re.I)


def given_role(text: str) -> bool:
    """Whether ``text`` tells another giving the speaker a role or ending their job, as
    this module's doc says."""
    return bool(_AS_ROLE.search(text) or _NAMED_ROLE.search(text) or _ENDED.search(text))
