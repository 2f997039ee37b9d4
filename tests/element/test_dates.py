"""element/dates.py: a session date and what a sentence says give when a thing happened."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from element.agents.dates import iso, occurred_at, parse_session_date, time_phrase
from element.errors import InvalidRequest

# A Monday afternoon.
SESSION = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


@pytest.mark.parametrize("sentence,day", [
    ("I went to a support group", "2023-05-08"),
    ("I went to a support group yesterday", "2023-05-07"),
    ("We had a picnic last night", "2023-05-07"),
    ("I have a dentist appointment tomorrow", "2023-05-09"),
    ("I painted that lake sunrise last year", "2022-05-08"),
    ("We are going camping next month", "2023-06-08"),
    ("I lost my job last month", "2023-04-08"),
    ("I moved here two weeks ago", "2023-04-24"),
    ("I started 3 days ago", "2023-05-05"),
    ("I will know in a few days", "2023-05-11"),
    ("I ran a marathon last week", "2023-05-01"),
    ("We went hiking last weekend", "2023-05-06"),
    ("My recital is next weekend", "2023-05-13"),
    ("I went to a poetry reading last Friday", "2023-05-05"),
    ("The party is on Saturday", "2023-05-13"),
    ("I went to the concert on Saturday", "2023-05-06"),
    ("We finally had a day off on Friday", "2023-05-05"),
    ("I'm going hiking on Sunday", "2023-05-14"),
    ("My class is next Monday", "2023-05-15"),
    ("I saw her last Monday", "2023-05-01"),
    ("I am going to the gym today", "2023-05-08"),
])
def test_relative_times_move_the_session_date(sentence: str, day: str) -> None:
    when = occurred_at(sentence, SESSION)
    assert when is not None and when.strftime("%Y-%m-%d") == day
    assert when.strftime("%H:%M") == "13:56"


@pytest.mark.parametrize("sentence,day", [
    ("I'm an electrician now, finally qualified after four years", "2023-05-08"),
    ("I left after four years", "2023-05-08"),
    ("After two weeks in Spain, I'm back at work", "2023-05-08"),
    ("I learned French in two years", "2023-05-08"),
    ("I'll start the new job after two weeks", "2023-05-22"),
    ("In two weeks we fly to Rome", "2023-05-22"),
])
def test_a_span_that_took_time_is_no_time_ahead(sentence: str, day: str) -> None:
    """"After four years" told of what happened is how long it took: the thing happened when
    told. Read as four years ahead, a new job's supersede was dated 2030, and as of any day
    before that the old job answered."""
    found = occurred_at(sentence, SESSION)
    assert found is not None and iso(found)[:10] == day


@pytest.mark.parametrize("sentence", [
    "I go to choir on Wednesday evenings", "I swim on Saturday mornings",
    "I play five-a-side on Thursday nights", "I volunteer on Saturdays",
])
def test_a_weekly_habit_names_no_day(sentence: str) -> None:
    """A habit told by its weekday holds from when it was said, not from next week: a
    memory dated in the future would be missing from a search ``as_of`` today."""
    assert occurred_at(sentence, SESSION) == SESSION


def test_month_arithmetic_clamps_to_the_month_end() -> None:
    end = datetime(2023, 3, 31, tzinfo=UTC)
    when = occurred_at("I moved last month", end)
    assert when is not None and when.date().isoformat() == "2023-02-28"


def test_without_a_session_date_there_is_no_occurred_at() -> None:
    assert occurred_at("I went there yesterday", None) is None


def test_the_first_time_expression_counts() -> None:
    assert time_phrase("Yesterday I booked a trip for next month") == "Yesterday"
    assert time_phrase("nothing about time here") is None


@pytest.mark.parametrize("raw,expected", [
    ("2023-05-08", "2023-05-08T00:00:00Z"),
    ("2023-05-08T13:56:00Z", "2023-05-08T13:56:00Z"),
    ("2023-05-08T15:56:00+02:00", "2023-05-08T13:56:00Z"),
    ("2023-05-08T13:56:00", "2023-05-08T13:56:00Z"),
])
def test_session_dates_are_iso_8601(raw: str, expected: str) -> None:
    moment = parse_session_date(raw)
    assert moment is not None and iso(moment) == expected


@pytest.mark.parametrize("raw", ["8 May 2023", "yesterday", "2023-13-01", 20230508, "",
                                 "x" * 100, True, {"date": "2023-05-08"}])
def test_a_bad_session_date_names_the_field(raw: object) -> None:
    with pytest.raises(InvalidRequest, match="session_date"):
        parse_session_date(raw)


@given(st.text(max_size=200), st.datetimes(timezones=st.just(UTC)))
def test_any_sentence_at_any_date_resolves_or_stays(sentence: str, session: datetime) -> None:
    when = occurred_at(sentence, session)
    assert when is not None and when.tzinfo is not None
