"""Finding the proposals a question is about: SQL filters, words and meaning combined.

Short topical queries embed poorly against whole proposals (see DESIGN.md's
retrieval notes), so neither signal decides alone:

- the filters narrow the candidates in SQL, and the vector query runs inside the
  same filters (Chroma metadata), not over the whole index;
- a lexical pass finds proposals whose title, description or options contain the
  keywords (stemmed, so "parking" finds "park" and "funding" finds "funds");
- a semantic pass finds proposals that mean the same in other words.

A proposal is kept when it matches as many keywords as the best lexical match,
or when its meaning is close enough: above an absolute floor and near the best
semantic score. Every hit is re-read from SQL with the filters, so a stale index
entry can never put a proposal that no longer matches into an answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from app.core.ask.analysis import STOP_WORDS
from app.core.ask.categories import Categories, on_label
from app.core.ask.chatter import CHATTER
from app.core.ask.models import DEADLINE, AskFilters
from app.core.ask.spelling import COMPOUND_PART, model_words
from app.core.ask.stemming import forms as language_forms
from app.core.ask.topic_phrase import is_bot_word
from app.core.ask.topics import Expansion, Vocabulary
from app.domain.models import Proposal, ProposalStatus
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.services.vector_db_service import PROPOSALS, VectorDBService

SEMANTIC_TOP_K = 40
LABEL_TOP_K = 80  # the proposals nearest a category's label vector
LEXICAL_LIMIT = 300  # filtered lists
WORD_LIMIT = 120  # proposals containing the words, those with the most of them first
# Cosine similarity of the keywords to a proposal's text (int8 MiniLM). Scores of
# short queries are low and bunch together, so a match on meaning is judged against
# the best match of this question: within SEMANTIC_RATIO of it and above the floor.
# When some proposals contain every keyword, meaning alone must come much closer
# to the best (SEMANTIC_RATIO_WITH_WORDS): it then only adds synonyms.
SEMANTIC_FLOOR = 0.35
# Several words embed as a whole: "kitchen robot" is close to anything about the kitchen,
# so meaning alone must come closer to count.
SEMANTIC_FLOOR_PHRASE = 0.45
# A proposal containing a word near the topic (topics.Vocabulary) is kept when that
# word is a near-synonym and the proposal's meaning is not far off, or when the two
# together are strong: a loose word in a proposal about something else is not enough.
TOPIC_SURE = 0.62
TOPIC_NEAR_MEANING = 0.2
TOPIC_SUM = 0.95
LABEL_EXAMPLE = 0.5  # the score of a proposal that names an example of the category
EXAMPLE_IN_PASSING = 0.25  # closeness to the label that an example in the text needs
# When no proposal contains a word of the topic (nor a near-synonym, nor an example of
# its category), meaning alone must be clear: "wine" is not the wind-power tariff.
SEMANTIC_FLOOR_ALONE = 0.45
# A word of a topic that a proposal found by meaning lacks must have a word this near it
# there (MiniLM, word to word): "lessons" has "beginners" (0.55) in the Spanish class,
# "competition" nothing in the potluck dinner (0.46), "cafe" nothing in the office cat.
WORD_NEAR = 0.5
SEMANTIC_RATIO = 0.6
SEMANTIC_RATIO_WITH_WORDS = 0.85
MIN_STEM = 4
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Ranked:
    proposal: Proposal
    score: float
    coverage: float  # share of the keywords found in its text
    similarity: float | None  # None when the semantic pass did not return it
    topic: float = 0.0  # closeness of the nearest topic word it contains
    label: float = 0.0  # closeness to the label vector of the category the topic names


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    ranked: list[Ranked]  # accepted proposals, best first (at most LEXICAL_LIMIT)
    total: int  # how many matched in all
    filtered_total: int | None  # proposals matching the filters alone (None: no filters)
    by_words: int  # accepted thanks to the words
    by_meaning: int  # accepted on meaning alone
    by_category: int = 0  # accepted as examples of the category the topic names
    category: str | None = None  # that category ("events")
    meaning: bool = True  # False: the embedding model does not read the question's language

    @property
    def proposals(self) -> list[Proposal]:
        return [r.proposal for r in self.ranked]


def keyword_terms(keywords: str | None) -> list[str]:
    """The search words of the keywords, lower-cased, without filler and duplicates. The
    bot's status words stay when the reading kept them ("about closing the space")."""
    if not keywords:
        return []
    words = [w.casefold() for w in _WORD.findall(keywords)]
    kept = [
        w for w in words
        if (w not in STOP_WORDS or is_bot_word(w)) and w not in CHATTER and len(w) > 1
    ]  # fmt: skip
    return list(dict.fromkeys(kept))


