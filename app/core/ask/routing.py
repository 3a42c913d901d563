"""Which source answers a question: decided from its cues and from what each source found.

Every question is searched in all three sources with the one question embedding
(proposals inside the filters read, document passages, facts) before anything is
decided, because word lists alone misroute ordinary questions: "open" in "is the gym
open on Sundays?" is not a status, and "how is a proposal approved?" asks about a
rule, not for a list. The reading of the question (rules or a model) is one cue
among others; how strongly each source matched decides the rest. The decision
carries a reason in plain words, which the answer shows under "How I found this".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from app.core.ask import answers as say
from app.core.ask.analysis import (
    DOC_WORDS,
    HOW_TO,
    INTENT_DOCS,
    INTENT_FACTS,
    INTENT_PROPOSALS,
    PROPOSAL_WORDS,
    RULE_NOUNS,
    AskAnalysis,
)
from app.core.ask.chatter import question_clause
from app.core.ask.models import DocumentHit
from app.core.ask.proposal_search import SearchOutcome
from app.core.graph.graph_results import AskResult
from app.core.graph.proposal_facts import is_proposal_source
from app.domain.messages import N_
from app.nlp.key_terms import normalize

Source = Literal["proposals", "documents", "facts", "help", "nothing"]

DOC_STRONG = 0.45  # a passage clearly about the question
DOC_CLEAR = 0.5  # a passage clear enough to answer a rule question that names proposals
DOC_SURE = 0.5  # a passage this close answers even without a word of the question
FACT_STRONG = 0.5  # a fact that names the question's entity and relation
FACT_NAMED = 0.4  # a fact about an entity the question names
HELP_STRONG = 0.55  # the manual covers a how-to question (its words are checked after)

# A question about how things work, as opposed to one asking for a list: "how is a
# proposal approved?", "what's the quorum for a vote?", "can I cancel a proposal?".
RULE_QUESTION = re.compile(
    r"^\s*(?:how(?! many (?:proposals|polls|ideas|votes were))\b|why\b|what happens\b|"
    r"when (?:is|are|does|do|can|will|should) (?:a|an|any)\b|"  # "when is a poll approved?"
    r"what(?:'s|s| is) the (?!status\b|result|outcome|deadline)|what does it take\b|"
    r"can (?:i|we|an?|the|you|someone|anyone|members?|admins?)\b|"
    r"is it (?:allowed|possible)\b|do (?:i|we) need\b|who (?:has to|must|can|needs to)\b)",
    re.I,
)
QUESTION_WORD = re.compile(
    r"^\s*(?:where|when|how|what time|until when|can|could|may|is|are|do|does)\b", re.I
)
WH_QUESTION = re.compile(
    r"^\s*(?:(?:on|in|at|for|from|with|to|by) )?"
    r"(?:who|whom|whose|what|where|when|which|how many)\b",
    re.I,
)
# "the post office", "the supermarket": a thing the question is about, by its article
NAMED_THING = re.compile(r"\b(?:the|a|an|my|our)\s+(?!proposals?\b|polls?\b)[a-z]{3,}", re.I)
# When a thing opens, how big it is, what it is made of, who does something to it: no list
# of proposals answers that, whatever proposal shares its words ("who teaches the yoga
# class?" is not #47, which says who proposed it), unless it names proposals, votes or
# their deadlines. "When is the pizza party?" may be: the proposal chose its date.
ELSEWHERE = re.compile(
    r"^\s*(?:(?:when|what time|until when) (?:does|do|is|are) .+\b(?:open|opens|close|closes)\b|"
    r"how (?:old|tall|big|large|far|long|heavy|loud|often|fast|wide|deep)|"
    r"what (?:colou?r|material|brand|model|size)|.*\bmade (?:of|from)\b|"
    r"(?:what|which)\b.*\bopening (?:hours|times)\b|"
    r"who(?!.*\b(?:propos\w*|suggest\w*|submit\w*|start\w*|creat\w*|voted|want\w*)\b))"
    r"\b(?!.*\b(?:proposals?|polls?|votes?|voting|ballots?|ideas?|"
    r"deadlines?|closing|ends?|decided)\b)",
    re.I,
)
TOPIC_MEANING = 0.3  # a proposal named by a bare topic must also be close in meaning
PASSAGE_BEST = N_("a document passage matches it best")
# "what is our policy on solar panels on balconies?": a rule, which no fact states
RULES_ASKED = re.compile(rf"\b(?:{RULE_NOUNS})\b", re.I)
LISTING = re.compile(
    r"^\s*(?:which|list|show|find|any|are there|is there|were there|has anyone|did anyone|"
    r"did someone|what (?:proposals|polls|ideas|votes))\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the three searches found for one question."""

    proposals: SearchOutcome
    passages: list[DocumentHit]
    facts: AskResult | None
    keywords: str | None
    help_strength: float = 0.0  # how well the bot's manual covers a how-to question

    @property
    def doc_strength(self) -> float:
        return self.passages[0].similarity if self.passages else 0.0

    @property
    def fact_strength(self) -> float:
        if self.facts is None or not self.facts.relevant_facts:
            return 0.0
        if self.facts.chain is not None and self.facts.chain.complete:
            return 1.0
        return self.facts.relevant_facts[0].relevance

    @property
    def own_facts(self) -> bool:
        """Facts drawn from proposals say less than the proposals themselves."""
        top = (
            self.facts.relevant_facts[0].fact if self.facts and self.facts.relevant_facts else None
        )
        return top is not None and not is_proposal_source(top.source)

    def facts_about_question(self, question: str) -> bool:
        """A found fact names something the question names: a fact that matched on its
        relation alone ("X managed by Y" for "who manages the swimming pool?") does not
        answer. A path followed to its end always does."""
        if self.facts is None:
            return False
        if self.facts.chain is not None and self.facts.chain.complete:
            return True
        return any(
            say.shares_words(question, f"{s.fact.subject} {s.fact.object}")
            for s in self.facts.relevant_facts[:3]
        )

    def fact_names_entity(self, question: str) -> bool:
        """A found fact is about a thing the question names in full ("the wifi router")."""
        if self.facts is None:
            return False
        asked = f" {' '.join(re.findall(r'[a-z0-9]+', normalize(question)))} "
        for scored in self.facts.relevant_facts[:3]:
            if is_proposal_source(scored.fact.source):
                continue  # "has status open" names no thing
            for name in (str(scored.fact.subject), str(scored.fact.object)):
                words = " ".join(re.findall(r"[a-z0-9]+", normalize(name)))
                if len(words) > 3 and f" {words} " in asked:
                    return True
        return False

    def passages_share_words(self, question: str) -> bool:
        """A weak passage must at least name what the question is about."""
        return any(say.shares_words(question, h.content) for h in self.passages[:2])

    @property
    def passages_about_proposals(self) -> bool:
        """A passage speaks of proposals, votes or polls (the decision rules do)."""
        return any(PROPOSAL_WORDS.search(h.content) for h in self.passages[:2])

    @property
    def every_word_in_a_proposal(self) -> bool:
        return any(r.coverage == 1.0 for r in self.proposals.ranked)

    @property
    def proposal_named(self) -> bool:
        """Some proposal contains every word and is about it in meaning too."""
        return any(
            r.coverage == 1.0 and (r.similarity or 0.0) >= TOPIC_MEANING
            for r in self.proposals.ranked
        )


