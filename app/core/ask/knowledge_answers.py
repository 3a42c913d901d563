"""/ask answers built from documents and from the fact graph."""

from __future__ import annotations

from app.core.ask import answers as say
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS
from app.core.ask.models import AskResponse, DocumentHit
from app.core.ask.proposal_search import keyword_terms
from app.core.graph_results import AskResult
from app.services.llm import AnswerContext, LLMService

RELATED_DOC = 0.45  # a document worth mentioning under a proposal or fact answer
FACTS_LISTED = 3


async def documents(
    text: str, hits: list[DocumentHit], llm: LLMService, why: str = ""
) -> AskResponse:
    """The answer from document passages: an extract of the best one, the sources."""
    context = AnswerContext(
        question=text,
        lead=say.documents_lead(text, hits),
        evidence=[f"From “{h.title}”: {' '.join(h.content.split())}" for h in hits],
    )
    how = say.documents_how(hits) + (f" I answered from documents because {why}." if why else "")
    answer = [await llm.write_lead(context), say.sources(hits), how]
    return AskResponse(
        question=text,
        intent=INTENT_DOCS,
        answer="\n\n".join(answer),
        content_keywords=" ".join(keyword_terms(text)) or None,
        documents=hits,
    )


async def facts(
    text: str, result: AskResult, passages: list[DocumentHit], llm: LLMService, why: str = ""
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
    # The facts behind the lead, like a document answer's sources: the lead names the
    # best one, and the next ones often hold what the member meant.
    shown = [f"{f.subject} {f.predicate} {f.object}" for f in facts[:FACTS_LISTED]]
    unsaid = [line for line in shown if line not in lead]
    if unsaid and (chain is None or chain.complete):
        sections.append("Facts: " + "; ".join(shown) + ".")
    if related:
        sections.append(say.sources(related[:2]).replace("Sources:", "Related documents:"))
    sections.append(how + (f" I answered from facts because {why}." if why else ""))
    return AskResponse(
        question=text,
        intent=INTENT_FACTS,
        answer="\n\n".join(sections),
        content_keywords=" ".join(result.key_terms) or None,
        facts=facts,
        documents=related[:2],
    )
