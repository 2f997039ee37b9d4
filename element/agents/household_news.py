"""What is new at the speaker's home, told as what is there ("There's a kitten in the
house now", "There are three beehives at the bottom of the garden now", "A new lodger is
in the spare room", "There's a baby on the way").

Such a sentence says no "I" or "my": the episode reader took it for talk about the world
and wrote nothing, though a pet, a person, a thing that came to live in the speaker's
house, garden or drive is as lasting a fact of theirs as "we got a kitten". Only the
home's own places count ("the house", "the garden", "the drive", "the spare room"): "a
new café in town" is the town's news. And only what stays: told as new or as now, named
("a tabby called Pepper"), or on its way ("a baby on the way"); "There's a fox in the
garden" is a sight of the moment.
"""

from __future__ import annotations

import re

#: The places of a home, as its household names them with "the" (or "ours").
_HOME = (r"(?:the\s+(?:(?:back|front|spare|back\s+bed|front\s+bed|box|living|dining|"
         r"sitting|granny|old)\s+)?(?:house|home|flat|garden|gardens|yard|backyard|drive|"
         r"driveway|paddock|field|room|bedroom|loft|attic|annexe|annex|garage|shed|kitchen|"
         r"lounge|conservatory|cellar|basement|porch|hutch|stable|stables|pond|decking|"
         r"household|family)|(?:ours|home))")
#: "There's ...", "There is now ...", "There are ..." opening a sentence.
_THERE = re.compile(r"^(?:(?:turns\s+out|so|and|well|honestly|anyway|oh|also)\W+|"
                    r"[\w' ]{1,24},\s+)?there(?:'s|\s+is|\s+are|'re)\s+(?:now\s+|also\s+)?"
                    r"(?P<what>(?!(?:a\s+lot|lots|loads|nothing|something|no|plenty|"
                    r"a\s+bit|a\s+few\s+things|so\s+much|too\s+much)\b)"
                    r"(?:a|an|another|two|three|four|five|six|some|several|\d+|[a-z]+s)\b.*)$",
                    re.I)
#: "A new lodger is in the spare room", "A second car sits on the drive now".
_ARRIVED = re.compile(r"^(?:a|an)\s+(?:new|second|third|another)\s+[\w-]+(?:\s+[\w-]+)?\s+"
                      r"(?:is|are|lives|live|sits|sit|stays|stay|sleeps|has\s+moved)\s+"
                      r"(?:in|on|at|into)\b", re.I)
#: Where it is: in or about one of the home's places, or on its way ("a baby on the way").
_WHERE = re.compile(r"\b(?:(?:in|on|at|into|under|behind|by|about)\s+(?:the\s+\w+\s+of\s+)?"
                    + _HOME + r"|on\s+the\s+way|on\s+its\s+way)\b", re.I)
#: What makes it lasting: told as new or now, named, or coming.
_LASTING = re.compile(r"\b(?:now|these\s+days|nowadays|new|newest|latest|since|called|named|"
                      r"on\s+the\s+way|due\s+in|another|second|third)\b", re.I)


def household_news(text: str) -> bool:
    """Whether ``text`` (one cleaned sentence) tells what is new at the speaker's home, as
    this module's doc says: "There's a kitten in the house too now" is; "There's a fox in
    the garden", "There's a new café in town" are not."""
    m = _THERE.match(text)
    told = m["what"] if m is not None else text if _ARRIVED.match(text) else None
    return told is not None and bool(_WHERE.search(told)) and bool(_LASTING.search(text))
