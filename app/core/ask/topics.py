"""Topics by meaning: "events" finds the festival, "sustainability" the solar panels.

A topic a member names is often a category, not a word the proposals use. Whole
proposals embed too loosely against one short word to find them by meaning alone,
but words embed well against words: "food" lies close to "dinner", "catering" and
"pizza", "sports" to "football" and "tennis". So the community's own vocabulary
(the words of its proposals) is embedded with the local model, once per word and
remembered, and a question's topic is expanded with its nearest words there. The
expansions then count as word matches, each weighted by how close it is.

Precision: an expansion must be close (EXPANSION_FLOOR) and may not be one of the
question's own words, so "time travel" does not become "time"; a topic with nothing
close in the vocabulary expands to nothing and finds nothing new.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from app.core.ask.analysis import STOP_WORDS
from app.nlp.key_terms import word_forms
from app.persistence.database import Database
from app.persistence.repositories.proposals import ProposalRepository
from app.services.vector_db_service import VectorDBService

EXPANSION_FLOOR = 0.6  # cosine of a vocabulary word to the topic (MiniLM, word to word)
EXPANSIONS = 8  # at most this many words per topic
MAX_TOPIC_WORDS = 3  # longer keyword lists are descriptions, not topics
_WORD = re.compile(r"[a-z]{4,}")


@dataclass(frozen=True, slots=True)
class Expansion:
    word: str
    closeness: float


class Vocabulary:
    """The words of the community's proposals with their vectors, kept current."""

    def __init__(self, db: Database, vectors: VectorDBService) -> None:
        self.db = db
        self.vectors = vectors
        self._vectors: dict[str, np.ndarray] = {}  # every word ever embedded, kept
        self._words: list[str] = []
        self._matrix = np.zeros((0, 1), dtype=np.float32)
        self._proposals = -1
        self._lock = asyncio.Lock()

    async def expand_each(self, vectors: dict[str, np.ndarray]) -> dict[str, list[Expansion]]:
        """Each word's nearest vocabulary words (``vectors``: the words' own), one read."""
        await self._refresh()
        return {term: self._nearest([term], vector) for term, vector in vectors.items()}

    def closest(self, vector: np.ndarray, words: Iterable[str]) -> float:
        """How near the nearest of ``words`` (those of the vocabulary) is to ``vector``."""
        known = [self._vectors[w] for w in words if w in self._vectors]
        return float(np.max(np.stack(known) @ vector)) if known else 0.0

    async def expand(self, terms: list[str], embedding: np.ndarray) -> list[Expansion]:
        """The vocabulary words nearest to the topic (``embedding`` is the topic's)."""
        if not terms or len(terms) > MAX_TOPIC_WORDS:
            return []
        await self._refresh()
        return self._nearest(terms, embedding)

    def _nearest(self, terms: list[str], embedding: np.ndarray) -> list[Expansion]:
        if not self._words:
            return []
        own = frozenset().union(*(word_forms(t) for t in terms))
        closeness = self._matrix @ np.asarray(embedding, dtype=np.float32)
        found: list[Expansion] = []
        for i in np.argsort(-closeness)[: EXPANSIONS * 3]:
            word, score = self._words[int(i)], float(closeness[int(i)])
            if score < EXPANSION_FLOOR or len(found) == EXPANSIONS:
                break
            if not (word_forms(word) & own) and not any(word.startswith(t) for t in terms):
                found.append(Expansion(word, round(score, 4)))
        return found

    async def _refresh(self) -> None:
        """Read the vocabulary again when proposals were added; embed only new words."""
        async with self._lock:
            async with self.db.transaction() as session:
                repo = ProposalRepository(session)
                count = await repo.count_proposals_by_dynamic_criteria()
                if count == self._proposals:
                    return
                texts = await repo.all_texts()
            words = sorted(
                {w for text in texts for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}
            )
            new = [w for w in words if w not in self._vectors]
            for start in range(0, len(new), 256):
                batch = new[start : start + 256]
                for word, vector in zip(batch, await self.vectors.embed(batch), strict=True):
                    self._vectors[word] = np.asarray(vector, dtype=np.float32)
            self._words = words
            self._matrix = (
                np.stack([self._vectors[w] for w in words])
                if words
                else np.zeros((0, 1), dtype=np.float32)
            )
            self._proposals = count
