"""Who an ending is done by, and to what: the grammar around a marker of ending
(``named.ENDING``) that tells the speaker's thing is not what ended (issue 23: a false
supersede takes a true fact out of recall).

The finders of an ending by name (``named.ended_target``, ``bygone.bygone_target``) read
a marker next to a stored fact's value as that fact's end, whoever the clause's subject.
Three readings say otherwise:

- **the value is the agent** (:func:`acts_on`): "Barclays closed our local branch",
  "Tesco shut the Leeds store": the marker is a verb with an object after it, the value
  named before it its doer, which goes on (the branch closed, not the bank); not a
  passive ("the branch was closed") nor a marker with no object ("Kerry's retired", "the
  choir folded"), where the subject is what ended;
- **another's own leaving** (:func:`left_by_another`): "Tom quit the choir, so I'm the only
  tenor left", "the café ran out of oat milk": a third party's verb of leaving, its
  object the speaker's thing; they left it, the speaker still holds it (unless the
  subject is the value itself: "Kerry left the salon" may end "Kerry cuts my hair");
- **"left" of what remains** (:func:`remaining`): "the only tenor left", "two weeks left",
  "nothing left": no leaving at all.

Why it is general: the grammar of English clauses (a verb's object after it opened by a
determiner or a name, the passive's auxiliaries, a subject other than the speaker) over
closed classes of words and the verbs of leaving; no case, value or benchmark. Pure
functions over words.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from index import terms

from .profile import whose

__all__ = ["acts_on", "left_by_another", "remaining"]

#: What opens a verb's object: a determiner or a quantifier ("closed *our* branch", "shut
#: *all* its stores").
_OBJECT_OPENS = frozenset("the a an my our his her their its this that these those all "
                          "every".split())
#: A passive or a state before a marker: its subject is what ended ("was closed", "got
#: cancelled").
_PASSIVE = frozenset("is are was were be been being 's 're got get gets".split())


#: Verbs of ending one does to a thing ("closed our branch", "cancelled the show") or a
#: person ("Leeds sacked the manager": the manager's job ended, not the fan's club); not a
#: going to a next keeper ("went to live with my cousin"), whose object is the keeper.
_DONE_TO = frozenset("""closed closes closing shut shuts shutting cancelled canceled cancels
scrapped scraps axed axes sold sells ended ends dropped drops stopped stops replaced replaces
terminated sacked sacks fired fires dismissed dismisses""".split())


def acts_on(words: Sequence[str], start: int, end: int) -> bool:
    """Whether the marker spanning ``words[start:end]`` is a verb of ending done to an
    object after it (:data:`_DONE_TO`; the object opened by :data:`_OBJECT_OPENS` or a
    name), not a passive: a value named before it is its agent, not what ended."""
    first = words[start].lower() if start < len(words) else ""
    if start and words[start - 1].lower() in _PASSIVE or first not in _DONE_TO:
        return False
    after = words[end] if end < len(words) else ""
    return after.lower() in _OBJECT_OPENS or after[:1].isupper() and after != "I"


#: A person's own leaving of a thing: what they quit, left, gave up or ran out of.
_LEFT = re.compile(r"^(?:\w+\s+)?(?:has\s+|have\s+|had\s+|just\s+)*(?:quit|quits|quitting|left|"
                   r"leaves|gave\s+up|given\s+up|giving\s+up|stopped|dropped\s+out\s+of|"
                   r"ran\s+out\s+of|run\s+out\s+of|walked\s+away\s+from|resigned\s+from|"
                   r"(?:stepped|stood)\s+down\s+from)\s+(?!(?:and|but|so|because|last|this|"
                   r"in|on|at|after|before|for|to|early|home|work)\b)\w", re.I)


def left_by_another(clause: str, value: Collection[str]) -> bool:
    """Whether ``clause`` opens on a third party's own leaving of a thing (:data:`_LEFT`:
    "Tom quit the choir", "the café ran out of oat milk"): its subject neither the speaker
    ("I", "we") nor a word of the memory's ``value`` (lower-cased names and stemmed
    words: "Kerry left the salon" may end Kerry's)."""
    said_by = whose(clause)
    if not said_by or said_by == "?" or not _LEFT.match(_subject_dropped(clause)):
        return False
    subject = said_by.split()[-1].lower()
    return subject not in value and (terms(subject) or [subject])[0] not in value


def _subject_dropped(clause: str) -> str:
    """``clause`` from its verb: its subject's words (a name or a noun phrase of up to three
    words) left out ("The café ran out of ..." -> "ran out of ...")."""
    m = re.match(r"^(?:(?:the|my|our|a|an)\s+)?(?:[\w'&-]+\s+){0,2}?(?=(?:has\s+|have\s+|"
                 r"had\s+|just\s+)*(?:quit|quits|quitting|left|leaves|gave|given|giving|stopped|"
                 r"dropped|ran|run|walked|resigned|stepped|stood)\b)", clause.strip(), re.I)
    return clause.strip()[m.end():] if m else clause.strip()


#: "Left" of what remains, after a count or an only ("the only tenor left", "two weeks
#: left", "nothing left"); not "left the", "left for", "left home" (a leaving).
_LEFT_OVER = re.compile(r"\b((?:only|last|few|little|nothing|none|no|any|some|much|many|one|two|"
                        r"three|four|five|six|\d+)\s+(?:[\w'-]+\s+){0,2}?)left\b"
                        r"(?!\s+(?:the|a|an|my|our|his|her|their|its|for|to|on|home|work|school|"
                        r"town|after|before|with)\b)", re.I)


def remaining(clause: str) -> str:
    """``clause`` with "left" of what remains (:data:`_LEFT_OVER`) said as "remaining"."""
    return _LEFT_OVER.sub(lambda m: f"{m[1]}remaining", clause)
