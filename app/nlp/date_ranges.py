"""Date ranges in questions: "last week", "Tue the 8th", "3-7 May", "until end of the month".

Every reading is a half-open [start, end) in UTC computed on the user's calendar
(BOT_TIMEZONE), so "today" in New York is not "today" in UTC and a day across a DST
change is 23 or 25 hours long. Everything is pure in (text, now, tz, direction).

A year-less date or a bare weekday names one of several occurrences; *direction* says
which one: ``past`` (the latest not after today: creation dates, closed proposals),
``future`` (the first not before today: deadlines of open proposals, "what closes on
..."), ``nearest`` (whichever is closer to today, when nothing in the question says).
Today counts in every direction. A weekday that contradicts its date ("Tuesday May 4"
when May 4 is a Monday this year) picks the neighbouring year where they agree, or
raises ``AmbiguousDateError`` when no year near today agrees.

The forms read since the start are tried first; the forms added later ("this coming
Friday", "the Friday after next", "tuesdays", "between now and Friday", chat shorthand
such as "nxt wk", the periods of ``date_parts``, typos of date words) only when those
read nothing, so a phrase never changes its reading because a form was added. The one
exception is what dateparser misread ("2 weeks from today" as two weeks back, "the 1st
of the month" as a day in October, "3.4.2026" month first): those forms are read just
before it.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import dateparser

from app.domain.messages import N_, Text, Weekday
from app.nlp import date_parts as parts
from app.nlp import date_words as w
from app.nlp.date_lexicon import CHAT_WORDS, spell_out, spell_out_digits
from app.nlp.date_periods import (
    DIRECTIONS,
    ONE_DAY,
    AmbiguousDateError,
    Ctx,
    DateRange,
    Direction,
    Span,
    calendar_period,
    day_span,
    month_span,
    period_edge,
    pick,
    rolling,
    with_direction,
)
from app.nlp.date_typos import mend
from app.nlp.date_words import (
    CLOCK,
    DAY_ALONE,
    DAY_PART,
    DAYNUM,
    MON,
    NUM,
    SIGN,
    UNITS,
    WD,
    WD_FULL,
    YEAR,
)

__all__ = ["DIRECTIONS", "AmbiguousDateError", "DateRange", "Direction"]
__all__ += ["parse_date_range", "read_date_range"]

_DAY_WORDS = {"yesterday": -1, "today": 0, "tomorrow": 1}
_OPEN_KW = (
    r"before|prior to|earlier than|until|till|til|up to|up until|through|thru|by|no later than"
    r"|on or before|since|after|later than|from|starting(?: from| on)?|as of|on or after"
    r"|no earlier than|beginning(?! of)"
)
_WEEK_OF = r"(?:(?:of |in )?(?:the )?(?:next|last|this|previous|following|coming) week)"
_EDGE = r"(?:the )?(?:end|beginning|start|middle|mid|first week|last week) of"
_PERIOD = (
    rf"(?:(?:the |this |next |last |current )?(?:month|week|year)"
    rf"|(?:(?:last|this|next) )?{MON}(?:,? {YEAR})?|{YEAR})"
)


# --- one period ------------------------------------------------------------------------

_PREP = re.compile(r"^(?:in|during|on|of|for|throughout|within|over|at|around) ")
_RE_REL = re.compile(
    rf"(?P<the>the )?(?P<q>{'|'.join(SIGN)}|this|current)(?: (?P<n>{NUM}))? (?P<unit>{UNITS})s?"
)
# "within 2 weeks", "within a month": a window from now, ahead unless the question
# looks back ("created within 3 days")
_RE_WITHIN = re.compile(rf"within (?:(?P<n>{NUM})|an?) (?P<unit>minute|hour|day|week|month|year)s?")
_RE_WEEKDAY = re.compile(
    rf"(?:(?P<q>last|previous|this|next|coming) )?(?P<wd>{WD})(?: (?P<week>{_WEEK_OF}))?"
)
_RE_MONTH = re.compile(
    rf"(?:(?P<q>last|this|next) )?(?P<mon>{MON})(?:,? (?:of )?(?P<year>{YEAR}))?"
)
_RE_EDGE = re.compile(rf"(?P<edge>{_EDGE}) (?P<x>.+)")
_RE_PART = re.compile(
    rf"(?P<part>early|mid|late)[- ](?P<x>{MON}(?:,? {YEAR})?|(?:next|last|this) month)"
)
_WD_LEAD = rf"(?:(?P<wd>{WD}),? (?:the )?)?"
_YEAR_PART = rf"(?:,? (?P<year>{YEAR}))?"
_RE_DATE = [
    re.compile(rf"{_WD_LEAD}(?P<mon>{MON}) (?:the )?(?P<day>{DAYNUM}){_YEAR_PART}"),
    re.compile(rf"{_WD_LEAD}(?:the )?(?P<day>{DAYNUM}) (?:of )?(?P<mon>{MON}){_YEAR_PART}"),
    re.compile(rf"{_WD_LEAD}(?P<year>\d{{4}})-(?P<mon>\d{{1,2}})-(?P<day>\d{{1,2}})"),
    re.compile(rf"{_WD_LEAD}(?P<mon>\d{{1,2}})/(?P<day>\d{{1,2}})(?:/(?P<year>\d{{2}}|\d{{4}}))?"),
    re.compile(rf"{_WD_LEAD}(?:the )?(?P<day>{DAY_ALONE})"),
    re.compile(rf"(?P<wd>{WD}) (?P<day>\d{{1,2}})"),
]

# A day with a time of day, before or after it: "friday 5pm", "tmrw at 18:00", "yesterday
# evening", "5pm on friday". The day is read whole: a range is made of days.
_AT = r"(?:,? (?:at|@|by|around|from) ?|,? )"
_RE_DAY_AT = re.compile(
    rf"(?P<day>.+?){_AT}(?:{CLOCK}|{DAY_PART})|(?:{CLOCK}|{DAY_PART}),? (?:on )?(?P<day2>.+)"
)


def _weekday(m: re.Match[str], ctx: Ctx, after: date | None) -> Span | None:
    wd, q, today = w.weekday_index(m["wd"]), m["q"], ctx.today
    monday = today - timedelta(days=today.weekday())
    if m["week"]:  # "Tuesday next week": the Tuesday of that calendar week
        if q:
            return None
        word = m["week"].split()[-2]
        offset = {"next": 1, "following": 1, "coming": 1, "last": -1, "previous": -1}.get(word, 0)
        day = monday + timedelta(days=7 * offset + wd)
    elif q in ("last", "previous", "next", "coming"):
        step = SIGN[q]  # strictly before / after today
        day = today + step * timedelta(days=(step * (wd - today.weekday()) - 1) % 7 + 1)
    elif q == "this":
        day = monday + timedelta(days=wd)
    elif after is not None:  # a span's end: the first such day from its start on
        day = after + timedelta(days=(wd - after.weekday()) % 7)
    else:
        days = (today + timedelta(days=k) for k in range(-7, 15))
        return pick(((d, d + ONE_DAY) for d in days if d.weekday() == wd), ctx, after)
    return day, day + ONE_DAY


def _month_span(m: re.Match[str], ctx: Ctx, after: date | None) -> Span | None:
    month, q, today = w.month_number(m["mon"]), m["q"], ctx.today
    if m["year"] or q == "this":
        return month_span(int(m["year"] or today.year), month)
    years = range(today.year - 1, today.year + 3)
    if q == "last":
        return pick((month_span(y, month) for y in years if (y, month) < (today.year, today.month)),
                     ctx, None)  # fmt: skip
    if q == "next":
        return next(month_span(y, month) for y in years if (y, month) > (today.year, today.month))
    return pick((month_span(y, month) for y in years), ctx, after)


def _date(m: re.Match[str], ctx: Ctx, after: date | None, q: str | None = None) -> Span | None:
    """A day with or without month and year; a stated weekday must agree with it.
    ``q`` ("this", "next", "last") picks this year's (a bare day: this month's), the first
    after today or the last before it, instead of the direction."""
    groups = m.groupdict()
    day, today = w.day_number(m["day"]), ctx.today
    wd = w.weekday_index(m["wd"]) if groups.get("wd") else None
    if groups.get("year"):
        year = w.full_year(m["year"])
        month = w.month_number(m["mon"])
        if groups["mon"].isdigit() and month > 12 >= day:  # "25/12/2026" is day first
            month, day = day, month
        found = day_span(year, month, day)
        if found and wd is not None and found[0].weekday() != wd:
            raise AmbiguousDateError(
                Text(N_("{date} is not a {weekday}"), {"date": found[0], "weekday": Weekday(wd)})
            )
        return found
    if groups.get("mon"):
        month = w.month_number(m["mon"])
        if groups["mon"].isdigit() and month > 12 >= day:
            month, day = day, month
        reach = 8 if (month, day) == (2, 29) else 1
        spans = [day_span(y, month, day) for y in range(today.year - reach, today.year + reach + 1)]
    else:  # "the 8th": this month's, or a neighbouring month's
        starts = (w.month_start(today.year, today.month + k) for k in range(-28, 29))
        spans = [day_span(s.year, s.month, day) for s in starts]
        if wd is None:
            spans = spans[26:31]
    if q is not None:
        return _qualified(spans, wd, q, today, bool(groups.get("mon")))
    if wd is None:
        return pick(spans, ctx, after)
    agree = [s for s in spans if s is not None and s[0].weekday() == wd]
    if not agree:
        raise AmbiguousDateError(
            Text(N_("no {weekday} near today falls on that date"), {"weekday": Weekday(wd)})
        )
    if groups.get("mon"):  # the year where they agree, whatever the direction
        return pick(agree, ctx, after) or pick(agree, with_direction(ctx, "nearest"))
    return pick(agree, ctx, after)


def _qualified(
    spans: list[Span | None], wd: int | None, q: str, today: date, has_month: bool
) -> Span | None:
    found = sorted(s for s in spans if s is not None and (wd is None or s[0].weekday() == wd))
    if q == "this":
        same = [s for s in found if s[0].year == today.year]
        return next((s for s in same if has_month or s[0].month == today.month), None)
    if q in ("next", "coming"):
        return next((s for s in found if s[0] > today), None)
    return next((s for s in reversed(found) if s[0] < today), None)


def _span_of(said: str, ctx: Ctx, after: date | None = None) -> Span | DateRange | None:
    """One period as local days, or an exact range (rolling windows), or None."""
    return _first_forms(said, ctx, after) or _later_forms(said, ctx, after)


def _first_forms(said: str, ctx: Ctx, after: date | None) -> Span | DateRange | None:
    if m := _RE_WITHIN.fullmatch(said):  # "due within 2 weeks": from now, as far as that
        n = int(w.number(m["n"])) if m["n"] else 1
        return rolling(m["unit"], n, -1 if ctx.direction == "past" else 1, ctx.now, ctx.zone)
    text, today = _PREP.sub("", said, count=1), ctx.today
    text = re.sub(r"^the (?=(?:end|beginning|start|middle|first week|last week) of )", "", text)
    if text in ("recently", "lately", "recent"):
        return DateRange(ctx.now - timedelta(days=7), ctx.now)
    if text in _DAY_WORDS:
        day = today + _DAY_WORDS[text] * ONE_DAY
        return day, day + ONE_DAY
    if m := _RE_REL.fullmatch(text):
        q, unit, sign = m["q"], m["unit"], SIGN.get(m["q"], 0)
        window = m["the"] or m["n"] or q == "past" or unit in ("minute", "hour", "day")
        if window and unit != "weekend":  # weekends are only ever calendar weekends
            n = int(w.number(m["n"])) if m["n"] else 1
            return rolling(unit, n, sign, ctx.now, ctx.zone) if sign and n > 0 else None
        return None if m["n"] else calendar_period(unit, sign, today)
    if m := re.fullmatch(r"(?:the )?(month|week|year)", text):  # "end of the month"
        return calendar_period(m[1], 0, today)
    if m := _RE_EDGE.fullmatch(text):
        edge = m["edge"].removeprefix("the ").removesuffix(" of")
        whole = _span_of(m["x"], ctx, after)
        if not isinstance(whole, tuple):
            return None
        # "the end of the month" is its last day, as a deadline set that way ends on it
        if edge == "end":
            return whole[1] - ONE_DAY, whole[1]
        if edge in ("beginning", "start") and whole[1] - whole[0] > 31 * ONE_DAY:
            return whole[0], whole[0] + 7 * ONE_DAY  # of a year as of a month: 7 days
        return period_edge(whole, edge)
    if m := _RE_PART.fullmatch(text):
        whole = _span_of(m["x"], ctx, after)
        edge = {"early": "beginning", "mid": "middle", "late": "end"}[m["part"]]
        return period_edge(whole, edge) if isinstance(whole, tuple) else None
    if m := _RE_WEEKDAY.fullmatch(text):
        return _weekday(m, ctx, after)
    if m := _RE_MONTH.fullmatch(text):
        return _month_span(m, ctx, after)
    if re.fullmatch(YEAR, text):
        return date(int(text), 1, 1), date(int(text) + 1, 1, 1)
    if m := next((found for r in _RE_DATE if (found := r.fullmatch(text))), None):
        return _date(m, ctx, after)
    if m := _RE_DAY_AT.fullmatch(text):  # before dateparser, which reads some, not all
        one = _span_of(m["day"] or m["day2"], ctx, after)
        if isinstance(one, tuple) and one[1] - one[0] == ONE_DAY:
            return one
    if (misread := parts.before_dateparser(text, ctx, after, _span_of)) is not None:
        return misread
    return _dateparser(said, text, ctx, after)


# --- forms read since they were added: only where the forms above read nothing ---------

_RE_AFTER_NEXT = re.compile(
    rf"(?:the )?(?:(?P<wd>{WD})|(?P<unit>week|weekend|month|quarter|year))"
    r" (?P<how>after next|before last)"
)
_RE_PLURAL_WD = re.compile(rf"(?P<wd>{WD_FULL})s")
_RE_QUALIFIED = re.compile(r"(?P<q>this|next|last|previous|coming) (?P<x>.+)")
# "october of last year", "may of next year": the month in that year
_RE_MONTH_OF = re.compile(
    rf"(?P<mon>{MON}),? (?:of |in )?(?P<x>(?:the )?(?:last|this|next|previous|following) year)"
)
_SAME_AS = [  # "the following Tuesday" is "next Tuesday"; "this coming Friday", "coming Friday"
    (re.compile(r"^(?:the )?following "), "next "),
    (re.compile(r"^this coming "), "coming "),
    (re.compile(r"^the (?=(?:next|last|previous|coming) )"), ""),
]


def _later_forms(said: str, ctx: Ctx, after: date | None) -> Span | DateRange | None:
    text, today = _PREP.sub("", said, count=1), ctx.today
    if text == "now":  # an end of a span ("between now and Friday"), never a date alone
        return DateRange(ctx.now, ctx.now)
    if text in ("weekend", "the weekend"):  # this week's, as "this weekend"
        return calendar_period("weekend", 0, today)
    for pattern, same in _SAME_AS:
        if (said_so := pattern.sub(same, text, count=1)) != text:
            return _span_of(said_so, ctx, after)
    if m := _RE_AFTER_NEXT.fullmatch(text):  # one further than "next ..." or "last ..."
        step = 1 if m["how"] == "after next" else -1
        if m["unit"]:
            return calendar_period(m["unit"], 2 * step, today)
        next_one = _RE_WEEKDAY.fullmatch(f"{'next' if step > 0 else 'last'} {m['wd']}")
        coming = _weekday(next_one, ctx, None) if next_one else None
        return (coming[0] + 7 * step * ONE_DAY, coming[1] + 7 * step * ONE_DAY) if coming else None
    if m := _RE_PLURAL_WD.fullmatch(text):  # "on Tuesdays": the next one, today counts
        start = after or today
        day = start + timedelta(days=(w.weekday_index(m["wd"]) - start.weekday()) % 7)
        return day, day + ONE_DAY
    if m := _RE_QUALIFIED.fullmatch(text):  # "this June 3rd", "next the 8th"
        found = next((d for r in _RE_DATE if (d := r.fullmatch(m["x"]))), None)
        if found is not None and not found.groupdict().get("year"):
            return _date(found, ctx, after, m["q"])
    if m := _RE_MONTH_OF.fullmatch(text):
        year = _span_of(m["x"], ctx, None)
        if isinstance(year, tuple):
            return month_span(year[0].year, w.month_number(m["mon"]))
    return parts.later_forms(text, ctx, after, _span_of)


def _dateparser(said: str, text: str, ctx: Ctx, after: date | None) -> Span | None:
    """Anything else naming one day ("3 days ago", "in a week"): ask dateparser."""
    if not re.search(r"\d|\b(?:ago|in|a|an|one|two|three|four|five|six|seven|ten)\b", text):
        return None
    base = datetime.combine(after, time()) if after else ctx.now.astimezone(ctx.zone)
    prefer = "future" if after or ctx.direction == "future" else "past"
    settings: dict[str, Any] = {"PREFER_DATES_FROM": prefer, "TIMEZONE": ctx.zone.key}
    settings |= {"RELATIVE_BASE": base.replace(tzinfo=None)}
    settings |= {"REQUIRE_PARTS": ["day", "month"]}
    for attempt in dict.fromkeys((said, text)):  # "in 3 days" needs its "in"; "on 5/10" not
        if found := dateparser.parse(attempt, languages=["en"], settings=settings):
            return found.date(), found.date() + ONE_DAY
    return None


def _point(said: str, ctx: Ctx, after: date | None = None) -> DateRange | None:
    found = _span_of(said, ctx, after)
    if found is None or isinstance(found, DateRange):
        return found
    return DateRange(w.local_midnight(found[0], ctx.zone), w.local_midnight(found[1], ctx.zone))


# --- whole phrases ---------------------------------------------------------------------

_TO = r"(?: ?- ?| to | through | thru | until | till | and )"
_SEP = r"(?: - ?|(?<!\d)- ?| ?-(?!\d)| (?:to|through|thru|until|till|up to|and) )"
_START_KW = r"(?:between|from|starting(?: from| on)?|beginning(?! of)|since)"
_RE_DAY_SPANS = [
    re.compile(rf"(?:{_START_KW} )?(?:the )?(?P<mon>{MON}) (?:the )?(?P<a>{DAYNUM}){_TO}"
               rf"(?:the )?(?P<b>{DAYNUM})(?P<y>,? {YEAR})?"),
    re.compile(rf"(?:{_START_KW} )?(?:the )?(?P<a>{DAYNUM}){_TO}(?:the )?(?P<b>{DAYNUM})"
               rf" (?:of )?(?P<mon>{MON})(?P<y>,? {YEAR})?"),
]  # fmt: skip
_RE_BETWEEN = re.compile(r"between (?P<a>.+?) and (?P<b>.+)")
_RE_FROM_TO = re.compile(rf"{_START_KW} (?P<a>.+?){_SEP}(?P<b>.+)")
_RE_SPAN = re.compile(rf"(?P<a>.+?){_SEP}(?P<b>.+)")
_RE_OPEN = re.compile(rf"(?P<kw>{_OPEN_KW}) (?P<x>.+)")
# "from 2025 onwards", "the 1st of dec onward": open from that day on
_RE_ONWARDS = re.compile(rf"(?:(?P<kw>{_START_KW}) )?(?P<x>.+?),? (?:and )?onwards?")
# "2024-2025", "11/1-11/15": two numeric dates joined by a bare dash
_NUMERIC = r"(?:(?:19|20)\d\d|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?)"
_RE_NUMERIC_SPAN = re.compile(rf"(?P<a>{_NUMERIC})-(?P<b>{_NUMERIC})")
_RE_WHOLE_PERIOD = re.compile(_PERIOD)
_OPEN_END = ("until", "till", "til", "up to", "up until", "through", "thru", "by", "no later than",
             "on or before")  # fmt: skip


_RE_SLASHED = re.compile(r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?P<y>/\d{2}(?:\d\d)?)?")


def _same_order(a: str, b: str) -> tuple[str, str]:
    """Both ends of a span of slashed dates in one order: month first, unless one end
    cannot be ("15/11"); then both are day first ("1/11 to 15/11" is in November)."""
    ends = [_RE_SLASHED.fullmatch(x) for x in (a, b)]
    if not all(ends) or not any(int(m["a"]) > 12 >= int(m["b"]) for m in ends if m):
        return a, b
    a, b = (f"{m['b']}/{m['a']}{m['y'] or ''}" for m in ends if m)
    return a, b


def _span(a: str, b: str, ctx: Ctx) -> DateRange | None:
    """Both ends inclusive: "May 1 to May 10" ends at May 11 00:00."""
    a, b = _same_order(a, b)
    year = re.search(YEAR, b)
    if year and not re.search(YEAR, a) and re.search(rf"(?<!\w){MON}(?!\w)", a):
        a = f"{a} {year[0]}"  # "between May 1 and May 10, 2025": the year covers both
    first = _point(a, ctx)
    if first is None or first.start is None or first.end is None:
        return None
    second = _point(b, ctx, after=first.start.astimezone(ctx.zone).date())
    if second is None or second.start is None or second.end is None:
        return None
    return DateRange(min(first.start, second.start), max(first.end, second.end))


def _open(kw: str, x: str, ctx: Ctx) -> DateRange | None:
    if kw in ("since", "as of") and ctx.direction == "nearest":
        ctx = with_direction(ctx, "past")  # "since Monday" is never a Monday still to come
    if (found := _point(x, ctx)) is None:
        return None
    if kw in ("before", "prior to", "earlier than"):
        return DateRange(None, found.start)
    if kw in _OPEN_END:
        return DateRange(None, found.end)
    if kw == "from" and _RE_WHOLE_PERIOD.fullmatch(x):
        return found  # "proposals from last month": that month, not since
    return DateRange(found.end if kw in ("after", "later than") else found.start, None)


def _onwards(kw: str | None, x: str, ctx: Ctx) -> DateRange | None:
    """ "from X onwards" starts where X starts, even when X is a whole year; "since"
    looks back as it does alone."""
    if kw in ("since", "between"):
        return _open("since", x, ctx) if kw == "since" else None
    found = _point(x, ctx)
    return DateRange(found.start, None) if found and found.start else None


def _read(text: str, ctx: Ctx) -> DateRange | None:
    if m := _RE_ONWARDS.fullmatch(text):
        return _onwards(m["kw"], m["x"], ctx)
    for pattern in _RE_DAY_SPANS:
        if m := pattern.fullmatch(text):
            y = m["y"] or ""
            return _span(f"{m['mon']} {m['a']}{y}", f"{m['mon']} {m['b']}{y}", ctx)
    for pattern in (_RE_BETWEEN, _RE_FROM_TO):
        if (m := pattern.fullmatch(text)) and (found := _span(m["a"], m["b"], ctx)):
            return found
    if m := _RE_OPEN.fullmatch(text):
        return _open(m["kw"], m["x"], ctx)
    if (m := _RE_SPAN.fullmatch(text)) and (found := _span(m["a"], m["b"], ctx)):
        return found
    if (found := _point(text, ctx)) is not None:
        return found
    if m := _RE_NUMERIC_SPAN.fullmatch(text):
        return _span(m["a"], m["b"], ctx)
    return None


_SHORTHAND = frozenset(CHAT_WORDS)


def read_date_range(
    phrase: str, now: datetime, tz: str, direction: Direction = "nearest"
) -> DateRange | None:
    """Like ``parse_date_range``, but a weekday that contradicts its date raises
    ``AmbiguousDateError`` (with the reason) instead of reading as no date, so that an
    answer can say why it did not filter."""
    zone, now, text = ZoneInfo(tz), now.astimezone(UTC), w.normalize(phrase)
    if direction not in DIRECTIONS:
        raise ValueError(f"direction must be one of {', '.join(DIRECTIONS)}")
    if not text:
        return None
    ctx = Ctx(now, zone, now.astimezone(zone).date(), direction)
    text = spell_out_digits(text)  # "2day" is today, never two days
    try:
        found = _read(text, ctx)
        if found is None:  # spelt out, then mended, only when the phrase reads nothing
            spelt = w.normalize(spell_out(text).text)
            if spelt != text:
                found = _read(spelt, ctx)  # "nxt wk", "by eow", "2moro", "a fortnight ago"
            if found is None and (mended := mend(spelt, _SHORTHAND)) != spelt:
                found = _read(mended, ctx)  # "yesterdy", "3 dyas ago", "lats week"
        return None if found and found.start is not None and found.start == found.end else found
    except AmbiguousDateError:
        raise
    except (ValueError, OverflowError, StopIteration, KeyError, TypeError):
        return None  # dateparser and date() raise assorted errors on odd input


def parse_date_range(
    phrase: str, now: datetime, tz: str, direction: Direction = "nearest"
) -> DateRange | None:
    """Read the date phrase of a question as a [start, end) range in UTC, or None.

    - "before X" ends where X starts; "until/by/through X" include X's last day.
    - "since/from/starting X" start where X starts; "after X" starts when X is over;
      but "from" a whole week, month or year ("from July") means in it.
    - "past/last N units", "the last week", "past month" are rolling [now - N, now);
      "next N units" is [now, now + N), and so is "within N units", unless ``direction``
      is "past" ("created within 3 days"). "last/this/next week|weekend|month|year" with
      no number and no "the" are calendar periods (weeks start on Monday).
    - "end of X" is X's last day (a week's: its Sunday; a year's: December 31st), as a
      deadline given that way falls on it; "beginning of X" is its first 7 days (of a
      year or a quarter too);
      "early/mid/late May" its first 7 days, its middle, its last 7.
    - "in 2 weeks", "3 days ago", "2 weeks from now": that day; "between now and X",
      "from now until X": from this instant to the end of X; "until now".
    - "this/next/last June 3rd": this year's, the first after today, the last before it;
      "this coming Friday", "the following Tuesday" are the next one after today, "the
      Friday after next" the one after that, "the week after next" two weeks on.
    - "tuesdays", "on Fridays": the next one (today counts); "the weekend": this week's.
    - chat shorthand: "tmrw", "2moro", "2day", "nxt wk", "eow", "eom", "eoy", "eod", also
      inside a phrase said otherwise ("day after tmrw").
    - "from X onwards": from X's start on, even for a whole year; a time of day after a
      day ("friday 5pm", "yesterday evening"): that whole day.
    - slashed dates month first unless one end of the span cannot be ("1/11 to 15/11").
    - a year-less date, month or bare weekday: the occurrence ``direction`` means;
      "last Friday" is strictly before today, "next Friday" strictly after.
    - "recently" (and "recent": "any recent proposals?") is the past 7 days.
    - quarters, halves, seasons, fixed holidays, "early/mid/late" any period, "the 3rd of
      next month", "2 weeks from today", "earlier this month", "older than 2 weeks",
      "a fortnight ago", "this past Friday", "the week before last", typos ("thrusday"),
      dotted dates day first: ``date_parts``, ``date_lexicon``, ``date_typos``.
    Never raises on unreadable or ambiguous text: a question without a date has no range.
    """
    try:
        return read_date_range(phrase, now, tz, direction)
    except AmbiguousDateError:
        return None
