"""/ask answers built from documents and from the fact graph."""

from __future__ import annotations

from app.core import ask_answers as say
from app.core.ask_models import AskResponse, DocumentHit
from app.core.graph_results import AskResult
from app.core.proposal_search import keyword_terms
from app.nlp.ask_analysis import INTENT_DOCS, INTENT_FACTS
from app.services.llm import AnswerContext, LLMService

RELATED_DOC = 0.45  # a document worth mentioning under a proposal or fact answer


async def documents(text: str, hits: list[DocumentHit], llm: LLMService) -> AskResponse:
    """The answer from document passages: an extract of the best one, the sources."""
    context = AnswerContext(
        question=text,
        lead=say.documents_lead(text, hits),
        evidence=[f"From “{h.title}”: {' '.join(h.content.split())}" for h in hits],
    )
    answer = [await llm.write_lead(context), say.sources(hits), say.documents_how(hits)]
    return AskResponse(
        question=text,
        intent=INTENT_DOCS,
        answer="\n\n".join(answer),
        content_keywords=" ".join(keyword_terms(text)) or None,
        documents=hits,
    )


async def facts(
    text: str, result: AskResult, passages: list[DocumentHit], llm: LLMService
) -> AskResponse:
    """The answer from the fact graph: the facts, or the path followed hop by hop; spec
    003's "followed the steps but could not find" when the path stops short."""
    facts = [s.fact for s in result.relevant_facts]
    chain = result.chain
    lead = result.answer_text if facts else say.NO_ANSWER
    if chain is not None and not chain.complete:  # spec 003: steps taken, no final answer
        closest = "; ".join(f"{f.subject} {f.predicate} {f.object}" for f in facts[:3])
        lead = chain.explain() + (f" The closest facts I found: {closest}." if facts else "")
    context = AnswerContext(
        question=text,
        lead=lead,
        evidence=[f"{f.subject} {f.predicate} {f.object}" for f in facts],
    )
    terms = ", ".join(f"“{t}”" for t in result.key_terms[:4])
    found = say.plural(len(facts), "relevant fact")
    if chain is not None and chain.complete:
        how = (
            f"How I found this: I followed the connections from “{chain.anchor}” "
            "step by step in the knowledge graph."
        )
    elif chain is not None:
        how = (
            f"How I found this: I tried to follow the connections from “{chain.anchor}”, "
            f"but the path stopped; then I looked up {terms} ({found})."
        )
    else:
        how = f"How I found this: I looked up {terms} in the knowledge graph ({found})."
    related = [h for h in passages if h.similarity >= RELATED_DOC]
    sections = [await llm.write_lead(context) if facts else lead]
    if related:
        sections.append(say.sources(related[:2]).replace("Sources:", "Related documents:"))
    sections.append(how)
    return AskResponse(
        question=text,
        intent=INTENT_FACTS,
        answer="\n\n".join(sections),
        content_keywords=" ".join(result.key_terms) or None,
        facts=facts,
        documents=related[:2],
    )
