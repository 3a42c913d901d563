"""The grounded answer step of the OpenAI backend against the fake server: the reply's
keys and text are checked, and servers without ``json_schema`` output still answer."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable

import pytest

from app.services.llm import LLMService
from app.services.llm.base import EvidenceItem, GroundedContext, GroundedReply
from app.services.llm.fence import FENCE_CLOSE, FENCE_OPEN
from app.services.llm.openai_backend import OpenAIBackend
from tests.support.fake_openai import FakeOpenAI, Reply, grounded, offered_keys

CONTEXT = GroundedContext(
    "how big are the storage boxes?",
    (
        EvidenceItem("D1", "documents", "“Storage room”: Each box holds 35 litres."),
        EvidenceItem("P3", "proposals", "#3 Bigger boxes (open until 1 Dec). Buy 50 l boxes."),
        EvidenceItem("F1", "facts", "Storage room is in the basement"),
    ),
)

Connect = Callable[[], LLMService]


@pytest.fixture
async def connect(fake_openai: FakeOpenAI) -> AsyncIterator[Connect]:
    services: list[LLMService] = []

    def make() -> LLMService:
        backend = OpenAIBackend("test-key", base_url=fake_openai.base_url, max_retries=0)
        services.append(LLMService(primary=backend))
        return services[-1]

    yield make
    for service in services:
        await service.aclose()


async def test_the_evidence_is_keyed_and_fenced_and_a_cited_reply_comes_back(
    fake_openai: FakeOpenAI, connect: Connect
) -> None:
    fake_openai.content = grounded("Each box holds 35 litres.", ["[d1]"])
    llm = connect()
    reply = await llm.answer_grounded(CONTEXT)
    assert reply == GroundedReply("Each box holds 35 litres.", ("D1",), "documents")
    [body] = fake_openai.chat_requests
    assert body["response_format"]["json_schema"]["name"] == "grounded_answer"
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["cites"]["items"]["enum"] == ["D1", "F1", "P3"]
    assert offered_keys(body) == ["D1", "P3", "F1"]
    user = body["messages"][-1]["content"]
    assert user.index(FENCE_OPEN) < user.index("[D1]") < user.index(FENCE_CLOSE)
    assert llm.fallbacks == {}


OFFERED = "grounded reply cites keys that were not offered"
SOURCE = "grounded answer names a source it does not cite"
NUMBER = "grounded answer gives a number its records do not"


@pytest.mark.parametrize(
    ("content", "why"),
    [
        # a key that was not offered
        (grounded("The boxes hold 99 litres.", ["D7"]), OFFERED),
        # a proposal not cited (its number one the cited record gives: 35)
        (
            grounded("See proposal #35 for bigger boxes.", ["D1"]),
            "grounded answer names proposals it does not cite",
        ),
        # ... whose number no cited record gives: the number check refuses it first
        (grounded("See proposal #9 for bigger boxes.", ["D1"]), NUMBER),
        # proposals claimed, a document cited: "yes, there are proposals about it"
        (grounded("Yes, there are proposals about bigger boxes.", ["D1"], "proposals"), SOURCE),
        # nothing cited
        (
            grounded("The storage room is in the basement.", [], "facts"),
            "grounded answer cites nothing",
        ),
        # the prompt's machinery
        (
            grounded("The JSON says 35 litres.", ["D1"]),
            "grounded answer mentions the prompt machinery",
        ),
        # a number the record does not give, nor the question
        (grounded("Each box holds 50 litres.", ["D1"]), NUMBER),
        (grounded("Each box holds 35 litres, 50 from December.", ["D1"]), NUMBER),
        # not the schema, not JSON
        (
            json.dumps({"answer": "35 litres", "cites": ["D1"], "source": "rumours"}),
            "grounded reply is invalid: ValidationError",
        ),
        ("Each box holds 35 litres.", "grounded reply is invalid: JSONDecodeError"),
    ],
)
async def test_a_reply_that_is_not_grounded_in_what_was_offered_is_refused(
    fake_openai: FakeOpenAI,
    connect: Connect,
    content: str,
    why: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake_openai.content = content
    llm = connect()
    assert await llm.answer_grounded(CONTEXT) is None
    assert llm.fallbacks == {"grounded": 1}
    # the check that refused it is logged in its own words, which quote none of the reply
    [said] = [r.getMessage() for r in caplog.records if r.name == "app.services.llm.service"]
    assert said == f"LLM grounded failed ({why}); falling back"


async def test_the_knowledge_base_not_saying_is_a_reply_without_citations(
    fake_openai: FakeOpenAI, connect: Connect
) -> None:
    fake_openai.content = grounded("", [], "none")
    assert await connect().answer_grounded(CONTEXT) == GroundedReply("", (), "none")


async def test_numbers_from_the_cited_records_or_the_question_are_stated(
    fake_openai: FakeOpenAI, connect: Connect
) -> None:
    context = GroundedContext(
        "can I fit 2 bikes in a 35 litre box?",
        (
            EvidenceItem(
                "D1", "documents", "“Laundry”: The laundry opens at 07:00, 7 days a week."
            ),
            # a digit run longer than any integer Python converts from text
            EvidenceItem("D2", "documents", "“Codes”: " + "9" * 5000),
        ),
    )
    fake_openai.content = grounded(
        "It opens at 7:00 every day; 2 bikes won't fit in 35 l.", ["D1", "D2"]
    )
    reply = await connect().answer_grounded(context)
    assert reply is not None and reply.cites == ("D1", "D2")


@pytest.mark.parametrize("server", ["llama_cpp", "no_schema"])
async def test_a_server_refusing_json_schema_gets_a_json_object_with_the_schema(
    fake_openai: FakeOpenAI, connect: Connect, server: str
) -> None:
    fake_openai.mode = server
    fake_openai.content = grounded("A box holds 35 litres.", ["D1"])
    llm = connect()
    first = await llm.answer_grounded(CONTEXT)
    second = await llm.answer_grounded(CONTEXT)
    assert first == second == GroundedReply("A box holds 35 litres.", ("D1",), "documents")
    formats = [body["response_format"] for body in fake_openai.chat_requests]
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object"]
    assert formats[1]["schema"]["required"] == ["answer", "cites", "source"]
    assert llm.fallbacks == {}


async def test_a_timeout_or_a_server_error_gives_none(
    fake_openai: FakeOpenAI, connect: Connect
) -> None:
    fake_openai.script(Reply("500"))
    llm = connect()
    assert await llm.answer_grounded(CONTEXT) is None
    assert llm.fallbacks == {"grounded": 1}
    assert await LLMService().answer_grounded(CONTEXT) is None  # no model: offline stands
