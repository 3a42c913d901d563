"""Date phrases: deadlines, question ranges and finding the phrase in a question.

Every test pins ``now``; none depends on the real date. The instants are chosen to
cross week, month and year boundaries and a DST change, and to sit near midnight so
that the user's zone puts "today" on a different date than UTC does.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import DateParseError, ValidationError
from app.nlp.date_extract import extract_date_phrase
from app.nlp.date_ranges import DateRange, parse_date_range
from app.nlp.dates import parse_deadline


def utc(y: int, mo: int, d: int, h: int = 0, mi: int = 0) -> datetime:
    return datetime(y, mo, d, h, mi, tzinfo=UTC)


SUNDAY = utc(2026, 11, 22, 10)  # Sunday, mid-morning everywhere below
NEW_YEAR = utc(2026, 1, 1, 2)  # Thursday 02:00 UTC = Wednesday 31 Dec 21:00 in New York
MARCH_1 = utc(2026, 3, 1, 12)  # the Sunday just after February
MONDAY_AFTER_DST = utc(2026, 11, 2, 15)  # Monday; New York left DST on Sunday Nov 1
BERLIN_MIDNIGHT = utc(2026, 6, 30, 22, 30)  # 00:30 on Wednesday 1 July in Berlin
NY, BERLIN = "America/New_York", "Europe/Berlin"

# Written when every year-less date was read towards the past: they still are, asked so.
RANGES = [
    # --- single days and calendar periods, asked on Sunday 2026-11-22 in UTC
    ("today", SUNDAY, "UTC", utc(2026, 11, 22), utc(2026, 11, 23)),
    ("yesterday", SUNDAY, "UTC", utc(2026, 11, 21), utc(2026, 11, 22)),
    ("tomorrow", SUNDAY, "UTC", utc(2026, 11, 23), utc(2026, 11, 24)),
    ("this week", SUNDAY, "UTC", utc(2026, 11, 16), utc(2026, 11, 23)),
    ("last week", SUNDAY, "UTC", utc(2026, 11, 9), utc(2026, 11, 16)),
    ("next week", SUNDAY, "UTC", utc(2026, 11, 23), utc(2026, 11, 30)),
    ("upcoming week", SUNDAY, "UTC", utc(2026, 11, 23), utc(2026, 11, 30)),
    ("this weekend", SUNDAY, "UTC", utc(2026, 11, 21), utc(2026, 11, 23)),
    ("last weekend", SUNDAY, "UTC", utc(2026, 11, 14), utc(2026, 11, 16)),
    ("this month", SUNDAY, "UTC", utc(2026, 11, 1), utc(2026, 12, 1)),
    ("last month", SUNDAY, "UTC", utc(2026, 10, 1), utc(2026, 11, 1)),
    ("next month", SUNDAY, "UTC", utc(2026, 12, 1), utc(2027, 1, 1)),
    ("this year", SUNDAY, "UTC", utc(2026, 1, 1), utc(2027, 1, 1)),
    ("last year", SUNDAY, "UTC", utc(2025, 1, 1), utc(2026, 1, 1)),
    # --- months and years; a month without a year is the latest one not in the future
    ("in July 2024", SUNDAY, "UTC", utc(2024, 7, 1), utc(2024, 8, 1)),
    ("July 2024", SUNDAY, "UTC", utc(2024, 7, 1), utc(2024, 8, 1)),
    ("May 2026", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 6, 1)),
    ("in 2025", SUNDAY, "UTC", utc(2025, 1, 1), utc(2026, 1, 1)),
    ("May", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 6, 1)),
    ("December", SUNDAY, "UTC", utc(2025, 12, 1), utc(2026, 1, 1)),
    ("in November", SUNDAY, "UTC", utc(2026, 11, 1), utc(2026, 12, 1)),
    ("last May", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 6, 1)),
    ("next May", SUNDAY, "UTC", utc(2027, 5, 1), utc(2027, 6, 1)),
    # --- explicit days; without a year, the most recent past occurrence
    ("on May 5th", SUNDAY, "UTC", utc(2026, 5, 5), utc(2026, 5, 6)),
    ("May 5", SUNDAY, "UTC", utc(2026, 5, 5), utc(2026, 5, 6)),
    ("the 5th of May", SUNDAY, "UTC", utc(2026, 5, 5), utc(2026, 5, 6)),
    ("2026-05-05", SUNDAY, "UTC", utc(2026, 5, 5), utc(2026, 5, 6)),
    ("December 25", SUNDAY, "UTC", utc(2025, 12, 25), utc(2025, 12, 26)),
    ("5/10/2026", SUNDAY, "UTC", utc(2026, 5, 10), utc(2026, 5, 11)),
    ("3 days ago", SUNDAY, "UTC", utc(2026, 11, 19), utc(2026, 11, 20)),
    # --- open-ended
    ("before May 10th", SUNDAY, "UTC", None, utc(2026, 5, 10)),
    ("until May 10", SUNDAY, "UTC", None, utc(2026, 5, 11)),
    ("by May 10", SUNDAY, "UTC", None, utc(2026, 5, 11)),
    ("since Monday", SUNDAY, "UTC", utc(2026, 11, 16), None),
    ("since last week", SUNDAY, "UTC", utc(2026, 11, 9), None),
    ("after May 1", SUNDAY, "UTC", utc(2026, 5, 2), None),
    ("from May 1", SUNDAY, "UTC", utc(2026, 5, 1), None),
    # "from" a whole period means in it: "proposals from last month"
    ("from last month", SUNDAY, "UTC", utc(2026, 10, 1), utc(2026, 11, 1)),
    ("from July", SUNDAY, NY, utc(2026, 7, 1, 4), utc(2026, 8, 1, 4)),
    ("from 2025", SUNDAY, "UTC", utc(2025, 1, 1), utc(2026, 1, 1)),
    ("from last week", SUNDAY, BERLIN, utc(2026, 11, 8, 23), utc(2026, 11, 15, 23)),
    # --- spans, both ends inclusive
    ("between May 1 and May 10", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 5, 11)),
    ("from May 1 to May 10", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 5, 11)),
    ("May 1 - May 10", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 5, 11)),
    ("May 1-10", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 5, 11)),
    ("between May 1 and May 10, 2025", SUNDAY, "UTC", utc(2025, 5, 1), utc(2025, 5, 11)),
    ("from December 20 to January 5", SUNDAY, "UTC", utc(2025, 12, 20), utc(2026, 1, 6)),
    ("2026-05-01 - 2026-05-10", SUNDAY, "UTC", utc(2026, 5, 1), utc(2026, 5, 11)),
    ("between Friday and Monday", SUNDAY, "UTC", utc(2026, 11, 20), utc(2026, 11, 24)),
    # --- rolling windows end (or start) at now
    ("past 3 days", SUNDAY, "UTC", utc(2026, 11, 19, 10), SUNDAY),
    ("last 2 weeks", SUNDAY, "UTC", utc(2026, 11, 8, 10), SUNDAY),
    ("in the last 10 days", SUNDAY, "UTC", utc(2026, 11, 12, 10), SUNDAY),
    ("the last 24 hours", SUNDAY, "UTC", utc(2026, 11, 21, 10), SUNDAY),
    ("over the past month", SUNDAY, "UTC", utc(2026, 10, 22, 10), SUNDAY),
    ("the past week", SUNDAY, "UTC", utc(2026, 11, 15, 10), SUNDAY),
    ("last 7 days", SUNDAY, "UTC", utc(2026, 11, 15, 10), SUNDAY),
    ("recently", SUNDAY, "UTC", utc(2026, 11, 15, 10), SUNDAY),
    ("recent", SUNDAY, "UTC", utc(2026, 11, 15, 10), SUNDAY),
    ("in the next 3 days", SUNDAY, "UTC", SUNDAY, utc(2026, 11, 25, 10)),
    # --- weekdays: alone = latest one (today counts); "last" = strictly before today
    ("last Monday", SUNDAY, "UTC", utc(2026, 11, 16), utc(2026, 11, 17)),
    ("on Friday", SUNDAY, "UTC", utc(2026, 11, 20), utc(2026, 11, 21)),
    ("Sunday", SUNDAY, "UTC", utc(2026, 11, 22), utc(2026, 11, 23)),
    ("last Sunday", SUNDAY, "UTC", utc(2026, 11, 15), utc(2026, 11, 16)),
    ("next Monday", SUNDAY, "UTC", utc(2026, 11, 23), utc(2026, 11, 24)),
    # --- New Year: UTC is already in 2026, New York is still in 2025
    ("today", NEW_YEAR, "UTC", utc(2026, 1, 1), utc(2026, 1, 2)),
    ("today", NEW_YEAR, NY, utc(2025, 12, 31, 5), utc(2026, 1, 1, 5)),
    ("yesterday", NEW_YEAR, NY, utc(2025, 12, 30, 5), utc(2025, 12, 31, 5)),
    ("this year", NEW_YEAR, "UTC", utc(2026, 1, 1), utc(2027, 1, 1)),
    ("this year", NEW_YEAR, NY, utc(2025, 1, 1, 5), utc(2026, 1, 1, 5)),
    ("last month", NEW_YEAR, "UTC", utc(2025, 12, 1), utc(2026, 1, 1)),
    ("last month", NEW_YEAR, NY, utc(2025, 11, 1, 4), utc(2025, 12, 1, 5)),  # EDT -> EST
    ("January", NEW_YEAR, "UTC", utc(2026, 1, 1), utc(2026, 2, 1)),
    ("January", NEW_YEAR, NY, utc(2025, 1, 1, 5), utc(2025, 2, 1, 5)),
    ("this week", NEW_YEAR, "UTC", utc(2025, 12, 29), utc(2026, 1, 5)),
    ("the last 24 hours", NEW_YEAR, NY, utc(2025, 12, 31, 2), NEW_YEAR),
    # --- just after February
    ("last month", MARCH_1, "UTC", utc(2026, 2, 1), utc(2026, 3, 1)),
    ("February", MARCH_1, "UTC", utc(2026, 2, 1), utc(2026, 3, 1)),
    ("over the past month", MARCH_1, "UTC", utc(2026, 2, 1, 12), MARCH_1),
    ("past month", utc(2026, 3, 31, 12), "UTC", utc(2026, 2, 28, 12), utc(2026, 3, 31, 12)),
    ("this week", MARCH_1, "UTC", utc(2026, 2, 23), utc(2026, 3, 2)),
    ("Feb 29", MARCH_1, "UTC", utc(2024, 2, 29), utc(2024, 3, 1)),
    # --- a Monday right after New York left daylight saving time
    ("last week", MONDAY_AFTER_DST, NY, utc(2026, 10, 26, 4), utc(2026, 11, 2, 5)),
    ("this week", MONDAY_AFTER_DST, NY, utc(2026, 11, 2, 5), utc(2026, 11, 9, 5)),
    ("last weekend", MONDAY_AFTER_DST, NY, utc(2026, 10, 31, 4), utc(2026, 11, 2, 5)),
    ("since Monday", MONDAY_AFTER_DST, NY, utc(2026, 11, 2, 5), None),
    ("last Monday", MONDAY_AFTER_DST, NY, utc(2026, 10, 26, 4), utc(2026, 10, 27, 4)),
    # --- just after midnight in Berlin, still June 30 in UTC
    ("today", BERLIN_MIDNIGHT, "UTC", utc(2026, 6, 30), utc(2026, 7, 1)),
    ("today", BERLIN_MIDNIGHT, BERLIN, utc(2026, 6, 30, 22), utc(2026, 7, 1, 22)),
    ("yesterday", BERLIN_MIDNIGHT, BERLIN, utc(2026, 6, 29, 22), utc(2026, 6, 30, 22)),
    ("this month", BERLIN_MIDNIGHT, "UTC", utc(2026, 6, 1), utc(2026, 7, 1)),
    ("this month", BERLIN_MIDNIGHT, BERLIN, utc(2026, 6, 30, 22), utc(2026, 7, 31, 22)),
]


@pytest.mark.parametrize(("phrase", "now", "tz", "start", "end"), RANGES)
def test_parse_date_range(
    phrase: str, now: datetime, tz: str, start: datetime | None, end: datetime | None
) -> None:
    assert parse_date_range(phrase, now, tz, "past") == DateRange(start, end)


@pytest.mark.parametrize(
    "phrase",
    ["banana", "", "   ", "the 99th of Smarch", "February 30", "what may I do", "last 0 days"],
)
@pytest.mark.parametrize("tz", ["UTC", NY])
def test_parse_date_range_returns_none_without_a_date(phrase: str, tz: str) -> None:
    assert parse_date_range(phrase, SUNDAY, tz) is None


def test_parse_date_range_is_case_and_punctuation_insensitive() -> None:
    assert parse_date_range("  LAST   Week? ", SUNDAY, "UTC") == parse_date_range(
        "last week", SUNDAY, "UTC"
    )


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_parse_date_range_never_raises(phrase: str) -> None:
    found = parse_date_range(phrase, SUNDAY, NY)
    assert found is None or isinstance(found, DateRange)


FRIDAY = utc(2026, 11, 20, 9)  # Friday: 10:00 in Berlin, 04:00 in New York

DEADLINES = [
    # durations count from now
    ("3 days", FRIDAY, "UTC", utc(2026, 11, 23, 9)),
    ("2h", FRIDAY, "UTC", utc(2026, 11, 20, 11)),
    ("90 minutes", FRIDAY, "UTC", utc(2026, 11, 20, 10, 30)),
    ("1 week", FRIDAY, "UTC", utc(2026, 11, 27, 9)),
    ("2 weeks 3 days", FRIDAY, "UTC", utc(2026, 12, 7, 9)),
    ("in 5 days", FRIDAY, "UTC", utc(2026, 11, 25, 9)),
    ("a day", FRIDAY, "UTC", utc(2026, 11, 21, 9)),
    ("1h30m", FRIDAY, "UTC", utc(2026, 11, 20, 10, 30)),
    ("2 days and 3 hours", FRIDAY, "UTC", utc(2026, 11, 22, 12)),
    ("3 days from now", FRIDAY, BERLIN, utc(2026, 11, 23, 9)),
    ("1 month", utc(2026, 1, 31, 12), "UTC", utc(2026, 2, 28, 12)),
    # weekdays (today is Friday): the next one, today only with a time still ahead
    ("next Friday 5pm", FRIDAY, BERLIN, utc(2026, 11, 27, 16)),
    ("Friday", FRIDAY, BERLIN, utc(2026, 11, 27, 22, 59)),
    ("Friday 17:00", FRIDAY, BERLIN, utc(2026, 11, 20, 16)),
    ("Friday 8am", FRIDAY, BERLIN, utc(2026, 11, 27, 7)),
    ("this Friday", FRIDAY, BERLIN, utc(2026, 11, 20, 22, 59)),
    ("5pm on Friday", FRIDAY, BERLIN, utc(2026, 11, 20, 16)),
    ("Monday", FRIDAY, BERLIN, utc(2026, 11, 23, 22, 59)),
    ("by Monday noon", FRIDAY, BERLIN, utc(2026, 11, 23, 11)),
    ("Friday 5pm", FRIDAY, NY, utc(2026, 11, 20, 22)),
    # absolute and relative moments; a day without a time ends at 23:59 local
    ("tomorrow 18:00", FRIDAY, BERLIN, utc(2026, 11, 21, 17)),
    ("tomorrow", FRIDAY, BERLIN, utc(2026, 11, 21, 22, 59)),
    ("tomorrow", FRIDAY, NY, utc(2026, 11, 22, 4, 59)),
    ("2026-12-01 18:00", FRIDAY, BERLIN, utc(2026, 12, 1, 17)),
    ("1 Dec 2026 18:00", FRIDAY, BERLIN, utc(2026, 12, 1, 17)),
    ("December 1st at 6pm", FRIDAY, BERLIN, utc(2026, 12, 1, 17)),
    ("December 1st", FRIDAY, BERLIN, utc(2026, 12, 1, 22, 59)),
    ("2026-12-01 18:00", FRIDAY, "UTC", utc(2026, 12, 1, 18)),
    # day forms dateparser does not know, read towards the future, by 23:59 local
    ("Tue the 8th", FRIDAY, BERLIN, utc(2026, 12, 8, 22, 59)),
    ("the 8th", FRIDAY, BERLIN, utc(2026, 12, 8, 22, 59)),
    ("Friday next week", FRIDAY, BERLIN, utc(2026, 11, 27, 22, 59)),
    ("Sept 8", FRIDAY, BERLIN, utc(2027, 9, 8, 21, 59)),
    ("end of the month", FRIDAY, BERLIN, utc(2026, 11, 30, 22, 59)),
    ("by the end of next month", FRIDAY, NY, utc(2027, 1, 1, 4, 59)),
    ("Thu, Dec 3", FRIDAY, BERLIN, utc(2026, 12, 3, 22, 59)),
    # 23:30 UTC on Friday is already Saturday in Berlin
    ("tomorrow", utc(2026, 11, 20, 23, 30), "UTC", utc(2026, 11, 21, 23, 59)),
    ("tomorrow", utc(2026, 11, 20, 23, 30), BERLIN, utc(2026, 11, 22, 22, 59)),
]


@pytest.mark.parametrize(("text", "now", "tz", "expected"), DEADLINES)
def test_parse_deadline(text: str, now: datetime, tz: str, expected: datetime) -> None:
    found = parse_deadline(text, now, tz)
    assert found == expected
    assert found.utcoffset() is not None and found.utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    "text",
    ["banana", "", "the 99th of Smarch", "3", "Friday 25:00", "99999999999 days", "next week"],
)
def test_parse_deadline_rejects_unreadable_text(text: str) -> None:
    with pytest.raises(DateParseError) as caught:
        parse_deadline(text, FRIDAY, BERLIN)
    assert isinstance(caught.value, ValidationError)
    assert "'3 days', 'next Friday 5pm' or '2026-12-01 18:00'" in caught.value.user_message


def test_parse_deadline_says_when_the_weekday_contradicts_the_date() -> None:
    with pytest.raises(DateParseError) as caught:
        parse_deadline("Sunday Dec 3", FRIDAY, BERLIN)
    assert "ambiguous" in caught.value.user_message


QUESTIONS = [
    (
        "which proposals were created last week about funding?",
        "last week",
        "which proposals were created about funding?",
    ),
    ("what may I do?", None, "what may I do?"),
    ("Who may vote on the budget?", None, "Who may vote on the budget?"),
    ("what may I do in 2025?", "in 2025", "what may I do?"),
    ("May I see proposals from May 1 to May 10?", "from May 1 to May 10", "May I see proposals?"),
    (
        "what happened between May 1 and May 10 with the budget",
        "between May 1 and May 10",
        "what happened with the budget",
    ),
    ("votes since Monday", "since Monday", "votes"),
    ("anything in the last 10 days?", "in the last 10 days", "anything?"),
    ("what did we decide on May 5th?", "on May 5th", "what did we decide?"),
    ("decisions in May", "in May", "decisions"),
    ("decisions in may", None, "decisions in may"),
    ("what was decided yesterday", "yesterday", "what was decided"),
    ("show me July 2024 votes", "July 2024", "show me votes"),
    ("2026-05-05 meeting notes", "2026-05-05", "meeting notes"),
    ("What happened over the past month?", "over the past month", "What happened?"),
    ("what was decided before May 10th?", "before May 10th", "what was decided?"),
    ("recently accepted proposals", "recently", "accepted proposals"),
    ("any recent proposals?", "recent", "any proposals?"),
    ("what's the most recent proposal?", None, "what's the most recent proposal?"),
    ("May 1-10 votes", "May 1-10", "votes"),
    ("what is planned this weekend", "this weekend", "what is planned"),
    ("proposals   about\tfunding ", None, "proposals about funding"),
]


@pytest.mark.parametrize(("question", "phrase", "rest"), QUESTIONS)
def test_extract_date_phrase(question: str, phrase: str | None, rest: str) -> None:
    assert extract_date_phrase(question) == (phrase, rest)


@pytest.mark.parametrize(("question", "phrase"), [(q, p) for q, p, _ in QUESTIONS if p])
def test_extracted_phrases_are_understood(question: str, phrase: str) -> None:
    assert parse_date_range(phrase, SUNDAY, NY) is not None
