"""Proposal deadlines as people write them: "3 days", "next Friday 5pm", "Tue the 8th".

dateparser reads single moments well but misreads some weekday phrases ("Friday 5pm"
said on a Friday morning), so durations and weekdays are handled here, dateparser
reads the rest, and the question-range reader (``date_ranges``, towards the future)
catches the day forms neither knows ("Tuesday next week", "Sept 8th", "end of the
month"). Every function is pure in (text, now, tz): ``now`` is an aware UTC instant
from the caller's clock, so tests pin the date; results are always in UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from dateparser.date import DateDataParser

from app.domain.errors import DateParseError
from app.nlp import date_words as w
from app.nlp.date_lexicon import spell_out, to_english
from app.nlp.date_ranges import AmbiguousDateError, read_date_range
from app.nlp.date_words import WD, WORDS

_END_OF_DAY = time(23, 59)

_RE_DURATION_PART = re.compile(
    rf"\b(\d+(?:\.\d+)?|(?:an?|{WORDS.replace(' ', '|')})(?= )) ?"
    r"(months?|weeks?|wks?|w|days?|d|hours?|hrs?|h|minutes?|mins?|m)\b"
)
_RE_DURATION = re.compile(rf"(?:{_RE_DURATION_PART.pattern}(?:,? and |, ?| )?)+")
_RE_WEEKDAY_DEADLINE = [
    re.compile(rf"(?:(?P<q>next|this|coming) )?(?P<wd>{WD})(?:,? (?:at |by |@ ?)?(?P<t>.+))?"),
    re.compile(rf"(?P<t>.+?),? (?:on )?(?:(?P<q>next|this|coming) )?(?P<wd>{WD})"),
]
_RE_WEEKEND = re.compile(r"\bweekend\b")
# "17.30" is a time, "1.12.2026" a date (day first): a time has one dot between digits
_HAS_TIME = re.compile(
    r"\d[:h]\d|(?<![\d.])\d{1,2}\.\d\d(?![\d.])|\d ?[ap]\.?m\b"
    r"|\b(?:noon|midday|midnight|eod)\b|\bat \d"
)


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
    ahead = (w.weekday_index(m["wd"]) - today.weekday()) % 7
    if ahead == 0:
        today_ok = m["q"] == "this" or (m["q"] is None and at is not None)
        if not today_ok or datetime.combine(today, at or _END_OF_DAY, zone) <= now:
            ahead = 7
    day = today + timedelta(days=ahead)
    return datetime.combine(day, at or _END_OF_DAY, zone).astimezone(UTC)


def _one_day(text: str, now: datetime, zone: ZoneInfo) -> datetime | None:
    """A day named without a time ("Tue the 8th", "Friday next week", "Sept 8", "the end
    of the month": its last day), read towards the future, by 23:59 local; a weekend by
    its Sunday. A weekday that contradicts its date is refused rather than guessed."""
    found = read_date_range(text, now, zone.key, "future")  # AmbiguousDateError goes up
    if found is None or found.start is None or found.end is None:
        return None
    first = found.start.astimezone(zone).date()
    last = (found.end.astimezone(zone) - timedelta(hours=1)).date()
    if first != last and not _RE_WEEKEND.search(text):
        return None
    return datetime.combine(last, _END_OF_DAY, zone).astimezone(UTC)


def parse_deadline(text: str, now: datetime, tz: str, language: str = "en") -> datetime:
    """Read a proposal deadline as an aware UTC instant.

    Durations ("3 days", "2h", "2 weeks 3 days", "in 5 days") count from ``now``: exact
    hours, except months, which are calendar months in ``tz``. Moments are read in
    ``tz``; a day with no time ("Friday", "December 1st") means 23:59 local that day,
    because a deadline "on Friday" means by the end of Friday. Whether the result is
    too soon or too far is the service's rule, not ours.

    ``language`` (a catalog name: "es", "ru", "pt_BR") reads the phrase in that language:
    rewritten into English date words first, else as dateparser reads that language.
    """
    zone, now = ZoneInfo(tz), now.astimezone(UTC)
    try:
        found = _read_deadline(w.normalize(to_english(text, language)), now, zone)
        if found is None and language != "en":
            found = _read_deadline(w.normalize(text), now, zone, language.split("_")[0])
        if found is None and (spelt := spell_out(w.normalize(text))).pieces:  # "tmrw 5pm"
            found = _read_deadline(w.normalize(spelt.text), now, zone)
    except AmbiguousDateError as exc:  # echo the phrase as the member wrote it
        raise DateParseError(
            "'{text}' is ambiguous: {reason}. Please give the date again.",
            text=text.strip(),
            reason=exc.reason,
        ) from exc
    except (ValueError, OverflowError):  # "99999999 days" runs off the calendar
        found = None
    if found is None:
        raise DateParseError(
            "I couldn't read '{text}' as a deadline. Try something like '3 days', "
            "'next Friday 5pm' or '2026-12-01 18:00'.",
            text=text.strip(),
        )
    return found


def _read_deadline(
    text: str, now: datetime, zone: ZoneInfo, language: str = "en"
) -> datetime | None:
    clean = re.sub(r"^(?:by|on|until|till|due) ", "", text)
    clean = re.sub(rf"^({w.WD_FULL})s$", r"\1", clean)  # "on Tuesdays": as "on Tuesday"
    body = re.sub(r" from now$", "", re.sub(r"^(?:in|within) ", "", clean))
    if not clean:
        return None
    if _RE_DURATION.fullmatch(body):
        moment, delta = now.astimezone(zone), timedelta()
        for amount, unit in _RE_DURATION_PART.findall(body):
            if unit.startswith("mo"):
                moment = w.shift_months(moment, int(w.number(amount)))
            else:
                key = {"w": "weeks", "d": "days", "h": "hours", "m": "minutes"}[unit[0]]
                delta += timedelta(**{key: w.number(amount)})
        return moment.astimezone(UTC) + delta
    if (found := _weekday_deadline(clean, now, zone)) is not None:
        return found
    if not _HAS_TIME.search(clean) and (day := _one_day(clean, now, zone)) is not None:
        return day
    settings: dict[str, Any] = {"PREFER_DATES_FROM": "future", "TIMEZONE": zone.key}
    settings |= {"TO_TIMEZONE": "UTC", "RELATIVE_BASE": now.astimezone(zone).replace(tzinfo=None)}
    settings |= {"RETURN_AS_TIMEZONE_AWARE": True, "RETURN_TIME_AS_PERIOD": True}
    data = DateDataParser(languages=[language], settings=settings).get_date_data(clean)
    # "3" or "May" come back as a month or a year: too vague for a deadline.
    if data.date_obj is None or data.period not in ("day", "time"):
        return None
    if data.period == "day":  # no time given: by the end of that local day
        local_day = data.date_obj.astimezone(zone).date()
        return datetime.combine(local_day, _END_OF_DAY, zone).astimezone(UTC)
    return data.date_obj.astimezone(UTC)