def _forms(word: str, language: str = "en") -> frozenset[str]:
    """The word's forms in the question's language (remembered: words recur)."""
    return language_forms(word, language)


@lru_cache(maxsize=4096)
def _stem(term: str, language: str = "en") -> str:
    """The shortest form of a word (at least MIN_STEM letters): the SQL search pattern."""
    forms = [f for f in _forms(term, language) if len(f) >= MIN_STEM] or [term]
    return min(forms, key=len)


def _patterns(words: Sequence[str], language: str) -> list[str]:
    """The SQL substrings for the words; a capitalised one too outside ASCII, where
    SQLite's LIKE does not fold case ("парковк" must find "Парковка")."""
    stems = [_stem(w, language) for w in words]
    stems += [s.capitalize() for s in stems if not s.isascii()]
    return list(dict.fromkeys(stems))


class _Words:
    """The words of a text and all their forms, computed once per candidate."""

    __slots__ = ("forms", "language", "words")

    def __init__(self, text: str, language: str = "en") -> None:
        self.language = language
        self.words = frozenset(w.casefold() for w in _WORD.findall(text))
        self.forms: frozenset[str] = frozenset().union(*(_forms(w, language) for w in self.words))

    def has(self, term: str) -> bool:
        # a shared stem of three letters is no match ("wine" and "wind" share "win"), nor
        # a month's name met by another word ("marching" is not "by March")
        shared = (_forms(term, self.language) & self.forms) - (_MONTHS - {term})
        if any(len(f) > 3 or f == term or f in self.words for f in shared):
            return True
        stem = _stem(term, self.language)  # "fund" finds "fundraising", not "elect" "electric"
        return len(stem) > MIN_STEM and any(
            w.startswith(stem) and _continues(w[len(stem) :], self.language)
            for w in self.words - (_MONTHS - {term})
        )


_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)
# What may follow a stem in a word of the same family ("elect|ion", "fund|raising").
_SUFFIXES = frozenset(
    "s es ed d ing er ers or ors ion ions ation ations ment ments al ally ly ity ness able "
    "ful".split()
)


def _continues(rest: str, language: str) -> bool:
    """Whether a word that starts with a stem goes on as its family does: a suffix, or a
    word of its own (a compound); any ending in a language without an English list."""
    if language != "en" or not rest:
        return True
    return rest in _SUFFIXES or (len(rest) >= COMPOUND_PART and rest in model_words())


def _body(proposal: Proposal, language: str = "en") -> _Words:
    """The words of a proposal's title, description and options."""
    return _Words(" ".join([proposal.title, proposal.description, *proposal.options]), language)


def _coverage(terms: Sequence[str], proposal: Proposal, language: str = "en") -> tuple[float, bool]:
    """(share of terms found anywhere, whether any is in the title)."""
    title = _Words(proposal.title, language)
    body = _body(proposal, language)
    found = [t for t in terms if body.has(t)]
    in_title = any(title.has(t) for t in found)
    return (len(found) / len(terms) if terms else 0.0), in_title


def _topic(expansions: Sequence[Expansion], proposal: Proposal) -> float:
    """How close the nearest topic word found in the proposal is to the topic (0: none)."""
    if not expansions:
        return 0.0
    text = _body(proposal)
    return max((e.closeness for e in expansions if text.has(e.word)), default=0.0)


def _has_all(terms: Sequence[str], proposal: Proposal) -> bool:
    if not terms:
        return True
    text = _body(proposal)
    return all(text.has(t) for t in terms)


def _unmatched_modifier(terms: Sequence[str], proposal: Proposal, language: str) -> bool:
    """Whether a word of the topic that the proposal lacks comes before one it contains:
    a "birthday party" is a kind of party, so a party proposal close in meaning is not
    about it, while "Spanish lessons" may be a Spanish class."""
    text = _body(proposal, language)
    found = [text.has(t) for t in terms]
    return any(found) and not found[0]


def _example(examples: Sequence[str], loosely: set[int], proposal: Proposal) -> bool:
    """Whether the proposal names one of a category's examples ("game night", "solar"):
    in its title, or anywhere when it is at least loosely about the category."""
    if not examples:
        return False
    title = _Words(proposal.title)
    if any(all(title.has(w) for w in term.split()) for term in examples):
        return True
    if proposal.id not in loosely:
        return False
    text = _body(proposal)
    return any(all(text.has(w) for w in term.split()) for term in examples)


