"""Dates for people: proposal deadlines and the date ranges inside questions.

dateparser reads single moments well, but it has no notion of a range ("last week",
"between May 1 and May 10") and it sometimes misreads weekday phrases ("Friday 5pm"
said on a Friday morning), so this module handles those forms itself and hands the
rest to dateparser. Every function is pure in (text, now, tz): ``now`` is an aware UTC
instant from the caller's clock, so tests pin the date. Calendar units (days, weeks,
months) are computed in the user's zone ``tz``, because "today" in New York is not
"today" in UTC; results are always returned in UTC.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import dateparser
from dateparser.date import DateDataParser

from app.domain.errors import DateParseError

_EXAMPLES = "Try something like '3 days', 'next Friday 5pm' or '2026-12-01 18:00'."
_END_OF_DAY = time(23, 59)
_ONE_DAY = timedelta(days=1)
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = {"janfebmaraprmayjunjulaugsepoctnovdec"[3 * i : 3 * i + 3]: i + 1 for i in range(12)}
_WORDS = "one two three four five six seven eight nine ten eleven twelve"
_NUM_WORDS = {w: i for i, w in enumerate(_WORDS.split(), 1)} | {"a": 1, "an": 1}
_SIGN = {"past": -1, "last": -1, "previous": -1, "next": 1, "coming": 1, "upcoming": 1}
_DAY_WORDS = {"yesterday": -1, "today": 0, "tomorrow": 1}

_WD = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# A month standing alone must be written "May": "what may I do" is not about May.
_MON_BARE = _MON.replace("|may|", "|(?-i:May)|")
_DAYNUM = r"\d{1,2}(?:st|nd|rd|th)?\b"
_YEAR = r"(?:19|20)\d\d\b"
_NUM = rf"(?:\d+|{_WORDS.replace(' ', '|')})"
_UNITS = "minute|hour|day|weekend|week|month|year"
_OPEN_KW = r"before|until|till|up to|through|by|since|after|from|starting(?: from| on)?|as of"
# A dash between two digits belongs to a date ("2026-05-05"), not to a span.
_SEP = r"(?: [-–] ?|(?<!\d)[-–] ?| ?[-–](?!\d)| (?:to|through|thru|until|till) )"

# Forms found inside questions, tried in this order (longer constructions first).
_MDATE = (
    rf"(?:{_MON} {_DAYNUM}(?:,? {_YEAR})?|(?:the )?{_DAYNUM} (?:of )?{_MON}(?:,? {_YEAR})?"
    r"|\d{4}-\d\d-\d\d|\d{1,2}/\d{1,2}/\d{2,4})"
)
_REL = rf"(?:the )?(?:{'|'.join(_SIGN)}|this|current)(?: {_NUM})? (?:{_UNITS})s?"
_DAYWORD = rf"(?:today|yesterday|tomorrow|(?:(?:last|this|next|previous|coming) )?{_WD})"
_STRICT = rf"{_MDATE}|{_MON},? {_YEAR}|{_REL}|{_DAYWORD}|(?:last|this|next) {_MON_BARE}"
_POINT = rf"{_STRICT}|{_MON_BARE}|{_YEAR}"
_EXTRACTORS = [
    re.compile(rf"(?<!\w)(?:{p})(?!\w)", re.IGNORECASE)
    for p in (
        rf"between (?:{_POINT}) and (?:{_POINT})",
        rf"from (?:{_POINT}){_SEP}(?:{_POINT})",
        rf"{_MON} {_DAYNUM} ?[-–] ?{_DAYNUM}(?:,? {_YEAR})?",
        rf"(?:{_STRICT}){_SEP}(?:{_STRICT})",
        rf"(?:{_OPEN_KW}) (?:{_POINT})",
        rf"(?:(?:in|over|during|within|for) )?{_REL}",
        rf"(?:in|during|on|of|for|throughout) (?:{_POINT})",
        _STRICT,
        r"recently|lately",
    )
]

# Whole phrases understood by parse_date_range (its input is lower-cased first).
_RE_BETWEEN = re.compile(r"between (?P<a>.+?) and (?P<b>.+)")
_RE_FROM_TO = re.compile(rf"from (?P<a>.+?){_SEP}(?P<b>.+)")
_RE_SPAN = re.compile(rf"(?P<a>.+?){_SEP}(?P<b>.+)")
_RE_DAY_SPAN = re.compile(
    rf"(?P<mon>{_MON}) (?P<a>{_DAYNUM}) ?- ?(?P<b>{_DAYNUM})(?P<y>,? {_YEAR})?"
)
_RE_OPEN = re.compile(rf"(?P<kw>{_OPEN_KW}) (?P<x>.+)")
# A whole period (a week, a month, a year), as opposed to a day: "from" it means in it.
_RE_PERIOD = re.compile(
    rf"(?:(?:the )?(?:last|previous|this|next|past|current) (?:week|month|year))|"
    rf"(?:(?:last|this|next) )?{_MON}(?:,? {_YEAR})?|{_YEAR}"
)
_RE_REL = re.compile(
    rf"(?P<the>the )?(?P<q>{'|'.join(_SIGN)}|this|current)(?: (?P<n>{_NUM}))? (?P<unit>{_UNITS})s?"
)
_RE_WD = re.compile(rf"(?:(?P<q>last|previous|this|next|coming) )?(?P<wd>{_WD})")
_RE_MONTH = re.compile(rf"(?:(?P<q>last|this|next) )?(?P<mon>{_MON})(?:,? (?P<year>{_YEAR}))?")
_YEAR_PART = rf"(?:,? (?P<year>{_YEAR}))?"
_RE_DAY = [
    re.compile(rf"(?P<mon>{_MON}) (?P<day>{_DAYNUM}){_YEAR_PART}"),
    re.compile(rf"(?:the )?(?P<day>{_DAYNUM}) (?:of )?(?P<mon>{_MON}){_YEAR_PART}"),
    re.compile(r"(?P<year>\d{4})-(?P<mon>\d{1,2})-(?P<day>\d{1,2})"),
]
_RE_PREP = re.compile(r"^(?:in|during|on|of|for|throughout|within|over|at) ")

# Deadlines.
_RE_DURATION_PART = re.compile(
    rf"\b(\d+(?:\.\d+)?|(?:an?|{_WORDS.replace(' ', '|')})(?= )) ?"
    r"(months?|weeks?|wks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m)\b"
)
_RE_DURATION = re.compile(rf"(?:{_RE_DURATION_PART.pattern}(?:,? and |, ?| )?)+")
_RE_WEEKDAY_DEADLINE = [
    re.compile(rf"(?:(?P<q>next|this|coming) )?(?P<wd>{_WD})(?:,? (?:at |by |@ ?)?(?P<t>.+))?"),
    re.compile(rf"(?P<t>.+?),? (?:on )?(?:(?P<q>next|this|coming) )?(?P<wd>{_WD})"),
]


@dataclass(frozen=True)
class DateRange:
    """Half-open [start, end) in UTC; ``None`` leaves that side open.

    Half-open so adjacent ranges ("last week", "this week") never share an instant and a
    query can use ``start <= t < end`` with no off-by-one day.
    """

    start: datetime | None
    end: datetime | None


def _normalize(text: str) -> str:
    return " ".join(text.lower().replace("—", "-").split()).strip(" ?!,;.")


def _days(first: date, after_last: date, zone: ZoneInfo) -> DateRange:
    """Local midnight to local midnight, as UTC: a day follows the user's clock."""
    start, end = (datetime.combine(d, time(), zone).astimezone(UTC) for d in (first, after_last))
    return DateRange(start, end)