@dataclass(frozen=True, slots=True)
class Route:
    source: Source
    why: str
    intent: str | None = None  # the question's intent, when the evidence changed it


def asks_how_it_works(question: str) -> bool:
    """A rule question, not a request for a list of proposals."""
    return bool(RULE_QUESTION.match(question)) and not LISTING.match(question)


def decide(
    question: str, analysis: AskAnalysis, found: Evidence, rules: AskAnalysis | None = None
) -> Route:
    """The source that answers, and why, in the words "How I found this" uses.

    ``analysis`` is the backend's reading (a model's, or the rules'); ``rules`` is the
    rules' reading when a model read the question: a model that calls "is the gym
    open?" a proposal question is overruled when the rules see no proposal in it and a
    document answers it clearly.
    """
    doc, fact = found.doc_strength, found.fact_strength
    words, question = question, question_clause(question)  # its form, past any greeting
    if (
        rules is not None
        and analysis.intent == INTENT_PROPOSALS
        and rules.intent != INTENT_PROPOSALS
        and doc >= DOC_CLEAR
        and found.passages_share_words(words)
        and not found.every_word_in_a_proposal
    ):
        return Route(
            "documents",
            N_("a document answers it clearly and nothing in it asks for proposals"),
        )
    if analysis.intent == INTENT_PROPOSALS:
        if not LISTING.match(question) and not found.every_word_in_a_proposal:
            rule = RULE_QUESTION.match(question) and doc >= DOC_CLEAR
            empty = (
                QUESTION_WORD.match(question)
                and not found.proposals.ranked
                and found.passages_share_words(words)
                # "when does the vote on the sauna close?" is not about the sauna's hours
                and (not PROPOSAL_WORDS.search(question) or found.passages_about_proposals)
            )
            if rule or empty:
                return Route(
                    "documents",
                    N_(
                        "it asks how something works, and a document answers that more closely "
                        "than any proposal"
                    ),
                )
        if (
            not PROPOSAL_WORDS.search(question)
            and not found.proposals.ranked
            and QUESTION_WORD.match(question)
            and NAMED_THING.search(question)
        ):  # "when does the post office close today?": a thing, not proposals
            if found.passages and found.passages_share_words(words):
                return Route("documents", "it asks about a thing, and a document names it")
            return Route("nothing", "", INTENT_DOCS)
        return Route("proposals", _why_proposals(analysis, found))
    named = WH_QUESTION.match(question) and found.fact_names_entity(words)
    # With no passage at all, any fact of the community's own will do; facts drawn from
    # proposals ("#37 has status open") only answer when they match strongly.
    fallback = fact > 0 and not found.passages and (found.own_facts or fact >= FACT_STRONG)
    if analysis.intent == INTENT_FACTS:
        use_facts = fact >= FACT_STRONG or fallback
    else:  # an entity the graph knows beats a passage only loosely about it
        usable = found.own_facts or fact >= FACT_STRONG
        use_facts = (usable and fact >= FACT_NAMED and fact > doc + 0.05) or fallback
    use_facts = use_facts or bool(named and doc < DOC_SURE)
    use_facts = use_facts and found.facts_about_question(words)
    use_facts = use_facts and not RULES_ASKED.search(question)  # facts state no rule
    strongest = max(doc, fact if use_facts and found.own_facts else 0.0)
    topic_only = not DOC_WORDS.search(question) and found.keywords
    asked = QUESTION_WORD.match(question) and found.passages_share_words(words)
    listed = topic_only and found.proposal_named and not ELSEWHERE.match(question)
    if listed and strongest < DOC_STRONG and not (asked or named):
        return Route(
            "proposals",
            N_("a proposal contains every word of it, and no document or fact is clearly about it"),
        )
    if HOW_TO.match(question) and doc < DOC_STRONG and found.help_strength >= HELP_STRONG:
        return Route("help", N_("it asks how to do something, and no document covers it clearly"))
    if use_facts:
        return Route("facts", N_("the knowledge graph names what it asks about"))
    if found.passages and (doc >= DOC_SURE or found.passages_share_words(words)):
        return Route("documents", PASSAGE_BEST)
    if found.facts is not None and found.facts.chain is not None:
        return Route("facts", N_("the knowledge graph has part of the path it asks about"))
    return Route("nothing", "")


def _why_proposals(analysis: AskAnalysis, found: Evidence) -> str:
    if analysis.status or analysis.proposal_type or analysis.date_phrase or analysis.proposer:
        return N_("it asks for proposals by status, type, date or proposer")
    if found.every_word_in_a_proposal:
        return N_("it asks about proposals, and some contain its words")
    return N_("it asks about proposals")
