"""/ask through the Application in Spanish, Russian and Portuguese (offline backend):
the question is read in its language and the whole answer is written in it, with the
proposal ids cited and their buttons."""

from __future__ import annotations

from app.services.llm.grounded import GROUNDED_PROMPT
from app.services.llm.openai_backend import OpenAIBackend
from tests.conftest import BotHarness
from tests.support.fake_openai import FakeOpenAI, grounded, is_grounded, offered_keys
from tests.support.i18n import assert_translated
from tests.telegram.helpers import create_via_bot

ASKER = 1002


def _vp(bot: BotHarness) -> list[str]:
    return [b["callback_data"] for b in bot.buttons() if b["callback_data"].startswith("vp:")]


async def test_spanish_question_spanish_answer(bot: BotHarness) -> None:
    park = await create_via_bot(
        bot, "Nuevo parque infantil; Construir un parque en el patio; Sí, No"
    )
    pizza = await create_via_bot(bot, "Fiesta de pizza; Pizza el viernes en la planta 4; Sí, No")
    bot.speaks("es", ASKER)
    [answer] = await bot.send("/ask ¿Qué propuestas abiertas hay sobre parques?", user_id=ASKER)
    assert answer.startswith("Encontré 1 propuesta abierta sobre «parques».")
    assert f"#{park} Nuevo parque infantil (abierta hasta " in answer
    assert f"#{pizza} " not in answer
    assert "de opción múltiple; propuesta por @alice el " in answer
    assert "Cómo lo encontré: Filtré por propuestas abiertas (2 propuestas), luego busqué" in answer
    assert (
        "solo por palabras (mi búsqueda por significado solo entiende inglés): 1 coincidió"
        in answer
    )
    assert "Respondí con las propuestas porque" in answer
    assert f"(p. ej. /my_vote {park})" in answer
    assert "How I found this" not in answer and "proposed by" not in answer
    assert _vp(bot) == [f"vp:{park}"]

    [answer] = await bot.send("/ask ¿Quién propuso la fiesta de pizza?", user_id=ASKER)
    # who proposed it is said in its line of the listing ("propuesta por @alice")
    assert f"#{pizza} Fiesta de pizza" in answer and "propuesta por @alice" in answer


async def test_russian_question_russian_answer(bot: BotHarness) -> None:
    bikes = await create_via_bot(bot, "Парковка для велосипедов; Стойки у входа; Да, Нет")
    await create_via_bot(bot, "Новая библиотека; Полки в холле; Да, Нет")
    bot.speaks("ru", ASKER)
    # the words are matched as the community's language (English here) normalises them
    [answer] = await bot.send("/ask есть предложения для велосипедов?", user_id=ASKER)
    assert answer.startswith("Я нашёл 1 предложение о «велосипедов».")
    assert f"#{bikes} Парковка для велосипедов (открыто до " in answer
    assert "Как я это нашёл:" in answer and "How I found this" not in answer
    assert _vp(bot) == [f"vp:{bikes}"]

    [answer] = await bot.send("/ask предложения о путешествиях во времени", user_id=ASKER)
    assert answer.startswith("Я не нашёл предложений по вашему запросу:")
    assert "Откройте /proposals, чтобы посмотреть всё" in answer


async def test_portuguese_question_with_a_date_and_a_status(bot: BotHarness) -> None:
    first = await create_via_bot(bot, "Horta comunitária; Plantar no telhado; Sim, Não")
    second = await create_via_bot(bot, "Festa junina; Festa no pátio; Sim, Não")
    bot.speaks("pt-BR", ASKER)
    [answer] = await bot.send(
        "/ask quais propostas abertas foram criadas esta semana?", user_id=ASKER
    )
    assert answer.startswith("Encontrei 2 propostas abertas criadas entre ")
    assert f"#{first} Horta comunitária (aberta até " in answer
    assert f"#{second} Festa junina" in answer
    assert "Como encontrei: Filtrei por propostas abertas criadas entre " in answer
    assert sorted(_vp(bot)) == sorted([f"vp:{first}", f"vp:{second}"])


