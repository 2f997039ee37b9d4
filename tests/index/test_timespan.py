"""The date phrases of a query as a time span (index/timespan.py): pure functions."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.timespan import MONTHS, TimeSpan, query_span

PROFILE = settings.get_profile("triform-index")
NOW = datetime(2023, 12, 20, 15, 30, tzinfo=UTC).timestamp()   # a Wednesday


def days(text: str, now: float = NOW) -> tuple[date, date] | None:
    span = query_span(text, now)
    if span is None:
        return None
    return (datetime.fromtimestamp(span.start, UTC).date(),
            datetime.fromtimestamp(span.end, UTC).date())


@pytest.mark.parametrize("text, start, end", [
    ("What movie did Nate watch on October 6, 2022?", date(2022, 10, 6), date(2022, 10, 7)),
    ("What dish did Nate make on 9 November, 2022?", date(2022, 11, 9), date(2022, 11, 10)),
    ("Which book did Tim finish on 8th December, 2023?", date(2023, 12, 8), date(2023, 12, 9)),
    ("the forest picture shared on December 1,2023", date(2023, 12, 1), date(2023, 12, 2)),
    ("notes from 2022-02-28", date(2022, 2, 28), date(2022, 3, 1)),
    ("the 3rd of March 2021", date(2021, 3, 3), date(2021, 3, 4)),
    ("a photo from November 2022", date(2022, 11, 1), date(2022, 12, 1)),
    ("What did John achieve in 2023?", date(2023, 1, 1), date(2024, 1, 1)),
    ("Where was John between August 11 and August 15 2023?", date(2023, 8, 11),
     date(2023, 8, 16)),
    ("What deal did John get in December?", date(2023, 12, 1), date(2024, 1, 1)),
    ("What happened in May?", date(2023, 5, 1), date(2023, 6, 1)),
    ("today", date(2023, 12, 20), date(2023, 12, 21)),
    ("What did I eat yesterday?", date(2023, 12, 19), date(2023, 12, 20)),
    ("the film last night", date(2023, 12, 19), date(2023, 12, 20)),
    ("What did we do last week?", date(2023, 12, 11), date(2023, 12, 18)),
    ("this week", date(2023, 12, 18), date(2023, 12, 25)),
    ("last weekend", date(2023, 12, 16), date(2023, 12, 18)),
    ("last month", date(2023, 11, 1), date(2023, 12, 1)),
    ("this year", date(2023, 1, 1), date(2024, 1, 1)),
    ("last year", date(2022, 1, 1), date(2023, 1, 1)),
    ("3 days ago", date(2023, 12, 17), date(2023, 12, 18)),
    ("two weeks ago", date(2023, 12, 4), date(2023, 12, 11)),
    ("a month ago", date(2023, 11, 1), date(2023, 12, 1)),
    ("last Tuesday", date(2023, 12, 19), date(2023, 12, 20)),
    ("last Wednesday", date(2023, 12, 13), date(2023, 12, 14)),
    ("last summer", date(2023, 6, 1), date(2023, 9, 1)),
    ("last winter", date(2022, 12, 1), date(2023, 3, 1)),
    ("31 February 2023", date(2023, 2, 1), date(2023, 3, 1)),   # no such day: the month
])
def test_phrases_name_their_span(text, start, end):
    assert days(text) == (start, end)


@pytest.mark.parametrize("text", [
    "", "What does Ana drink?", "I may go", "room 2200 is free",
    "Call me at 10:30", "march forward",
])
def test_text_without_a_date_names_no_span(text):
    assert days(text) is None


def test_the_span_keeps_the_phrases_it_came_from():
    span = query_span("on 9 November, 2022", NOW)
    assert span is not None and span.phrases == ("9 November, 2022",)


def test_a_span_must_end_after_it_starts():
    with pytest.raises(ValueError):
        TimeSpan(5.0, 5.0, ())


_MONTH_NAMES = [name for name in MONTHS if len(name) > 3 and name != "sept" or name == "may"]


@settings(PROFILE, max_examples=200)
@given(day=st.dates(min_value=date(1900, 1, 1), max_value=date(2099, 12, 31)),
       style=st.sampled_from(["{d} {m} {y}", "{m} {d}, {y}", "{d}th of {m}, {y}",
                              "{y}-{mm:02d}-{d:02d}"]),
       now=st.floats(min_value=0, max_value=4_000_000_000))
def test_any_written_date_is_that_day_whatever_now(day, style, now):
    name = [n for n in _MONTH_NAMES if MONTHS[n] == day.month][0]
    text = "what happened on " + style.format(d=day.day, m=name.title(), y=day.year,
                                              mm=day.month)
    assert days(text, now) == (day, day + timedelta(days=1))


@settings(PROFILE, max_examples=200)
@given(text=st.text(max_size=80), now=st.floats(min_value=0, max_value=4_000_000_000))
def test_any_text_gives_none_or_a_proper_span(text, now):
    span = query_span(text, now)
    assert span is None or span.start < span.end


@settings(PROFILE, max_examples=100)
@given(now=st.floats(min_value=86_400 * 800, max_value=4_000_000_000),
       phrase=st.sampled_from(["yesterday", "last week", "last weekend", "last month",
                               "last year", "last Monday", "last summer", "2 days ago",
                               "a week ago", "3 months ago", "last night"]))
def test_past_phrases_end_no_later_than_today(now, phrase):
    span = query_span(phrase, now)
    today = datetime.fromtimestamp(now, UTC).date()
    midnight = datetime(today.year, today.month, today.day, tzinfo=UTC).timestamp()
    assert span is not None and span.end <= midnight
