"""Date phrases read in a direction, in three zones, with exact expected ranges.

Expected ranges are written as local calendar days, [first, after_last), and turned
into UTC with zoneinfo here, so each row says what a member means ("Oct 24 to 26 in
Berlin") while the assertion still checks the exact UTC instants, DST included.

Clocks:
- Berlin, Thursday 22 October 2026, 14:00 CEST; Berlin leaves DST on Sunday 25 October.
- New York, Wednesday 10 March 2027, 10:00 EST; New York enters DST on Sunday 14 March.
- Tokyo, Friday 1 January 2027, 01:00 JST, still 31 December 2026 in UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from app.nlp.date_extract import extract_date_phrase
from app.nlp.date_ranges import AmbiguousDateError, DateRange, parse_date_range, read_date_range

BER, NY, TYO = "Europe/Berlin", "America/New_York", "Asia/Tokyo"
NOW = {
    BER: datetime(2026, 10, 22, 12, tzinfo=UTC),
    NY: datetime(2027, 3, 10, 15, tzinfo=UTC),
    TYO: datetime(2026, 12, 31, 16, tzinfo=UTC),
}
P, F, N = "past", "future", "nearest"
Day = tuple[int, int, int] | None


def _local(day: Day, tz: str) -> datetime | None:
    if day is None:
        return None
    return datetime.combine(date(*day), time(), ZoneInfo(tz)).astimezone(UTC)


def _cases(tz: str, rows: list[tuple[str, str, Day, Day]]) -> list[tuple[str, str, str, Day, Day]]:
    return [(tz, phrase, direction, a, b) for phrase, direction, a, b in rows]


BERLIN_ROWS = [
    # bare and abbreviated weekdays (today is Thursday the 22nd)
    ("Tue", P, (2026, 10, 20), (2026, 10, 21)),
    ("Tue", F, (2026, 10, 27), (2026, 10, 28)),
    ("Tue", N, (2026, 10, 20), (2026, 10, 21)),
    ("Thu", P, (2026, 10, 22), (2026, 10, 23)),
    ("Thursday", F, (2026, 10, 22), (2026, 10, 23)),
    ("Sat", P, (2026, 10, 17), (2026, 10, 18)),
    ("Sat", N, (2026, 10, 24), (2026, 10, 25)),
    ("Sunday", F, (2026, 10, 25), (2026, 10, 26)),  # the 25-hour day
    ("on Wed.", N, (2026, 10, 21), (2026, 10, 22)),
    # a weekday in a named week
    ("Mon next week", P, (2026, 10, 26), (2026, 10, 27)),
    ("Tuesday next week", N, (2026, 10, 27), (2026, 10, 28)),
    ("Friday of next week", F, (2026, 10, 30), (2026, 10, 31)),
    ("Wednesday last week", N, (2026, 10, 14), (2026, 10, 15)),
    ("Friday this week", P, (2026, 10, 23), (2026, 10, 24)),
    ("this week", N, (2026, 10, 19), (2026, 10, 26)),  # CEST start, CET end
    ("next week", N, (2026, 10, 26), (2026, 11, 2)),
    ("this weekend", N, (2026, 10, 24), (2026, 10, 26)),
    # ordinals, with and without a weekday
    ("the 8th", P, (2026, 10, 8), (2026, 10, 9)),
    ("the 8th", F, (2026, 11, 8), (2026, 11, 9)),
    ("the 8th", N, (2026, 10, 8), (2026, 10, 9)),
    ("on the 30th", N, (2026, 10, 30), (2026, 10, 31)),
    ("Tuesday the 8th", P, (2026, 9, 8), (2026, 9, 9)),
    ("Tuesday the 8th", F, (2026, 12, 8), (2026, 12, 9)),
    ("Tue the 8th", N, (2026, 9, 8), (2026, 9, 9)),
    ("Thu the 8th", F, (2027, 4, 8), (2027, 4, 9)),
    ("Thursday 8th", P, (2026, 10, 8), (2026, 10, 9)),
    # abbreviated months, either order, ordinals in words
    ("Sept 8", P, (2026, 9, 8), (2026, 9, 9)),
    ("Sept 8", F, (2027, 9, 8), (2027, 9, 9)),
    ("Sept 8", N, (2026, 9, 8), (2026, 9, 9)),
    ("8 Sept", N, (2026, 9, 8), (2026, 9, 9)),
    ("the 3rd of Nov", N, (2026, 11, 3), (2026, 11, 4)),
    ("Nov. 3rd", P, (2025, 11, 3), (2025, 11, 4)),
    ("the first of May", F, (2027, 5, 1), (2027, 5, 2)),
    ("Dec 24th", N, (2026, 12, 24), (2026, 12, 25)),
    ("Dec 24th", P, (2025, 12, 24), (2025, 12, 25)),
    # a weekday that agrees, or picks the neighbouring year where it does
    ("Tue 27 Oct", P, (2026, 10, 27), (2026, 10, 28)),
    ("Tuesday, October 27th", N, (2026, 10, 27), (2026, 10, 28)),
    ("Wed, Oct 27", P, (2027, 10, 27), (2027, 10, 28)),
    ("Monday Oct 27", F, (2025, 10, 27), (2025, 10, 28)),
    # day spans inside one month, written either way round
    ("May 3-7", P, (2026, 5, 3), (2026, 5, 8)),
    ("May 3-7", F, (2027, 5, 3), (2027, 5, 8)),
    ("3-7 May", P, (2026, 5, 3), (2026, 5, 8)),
    ("3rd to 7th of May", F, (2027, 5, 3), (2027, 5, 8)),
    ("from the 3rd to the 7th of May", P, (2026, 5, 3), (2026, 5, 8)),
    ("between 3 and 7 May 2026", F, (2026, 5, 3), (2026, 5, 8)),
    ("Oct 24-26", F, (2026, 10, 24), (2026, 10, 27)),  # over the DST change
    ("24th - 26th Oct", N, (2026, 10, 24), (2026, 10, 27)),
    ("Oct 23-27", P, (2025, 10, 23), (2025, 10, 28)),
    ("May 3 to 7", N, (2026, 5, 3), (2026, 5, 8)),  # 172 days back, 193 ahead
    # starting ... until ...
    ("starting Monday until Friday", N, (2026, 10, 19), (2026, 10, 24)),
    ("starting Monday until Friday", F, (2026, 10, 26), (2026, 10, 31)),
    ("starting Oct 24 until Oct 26", F, (2026, 10, 24), (2026, 10, 27)),
    ("from the 26th to the 30th", N, (2026, 10, 26), (2026, 10, 31)),
    ("Dec 28 - Jan 3", F, (2026, 12, 28), (2027, 1, 4)),
    # edges of months, weeks and years
    ("end of the month", N, (2026, 10, 31), (2026, 11, 1)),  # its last day
    ("the end of this month", P, (2026, 10, 31), (2026, 11, 1)),
    ("beginning of next month", N, (2026, 11, 1), (2026, 11, 8)),
    ("start of next month", F, (2026, 11, 1), (2026, 11, 8)),
    ("end of next month", N, (2026, 11, 30), (2026, 12, 1)),
    ("end of last month", N, (2026, 9, 30), (2026, 10, 1)),
    ("end of the week", N, (2026, 10, 25), (2026, 10, 26)),  # Sunday, 25 hours
    ("end of the year", N, (2026, 12, 31), (2027, 1, 1)),
    ("beginning of the year", N, (2026, 1, 1), (2026, 1, 8)),  # as a month's: 7 days
    ("early November", N, (2026, 11, 1), (2026, 11, 8)),
    ("late Sept", P, (2026, 9, 24), (2026, 10, 1)),
    ("mid-December", F, (2026, 12, 8), (2026, 12, 25)),
    ("last week of October", N, (2026, 10, 25), (2026, 11, 1)),
    # months and years
    ("Sept", P, (2026, 9, 1), (2026, 10, 1)),
    ("Sept", F, (2027, 9, 1), (2027, 10, 1)),
    ("Sept", N, (2026, 9, 1), (2026, 10, 1)),
    ("in March", N, (2027, 3, 1), (2027, 4, 1)),  # holds the March DST change
    ("March", P, (2026, 3, 1), (2026, 4, 1)),
    ("October", F, (2026, 10, 1), (2026, 11, 1)),
    ("Oct 2025", F, (2025, 10, 1), (2025, 11, 1)),
    ("May of 2027", P, (2027, 5, 1), (2027, 6, 1)),
    ("in 2027", N, (2027, 1, 1), (2028, 1, 1)),
    # open ranges
    ("since Sept", N, (2026, 9, 1), None),
    ("since Tue", N, (2026, 10, 20), None),
    ("since Sat", F, (2026, 10, 24), None),
    ("before Dec 1", F, None, (2026, 12, 1)),
    ("before Dec 1", P, None, (2025, 12, 1)),
    ("after Tue", P, (2026, 10, 21), None),
    ("after the 8th", F, (2026, 11, 9), None),
    ("until the end of the month", N, None, (2026, 11, 1)),
    ("by end of next month", F, None, (2026, 12, 1)),
    ("until Nov 3", F, None, (2026, 11, 4)),
    ("no later than Friday", F, None, (2026, 10, 24)),
    ("on or after Oct 26", N, (2026, 10, 26), None),
    ("from Sept", N, (2026, 9, 1), (2026, 10, 1)),
    ("up until Sunday", F, None, (2026, 10, 26)),
]

NEW_YORK_ROWS = [
    ("this week", N, (2027, 3, 8), (2027, 3, 15)),  # EST start, EDT end
    ("next week", N, (2027, 3, 15), (2027, 3, 22)),
    ("this weekend", N, (2027, 3, 13), (2027, 3, 15)),
    ("Sunday", F, (2027, 3, 14), (2027, 3, 15)),  # the 23-hour day
    ("Sun", P, (2027, 3, 7), (2027, 3, 8)),
    ("Fri", N, (2027, 3, 12), (2027, 3, 13)),
    ("Mon", N, (2027, 3, 8), (2027, 3, 9)),
    ("Thursday next week", P, (2027, 3, 18), (2027, 3, 19)),
    ("Tue last week", N, (2027, 3, 2), (2027, 3, 3)),
    ("the 8th", N, (2027, 3, 8), (2027, 3, 9)),
    ("the 8th", F, (2027, 4, 8), (2027, 4, 9)),
    ("Thursday the 8th", F, (2027, 4, 8), (2027, 4, 9)),
    ("Thursday the 8th", P, (2026, 10, 8), (2026, 10, 9)),
    ("Thursday the 8th", N, (2027, 4, 8), (2027, 4, 9)),
    ("Monday the 8th", P, (2027, 3, 8), (2027, 3, 9)),
    ("Monday the 8th", F, (2027, 11, 8), (2027, 11, 9)),
    ("Dec 25", P, (2026, 12, 25), (2026, 12, 26)),
    ("Dec 25", F, (2027, 12, 25), (2027, 12, 26)),
    ("Dec 25", N, (2026, 12, 25), (2026, 12, 26)),
    ("Apr 1", N, (2027, 4, 1), (2027, 4, 2)),
    ("Apr 1", P, (2026, 4, 1), (2026, 4, 2)),
    ("Feb 29", F, (2028, 2, 29), (2028, 3, 1)),
    ("Feb 29", P, (2024, 2, 29), (2024, 3, 1)),
    ("last month", N, (2027, 2, 1), (2027, 3, 1)),
    ("end of the month", N, (2027, 3, 31), (2027, 4, 1)),
    ("beginning of the month", N, (2027, 3, 1), (2027, 3, 8)),
    ("until the end of next month", N, None, (2027, 5, 1)),
    ("since the beginning of the year", N, (2027, 1, 1), None),
    ("March 13-15", N, (2027, 3, 13), (2027, 3, 16)),  # over the DST change
    ("13-15 March", F, (2027, 3, 13), (2027, 3, 16)),
    ("13th-15th of Mar", P, (2026, 3, 13), (2026, 3, 16)),
    ("from Mar 13 until Mar 16", F, (2027, 3, 13), (2027, 3, 17)),
    ("starting Mar 1 until the 10th", N, (2027, 3, 1), (2027, 3, 11)),
    ("Tue, Mar 9", F, (2027, 3, 9), (2027, 3, 10)),
    ("Tuesday March 10", F, (2026, 3, 10), (2026, 3, 11)),
    ("before Friday", P, None, (2027, 3, 5)),
    ("before Friday", F, None, (2027, 3, 12)),
    ("after the 8th", N, (2027, 3, 9), None),
    ("no later than Apr 1", N, None, (2027, 4, 2)),
    ("up until Friday", F, None, (2027, 3, 13)),
    ("late February", N, (2027, 2, 22), (2027, 3, 1)),
    ("mid-March", N, (2027, 3, 8), (2027, 3, 25)),
    ("end of the week", N, (2027, 3, 14), (2027, 3, 15)),  # Sunday, 23 hours
    ("Jan 2026", N, (2026, 1, 1), (2026, 2, 1)),
    ("3/14", F, (2027, 3, 14), (2027, 3, 15)),
    ("3/14/2026", F, (2026, 3, 14), (2026, 3, 15)),
    ("14/3/2027", P, (2027, 3, 14), (2027, 3, 15)),
    ("2027-03-14", P, (2027, 3, 14), (2027, 3, 15)),
]

TOKYO_ROWS = [
    ("today", N, (2027, 1, 1), (2027, 1, 2)),
    ("this year", N, (2027, 1, 1), (2028, 1, 1)),
    ("last year", N, (2026, 1, 1), (2027, 1, 1)),
    ("December", P, (2026, 12, 1), (2027, 1, 1)),
    ("December", F, (2027, 12, 1), (2028, 1, 1)),
    ("December", N, (2026, 12, 1), (2027, 1, 1)),
    ("Jan", P, (2027, 1, 1), (2027, 2, 1)),
    ("Dec 30", N, (2026, 12, 30), (2026, 12, 31)),
    ("Dec 30", F, (2027, 12, 30), (2027, 12, 31)),
    ("Jan 3", F, (2027, 1, 3), (2027, 1, 4)),
    ("Jan 3rd", P, (2026, 1, 3), (2026, 1, 4)),
    ("the 31st", P, (2026, 12, 31), (2027, 1, 1)),
    ("the 31st", F, (2027, 1, 31), (2027, 2, 1)),
    ("the 31st", N, (2026, 12, 31), (2027, 1, 1)),
    ("Sunday", F, (2027, 1, 3), (2027, 1, 4)),
    ("Sunday", P, (2026, 12, 27), (2026, 12, 28)),
    ("Mon next week", N, (2027, 1, 4), (2027, 1, 5)),
    ("this week", N, (2026, 12, 28), (2027, 1, 4)),
    ("last week", N, (2026, 12, 21), (2026, 12, 28)),
    ("Dec 28-31", N, (2026, 12, 28), (2027, 1, 1)),
    ("Dec 28 - Jan 3", N, (2026, 12, 28), (2027, 1, 4)),
    ("end of last year", N, (2026, 12, 31), (2027, 1, 1)),
    ("early January", N, (2027, 1, 1), (2027, 1, 8)),
    ("since Tue", N, (2026, 12, 29), None),
    ("after Dec 25", P, (2026, 12, 26), None),
    ("until Jan 15", F, None, (2027, 1, 16)),
    ("Fri the 1st", N, (2027, 1, 1), (2027, 1, 2)),
    ("Thursday Dec 31", F, (2026, 12, 31), (2027, 1, 1)),
    ("Friday Dec 31", P, (2027, 12, 31), (2028, 1, 1)),
    ("12/25", P, (2026, 12, 25), (2026, 12, 26)),
    ("25/12", F, (2027, 12, 25), (2027, 12, 26)),
    ("from last month", N, (2026, 12, 1), (2027, 1, 1)),
    ("next month", N, (2027, 2, 1), (2027, 3, 1)),
    ("Tue next week", F, (2027, 1, 5), (2027, 1, 6)),
    ("between Tue and Thu", N, (2026, 12, 29), (2027, 1, 1)),
]

CASES = _cases(BER, BERLIN_ROWS) + _cases(NY, NEW_YORK_ROWS) + _cases(TYO, TOKYO_ROWS)


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 120
    assert {c[2] for c in CASES} == {P, F, N}


@pytest.mark.parametrize(("tz", "phrase", "direction", "first", "after"), CASES)
def test_date_range_in_a_direction(
    tz: str, phrase: str, direction: str, first: Day, after: Day
) -> None:
    found = parse_date_range(phrase, NOW[tz], tz, direction)  # type: ignore[arg-type]
    assert found == DateRange(_local(first, tz), _local(after, tz))


@pytest.mark.parametrize(
    ("tz", "phrase"),
    [
        (BER, "Friday Oct 27"),  # a Monday, Tuesday, Wednesday in 2025-2027
        (BER, "Wednesday 27 Oct 2026"),  # a Tuesday that year
        (NY, "Sat Mar 10"),
        (TYO, "Monday, January 1st 2027"),
    ],
)
@pytest.mark.parametrize("direction", [P, F, N])
def test_a_weekday_that_never_agrees_is_ambiguous(tz: str, phrase: str, direction: str) -> None:
    with pytest.raises(AmbiguousDateError):
        read_date_range(phrase, NOW[tz], tz, direction)  # type: ignore[arg-type]
    assert parse_date_range(phrase, NOW[tz], tz, direction) is None  # type: ignore[arg-type]


def test_an_unknown_direction_is_refused() -> None:
    with pytest.raises(ValueError, match="direction"):
        read_date_range("May 5", NOW[BER], BER, "sideways")  # type: ignore[arg-type]


QUESTIONS = [
    ("what closes on Tue the 8th?", "on Tue the 8th", "what closes?"),
    ("anything due Tuesday next week", "Tuesday next week", "anything due"),
    ("proposals created 3-7 May", "3-7 May", "proposals created"),
    ("votes from the 3rd to the 7th of May", "from the 3rd to the 7th of May", "votes"),
    ("events May 3rd - 7th about music", "May 3rd - 7th", "events about music"),
    ("what runs starting Monday until Friday", "starting Monday until Friday", "what runs"),
    ("what closes by the end of the month", "by the end of the month", "what closes"),
    ("ideas from the beginning of next month", "from the beginning of next month", "ideas"),
    ("polls closing Sept 8th", "Sept 8th", "polls closing"),
    ("what did we decide on Wed.", "on Wed.", "what did we decide"),
    ("I sat down with the sun in my eyes", None, "I sat down with the sun in my eyes"),
    ("who is on the 5th floor", None, "who is on the 5th floor"),
    ("proposals late Sept", "late Sept", "proposals"),
    ("deadlines before Dec 1", "before Dec 1", "deadlines"),
]


@pytest.mark.parametrize(("question", "phrase", "rest"), QUESTIONS)
def test_extract_new_forms(question: str, phrase: str | None, rest: str) -> None:
    assert extract_date_phrase(question) == (phrase, rest)
    if phrase:
        assert parse_date_range(phrase, NOW[BER], BER) is not None
