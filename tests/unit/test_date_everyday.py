"""The everyday date forms, in every language, with exact expected ranges (issue 25).

Counting back and ahead ("hace 2 semanas", "через неделю"), chat shorthand ("eow",
"nxt wk"), "this"/"the following" before a date or a weekday, plural weekdays, the
end of a month or a year, and "now" as the end of a span. Each phrase is read as
`coordbot parse-date --language` and /ask read it: the language's lexicon first, then
the English range reader, in the member's zone.

Expected ranges are local days [first, after_last), turned into UTC here. Clocks (each
near a week, month or year boundary):
- Berlin, Thursday 22 Oct 2026, 14:00 CEST; Berlin leaves DST on Sunday 25 October.
- New York, Wednesday 10 Mar 2027, 10:00 EST; New York enters DST on Sunday 14 March.
- Tokyo, Friday 1 Jan 2027, 01:00 JST, still 31 December 2026 in UTC.
- Madrid, Sunday 28 Feb 2027, 23:30 CET: the last hour of the month.
- Moscow, Wednesday 30 Dec 2026, 21:00 MSK: the year ends tomorrow.
- São Paulo, Monday 31 May 2027, 22:00 BRT, already 1 June in UTC.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from app.core.ask.analysis import AskAnalysis
from app.core.ask.multilingual import (
    direction,
    english_phrase,
    english_words,
    read_question,
)
from app.domain.models import ProposalStatus
from app.nlp.date_ranges import DateRange, parse_date_range, read_date_range
from app.nlp.dates import parse_deadline

BER, NY, TYO = "Europe/Berlin", "America/New_York", "Asia/Tokyo"
MAD, MSK, SP = "Europe/Madrid", "Europe/Moscow", "America/Sao_Paulo"
NOW = {
    BER: datetime(2026, 10, 22, 12, tzinfo=UTC),
    NY: datetime(2027, 3, 10, 15, tzinfo=UTC),
    TYO: datetime(2026, 12, 31, 16, tzinfo=UTC),
    MAD: datetime(2027, 2, 28, 22, 30, tzinfo=UTC),
    MSK: datetime(2026, 12, 30, 18, tzinfo=UTC),
    SP: datetime(2027, 6, 1, 1, tzinfo=UTC),
}
P, F, N = "past", "future", "nearest"
ALL = (P, F, N)
EN, ES, RU, PT = "en", "es", "ru", "pt_BR"
Day = tuple[int, int, int] | None


def _local(day: Day, tz: str) -> datetime | None:
    if day is None:
        return None
    return datetime.combine(date(*day), time(), ZoneInfo(tz)).astimezone(UTC)


def _read(phrase: str, language: str, tz: str, direction: str) -> DateRange | None:
    english = english_words(phrase, language)
    return parse_date_range(english, NOW[tz], tz, direction)  # type: ignore[arg-type]


# (zone, language, phrase, first day, day after the last): a day counted from today
# is that day whatever the direction; each row is read in all three.
COUNTS = [
    # the forms of the issue
    (MAD, ES, "hace 2 semanas", (2027, 2, 14), (2027, 2, 15)),
    (MSK, RU, "2 недели назад", (2026, 12, 16), (2026, 12, 17)),
    (SP, PT, "há 3 dias", (2027, 5, 28), (2027, 5, 29)),
    (MAD, ES, "dentro de 2 semanas", (2027, 3, 14), (2027, 3, 15)),
    (MSK, RU, "через неделю", (2027, 1, 6), (2027, 1, 7)),  # across the new year
    (SP, PT, "daqui a 10 dias", (2027, 6, 10), (2027, 6, 11)),
    # and more, back and ahead, across month and year ends
    (TYO, ES, "hace 3 días", (2026, 12, 29), (2026, 12, 30)),
    (MAD, ES, "hace un mes", (2027, 1, 28), (2027, 1, 29)),
    (TYO, ES, "dentro de un mes", (2027, 2, 1), (2027, 2, 2)),
    (BER, ES, "2 semanas atrás", (2026, 10, 8), (2026, 10, 9)),
    (BER, ES, "de aquí a 3 días", (2026, 10, 25), (2026, 10, 26)),  # the 25-hour day
    (NY, ES, "en una semana", (2027, 3, 17), (2027, 3, 18)),
    (TYO, RU, "3 дня назад", (2026, 12, 29), (2026, 12, 30)),
    (MSK, RU, "неделю назад", (2026, 12, 23), (2026, 12, 24)),
    (NY, RU, "месяц назад", (2027, 2, 10), (2027, 2, 11)),
    (MSK, RU, "через 2 дня", (2027, 1, 1), (2027, 1, 2)),
    (MSK, RU, "через месяц", (2027, 1, 30), (2027, 1, 31)),
    (BER, RU, "через 3 недели", (2026, 11, 12), (2026, 11, 13)),
    (MAD, PT, "há uma semana", (2027, 2, 21), (2027, 2, 22)),
    (SP, PT, "há 2 meses", (2027, 3, 31), (2027, 4, 1)),
    (TYO, PT, "3 dias atrás", (2026, 12, 29), (2026, 12, 30)),
    (NY, PT, "em 2 semanas", (2027, 3, 24), (2027, 3, 25)),
    (SP, PT, "daqui a um mês", (2027, 6, 30), (2027, 7, 1)),
    (NY, EN, "2 weeks ago", (2027, 2, 24), (2027, 2, 25)),
    (MAD, EN, "in 3 days", (2027, 3, 3), (2027, 3, 4)),
    (MSK, EN, "a week from now", (2027, 1, 6), (2027, 1, 7)),
]

# Chat shorthand, read as its words; the end of a period is its last day.
CHAT = [
    (BER, EN, "eow", (2026, 10, 25), (2026, 10, 26)),
    (TYO, EN, "tmrw", (2027, 1, 2), (2027, 1, 3)),
    (MSK, EN, "nxt wk", (2027, 1, 4), (2027, 1, 11)),
    (MAD, EN, "2moro", (2027, 3, 1), (2027, 3, 2)),  # tomorrow is another month
    (MAD, EN, "eom", (2027, 2, 28), (2027, 3, 1)),
    (MSK, EN, "eoy", (2026, 12, 31), (2027, 1, 1)),
    (SP, EN, "eod", (2027, 5, 31), (2027, 6, 1)),  # UTC is already in June
    (NY, EN, "by eow", None, (2027, 3, 15)),
    (TYO, EN, "until eom", None, (2027, 2, 1)),
    (SP, EN, "tmr", (2027, 6, 1), (2027, 6, 2)),
    (NY, EN, "2morrow", (2027, 3, 11), (2027, 3, 12)),
    (TYO, EN, "yday", (2026, 12, 31), (2027, 1, 1)),
    (MSK, EN, "tdy", (2026, 12, 30), (2026, 12, 31)),
    (TYO, EN, "last wk", (2026, 12, 21), (2026, 12, 28)),
    (BER, EN, "this wknd", (2026, 10, 24), (2026, 10, 26)),
    (MSK, EN, "next mth", (2027, 1, 1), (2027, 2, 1)),
    (NY, EN, "2 wks ago", (2027, 2, 24), (2027, 2, 25)),
    (TYO, EN, "last yr", (2026, 1, 1), (2027, 1, 1)),
    (BER, EN, "eonw", (2026, 11, 1), (2026, 11, 2)),
    (BER, EN, "nxt fri", (2026, 10, 23), (2026, 10, 24)),
    (TYO, EN, "EOY", (2027, 12, 31), (2028, 1, 1)),
    (MAD, ES, "el finde", (2027, 2, 27), (2027, 3, 1)),  # this week's, today is Sunday
    (SP, PT, "neste fds", (2027, 6, 5), (2027, 6, 7)),
]

# "this" pins the period that holds today (this week's Friday, this year's June 3rd);
# "coming", "next", "the following" are the first after today; "after next" one more.
THIS_AND_FOLLOWING = [
    (BER, EN, "this June 3rd", (2026, 6, 3), (2026, 6, 4)),
    (BER, EN, "this coming Friday", (2026, 10, 23), (2026, 10, 24)),
    (BER, EN, "the following Tuesday", (2026, 10, 27), (2026, 10, 28)),
    (BER, EN, "the Friday after next", (2026, 10, 30), (2026, 10, 31)),
    (NY, EN, "this coming Friday", (2027, 3, 12), (2027, 3, 13)),
    (BER, EN, "this coming Sunday", (2026, 10, 25), (2026, 10, 26)),
    (TYO, EN, "the following Friday", (2027, 1, 8), (2027, 1, 9)),  # today is a Friday
    (TYO, EN, "the Friday after next", (2027, 1, 15), (2027, 1, 16)),
    (MSK, EN, "the Tuesday after next", (2027, 1, 12), (2027, 1, 13)),
    (MAD, EN, "the week after next", (2027, 3, 8), (2027, 3, 15)),
    (MSK, EN, "the month after next", (2027, 2, 1), (2027, 3, 1)),
    (TYO, EN, "the following week", (2027, 1, 4), (2027, 1, 11)),
    (NY, EN, "this Dec 25", (2027, 12, 25), (2027, 12, 26)),
    (SP, EN, "next June 3rd", (2027, 6, 3), (2027, 6, 4)),
    (SP, EN, "last June 3rd", (2026, 6, 3), (2026, 6, 4)),
    (NY, EN, "this the 8th", (2027, 3, 8), (2027, 3, 9)),
    (TYO, EN, "next Jan 1st", (2028, 1, 1), (2028, 1, 2)),
    (TYO, EN, "last Dec 31st", (2026, 12, 31), (2027, 1, 1)),
    (BER, EN, "the following May 1st", (2027, 5, 1), (2027, 5, 2)),
    (BER, ES, "el viernes siguiente", (2026, 10, 23), (2026, 10, 24)),
    (MAD, ES, "este 3 de junio", (2027, 6, 3), (2027, 6, 4)),
    (SP, PT, "esta sexta", (2027, 6, 4), (2027, 6, 5)),
    (SP, PT, "a semana seguinte", (2027, 6, 7), (2027, 6, 14)),
    (MSK, RU, "в эту пятницу", (2027, 1, 1), (2027, 1, 2)),
]

# A weekday in the plural asks about a schedule: the next one, today included.
PLURALS = [
    (BER, EN, "tuesdays", (2026, 10, 27), (2026, 10, 28)),
    (BER, EN, "on Fridays", (2026, 10, 23), (2026, 10, 24)),
    (BER, EN, "on Thursdays", (2026, 10, 22), (2026, 10, 23)),  # today
    (NY, EN, "Sundays", (2027, 3, 14), (2027, 3, 15)),  # the 23-hour day
    (TYO, EN, "on Mondays", (2027, 1, 4), (2027, 1, 5)),
    (MSK, EN, "saturdays", (2027, 1, 2), (2027, 1, 3)),
    (TYO, EN, "on Fridays", (2027, 1, 1), (2027, 1, 2)),
    (MAD, EN, "wednesdays", (2027, 3, 3), (2027, 3, 4)),
    (MAD, ES, "los martes", (2027, 3, 2), (2027, 3, 3)),
    (MAD, ES, "los domingos", (2027, 2, 28), (2027, 3, 1)),
    (SP, PT, "às terças", (2027, 6, 1), (2027, 6, 2)),
    (SP, PT, "aos sábados", (2027, 6, 5), (2027, 6, 6)),
    (SP, PT, "nas segundas-feiras", (2027, 5, 31), (2027, 6, 1)),
    (MSK, RU, "по пятницам", (2027, 1, 1), (2027, 1, 2)),
    (BER, RU, "по воскресеньям", (2026, 10, 25), (2026, 10, 26)),
    (MSK, RU, "по средам", (2026, 12, 30), (2026, 12, 31)),
]

# The end of a week, a month or a year is its last day, in every language, as the
# deadline given that way is (test_the_end_of_a_period_is_one_reading_everywhere).
END_OF = [
    (MAD, EN, "end of the month", (2027, 2, 28), (2027, 3, 1)),
    (MSK, EN, "end of the year", (2026, 12, 31), (2027, 1, 1)),
    (SP, EN, "the end of the month", (2027, 5, 31), (2027, 6, 1)),
    (TYO, EN, "end of next month", (2027, 2, 28), (2027, 3, 1)),
    (TYO, EN, "end of the year", (2027, 12, 31), (2028, 1, 1)),
    (BER, EN, "end of the week", (2026, 10, 25), (2026, 10, 26)),
    (NY, EN, "end of February 2028", (2028, 2, 29), (2028, 3, 1)),
    (NY, EN, "at the end of the month", (2027, 3, 31), (2027, 4, 1)),
    (MAD, ES, "fin de mes", (2027, 2, 28), (2027, 3, 1)),
    (MSK, ES, "fin de año", (2026, 12, 31), (2027, 1, 1)),
    (SP, PT, "fim do ano", (2027, 12, 31), (2028, 1, 1)),
    (SP, PT, "fim do mês", (2027, 5, 31), (2027, 6, 1)),
    (MSK, RU, "конец месяца", (2026, 12, 31), (2027, 1, 1)),
    (TYO, RU, "конец года", (2027, 12, 31), (2028, 1, 1)),
    (MAD, EN, "end of last month", (2027, 1, 31), (2027, 2, 1)),
    (TYO, EN, "the end of 2027", (2027, 12, 31), (2028, 1, 1)),
    (MAD, ES, "fin de la semana", (2027, 2, 28), (2027, 3, 1)),  # today
    (MSK, RU, "конец недели", (2027, 1, 3), (2027, 1, 4)),
]

TABLES = {
    "counts": COUNTS,
    "chat": CHAT,
    "this and following": THIS_AND_FOLLOWING,
    "plurals": PLURALS,
    "end of": END_OF,
}
CASES = [
    pytest.param(*row, direction, id=f"{kind}-{row[1]}-{row[2]}-{direction}")
    for kind, rows in TABLES.items()
    for row in rows
    for direction in ALL
]


@pytest.mark.parametrize(("tz", "language", "phrase", "first", "after", "direction"), CASES)
def test_an_everyday_form(
    tz: str, language: str, phrase: str, first: Day, after: Day, direction: str
) -> None:
    found = _read(phrase, language, tz, direction)
    assert found == DateRange(_local(first, tz), _local(after, tz))


def test_each_kind_has_the_forms_of_the_issue_and_a_dozen_more() -> None:
    issue = {
        "counts": {"hace 2 semanas", "2 недели назад", "há 3 dias", "dentro de 2 semanas",
                   "через неделю", "daqui a 10 dias"},
        "chat": {"eow", "tmrw", "nxt wk", "2moro"},
        "this and following": {"this June 3rd", "this coming Friday", "the following Tuesday",
                               "the Friday after next"},
        "plurals": {"tuesdays", "on Fridays"},
        "end of": {"end of the month", "end of the year"},
    }  # fmt: skip
    for kind, rows in TABLES.items():
        phrases = {row[2] for row in rows}
        assert issue[kind] <= phrases
        assert len(phrases - issue[kind]) >= 12
        assert len({row[0] for row in rows}) >= 3  # more than one clock


@pytest.mark.parametrize(("tz", "language", "phrase", "first", "after"), END_OF)
def test_the_end_of_a_period_is_one_reading_everywhere(
    tz: str, language: str, phrase: str, first: Day, after: Day
) -> None:
    """A deadline "by the end of the month" falls on the day /ask reads as its end."""
    assert first is not None and after is not None
    assert date(*after) - date(*first) == timedelta(days=1)
    deadline = parse_deadline(phrase, NOW[tz], tz, language)
    assert deadline.astimezone(ZoneInfo(tz)).date() == date(*first)
    assert deadline.astimezone(ZoneInfo(tz)).time() == time(23, 59)


def _at(tz: str, *moment: int) -> datetime:
    return datetime(*moment, tzinfo=ZoneInfo(tz)).astimezone(UTC)  # type: ignore[misc]


# "now" ends a span: from this very instant (not from midnight) to the end of the day.
NOW_SPANS = [
    (BER, EN, "between now and Friday", NOW[BER], _at(BER, 2026, 10, 24)),
    (BER, EN, "from now until the 8th", NOW[BER], _at(BER, 2026, 11, 9)),
    (TYO, EN, "from last week until now", _at(TYO, 2026, 12, 21), NOW[TYO]),
    (NY, EN, "until now", None, NOW[NY]),
    (MAD, ES, "desde ahora hasta el viernes", NOW[MAD], _at(MAD, 2027, 3, 6)),
    (MSK, RU, "с этого момента до пятницы", NOW[MSK], _at(MSK, 2027, 1, 2)),
    (SP, PT, "entre agora e sexta", NOW[SP], _at(SP, 2027, 6, 5)),
    (MSK, EN, "from now until in 2 weeks", NOW[MSK], _at(MSK, 2027, 1, 14)),
]


@pytest.mark.parametrize(("tz", "language", "phrase", "start", "end"), NOW_SPANS)
@pytest.mark.parametrize("direction", ALL)
def test_now_ends_a_span(
    tz: str, language: str, phrase: str, start: datetime | None, end: datetime, direction: str
) -> None:
    assert _read(phrase, language, tz, direction) == DateRange(start, end)


@pytest.mark.parametrize("phrase", ["now", "right now", "from now from now", "nxt", "eo"])
def test_now_alone_or_a_lone_shorthand_is_no_date(phrase: str) -> None:
    assert parse_date_range(phrase, NOW[BER], BER) is None


@pytest.mark.parametrize(
    ("phrase", "language", "expected"),
    [
        ("tmrw 5pm", EN, "2026-10-23 17:00"),
        ("by eow", EN, "2026-10-25 23:59"),
        ("eom", EN, "2026-10-31 23:59"),
        ("nxt fri", EN, "2026-10-23 23:59"),
        ("this weekend", EN, "2026-10-25 23:59"),
        ("the Friday after next", EN, "2026-10-30 23:59"),
        ("on Tuesdays", EN, "2026-10-27 23:59"),  # as "on Tuesday"
        ("el fin de semana", ES, "2026-10-25 23:59"),
        ("fim de semana", PT, "2026-10-25 23:59"),
    ],
)
def test_a_deadline_in_the_new_forms(phrase: str, language: str, expected: str) -> None:
    found = parse_deadline(phrase, NOW[BER], BER, language)
    assert found.astimezone(ZoneInfo(BER)).strftime("%Y-%m-%d %H:%M") == expected


# /ask finds every one of these forms inside a question in its language, with the date
# field its verb names, and reads the same range (the rows hold in every direction).
CREATED = {EN: "proposals created {}", ES: "propuestas creadas {}",
           RU: "предложения, созданные {}", PT: "propostas criadas {}"}  # fmt: skip
QUESTION_CASES = [
    pytest.param(*row, id=f"{kind}-{row[1]}-{row[2]}")
    for kind, rows in TABLES.items()
    for row in rows
]


@pytest.mark.parametrize(("tz", "language", "phrase", "first", "after"), QUESTION_CASES)
def test_ask_reads_the_form_in_a_question(
    tz: str, language: str, phrase: str, first: Day, after: Day
) -> None:
    question = CREATED[language].format(phrase)
    analysis = read_question(question, language)
    assert analysis.intent == "query_proposals"
    assert analysis.date_field == "creation"
    assert analysis.date_phrase is not None
    english = english_phrase(analysis.date_phrase, language)
    found = read_date_range(english, NOW[tz], tz, direction(question, analysis))
    assert found == DateRange(_local(first, tz), _local(after, tz))


# A deadline counted ahead is every deadline from now until the end of that day; a day
# counted back stays that day. "Within" a span is the span itself, from now ("due within
# 2 weeks": the communities' question format, FORMAT.md).
COUNTED_QUESTIONS = [
    (MSK, EN, "proposals closing in 2 weeks", "deadline", NOW[MSK], _at(MSK, 2027, 1, 14)),
    (MSK, EN, "what closes within 3 days?", "deadline", NOW[MSK], NOW[MSK] + timedelta(days=3)),
    (MSK, EN, "anything created within 3 days?", "creation", NOW[MSK] - timedelta(days=3),
     NOW[MSK]),
    (MSK, EN, "polls that end 10 days from now", "deadline", NOW[MSK], _at(MSK, 2027, 1, 10)),
    (TYO, EN, "what's due in a week?", "deadline", NOW[TYO], _at(TYO, 2027, 1, 9)),
    (MAD, ES, "propuestas que cierran dentro de 2 semanas", "deadline", NOW[MAD],
     _at(MAD, 2027, 3, 15)),
    (MAD, ES, "¿qué vence en una semana?", "deadline", NOW[MAD], _at(MAD, 2027, 3, 8)),
    (MSK, RU, "что закрывается через неделю?", "deadline", NOW[MSK], _at(MSK, 2027, 1, 7)),
    (MSK, RU, "предложения, которые закрываются через 2 недели", "deadline", NOW[MSK],
     _at(MSK, 2027, 1, 14)),
    (SP, PT, "propostas que fecham daqui a 10 dias", "deadline", NOW[SP], _at(SP, 2027, 6, 11)),
    (SP, PT, "o que fecha em 2 semanas?", "deadline", NOW[SP], _at(SP, 2027, 6, 15)),
    (MSK, EN, "proposals created 3 days ago", "creation", _at(MSK, 2026, 12, 27),
     _at(MSK, 2026, 12, 28)),
    (MAD, ES, "propuestas creadas hace 2 semanas", "creation", _at(MAD, 2027, 2, 14),
     _at(MAD, 2027, 2, 15)),
    (MSK, RU, "опросы, созданные 2 недели назад", "creation", _at(MSK, 2026, 12, 16),
     _at(MSK, 2026, 12, 17)),
    (SP, PT, "propostas criadas há 3 dias", "creation", _at(SP, 2027, 5, 28),
     _at(SP, 2027, 5, 29)),
]  # fmt: skip


def _range_of(question: str, language: str, tz: str) -> tuple[AskAnalysis, DateRange | None]:
    analysis = read_question(question, language)
    assert analysis.date_phrase is not None
    english = english_phrase(analysis.date_phrase, language)
    return analysis, read_date_range(english, NOW[tz], tz, direction(question, analysis))


@pytest.mark.parametrize(("tz", "language", "question", "field", "start", "end"), COUNTED_QUESTIONS)
def test_a_deadline_counted_ahead_is_a_window_from_now(
    tz: str, language: str, question: str, field: str, start: datetime, end: datetime
) -> None:
    analysis, found = _range_of(question, language, tz)
    assert analysis.intent == "query_proposals"
    assert analysis.date_field == field
    assert found == DateRange(start, end)


# The verbs of closing set the closed status as well as the deadline, as "closed" does.
CLOSED_QUESTIONS = [
    (MAD, EN, "proposals that closed yesterday", (2027, 2, 27), (2027, 2, 28)),
    (MAD, ES, "¿qué propuestas cerraron ayer?", (2027, 2, 27), (2027, 2, 28)),
    (MAD, ES, "propuestas que terminaron la semana pasada", (2027, 2, 15), (2027, 2, 22)),
    (MAD, ES, "¿qué votaciones se cerraron hace 2 semanas?", (2027, 2, 14), (2027, 2, 15)),
    (MAD, ES, "¿cuáles finalizaron el martes?", (2027, 2, 23), (2027, 2, 24)),
    (SP, PT, "propostas que encerraram ontem", (2027, 5, 30), (2027, 5, 31)),
    (SP, PT, "quais propostas fecharam na semana passada?", (2027, 5, 24), (2027, 5, 31)),
    (SP, PT, "o que fechou há 3 dias?", (2027, 5, 28), (2027, 5, 29)),
    (SP, PT, "quais votações terminaram no sábado?", (2027, 5, 29), (2027, 5, 30)),
    (MSK, RU, "какие предложения закрылись вчера?", (2026, 12, 29), (2026, 12, 30)),
]


@pytest.mark.parametrize(("tz", "language", "question", "first", "after"), CLOSED_QUESTIONS)
def test_a_verb_of_closing_sets_the_closed_status(
    tz: str, language: str, question: str, first: Day, after: Day
) -> None:
    analysis, found = _range_of(question, language, tz)
    assert analysis.intent == "query_proposals"
    assert analysis.status == ProposalStatus.CLOSED
    assert analysis.date_field == "deadline"
    assert found == DateRange(_local(first, tz), _local(after, tz))


@pytest.mark.parametrize(
    ("language", "question"),
    [
        (ES, "¿qué propuestas cerraron?"),
        (ES, "las encuestas que terminaron"),
        (PT, "quais votações encerraram?"),
        (PT, "propostas que fecharam"),
        (RU, "какие опросы закрылись?"),
    ],
)
def test_a_verb_of_closing_alone_is_the_closed_status(language: str, question: str) -> None:
    analysis = read_question(question, language)
    assert (analysis.intent, analysis.status) == ("query_proposals", ProposalStatus.CLOSED)


@pytest.mark.parametrize(
    ("language", "question"),
    [(ES, "propuestas que acabo de crear"), (PT, "a proposta que acabou de ser criada")],
)
def test_just_having_done_something_is_no_closing(language: str, question: str) -> None:
    assert read_question(question, language).status is None
