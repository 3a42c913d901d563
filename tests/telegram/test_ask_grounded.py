"""/ask through the Application with a model: the model answers
from the keyed evidence, and the buttons under the answer are the cited documents'."""

from __future__ import annotations

import json
import re
from typing import Any

from app.core.ask.answers import NO_ANSWER
from app.core.ask.grounded import HOW_GROUNDED
from app.services.llm.openai_backend import OpenAIBackend
from tests.conftest import ADMIN_ID, BotHarness
from tests.support.fake_openai import FakeOpenAI, grounded, is_grounded, offered_keys
from tests.telegram.helpers import create_via_bot

RULES = (
    "Members who move out give one month's notice to the secretary. "
    "Applicants must be aged 18 or over and sign the house agreement."
)


def _use_model(bot: BotHarness, fake: FakeOpenAI, answer: Any) -> None:
    def reply(body: dict[str, Any]) -> str:
        if is_grounded(body):
            return str(answer(body))
        return "Here it is."

    fake.content = reply
    bot.services.context.pipeline = "general"
    bot.services.llm.primary = OpenAIBackend(
        "test-key", base_url=fake.base_url, timeout=5.0, max_retries=0
    )


def _cite_first(bot: BotHarness, fake: FakeOpenAI, answer: str) -> None:
    """A model that answers ``answer`` citing the first record offered."""
    _use_model(bot, fake, lambda body: grounded(answer, offered_keys(body)[:1]))


async def test_the_grounded_answer_is_shown_with_the_cited_document_to_open(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    doc = await bot.services.documents.knowledge_import("Membership rules", RULES)
    poll = await create_via_bot(bot, "Office plants; Buy plants; Ferns, Cacti")
    await bot.press(f"v:{poll}:1", user_id=2002)
    _cite_first(bot, fake_openai, "Tell the secretary a month ahead.")
    [answer] = await bot.send("/ask who do I tell if I move away?")
    assert answer.startswith("Tell the secretary a month ahead.")
    assert "According to “Membership rules”:" in answer
    assert f"Sources: “Membership rules” (document {doc.document_id})." in answer
    assert HOW_GROUNDED in answer
    assert bot.buttons()[0]["callback_data"] == f"vd:{doc.document_id}"
    sent = json.dumps([b for b in fake_openai.chat_requests if is_grounded(b)])
    assert "2002" not in sent  # a voter never reaches the model


async def test_an_unknown_citation_leaves_the_offline_answer(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    doc = await bot.services.documents.knowledge_import("Membership rules", RULES)
    _use_model(bot, fake_openai, lambda body: grounded("Anyone aged 12 can join.", ["D42"]))
    [answer] = await bot.send("/ask how old must applicants be?")
    assert "aged 12" not in answer and HOW_GROUNDED not in answer
    assert answer.startswith("According to “Membership rules”:")
    assert "aged 18 or over" in answer
    assert bot.buttons()[0]["callback_data"] == f"vd:{doc.document_id}"
    assert bot.services.llm.fallbacks["grounded"] == 1


async def test_an_answer_from_facts_names_the_documents_near_the_question(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    doc = await bot.services.documents.knowledge_import(
        "Rooftop garden", "The rooftop garden is open to members from April to October."
    )
    await bot.send("/add_fact Maria | manages | Rooftop Garden", user_id=ADMIN_ID)

    def from_facts(body: dict[str, Any]) -> str:
        facts = [k for k in offered_keys(body) if k.startswith("F")]
        return grounded("Maria manages the rooftop garden.", facts[:1], "facts")

    _use_model(bot, fake_openai, from_facts)
    [answer] = await bot.send("/ask who manages the rooftop garden?")
    assert answer.startswith("Maria manages the rooftop garden.")
    assert "Facts: Maria manages Rooftop Garden." in answer
    assert f"Related documents: “Rooftop garden” (document {doc.document_id})." in answer
    assert f"vd:{doc.document_id}" in [b["callback_data"] for b in bot.buttons()]


async def test_a_number_the_cited_record_does_not_give_leaves_the_offline_answer(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    await bot.services.documents.knowledge_import("Membership rules", RULES)
    _cite_first(bot, fake_openai, "Applicants must be 16 or over.")
    [answer] = await bot.send("/ask how old must applicants be?")
    # the model's sentence, not its digits: the sources' random document ids hold digits
    assert "16 or over" not in answer and HOW_GROUNDED not in answer
    assert "aged 18 or over" in answer
    assert bot.services.llm.fallbacks["grounded"] == 1


CHORES = [
    "the hallway is kept clear of bicycles and prams",
    "bins go out to the kerb on Sunday evenings",
    "the laundry room closes at ten in the evening",
    "guests staying over three nights are registered",
    "the roof terrace is shared by every household",
    "recycling is sorted into paper, glass and cans",
    "the shared kitchen is cleaned after each use",
    "keys lost are replaced at the member's cost",
    "the garden shed holds the shared lawnmower",
    "parcels for absent members wait at the porter",
    "the boiler room is entered by the caretaker only",
    "pets are kept on a lead in the courtyard",
]


async def test_a_cited_passage_is_read_and_quoted_from_a_whole_sentence(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    # some 700 characters: its second passage starts inside a sentence of the first
    text = " ".join(f"Rule {i}: {chore}." for i, chore in enumerate(CHORES, 1))
    await bot.services.documents.knowledge_import("House chores", text)
    passages: list[str] = []

    def cite_a_passage(body: dict[str, Any]) -> str:
        user = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
        items = dict(re.findall(r"^\[(D\d+)\] (.*)$", str(user), re.M))
        passages.extend(k for k, v in items.items() if v.count("Rule ") > 1)
        return grounded("Ask the porter.", passages[-1:])

    _use_model(bot, fake_openai, cite_a_passage)
    [answer] = await bot.send("/ask where do parcels wait when nobody is home, and the boiler?")
    assert passages, "no passage was offered beside the sentences"
    sent = json.dumps([b for b in fake_openai.chat_requests if is_grounded(b)])
    for piece in re.findall(r"House chores\\u201d: ([^\\]*)", sent):
        assert piece.startswith(("Rule ", "…")), piece  # no item starts mid-sentence
    assert answer.startswith("Ask the porter.")
    quoted = answer.split("According to “House chores”: ", 1)[1]
    assert quoted.startswith("Rule ")


async def test_a_question_nothing_answers_is_not_put_to_the_model(
    bot: BotHarness, fake_openai: FakeOpenAI
) -> None:
    # the fitted decision finds "nothing" likeliest: no answer of the model's could stand
    # against it, so the model is not asked, and the member reads that nothing was found
    await bot.services.documents.knowledge_import("Membership rules", RULES)
    _cite_first(bot, fake_openai, "Photovoltaic cells turn light into power.")
    [answer] = await bot.send("/ask how do solar panels work?")
    assert answer.startswith(NO_ANSWER)
    assert "Photovoltaic" not in answer
    assert not [b for b in fake_openai.chat_requests if is_grounded(b)]
