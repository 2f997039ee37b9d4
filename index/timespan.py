"""When a query is about: the time span its date words name, as a pure function.

``query_span("What did Nate cook on 9 November, 2022?", now)`` is the day of
2022-11-09 (UTC); ``"...last week"`` is the calendar week (Monday to Monday) before the one
``now`` falls in. Recall uses the span to favour memories whose ``occurred_at`` falls in
it (``recall.boost_time``): a question about "last week" is about what happened last week,
which its words alone rarely say.

English only, and deliberately small: what people write when they ask about a time.

==========================================  ==========================================
phrase                                      span
==========================================  ==========================================
``9 November 2022``, ``November 9th, 2022``,  that day
``2022-11-09``
``November 2022``, ``in Nov 2022``            that month
``in 2022``, ``during 2022``, ``2022``        that year (a bare number 1900-2099)
``November 9``, ``9 Nov`` (no year)            the latest such day up to ``now``
``in November`` (no year)                    the latest November that has begun by ``now``
``today``, ``yesterday``, ``last night``      that day
``this/last week``, ``last weekend``          the calendar week (Monday-based) / its
                                              Saturday and Sunday
``this/last month``, ``this/last year``       the calendar month / year
``N days/weeks/months/years ago``             that day / week / month / year (N a digit
                                              string or a number word up to twelve, or
                                              ``a``)
``last Monday`` ... ``last Sunday``           the latest such day before today
``last spring/summer/autumn/fall/winter``     the latest such season (northern) that has
                                              ended by ``now``
==========================================  ==========================================

Several phrases in one query give one span from the earliest start to the latest end
("between August 11 and August 15 2023"). A span is half-open, ``[start, end)``, in POSIX
seconds, computed in UTC. Nothing here does I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

__all__ = ["TimeSpan", "query_span", "MONTHS"]

MONTHS: dict[str, int] = {}
for _number, _name in enumerate(("january", "february", "march", "april", "may", "june",
                                 "july", "august", "september", "october", "november",
                                 "december"), start=1):
    MONTHS[_name] = _number
    MONTHS[_name[:3]] = _number
MONTHS["sept"] = 9
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
            "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11,
            "twelve": 12}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Northern meteorological seasons: (first month, months long).
_SEASONS = {"spring": (3, 3), "summer": (6, 3), "autumn": (9, 3), "fall": (9, 3),
            "winter": (12, 3)}

_MONTH = r"(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.IGNORECASE)) for kind, pattern in (
        ("iso", r"\b(?P<year>\d{4})-(?P<month>\d\d)-(?P<day>\d\d)\b"),
        ("day", rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s*{_YEAR}\b"),
        ("day", rf"\b{_MONTH}\s+{_DAY},?\s*{_YEAR}\b"),
        ("month", rf"\b{_MONTH},?\s+{_YEAR}\b"),
        ("year", rf"\b{_YEAR}\b"),
        ("day_no_year", rf"\b{_MONTH}\s+{_DAY}\b"),
        ("day_no_year", rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b"),
        ("bare_month", rf"\b(?:in|during|since|of|last)\s+{_MONTH}\b"),
        ("ago", r"\b(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|"
                r"eleven|twelve)\s+(?P<unit>day|week|month|year)s?\s+ago\b"),
        ("relative", r"\b(?P<which>this|last|past)\s+(?P<unit>week|weekend|month|year)\b"),
        ("weekday", r"\blast\s+(?P<weekday>" + "|".join(_WEEKDAYS) + r")\b"),
        ("season", r"\blast\s+(?P<season>spring|summer|autumn|fall|winter)\b"),
        ("named_day", r"\b(?P<named>today|yesterday|last\s+night|tonight|this\s+morning)\b"),
    ))


# Every pattern needs a digit or one of these words: most queries name no time, and a set
# lookup of their words is cheaper than a pass of every pattern.
_KEYWORDS = frozenset({*MONTHS, "ago", "week", "weekend", "month", "year", "today",
                       "yesterday", "night", "tonight", "morning", *_WEEKDAYS, *_SEASONS})
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[a-z]+")


def _may_name_a_time(text: str) -> bool:
    return bool(_DIGIT.search(text)) or not _KEYWORDS.isdisjoint(
        _WORD.findall(text.lower()))


@dataclass(frozen=True)
class TimeSpan:
    """A half-open span ``[start, end)`` in POSIX seconds, and the phrases that named it."""

    start: float
    end: float
    phrases: tuple[str, ...]

    def __post_init__(self) -> None:
        if not self.start < self.end:
            raise ValueError("a time span must end after it starts")


def _ts(day: date) -> float:
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _month_span(year: int, month: int) -> tuple[date, date]:
    first = date(year, month, 1)
    return first, _add_months(first, 1)


def _week_start(day: date) -> date:
    return day - timedelta(days=day.weekday())


def _span_of(kind: str, m: re.Match[str], today: date) -> tuple[date, date] | None:
    """The span one match names, or None when it names no real date."""
    g = m.groupdict()
    if kind in ("iso", "day"):
        month = int(g["month"]) if kind == "iso" else MONTHS[g["month"].lower()]
        try:
            day = date(int(g["year"]), month, int(g["day"]))
        except ValueError:
            return None
        return day, day + timedelta(days=1)
    if kind == "month":
        return _month_span(int(g["year"]), MONTHS[g["month"].lower()])
    if kind == "year":
        year = int(g["year"])
        return date(year, 1, 1), date(year + 1, 1, 1)
    if kind == "day_no_year":
        month, number = MONTHS[g["month"].lower()], int(g["day"])
        for year in (today.year, today.year - 1):
            try:
                day = date(year, month, number)
            except ValueError:
                return None
            if day <= today:
                return day, day + timedelta(days=1)
        return None
    if kind == "bare_month":
        month = MONTHS[g["month"].lower()]
        # "may" is also a verb: only the full word after "in/during/..." is taken, and it
        # is safe because the pattern requires the preposition.
        year = today.year if month <= today.month else today.year - 1
        return _month_span(year, month)
    if kind == "ago":
        n = int(g["n"]) if g["n"].isdigit() else _NUMBERS[g["n"].lower()]
        unit = g["unit"].lower()
        if unit == "day":
            day = today - timedelta(days=n)
            return day, day + timedelta(days=1)
        if unit == "week":
            start = _week_start(today) - timedelta(weeks=n)
            return start, start + timedelta(weeks=1)
        if unit == "month":
            first = _add_months(today.replace(day=1), -n)
            return first, _add_months(first, 1)
        return date(today.year - n, 1, 1), date(today.year - n + 1, 1, 1)
    if kind == "relative":
        back = 0 if g["which"].lower() == "this" else 1
        unit = g["unit"].lower()
        if unit in ("week", "weekend"):
            start = _week_start(today) - timedelta(weeks=back)
            if unit == "weekend":
                if back == 0 and today.weekday() < 5:
                    start -= timedelta(weeks=1)   # "this weekend" before it: the last one
                return start + timedelta(days=5), start + timedelta(days=7)
            return start, start + timedelta(weeks=1)
        if unit == "month":
            first = _add_months(today.replace(day=1), -back)
            return first, _add_months(first, 1)
        return date(today.year - back, 1, 1), date(today.year - back + 1, 1, 1)
    if kind == "weekday":
        wanted = _WEEKDAYS.index(g["weekday"].lower())
        back = (today.weekday() - wanted) % 7 or 7
        day = today - timedelta(days=back)
        return day, day + timedelta(days=1)
    if kind == "season":
        first_month, length = _SEASONS[g["season"].lower()]
        year = today.year
        while True:
            start = date(year, first_month, 1)
            end = _add_months(start, length)
            if end <= today:
                return start, end
            year -= 1
    named = re.sub(r"\s+", " ", g["named"].lower())
    day = today - timedelta(days=1) if named in ("yesterday", "last night") else today
    return day, day + timedelta(days=1)


def query_span(text: str, now: float) -> TimeSpan | None:
    """The time span the date phrases of ``text`` name, relative to ``now`` (POSIX seconds).

    Overlapping phrases count once, the most specific first ("9 November, 2022" is a day,
    not also the year 2022). Returns None when the text names no time.
    """
    if not text or not _may_name_a_time(text):
        return None
    today = datetime.fromtimestamp(now, UTC).date()
    taken = [False] * (len(text) + 1)
    spans: list[tuple[date, date]] = []
    phrases: list[str] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            try:
                span = _span_of(kind, m, today)
            except (ValueError, OverflowError):
                span = None
            if span is None:
                continue
            taken[m.start():m.end()] = [True] * (m.end() - m.start())
            spans.append(span)
            phrases.append(m.group(0))
    if not spans:
        return None
    start = min(s for s, _ in spans)
    end = max(e for _, e in spans)
    return TimeSpan(_ts(start), _ts(end), tuple(phrases))
