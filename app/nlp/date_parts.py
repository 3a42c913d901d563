"""Periods named by their place in another, or counted from another, for ``date_ranges``.

Members name a period by where it sits in a larger one ("q3", "the first half of 2026",
"last summer", "early next month", "the 3rd of next month", "the last Friday of the
month", "the second week of December"), by its distance from a day ("a week from
Friday", "2 weeks from today"), by how old things are ("older than 2 weeks", "less than
a week ago"), or by what part of a period around now it covers ("earlier this month",
"later this week"). Every form here reads the larger period, the day or the count with
the range reader itself (``read``), so each composes with every form it knows: "late
q3", "the end of last quarter", "mid next week", "3 days before xmas".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta

from app.nlp import date_words as w
from app.nlp.date_periods import (
    ONE_DAY,
    Ctx,
    DateRange,
    Span,
    half_of,
    period_edge,
    pick,
    rolling,
    year_part,
)
from app.nlp.date_words import DAYNUM, HOLIDAY, HOLIDAYS, NUM, WD, YEAR, YEAR_PART

Read = Callable[[str, Ctx, "date | None"], "Span | DateRange | None"]

_COUNT = rf"(?P<n>{NUM}|an?) (?P<unit>minute|hour|day|week|month|quarter|year)s?"
_RE_YEAR_PART = re.compile(
    rf"(?:(?P<q>last|this|next|previous|coming) )?(?:the )?(?P<part>{YEAR_PART})"
    rf"(?:,? (?:of |in )?(?P<x>{YEAR}|(?:the |this |last |next )year))?"
)
_RE_HALF = re.compile(r"(?:the )?(?P<which>first|second|1st|2nd|latter) half of (?P<x>.+)")
_RE_PART = re.compile(r"(?P<part>early|mid|late)[- ](?:in |of )?(?P<x>.+)")
_RE_NTH = re.compile(rf"(?:the )?(?P<nth>{DAYNUM}|last)(?: (?P<what>day|week|{WD}))? of (?P<x>.+)")
_RE_COUNTED_FROM = re.compile(
    rf"(?P<n>{NUM}|an?) (?P<unit>day|week|month|quarter|year)s? (?P<rel>from|after|before)"
    r" (?P<x>.+)"
)
_RE_AROUND_NOW = re.compile(r"(?P<side>earlier|later) (?P<x>today|this \w+)")
_RE_AGE = re.compile(
    rf"(?P<cmp>more than|over|at least|older than|less than|under|fewer than) {_COUNT}"
    r"(?: (?P<tail>ago|old))?"
)
_RE_HOLIDAY = re.compile(
    rf"(?:the )?(?:(?P<q>this|next|last) )?(?P<h>{HOLIDAY})(?: day)?(?:,? (?P<year>{YEAR}))?"
)
_RE_DOTTED = re.compile(r"(?P<day>\d{1,2})\.(?P<mon>\d{1,2})\.(?P<year>\d{4}|\d{2})")
_RE_DOTTED_NO_YEAR = re.compile(r"(?P<day>\d{1,2})\.(?P<mon>\d{1,2})")
_RE_NUMERIC_MONTH = re.compile(
    rf"(?P<year>{YEAR})[-/](?P<mon>\d{{1,2}})|(?P<mon2>\d{{1,2}})/(?P<y2>{YEAR})"
)
_MONTH_NAMES = list(w.MONTHS)  # "jan" ... "dec"


def _days(found: Span | DateRange | None) -> Span | None:
    return found if isinstance(found, tuple) else None


def _year_part(m: re.Match[str], ctx: Ctx, after: date | None, read: Read) -> Span | None:
    first, months = w.year_part_months(m["part"])
    today, q = ctx.today, m["q"]
    if m["x"]:
        year = _days(read(m["x"], ctx, None))
        if year is None or q:
            return None
        return year_part(first, months, year[0].year)
    spans = [year_part(first, months, y) for y in range(today.year - 2, today.year + 3)]
    if q in ("last", "previous"):
        return max((s for s in spans if s[1] <= today), default=None)
    if q in ("next", "coming"):
        return min((s for s in spans if s[0] > today), default=None)
    if q == "this":  # the one under way, else this year's
        return next((s for s in spans if s[0] <= today < s[1]), None) or year_part(
            first, months, today.year
        )
    return pick(spans, ctx, after)


def _nth_of(m: re.Match[str], ctx: Ctx, read: Read) -> Span | None:
    """ "the 3rd of next month", "the last day of the month", "the first Monday of
    December", "the second week of December": a day or a week counted in a period."""
    whole = _days(read(m["x"], ctx, None))
    if whole is None or (m["x"].split()[-1] in ("day", "today", "tomorrow", "yesterday")):
        return None
    first, after = whole
    last = m["nth"] == "last"
    n = 0 if last else w.day_number(m["nth"])
    if m["what"] in (None, "day"):
        day = after - ONE_DAY if last else first + (n - 1) * ONE_DAY
        return (day, day + ONE_DAY) if first <= day < after and (last or n > 0) else None
    if m["what"] == "week":
        start = after - 7 * ONE_DAY if last else first + 7 * (n - 1) * ONE_DAY
        return (start, min(start + 7 * ONE_DAY, after)) if first <= start < after else None
    wd = w.weekday_index(m["what"])
    days = [first + timedelta(days=k) for k in range((after - first).days)]
    matching = [d for d in days if d.weekday() == wd]
    if not matching or (not last and not 0 < n <= len(matching)):
        return None
    day = matching[-1] if last else matching[n - 1]
    return day, day + ONE_DAY