async def test_the_question_language_wins_over_the_members(bot: BotHarness) -> None:
    park = await create_via_bot(
        bot, "Nuevo parque infantil; Construir un parque en el patio; Sí, No"
    )
    bot.speaks("en", ASKER)
    [answer] = await bot.send("/ask propuestas abiertas sobre el parque", user_id=ASKER)
    assert answer.startswith("Encontré 1 propuesta abierta sobre «parque».")
    bot.speaks("es", ASKER)
    [answer] = await bot.send("/ask which proposals are open?", user_id=ASKER)
    assert answer.startswith("I found 1 open proposal.")
    assert f"#{park} Nuevo parque infantil (open until " in answer


async def test_with_a_model_the_prompt_names_the_language_and_filters_stay_checked(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    """The rules read a Spanish question (its date phrase read with the Spanish date
    words) and its filters, and its listing is led in Spanish by what the search found;
    a question the model reads is answered in Spanish, as its prompt says."""
    fake_openai.content = lambda body: (
        grounded("Se riega los lunes.", offered_keys(body)[:1]) if is_grounded(body) else "?"
    )
    bot.services.llm.primary = OpenAIBackend(
        "test-key", base_url=fake_openai.base_url, timeout=2.0, max_retries=0
    )
    garden = await create_via_bot(bot, "Huerto comunitario; Plantar en la azotea; Sí, No")
    bot.speaks("es", ASKER)
    [answer] = await bot.send("/ask ¿qué huertos se propusieron esta semana?", user_id=ASKER)
    assert garden == 1
    # one proposal, "creada": the range agrees with the count, as the noun does
    assert answer.startswith("Encontré 1 propuesta sobre «huertos» creada entre el 16 nov 2026")
    assert (
        "Cómo lo encontré: Filtré por propuestas creadas entre el 16 nov 2026 y el 22 nov" in answer
    )
    [answer] = await bot.send("/ask propuestas abiertas sobre huertos", user_id=ASKER)
    assert "Filtré por propuestas abiertas (1 propuesta)" in answer
    assert fake_openai.chat_requests == []  # the rules read both; our search lists them

    await bot.services.documents.knowledge_import(
        "Huerto", "El huerto comunitario se riega los lunes por la tarde."
    )
    [answer] = await bot.send("/ask ¿cuándo se riega el huerto comunitario?", user_id=ASKER)
    assert answer.startswith("Se riega los lunes.")
    [request] = fake_openai.chat_requests
    assert "Write the answer in the language the user" in request["messages"][0]["content"]
    assert "Answer in: Spanish" in request["messages"][-1]["content"]
    assert request["messages"][0]["content"] == GROUNDED_PROMPT


async def test_every_sentence_of_an_answer_is_translated(bot: BotHarness) -> None:
    """In the pseudo-locale every sentence arrives wrapped in ⟦ ⟧: proposal answers (with
    filters, a topic, a date and the hints), one proposal, documents and nothing found."""
    pizza = await create_via_bot(bot, "Pizza party; Friday pizza on floor 4; Yes, No")
    await create_via_bot(bot, "Garden ideas; What should we plant?; FREEFORM")
    await bot.services.documents.knowledge_import(
        "Parking rules", "Each flat has one parking space. Guests park on the street."
    )
    await bot.services.graph.store_fact("Edison", "invented", "phonograph")
    bot.speaks("qps", ASKER)
    answers = []
    for question in (
        "what did Edison invent?",
        "which polls are open?",
        "open proposals about pizza created this week",
        "who proposed the pizza party?",
        "proposals by @nobodyhere",
        f"#{pizza} what are the options?",
        "how does parking work?",
        "any proposals about time travel?",
    ):
        [answer] = await bot.send(f"/ask {question}", user_id=ASKER)
        answers.append(answer)
    assert any(f"#{pizza}" in a for a in answers)
    assert "Edison invented phonograph" in answers[0]
    member_content = ["Pizza party", "Friday pizza on floor 4", "Garden ideas", "Yes", "No",
                      "@alice", "Parking rules", "Each flat has one parking space",
                      "Guests park on the street", "pizza", "parking", "nobodyhere",
                      "time travel", "any proposals about time travel", "Edison invented phonograph",
                      "Edison", "invent"]  # fmt: skip
    assert_translated(answers, member_content)
