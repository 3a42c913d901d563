"""The vocabulary of English dates, shared by the range reader and the deadline reader.

Patterns here are building blocks, not whole phrases: ``date_ranges`` composes them
into the phrases a question may hold and ``dates`` into deadlines. Keeping one copy
means an abbreviation learnt for questions ("Sept", "Thu") is learnt for deadlines too.
"""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTHS = {"janfebmaraprmayjunjulaugsepoctnovdec"[3 * i : 3 * i + 3]: i + 1 for i in range(12)}
WORDS = "one two three four five six seven eight nine ten eleven twelve"
NUM_WORDS = {w: i for i, w in enumerate(WORDS.split(), 1)} | {"a": 1, "an": 1}
ORDINALS = {
    w: i
    for i, w in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1
    )
}
SIGN = {"past": -1, "last": -1, "previous": -1, "next": 1, "coming": 1, "upcoming": 1}

# Full weekday names, or their usual abbreviations ("Tue", "Thurs.", "Sat").
WD = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day"
    r"|(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?)"
)
# A weekday's full name, the one that takes a plural ("on Tuesdays").
WD_FULL = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
# Inside a question the short forms that are also English words must be capitalised:
# "I sat down" and "the sun" are not dates, "Sat" and "Sun" are.
WD_IN_TEXT = (
    r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:tue|tues|thu|thur|thurs|fri)\.?"
    r"|(?-i:Mon|Wed|Sat|Sun)\.?)"
)
MON = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
# A month standing alone must be written "May": "what may I do" is not about May.
MON_BARE = MON.replace("|may|", "|(?-i:May)|")
ORD_WORD = "|".join(ORDINALS)
DAYNUM = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?|{ORD_WORD})\b"
# A day of the month with no month ("the 8th") must look like one: an ordinal suffix.
DAY_ALONE = rf"(?:\d{{1,2}}(?:st|nd|rd|th)|{ORD_WORD})\b"
YEAR = r"(?:19|20)\d\d\b"
NUM = rf"(?:\d+|{WORDS.replace(' ', '|')})"
# A time of day ("5pm", "17:00", "18h30", "noon") or a part of one ("in the evening")
CLOCK = r"(?:\d{1,2}(?::\d\d)? ?[ap]\.?m\.?|\d{1,2}(?::|h)\d\d|\d{1,2}h|noon|midday|midnight)"
DAY_PART = r"(?:(?:in the )?(?:morning|afternoon|evening)|night)"
# The units a relative period counts in ("the past 3 weeks", "next quarter")
UNITS = "minute|hour|day|weekend|week|month|quarter|year"
# The parts of a year that have names: quarters ("q3", "the third quarter"), halves
# ("h1") and the (meteorological, northern) seasons. Each is (first month, months).
QUARTER = r"(?:q[1-4]|(?:first|second|third|fourth|1st|2nd|3rd|4th) quarter)"
HALF = r"(?:h[12])"
SEASON = r"(?:spring|summer|fall|autumn|winter)"
YEAR_PART = rf"(?:{QUARTER}|{HALF}|{SEASON})"
SEASONS = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}
# Holidays on a fixed day of the year, read as that day ("before xmas", "since halloween").
HOLIDAYS = {
    "christmas eve": (12, 24), "xmas eve": (12, 24), "christmas": (12, 25), "xmas": (12, 25),
    "boxing day": (12, 26), "new year's eve": (12, 31), "new years eve": (12, 31),
    "nye": (12, 31), "new year's day": (1, 1), "new years day": (1, 1), "new year's": (1, 1),
    "new years": (1, 1), "new year": (1, 1), "halloween": (10, 31),
    "valentine's day": (2, 14), "valentines day": (2, 14), "valentine's": (2, 14),
}  # fmt: skip
HOLIDAY = "|".join(
    re.escape(h).replace("'", "['’]") for h in sorted(HOLIDAYS, key=len, reverse=True)
)


def year_part_months(word: str) -> tuple[int, int]:
    """(first month, months) of "q3", "the 2nd quarter", "h1" or "summer"."""
    low = word.lower()
    if low in SEASONS:
        return SEASONS[low], 3
    if low.startswith("h"):
        return 1 + 6 * (int(low[1]) - 1), 6
    n = int(low[1]) if low.startswith("q") else day_number(low.split()[0])
    return 1 + 3 * (n - 1), 3


def weekday_index(word: str) -> int:
    """0 for Monday: the first two letters are enough ("tu", "th", "sa", "su")."""
    return next(i for i, name in enumerate(WEEKDAYS) if name[:2] == word[:2].lower())


def month_number(word: str) -> int:
    return int(word) if word.isdigit() else MONTHS[word[:3].lower()]


def day_number(word: str) -> int:
    low = word.lower()
    return ORDINALS[low] if low in ORDINALS else int(re.sub(r"\D", "", low))


def number(word: str) -> float:
    return NUM_WORDS[word] if word in NUM_WORDS else float(word)


def month_start(year: int, month: int) -> date:
    """First day of ``month``, which may fall outside 1..12 (month 0 is last December)."""
    y, m = divmod(year * 12 + month - 1, 12)
    return date(y, m + 1, 1)


def month_days(year: int, month: int) -> int:
    return calendar.monthrange(year, month)[1]


def shift_months(moment: datetime, months: int) -> datetime:
    first = month_start(moment.year, moment.month + months)
    day = min(moment.day, month_days(first.year, first.month))
    return moment.replace(year=first.year, month=first.month, day=day)


def local_midnight(day: date, zone: ZoneInfo) -> datetime:
    """The UTC instant a local day starts: a day follows the user's clock, DST included."""
    return datetime.combine(day, time(), zone).astimezone(UTC)


# A year written with two digits after an apostrophe ("Nov '26", "summer '25") is 20xx.
_RE_SHORT_YEAR = re.compile(r"(?<![\w'])'(\d\d)\b")


def normalize(text: str) -> str:
    said = text.lower().replace("—", "-").replace("–", "-").replace("’", "'")
    said = _RE_SHORT_YEAR.sub(r"20\1", said)
    return " ".join(said.split()).strip(" ?!,;.")


def full_year(digits: str) -> int:
    """A year as written: two digits are this century's ("26" is 2026)."""
    return int(digits) + (2000 if len(digits) == 2 else 0)
