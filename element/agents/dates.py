"""When a remembered thing happened: the conversation's date, moved by what a sentence says.

An observe may carry ``session_date`` (ISO 8601: ``2023-05-08`` or ``2023-05-08T13:56:00Z``,
the moment the conversation took place). A memory taken from a sentence that says
"yesterday", "last month", "two weeks ago", "next Friday" happened that much before or after
it; a sentence that names no time happened at the conversation's date. Pure functions: no
I/O, no clock (without a session date there is no ``occurred_at``; the store's own time
stands).

Resolution is calendar arithmetic, not understanding: "last month" is the same day one month
earlier (clamped to the month's end), "last weekend" the Saturday before, "last Friday" the
Friday before (never the same day), "next Friday" the Friday after. Only the first time
expression of a sentence counts.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, timedelta

from ..errors import InvalidRequest
from .episode_words import PAST

__all__ = ["parse_session_date", "occurred_at", "time_phrase", "iso"]

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
            "a couple of": 2, "a couple": 2, "a few": 3, "few": 3, "several": 3}
_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_UNITS = r"(?P<unit>day|week|weekend|month|year)s?"
_COUNT = r"(?P<n>\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
_PHRASES: list[tuple[re.Pattern[str], str]] = [(re.compile(p, re.I), kind) for p, kind in (
    (rf"\b{_COUNT}\s+{_UNITS}\s+ago\b", "ago"),
    (rf"\b(?:in|after)\s+{_COUNT}\s+{_UNITS}\b", "in"),
    (r"\b(?:the\s+)?day\s+before\s+yesterday\b", "-2d"),
    (r"\b(?:the\s+)?day\s+after\s+tomorrow\b", "+2d"),
    (r"\byesterday\b|\blast\s+night\b", "-1d"),
    (r"\btomorrow\b", "+1d"),
    (r"\b(?P<rel>last|next|this\s+past|this\s+coming|this)\s+(?P<unit>week|weekend|month|"
     r"year|summer|winter|spring|fall|autumn)\b", "unit"),
    # Not a habit: "on Wednesday evenings" is every week, no day (as "on Wednesdays" is).
    (r"\b(?P<rel>last|next|this\s+past|this\s+coming|this|on)\s+(?P<day>" + "|".join(_DAYS)
     + r")\b(?!\s+(?:mornings|afternoons|evenings|nights)\b)", "day"),
    (r"\b(?:today|tonight|this\s+morning|this\s+afternoon|this\s+evening|right\s+now)\b", "0d"),
    (r"\b(?:recently|lately|the\s+other\s+day)\b", "0d"),
)]


#: The verb right after a subject ("I went", "we finally had", "Ana saw"): whether a
#: sentence tells what happened or what will.
_SUBJECT_VERB = re.compile(r"\b(?:I|we|he|she|they|[A-Z][a-z]+)\s+(?:\w+ly\s+|just\s+|"
                           r"finally\s+|also\s+|even\s+)?(?P<verb>[a-z]+)\b")


def _told_past(sentence: str) -> bool:
    """Whether ``sentence`` tells of the past: its subject's verb is a past form ("went",
    "had", "visited"), so "on Saturday" is the last Saturday, not the next."""
    m = _SUBJECT_VERB.search(sentence)
    return m is not None and (m["verb"] in PAST or m["verb"].endswith("ed"))


def parse_session_date(raw: object, field: str = "session_date") -> datetime | None:
    """The conversation's moment from an observe body (None when absent).

    A date alone is midnight UTC; a datetime without a zone is taken as UTC.

    :raise InvalidRequest: naming ``field`` when it is not an ISO 8601 date or datetime.
    """
    if raw is None:
        return None
    if not isinstance(raw, str) or not 8 <= len(raw) <= 40:
        raise InvalidRequest(field, "must be an ISO 8601 date or datetime (2023-05-08 or "
                             "2023-05-08T13:56:00Z)")
    text = raw.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidRequest(field, "must be an ISO 8601 date or datetime (2023-05-08 or "
                             "2023-05-08T13:56:00Z)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def iso(moment: datetime) -> str:
    """``2023-05-08T13:56:00Z``: the form ``occurred_at`` is written in."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def time_phrase(sentence: str) -> str | None:
    """The first time expression of ``sentence`` ("last month", "two days ago"), if any."""
    found = _first(sentence)
    return found[0].group(0) if found else None


