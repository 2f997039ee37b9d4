"""An ending of the speaker's that names no thing at all: "I've stopped", "that's me done",
"I'm finished with all that", "not doing that any more", "called it a day".

The ending grammar (``ending_grammar.py``) reads an ending by its thing; these name none,
and were read as an episode or as nothing ended (a reported "no more contact sport" beside
"so that's me done" was read as the doctor's). Which memory such an ending means is
``unnamed_ending.py``'s. Closed classes of English; pure functions over cleaned text.
"""

from __future__ import annotations

import re

__all__ = ["OPENING", "bare_ending"]

#: An ending with no thing: "I have stopped", "that is me done", "I am finished with all
#: that", "not doing that any more", "called it a day", "hung up my boots".
_ENDED_ITS_THING = r"(?:it|that|all\s+that|all\s+of\s+that|this|them|the\s+lot)"
_BARE = re.compile(
    rf"^(?:(?:i|we)(?:\s+(?:have|had|just|finally|now|also|officially|pretty\s+much))*\s+"
    rf"(?:stopped(?:\s+going|\s+doing\s+{_ENDED_ITS_THING})?|quit|given\s+up|gave\s+up|packed\s+(?:{_ENDED_ITS_THING}\s+)?in|"
    rf"jacked\s+(?:{_ENDED_ITS_THING}\s+)?in|knocked\s+(?:{_ENDED_ITS_THING})\s+on\s+the\s+head|"
    rf"called\s+(?:it\s+)?(?:a\s+day|time)|hung\s+up\s+(?:my|our)\s+\w+|retired\s+from\s+"
    rf"{_ENDED_ITS_THING})|"
    rf"(?:i|we)\s+(?:am|are)\s+(?:done|finished|through)(?:\s+with\s+{_ENDED_ITS_THING})?|"
    rf"that\s+is\s+(?:me|us)\s+(?:done|finished|out)(?:\s+with\s+{_ENDED_ITS_THING})?|"
    rf"(?:i\s+am\s+|we\s+are\s+)?not\s+doing\s+{_ENDED_ITS_THING}\s+any\s?more|"
    rf"(?:i\s+)?(?:do\s+not|don't)\s+do\s+{_ENDED_ITS_THING}\s+any\s?more)"
    r"(?:\s+(?:now|for\s+good|any\s?more|these\s+days|in\s+the\s+end|after\s+all|last\s+\w+|"
    r"this\s+\w+|in\s+\w+))*$", re.I)
#: A conjunction opening a clause: "so that is me done".
OPENING = re.compile(r"^(?:and|so|but|then|and\s+then|and\s+so)\s+", re.I)

def bare_ending(clause: str) -> bool:
    """Whether ``clause`` (cleaned) is an ending of the speaker's naming no thing: "that
    is me done", "I have stopped"."""
    return bool(_BARE.match(OPENING.sub("", clause.strip(" .!"))))


