"""Deadlines and durations as members write them in Spanish, Russian and Portuguese.

Now is Tuesday 24 November 2026, 11:00 in Madrid (10:00 UTC); a day without a time
means 23:59 local that day; a duration counts from now. Expected instants are UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.domain.errors import DateParseError
from app.nlp.date_lexicon import LEXICONS, to_english
from app.nlp.dates import parse_deadline

NOW = datetime(2026, 11, 24, 10, 0, tzinfo=UTC)
TZ = "Europe/Madrid"

CASES = [
    ("es", "3 días", "2026-11-27 10:00"),
    ("es", "en 3 días", "2026-11-27 10:00"),
    ("es", "mañana a las 18:00", "2026-11-25 17:00"),
    ("es", "el viernes", "2026-11-27 22:59"),
    ("es", "viernes 17:00", "2026-11-27 16:00"),
    ("es", "próximo viernes a las 17h", "2026-11-27 16:00"),
    ("es", "dentro de 2 semanas", "2026-12-08 10:00"),
    ("es", "1 de diciembre", "2026-12-01 22:59"),
    ("es", "el 1 de diciembre a las 18:00", "2026-12-01 17:00"),
    ("es", "2 horas", "2026-11-24 12:00"),
    ("es", "fin de mes", "2026-11-30 22:59"),
    ("es", "el lunes que viene", "2026-11-30 22:59"),
    ("es", "2 semanas y 3 días", "2026-12-11 10:00"),
    ("es", "el martes 8 de diciembre", "2026-12-08 22:59"),
    ("es", "una semana", "2026-12-01 10:00"),
    ("es", "30 minutos", "2026-11-24 10:30"),
    ("es", "1 hora", "2026-11-24 11:00"),
    ("es", "5 días", "2026-11-29 10:00"),
    ("es", "un mes", "2026-12-24 10:00"),
    ("es", "2 meses", "2027-01-24 10:00"),
    ("es", "dos semanas", "2026-12-08 10:00"),
    ("es", "el sábado", "2026-11-28 22:59"),
    ("es", "domingo a las 20:00", "2026-11-29 19:00"),
    ("es", "jueves 9:30", "2026-11-26 08:30"),
    ("es", "el jueves a las 9h", "2026-11-26 08:00"),
    ("es", "15 de diciembre a las 12:00", "2026-12-15 11:00"),
    ("es", "el 2 de enero", "2027-01-02 22:59"),
    ("es", "mañana", "2026-11-25 22:59"),
    ("es", "mañana a las 9", "2026-11-25 08:00"),
    ("es", "hasta el viernes", "2026-11-27 22:59"),
    ("es", "viernes de la semana que viene", "2026-12-04 22:59"),
    ("es", "dentro de 10 días", "2026-12-04 10:00"),
    ("es", "en una hora", "2026-11-24 11:00"),
    ("ru", "3 дня", "2026-11-27 10:00"),
    ("ru", "через 3 дня", "2026-11-27 10:00"),
    ("ru", "завтра в 18:00", "2026-11-25 17:00"),
    ("ru", "в пятницу", "2026-11-27 22:59"),
    ("ru", "пятница 17:00", "2026-11-27 16:00"),
    ("ru", "в следующую пятницу в 17:00", "2026-11-27 16:00"),
    ("ru", "через 2 недели", "2026-12-08 10:00"),
    ("ru", "1 декабря", "2026-12-01 22:59"),
    ("ru", "1 декабря в 18:00", "2026-12-01 17:00"),
    ("ru", "2 часа", "2026-11-24 12:00"),
    ("ru", "через неделю", "2026-12-01 10:00"),
    ("ru", "через 5 минут", "2026-11-24 10:05"),
    ("ru", "до конца месяца", "2026-11-30 22:59"),
    ("ru", "в среду в 9:30", "2026-11-25 08:30"),
    ("ru", "30 минут", "2026-11-24 10:30"),
    ("ru", "1 час", "2026-11-24 11:00"),
    ("ru", "5 дней", "2026-11-29 10:00"),
    ("ru", "месяц", "2026-12-24 10:00"),
    ("ru", "2 месяца", "2027-01-24 10:00"),
    ("ru", "две недели", "2026-12-08 10:00"),
    ("ru", "три дня", "2026-11-27 10:00"),
    ("ru", "в субботу", "2026-11-28 22:59"),
    ("ru", "в воскресенье в 20:00", "2026-11-29 19:00"),
    ("ru", "в четверг в 9 ч", "2026-11-26 08:00"),
    ("ru", "15 декабря в 12:00", "2026-12-15 11:00"),
    ("ru", "2 января", "2027-01-02 22:59"),
    ("ru", "завтра", "2026-11-25 22:59"),
    ("ru", "до пятницы", "2026-11-27 22:59"),
    ("ru", "через 10 дней", "2026-12-04 10:00"),
    ("ru", "через час", "2026-11-24 11:00"),
    ("ru", "в следующий понедельник", "2026-11-30 22:59"),
    ("ru", "1 неделя", "2026-12-01 10:00"),
    ("ru", "7 дней", "2026-12-01 10:00"),
    ("pt_BR", "3 dias", "2026-11-27 10:00"),
    ("pt_BR", "em 3 dias", "2026-11-27 10:00"),
    ("pt_BR", "amanhã às 18h", "2026-11-25 17:00"),
    ("pt_BR", "sexta", "2026-11-27 22:59"),
    ("pt_BR", "sexta que vem às 17h", "2026-11-27 16:00"),
    ("pt_BR", "próxima sexta às 17:00", "2026-11-27 16:00"),
    ("pt_BR", "daqui a 2 semanas", "2026-12-08 10:00"),
    ("pt_BR", "1 de dezembro", "2026-12-01 22:59"),
    ("pt_BR", "1º de dezembro às 18h", "2026-12-01 17:00"),
    ("pt_BR", "2 horas", "2026-11-24 12:00"),
    ("pt_BR", "sexta-feira 17h", "2026-11-27 16:00"),
    ("pt_BR", "em uma semana", "2026-12-01 10:00"),
    ("pt_BR", "fim do mês", "2026-11-30 22:59"),
    ("pt_BR", "quarta às 9h30", "2026-11-25 08:30"),
    ("pt_BR", "segunda-feira que vem", "2026-11-30 22:59"),
    ("pt_BR", "30 minutos", "2026-11-24 10:30"),
    ("pt_BR", "1 hora", "2026-11-24 11:00"),
    ("pt_BR", "5 dias", "2026-11-29 10:00"),
    ("pt_BR", "um mês", "2026-12-24 10:00"),
    ("pt_BR", "2 meses", "2027-01-24 10:00"),
    ("pt_BR", "duas semanas", "2026-12-08 10:00"),
    ("pt_BR", "sábado", "2026-11-28 22:59"),
    ("pt_BR", "domingo às 20h", "2026-11-29 19:00"),
    ("pt_BR", "quinta-feira às 9h", "2026-11-26 08:00"),
    ("pt_BR", "15 de dezembro às 12h", "2026-12-15 11:00"),
    ("pt_BR", "2 de janeiro", "2027-01-02 22:59"),
    ("pt_BR", "amanhã", "2026-11-25 22:59"),
    ("pt_BR", "amanhã às 9", "2026-11-25 08:00"),
    ("pt_BR", "até sexta", "2026-11-27 22:59"),
    ("pt_BR", "daqui a 10 dias", "2026-12-04 10:00"),
    ("pt_BR", "em uma hora", "2026-11-24 11:00"),
    ("pt_BR", "terça que vem", "2026-12-01 22:59"),
    ("pt_BR", "7 dias", "2026-12-01 10:00"),
]


@pytest.mark.parametrize(("language", "phrase", "expected"), CASES)
def test_a_deadline_in_the_members_language(language: str, phrase: str, expected: str) -> None:
    found = parse_deadline(phrase, NOW, TZ, language)
    assert found.strftime("%Y-%m-%d %H:%M") == expected


def test_every_language_has_at_least_thirty_phrases() -> None:
    for language in LEXICONS:
        assert sum(1 for case in CASES if case[0] == language) >= 30


@pytest.mark.parametrize("language", sorted(LEXICONS))
def test_nonsense_is_refused_with_the_usual_message(language: str) -> None:
    with pytest.raises(DateParseError, match="as a deadline"):
        parse_deadline("banana", NOW, TZ, language)


def test_english_and_unknown_languages_are_left_as_they_are() -> None:
    assert to_english("next Friday 5pm", "en") == "next Friday 5pm"
    assert to_english("3 Tage", "de") == "3 Tage"
    assert parse_deadline("3 days", NOW, TZ, "de") == parse_deadline("3 days", NOW, TZ)