def _first(sentence: str) -> tuple[re.Match[str], str] | None:
    best: tuple[re.Match[str], str] | None = None
    for pattern, kind in _PHRASES:
        m = pattern.search(sentence)
        if m and (best is None or m.start() < best[0].start()):
            best = (m, kind)
    return best


def _add_months(day: date, months: int) -> date:
    month0 = day.month - 1 + months
    year, month = day.year + month0 // 12, month0 % 12 + 1
    return day.replace(year=year, month=month,
                       day=min(day.day, calendar.monthrange(year, month)[1]))


def _count(raw: str) -> int:
    return int(raw) if raw.isdigit() else _NUMBERS[" ".join(raw.lower().split())]


def _shift(day: date, unit: str, n: int) -> date:
    if unit in ("day",):
        return day + timedelta(days=n)
    if unit in ("week", "weekend"):
        return day + timedelta(weeks=n)
    if unit == "month":
        return _add_months(day, n)
    return _add_months(day, 12 * n)


def _resolve(day: date, m: re.Match[str], kind: str, past: bool = False) -> date:
    if kind.endswith("d") and kind[:-1].lstrip("+-").isdigit():
        return day + timedelta(days=int(kind[:-1]))
    if kind in ("ago", "in"):
        n = _count(m["n"]) * (-1 if kind == "ago" else 1)
        return _shift(day, m["unit"].lower(), n)
    rel = " ".join(m["rel"].lower().split())
    sign = -1 if rel in ("last", "this past") else 1 if rel in ("next", "this coming") else 0
    if kind == "day":
        target = _DAYS.index(m["day"].lower())
        delta = (target - day.weekday()) % 7
        if sign < 0:
            return day - timedelta(days=(day.weekday() - target) % 7 or 7)
        if rel == "on" and past:
            return day - timedelta(days=(day.weekday() - target) % 7)
        if sign > 0 or rel == "on":
            return day + timedelta(days=delta or 7)
        return day + timedelta(days=delta)
    unit = m["unit"].lower()
    if unit == "weekend":
        saturday = day + timedelta(days=(5 - day.weekday()) % 7)
        if sign < 0:
            saturday -= timedelta(days=7)
        elif sign > 0 and saturday - day < timedelta(days=2):
            saturday += timedelta(days=7)
        return saturday
    if unit in ("week", "month", "year"):
        return _shift(day, unit, sign)
    return _shift(day, "month", 3 * sign)       # a season: about three months off


#: A word that tells what will be: "after two weeks" then is a time ahead ("I'll start after
#: two weeks' notice"); without one it is how long something took ("finally qualified
#: after four years", "I left after four years"), and the sentence happened when told.
_FUTURE = re.compile(r"\b(?:will|'ll|shall|going\s+to|gonna|plan|plans|planning|hope\s+to|"
                     r"hoping\s+to|intend|would|'d)\b", re.I)


def _duration(sentence: str, m: re.Match[str], kind: str) -> bool:
    """Whether a span "in"/"after" N units (``kind`` "in") tells how long something took, not
    when it will be: "after" N units in a sentence that says nothing of the future, or
    either told in the past ("I learned French in two years")."""
    if kind != "in":
        return False
    if _told_past(sentence):
        return True
    return m.group(0).lower().startswith("after") and not _FUTURE.search(sentence)


def occurred_at(sentence: str, session: datetime | None) -> datetime | None:
    """When what ``sentence`` tells happened, given the conversation's moment ``session``.

    None without a session date. A sentence without a time expression happened at
    ``session``; one with ("yesterday", "next month") at the day it names, keeping the
    session's time of day.
    """
    if session is None:
        return None
    found = _first(sentence)
    if found is None:
        return session
    m, kind = found
    if _duration(sentence, m, kind):
        return session
    try:
        day = _resolve(session.date(), m, kind, past=kind == "day" and _told_past(sentence))
    except (OverflowError, ValueError):   # a count so large the calendar ends first
        return session
    return datetime.combine(day, session.timetz())
