"""/ask answers built from documents and from the fact graph."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.ask import answers as say
from app.core.ask import sentences
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS
from app.core.ask.models import AskResponse, DocumentHit
from app.core.ask.proposal_search import keyword_terms
from app.core.graph.graph_results import AskResult
from app.domain.messages import N_
from app.i18n import SOURCE_LANGUAGE, Translator
from app.services.llm import AnswerContext, LLMService

# spec 003's sentence (multihop.NOTHING_FINAL), for a reader of another language
CHAIN_STOPPED = N_(
    "Based on the data, I followed the steps but could not find a final answer for your question."
)
RELATED_DOC = 0.45  # a document worth mentioning under a proposal or fact answer
FACTS_LISTED = 3


async def documents(
    text: str,
    hits: list[DocumentHit],
    llm: LLMService,
    tr: Translator,
    why: str = "",
    best: Sequence[sentences.Scored] = (),
) -> AskResponse:
    """The answer from document passages: the sentences that answer, quoted with their
    documents named (sentences.quotes), then the sources, the quoted documents first."""
    if best:
        quoted = sentences.quotes(best)
        first = [hit for hit, _ in quoted]  # the quoted documents lead the sources
        hits = first + [h for h in hits if h.chunk_id not in {f.chunk_id for f in first}]
        lead = say.according_to(quoted, tr)
    else:
        lead = say.documents_lead(text, hits, tr)
    hits = by_document(hits)
    context = AnswerContext(
        question=text,
        lead=lead,
        evidence=[f"From “{h.title}”: {' '.join(h.content.split())}" for h in hits],
        language=tr.language,
    )
    how = say.documents_how(hits, tr)
    if why:
        how += " " + tr("I answered from documents because {why}.", why=tr(why))
    answer = [await llm.write_lead(context), say.sources(hits, tr), how]
    return AskResponse(
        question=text,
        intent=INTENT_DOCS,
        answer="\n\n".join(answer),
        content_keywords=" ".join(keyword_terms(text)) or None,
        documents=hits,
    )


def by_document(hits: Sequence[DocumentHit]) -> list[DocumentHit]:
    """The passages with each document's first one leading, in order: what was found
    reads as documents (the bot's buttons open the first three), then their other
    passages."""
    first: dict[str, DocumentHit] = {}
    for hit in hits:
        first.setdefault(hit.document_id, hit)
    lead = list(first.values())
    chosen = {h.chunk_id for h in lead}
    return lead + [h for h in hits if h.chunk_id not in chosen]


async def facts(
    text: str, result: AskResult, passages: list[DocumentHit], llm: LLMService,
    tr: Translator, why: str = "",
) -> AskResponse:  # fmt: skip
    """The answer from the fact graph: the facts, or the path followed hop by hop; spec
    003's "followed the steps but could not find" when the path stops short."""
    facts = [s.fact for s in result.relevant_facts]
    chain = result.chain
    lead = result.answer_text if facts else tr(say.NO_ANSWER)
    if tr.language != SOURCE_LANGUAGE and facts:  # the graph phrases its answers in English
        lead = _facts_lead(result, tr)
    if chain is not None and not chain.complete:  # spec 003: steps taken, no final answer
        closest = "; ".join(f"{f.subject} {f.predicate} {f.object}" for f in facts[:3])
        lead = chain.explain() if tr.language == SOURCE_LANGUAGE else tr(CHAIN_STOPPED)
        if facts:
            lead += " " + tr("The closest facts I found: {facts}.", facts=closest)
    context = AnswerContext(
        question=text,
        lead=lead,
        evidence=[f"{f.subject} {f.predicate} {f.object}" for f in facts],
        language=tr.language,
    )
    terms = ", ".join(f"“{t}”" for t in result.key_terms[:4])
    found = tr.ngettext("{n} relevant fact", "{n} relevant facts", len(facts))
    if chain is not None and chain.complete:
        how = tr(
            "How I found this: I followed the connections from “{anchor}” "
            "step by step in the knowledge graph.",
            anchor=chain.anchor,
        )
    elif chain is not None:
        how = tr(
            "How I found this: I tried to follow the connections from “{anchor}”, "
            "but the path stopped; then I looked up {terms} ({found}).",
            anchor=chain.anchor, terms=terms, found=found,
        )  # fmt: skip
    else:
        how = tr(
            "How I found this: I looked up {terms} in the knowledge graph ({found}).",
            terms=terms, found=found,
        )  # fmt: skip
    related = [h for h in passages if h.similarity >= RELATED_DOC]
    sections = [await llm.write_lead(context) if facts else lead]
    # The facts behind the lead, like a document answer's sources: the lead names the
    # best one, and the next ones often hold what the member meant.
    shown = [f"{f.subject} {f.predicate} {f.object}" for f in facts[:FACTS_LISTED]]
    unsaid = [line for line in shown if line not in lead]
    if unsaid and (chain is None or chain.complete):
        sections.append(tr("Facts: {facts}.", facts="; ".join(shown)))
    if related:
        sections.append(say.related_documents(related[:2], tr))
    if why:
        how += " " + tr("I answered from facts because {why}.", why=tr(why))
    sections.append(how)
    return AskResponse(
        question=text,
        intent=INTENT_FACTS,
        answer="\n\n".join(sections),
        content_keywords=" ".join(result.key_terms) or None,
        facts=facts,
        documents=related[:2],
    )


def _facts_lead(result: AskResult, tr: Translator) -> str:
    """The graph's answer in the reader's language: the facts themselves (member content)
    in sentences of the catalog, not the graph's English connectives."""
    chain = result.chain
    if chain is not None and chain.complete and chain.final_result:
        names = [str(n).replace("_", " ") for n in chain.final_result]
        return tr(
            "I followed the connections from “{anchor}”; the answer is: {answer}.",
            anchor=chain.anchor, answer=", ".join(names),
        )  # fmt: skip
    shown = [f"{f.subject} {f.predicate} {f.object}".replace("_", " ")
             for f in (s.fact for s in result.relevant_facts[:FACTS_LISTED])]  # fmt: skip
    return tr("The knowledge graph says: {facts}.", facts="; ".join(shown))
