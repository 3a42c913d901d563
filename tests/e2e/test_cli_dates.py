"""The everyday date forms through the command line (issue 25): `coordbot parse-date`
reads them in every language, in BOT_TIMEZONE, and `coordbot ask --language` reads
every form the parser reads out of a question, on the right date field.

The forms and their expected ranges are the tables of tests/unit/test_date_everyday.py;
here they go through the front door. /ask runs on its own community: Wednesday 30 Dec
2026, 21:00 in Moscow (BOT_TIMEZONE=Europe/Moscow), the year ending tomorrow.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from app.cli import main
from tests.e2e.conftest import json_lines
from tests.unit import test_date_directions, test_date_everyday, test_dates
from tests.unit.test_date_everyday import ALL, NOW, TABLES, Day, _local

ROWS = [row for rows in TABLES.values() for row in rows]


def _iso(day: Day, tz: str) -> str | None:
    found = _local(day, tz)
    return found.isoformat() if found else None


def test_parse_date_reads_every_form_in_bot_timezone(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each clock's phrases in one batch per language and direction; the zone is
    BOT_TIMEZONE, as the bot's."""
    groups: dict[tuple[str, str], list[tuple[str, Day, Day]]] = defaultdict(list)
    for tz, language, phrase, first, after in ROWS:
        groups[tz, language].append((phrase, first, after))
    batch = env / "phrases.txt"
    for (tz, language), rows in groups.items():
        monkeypatch.setenv("BOT_TIMEZONE", tz)
        batch.write_text("".join(f"{phrase}\n" for phrase, _, _ in rows))
        now = NOW[tz].isoformat()
        for direction in ALL:
            args = ["parse-date", "--batch", str(batch), "--now", now, "--json"]
            assert main([*args, "--language", language, "--direction", direction]) == 0
            assert json_lines(capsys) == [
                {"phrase": phrase, "start": _iso(first, tz), "end": _iso(after, tz)}
                for phrase, first, after in rows
            ]


