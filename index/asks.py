"""What a question asks for, and the memories that say it: *when* or how long, or a thing by name.

A question's first word names the kind of its answer: "When did John get his dog?" is
answered by a memory that says a time ("... we got Max ten years ago", "Last Friday I
took the kids to the museum"), while the memories around it that say what happened but
not when ("Max was such a good boy") share the question's words as much. So a query that
asks when (``asks_time``) lifts the memories that say a time (``says_time``;
``recall.boost_answers``, ``IndexParams.answer_weight``; measured in ``docs/recall.md``,
Answers). It reorders and never filters: an answer that says its time otherwise ("the
day after the party") is still found by its words.

Both sides are read with plain rules about English, no word list of any data set:

- a query asks when where it opens (after any punctuation) with "when", "what/which
  year, month, date, day, week or season", or "how long ago"; or where it asks a span
  anywhere: "how long" before an auxiliary ("How long has Nate had his turtles?", "For
  how long did ...": a duration, answered "for 3 years"; "How long is the trail?" asks a
  measure), "how many days, weeks, months or years", "in/on/during what/which year,
  month, date, day, week or season";
- a memory says a time where it holds one of the expressions of ``TIME_PATTERN``: a day
  word ("yesterday", "today", "tonight", "tomorrow"), "ago", "recently" or "lately";
  "last/next/this/past/previous/coming" before a span or a weekday (a word may sit
  between: "last summer", "this past weekend"); a month's or a weekday's name (not
  "may", a verb far more often); a year from 1900 to 2099; a count of days, weeks,
  months, years or weekends ("two weeks", "10 years", "a few days").

``TIME_PATTERN`` is one regular expression that Python's ``re`` and PostgreSQL's
(``~``) read alike, so both backends mark the same memories (``postgres/columns.py``;
``tests/index/test_asks.py`` checks the file store's reading against it).

A question that opens with "what" or "which" before a noun ("What books has Melanie
read?", "Which cities has Jon visited?", "What game is Nate playing?") asks for a thing,
and a thing is often told by its name ("I just finished 'A Dance with Dragons'", "we
went to Paris", "a game called Xenoblade"), while the turns around it say the kind ("I
love reading") as much. So such a query (``asks_name``) lifts the memories that say a
name (``says_name``: ``NAME_PATTERN``, a capitalised word right after a lowercase one,
or a quote opening on a capital; a sentence's first word, "I", and a name set off as an
address after a comma are not it), by the same weight, but only in the places after
the fifth (``ranking.Ranking._late``): a name is a weaker sign than a time (a person's
other facts say names too: "... a half marathon in October", "... helped by Dave"), so
it orders the list's further instances and leaves the best five as the words rank them.
"What" or "which" before an auxiliary or a modal ("What is", "What did", "Which would")
or a past tense ("What happened", "What inspired") asks something else: an event, a
reason, an attribute. A query that asks when asks a time (``asked``: the time first).
"""

from __future__ import annotations

import re

__all__ = ["asks_time", "says_time", "asks_name", "says_name", "asked", "says",
           "TIME_PATTERN", "NAME_PATTERN", "PATTERNS"]

# Word edges written as lookarounds: PostgreSQL's regular expressions have no ``\b``.
_START = r"(?<![A-Za-z0-9])"
_END = r"(?![A-Za-z0-9])"
_SPANS = (r"(?:weeks?|weekends?|months?|years?|nights?|mornings?|afternoons?|evenings?"
          r"|spring|summer|fall|autumn|winter"
          r"|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?)")
_COUNTS = (r"(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
           r"|few|couple of|[0-9]+)")
TIME_PATTERN = (
    r"(?i)" + _START + "(?:"
    r"yesterday|today|tonight|tomorrow|ago|recently|lately"
    r"|(?:last|next|this|past|previous|coming) +(?:[a-z]+ +)?" + _SPANS
    + r"|january|february|march|april|june|july|august|september|october|november"
    r"|december"
    r"|mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?"
    r"|(?:19|20)[0-9][0-9]"
    r"|" + _COUNTS + r" +(?:days?|weeks?|months?|years?|weekends?)"
    r")" + _END)
"""Whether a text says a time: the same expression in Python's ``re`` and PostgreSQL's."""

_TIME = re.compile(TIME_PATTERN)
_ASKS = re.compile(r"^\W*(?:when|(?:what|which) +(?:year|month|date|day|week|season)"
                   r"|how +long +ago)(?![A-Za-z0-9])", re.IGNORECASE)
# A span asked anywhere in the question: how long something has lasted or took (not "how
# long is the trail", a measure), how many days to years, in which year or month.
_ASKS_SPAN = re.compile(r"(?<![A-Za-z0-9])(?:how +long +(?:has|have|had|did|does|do|was|were"
                        r"|will|would)|how +many +(?:days|weeks|months|years)"
                        r"|(?:in|on|during) +(?:what|which) +(?:year|month|date|day|week"
                        r"|season))(?![A-Za-z0-9])", re.IGNORECASE)


def asks_time(query: str | None) -> bool:
    """Whether ``query`` asks when (the module docstring)."""
    return query is not None and (_ASKS.match(query) is not None
                                  or _ASKS_SPAN.search(query) is not None)


def says_time(content: str) -> bool:
    """Whether ``content`` says a time (``TIME_PATTERN``)."""
    return _TIME.search(content) is not None


# A name said within a sentence: a capitalised word right after a lowercase word (and an
# optional quote), or a quote opening on a capital. Case-sensitive, in Python's ``re`` and
# PostgreSQL's ``~`` alike.
NAME_PATTERN = (_START + r"[a-z]+ +[\"']?[A-Z][a-z]+|\"[A-Z]")
"""Whether a text says a name: the same expression in Python's ``re`` and PostgreSQL's."""

_NAME = re.compile(NAME_PATTERN)
# "what" / "which" before a word that is no auxiliary, modal or past tense: a noun.
_ASKS_NAME = re.compile(r"^\W*(?:what|which) +(?!(?:is|are|was|were|be|been|am|do|does|did"
                        r"|has|have|had|can|could|would|should|will|shall|might|may|must)"
                        r"(?![A-Za-z]))(?![a-z]+ed(?![A-Za-z]))[a-z]", re.IGNORECASE)

#: What a query may ask (``asked``) and the expression of the memories that say it.
PATTERNS = {"time": TIME_PATTERN, "name": NAME_PATTERN}


def asks_name(query: str | None) -> bool:
    """Whether ``query`` asks for a thing by a noun after "what" or "which" (the module
    docstring)."""
    return query is not None and _ASKS_NAME.match(query) is not None


def says_name(content: str) -> bool:
    """Whether ``content`` says a name (``NAME_PATTERN``)."""
    return _NAME.search(content) is not None


def asked(query: str | None) -> str | None:
    """What ``query`` asks for, a key of ``PATTERNS``: "time" (``asks_time``), else
    "name" (``asks_name``); None: neither."""
    if asks_time(query):
        return "time"
    return "name" if asks_name(query) else None


def says(kind: str, content: str) -> bool:
    """Whether ``content`` says what a query asking ``kind`` asks for (``PATTERNS``)."""
    return says_time(content) if kind == "time" else says_name(content)