def _month_start(year: int, month: int) -> date:
    """First day of ``month``, which may fall outside 1..12 (month 0 is last December)."""
    y, m = divmod(year * 12 + month - 1, 12)
    return date(y, m + 1, 1)


def _shift_months(moment: datetime, months: int) -> datetime:
    first = _month_start(moment.year, moment.month + months)
    day = min(moment.day, calendar.monthrange(first.year, first.month)[1])
    return moment.replace(year=first.year, month=first.month, day=day)


def _number(word: str) -> float:
    return _NUM_WORDS[word] if word in _NUM_WORDS else float(word)


def _yearless(month: int, day: int, today: date, after: date | None) -> date:
    """The most recent ``month``/``day`` not after today, or the first on/after ``after``.

    Questions are usually about the past, so "May 5" asked in March is last year's May 5;
    the end of a range is read forward from its start instead. Feb 29 looks further.
    """
    ref = after or today
    for step in range(9):
        year = ref.year + (step if after else -step)
        if calendar.monthrange(year, month)[1] >= day:
            found = date(year, month, day)
            if (after and found >= after) or (not after and found <= today):
                return found
    raise ValueError("no such day")


def _rolling(unit: str, n: int, sign: int, now: datetime, zone: ZoneInfo) -> DateRange:
    """[now - n units, now) or [now, now + n units). Months and years are calendar
    months in the user's zone; shorter units are exact durations."""
    if unit in ("month", "year"):
        moved = _shift_months(now.astimezone(zone), sign * n * (12 if unit == "year" else 1))
        other = moved.astimezone(UTC)
    else:
        other = now + sign * timedelta(**{unit + "s": n})
    return DateRange(min(now, other), max(now, other))


