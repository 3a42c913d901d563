"""Whether what the chosen source found answers the question, or only lies near it.

routing.decide picks the source that matched best; this module then reads what that
source found against the question, and an answer is given only when nothing is
missing:

- what the question names is in it, in some form or close in meaning ("my boat" is not
  near the parking policy; "the football team" is not the Events Team): coverage;
- a loosely matching passage covers the rest of the question's words when they pull
  away from it ("what do dogs eat?"), and gives the price or weight asked for: coverage;
- it is the kind of answer the question asks for (a time, a place, a number, someone,
  the attribute named: answer_kinds), and speaks of the thing asked to exist, the count,
  the verb or the doing asked about (things_asked; for facts, fact_gaps).

The gap found is said in the "nothing found" answer, so a member sees why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from app.core.ask import answer_kinds, coverage, fact_gaps, routing, stated, things_asked
from app.core.ask import answers as say
from app.core.ask.analysis import INTENT_DOCS, INTENT_FACTS
from app.core.ask.answer_kinds import ATTRIBUTE_NEAR, Kind
from app.core.ask.chatter import question_clause, standalone
from app.core.ask.command_reference import HelpEntry
from app.core.ask.models import DocumentHit
from app.core.graph.graph_answers import said, said_every_way
from app.core.graph.graph_results import AskResult
from app.core.graph.proposal_facts import is_proposal_source
from app.i18n import Translator
from app.nlp.key_terms import normalize, page_words
from app.services.vector_db_service import CHUNKS, WORDS, VectorDBService

_WORDS = re.compile(r"[a-z0-9]+")
# Cosine of two words alone (MiniLM, int8) that makes one stand for the other: "gym" and
# "fitness" 0.74, "bicycle" and "bike" 0.92; "vet" and "pets" 0.63, "lift" and "elevator"
# 0.62, "treadmill" and "machines" 0.43 do not.
SYNONYM_NEAR = 0.7
# A word the community never uses, close in meaning to the passage quoted, must also be
# this close to one of its page's words: "clothes" to "laundry" 0.69, "gym" to "fitness";
# not "orchestra" (0.60) nor "choir" (0.55) to "music", nor "elevator" to "corridor".
SUBJECT_SYNONYM = 0.65
# What a "can I ...?" question wants to do may be said loosely on the page: "trainers"
# and "shoes" 0.50.
DOING_NEAR = 0.5
PAGE_WORDS_KEPT = 4096


@dataclass(frozen=True, slots=True)
class Question:
    """A question as the checks read it: its text, whether it is English, what was found
    for it, the manual's entries (for help), its subject words (``named``) and content
    words (``asked``), both embedded in ``word_vectors``."""

    text: str
    english: bool
    found: routing.Evidence
    entries: list[HelpEntry]
    named: list[str]
    asked: list[str]
    word_vectors: dict[str, np.ndarray]
    tr: Translator


@dataclass(frozen=True, slots=True)
class Gap:
    """What keeps what was found from answering: words it leaves out (``foreign``: those
    the community never uses), or the kind of answer it does not give."""

    missing: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    kind: Kind | None = None

    def __bool__(self) -> bool:
        return bool(self.missing) or self.kind is not None

    def intent(self, source: str) -> str | None:
        """A question a passage or the facts nearly answered stays a question about them."""
        if self.foreign:
            return None
        if source == "documents" and self.missing:
            return INTENT_DOCS
        return INTENT_FACTS if source == "facts" else None

    def unsaid(self, source: str, tr: Translator) -> str:
        """The sentence saying why nothing found answers ("" when nothing was found)."""
        if self.foreign:
            return tr(
                "Nothing I have is about {words}, although some of it shares other words "
                "with your question.",
                words=say.quoted(self.foreign, tr),
            )
        if self.kind is not None:
            return tr(self.kind.unsaid)
        if self.missing and source == "help":
            return tr(
                "My command reference says nothing about {words}.",
                words=say.quoted(self.missing, tr),
            )
        if self.missing and source == "facts":
            return tr(
                "The facts I found say nothing about {words}.", words=say.quoted(self.missing, tr)
            )
        if self.missing:
            return tr(
                "The closest passage I found says nothing about {words}.",
                words=say.quoted(self.missing, tr),
            )
        return ""


class AnswerChecks:
    """The checks, with the quoted passage's stored vector read from the index (once)
    when one needs it."""

    def __init__(self, vectors: VectorDBService) -> None:
        self.vectors = vectors
        self._page_words: dict[str, np.ndarray] = {}  # the words of pages quoted, kept

    async def settle(self, question: Question, route: routing.Route) -> tuple[routing.Route, Gap]:
        """The route that answers and what it leaves out. When the facts miss words that
        a passage clearly about the question names, and it answers, the page does: "when
        is the bike repair workshop held?" is the bike storage page's, not the Repair
        Café's. Only for "when" and "where": the page naming the treasurer does not say who
        was before Bob, nor "bands may rehearse" which bands do."""
        gap = await self._gap(question, route)
        found, text = question.found, question.text
        if route.source != "facts" or not gap.missing or gap.kind:
            return route, gap
        kind = answer_kinds.asked_kind(text)  # when or where: a page says it of a thing
        if found.doc_strength < routing.DOC_STRONG or kind not in (Kind.TIME, Kind.PLACE):
            return route, gap
        quoted = [h.content for h in found.passages[:1]]
        if coverage.uncovered(gap.missing, quoted, {}):
            return route, gap
        paged = routing.Route("documents", routing.PASSAGE_BEST)
        again = await self._gap(question, paged)
        return (route, gap) if again else (paged, again)

    async def _gap(self, question: Question, route: routing.Route) -> Gap:
        """What the route's source leaves out."""
        text, english, found = question.text, question.english, question.found
        named, asked, word_vectors = question.named, question.asked, question.word_vectors
        entries, tr = question.entries, question.tr
        passages, facts = found.passages, found.facts
        words, text = text, question_clause(text, inner=True)  # its form, past any greeting
        # ("hey, random question: who ...?"); what it names is read in all of it
        quoted = _QuotedVector(self.vectors, passages)
        missing = await _uncovered(
            route, passages, facts, entries, named, word_vectors, tr, quoted,
            coverage.keyword_query(text),
        )  # fmt: skip
        documents = route.source == "documents"
        if not missing and documents and named:  # near in meaning, and a synonym too:
            # "the orchestra" is near the music rehearsal rules, and no word of them
            only_near = coverage.uncovered(named, [h.content for h in passages], {})
            missing = await self._unnamed(only_near, passages, word_vectors, SUBJECT_SYNONYM)
        if not missing and documents and found.doc_strength < routing.DOC_SURE:
            missing = await _loose(passages, asked, word_vectors, quoted)
        if not missing and documents and english:  # on the page quoted: the budget's
            # prices do not say what a parking space costs
            missing = coverage.unmet_quantity(text, _same_page(passages))
        if not missing and route.source == "facts" and facts is not None and english:
            missing = _unnamed_in_facts(standalone(words), facts)
        if not missing and route.source == "help" and english and entries:
            missing = _help_left_out(asked, entries, tr)
        if missing or not english:
            return Gap(missing, [w for w in missing if w in named])
        if route.source == "facts" and facts is not None:
            left, kind = fact_gaps.facts_gap(text, facts, words)
            return Gap(left, kind=kind)
        if documents and passages:
            texts = [h.content for h in passages[: coverage.PASSAGES_READ]]
            left_out = _names_left_out(words, facts, texts)
            if left_out:
                return Gap(left_out)
            gap = await _passages_gap(text, passages, word_vectors, quoted)
            if gap:
                return gap
            page = _same_page(passages)
            # "the deposit for the music rehearsal room" on the event room's page
            mods = coverage.unnamed_modifiers(text, page, headed=True)
            other = await self._unnamed(mods, passages, word_vectors) if mods else []
            if other:
                return Gap(other)
            things = [*things_asked.thing_asked(text), *answer_kinds.which_thing(text)]
            things += things_asked.rule_topic(text)  # "our policy on pet birds"
            if answer_kinds.asked_kind(text) is Kind.PLACE:  # "where can I wash my car?"
                things += things_asked.owned(text)
            left = await self._unnamed(things, passages, word_vectors)
            if answer_kinds.asked_kind(text) is Kind.PERSON:  # the passage quoted speaks
                # of the doing asked about, or a synonym: "who cleans the reception?" is
                # not answered by a box emptied there
                doing = answer_kinds.doing_words(text)
                left += await self._unnamed(doing, passages[:1], word_vectors)
            undone = things_asked.undone(text, page)  # "can I smoke in ...?"
            if undone:  # none of the doing on the page, nor a word near one of it
                far = await self._unnamed(undone, passages, word_vectors, DOING_NEAR)
                undone = far if len(far) == len(undone) else []
            # "is the fitness room wheelchair accessible?": the property, or a word near it
            quality = things_asked.property_asked(text, page)
            unsaid = (
                await self._unnamed(quality, passages, word_vectors, DOING_NEAR) if quality else []
            )
            if not unsaid:  # "when is the glass container emptied?", "the members' wifi
                # password": a time, a price or a value stated of the thing asked about
                none, unsaid = stated.unstated(text, passages[0].title, page)
                if none:
                    return Gap(kind=Kind.VALUE)
            how = things_asked.how_doing(text)  # "how do I book the phone booths?"
            if how and not unsaid:  # the page speaks of it, or of a word near it
                unsaid = await self._unnamed(how, passages, word_vectors, DOING_NEAR)
            return Gap(left + undone + unsaid)
        return Gap()

    async def _read_words(self, words: list[str]) -> None:
        """Keep the vectors of ``words``: from the index, where documents' words are
        embedded when they are imported; a word it lacks (a page indexed before) is
        embedded here and stored for the next question."""
        fresh = [w for w in words if w not in self._page_words]
        if not fresh:
            return
        if len(self._page_words) + len(fresh) > PAGE_WORDS_KEPT:
            self._page_words.clear()
        self._page_words.update(await self.vectors.vectors(WORDS, fresh))
        unknown = [w for w in fresh if w not in self._page_words]
        if unknown:
            vectors = await self.vectors.embed(unknown)
            self._page_words.update(zip(unknown, vectors, strict=True))
            await self.vectors.upsert_words(unknown, vectors)

    async def _unnamed(
        self,
        things: list[str],
        passages: list[DocumentHit],
        word_vectors: dict[str, np.ndarray],
        near: float = SYNONYM_NEAR,
    ) -> list[str]:
        """The words of ``things`` that the page quoted contains in no form and has no
        word ``near`` in meaning to (word to word, SYNONYM_NEAR by default: "gym" is the
        fitness room; a treadmill is not "machines", nor a vet "pets"). Its words are
        embedded once and kept (PAGE_WORDS_KEPT)."""
        page = _same_page(passages)
        left = coverage.uncovered(things, page, {})
        words = sorted({w for text in page for w in page_words(text)})
        if not left or not words:
            return left
        await self._read_words(words)
        matrix = np.stack([self._page_words[w] for w in words])
        closest = {w: float(np.max(matrix @ word_vectors[w])) for w in left if w in word_vectors}
        return [w for w in left if closest.get(w, 0.0) < near]


