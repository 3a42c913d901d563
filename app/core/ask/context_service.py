"""/ask: read the question, retrieve from proposals, documents and facts, answer.

``handle_intelligent_ask`` is the one entry point every front door uses (the bot's
/ask, `coordbot ask`), so they give the same answer to the same question.

1. The rules read intent, keywords and filters (a configured model does not: it reads
   only what was found, in step 5).
2. Dates become a [start, end) range in BOT_TIMEZONE; a proposer name becomes an id.
3. One embedding of the question (its keywords, for proposal questions) serves
   every collection searched.
4. Proposals: SQL filters plus words and meaning (ProposalSearch). Documents: the
   closest passages of global and proposal documents. Facts: the graph's
   ask_question, hop by hop when the question is a chain.
5. The answer: the direct answer, what was found, how, and where to look next.

The retrieval context holds public proposal data, document passages and facts:
never votes, voters, or the text of ideas.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, replace
from itertools import chain
from zoneinfo import ZoneInfo

import numpy as np

from app.core.ask import answers as say
from app.core.ask import (
    decision,
    grounded,
    knowledge_answers,
    sentences,
)
from app.core.ask.analysis import HOW_TO, INTENT_PROPOSALS, AskAnalysis
from app.core.ask.fact_search import FactSearch, FactsFound
from app.core.ask.help import HelpIndex
from app.core.ask.knowledge_answers import RELATED_DOC
from app.core.ask.language import detect_language
from app.core.ask.mentions import mark_members
from app.core.ask.models import CREATION, DEADLINE, AskFilters, AskResponse, DocumentHit
from app.core.ask.multilingual import (
    asks_own_vote,
    asks_who_voted,
    direction,
    english_phrase,
    read_question,
)
from app.core.ask.passages import Found, PassageSearch
from app.core.ask.pointers import MEMBERS, Pointers
from app.core.ask.proposal_search import ProposalSearch, SearchOutcome, keyword_terms
from app.core.ask.reading import reading
from app.core.ask.spelling import Fix, Speller, describe
from app.core.graph.fact_vectors import FactVectors
from app.core.graph.graph_results import AskResult
from app.core.graph.graph_service import GraphService
from app.core.knowledge.document_service import DocumentService
from app.core.knowledge.unit_index import UnitIndex
from app.domain.clock import Clock
from app.domain.errors import NotFoundError, ValidationError
from app.domain.messages import N_
from app.domain.models import Proposal
from app.i18n import PSEUDO, SOURCE_LANGUAGE, Translator, normalize, translator
from app.nlp.date_ranges import AmbiguousDateError, read_date_range
from app.nlp.lexical import fact_text, proposal_text
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.persistence.repositories.users import UserRepository
from app.services.llm import AnswerContext, LLMService
from app.services.vector_db_service import VectorDBService

MAX_QUESTION = 500
HELP_STRONG = 0.55  # the manual covers a how-to question ...
DOC_STRONG = 0.45  # ... that no passage is clearly about
PASSAGE_BEST = N_("a document passage matches it best")
FACTS_NAMED = N_("the knowledge graph names what it asks about")
PROPOSAL_PASSAGES = 3  # a proposal's own passages quoted about it
SELF = {"me", "i", "my", "myself", "mine"}

NO_PROPOSAL = N_("There is no proposal #{id}. Send /proposals to see them all.")
# The usage hint; a front door fills in ``limit`` (MAX_QUESTION) in its reader's language.
HOW_TO_ASK = N_(
    "Ask me anything about this community's proposals, documents and facts, "
    "in plain words. For example:\n"
    "• /ask which open proposals about funding were created this month?\n"
    "• /ask what closes this week?\n"
    "• /ask who proposed the pizza party?\n"
    "• /ask how does parking work?\n"
    "• /ask #12 what are the options?  (about one proposal)\n"
    "Questions can be up to {limit} characters."
)


def check_question(question: str | None) -> str:
    text = " ".join((question or "").split())
    if not text:
        raise ValidationError(HOW_TO_ASK, limit=MAX_QUESTION)
    if len(text) > MAX_QUESTION:
        raise ValidationError(
            "That question is {length} characters long; I can take up to {limit}. "
            "Please shorten it, or split it into two questions.",
            length=len(text),
            limit=MAX_QUESTION,
        )
    return text


class ContextService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        vectors: VectorDBService,
        documents: DocumentService,
        graph: GraphService,
        llm: LLMService,
        timezone: ZoneInfo,
        language: str = "en",
        units: UnitIndex | None = None,
        fact_vectors: FactVectors | None = None,
    ) -> None:
        self.db = db
        self.clock = clock
        self.vectors = vectors
        self.documents = documents
        self.graph = graph
        self.llm = llm
        self.tz = timezone
        self.search = ProposalSearch(db, vectors, language)
        self.passage_search = PassageSearch(db, vectors, documents, language)
        self.units = units or UnitIndex(vectors)
        self.fact_search = FactSearch(db, vectors, language, fact_vectors)
        self._english = translator("en", timezone)  # what a model reads as evidence
        self.help = HelpIndex(vectors.embed, timezone, vectors.model_name)
        self.spelling = Speller(db, language)

    async def warm(self, language: str) -> None:
        """What the first question would otherwise build: the manual's index in English
        (which /ask reads) and in the community's ``language`` (/help), the
        community's words (spelling.py) and the fact graph's names (fact_names.py).
        Built before start-up freezes what it loaded (bot.py), a collection never
        scans them again while a member waits."""
        await self.help.warm(SOURCE_LANGUAGE, language)
        await self.spelling.warm()
        await self.fact_search.entities()

    def writer(self, read_in: str, language: str | None) -> Translator:
        """The translator the answer is written with: the question's language, or the
        pseudo-locale for a member who reads it (translation checks)."""
        return translator(PSEUDO if normalize(language) == PSEUDO else read_in, self.tz)

    async def handle_intelligent_ask(
        self,
        question: str | None,
        *,
        user_id: int | None = None,
        language: str | None = None,
        pointers: Pointers = MEMBERS,
    ) -> AskResponse:
        """Answer a question; "#12 ..." (or "12 ..." when proposal 12 exists) asks about
        one proposal and its documents. The answer is written in the question's language
        (``language``, the asker's, is the hint when the question's words do not tell);
        ``pointers`` say where it sends its reader next (the bot's commands by default)."""
        text = check_question(question)
        read_in = detect_language(text, language)  # the member's language is a hint
        tr = self.writer(read_in, language)
        target = _TARGET.match(text) or _MENTION.search(text)
        if target is not None:
            proposal_id = int(target.group(2))
            rest = " ".join(f"{text[: target.start(2) - len(target.group(1) or '')]} "
                            f"{text[target.end(2):]}".split()).strip(" :,.-")  # fmt: skip
            async with self.db.transaction() as session:
                proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
            if proposal is not None:
                return await self.answer_about_proposal(proposal, rest, text, tr, pointers)
            if target.re is _TARGET and target.group(1):
                raise NotFoundError(NO_PROPOSAL, id=proposal_id)
        reading, fixes, analysis = await self._read(text, read_in)
        response = await self._answer(reading, analysis, user_id, tr, pointers)
        return _corrected(response, text, fixes, tr) if fixes else response

    async def _read(self, text: str, read_in: str) -> tuple[str, list[Fix], AskAnalysis]:
        """The question as read: typos mended (English), then the rules' cue, filters
        and topic. A configured model does not read it: its topics and filters listed
        worse than the rules', and its cue beside theirs changed no answer on the
        held-out communities while costing a model call (bench/ask_model.py)."""
        reading, fixes = text, list[Fix]()
        if read_in == SOURCE_LANGUAGE:  # typos are read against English and our own words
            reading, fixes = await self.spelling.correct(text)  # "evnts" -> "events"
        marked = await mark_members(reading, self.db)  # "from sofia": a member, a proposer
        names = await self.spelling.names(read_in)  # "open source" asks for no open one
        return reading, fixes, read_question(marked, read_in, names)

    async def inspect(
        self, question: str, *, user_id: int | None = None, language: str | None = None
    ) -> Gathered:
        """What the decision reads for a question, without answering it (the script
        that refits the decision, scripts/fit_ask_decision.py, reads it)."""
        text = check_question(question)
        read_in = detect_language(text, language)
        reading, _, analysis = await self._read(text, read_in)
        return await self.gather(reading, analysis, user_id, self.writer(read_in, language))

    async def answer_about_proposal(
        self,
        proposal: Proposal,
        question: str,
        asked: str,
        tr: Translator | None = None,
        pointers: Pointers = MEMBERS,
    ) -> AskResponse:
        """What one proposal and its documents say, about the question if there is one."""
        tr = tr or translator("en", self.tz)
        now = self.clock.now()
        query = question or proposal.title
        embedding = await self._embed(query)
        found = await self.passage_search.search(query, embedding, proposal_id=proposal.id)
        hits = found.hits[:PROPOSAL_PASSAGES]
        lead = say.about_proposal(proposal, question, [h.content for h in hits])
        context = AnswerContext(
            question=asked,
            lead=lead,
            evidence=[say.proposal_evidence(proposal, self._english, now)]
            + [f"From “{h.title}”: {' '.join(h.content.split())}" for h in hits],
            cited_ids=frozenset({proposal.id}),
            language=tr.language,
        )
        sections = [await self.llm.write_lead(context), say.proposal_line(proposal, tr, now)]
        if proposal.options:
            sections[-1] += "\n" + say.options_line(proposal, tr)
        if hits:
            sections.append(say.sources(hits, tr))
            sections.append(
                tr.ngettext(
                    "How I found this: I read proposal #{id} and searched its documents "
                    "({n} passage matched).",
                    "How I found this: I read proposal #{id} and searched its documents "
                    "({n} passages matched).",
                    len(hits),
                    id=proposal.id,
                )
            )
        else:
            sections.append(
                tr(
                    "How I found this: I read proposal #{id}; it has no documents that match.",
                    id=proposal.id,
                )
            )
        if (hint := pointers.after([proposal], tr)) is not None:
            sections.append(hint)
        return AskResponse(
            question=asked,
            intent=INTENT_PROPOSALS,
            answer="\n\n".join(sections),
            content_keywords=question or None,
            proposals=[proposal],
            documents=hits,
        )

    async def answer_help(self, question: str | None, language: str = "en") -> AskResponse:
        """/help <question>: the same retrieval and answer steps, over the bot's manual,
        in ``language`` (a catalog name; the manual is translated with the rest)."""
        text = check_question(question)
        entries = await self.help.best(text, await self._embed(text), language)
        return await self.help.answer(text, entries, self.llm, language)

    # -- proposals -------------------------------------------------------------------

    async def _filters(
        self, question: str, analysis: AskAnalysis, user_id: int | None, tr: Translator
    ) -> tuple[AskFilters, list[str]]:
        """The analysis' filters made concrete; notes say what could not be used."""
        notes: list[str] = []
        filters = AskFilters(
            status=analysis.status, proposal_type=analysis.proposal_type, now=self.clock.now()
        )
        if analysis.date_phrase:
            phrase, towards = analysis.date_phrase, direction(question, analysis)
            english = english_phrase(phrase, analysis.language)
            try:
                found = read_date_range(english, self.clock.now(), self.tz.key, towards)
                if not found:
                    notes.append(
                        tr("I couldn't read the date “{phrase}”, so I didn't filter by date.",
                           phrase=phrase)
                    )  # fmt: skip
            except AmbiguousDateError as exc:
                found = None
                notes.append(
                    tr("The date “{phrase}” is ambiguous ({why}), so I didn't filter by date.",
                       phrase=phrase, why=exc.reason)
                )  # fmt: skip
            if found is not None:
                field = DEADLINE if analysis.date_field == DEADLINE else CREATION
                filters = replace(filters, date_field=field, start=found.start, end=found.end)
        if analysis.proposer:
            name = analysis.proposer.lstrip("@")
            if name.lower() in SELF and user_id is None:
                notes.append(tr("I don't know who is asking, so I didn't filter by proposer."))
            elif name.lower() in SELF:
                filters = replace(filters, proposer_id=user_id, proposer_name="you")
            else:
                async with self.db.transaction() as session:
                    people = await UserRepository(session).find_by_name(name)
                if people:
                    who = people[0]
                    filters = replace(
                        filters, proposer_id=who.telegram_id, proposer_name=who.display_name
                    )
                else:  # not a member's name: read it as part of the topic
                    notes.append(
                        tr("Nobody here is called “{name}”, so I searched for it as a word.",
                           name=name)
                    )  # fmt: skip
        return filters, notes

    async def gather(
        self, text: str, analysis: AskAnalysis, user_id: int | None, tr: Translator
    ) -> Gathered:
        """Every source searched for one question, with the one question embedding, and
        the signals the decision reads."""
        if _vote_notice(text, analysis.language):  # about a vote, whatever else it names
            analysis = replace(analysis, intent=INTENT_PROPOSALS)
        about_proposals = analysis.intent == INTENT_PROPOSALS
        filters, notes = (
            await self._filters(text, analysis, user_id, tr)
            if about_proposals
            else (AskFilters(now=self.clock.now()), [])
        )
        topic = analysis.content_keywords or ""
        if analysis.proposer and filters.proposer_id is None and notes:
            topic = f"{topic} {analysis.proposer}"
        keywords = " ".join(keyword_terms(topic)) or None
        # Two embeddings in one model call: the question's, which passages, sentences,
        # facts and the reading of its form (reading.py) are compared with, and the
        # topic's, which proposals are (short topics embed poorly inside a sentence about
        # proposals). Proposals are searched by the topic whatever the cue says (the cue is
        # evidence for the decision, not a verdict): "anything to do with time off?" names
        # no proposal, yet its topic is one.
        vectors = await self.vectors.embed([text, keywords] if keywords else [text])
        embedding, topic_vector = vectors[0], vectors[-1]
        outcome, found, facts = await asyncio.gather(
            self.search.search(
                filters, keywords, topic_vector, language=analysis.language, question=embedding
            ),
            self.passage_search.search(text, embedding),
            self.fact_search.search(text, embedding),
        )
        best = await self._sentences(text, embedding, found, analysis.language)
        # what was just retrieved, as the lexical index reads it; read only for terms
        # the community's words (read minutes ago) do not hold
        seen = chain(
            found.contents.values(),
            (h.title for h in found.hits),
            (proposal_text(r.proposal.title, r.proposal.description, r.proposal.options)
             for r in outcome.candidates),
            (fact_text(s.fact.subject, s.fact.predicate, s.fact.object)
             for s in (facts.result.relevant_facts if facts else ())),
        )  # fmt: skip
        # a date is read as a filter, not searched as a word: "closed in August" mentions
        # no month the community's texts need to
        content = text.replace(analysis.date_phrase, " ") if analysis.date_phrase else text
        unmentioned = await self.spelling.unmentioned(content, analysis.language, seen)
        help_strength = 0.0
        if HOW_TO.match(text) and not about_proposals:
            manual = await self.help.scored(text, embedding)
            help_strength = manual[0][0] if manual else 0.0
        form = reading().read(text, embedding) if analysis.language == "en" else None
        read = decision.signals(
            text,
            analysis.intent,
            filters.active,
            keywords,
            outcome,
            found.hits,
            best,
            facts,
            analysis.language,
            form,
            unmentioned,
        )
        return Gathered(
            analysis, filters, notes, keywords, embedding, outcome, found, best,
            facts.result if facts else None, help_strength, read, facts, text,
        )  # fmt: skip

    async def _answer(
        self,
        text: str,
        analysis: AskAnalysis,
        user_id: int | None,
        tr: Translator,
        pointers: Pointers,
    ) -> AskResponse:
        """Search all three sources, then let the fitted decision say which answers."""
        g = await self.gather(text, analysis, user_id, tr)
        analysis, passages = g.analysis, g.found.hits
        if g.help_strength >= HELP_STRONG and g.signals.passage_cosine < DOC_STRONG:
            entries = await self.help.best(text, g.embedding, tr.language)
            return await self.help.answer(text, entries, self.llm, tr.language)
        chosen = decision.decide(g.signals)
        notice = _vote_notice(text, analysis.language, pointers)
        if notice == pointers.own_vote and not (
            g.outcome.ranked and (g.keywords or g.filters.active)
        ):
            return AskResponse(  # names no proposal found: a list would answer nothing
                question=text, intent=INTENT_PROPOSALS, answer=tr(notice),
                filters=g.filters,
            )  # fmt: skip
        about_votes = notice is not None
        listed = chosen.source == "proposals" or about_votes
        # A list the question asks for (by its filters, or by its form: "any proposals
        # about pets?") is a listing our search composes, led by what it found and how,
        # not an answer for a model to write: a small model lists worse than the fitted
        # cut, and its lead over a list told open votes as decided ("lightning talks will
        # be streamed in 2027"). A question answered from a proposal's content ("how much
        # would the new machine cost?": its description says more than its title about it)
        # is read; offline, that detail leads the listing.
        detail = _detail(g, text, tr) if chosen.source == "proposals" and not about_votes else None
        asks_list = g.filters.active or (g.signals.form_proposals >= 0.5 and detail is None)
        listing = about_votes or (chosen.source == "proposals" and asks_list)
        llm = self.llm
        if llm.has_model and not listing:  # the model reads what was found first
            read = await grounded.answer(text, g, llm, tr, self._english, chosen)
            if read is not None:
                return read
            llm = LLMService()  # the model was not asked or did not answer: offline stands
        if listed:
            return self._proposals(
                text, g.filters, g.keywords, g.outcome, passages, g.notes,
                _why_proposals(g), tr, pointers, notice, detail,
            )  # fmt: skip
        if chosen.source == "facts" and g.facts is not None and g.facts.relevant_facts:
            return await knowledge_answers.facts(text, g.facts, passages, llm, tr, FACTS_NAMED)
        if chosen.source == "documents" and passages:
            return await knowledge_answers.documents(text, passages, llm, tr, PASSAGE_BEST, g.best)
        if chosen.intent == INTENT_PROPOSALS:  # nothing answers a question for proposals:
            # say so as a search of proposals, with what it searched, and list none
            none = replace(g.outcome, ranked=[], total=0, by_words=0, by_meaning=0)
            return self._proposals(
                text, g.filters, g.keywords, none, passages, g.notes,
                _why_proposals(g, listed=False), tr, pointers,
            )  # fmt: skip
        return AskResponse(
            question=text,
            intent=chosen.intent,
            answer="\n\n".join([tr(say.NO_ANSWER), tr(pointers.elsewhere)]),
            content_keywords=analysis.content_keywords,
        )

    def _proposals(
        self,
        text: str,
        filters: AskFilters,
        keywords: str | None,
        outcome: SearchOutcome,
        passages: list[DocumentHit],
        notes: list[str],
        why: str,
        tr: Translator,
        pointers: Pointers,
        notice: str | None = None,
        detail: str | None = None,
    ) -> AskResponse:
        """A listing: what was found and how, then the proposals (our words, not a
        model's: see _answer). ``detail``: what the best one says about the question,
        beyond its title ("how much would the new dryer cost?"), leads."""
        found = outcome.proposals[: say.LIST_LIMIT]
        related = [h for h in passages if h.similarity >= RELATED_DOC] if keywords else []
        sections = [say.proposals_lead(text, filters, keywords, found, outcome.total, tr)]
        if detail:
            sections.insert(0, detail)
        if notice:  # privacy: a vote is seen by its voter only
            sections.insert(0, tr(notice))
        if found:
            sections.append("\n".join(say.listing(found, outcome.total, tr, filters.now)))
        if related:
            sections.append(say.related_documents(related[:2], tr))
        how = say.proposals_how(
            filters, keywords, outcome.filtered_total, outcome.total, outcome.by_words,
            outcome.by_meaning, tr, outcome.meaning,
        )  # fmt: skip
        because = tr("I answered from proposals because {why}.", why=tr(why))
        sections.append(" ".join([how, because, *notes]))
        if (hint := pointers.after(found, tr)) is not None:
            sections.append(hint)
        return AskResponse(
            question=text,
            intent=INTENT_PROPOSALS,
            answer="\n\n".join(sections),
            content_keywords=keywords,
            filters=filters,
            proposals=outcome.proposals,  # all matches; the text lists the first ones
            documents=related[:2],
        )

    # -- documents and facts ------------------------------------------------------------

    async def _embed(self, text: str) -> np.ndarray:
        return (await self.vectors.embed([text]))[0]

    async def _sentences(
        self, text: str, embedding: np.ndarray, found: Found, language: str
    ) -> list[sentences.Scored]:
        """Every unit of the best documents, scored against the question (their vectors
        come from the index: no model call)."""
        candidates: list[sentences.Candidate] = []
        blocks = []
        best = list(dict.fromkeys(h.document_id for h in found.hits))[: sentences.DOCUMENTS]
        read = await self.units.many([(d, found.contents[d]) for d in best])  # one index read
        for document_id, (units, matrix) in zip(best, read, strict=True):
            hit = next(h for h in found.hits if h.document_id == document_id)
            candidates += [sentences.Candidate(u, hit, units, i) for i, u in enumerate(units)]
            blocks.append(matrix)
        if not candidates:
            return []
        rows = sentences.features(
            text, embedding, candidates, np.vstack(blocks), found.hits, found.contents, language
        )
        return sentences.rank(candidates, rows)


def _detail(g: Gathered, question: str, tr: Translator) -> str | None:
    """What one proposal says that the question asks beyond naming it ("what does the
    washing machine proposal cost"), when it asks about one: no filter, and its form
    reads as asking for no list or one proposal matched (say.proposal_detail)."""
    ranked = g.outcome.ranked
    one = len(ranked) == 1 or g.signals.form_proposals < 0.5
    if g.filters.active or not ranked or not one:
        return None
    best = ranked[0].proposal
    options = [say.options_line(best, tr) + "."] if best.options else []
    return say.proposal_detail(best, question, options)


def _vote_notice(question: str, language: str, pointers: Pointers = MEMBERS) -> str | None:
    """The privacy rule a question about votes is answered with first (who cast them,
    or the asker's own, in the words of ``pointers``), or None when it asks about no vote."""
    if asks_who_voted(question, language):
        return say.VOTERS_UNSEEN
    return pointers.own_vote if asks_own_vote(question) else None


def _why_proposals(g: Gathered, listed: bool = True) -> str:
    """Why proposals answer; ``listed``: some are listed (else none matched, and none
    that contains the question's words is shown, so the reply does not say so)."""
    if g.filters.active:
        return N_("it asks for proposals by status, type, date or proposer")
    if listed and g.signals.proposal_cover == 1.0:
        return N_("it asks about proposals, and some contain its words")
    return N_("it asks about proposals")


@dataclass(frozen=True, slots=True)
class Gathered:
    """What the searches found for one question, and the signals read from it."""

    analysis: AskAnalysis
    filters: AskFilters
    notes: list[str]
    keywords: str | None
    embedding: np.ndarray  # the question's
    outcome: SearchOutcome
    found: Found
    best: list[sentences.Scored]
    facts: AskResult | None
    help_strength: float
    signals: decision.Signals
    paths: FactsFound | None = None  # the fact paths behind ``facts``, best first
    question: str = ""  # as read: typos mended


def _corrected(response: AskResponse, asked: str, fixes: list[Fix], tr: Translator) -> AskResponse:
    """The answer to the corrected question, for the question as asked, saying what was
    read otherwise (in "How I found this", or last when there is no such line)."""
    note = describe(fixes, tr)
    how = tr("How I found this: {steps}.", steps="|").split("|")[0]
    if how in response.answer:
        response.answer = response.answer.replace(how, f"{how}{note} ", 1)
    else:
        response.answer = f"{response.answer}\n\n{note}"
    response.question = asked
    return response


_TARGET = re.compile(r"^\s*(#)?(\d{1,9})\b[\s:,.-]*(.*)$", re.S)  # ids fit 32 bits
# "tell me about proposal 41", "what are the options of #12"
_MENTION = re.compile(r"(#|\bproposal\s+(?:#|no\.?\s*|number\s+)?)(\d{1,9})\b", re.I)