def _stand_in(
    terms: Sequence[str], per_term: dict[str, list[Expansion]], proposal: Proposal
) -> float:
    """How close the words standing in for the missing terms are (0: some term has no
    stand-in, or every term is missing): "holiday party" for "christmas party"."""
    text = _body(proposal)
    missing = [t for t in terms if not text.has(t)]
    if not missing or len(missing) == len(terms):
        return 0.0
    closest = []
    for term in missing:
        found = [e.closeness for e in per_term.get(term, []) if text.has(e.word)]
        if not found:
            return 0.0
        closest.append(max(found))
    return min(closest)


class ProposalSearch:
    def __init__(self, db: Database, vectors: VectorDBService) -> None:
        self.db = db
        self.vectors = vectors
        self.vocabulary = Vocabulary(db, vectors)
        self.categories = Categories(vectors.embed)

    async def search(
        self,
        filters: AskFilters,
        keywords: str | None,
        embedding: np.ndarray | None,
        *,
        alternatives: Sequence[Sequence[str]] = (),
        term_vectors: dict[str, np.ndarray] | None = None,
        language: str = "en",
    ) -> SearchOutcome:
        """``language`` is the question's: its stemmer decides which words match.
        ``alternatives``: the words in the groups the question offers as alternatives
        ("wifi or internet", "childcare or a kids corner"), so that one group in full is
        a whole match; otherwise a proposal must contain most of them, or all of them in
        its own words (a topic expansion standing in for the rest). ``term_vectors``: each
        word's own vector, so that a near word stands in for the word it is near
        ("holiday" for "christmas" in "christmas party"), not for the whole topic."""
        terms = keyword_terms(keywords)
        if not terms:
            return await self._filtered(filters)
        meaning = self._means_in(language)
        if not meaning:
            embedding = None  # meaning would mislead: words alone decide
        hits, labelled, examples, loosely, rest = [], {}, [], set(), []
        category = None
        if embedding is not None:
            hits = await self.vectors.query(
                PROPOSALS, embedding, SEMANTIC_TOP_K, where=filters.chroma_where()
            )
            label = await self.categories.label(terms)
            if label is not None:  # "events": the proposals close to what events are
                # over all proposals: the bar is set by the category's clearest members,
                # not by the best of a filtered few; the filters apply when re-read
                near = await self.vectors.query(PROPOSALS, label.vector, LABEL_TOP_K)
                closeness = {int(h.metadata.get("proposal_id", 0)): h.similarity for h in near}
                labelled = on_label(closeness)
                examples = label.category.terms  # "party", "festival": found as words
                category = label.category.name
                rest = self.categories.rest(label.category, terms)  # "trucks" of "food trucks"
                # an example named only in passing ("followed by soup") must come from a
                # proposal at least loosely about the category
                loosely = {i for i, sim in closeness.items() if sim >= EXAMPLE_IN_PASSING}
        similarity = {int(h.metadata.get("proposal_id", 0)): h.similarity for h in hits}
        per_term: dict[str, list[Expansion]] = {}
        if len(terms) > 1 and term_vectors and embedding is not None:
            wanted = {t: term_vectors[t] for t in terms if t in term_vectors}
            per_term = await self.vocabulary.expand_each(wanted)
            expansions = [e for found in per_term.values() for e in found]
        elif embedding is not None:
            expansions = await self.vocabulary.expand(terms, embedding)
        else:
            expansions = []
        words = [*terms, *(e.word for e in expansions), *(w for t in examples for w in t.split())]
        patterns = _patterns(words, language)
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            by_text = await repo.search_text(patterns, limit=WORD_LIMIT, **filters.sql())
            known = {p.id for p in by_text}
            extra = [i for i in {**similarity, **labelled} if i not in known]
            by_meaning = (
                await repo.find_proposals_by_dynamic_criteria(ids=extra, **filters.sql())
                if extra
                else []
            )
            filtered_total = (
                await repo.count_proposals_by_dynamic_criteria(**filters.sql())
                if filters.active
                else None
            )
        candidates = [*by_text, *by_meaning]
        outcome = self._rank(
            terms, candidates, similarity, filtered_total, expansions, alternatives,
            labelled, (examples, loosely, rest), category, per_term, language,
            {t: term_vectors[t] for t in terms if term_vectors and t in term_vectors},
        )  # fmt: skip
        return outcome if meaning else replace(outcome, meaning=False)

    def _rank(
        self,
        terms: list[str],
        candidates: list[Proposal],
        similarity: dict[int, float],
        filtered_total: int | None,
        expansions: Sequence[Expansion] = (),
        alternatives: Sequence[Sequence[str]] = (),
        labelled: dict[int, float] | None = None,
        examples: tuple[Sequence[str], set[int], Sequence[str]] = ((), set(), ()),
        category: str | None = None,
        per_term: dict[str, list[Expansion]] | None = None,
        language: str = "en",
        wanted: dict[str, np.ndarray] | None = None,
    ) -> SearchOutcome:
        """``wanted``: the vectors of the topic's words, each on its own."""
        labelled = labelled or {}
        scored, topics = [], {}
        for proposal in candidates:
            coverage, in_title = _coverage(terms, proposal, language)
            if any(_coverage(list(g), proposal, language)[0] == 1.0 for g in alternatives):
                coverage = 1.0  # one of the alternatives, in full
            scored.append((proposal, coverage, in_title, similarity.get(proposal.id)))
            topics[proposal.id] = (
                _stand_in(terms, per_term, proposal) if per_term else _topic(expansions, proposal)
            )
        best_cover = max((c for _, c, _, _ in scored), default=0.0)
        best_sim = max((s for *_, s in scored if s is not None), default=0.0)
        ratio = SEMANTIC_RATIO_WITH_WORDS if best_cover == 1.0 else SEMANTIC_RATIO
        floor = SEMANTIC_FLOOR if len(terms) == 1 else SEMANTIC_FLOOR_PHRASE
        if best_cover == 0 and not any(topics.values()) and not labelled:
            floor = max(floor, SEMANTIC_FLOOR_ALONE)  # meaning with no word to back it
        sim_bar = max(floor, best_sim * ratio)
        ranked, words, meaning, as_kind = [], 0, 0, 0
        for proposal, coverage, in_title, sim in scored:
            close = sim is not None and sim >= sim_bar
            if coverage == 1.0:
                lexical = True  # every keyword is in its text, or one of the alternatives
            else:  # some keywords: only the best partial matches, and only if close
                enough = coverage > 0.5  # "time" alone is not "time travel"
                lexical = enough and coverage >= best_cover and (sim or 0.0) >= sim_bar * 0.8
            topic = topics[proposal.id]
            near = topic >= TOPIC_SURE and (sim or 0.0) >= TOPIC_NEAR_MEANING
            on_topic = topic > 0 and (near or topic + (sim or 0.0) >= TOPIC_SUM)
            on_topic = on_topic and (len(terms) == 1 or coverage > 0)  # stands in for a word
            label = labelled.get(proposal.id, 0.0)
            if not label and _example(*examples[:2], proposal):
                label = LABEL_EXAMPLE
            if label and not _has_all(examples[2], proposal):
                label = 0.0  # "food trucks": about food, but no truck in it
            if close and per_term and not topic and _unmatched_modifier(terms, proposal, language):
                close = False  # "birthday party": a party, but nothing stands in for birthday
            far = close and per_term and not (topic or lexical) and self._far(wanted, proposal)
            if far:
                close = False  # "cooking competition": the potluck has no word near "competition"
            if not (lexical or close or on_topic or label > 0):
                continue
            words += lexical
            meaning += (close or on_topic) and not lexical
            as_kind += label > 0 and not (lexical or close or on_topic)
            score = (sim or 0.0) + max(coverage, topic, label) + (0.25 if in_title else 0.0)
            ranked.append(Ranked(proposal, round(score, 4), coverage, sim, topic, label))
        ranked.sort(key=lambda r: (-r.score, -r.proposal.id))
        return SearchOutcome(ranked, len(ranked), filtered_total, words, meaning, as_kind, category)

    def _far(self, wanted: dict[str, np.ndarray] | None, proposal: Proposal) -> bool:
        """Whether a word of the topic that the proposal lacks has no word near it there
        (WORD_NEAR): meaning alone found a proposal close to the rest of the topic."""
        text = _body(proposal)
        return any(
            not text.has(term) and self.vocabulary.closest(vector, text.words) < WORD_NEAR
            for term, vector in (wanted or {}).items()
        )

    def _means_in(self, language: str) -> bool:
        """Whether the embedding model's closeness means something in ``language``
        (the bundled model is English-only; an OpenAI-compatible one may be any)."""
        languages = getattr(self.vectors.embedder, "languages", None)
        return languages is None or language in languages

    async def _filtered(self, filters: AskFilters) -> SearchOutcome:
        """No keywords: the filtered set itself, the most relevant first (soonest
        deadline for open proposals and deadline ranges, newest otherwise)."""
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            proposals = await repo.find_proposals_by_dynamic_criteria(
                soonest_deadline_first=(
                    filters.status is ProposalStatus.OPEN or filters.date_field == DEADLINE
                ),
                limit=LEXICAL_LIMIT,
                **filters.sql(),
            )
            total = await repo.count_proposals_by_dynamic_criteria(**filters.sql())
        ranked = [Ranked(p, 0.0, 0.0, None) for p in proposals]
        return SearchOutcome(ranked, total, total if filters.active else None, 0, 0)