class _QuotedVector:
    """The vector of the passage an answer would quote, read from the index once per
    question, when a check first needs it."""

    def __init__(self, vectors: VectorDBService, passages: list[DocumentHit]) -> None:
        self._vectors, self._passages = vectors, passages
        self._value: list[np.ndarray] | None = None

    async def get(self) -> list[np.ndarray]:
        if self._value is None:
            ids = [h.chunk_id for h in self._passages[:1]]
            self._value = list((await self._vectors.vectors(CHUNKS, ids)).values()) if ids else []
        return self._value


async def _passages_gap(
    text: str,
    passages: list[DocumentHit],
    word_vectors: dict[str, np.ndarray],
    quoted: _QuotedVector,
) -> Gap:
    """A number asked for and none given; the attribute or the thing the answer is
    ("what brand ...?") not in the passages, nor close in meaning to the one quoted;
    for "who does ...", the doing not in the passage quoted."""
    kind = answer_kinds.asked_kind(text)
    texts = [h.content for h in passages[: coverage.PASSAGES_READ]]
    if kind is not None and not answer_kinds.passages_give(kind, texts, text):
        return Gap(kind=kind)
    # the document quoted (its passages found) gives what is asked: "the phone number
    # for reception" is not in the keys page because the noise page mentions phones
    same_page = _same_page(passages)
    if things_asked.uncounted(text, same_page):  # the dogs of the pets page, never counted
        return Gap(kind=Kind.NUMBER)
    made = things_asked.made_left(text, same_page)  # "who built the rehearsal room?"
    if made:
        return Gap(made)
    # "which vet ...": the page names one, or a synonym (AnswerChecks._unnamed)
    asked = [*answer_kinds.attribute_words(text), *answer_kinds.focus_words(text, which=False)]
    left = coverage.uncovered(list(dict.fromkeys(asked)), same_page, {})
    if kind is Kind.PERSON:  # the page speaks of what the doing asked about is done to
        # ("who cleans the windows?"); the doing itself: AnswerChecks.gap
        done_to = [w for phrase in coverage.named_phrases(text) for w in phrase]
        left += coverage.uncovered([w for w in done_to if w not in left], same_page, {})
    if left:  # close in meaning to the passage quoted will do ("spot" for parking)
        vectors = await quoted.get()
        left = coverage.uncovered(left, texts[:1], word_vectors, vectors, near=ATTRIBUTE_NEAR)
    return Gap(left)


