"""Days held: a value the speaker's days are given over to, told with no "for" ("Mondays
are yoga now", "Thursdays are padel these days", "Mornings are coffee now"; issue 23: a
newer statement that wrote nothing).

Speech names an activity as what a day *is* now, the way "Saturdays are for golf now"
names it as what the day is *for*: the days are the speaker's routine (only one's own
week is told by its days with no "my"), and the noun phrase after "are" is the value
held. Read as said, no rule keys it and no episode scores it (no "I"), so nothing was
written. :func:`told_by_days` says whether a sentence is one: the days, "are" or "is",
a noun phrase (the test of ``presented.py``: no clause, no appraisal, no state of the
weather or the light: "Mornings are dark now", "Weekends are mad these days" are not)
and a word of the present after it (the present says it holds now, as a routine does).

General: the sentence's shape, the days and the words of the present; no word of any case.
"""

from __future__ import annotations

import re

from .episode_words import DAYS
from .presented import presented

__all__ = ["told_by_days"]

#: The days, "are", the value, and the present after it ("Mondays are yoga now, ...").
_BY_DAYS = re.compile(rf"^(?:{DAYS}\s+)?{DAYS}\s+(?:are|is)\s+(?P<x>[^,;:.!?]+?)\s+"
                      r"(?:now|these\s+days|nowadays)\b(?!\s+(?:that|and\s+then|on)\b)", re.I)


def told_by_days(sentence: str) -> bool:
    """Whether ``sentence`` tells a value the speaker's days are given to now (module
    docstring): "Mondays are yoga now" yes; "Mornings are dark now", "Mondays are the
    worst these days" no."""
    m = _BY_DAYS.match(sentence.strip())
    if m is None or re.match(r"(?:for|with|about)\b", m["x"], re.I):
        return False    # (what a day is for is ``routine``'s)
    value = m["x"].strip()
    if re.match(r"(?:a|an|the|so|such|very|really|pretty|quite|too|way|much)\b", value,
                re.I):
        return False    # "a nightmare", "the worst", "so busy": how the day is, no value
    return presented(f"It's {value} now.") is not None
