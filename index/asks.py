"""What a question asks for, and the memories that say it: a question asking *when* or how long.

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
"""

from __future__ import annotations

import re

__all__ = ["asks_time", "says_time", "TIME_PATTERN"]

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
