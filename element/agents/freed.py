"""Time told free again: the speaker's habit on those days is over.

People often tell an ending by its aftermath on the week rather than by the thing: "Another
dad has taken over the whistle, so my Saturdays are my own again", "Thursdays are mine
again since I handed in my apron", "I sold the hives, so my Sunday mornings are free now",
"I've got my evenings back". The thing itself is named in other words, or not at all; the
time it took is the memory's own word ("coaches a team on Saturday mornings", "volunteers
at the bookshop on Thursdays", "runs a stall at the Sunday market"). So the speaker's one
held habit that names that time is the one told over (:func:`freed_target`).

What frees nothing: a single day ("my Saturday is free", an occasion, not a habit); a pause
or an occasion said with it ("Tuesdays are empty until half-term", "my evenings are free
this week", "while the pool is shut", "for now"); another person's time ("his Saturdays
are his own"); a question, a plan or a wish; a time two held habits share (none is meant).

Why it is general: the closed class of times of the week (days, their parts, weekends) and
the few English shapes of time told as one's own or free again; the memory's own words
decide which habit; no model, no case, no benchmark, no name. Pure functions over texts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .updates import Memory, the_one_said

__all__ = ["freed_times", "freed_target"]

_DAYS = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
#: A recurring time of the week, plural (a habit's time, not one day's): "Saturdays",
#: "my Sunday mornings", "weekends", "my evenings", "Tuesday nights".
_TIMES = (rf"(?:{_DAYS}s|(?:{_DAYS}\s+)?(?:mornings|afternoons|evenings|nights|lunchtimes)|"
          rf"weekends)")
#: The time said to be the speaker's own or free: "my Saturdays are my own again",
#: "Thursdays are mine again", "my Sunday mornings are free now", "evenings are finally
#: clear".
_OWN = re.compile(rf"(?:^|\b(?:so|and|now|but)\s+|[,;]\s*)(?:(?:my|our)\s+)?(?P<t>{_TIMES})\s+"
                  rf"(?:are|'re|have\s+been)\s+"
                  rf"(?:(?:now|all|finally|completely|suddenly|properly|totally|once\s+more)\s+)*"
                  rf"(?:(?:my|our)\s+own|mine|ours|free|empty|clear|wide\s+open)\b", re.I)
#: The time given back to the speaker: "I've got my Saturdays back", "we have our weekends
#: back".
_BACK = re.compile(rf"\b(?:i|we)(?:'ve|\s+have)?\s+(?:(?:finally|now|just)\s+)*(?:got|get|have)\s+"
                   rf"(?:my|our)\s+(?P<t>{_TIMES})\s+back\b", re.I)
#: A pause or one occasion said with it: the time is free for a while, not for good.
_WHILE = re.compile(r"\b(?:until|till|til|while|whilst|for\s+(?:now|a\s+(?:bit|while|few|"
                    r"couple)|the\s+(?:next|time\s+being|moment|summer|winter|holidays?))|"
                    r"this\s+(?:week|month|term|summer|winter|spring|autumn)|next\s+(?:week|"
                    r"month)|half-term|temporarily|on\s+hold|break|holidays?|"
                    r"(?:will|'ll|gonna|going\s+to|might|could|would|hope|wish)\b)", re.I)
#: Another person's time: "his Saturdays are his own".
_THEIRS = re.compile(r"\b(?:his|her|their|your)\s+(?:\w+\s+)?(?:own|back)\b", re.I)


def _stem(word: str) -> str:
    return re.sub(r"s$", "", word.lower())


def freed_times(sentence: str) -> list[tuple[str, ...]]:
    """The recurring times ``sentence`` (first person, cleaned) tells free for good, each as
    its words in the singular (("saturday",), ("sunday", "morning")); none for a question,
    a pause or an occasion, or another's time."""
    if sentence.rstrip().endswith("?") or _WHILE.search(sentence) or _THEIRS.search(sentence):
        return []
    found = []
    for pattern in (_OWN, _BACK):
        for m in pattern.finditer(sentence):
            found.append(tuple(_stem(w) for w in m["t"].split()))
    return found


def _holds(fact: str, time: tuple[str, ...]) -> bool:
    """Whether a first-person fact's words name the time (its day, and its part of the day
    when the time has no day: "evenings" and "evening classes")."""
    words = [_stem(w) for w in re.findall(r"[\w'-]+", fact)]
    day = [w for w in time if w.endswith("day")]
    if day:
        return day[0] in words
    return time[-1] in words or time[-1] == "weekend" and "weekend" in words


def freed_target(sentence: str, held: Iterable[Memory], who: str,
                 skip: Sequence[str] = ()) -> Memory | None:
    """The one memory of ``held`` (the speaker's one-fact habits held now) naming a time
    ``sentence`` tells free for good (see the module's note), or None: no such time, or
    none or several habits name it."""
    times = freed_times(sentence)
    if not times:
        return None
    return the_one_said(held, who, lambda said: any(_holds(said, t) for t in times), skip)
