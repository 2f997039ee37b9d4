"""Whether a statement tells a habit at another time than a remembered one: "I drink wine
with dinner now" beside "I drink coffee in the morning", "Sundays are for long walks these
days" beside "I go swimming on Saturdays", "Lunch is usually a cheese sandwich" beside "I
have porridge for breakfast".

A habit held at a time of day or on a day of the week is a value *of that time*: what the
speaker does at another time, with another thing, is another habit, kept beside it (issue
23: a false supersede takes a true fact out of recall). The finders by meaning read such a
statement as close (the same verb, the same kind of thing) and a word of the present
("now", "these days") as a change.

Not another habit: the same thing moved to another time ("I swim on Sundays now" after "I
go swimming on Saturdays": the habit's time changed), nor a statement naming the
memory's time too ("evenings now instead of mornings"), nor one at the same time ("I
have toast for breakfast now").

Why it is general: closed classes of English time words (the parts of a day and its meals,
the days of the week and their groups), compared as sets of times, and the memory's own
content words; no case, value or benchmark. Pure functions over texts.
"""

from __future__ import annotations

import re

from index import terms

__all__ = ["another_time"]

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday")
_WEEKEND = ("saturday", "sunday")

#: Each time word and the times it covers, by kind: the parts of a day (its meals with
#: them) and the days of a week (their groups cover each).
_TIMES: dict[str, tuple[str, frozenset[str]]] = {}
for _word, _covered in {
        "morning": {"morning"}, "mornings": {"morning"}, "breakfast": {"morning"},
        "brekkie": {"morning"}, "dawn": {"morning"}, "sunrise": {"morning"},
        "lunch": {"midday"}, "lunchtime": {"midday"}, "lunchtimes": {"midday"},
        "midday": {"midday"}, "noon": {"midday"},
        "afternoon": {"afternoon"}, "afternoons": {"afternoon"},
        "evening": {"evening"}, "evenings": {"evening"}, "dinner": {"evening"},
        "supper": {"evening"}, "teatime": {"evening"}, "tonight": {"evening", "night"},
        "night": {"night", "evening"}, "nights": {"night", "evening"},
        "bedtime": {"night"}, "overnight": {"night"}}.items():
    _TIMES[_word] = ("day", frozenset(_covered))
for _day in _WEEKDAYS + _WEEKEND:
    _TIMES[_day] = _TIMES[_day + "s"] = ("week", frozenset({_day}))
for _word in ("weekend", "weekends"):
    _TIMES[_word] = ("week", frozenset(_WEEKEND))
for _word in ("weekday", "weekdays", "weeknight", "weeknights"):
    _TIMES[_word] = ("week", frozenset(_WEEKDAYS))

_WORD = re.compile(r"[a-z]+", re.I)
#: Words a habit shares with any other: its verb of doing or having, its time.
_LIGHT = frozenset(terms("i we am is are was were be have has had do does did go goes went "
                         "get gets got usually always often normally generally mostly now "
                         "these days nowadays every each the a an my our for on in at with "
                         "after before day week")) | \
    frozenset(terms(" ".join(_TIMES)))


def _times(text: str) -> dict[str, frozenset[str]]:
    """The times ``text`` names, by kind (``_TIMES``), each kind's covered times joined."""
    found: dict[str, frozenset[str]] = {}
    for word in _WORD.findall(text):
        if (time := _TIMES.get(word.lower())) is not None:
            found[time[0]] = found.get(time[0], frozenset()) | time[1]
    return found


def another_time(sentence: str, memory: str, who: str = "") -> bool:
    """Whether ``sentence`` tells a habit at another time than ``memory`` (a stored fact)
    holds its own, with another thing (see the module's note): a time of the same kind
    (a part of the day, a day of the week) named by both and shared by none, and none of
    the memory's own content words said again."""
    held, told = _times(memory), _times(sentence)
    kinds = [k for k in held if k in told]
    if not kinds or any(held[k] & told[k] for k in kinds):
        return False
    # The memory's verb is shared by most habits ("drinks coffee" and "drink wine"): its
    # object says which habit it is.
    said = re.sub(rf"^\s*(?:{re.escape(who)}|i|we)\s+(?:\w+ly\s+)?\w+\s+", "", memory, flags=re.I) \
        if who else memory
    own = set(terms(said)) - _LIGHT - set(terms(who)) or \
        set(terms(memory)) - _LIGHT - set(terms(who))     # "I run in the mornings"
    return not own & set(terms(sentence))
