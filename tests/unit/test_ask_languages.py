"""/ask questions in Spanish, Russian and Portuguese, read offline: language, intent,
filters, date ranges, proposer and topic words (matched through the language's stems).

The clock is Wednesday 18 Nov 2026, 12:00 UTC; ranges are [start, end) days in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from app.core.ask.language import detect_language
from app.core.ask.multilingual import direction, english_phrase, read_question
from app.nlp.date_ranges import read_date_range
from app.nlp.lexical import lexical_terms

NOW = datetime(2026, 11, 18, 12, tzinfo=UTC)
P, D, F = "query_proposals", "query_general_docs", "query_facts"
OP, C, X = "open", "closed", "cancelled"
MC, FF = "multiple_choice", "free_form"
CR, DL = "creation", "deadline"

# question, intent, keywords, status, type, date field, (first day, end day), proposer
SPANISH = [
    ("¿Qué propuestas abiertas hay sobre el parque?", P, "parque", OP, None, None, None, None),
    ("propuestas cerradas la semana pasada", P, None, C, None, DL, ("2026-11-09", "2026-11-16"),
     None),
    ("¿Quién propuso la fiesta de pizza?", P, "fiesta pizza", None, None, None, None, None),
    ("propuestas creadas desde el 3 de marzo", P, None, None, None, CR, ("2026-03-03", None),
     None),
    ("¿Cómo funciona el aparcamiento?", D, "funciona aparcamiento", None, None, None, None, None),
    ("encuestas propuestas por @bob", P, None, None, MC, None, None, "bob"),
    ("¿Cuáles son mis propuestas?", P, None, None, None, None, None, "me"),
    ("¿Cuántas propuestas se crearon en mayo?", P, None, None, None, CR,
     ("2026-05-01", "2026-06-01"), None),
    ("¿Qué cierra esta semana?", P, None, None, None, DL, ("2026-11-16", "2026-11-23"), None),
    ("¿Está abierto el gimnasio los domingos?", D, "abierto gimnasio domingos", None, None, None,
     None, None),
    ("ideas de respuesta libre sobre el jardín", P, "jardín", None, FF, None, None, None),
    ("propuestas canceladas", P, None, X, None, None, None, None),
    ("¿Qué votaciones terminaron ayer?", P, None, C, None, DL, ("2026-11-17", "2026-11-18"),
     None),
    ("propuestas de Alice sobre eventos", P, "eventos", None, None, None, None, "Alice"),
    ("¿Cuál es la política de mascotas?", D, "mascotas", None, None, None, None, None),
    ("¿qué propuestas mencionan bicicletas?", P, "bicicletas", None, None, None, None, None),
    ("propuestas de opción múltiple creadas el mes pasado", P, None, None, MC, CR,
     ("2026-10-01", "2026-11-01"), None),
    ("¿Qué propuestas vencen la próxima semana?", P, None, None, None, DL,
     ("2026-11-23", "2026-11-30"), None),
    ("¿Qué propuestas cierran antes del 1 de diciembre?", P, None, None, None, DL,
     (None, "2026-12-02"), None),
    ("propuestas abiertas hasta fin de mes", P, None, OP, None, CR, (None, "2026-12-01"), None),
    ("¿Hay propuestas abiertas sobre la financiación de la biblioteca?", P,
     "financiación biblioteca", OP, None, None, None, None),
    ("¿Quién es el presidente del comité?", F, "presidente comité", None, None, None, None, None),
    ("¿qué se decidió sobre los paneles solares?", P, "paneles solares", None, None, None, None,
     None),
    ("¿Qué propuestas cierran el viernes?", P, None, None, None, DL, ("2026-11-20", "2026-11-21"),
     None),
]  # fmt: skip

RUSSIAN = [
    ("Какие открытые предложения о парковке?", P, "парковке", OP, None, None, None, None),
    ("предложения, закрытые на прошлой неделе", P, None, C, None, DL,
     ("2026-11-09", "2026-11-16"), None),
    ("Кто предложил вечеринку с пиццей?", P, "вечеринку пиццей", None, None, None, None, None),
    ("предложения, созданные в прошлом месяце", P, None, None, None, CR,
     ("2026-10-01", "2026-11-01"), None),
    ("Как работает парковка?", D, "работает парковка", None, None, None, None, None),
    ("опросы от @bob", P, None, None, MC, None, None, "bob"),
    ("мои предложения", P, None, None, None, None, None, "me"),
    ("Что закрывается на этой неделе?", P, None, None, None, DL, ("2026-11-16", "2026-11-23"),
     None),
    ("предложения с 3 марта", P, None, None, None, CR, ("2026-03-03", None), None),
    ("Сколько предложений создано в мае?", P, None, None, None, CR, ("2026-05-01", "2026-06-01"),
     None),
    ("отменённые предложения", P, None, X, None, None, None, None),
    ("Открыт ли спортзал по воскресеньям?", D, "Открыт спортзал воскресеньям", None, None, None,
     None, None),
    ("идеи со свободным ответом о саде", P, "саде", None, FF, None, None, None),
    ("Какие голосования закончились вчера?", P, None, C, None, DL, ("2026-11-17", "2026-11-18"),
     None),
    ("предложения от Alice о мероприятиях", P, "мероприятиях", None, None, None, None, "Alice"),
    ("Какая политика насчёт домашних животных?", D, "домашних животных", None, None, None, None,
     None),
    ("какие предложения упоминают велосипеды?", P, "велосипеды", None, None, None, None, None),
    ("опросы с вариантами ответа, созданные в этом месяце", P, None, None, MC, CR,
     ("2026-11-01", "2026-12-01"), None),
    ("Какие предложения истекают на следующей неделе?", P, None, None, None, DL,
     ("2026-11-23", "2026-11-30"), None),
    ("Какие предложения закрываются до 1 декабря?", P, None, None, None, DL, (None, "2026-12-02"),
     None),
    ("открытые предложения до конца месяца", P, None, OP, None, CR, (None, "2026-12-01"), None),
    ("Есть ли открытые предложения о финансировании библиотеки?", P,
     "финансировании библиотеки", OP, None, None, None, None),
    ("Что предложила Мария?", P, None, None, None, None, None, "Мария"),
    ("Какие предложения закрываются в пятницу?", P, None, None, None, DL,
     ("2026-11-20", "2026-11-21"), None),
]  # fmt: skip

PORTUGUESE = [
    ("Quais propostas abertas sobre o parque?", P, "parque", OP, None, None, None, None),
    ("propostas fechadas na semana passada", P, None, C, None, DL, ("2026-11-09", "2026-11-16"),
     None),
    ("Quem propôs a festa da pizza?", P, "festa pizza", None, None, None, None, None),
    ("propostas criadas este mês", P, None, None, None, CR, ("2026-11-01", "2026-12-01"), None),
    ("Como funciona o estacionamento?", D, "funciona estacionamento", None, None, None, None,
     None),
    ("enquetes propostas por @bob", P, None, None, MC, None, None, "bob"),
    ("minhas propostas", P, None, None, None, None, None, "me"),
    ("O que fecha esta semana?", P, None, None, None, DL, ("2026-11-16", "2026-11-23"), None),
    ("propostas desde 3 de março", P, None, None, None, CR, ("2026-03-03", None), None),
    ("Quantas propostas foram criadas em maio?", P, None, None, None, CR,
     ("2026-05-01", "2026-06-01"), None),
    ("propostas canceladas", P, None, X, None, None, None, None),
    ("A academia está aberta aos domingos?", D, "academia aberta domingos", None, None, None,
     None, None),
    ("ideias de resposta livre sobre o jardim", P, "jardim", None, FF, None, None, None),
    ("Quais votações terminaram ontem?", P, None, C, None, DL, ("2026-11-17", "2026-11-18"),
     None),
    ("propostas da Alice sobre eventos", P, "eventos", None, None, None, None, "Alice"),
    ("Qual é a política de animais de estimação?", D, "animais estimação", None, None, None, None,
     None),
    ("quais propostas mencionam bicicletas?", P, "bicicletas", None, None, None, None, None),
    ("propostas de múltipla escolha criadas no mês passado", P, None, None, MC, CR,
     ("2026-10-01", "2026-11-01"), None),
    ("Quais propostas vencem na próxima semana?", P, None, None, None, DL,
     ("2026-11-23", "2026-11-30"), None),
    ("Quais propostas fecham antes de 1 de dezembro?", P, None, None, None, DL,
     (None, "2026-12-02"), None),
    ("propostas abertas até o fim do mês", P, None, OP, None, CR, (None, "2026-12-01"), None),
    ("Há propostas abertas sobre o financiamento da biblioteca?", P, "financiamento biblioteca",
     OP, None, None, None, None),
    ("Quem é o presidente do comitê?", F, "presidente comitê", None, None, None, None, None),
    ("Quais propostas fecham na sexta?", P, None, None, None, DL, ("2026-11-20", "2026-11-21"),
     None),
]  # fmt: skip

CASES = [
    *[pytest.param("es", *c, id=f"es-{i}") for i, c in enumerate(SPANISH)],
    *[pytest.param("ru", *c, id=f"ru-{i}") for i, c in enumerate(RUSSIAN)],
    *[pytest.param("pt_BR", *c, id=f"pt-{i}") for i, c in enumerate(PORTUGUESE)],
]


def _day(value: datetime | None) -> str | None:
    return value.date().isoformat() if value else None


@pytest.mark.parametrize(
    ("language", "question", "intent", "keywords", "status", "kind", "field", "days", "proposer"),
    CASES,
)
def test_questions_are_read_in_their_language(
    language: str, question: str, intent: str, keywords: str | None, status: str | None,
    kind: str | None, field: str | None, days: tuple[str | None, str | None] | None,
    proposer: str | None,
) -> None:  # fmt: skip
    assert detect_language(question) == language
    assert detect_language(question, "en") == language  # the text outweighs the hint
    found = read_question(question, language)
    assert found.language == language
    assert found.intent == intent
    assert found.content_keywords == keywords
    assert (found.status.value if found.status else None) == status
    assert (found.proposal_type.value if found.proposal_type else None) == kind
    assert found.date_field == field
    assert found.proposer == proposer
    if days is None:
        assert found.date_phrase is None
        return
    assert found.date_phrase is not None and found.date_phrase in question
    read = read_date_range(
        english_phrase(found.date_phrase, language), NOW, "UTC", direction(question, found)
    )
    assert read is not None
    assert (_day(read.start), _day(read.end)) == days


def test_at_least_twenty_questions_per_language() -> None:
    assert min(len(SPANISH), len(RUSSIAN), len(PORTUGUESE)) >= 20


@pytest.mark.parametrize(
    ("language", "asked", "written"),
    [
        ("es", "parques", "Un parque nuevo"),
        ("es", "bicicletas", "Aparcamiento para la bicicleta"),
        ("es", "financiación", "Financiar la biblioteca"),
        ("ru", "парковке", "Парковка у дома"),
        ("ru", "велосипеды", "Стоянка для велосипедов"),
        ("ru", "библиотеки", "Новая библиотека"),
        ("pt_BR", "bicicletas", "Bicicletário na entrada: vaga para cada bicicleta"),
        ("pt_BR", "reformas", "Reforma da quadra"),
        ("pt_BR", "financiamento", "Financiamento da reforma"),
    ],
)
def test_topic_words_match_through_the_languages_stems(
    language: str, asked: str, written: str
) -> None:
    # the lexical index stems both sides alike (proposal_search's word ranking)
    assert set(lexical_terms(asked, language)) & set(lexical_terms(written, language))


@pytest.mark.parametrize(
    ("question", "hint", "expected"),
    [
        ("¿qué hay abierto?", "en", "es"),
        ("what is open?", "es", "en"),
        ("Qual é a política?", None, "pt_BR"),
        ("¿Cuál es la política?", None, "es"),
        ("парковка", None, "ru"),
        ("parque", "pt-BR", "pt_BR"),  # no telling word: the member's language
        ("parque", "es-419", "es"),
        ("Boston", None, "en"),
        ("what's open?", "es", "en"),  # a short English question from a Spanish member
        ("which polls are open?", "ru", "en"),
        ("proposals by @bob", "es", "en"),
        ("propuestas de @bob", "en", "es"),
        ("open proposals", "pt_BR", "en"),
        ("Boston", "fr", "en"),  # a language without a table reads English
    ],
)
def test_the_language_comes_from_the_text_and_the_hint(
    question: str, hint: str | None, expected: str
) -> None:
    assert detect_language(question, hint) == expected


def test_english_questions_keep_the_english_reader() -> None:
    found = read_question("which open proposals about funding were created this month?")
    assert (found.language, found.intent, found.content_keywords) == ("en", P, "funding")
