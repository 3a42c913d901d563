"""/ask with a model: the model reads what was found before anything refuses.

After every source has been searched (``ContextService.gather``), a configured model is
given a bounded context of the best of it, each item behind a key (document sentences
and passages, proposals' public fields: never votes, voters or idea text, facts), and
answers citing keys or says the knowledge base does not say. It does not read the
question beforehand: the searches and the decision read the rules' reading
(context_service.ContextService._read). Its answer is shown only when it cites items
offered, with what is shown under it composed from those items; when it fails or cites
nothing, the offline answer (the fitted decision's) stands.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.core.ask import answers as say
from app.core.ask import sentences
from app.core.ask.analysis import INTENT_PROPOSALS
from app.core.ask.knowledge_answers import FACTS_LISTED, RELATED_DOC
from app.core.ask.models import AskFilters, AskResponse, DocumentHit
from app.core.ask.proposal_search import keyword_terms
from app.core.knowledge.unit_index import unit_text
from app.domain.messages import N_
from app.domain.models import Proposal
from app.i18n import Translator
from app.nlp.units import Unit, segment
from app.persistence.repositories.facts import Fact
from app.services.llm import LLMService
from app.services.llm.base import EvidenceItem, GroundedContext, GroundedReply

if TYPE_CHECKING:
    from app.core.ask.context_service import Gathered
    from app.core.ask.decision import Decision

SENTENCES_OFFERED = 4
PASSAGES_OFFERED = 3
PASSAGE_CHARS = 600
PROPOSALS_OFFERED = 5
FACTS_OFFERED = 5
RELATED_SHOWN = 2  # documents named under an answer from proposals or facts
KINDS = ("documents", "proposals", "facts")
HOW_GROUNDED = N_(
    "How I found this: I searched the documents, proposals and facts; a language model "
    "read the best of what I found and answered from the sources named here."
)


@dataclass(frozen=True, slots=True)
class Offered:
    """One evidence item and what it stands for."""

    item: EvidenceItem
    ref: DocumentHit | Proposal | Fact
    quote: str = ""  # for a document item: the words quoted under the answer
    scored: sentences.Scored | None = None  # for a document's best sentence: it, scored


def offered(
    g: Gathered,
    english: Translator,
    belief: Mapping[str, float] | None = None,
    *,
    budget: int,
) -> list[Offered]:
    """The evidence for the model, within ``budget`` characters (LLM_EVIDENCE_CHARS;
    6,000 is about 1,500 tokens), shared among the kinds of record as the offline
    decision believes in them (``belief``: its probability of each source, a kind it
    does not name having none; equal shares without it). Each kind's best items are
    taken while they fit in its share, the most believed kind's first item whatever its
    share; then shown grouped by kind. A small model reads a prompt at some 40 tokens a
    second: what the decision all but rules out costs a member seconds and rarely
    answers."""
    documents = _documents(g)
    proposals = [
        Offered(
            EvidenceItem(f"P{p.id}", "proposals", say.proposal_evidence(p, english, g.filters.now)),
            p,
        )
        for p in g.outcome.proposals[:PROPOSALS_OFFERED]
    ]
    facts = [
        Offered(EvidenceItem(f"F{i}", "facts", _fact_text(f)), f)
        for i, f in enumerate(
            (s.fact for s in (g.facts.relevant_facts if g.facts else [])[:FACTS_OFFERED]), 1
        )
    ]
    queues = {"documents": documents, "proposals": proposals, "facts": facts}
    belief = belief if belief is not None else dict.fromkeys(KINDS, 1.0)
    weight = {k: max(0.0, belief.get(k, 0.0)) for k in KINDS}
    total = sum(weight.values()) or 1.0
    order = sorted(KINDS, key=lambda k: -weight[k])
    taken: list[Offered] = []
    size = 0
    for kind in order:
        share = budget * weight[kind] / total
        spent = 0
        for item in queues[kind]:
            cost = len(item.item.text) + len(item.item.key) + 4
            first = not taken and kind == order[0]
            if size + cost > budget or (spent + cost > share and not first):
                break  # a kind's next items are no shorter in general
            taken.append(item)
            size += cost
            spent += cost
    return sorted(taken, key=lambda o: KINDS.index(o.item.kind))


def _documents(g: Gathered) -> list[Offered]:
    """The best sentences (with what follows them) of the top documents, then their best
    passages without the sentences already offered; keys D1, D2, ... in that order."""
    found: list[tuple[str, DocumentHit, str, sentences.Scored | None]] = []
    for scored in g.best[:SENTENCES_OFFERED]:
        quoted = sentences.quote(scored)
        if any(scored.unit.text in text for _, _, text, _ in found):
            continue
        found.append((f"“{scored.hit.title}”: {quoted}", scored.hit, quoted, scored))
    for hit in g.found.hits[:PASSAGES_OFFERED]:
        passage = _unsaid(_units(hit, g.found.contents), [text for _, _, text, _ in found])
        if not passage:
            continue
        if len(passage) > PASSAGE_CHARS:
            passage = passage[:PASSAGE_CHARS].rsplit(" ", 1)[0] + " …"
        found.append((f"“{hit.title}”: {passage}", hit, sentences.cut(passage), None))
    return [
        Offered(EvidenceItem(f"D{i}", "documents", text), hit, quoted, scored)
        for i, (text, hit, quoted, scored) in enumerate(found, 1)
    ]


def _units(hit: DocumentHit, contents: Mapping[str, str]) -> Sequence[Unit]:
    """A passage's whole units: those of its page that start inside it. A passage is a
    window of the page and mostly starts inside a sentence, which neither the model nor a
    member should read from its middle."""
    content = contents.get(hit.document_id, "")
    start = content.find(hit.content) if hit.content else -1
    if start < 0:
        return segment(hit.content)
    end = start + len(hit.content)
    return [u for u in segment(content) if start <= u.start < end]


def _unsaid(units: Iterable[Unit], said: Iterable[str]) -> str:
    """The passage's units but those an item already offered holds, each kept unit led
    by its heading where that changes; a gap reads "…", and "" is left when nothing
    is. The best sentences come from the best passages, and a model reads every repeated
    word again."""
    offered_text = " ".join(said)
    kept: list[str] = []
    heading = ""
    for unit in units:
        if unit.text in offered_text:
            if kept and kept[-1] != "…":
                kept.append("…")
            continue
        kept.append(unit_text(unit) if unit.heading != heading else unit.text)
        heading = unit.heading
    while kept and kept[-1] == "…":
        kept.pop()
    return " ".join(kept)


def _quoted(docs: Sequence[Offered], best: Sequence[sentences.Scored], tr: Translator) -> str:
    """The words quoted under an answer citing documents: the sentences it cites, then
    the other best ones, as the offline answer quotes them (sentences.quotes); a cited
    passage's own words when it cites no sentence."""
    cited = [o.scored for o in docs if o.scored is not None]
    if not cited:
        first = [(o.ref, o.quote) for o in docs[:1] if isinstance(o.ref, DocumentHit)]
        return say.according_to(first, tr)
    rest = [s for s in best if all(s is not c for c in cited)]
    return say.according_to(sentences.quotes([*cited, *rest]), tr)


