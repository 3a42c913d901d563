"""Finding the date phrase inside a question, so the rest can go to search unpolluted.

The patterns mirror what ``date_ranges`` reads, but are stricter where a date word is
also an ordinary word: a lone month must be written "May" ("what may I do" is not
about May), the short weekdays that are words ("Sat", "Sun", "Mon", "Wed") must be
capitalised, and a lone day needs an ordinal ("the 8th", not "the 8 options").
Of all the phrases found, the longest wins, so "Tuesday next week" beats "next week"
and "from May 1 to May 10" beats "May 1". Chat shorthand ("due tmrw", "nxt wk") is
found spelt out and cut out of the question as written.
"""

from __future__ import annotations

import re

from app.nlp.date_lexicon import spell_out
from app.nlp.date_words import (
    HALF,
    HOLIDAY,
    MON,
    MON_BARE,
    NUM,
    ORD_WORD,
    QUARTER,
    SEASON,
    SIGN,
    UNITS,
    WD,
    WD_FULL,
    WD_IN_TEXT,
    YEAR,
)

_D = r"\d{1,2}(?:st|nd|rd|th)?\b"
_ORD = r"\d{1,2}(?:st|nd|rd|th)\b"
_WD = WD_IN_TEXT
_LEAD = rf"(?:{WD},? (?:the )?)?"  # before a date, "wed" is Wednesday whatever its case
_NOT_A_DAY = r"(?! (?:floor|time|times|place|grade|edition|anniversary|round|row|item|option))"
_MDATE = (
    rf"{_LEAD}(?:{MON} (?:the )?{_D}(?:,? {YEAR})?|{MON_BARE} (?:the )?(?:{ORD_WORD})"
    rf"|(?:the )?{_D} (?:of )?{MON}(?:,? {YEAR})?|(?:the )?(?:{ORD_WORD}) of {MON}(?:,? {YEAR})?"
    rf"|\d{{4}}-\d\d-\d\d|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?(?![/\d])"
    rf"|\d{{1,2}}\.\d{{1,2}}\.(?:\d{{4}}|\d\d)\b|{YEAR}-\d{{1,2}}(?![-\d])|\d{{1,2}}/{YEAR})"
)
_DAY_ONLY = rf"(?:{_WD},? (?:the )?{_D}|the {_ORD}{_NOT_A_DAY})"
_WEEK_OF = r"(?:(?:of |in )?(?:the )?(?:next|last|this|previous|following|coming) week)"
_DAYWORD = (
    rf"(?:today|yesterday|tomorrow|{_WD} {_WEEK_OF}"
    rf"|(?:(?:last|this|next|previous|coming|this coming|(?:the )?following"
    rf"|the (?:next|last|previous|coming)) )?{_WD}"
    rf"|(?:the )?(?:{_WD}|week|weekend|month|quarter|year) (?:after next|before last)"
    rf"|(?:the )?following (?:week|weekend|month|year)|this coming (?:week|weekend|month|year)"
    rf"|{WD_FULL}s|the weekend)"
)
# "in 2 weeks", "3 days ago", "a month from now": a day counted from today
_COUNT = rf"(?:{NUM}|an?) (?:minute|hour|day|week|month|year)s?"
_COUNTED = rf"(?:{_COUNT} ago|(?:in|within) {_COUNT}|{_COUNT} from now)"
# "older than 2 weeks", "more than a month ago", "less than a week old"
_AGE = rf"(?:(?:more than|over|at least|less than|under|fewer than) {_COUNT} (?:ago|old)"
_AGE += rf"|older than {_COUNT}(?: old)?)"
# "q3", "the first quarter of 2026", "last q4", "h1 2026"; a season needs a qualifier or
# a year ("last summer", "spring 2026"), "spring" alone being a word too
_IN_YEAR = rf"(?:,? (?:of |in )?(?:{YEAR}|(?:the |this |last |next )year))"
_YEAR_PART = (
    rf"(?:(?:(?:last|this|next|previous|coming) )?(?:the )?(?:{QUARTER}|{HALF}){_IN_YEAR}?"
    rf"|(?:last|this|next|previous|coming) {SEASON}{_IN_YEAR}?|{SEASON}{_IN_YEAR})"
)
# "this June 3rd", "next the 8th", "the following May 1st": a year-less day, qualified
_QUALIFIED = (
    rf"(?:this|next|last|coming|(?:the )?following) (?:{MON} (?:the )?{_D}"
    rf"|(?:the )?{_D} (?:of )?{MON}|(?:the )?{_ORD})"
)
_REL = rf"(?:the )?(?:{'|'.join(SIGN)}|this|current)(?: {NUM})? (?:{UNITS})s?"
_PERIOD = (
    rf"(?:(?:the |this |next |last |current )?(?:month|week|quarter|year)|(?:(?:last|this|next) )?"
    rf"{MON_BARE}(?:,? {YEAR})?|{YEAR}|{_YEAR_PART})"
)
_EDGE = (
    rf"(?:the )?(?:end|beginning|start|middle|first week|last week) of (?:{_PERIOD}|today|tomorrow)"
)
_PART = rf"(?:early|mid|late)[- ](?:{_PERIOD}|today|tomorrow)"
# "the 3rd of next month", "the last Friday of the month", "the first half of 2026"
_NTH_OF = rf"(?:the )?(?:{_D}|{ORD_WORD}|last) (?:(?:day|week|{_WD}) )?of (?:{_PERIOD})"
_HALF_OF = rf"(?:the )?(?:first|second|1st|2nd|latter) half of (?:{_PERIOD})"
_AROUND_NOW = r"(?:earlier|later) (?:today|this (?:week|month|quarter|year))"
_STRICT = (  # the first alternative that matches at a place wins: longer ones first
    rf"{_NTH_OF}|{_HALF_OF}|{_QUALIFIED}|{_COUNTED}|{_AGE}|{_AROUND_NOW}|{_EDGE}|{_PART}"
    rf"|{_MDATE}|{MON},? (?:of )?{YEAR}|{_YEAR_PART}|{_REL}"
    rf"|{_DAY_ONLY}|{_DAYWORD}|(?:last|this|next) {MON_BARE}"
)
_POINT = rf"{_STRICT}|{MON_BARE}|{YEAR}"
_TO = r"(?: ?[-–] ?| to | through | thru | until | till | and )"
_SEP = r"(?: [-–] ?|(?<!\d)[-–] ?| ?[-–](?!\d)| (?:to|through|thru|until|till|up to) )"
_START = r"(?:from|starting(?: from| on)?|beginning|since)"
# A holiday is a date after a word that bounds a range ("before xmas", "since halloween"),
# unless a word follows it ("proposals from the christmas party"); after "for", "over" or
# "at" it is what a proposal is about ("ideas for the halloween party", "closing the
# office over christmas"), as in "the christmas market"
_HOLIDAY = rf"(?:the )?(?:(?:this|next|last) )?(?:{HOLIDAY})(?: day)?(?:,? {YEAR})?"
_OPEN = (
    r"before|prior to|earlier than|until|till|up to|up until|through|by|no later than"
    r"|on or before|since|after|later than|from|starting(?: from| on)?|as of|on or after"
    r"|no earlier than|beginning(?! of)"
)
_DATED = (
    r"created|made|proposed|posted|started|opened|submitted|launched|added|raised|filed"
    r"|clos(?:e|es|ed|ing)|due|ends?|ended|ending|expir(?:e|es|ed|ing)|finish(?:es|ed|ing)?"
)
_EXTRACTORS = [
    re.compile(rf"(?<!\w)(?:{p})(?!\w)", re.IGNORECASE)
    for p in (
        rf"(?:(?:between|{_START}) )?(?:the )?{MON} (?:the )?{_D}{_TO}(?:the )?{_D}(?:,? {YEAR})?",
        rf"(?:(?:between|{_START}) )?(?:the )?{_D}{_TO}(?:the )?{_D} (?:of )?{MON}(?:,? {YEAR})?",
        # a month to a month, a weekday to a weekday: "between march and may", "mon-fri"
        rf"(?:(?:between|{_START}) )?{MON}(?:,? {YEAR})?{_TO}{MON}(?:,? {YEAR})?",
        rf"(?:(?:between|{_START}) {WD}{_TO}|{WD} ?- ?){WD}",
        # numbers joined by a dash: "2024-2025", "11/1-11/15"
        rf"(?:{YEAR}|\d{{1,2}}/\d{{1,2}})-(?:{YEAR}|\d{{1,2}}/\d{{1,2}})(?![/\d])",
        # a day counted from another: "2 weeks from today", "a week from Friday"
        rf"{_COUNT} (?:from|after|before) (?:{_POINT}|{_HOLIDAY})",
        rf"(?:{_OPEN}) {_HOLIDAY}(?![\w-]| [^\W\d_])",
        rf"(?:in|during|over|since|before|after|until|till|by) (?:the )?{SEASON}(?![\w-])",
        r"(?:until|till|by|before|since|from) \d{1,2}\.\d{1,2}(?![.\d])",  # "until 20.11"
        rf"between (?:{_POINT}) and (?:{_POINT})",
        rf"(?:{_START} )?(?:{_POINT}|{_HOLIDAY}),? (?:and )?onwards?",  # "from 2025 onwards"
        rf"{_START} (?:{_POINT}){_SEP}(?:{_POINT})",
        rf"(?:{_STRICT}){_SEP}(?:{_STRICT})",
        rf"(?:{_OPEN}) (?:{_POINT})",
        # "now" ends a span, never stands alone: "between now and Friday", "until now"
        rf"between now and (?:{_POINT})|(?:{_START} )?now{_SEP}(?:{_POINT})",
        rf"(?:{_START} )?(?:{_POINT}){_SEP}now|(?:until|till|up to|up until|before|since) now",
        rf"(?:(?:in|over|during|within|for|at|by) )?(?:{_REL}|{_EDGE}|{_PART})",
        rf"(?:in|during|on|of|for|throughout|at) (?:{_POINT})",
        _STRICT,
        # "recent proposals" as "recently"; "the most recent" asks for the newest instead
        r"recently|lately|(?<!most )(?<!more )recent",
        # a month right after a verb of creating or closing: "created December", "due Sept"
        rf"(?:{_DATED}) (?P<at>{MON_BARE}(?:,? {YEAR})?|{YEAR})",
    )
]