def _calendar(unit: str, offset: int, today: date, zone: ZoneInfo) -> DateRange | None:
    """The week (Monday to Monday), weekend (Saturday to Monday), month or year that is
    ``offset`` units away from the one holding ``today``."""
    if unit in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=offset)
        first = monday + timedelta(days=5 if unit == "weekend" else 0)
        return _days(first, monday + timedelta(days=7), zone)
    if unit == "month":
        first = _month_start(today.year, today.month + offset)
        return _days(first, _month_start(first.year, first.month + 1), zone)
    year = today.year + offset
    return _days(date(year, 1, 1), date(year + 1, 1, 1), zone) if unit == "year" else None


def _point(said: str, now: datetime, zone: ZoneInfo, after: date | None = None) -> DateRange | None:
    """One period ("May", "last week", "Friday", "May 5") as a closed range.

    With ``after`` (the start of a span) undated parts resolve forward from it; otherwise
    to the most recent occurrence not in the future (today counts).
    """
    text, today = _RE_PREP.sub("", said, count=1), now.astimezone(zone).date()
    if text in ("recently", "lately"):
        return DateRange(now - timedelta(days=7), now)
    if text in _DAY_WORDS:
        day = today + _DAY_WORDS[text] * _ONE_DAY
        return _days(day, day + _ONE_DAY, zone)
    if m := _RE_REL.fullmatch(text):
        q, unit, sign = m["q"], m["unit"], _SIGN.get(m["q"], 0)
        rolling = m["the"] or m["n"] or q == "past" or unit in ("minute", "hour", "day")
        if rolling and unit != "weekend":  # weekends are only ever calendar weekends
            n = int(_number(m["n"])) if m["n"] else 1
            return _rolling(unit, n, sign, now, zone) if sign and n > 0 else None
        return None if m["n"] else _calendar(unit, sign, today, zone)
    if m := _RE_WD.fullmatch(text):
        wd, q, dow = _WEEKDAYS.index(m["wd"]), m["q"], today.weekday()
        if q in ("last", "previous", "next", "coming"):
            step = _SIGN[q]  # strictly before / after today
            day = today + step * timedelta(days=(step * (wd - dow) - 1) % 7 + 1)
        elif q == "this":
            day = today + timedelta(days=wd - dow)
        elif after:
            day = after + timedelta(days=(wd - after.weekday()) % 7)
        else:
            day = today - timedelta(days=(dow - wd) % 7)
        return _days(day, day + _ONE_DAY, zone)
    if m := _RE_MONTH.fullmatch(text):
        month, q, ref = _MONTHS[m["mon"][:3]], m["q"], after or today
        if m["year"] or q == "this":
            year = int(m["year"] or today.year)
        elif q == "last":
            year = today.year - (month >= today.month)
        elif q == "next" or after:
            year = ref.year + (month < ref.month or (q == "next" and month == ref.month))
        else:
            year = today.year - (month > today.month)
        return _days(date(year, month, 1), _month_start(year, month + 1), zone)
    if re.fullmatch(_YEAR, text):
        return _days(date(int(text), 1, 1), date(int(text) + 1, 1, 1), zone)
    if m := next((found for r in _RE_DAY if (found := r.fullmatch(text))), None):
        month = int(m["mon"]) if m["mon"].isdigit() else _MONTHS[m["mon"][:3]]
        day_num = int(re.sub(r"\D", "", m["day"]))
        if m["year"]:
            day = date(int(m["year"]), month, day_num)
        else:
            day = _yearless(month, day_num, today, after)
        return _days(day, day + _ONE_DAY, zone)
    # Anything else naming one day ("5/10/2026", "3 days ago"): ask dateparser.
    base = datetime.combine(after, time()) if after else now.astimezone(zone).replace(tzinfo=None)
    settings: dict[str, Any] = {"PREFER_DATES_FROM": "future" if after else "past"}
    settings |= {"RELATIVE_BASE": base}
    settings |= {"REQUIRE_PARTS": ["day", "month"], "TIMEZONE": zone.key}
    for attempt in dict.fromkeys((said, text)):  # "in 3 days" needs its "in"; "on 5/10" not
        if found := dateparser.parse(attempt, languages=["en"], settings=settings):
            return _days(found.date(), found.date() + _ONE_DAY, zone)
    return None