def _counted_from(m: re.Match[str], ctx: Ctx, read: Read) -> Span | None:
    """ "2 weeks from today", "a week from Friday", "3 days before xmas": a day counted
    from another day (from now is dateparser's, which reads it right)."""
    if m["x"] in ("now", "right now"):
        return None
    anchor = _days(read(m["x"], ctx, None))
    if anchor is None or anchor[1] - anchor[0] != ONE_DAY:
        return None
    n = int(w.number(m["n"])) * (-1 if m["rel"] == "before" else 1)
    if m["unit"] in ("month", "quarter", "year"):
        months = n * {"month": 1, "quarter": 3, "year": 12}[m["unit"]]
        first = w.month_start(anchor[0].year, anchor[0].month + months)
        day = first.replace(day=min(anchor[0].day, w.month_days(first.year, first.month)))
    else:
        day = anchor[0] + timedelta(days=n * (7 if m["unit"] == "week" else 1))
    return day, day + ONE_DAY


def _age(m: re.Match[str], ctx: Ctx) -> DateRange | None:
    """ "older than 2 weeks", "more than a month ago": before that; "less than a week
    ago": since then."""
    older = m["cmp"] in ("more than", "over", "at least", "older than")
    if m["tail"] is None and m["cmp"] != "older than":
        return None  # "over a week" is a span, "less than a week" no date
    n = int(w.number(m["n"]))
    window = rolling(m["unit"], n, -1, ctx.now, ctx.zone)
    return DateRange(None, window.start) if older else window


def _holiday(m: re.Match[str]) -> str:
    month, day = HOLIDAYS[m["h"]]
    said = f"{_MONTH_NAMES[month - 1]} {day}"
    return " ".join(x for x in (m["q"], said, m["year"]) if x)


def before_dateparser(
    text: str, ctx: Ctx, after: date | None, read: Read
) -> Span | DateRange | None:
    """The forms dateparser misreads ("2 weeks from today" as two weeks back, "the 1st
    of the month" as some day in October, "3.4.2026" month first), read before it."""
    if m := _RE_COUNTED_FROM.fullmatch(text):
        return _counted_from(m, ctx, read)
    if m := _RE_NTH.fullmatch(text):
        return _nth_of(m, ctx, read)
    if m := _RE_DOTTED.fullmatch(text):  # day first, as everywhere dots are written
        return read(f"{w.full_year(m['year'])}-{m['mon']}-{m['day']}", ctx, after)
    return None


def later_forms(text: str, ctx: Ctx, after: date | None, read: Read) -> Span | DateRange | None:
    """The forms of this module that nothing else reads."""
    if m := _RE_YEAR_PART.fullmatch(text):
        return _year_part(m, ctx, after, read)
    if m := _RE_HALF.fullmatch(text):
        whole = _days(read(m["x"], ctx, after))
        return half_of(whole, m["which"] not in ("first", "1st")) if whole else None
    if m := _RE_PART.fullmatch(text):  # "early next month", "mid-2025", "late q3"
        whole = _days(read(m["x"], ctx, after))
        edge = {"early": "beginning", "mid": "middle", "late": "end"}[m["part"]]
        return period_edge(whole, edge) if whole else None
    if m := _RE_AROUND_NOW.fullmatch(text):  # "earlier this month", "later today"
        whole = _days(read(m["x"], ctx, None))
        if whole is None or not whole[0] <= ctx.today < whole[1]:
            return None
        earlier = m["side"] == "earlier"
        bound = w.local_midnight(whole[0 if earlier else 1], ctx.zone)
        return DateRange(bound, ctx.now) if earlier else DateRange(ctx.now, bound)
    if m := _RE_AGE.fullmatch(text):
        return _age(m, ctx)
    if m := _RE_HOLIDAY.fullmatch(text):
        return read(_holiday(m), ctx, after)
    if m := _RE_DOTTED_NO_YEAR.fullmatch(text):  # "20.11": day first
        mon = int(m["mon"])
        return read(f"{_MONTH_NAMES[mon - 1]} {m['day']}", ctx, after) if 1 <= mon <= 12 else None
    if m := _RE_NUMERIC_MONTH.fullmatch(text):  # "2026-11", "11/2026"
        mon, year = int(m["mon"] or m["mon2"]), m["year"] or m["y2"]
        return read(f"{_MONTH_NAMES[mon - 1]} {year}", ctx, after) if 1 <= mon <= 12 else None
    return None