def _span(m: re.Match[str]) -> tuple[int, int]:
    """Where the date is in a match: its ``at`` group, when the match has one."""
    return m.span("at") if "at" in m.re.groupindex else m.span()


def extract_date_phrase(question: str) -> tuple[str | None, str]:
    """Split a question into (date phrase as written, question without it).

    Returns (None, question) when there is no date phrase.
    """
    text = " ".join(question.split())
    spelt = spell_out(text)  # "due tmrw" is found as "due tomorrow", cut as written
    best: tuple[int, int] | None = None
    for pattern in _EXTRACTORS:
        for m in pattern.finditer(spelt.text):
            at, after = _span(m)
            if best is None or (after - at, -at) > (best[1] - best[0], -best[0]):
                best = at, after
    if best is None:
        return None, text
    start, end = spelt.span_in_original(*best)
    rest = " ".join(f"{text[:start]} {text[end:]}".split())
    return text[start:end], re.sub(r" ([?.!,;:])", r"\1", rest)


_RE_AHEAD = re.compile(rf"in {_COUNT}|{_COUNT} from (?:now|today)", re.IGNORECASE)


def counts_ahead(phrase: str) -> bool:
    """ "in 2 weeks", "a month from now", "2 weeks from today": a day counted ahead of
    now ("within 3 days" is a window from now already: date_ranges)."""
    return _RE_AHEAD.fullmatch(" ".join(phrase.split())) is not None
