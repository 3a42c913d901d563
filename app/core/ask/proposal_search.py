"""Finding the proposals a question asks for: SQL filters, then words and meaning fused.

Short topical queries embed poorly against whole proposals, and a category ("events")
is rarely a word its proposals use, so neither ranking decides alone: the filters
narrow the candidates (the lexical query takes the same WHERE clause, the vector query
the ids SQL finds inside them: several times faster than Chroma's metadata filter, and
what SQL, the source of truth, says); the lexical ranking finds the proposals that say
the topic's words, the dense one those that mean it; reciprocal rank fusion joins them
(passages.py); the fitted cut (proposal_cut.py) decides how many the question asks for,
except that a proposal whose title holds every word of the topic is always listed: its
title says what it is about, and "website proposals" must list "Accessibility audit for
the website" however far its meaning falls from the one word (on the development
communities such candidates were asked for 113 times in 117, and the cut, reading
meaning first, dropped six, every one asked for).
Every candidate is re-read from SQL with the filters, so a stale index entry never puts
a proposal that no longer matches into an answer.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, replace

import numpy as np

from app.core.ask import proposal_cut
from app.core.ask.analysis import STOP_WORDS
from app.core.ask.models import DEADLINE, AskFilters
from app.core.ask.passages import fuse
from app.core.knowledge.index_service import proposal_key
from app.domain.models import Proposal, ProposalStatus
from app.nlp.lexical import lexical_terms, proposal_text
from app.persistence.database import Database
from app.persistence.repositories.lexical import LexicalSearch
from app.persistence.repositories.proposals import ProposalRepository, criteria_condition
from app.services.vector_db_service import PROPOSALS, VectorDBService

DENSE_K = 30  # the proposals nearest the topic, inside the filters
LEXICAL_K = 30  # the proposals that hold most of the topic's words, inside the filters
LISTED_LIMIT = 300  # filtered lists without a topic
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Ranked:
    proposal: Proposal
    score: float  # the cut's probability that the question asks for it
    coverage: float  # share of the topic's terms found in its text
    similarity: float | None  # cosine to the topic; None when meaning was not used
    features: tuple[float, ...] = ()  # what the cut read (proposal_cut.FEATURES)


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    ranked: list[Ranked]  # accepted proposals, best first
    total: int  # how many matched in all
    filtered_total: int | None  # proposals matching the filters alone (None: no filters)
    by_words: int  # accepted ones that hold every word of the topic
    by_meaning: int  # accepted ones found by meaning, without every word
    meaning: bool = True  # False: the embedding model does not read the question's language
    candidates: tuple[Ranked, ...] = ()  # every fused candidate, kept or not, best first

    @property
    def proposals(self) -> list[Proposal]:
        return [r.proposal for r in self.ranked]


def keyword_terms(keywords: str | None) -> list[str]:
    """The search words of the keywords, lower-cased, without filler and duplicates."""
    if not keywords:
        return []
    words = [w.casefold() for w in _WORD.findall(keywords)]
    kept = [w for w in words if w not in STOP_WORDS and len(w) > 1]
    return list(dict.fromkeys(kept))


def share(terms: Collection[str], text: str, language: str) -> float:
    """Share of ``terms`` (index terms) that ``text`` holds once normalised."""
    if not terms:
        return 0.0
    held = set(lexical_terms(text, language))
    return sum(t in held for t in terms) / len(terms)


class ProposalSearch:
    def __init__(self, db: Database, vectors: VectorDBService, language: str = "en") -> None:
        self.db = db
        self.vectors = vectors
        self.language = language  # the community's: the lexical index is stemmed in it

    async def search(
        self,
        filters: AskFilters,
        keywords: str | None,
        embedding: np.ndarray | None,
        *,
        language: str = "en",
        cut: proposal_cut.Cut | None = None,
        question: np.ndarray | None = None,
    ) -> SearchOutcome:
        """The proposals inside ``filters`` that the topic ``keywords`` asks for, best
        first. ``embedding`` is the topic's, ``question`` the whole question's (the cut
        reads both); ``language`` the question's (meaning is not used in a language the
        embedding model does not read)."""
        words = keyword_terms(keywords)
        if not words:
            return await self._filtered(filters)
        meaning = self._means_in(language)
        if not meaning:
            embedding = question = None  # meaning would mislead: words alone decide
        terms = list(dict.fromkeys(lexical_terms(" ".join(words), self.language)))
        condition = criteria_condition(**filters.sql())
        async with self.db.transaction() as session:
            inside = (  # the filtered set, from SQL: the vector search runs inside it
                await ProposalRepository(session).ids_by_dynamic_criteria(**filters.sql())
                if condition is not None
                else None
            )
            lexical = await LexicalSearch(session).proposals(terms, LEXICAL_K, where=condition)
        keys = None if inside is None else [proposal_key(i) for i in inside]
        dense = (
            await self.vectors.query(PROPOSALS, embedding, DENSE_K, ids=keys)
            if embedding is not None and keys != []
            else []
        )
        cosine = {int(h.metadata.get("proposal_id", 0)): h.similarity for h in dense}
        lexical_ids = [i for i, _ in lexical]
        fused = fuse([str(i) for i in cosine], [str(i) for i in lexical_ids])
        ids = [int(k) for k, _ in fused]
        asked: dict[int, float] = {}
        if ids and embedding is not None:  # stored vectors: no model call
            stored = await self.vectors.vectors(PROPOSALS, [proposal_key(i) for i in ids])
            vectors = {i: stored[proposal_key(i)] for i in ids if proposal_key(i) in stored}
            cosine |= {i: float(v @ embedding) for i, v in vectors.items() if i not in cosine}
            if question is not None:
                asked = {i: float(v @ question) for i, v in vectors.items()}
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            rows = (
                await repo.find_proposals_by_dynamic_criteria(ids=ids, **filters.sql())
                if ids
                else []
            )
            filtered_total = None if inside is None else len(inside)
        by_id = {p.id: p for p in rows}
        candidates, found = [], []
        for rank, (key, score) in enumerate(fused, start=1):
            proposal = by_id.get(int(key))
            if proposal is None:  # outside the filters now, or deleted
                continue
            text = proposal_text(proposal.title, proposal.description, proposal.options)
            candidates.append(
                proposal_cut.Candidate(
                    proposal_id=proposal.id,
                    fused=score,
                    rank=rank,
                    cosine=cosine.get(proposal.id, 0.0),
                    cover=share(terms, text, self.language),
                    asked=asked.get(proposal.id),
                )
            )
            found.append(proposal)
        rows_ = proposal_cut.features(candidates, filters.active)
        model = cut or proposal_cut.cut()
        chance = model.probabilities(rows_)
        scored = [
            Ranked(
                p,
                round(float(s), 4),
                c.cover,
                c.cosine if embedding is not None else None,
                tuple(float(v) for v in row),
            )
            for p, c, s, row in zip(found, candidates, chance, rows_, strict=True)
        ]
        # Where meaning is not read, the cut's features of meaning are all zero and say
        # nothing: words alone decide, as the lexical index ranked them.
        kept = [
            r for r in scored
            if share(terms, r.proposal.title, self.language) == 1.0  # its title names it
            or (r.score >= model.threshold if meaning else r.coverage == 1.0)
        ]  # fmt: skip
        kept.sort(key=lambda r: (-r.score, -r.proposal.id))
        whole = sum(r.coverage == 1.0 for r in kept)
        outcome = SearchOutcome(
            kept, len(kept), filtered_total, whole, len(kept) - whole, True, tuple(scored)
        )
        return outcome if meaning else replace(outcome, meaning=False)

    def _means_in(self, language: str) -> bool:
        """Whether the embedding model's closeness means something in ``language``
        (the bundled model is English-only; an OpenAI-compatible one may be any)."""
        languages = getattr(self.vectors.embedder, "languages", None)
        return languages is None or language in languages

    async def _filtered(self, filters: AskFilters) -> SearchOutcome:
        """No topic: the filtered set itself, the most relevant first (soonest deadline
        for open proposals and deadline ranges, newest otherwise)."""
        async with self.db.transaction() as session:
            repo = ProposalRepository(session)
            proposals = await repo.find_proposals_by_dynamic_criteria(
                soonest_deadline_first=(
                    filters.status is ProposalStatus.OPEN or filters.date_field == DEADLINE
                ),
                limit=LISTED_LIMIT,
                **filters.sql(),
            )
            total = await repo.count_proposals_by_dynamic_criteria(**filters.sql())
        ranked = [Ranked(p, 0.0, 0.0, None) for p in proposals]
        return SearchOutcome(ranked, total, total if filters.active else None, 0, 0)