def _fact_text(fact: Fact) -> str:
    return f"{fact.subject} {fact.predicate} {fact.object}".replace("_", " ")


async def answer(
    text: str,
    g: Gathered,
    llm: LLMService,
    tr: Translator,
    english: Translator,
    chosen: Decision,
) -> AskResponse | None:
    """The model's grounded answer, or None: the offline answer then stands. The
    evidence is shared among the sources as the fitted decision believes in them.

    Where the decision finds nothing likeliest, the model is not asked: a small model
    answers most questions that nothing answers from a nearby record ("where is the
    speaker green room?" from a fact about the quiet room), which the decision's signals
    tell apart more often (bench/ask_model.py)."""
    if chosen.source == "nothing":
        return None
    items = offered(g, english, chosen.probabilities, budget=llm.evidence_chars)
    context = GroundedContext(text, tuple(o.item for o in items), tr.language)
    reply = await llm.answer_grounded(context)
    if reply is None or reply.source == "none":
        return None
    return compose(text, g, items, reply, tr, chosen.intent)


def compose(
    text: str,
    g: Gathered,
    items: Iterable[Offered],
    reply: GroundedReply,
    tr: Translator,
    intent: str,
) -> AskResponse | None:
    """The reply's text, then what it cites as the offline answers show them: the words
    quoted from the cited documents, the proposals listed, the facts, the sources
    (or, with no document cited, the related documents).
    None when it cites nothing that was offered. ``intent``, the kind of question, is the
    fitted decision's, whichever kind of record the model answered from."""
    by_key = {o.item.key: o for o in items}
    cited = [by_key[k] for k in reply.cites if k in by_key]
    docs = [o for o in cited if o.item.kind == "documents"]
    hits = list({o.ref.chunk_id: o.ref for o in docs if isinstance(o.ref, DocumentHit)}.values())
    proposals = [o.ref for o in cited if isinstance(o.ref, Proposal)]
    facts = [o.ref for o in cited if isinstance(o.ref, Fact)]
    if not cited:
        return None
    sections = [reply.answer]
    if docs:
        sections.append(_quoted(docs, g.best, tr))
    if proposals:
        sections.append("\n".join(say.listing(proposals, len(proposals), tr, g.filters.now)))
    if facts:  # those it cites, then the next best, as many as the offline answer lists
        found = [s.fact for s in (g.facts.relevant_facts if g.facts else [])]
        listed = [*facts, *(f for f in found if f not in facts)][: max(FACTS_LISTED, len(facts))]
        sections.append(tr("Facts: {facts}.", facts="; ".join(_fact_text(f) for f in listed)))
    # a document near the question is named under an answer from proposals or facts, as
    # under the offline ones: the page a member may want to open next
    related = [h for h in g.found.hits if h.similarity >= RELATED_DOC][:RELATED_SHOWN]
    if hits:
        sections.append(say.sources(hits, tr))
    elif related:
        sections.append(say.related_documents(related, tr))
    sections.append(tr(HOW_GROUNDED))
    shown = {h.chunk_id for h in hits}
    documents = hits + [h for h in g.found.hits if h.chunk_id not in shown] if hits else related
    return AskResponse(
        question=text,
        intent=intent,
        answer="\n\n".join(sections),
        content_keywords=g.analysis.content_keywords or " ".join(keyword_terms(text)) or None,
        filters=g.filters if intent == INTENT_PROPOSALS else AskFilters(),
        proposals=proposals,
        documents=documents,
        facts=facts,
    )
