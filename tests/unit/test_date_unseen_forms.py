"""Date phrases as members type them in /ask, by class of what the reader missed.

Each class was found by reading 394 phrases the tests had never held (in English, es,
ru and pt_BR) with `coordbot parse-date` and judging each against what a member means:
named parts of a year (quarters, halves, seasons), holidays, edges of any period ("mid
next week", "late q3"), a day or week counted in a period ("the 3rd of next month", "the
last Friday of the month"), a day counted from another ("2 weeks from today", which
read two weeks back), what part of a period around now ("earlier this month"), ages
("older than 2 weeks"), phrases said otherwise ("a fortnight ago", "couple weeks ago",
"this past Friday", "the week before last"), typos ("thrusday", "febuary"), numeric
forms ("3.4.2026" day first, "2026-11", "2024-2025") and the same classes in the other
languages ("los últimos 7 días", "за последние 2 недели", "anteontem").

The clock: Wednesday 18 November 2026, 12:00 UTC; in Madrid 13:00 (CET). Expected
ranges are local days [first, after_last), or instants for windows around now.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.core.ask.multilingual import english_phrase, english_words
from app.nlp.date_extract import extract_date_phrase
from app.nlp.date_lexicon import spell_out
from app.nlp.date_periods import half_of, period_edge
from app.nlp.date_ranges import parse_date_range
from app.nlp.date_typos import mend

NOW = datetime(2026, 11, 18, 12, tzinfo=UTC)
MAD = "Europe/Madrid"
Bound = date | datetime | None


def _utc(bound: Bound, tz: str) -> datetime | None:
    if bound is None or isinstance(bound, datetime):
        return bound
    return datetime.combine(bound, time(), ZoneInfo(tz)).astimezone(UTC)


def _read(
    phrase: str, tz: str = "UTC", direction: str = "nearest", language: str = "en"
) -> tuple[datetime | None, datetime | None] | None:
    found = parse_date_range(english_words(phrase, language), NOW, tz, direction)  # type: ignore[arg-type]
    return (found.start, found.end) if found else None


def _ago(**delta: int) -> datetime:
    return NOW - timedelta(**delta)


D = date
# (phrase, first, after): local days; datetimes are instants
YEAR_PARTS = [
    ("q3", D(2026, 7, 1), D(2026, 10, 1)),
    ("Q1 2026", D(2026, 1, 1), D(2026, 4, 1)),
    ("the 2nd quarter of 2026", D(2026, 4, 1), D(2026, 7, 1)),
    ("q4", D(2026, 10, 1), D(2027, 1, 1)),  # the one under way
    ("last quarter", D(2026, 7, 1), D(2026, 10, 1)),
    ("this quarter", D(2026, 10, 1), D(2027, 1, 1)),
    ("next quarter", D(2027, 1, 1), D(2027, 4, 1)),
    ("end of q3", D(2026, 9, 30), D(2026, 10, 1)),  # the last day, as "end of the month"
    ("end of last quarter", D(2026, 9, 30), D(2026, 10, 1)),
    ("start of q4", D(2026, 10, 1), D(2026, 10, 8)),  # its first 7 days, as a month's
    ("early q4", D(2026, 10, 1), D(2026, 11, 1)),  # its first month
    ("late q3", D(2026, 9, 1), D(2026, 10, 1)),
    ("H1 2026", D(2026, 1, 1), D(2026, 7, 1)),
    ("h2", D(2026, 7, 1), D(2027, 1, 1)),
    ("first half of 2026", D(2026, 1, 1), D(2026, 7, 1)),
    ("second half of the year", D(2026, 7, 1), D(2027, 1, 1)),
    ("first half of next year", D(2027, 1, 1), D(2027, 7, 1)),
    ("the second half of the month", D(2026, 11, 16), D(2026, 12, 1)),
    ("summer", D(2026, 6, 1), D(2026, 9, 1)),
    ("last summer", D(2026, 6, 1), D(2026, 9, 1)),
    ("next summer", D(2027, 6, 1), D(2027, 9, 1)),
    ("last winter", D(2025, 12, 1), D(2026, 3, 1)),  # winter runs into the next year
    ("this winter", D(2026, 12, 1), D(2027, 3, 1)),
    ("spring 2026", D(2026, 3, 1), D(2026, 6, 1)),
    ("autumn", D(2026, 9, 1), D(2026, 12, 1)),
    ("since last summer", D(2026, 6, 1), None),
]
HOLIDAYS = [
    ("xmas", D(2026, 12, 25), D(2026, 12, 26)),
    ("before xmas", None, D(2026, 12, 25)),
    ("after christmas", D(2026, 12, 26), None),
    ("christmas eve", D(2026, 12, 24), D(2026, 12, 25)),
    ("new year’s eve", D(2026, 12, 31), D(2027, 1, 1)),  # a curly apostrophe
    ("since halloween", D(2026, 10, 31), None),
    ("valentine's day", D(2027, 2, 14), D(2027, 2, 15)),
    ("christmas 2025", D(2025, 12, 25), D(2025, 12, 26)),
]
EDGES = [  # early/mid/late and start/end of any period
    ("early next month", D(2026, 12, 1), D(2026, 12, 8)),
    ("late last month", D(2026, 10, 25), D(2026, 11, 1)),
    ("mid month", D(2026, 11, 8), D(2026, 11, 24)),
    ("mid next week", D(2026, 11, 25), D(2026, 11, 28)),
    ("early this week", D(2026, 11, 16), D(2026, 11, 18)),
    ("late this week", D(2026, 11, 21), D(2026, 11, 23)),
    ("early last year", D(2025, 1, 1), D(2025, 2, 1)),
    ("mid-2025", D(2025, 6, 1), D(2025, 8, 1)),
]
COUNTED_IN_A_PERIOD = [
    ("the 1st of the month", D(2026, 11, 1), D(2026, 11, 2)),  # was a day in October
    ("the 3rd of next month", D(2026, 12, 3), D(2026, 12, 4)),
    ("the 15th of last month", D(2026, 10, 15), D(2026, 10, 16)),
    ("the first of next month", D(2026, 12, 1), D(2026, 12, 2)),
    ("the last day of the month", D(2026, 11, 30), D(2026, 12, 1)),
    ("first day of next month", D(2026, 12, 1), D(2026, 12, 2)),
    ("first monday of december", D(2026, 12, 7), D(2026, 12, 8)),
    ("the last friday of the month", D(2026, 11, 27), D(2026, 11, 28)),
    ("second week of december", D(2026, 12, 8), D(2026, 12, 15)),
]
COUNTED_FROM_A_DAY = [
    ("2 weeks from today", D(2026, 12, 2), D(2026, 12, 3)),  # was read two weeks back
    ("a week from friday", D(2026, 11, 27), D(2026, 11, 28)),
    ("3 days before xmas", D(2026, 12, 22), D(2026, 12, 23)),
    ("a month after the 3rd", D(2026, 12, 3), D(2026, 12, 4)),
]
AROUND_NOW = [
    ("earlier this month", D(2026, 11, 1), NOW),
    ("earlier this week", D(2026, 11, 16), NOW),
    ("later this week", NOW, D(2026, 11, 23)),
    ("later this year", NOW, D(2027, 1, 1)),
    ("so far this year", D(2026, 1, 1), NOW),
    ("year to date", D(2026, 1, 1), NOW),
    ("from now on", NOW, None),
    ("older than 2 weeks", None, _ago(days=14)),
    ("more than a month ago", None, datetime(2026, 10, 18, 12, tzinfo=UTC)),
    ("less than a week ago", _ago(days=7), NOW),
]
SAID_OTHERWISE = [
    ("in the past fortnight", _ago(days=14), NOW),
    ("a fortnight ago", D(2026, 11, 4), D(2026, 11, 5)),
    ("in a fortnight", D(2026, 12, 2), D(2026, 12, 3)),
    ("the past couple of weeks", _ago(days=14), NOW),
    ("couple weeks ago", D(2026, 11, 4), D(2026, 11, 5)),
    ("the last few days", _ago(days=3), NOW),
    ("this past friday", D(2026, 11, 13), D(2026, 11, 14)),
    ("this past weekend", D(2026, 11, 14), D(2026, 11, 16)),
    ("this past week", _ago(days=7), NOW),
    ("the day before yesterday", D(2026, 11, 16), D(2026, 11, 17)),
    ("the day after tomorrow", D(2026, 11, 20), D(2026, 11, 21)),
    ("the week before last", D(2026, 11, 2), D(2026, 11, 9)),
    ("the month before last", D(2026, 9, 1), D(2026, 10, 1)),
    ("the friday before last", D(2026, 11, 6), D(2026, 11, 7)),
    ("weds", D(2026, 11, 18), D(2026, 11, 19)),
    ("lst wk", D(2026, 11, 9), D(2026, 11, 16)),
]
TYPOS = [
    ("thrusday", D(2026, 11, 19), D(2026, 11, 20)),
    ("wendesday", D(2026, 11, 18), D(2026, 11, 19)),
    ("febuary", D(2027, 2, 1), D(2027, 3, 1)),
    ("decmber 5", D(2026, 12, 5), D(2026, 12, 6)),
    ("lats week", D(2026, 11, 9), D(2026, 11, 16)),
    ("3 dyas ago", D(2026, 11, 15), D(2026, 11, 16)),
    ("2 weks ago", D(2026, 11, 4), D(2026, 11, 5)),
    ("teh last 2 weeks", _ago(days=14), NOW),
    ("tommorow", D(2026, 11, 19), D(2026, 11, 20)),
]
NUMERIC = [
    ("3.4.2026", D(2026, 4, 3), D(2026, 4, 4)),  # day first, as dots are written
    ("20.11.2026", D(2026, 11, 20), D(2026, 11, 21)),
    ("20.11", D(2026, 11, 20), D(2026, 11, 21)),
    ("2026-11", D(2026, 11, 1), D(2026, 12, 1)),
    ("11/2026", D(2026, 11, 1), D(2026, 12, 1)),
    ("2024-2025", D(2024, 1, 1), D(2026, 1, 1)),
    ("11/1-11/15", D(2026, 11, 1), D(2026, 11, 16)),
]
CLASSES = {
    "year parts": YEAR_PARTS,
    "holidays": HOLIDAYS,
    "edges": EDGES,
    "counted in a period": COUNTED_IN_A_PERIOD,
    "counted from a day": COUNTED_FROM_A_DAY,
    "around now": AROUND_NOW,
    "said otherwise": SAID_OTHERWISE,
    "typos": TYPOS,
    "numeric": NUMERIC,
}
ROWS = [(name, *row) for name, rows in CLASSES.items() for row in rows]


@pytest.mark.parametrize(("cls", "phrase", "first", "after"), ROWS, ids=lambda x: str(x))
def test_each_class_reads_as_a_member_means(
    cls: str, phrase: str, first: Bound, after: Bound
) -> None:
    assert _read(phrase) == (_utc(first, "UTC"), _utc(after, "UTC")), cls


@pytest.mark.parametrize(
    ("phrase", "first", "after"),
    [(p, f, a) for p, f, a in YEAR_PARTS + EDGES + COUNTED_IN_A_PERIOD if isinstance(f, date)],
)
def test_the_days_are_the_members_days(phrase: str, first: date, after: date) -> None:
    """In Madrid the same local days, from their local midnights."""
    assert _read(phrase, MAD) == (_utc(first, MAD), _utc(after, MAD))


def test_a_year_part_without_a_year_follows_the_direction() -> None:
    assert _read("summer", direction="future") == (
        _utc(D(2027, 6, 1), "UTC"),
        _utc(D(2027, 9, 1), "UTC"),
    )
    assert _read("q1", direction="past") == (_utc(D(2026, 1, 1), "UTC"), _utc(D(2026, 4, 1), "UTC"))
    assert _read("q1", direction="future") == (
        _utc(D(2027, 1, 1), "UTC"),
        _utc(D(2027, 4, 1), "UTC"),
    )


def test_what_is_not_a_period_stays_unread() -> None:
    for phrase in ("q5", "h3", "the 31st of this month", "5th friday of the month", "banana",
                   "the fifth of the day", "13.13.2026", "more than a week"):  # fmt: skip
        assert _read(phrase) is None, phrase


LANGUAGES = [
    ("es", "los últimos 7 días", _ago(days=7), NOW),
    ("es", "en las últimas 2 semanas", _ago(days=14), NOW),
    ("es", "del 1 al 15 de noviembre", D(2026, 11, 1), D(2026, 11, 16)),
    ("es", "principios del mes que viene", D(2026, 12, 1), D(2026, 12, 8)),
    ("es", "a finales de octubre", D(2026, 10, 25), D(2026, 11, 1)),
    ("es", "a mediados de diciembre", D(2026, 12, 8), D(2026, 12, 25)),
    ("es", "el trimestre pasado", D(2026, 7, 1), D(2026, 10, 1)),
    ("es", "anteayer", D(2026, 11, 16), D(2026, 11, 17)),
    ("ru", "за последние 2 недели", _ago(days=14), NOW),
    ("ru", "за последний месяц", datetime(2026, 10, 18, 12, tzinfo=UTC), NOW),
    ("ru", "в прошлом году", D(2025, 1, 1), D(2026, 1, 1)),
    ("ru", "в этом году", D(2026, 1, 1), D(2027, 1, 1)),
    ("ru", "с 1 по 15 ноября", D(2026, 11, 1), D(2026, 11, 16)),
    ("ru", "с понедельника по пятницу", D(2026, 11, 16), D(2026, 11, 21)),
    ("ru", "между мартом и маем", D(2027, 3, 1), D(2027, 6, 1)),
    ("ru", "в начале следующего месяца", D(2026, 12, 1), D(2026, 12, 8)),
    ("ru", "в прошлом квартале", D(2026, 7, 1), D(2026, 10, 1)),
    ("ru", "позавчера", D(2026, 11, 16), D(2026, 11, 17)),
    ("pt_BR", "nos últimos 7 dias", _ago(days=7), NOW),
    ("pt_BR", "nas últimas duas semanas", _ago(days=14), NOW),
    ("pt_BR", "de 1 a 15 de novembro", D(2026, 11, 1), D(2026, 11, 16)),
    ("pt_BR", "no início do mês que vem", D(2026, 12, 1), D(2026, 12, 8)),
    ("pt_BR", "no fim de novembro", D(2026, 11, 30), D(2026, 12, 1)),
    ("pt_BR", "anteontem", D(2026, 11, 16), D(2026, 11, 17)),
]


@pytest.mark.parametrize(("language", "phrase", "first", "after"), LANGUAGES)
def test_the_classes_in_the_other_languages(
    language: str, phrase: str, first: Bound, after: Bound
) -> None:
    assert _read(phrase, language=language) == (_utc(first, "UTC"), _utc(after, "UTC"))
    assert english_phrase(phrase, language)  # /ask finds it in the language too


# --- the building blocks ----------------------------------------------------------------


def test_edges_of_a_period_of_months_are_months() -> None:
    q4 = (D(2026, 10, 1), D(2027, 1, 1))
    assert period_edge(q4, "beginning") == (D(2026, 10, 1), D(2026, 11, 1))
    assert period_edge(q4, "middle") == (D(2026, 11, 1), D(2026, 12, 1))
    assert period_edge(q4, "end") == (D(2026, 12, 1), D(2027, 1, 1))
    year = (D(2026, 1, 1), D(2027, 1, 1))  # as before: January, June-July, December
    assert period_edge(year, "middle") == (D(2026, 6, 1), D(2026, 8, 1))
    assert half_of(year, second=True) == (D(2026, 7, 1), D(2027, 1, 1))
    assert half_of((D(2026, 11, 16), D(2026, 11, 23)), second=False) == (
        D(2026, 11, 16),
        D(2026, 11, 20),
    )


def test_typos_are_mended_only_towards_one_date_word() -> None:
    assert mend("lats week") == "last week"  # two letters swapped: not "late"
    assert mend("2 weks ago") == "2 weeks ago"  # the plural it was
    assert mend("proposals about gardens") == "proposals about gardens"
    assert mend("nxt wk", frozenset({"nxt"})) == "nxt wk"  # shorthand is not a typo


def test_phrases_said_otherwise_are_cut_out_as_written() -> None:
    spelt = spell_out("what closed a fortnight ago?")
    assert spelt.text == "what closed 2 weeks ago?"
    assert extract_date_phrase("what closed a fortnight ago?") == (
        "a fortnight ago",
        "what closed?",
    )
    assert spell_out("the fortnightly meeting").text == "the fortnightly meeting"


QUESTIONS = [  # /ask finds the phrase the parser reads, and leaves the rest
    ("anything ending before xmas", "before xmas"),
    ("proposals created between march and may", "between march and may"),
    ("what closes 2 weeks from today?", "2 weeks from today"),
    ("what closes the day after tomorrow", "the day after tomorrow"),
    ("proposals created in q3", "in q3"),
    ("what closed at the end of q3", "at the end of q3"),
    ("proposals created last summer", "last summer"),
    ("what closed the 3rd of next month", "the 3rd of next month"),
    ("proposals created older than 2 weeks", "older than 2 weeks"),
    ("proposals created so far this year", "so far this year"),
    ("proposals created earlier this month", "earlier this month"),
    ("proposals created 2025", "2025"),
    ("proposals from mon-fri", "from mon-fri"),
    ("proposals closing wed nov 25", "wed nov 25"),
    ("proposals created 20.11.2026", "20.11.2026"),
    ("proposals created 2024-2025", "2024-2025"),
    ("proposals created in the first half of 2026", "in the first half of 2026"),
    ("what closes mid next week", "mid next week"),
]


@pytest.mark.parametrize(("question", "phrase"), QUESTIONS)
def test_ask_finds_the_phrase_of_each_class(question: str, phrase: str) -> None:
    found, _ = extract_date_phrase(question)
    assert found == phrase
    assert parse_date_range(found, NOW, "UTC") is not None


def test_words_that_are_also_dates_stay_words_without_a_cue() -> None:
    for question in ("the christmas market", "ideas for spring cleaning", "what may I do",
                     "version 1.5 proposals", "proposals about the fall of rome",
                     "what theme ideas were there for the halloween party?",
                     "what have we decided about the office closing over christmas",
                     "who plays at the christmas party",
                     "proposals from the christmas party"):  # fmt: skip
        assert extract_date_phrase(question) == (None, question), question


def test_ask_mends_date_words_without_counting_them_as_the_communitys() -> None:
    from app.core.ask.spelling import Lexicon

    lexicon = Lexicon(["The garden benches need paint"])
    assert [lexicon.correct(w) for w in ("wenesday", "febuary", "septmber")] == [
        "wednesday",
        "february",
        "september",
    ]
    assert lexicon.correct("gardn") == "garden"
    # a date word says nothing about what a question is about: still unmentioned
    assert lexicon.unmentioned("benches wednesday") == 0.5