def _same_page(passages: list[DocumentHit]) -> list[str]:
    """The passages read that come from the document of the one quoted."""
    read = passages[: coverage.PASSAGES_READ]
    return [h.content for h in read if h.document_id == passages[0].document_id]


async def _uncovered(
    route: routing.Route,
    passages: list[DocumentHit],
    facts: AskResult | None,
    entries: list[HelpEntry],
    named: list[str],
    word_vectors: dict[str, np.ndarray],
    tr: Translator,
    quoted: _QuotedVector,
    keyword: bool = False,
) -> list[str]:
    """What the question names that what would answer it is not about ("my boat"
    near the parking policy); passages are compared in meaning too (coverage)."""
    if not named:
        return []
    vectors: list[np.ndarray] = []
    if route.source == "documents":
        # a keyword query's words, on the page quoted: "cat food" is not pets + kitchen
        answers = _same_page(passages) if keyword else [h.content for h in passages]
        vectors = await quoted.get()  # in meaning, the passage the answer quotes
    elif route.source == "facts" and facts is not None:
        answers = [said(s.fact) for s in facts.relevant_facts]
    elif route.source == "help":
        answers = [e.searchable(tr(e.usage), tr(e.text)) for e in entries]
    else:
        return []
    return coverage.uncovered(named, answers, word_vectors, vectors) if answers else []