def test_parse_date_finds_the_language_by_itself(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BOT_TIMEZONE", "Europe/Moscow")
    now = "2026-12-30T18:00:00Z"
    expected = {
        "hace 2 semanas": ("2026-12-15T21:00:00+00:00", "2026-12-16T21:00:00+00:00"),
        "2 недели назад": ("2026-12-15T21:00:00+00:00", "2026-12-16T21:00:00+00:00"),
        "há 3 dias": ("2026-12-26T21:00:00+00:00", "2026-12-27T21:00:00+00:00"),
        "dentro de 2 semanas": ("2027-01-12T21:00:00+00:00", "2027-01-13T21:00:00+00:00"),
        "через неделю": ("2027-01-05T21:00:00+00:00", "2027-01-06T21:00:00+00:00"),
        "daqui a 10 dias": ("2027-01-08T21:00:00+00:00", "2027-01-09T21:00:00+00:00"),
        "eow": ("2027-01-02T21:00:00+00:00", "2027-01-03T21:00:00+00:00"),
        "banana": (None, None),
        "days": (None, None),  # English words are not read as another language
    }
    batch = env / "phrases.txt"
    batch.write_text("\n".join(expected) + "\n")
    assert main(["parse-date", "--batch", str(batch), "--now", now, "--json"]) == 0
    assert {x["phrase"]: (x["start"], x["end"]) for x in json_lines(capsys)} == expected
    assert main(["parse-date", "hace 2 semanas", "--language", "ru", "--now", now]) == 0
    assert capsys.readouterr().out == "hace 2 semanas: no date found\n"
    assert main(["parse-date", "x", "--language", "fr"]) == 2
    assert "--language: 'fr' is not one of en, es, pt_BR, ru" in capsys.readouterr().err


# --- /ask ------------------------------------------------------------------------------

ASK_NOW = "2026-12-30T18:00:00Z"  # 21:00 in Moscow


def _proposal(pid: int, title: str, created: str, deadline: str, status: str) -> dict[str, Any]:
    return {"id": pid, "proposer": 1001, "title": title, "description": title,
            "type": "multiple_choice", "options": ["Yes", "No"], "created_at": created,
            "deadline": deadline, "status": status}  # fmt: skip


FIXTURE = {
    "users": [{"telegram_id": 1001, "username": "alice", "first_name": "Alice"}],
    "proposals": [
        _proposal(1, "Winter market", "2026-12-27T09:00:00Z", "2027-01-05T09:00:00Z", "open"),
        _proposal(2, "Ice rink", "2026-12-16T09:00:00Z", "2027-01-13T09:00:00Z", "open"),
        _proposal(3, "Bike shelter", "2026-12-01T09:00:00Z", "2027-01-20T09:00:00Z", "open"),
        _proposal(4, "New Year party", "2026-12-10T09:00:00Z", "2026-12-29T09:00:00Z", "closed"),
        _proposal(5, "Garden benches", "2026-11-20T09:00:00Z", "2026-12-23T09:00:00Z", "closed"),
        _proposal(6, "Carnival float", "2026-12-20T09:00:00Z", "2027-01-01T09:00:00Z", "open"),
        _proposal(7, "Snow clearing", "2026-12-29T09:00:00Z", "2026-12-31T09:00:00Z", "open"),
    ],
}


@pytest.fixture
def community(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Any:
    monkeypatch.setenv("BOT_TIMEZONE", "Europe/Moscow")
    fixture = env / "fixture.json"
    fixture.write_text(json.dumps(FIXTURE))
    assert main(["seed", str(fixture)]) == 0
    capsys.readouterr()

    def ask(language: str, questions: list[str]) -> list[dict[str, Any]]:
        batch = env / "questions.txt"
        batch.write_text("\n".join(questions) + "\n")
        args = ["ask", "--batch", str(batch), "--now", ASK_NOW, "--json"]
        assert main([*args, "--language", language]) == 0
        return json_lines(capsys)

    return ask


NOW_UTC = "2026-12-30T18:00:00+00:00"
DAY = {  # a local day in Moscow: [its midnight, the next one) in UTC
    "Dec 21": "2026-12-20T21:00:00+00:00", "Dec 27": "2026-12-26T21:00:00+00:00",
    "Dec 28": "2026-12-27T21:00:00+00:00", "Dec 29": "2026-12-28T21:00:00+00:00",
    "Dec 30": "2026-12-29T21:00:00+00:00", "Dec 31": "2026-12-30T21:00:00+00:00",
    "Jan 1": "2026-12-31T21:00:00+00:00", "Jan 2": "2027-01-01T21:00:00+00:00",
    "Jan 5": "2027-01-04T21:00:00+00:00", "Jan 6": "2027-01-05T21:00:00+00:00",
    "Jan 14": "2027-01-13T21:00:00+00:00",
}  # fmt: skip
CREATED_3_DAYS_AGO = ("creation", None, DAY["Dec 27"], DAY["Dec 28"], {1})
CLOSING_IN_2_WEEKS = ("deadline", None, NOW_UTC, DAY["Jan 14"], {1, 2, 6, 7})
CLOSED_YESTERDAY = ("deadline", "closed", DAY["Dec 29"], DAY["Dec 30"], {4})
CLOSED_LAST_WEEK = ("deadline", "closed", DAY["Dec 21"], DAY["Dec 28"], {5})
CLOSING_FRIDAY = ("deadline", None, DAY["Jan 1"], DAY["Jan 2"], {6})
CLOSING_DEC_31 = ("deadline", None, DAY["Dec 31"], DAY["Jan 1"], {7})
# question -> (date field, status, start, end, the proposals found)
QUESTIONS = {
    "en": {
        "proposals created 3 days ago": CREATED_3_DAYS_AGO,
        "proposals closing in 2 weeks": CLOSING_IN_2_WEEKS,
        "which proposals close tmrw?": CLOSING_DEC_31,
        "what closes this coming Friday?": CLOSING_FRIDAY,
        "proposals due the following Tuesday": ("deadline", None, DAY["Jan 5"], DAY["Jan 6"],
                                                {1}),
        "what closes on Fridays?": CLOSING_FRIDAY,
        "proposals closing at the end of the month": CLOSING_DEC_31,
        "proposals closing eoy": CLOSING_DEC_31,
        "proposals that closed yesterday": CLOSED_YESTERDAY,
        # "within" a span is the span from now, ahead or back as the question looks
        "what closes within 2 weeks?": ("deadline", None, NOW_UTC, "2027-01-13T18:00:00+00:00",
                                        {1, 2, 6, 7}),
        "proposals created within 3 days": ("creation", None, "2026-12-27T18:00:00+00:00",
                                            NOW_UTC, {7}),
    },
    "es": {
        "propuestas creadas hace 3 días": CREATED_3_DAYS_AGO,
        "propuestas que cierran dentro de 2 semanas": CLOSING_IN_2_WEEKS,
        "¿qué propuestas cerraron ayer?": CLOSED_YESTERDAY,
        "propuestas que terminaron la semana pasada": CLOSED_LAST_WEEK,
        "¿qué propuestas cierran los viernes?": CLOSING_FRIDAY,
        "¿qué propuestas cierran este viernes?": CLOSING_FRIDAY,
        "¿qué propuestas cierran a fin de año?": CLOSING_DEC_31,
    },
    "ru": {
        "предложения, созданные 3 дня назад": CREATED_3_DAYS_AGO,
        "предложения, которые закрываются через 2 недели": CLOSING_IN_2_WEEKS,
        "какие предложения закрылись вчера?": CLOSED_YESTERDAY,
        "какие предложения закрываются в эту пятницу?": CLOSING_FRIDAY,
        "какие предложения закрываются по пятницам?": CLOSING_FRIDAY,
        "какие предложения закрываются в конце года?": CLOSING_DEC_31,
    },
    "pt_BR": {
        "propostas criadas há 3 dias": CREATED_3_DAYS_AGO,
        "propostas que fecham daqui a 2 semanas": CLOSING_IN_2_WEEKS,
        "quais propostas fecharam ontem?": CLOSED_YESTERDAY,
        "quais propostas encerraram na semana passada?": CLOSED_LAST_WEEK,
        "quais propostas fecham nesta sexta?": CLOSING_FRIDAY,
        "quais propostas fecham às sextas?": CLOSING_FRIDAY,
        "quais propostas fecham no fim do ano?": CLOSING_DEC_31,
    },
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(QUESTIONS))
def test_ask_reads_the_forms_with_the_right_date_field(language: str, community: Any) -> None:
    questions = QUESTIONS[language]
    for out, (question, expected) in zip(
        community(language, list(questions)), questions.items(), strict=True
    ):
        field, status, start, end, found = expected
        assert out["question"] == question
        assert out["intent"] == "query_proposals", question
        filters = out["filters"]
        assert (filters["date_field"], filters["status"]) == (field, status), question
        assert (filters["start"], filters["end"]) == (start, end), question
        assert set(out["proposals"]) == found, question


# Every phrase the parser reads, asked about in a question: the same range. English takes
# every phrase of the date tests; each language the forms of test_date_everyday.
CREATED = test_date_everyday.CREATED
PHRASES = {
    "en": sorted(
        {case[1] for case in test_date_directions.CASES}
        | {row[0] for row in test_dates.RANGES}
        | {row[2] for row in ROWS if row[1] == "en"}
    ),
    **{
        language: sorted({row[2] for row in ROWS if row[1] == language})
        for language in ("es", "ru", "pt_BR")
    },
}


@pytest.mark.parametrize("language", sorted(PHRASES))
def test_ask_reads_every_form_the_parser_reads(
    language: str, community: Any, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    phrases = PHRASES[language]
    batch = env / "phrases.txt"
    batch.write_text("\n".join(phrases) + "\n")
    args = ["parse-date", "--batch", str(batch), "--now", ASK_NOW, "--json"]
    assert main([*args, "--language", language, "--direction", "past"]) == 0
    parsed = json_lines(capsys)
    answers = community(language, [CREATED[language].format(p) for p in phrases])
    assert len(parsed) == len(answers) == len(phrases)
    read = 0
    for phrase, date, answer in zip(phrases, parsed, answers, strict=True):
        filters = answer["filters"]
        assert answer["intent"] == "query_proposals", phrase
        assert (filters["start"], filters["end"]) == (date["start"], date["end"]), phrase
        if date["start"] or date["end"]:
            read += 1
            assert filters["date_field"] == "creation", phrase
    assert read >= len(phrases) - 2  # two English phrases contradict their weekday


# --- forms members type that the tests had not held (tests/unit/test_date_unseen_forms.py)

UNSEEN = {  # phrase -> (start, end), read in Moscow on Wednesday 30 Dec 2026, 21:00
    "a fortnight ago": ("2026-12-15T21:00:00+00:00", "2026-12-16T21:00:00+00:00"),
    "q4": ("2026-09-30T21:00:00+00:00", DAY["Jan 1"]),
    "end of q4": (DAY["Dec 31"], DAY["Jan 1"]),
    "before xmas": (None, "2026-12-24T21:00:00+00:00"),
    "2 weeks from today": ("2027-01-12T21:00:00+00:00", DAY["Jan 14"]),
    "earlier this month": ("2026-11-30T21:00:00+00:00", NOW_UTC),
    "thrusday": (DAY["Dec 31"], DAY["Jan 1"]),
    "20.12.2026": ("2026-12-19T21:00:00+00:00", "2026-12-20T21:00:00+00:00"),
    "the week before last": ("2026-12-13T21:00:00+00:00", DAY["Dec 21"]),
    "los últimos 7 días": ("2026-12-23T18:00:00+00:00", NOW_UTC),
    "за последние 2 недели": ("2026-12-16T18:00:00+00:00", NOW_UTC),
    "anteontem": (DAY["Dec 28"], DAY["Dec 29"]),
}


def test_parse_date_reads_the_forms_members_type(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One batch, each phrase in the language it speaks, in BOT_TIMEZONE."""
    monkeypatch.setenv("BOT_TIMEZONE", "Europe/Moscow")
    batch = env / "phrases.txt"
    batch.write_text("\n".join(UNSEEN) + "\n")
    assert main(["parse-date", "--batch", str(batch), "--now", ASK_NOW, "--json"]) == 0
    assert {x["phrase"]: (x["start"], x["end"]) for x in json_lines(capsys)} == UNSEEN


SINCE_A_WEEK = ("creation", None, "2026-12-23T18:00:00+00:00", NOW_UTC, {1, 7})
UNSEEN_QUESTIONS = {
    "en": {
        "proposals created in the past fortnight": ("creation", None,
                                                    "2026-12-16T18:00:00+00:00", NOW_UTC,
                                                    {1, 6, 7}),
        "what closed before xmas": ("deadline", "closed", None, "2026-12-24T21:00:00+00:00",
                                    {5}),
        # a day counted ahead is every deadline until then, as "in 2 weeks"
        "what closes 2 weeks from today": CLOSING_IN_2_WEEKS,
        "proposals created the week before last": ("creation", None,
                                                   "2026-12-13T21:00:00+00:00", DAY["Dec 21"],
                                                   {2, 6}),
        "proposals created older than 2 weeks": ("creation", None, None,
                                                 "2026-12-16T18:00:00+00:00", {2, 3, 4, 5}),
    },
    "es": {"propuestas creadas en los últimos 7 días": SINCE_A_WEEK},
    "ru": {"предложения, созданные за последние 2 недели": ("creation", None,
                                                           "2026-12-16T18:00:00+00:00",
                                                           NOW_UTC, {1, 6, 7})},
    "pt_BR": {"propostas criadas nos últimos 7 dias": SINCE_A_WEEK},
}  # fmt: skip


@pytest.mark.parametrize("language", sorted(UNSEEN_QUESTIONS))
def test_ask_filters_by_the_forms_members_type(language: str, community: Any) -> None:
    questions = UNSEEN_QUESTIONS[language]
    for out, (question, expected) in zip(
        community(language, list(questions)), questions.items(), strict=True
    ):
        field, status, start, end, found = expected
        filters = out["filters"]
        assert out["intent"] == "query_proposals", question
        assert (filters["date_field"], filters["status"]) == (field, status), question
        assert (filters["start"], filters["end"]) == (start, end), question
        assert set(out["proposals"]) == found, question


def test_a_holiday_that_names_an_event_is_no_date_filter(community: Any) -> None:
    """ "before xmas" bounds a range; "the christmas party" is what proposals are about."""
    asked = ["which proposals came from the christmas party",
             "any theme ideas for the halloween party?",
             "what have we decided about the office closing over christmas"]  # fmt: skip
    for question, out in zip(asked, community("en", asked), strict=True):
        filters = out["filters"]
        assert (filters["date_field"], filters["start"], filters["end"]) == (None,) * 3, question
