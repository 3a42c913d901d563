"""The forms a probe of `coordbot parse-date` found unread or misread, by class.

Two-digit years ("01.12.26", "Nov '26"), shorthand with a digit ("2day") and shorthand
inside a phrase said otherwise ("day after tmrw"), "onwards", "new year", counting back
("two weeks back", "last 24h", "newer than 3 days", "october of last year"), a time of
day after a day (read as that whole day), the beginning of a year (its first seven
days, as a month's) and slashed dates in one range (one order for both ends).

The clock: Wednesday 25 Nov 2026, 11:00 in Berlin (CET). Expected ranges are local
days [first, after_last); a rolling window is a pair of instants.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from app.nlp.date_ranges import DateRange, parse_date_range
from app.nlp.date_words import local_midnight
from app.nlp.dates import parse_deadline

TZ = "Europe/Berlin"
NOW = datetime(2026, 11, 25, 10, tzinfo=UTC)
D = date
Day = date | None


def _read(phrase: str, direction: str = "nearest") -> DateRange | None:
    return parse_date_range(phrase, NOW, TZ, direction)  # type: ignore[arg-type]


def _days(first: Day, after: Day) -> DateRange:
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(TZ)
    return DateRange(
        local_midnight(first, zone) if first else None,
        local_midnight(after, zone) if after else None,
    )


TWO_DIGIT_YEARS = [
    ("01.12.26", D(2026, 12, 1), D(2026, 12, 2)),  # dots are day first, as with four digits
    ("1.12.26", D(2026, 12, 1), D(2026, 12, 2)),
    ("31.1.27", D(2027, 1, 31), D(2027, 2, 1)),
    ("Nov '26", D(2026, 11, 1), D(2026, 12, 1)),
    ("nov ’26", D(2026, 11, 1), D(2026, 12, 1)),
    ("summer '25", D(2025, 6, 1), D(2025, 9, 1)),
    ("since '24", D(2024, 1, 1), None),
    ("12/1/26", D(2026, 12, 1), D(2026, 12, 2)),  # slashes month first ...
    ("25/12/26", D(2026, 12, 25), D(2026, 12, 26)),  # ... unless it cannot be
]
SHORTHAND = [
    ("2day", D(2026, 11, 25), D(2026, 11, 26)),
    ("since 2day", D(2026, 11, 25), None),
    ("day after tmrw", D(2026, 11, 27), D(2026, 11, 28)),
    ("the day after 2moro", D(2026, 11, 27), D(2026, 11, 28)),
    ("the day b4 yday", D(2026, 11, 23), D(2026, 11, 24)),
    ("this past wk", None, None),  # a rolling week: checked below
    ("2 wks back", D(2026, 11, 11), D(2026, 11, 12)),
]
ONWARDS = [
    ("from 2025 onwards", D(2025, 1, 1), None),  # from a year on, not in it
    ("from the 1st of dec onwards", D(2026, 12, 1), None),
    ("2025 onward", D(2025, 1, 1), None),
    ("from march onwards", D(2027, 3, 1), None),  # the nearest March, as "from march"
    ("since march onwards", D(2026, 3, 1), None),  # "since" looks back, as alone
    ("from monday onwards", D(2026, 11, 23), None),
]
NEW_YEAR = [
    ("since new year", D(2026, 1, 1), None),
    ("since the new year", D(2026, 1, 1), None),
    ("after new years", D(2027, 1, 2), None),
    ("before new year's", None, D(2027, 1, 1)),
    ("new year", D(2027, 1, 1), D(2027, 1, 2)),  # the nearest
    ("new year's eve", D(2026, 12, 31), D(2027, 1, 1)),  # still the eve
]
COUNTED_BACK = [
    ("two weeks back", D(2026, 11, 11), D(2026, 11, 12)),
    ("3 days back", D(2026, 11, 22), D(2026, 11, 23)),
    ("a month back", D(2026, 10, 25), D(2026, 10, 26)),
    ("october of last year", D(2025, 10, 1), D(2025, 11, 1)),
    ("october last year", D(2025, 10, 1), D(2025, 11, 1)),
    ("may of next year", D(2027, 5, 1), D(2027, 6, 1)),
    ("march of this year", D(2026, 3, 1), D(2026, 4, 1)),
]
HOURS = [  # rolling windows back from now, to the minute
    ("last 24h", 24),
    ("past 48 hours", 48),
    ("last 24 hours", 24),
    ("the past 6h", 6),
    ("last 24 hrs", 24),
    ("newer than 3 days", 72),
    ("younger than 2 days", 48),
]
TIME_OF_DAY = [  # a day with a time of day is that whole day
    ("yesterday evening", D(2026, 11, 24)),
    ("friday 5pm", D(2026, 11, 27)),
    ("friday at 5pm", D(2026, 11, 27)),
    ("fri 17:00", D(2026, 11, 27)),
    ("next friday 5pm", D(2026, 11, 27)),
    ("tmrw 18:00", D(2026, 11, 26)),
    ("tomorrow morning", D(2026, 11, 26)),
    ("5pm on friday", D(2026, 11, 27)),
    ("monday night", D(2026, 11, 23)),
    ("dec 3 at noon", D(2026, 12, 3)),
    ("tonight", D(2026, 11, 25)),
    ("this morning", D(2026, 11, 25)),
    ("last night", D(2026, 11, 24)),
]
EDGES = [  # "beginning/start of" any period: its first 7 days (a week's: Mon and Tue)
    ("start of next year", D(2027, 1, 1), D(2027, 1, 8)),
    ("beginning of the year", D(2026, 1, 1), D(2026, 1, 8)),
    ("start of december", D(2026, 12, 1), D(2026, 12, 8)),
    ("start of q3", D(2026, 7, 1), D(2026, 7, 8)),
    ("beginning of next week", D(2026, 11, 30), D(2026, 12, 2)),
    ("early next year", D(2027, 1, 1), D(2027, 2, 1)),  # "early": still the first month
    ("end of next year", D(2027, 12, 31), D(2028, 1, 1)),
    ("since the beginning of the year", D(2026, 1, 1), None),
]
SLASHED_SPANS = [
    ("from 1/11 to 15/11", D(2026, 11, 1), D(2026, 11, 16)),  # "15/11" decides: day first
    ("1/11-15/11", D(2026, 11, 1), D(2026, 11, 16)),
    ("between 28/11 and 2/12", D(2026, 11, 28), D(2026, 12, 3)),
    ("from 15/11/2026 to 1/12/2026", D(2026, 11, 15), D(2026, 12, 2)),
    ("from 11/1 to 11/15", D(2026, 11, 1), D(2026, 11, 16)),  # both can be: month first
]


@pytest.mark.parametrize(
    ("phrase", "first", "after"),
    [r for r in TWO_DIGIT_YEARS + SHORTHAND + ONWARDS + NEW_YEAR + COUNTED_BACK if r[1] or r[2]]
    + EDGES
    + SLASHED_SPANS,
)
def test_the_form_reads_as_meant(phrase: str, first: Day, after: Day) -> None:
    assert _read(phrase) == _days(first, after)


@pytest.mark.parametrize(("phrase", "hours"), HOURS)
def test_a_count_of_hours_back_is_a_window_to_now(phrase: str, hours: int) -> None:
    assert _read(phrase) == DateRange(NOW - timedelta(hours=hours), NOW)


@pytest.mark.parametrize(("phrase", "day"), TIME_OF_DAY)
def test_a_day_with_a_time_of_day_is_that_day(phrase: str, day: date) -> None:
    assert _read(phrase) == _days(day, day + timedelta(days=1))


def test_shorthand_reads_inside_a_phrase_as_spelt_out() -> None:
    assert _read("this past wk") == _read("this past week") is not None
    assert _read("a couple of wks back") == _read("2 weeks ago") is not None


def test_a_time_of_day_after_more_than_a_day_reads_nothing_new() -> None:
    assert _read("q3 5pm") is None and _read("december evening") is None


def test_deadlines_keep_their_time() -> None:
    """A deadline reads the time ("friday 5pm" closes at 17:00), and "2day" is still
    two days, as "2h" is two hours."""
    assert parse_deadline("friday 5pm", NOW, TZ) == datetime(2026, 11, 27, 16, tzinfo=UTC)
    assert parse_deadline("2day", NOW, TZ) == NOW + timedelta(days=2)
    assert parse_deadline("01.12.26", NOW, TZ) == datetime(2026, 12, 1, 22, 59, tzinfo=UTC)
