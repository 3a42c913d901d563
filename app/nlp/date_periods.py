"""Periods on the user's calendar, and which occurrence of one a question means.

The building blocks of ``date_ranges``: a [start, end) ``DateRange`` in UTC, local-day
spans, the edges of a month, week or year, calendar and rolling periods, and ``pick``,
which chooses among the occurrences of a year-less date or a bare weekday in a
direction: ``past`` (the latest not after today), ``future`` (the first not before
today) or ``nearest`` (whichever is closer; today counts in every direction).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from app.domain.messages import Text
from app.nlp import date_words as w

Direction = Literal["past", "future", "nearest"]
DIRECTIONS: tuple[Direction, ...] = ("past", "future", "nearest")
ONE_DAY = timedelta(days=1)


@dataclass(frozen=True)
class DateRange:
    """Half-open [start, end) in UTC; ``None`` leaves that side open.

    Half-open so adjacent ranges ("last week", "this week") never share an instant and a
    query can use ``start <= t < end`` with no off-by-one day.
    """

    start: datetime | None
    end: datetime | None


class AmbiguousDateError(ValueError):
    """The phrase names a date, but not one day: its weekday and date never agree.
    ``reason`` says why, as a sentence each language renders."""

    def __init__(self, reason: Text) -> None:
        self.reason = reason
        super().__init__(reason.english())


@dataclass(frozen=True)
class Ctx:
    """What a reading depends on: the instant, the zone, the local day, the direction."""

    now: datetime
    zone: ZoneInfo
    today: date
    direction: Direction


Span = tuple[date, date]  # local days [first, after_last)


def pick(found: Iterable[Span | None], ctx: Ctx, after: date | None = None) -> Span | None:
    """The occurrence the direction means; with ``after`` (a span's end), the first one
    starting on or after it."""
    spans = sorted({s for s in found if s is not None})
    if after is not None:
        return next((s for s in spans if s[0] >= after), None)
    today = ctx.today
    past = [s for s in spans if s[0] <= today]
    future = [s for s in spans if s[1] > today]
    if ctx.direction == "past" or not future:
        return past[-1] if past else None
    if ctx.direction == "future" or not past:
        return future[0]
    if past[-1][1] > today:  # this one holds today
        return past[-1]
    behind = (today - (past[-1][1] - ONE_DAY)).days
    return past[-1] if behind <= (future[0][0] - today).days else future[0]


def day_span(year: int, month: int, day: int) -> Span | None:
    if 1 <= month <= 12 and 1 <= day <= w.month_days(year, month):
        first = date(year, month, day)
        return first, first + ONE_DAY
    return None


def month_span(year: int, month: int) -> Span:
    return date(year, month, 1), w.month_start(year, month + 1)


def _months(span: Span) -> int:
    """How many whole calendar months a span is, or 0 when it is not months."""
    first, after = span
    if first.day != 1 or after.day != 1:
        return 0
    return (after.year - first.year) * 12 + after.month - first.month


def period_edge(span: Span, edge: str) -> Span:
    """The part of a period an edge word names ("late" May is its "end"; "the end of"
    a period is its last day, read in ``date_ranges``). A month's or a week's "end" is
    its last 7 days (a week's: the weekend), its "beginning" the first 7 (Monday and
    Tuesday), its "middle" what lies between; a period of several months (a year, a
    quarter, a season) has its first and last month as edges and its middle month or
    two as its middle (a year's: June and July); "first/last week of" are the first
    and last seven days."""
    first, after = span
    if edge == "first week":
        return first, first + 7 * ONE_DAY
    if edge == "last week":
        return after - 7 * ONE_DAY, after
    if (months := _months(span)) > 1:
        at = {"end": (months - 1, months), "beginning": (0, 1), "start": (0, 1)}.get(
            edge, ((months - 1) // 2, months // 2 + 1)
        )
        return w.month_start(first.year, first.month + at[0]), w.month_start(
            first.year, first.month + at[1]
        )
    part = 2 if (after - first).days <= 7 else 7
    if edge == "end":
        return after - part * ONE_DAY, after
    if edge in ("middle", "mid"):
        return first + part * ONE_DAY, after - part * ONE_DAY
    return first, first + part * ONE_DAY


def half_of(span: Span, second: bool) -> Span:
    """The first or second half of a period: by months when it is months ("the first
    half of 2026" is January to June), else by days (the first half of November is
    its first 15)."""
    first, after = span
    if (months := _months(span)) > 1:
        middle = w.month_start(first.year, first.month + months // 2)
    else:
        middle = first + timedelta(days=((after - first).days + 1) // 2)
    return (middle, after) if second else (first, middle)


def year_part(first_month: int, months: int, year: int) -> Span:
    """A named part of ``year``: a quarter, a half or a season (winter runs into the
    next year: "winter 2026" is December 2026 to February 2027)."""
    return w.month_start(year, first_month), w.month_start(year, first_month + months)


def with_direction(ctx: Ctx, direction: Direction) -> Ctx:
    return Ctx(ctx.now, ctx.zone, ctx.today, direction)


def calendar_period(unit: str, offset: int, today: date) -> Span | None:
    """The week (Monday to Monday), weekend (Saturday to Monday), month, quarter or year
    that is ``offset`` units away from the one holding ``today``."""
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
        return monday + timedelta(days=5 if unit == "weekend" else 0), monday + timedelta(days=7)
    if unit in ("month", "quarter"):
        size = 3 if unit == "quarter" else 1
        first = w.month_start(today.year, today.month - (today.month - 1) % size + size * offset)
        return first, w.month_start(first.year, first.month + size)
    year = today.year + offset
    return (date(year, 1, 1), date(year + 1, 1, 1)) if unit == "year" else None


def rolling(unit: str, n: int, sign: int, now: datetime, zone: ZoneInfo) -> DateRange:
    """[now - n units, now) or [now, now + n units). Months, quarters and years are
    calendar months in the user's zone; shorter units are exact durations."""
    if unit in ("month", "quarter", "year"):
        size = {"month": 1, "quarter": 3, "year": 12}[unit]
        moved = w.shift_months(now.astimezone(zone), sign * n * size)
        other = moved.astimezone(UTC)
    else:
        other = now + sign * timedelta(**{unit + "s": n})
    return DateRange(min(now, other), max(now, other))