def _span(a: str, b: str, now: datetime, zone: ZoneInfo) -> DateRange | None:
    """Both ends inclusive: "May 1 to May 10" ends at May 11 00:00."""
    year = re.search(_YEAR, b)
    if year and not re.search(_YEAR, a) and re.search(rf"(?<!\w){_MON}(?!\w)", a):
        a = f"{a} {year[0]}"  # "between May 1 and May 10, 2025": the year covers both
    first = _point(a, now, zone)
    if first is None or first.start is None or first.end is None:
        return None
    second = _point(b, now, zone, after=first.start.astimezone(zone).date())
    if second is None or second.start is None or second.end is None:
        return None
    return DateRange(min(first.start, second.start), max(first.end, second.end))


def parse_date_range(phrase: str, now: datetime, tz: str) -> DateRange | None:
    """Read the date phrase of a question as a [start, end) range in UTC, or None.

    Choices (questions are usually about the past):
    - "before X" ends where X starts; "until/by/through X" include X's last day.
    - "since/from X" start where X starts; "after X" starts when X is over; but "from"
      a whole week, month or year ("from last month", "from July") means in it.
    - "past/last N units", "the last week", "past month" are rolling [now - N, now);
      "next N units" is [now, now + N). "last/this/next week|weekend|month|year" with
      no number and no "the" are calendar periods (weeks start on Monday).
    - an undated weekday, day or month is the most recent one not in the future
      (today counts); "last Friday" is strictly before today, "next Friday" after.
    - "recently" is the past 7 days.
    Never raises on unreadable text: a question without a date has no range.
    """
    zone, now, text = ZoneInfo(tz), now.astimezone(UTC), _normalize(phrase)
    try:
        if not text:
            return None
        if m := _RE_DAY_SPAN.fullmatch(text):
            year = m["y"] or ""
            return _span(f"{m['mon']} {m['a']}{year}", f"{m['mon']} {m['b']}{year}", now, zone)
        if m := _RE_BETWEEN.fullmatch(text) or _RE_FROM_TO.fullmatch(text):
            return _span(m["a"], m["b"], now, zone)
        if m := _RE_OPEN.fullmatch(text):
            if (x := _point(m["x"], now, zone)) is None:
                return None
            if m["kw"] == "before":
                return DateRange(None, x.start)
            if m["kw"] in ("until", "till", "up to", "through", "by"):
                return DateRange(None, x.end)
            if m["kw"] == "from" and _RE_PERIOD.fullmatch(m["x"]):
                return x  # "proposals from last month": that month, not since
            return DateRange(x.end if m["kw"] == "after" else x.start, None)
        if (m := _RE_SPAN.fullmatch(text)) and (found := _span(m["a"], m["b"], now, zone)):
            return found
        return _point(text, now, zone)
    except Exception:  # dateparser and date() raise assorted errors on odd input
        return None


def extract_date_phrase(question: str) -> tuple[str | None, str]:
    """Split a question into (date phrase as written, question without it).

    The first supported form found wins, trying longer constructions ("between X and
    Y") before their parts, so the rest of the question can go to search unpolluted.
    Returns (None, question) when there is no date phrase.
    """
    text = " ".join(question.split())
    for pattern in _EXTRACTORS:
        if m := pattern.search(text):
            rest = " ".join(f"{text[: m.start()]} {text[m.end() :]}".split())
            return m.group(0), re.sub(r" ([?.!,;:])", r"\1", rest)
    return None, text


