"""When a model's grounded answer stands (app/core/ask/grounded.answer): not where the
fitted decision finds nothing likeliest; and what is shown under an answer citing
documents or facts."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

from app.core.ask import grounded, sentences
from app.core.ask.analysis import INTENT_DOCS
from app.core.ask.decision import Decision
from app.core.ask.models import AskFilters, DocumentHit
from app.i18n import translator
from app.nlp.units import segment
from app.persistence.repositories.facts import Fact
from app.services.llm.base import GroundedContext, GroundedReply

ENGLISH = translator("en", ZoneInfo("UTC"))
RULES = (  # a heading each: a sentence offered is not quoted with the next one
    "## Moving out\n\nMembers who move out give one month's notice to the secretary.\n\n"
    "## Waiting list\n\nThe secretary keeps the waiting list.\n\n"
    "## Joining\n\nApplicants must be aged 18 or over and sign the house agreement.\n\n"
    "## Guests\n\nGuests may stay up to three nights."
)
HIT = DocumentHit("doc1", "Membership rules", "chunk1", RULES, 0.6, 0.03)


class Model:
    """An LLMService that answers every grounded question with ``reply``."""

    evidence_chars = 6000

    def __init__(self, reply: GroundedReply) -> None:
        self.reply = reply
        self.asked: list[GroundedContext] = []

    async def answer_grounded(self, context: GroundedContext) -> GroundedReply:
        self.asked.append(context)
        return self.reply


def _gathered(order: list[int], facts: list[Fact] | None = None) -> Any:
    """What was found: RULES' sentences ranked in ``order``, no proposal, ``facts``."""
    units = segment(RULES)
    best = [sentences.Scored(units[i], HIT, units, 0.9, 0.6, 0.5, ()) for i in order]
    return SimpleNamespace(
        best=best,
        found=SimpleNamespace(hits=[HIT], contents={HIT.document_id: RULES}),
        outcome=SimpleNamespace(proposals=[]),
        facts=SimpleNamespace(relevant_facts=[SimpleNamespace(fact=f) for f in facts])
        if facts
        else None,
        analysis=SimpleNamespace(content_keywords="notice"),
        filters=AskFilters(),
    )


def _decision(**p: float) -> Decision:
    probabilities = {"proposals": 0.0, "documents": 0.0, "facts": 0.0, "nothing": 0.0} | p
    return Decision(max(probabilities, key=probabilities.__getitem__), probabilities)


async def _answer(
    model: Model,
    decision: Decision,
    order: list[int] | None = None,
    facts: list[Fact] | None = None,
) -> Any:
    g = _gathered(order if order is not None else [0, 1, 2, 3], facts)
    return await grounded.answer(
        "who do I tell when I move out?",
        g,
        model,
        ENGLISH,
        ENGLISH,
        decision,  # type: ignore[arg-type]
    )


async def test_the_answer_stands_where_something_is_likelier_than_nothing() -> None:
    model = Model(GroundedReply("Tell the secretary a month ahead.", ("D1",), "documents"))
    read = await _answer(model, _decision(documents=0.45, nothing=0.35, facts=0.2))
    assert read is not None
    assert read.answer.startswith("Tell the secretary a month ahead.")
    assert read.intent == INTENT_DOCS


async def test_the_model_is_not_asked_where_nothing_is_likeliest() -> None:
    # the offline answer ("nothing found") stands, and no model call is spent on it
    model = Model(GroundedReply("Tell the secretary a month ahead.", ("D1",), "documents"))
    read = await _answer(model, _decision(nothing=0.4, documents=0.35, facts=0.25))
    assert read is None
    assert model.asked == []


async def test_the_quote_leads_with_the_cited_sentence_then_the_best_ones() -> None:
    # the model read the third best sentence (D3) as the answer: it is quoted, and so is
    # the best one, each in the page's order, as the offline answer quotes
    model = Model(GroundedReply("Tell the secretary.", ("D3",), "documents"))
    read = await _answer(model, _decision(documents=0.9, nothing=0.1), order=[1, 3, 0, 2])
    quoted = read.answer.split("According to “Membership rules”: ", 1)[1].split("\n\n")[0]
    assert "give one month's notice to the secretary" in quoted
    assert "keeps the waiting list" in quoted
    assert quoted.index("move out") < quoted.index("waiting list")  # the page's order


def _fact(n: int, subject: str, predicate: str, obj: str) -> Fact:
    return Fact(n, subject, predicate, obj, 1.0, "test", subject.lower(), predicate, "x")


async def test_the_facts_listed_lead_with_the_cited_one_then_the_best_ones() -> None:
    # the model cited one fact, and read it the wrong way round: the member still reads
    # the facts the graph found, as the offline answer lists them
    found = [
        _fact(1, "Kenji", "is steward of", "Oluwaseun"),
        _fact(2, "Aroha", "is steward of", "Kenji"),
        _fact(3, "Fatima", "is steward of", "Chloé"),
        _fact(4, "Liam", "is steward of", "Mere"),
    ]
    model = Model(GroundedReply("Kenji is steward of Oluwaseun.", ("F2",), "facts"))
    read = await _answer(model, _decision(facts=0.7, nothing=0.3), facts=found)
    listed = read.answer.split("Facts: ", 1)[1].split("\n\n")[0]
    assert listed == (
        "Aroha is steward of Kenji; Kenji is steward of Oluwaseun; Fatima is steward of Chloé."
    )
    assert read.facts == [found[1]]  # what it rests on: the cited fact