async def _loose(
    passages: list[DocumentHit],
    asked: list[str],
    word_vectors: dict[str, np.ndarray],
    quoted: _QuotedVector,
) -> list[str]:
    """The words of the question a loosely matching passage says nothing about, when
    the rest of the question pulls away from it (coverage.off_passage)."""
    if not asked or not passages:
        return []
    return coverage.off_passage(
        asked, [h.content for h in passages], word_vectors, await quoted.get(),
        passages[0].similarity,
    )  # fmt: skip


def _unnamed_in_facts(question: str, facts: AskResult) -> list[str]:
    """The words of what the question names ("the football team") that the fact the
    answer leads with does not contain: it is about another thing sharing a word
    ("Events Team"), however many facts about the right one follow ("Green Committee
    chaired by Alice" for "who chairs the house committee?"). A path followed to its end
    answers."""
    if facts.chain is not None and facts.chain.complete:
        return []
    texts = [said(s.fact) for s in facts.relevant_facts]
    lead = [facts.answer_text.split(";")[0]] if facts.answer_text else texts[:1]
    lead = [said_every_way(lead[0], lead[0])] if lead else lead
    left = coverage.unnamed_modifiers(question, lead) if texts else []
    if left:  # "the kitchen cleaning rota": a fact ties the kitchen to the Cleaning Rota
        ties = _neighbours(facts, lead[0])
        left = coverage.uncovered(left, ties, {}) if ties else left
    return left


def _neighbours(facts: AskResult, lead: str) -> list[str]:
    """The community's own facts found that share a name with the fact the answer leads
    with ("Kitchen cleaned by Cleaning Rota" beside "Cleaning Rota coordinated by Greta")."""
    own = [s.fact for s in facts.relevant_facts if not is_proposal_source(s.fact.source)]
    led = normalize(lead)
    names = {n for f in own if normalize(f"{f.subject} {f.predicate} {f.object}") in led
             for n in (normalize(f.subject), normalize(f.object))}  # fmt: skip
    return [
        f"{f.subject} {f.predicate} {f.object}"
        for f in own
        if names & {normalize(f.subject), normalize(f.object)}
    ]


def _names_left_out(question: str, facts: AskResult | None, texts: list[str]) -> list[str]:
    """The words of a name the graph knows ("Events Team") that the question uses in full
    and no passage contains: a page about the event room is not about the events team."""
    if facts is None:
        return []
    asked = f" {' '.join(_WORDS.findall(normalize(question)))} "
    names = {
        name
        for s in facts.relevant_facts
        if not is_proposal_source(s.fact.source)
        for name in (s.fact.subject, s.fact.object)
    }
    left: list[str] = []
    for name in names:
        words = _WORDS.findall(normalize(name))  # the graph's lookup form: "repair cafe"
        if len(words) > 1 and f" {' '.join(words)} " in asked:
            left += coverage.uncovered(words, texts, {})
    return list(dict.fromkeys(left))


def _help_left_out(asked: list[str], entries: list[HelpEntry], tr: Translator) -> list[str]:
    """The question's words the manual's best entries leave out, when they are half of
    them or more: "how do I set a reminder on my phone?" is not about a proposal's
    deadline, "how do I delete my account?" not about deleting a document."""
    texts = [e.searchable(tr(e.usage), tr(e.text)) for e in entries]
    left = coverage.uncovered(asked, texts, {})
    return left if len(left) * 2 >= len(asked) else []