def _parse_time(text: str) -> time | None:
    """ "5pm", "5:30 p.m.", "17:00", "17h", "noon"; "midnight"/"eod" mean 23:59 that day."""
    if text in ("noon", "midday", "midnight", "end of day", "eod"):
        return time(12) if text in ("noon", "midday") else _END_OF_DAY
    if m := re.fullmatch(r"(\d{1,2})(?::(\d\d))? ?([ap])\.?m\.?", text):
        hour, minute = int(m[1]), int(m[2] or 0)
        valid = 1 <= hour <= 12 and minute < 60
        return time(hour % 12 + (12 if m[3] == "p" else 0), minute) if valid else None
    if m := re.fullmatch(r"(\d{1,2})(?:[:.h](\d\d)|h)", text):
        hour, minute = int(m[1]), int(m[2] or 0)
        return time(hour, minute) if hour < 24 and minute < 60 else None
    return None


def _weekday_deadline(text: str, now: datetime, zone: ZoneInfo) -> datetime | None:
    """ "Friday", "next Friday 5pm", "5pm on Friday": the next such weekday after today.

    Today only counts when the phrase gives a time still ahead today ("Friday 5pm" said
    on Friday morning) or says "this" ("this Friday" on a Friday is today, by 23:59).
    "next Friday" is simply the coming Friday (tomorrow, if today is Thursday).
    """
    m = next((found for r in _RE_WEEKDAY_DEADLINE if (found := r.fullmatch(text))), None)
    at = _parse_time(m["t"]) if m and m["t"] else None
    if m is None or (m["t"] and at is None):
        return None
    today = now.astimezone(zone).date()
    ahead = (_WEEKDAYS.index(m["wd"]) - today.weekday()) % 7
    if ahead == 0:
        today_ok = m["q"] == "this" or (m["q"] is None and at is not None)
        if not today_ok or datetime.combine(today, at or _END_OF_DAY, zone) <= now:
            ahead = 7
    day = today + timedelta(days=ahead)
    return datetime.combine(day, at or _END_OF_DAY, zone).astimezone(UTC)


def parse_deadline(text: str, now: datetime, tz: str) -> datetime:
    """Read a proposal deadline as an aware UTC instant.

    Durations ("3 days", "2h", "2 weeks 3 days", "in 5 days") count from ``now``: exact
    hours, except months, which are calendar months in ``tz``. Moments are read in
    ``tz``; a day with no time ("Friday", "December 1st") means 23:59 local that day,
    because a deadline "on Friday" means by the end of Friday. Whether the result is
    too soon or too far is the service's rule, not ours.
    """
    zone, now = ZoneInfo(tz), now.astimezone(UTC)
    try:
        found = _read_deadline(_normalize(text), now, zone)
    except (ValueError, OverflowError):  # "99999999 days" runs off the calendar
        found = None
    if found is None:
        raise DateParseError(f"I couldn't read '{text.strip()}' as a deadline. {_EXAMPLES}")
    return found


def _read_deadline(text: str, now: datetime, zone: ZoneInfo) -> datetime | None:
    clean = re.sub(r"^(?:by|on|until|till|due) ", "", text)
    body = re.sub(r" from now$", "", re.sub(r"^(?:in|within) ", "", clean))
    if not clean:
        return None
    if _RE_DURATION.fullmatch(body):
        moment, delta = now.astimezone(zone), timedelta()
        for amount, unit in _RE_DURATION_PART.findall(body):
            if unit.startswith("mo"):
                moment = _shift_months(moment, int(_number(amount)))
            else:
                key = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes"}[unit[0]]
                delta += timedelta(**{key: _number(amount)})
        return moment.astimezone(UTC) + delta
    if (found := _weekday_deadline(clean, now, zone)) is not None:
        return found
    settings: dict[str, Any] = {"PREFER_DATES_FROM": "future", "TIMEZONE": zone.key}
    settings |= {"TO_TIMEZONE": "UTC", "RELATIVE_BASE": now.astimezone(zone).replace(tzinfo=None)}
    settings |= {"RETURN_AS_TIMEZONE_AWARE": True, "RETURN_TIME_AS_PERIOD": True}
    data = DateDataParser(languages=["en"], settings=settings).get_date_data(clean)
    # "3" or "May" come back as a month or a year: too vague for a deadline.
    if data.date_obj is None or data.period not in ("day", "time"):
        return None
    if data.period == "day":  # no time given: by the end of that local day
        local_day = data.date_obj.astimezone(zone).date()
        return datetime.combine(local_day, _END_OF_DAY, zone).astimezone(UTC)
    return data.date_obj.astimezone(UTC)
