"""Document passages for a question: words and meaning, fused.

Two rankings of the same chunks, each good where the other fails: the lexical one
(SQLite FTS5 BM25, or PostgreSQL full-text search, over text normalised once: case,
accents, hyphens, stems) finds the rare word a question shares with its page ("wifi"
for "Wi-Fi"), the dense one (the question's one embedding) the page that says it in other
words. Reciprocal rank fusion joins them without comparing their scores: a chunk's
fused score is the sum of 1 / (RRF_K + rank) over the rankings that returned it. Every
passage keeps its cosine similarity to the question (read from the index for one the
dense ranking did not return), which the decision reads beside the fused rank.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from app.core.ask.models import DocumentHit
from app.core.knowledge.document_service import DocumentService
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.repositories.documents import DocumentRepository
from app.persistence.repositories.lexical import LexicalSearch
from app.services.vector_db_service import CHUNKS, VectorDBService

K = TypeVar("K", bound=Hashable)
RRF_K = 60  # the usual constant: ranks below ~60 add little
DENSE_K = 20
LEXICAL_K = 20
KEPT = 6  # passages handed on to the answer and the decision


@dataclass(frozen=True, slots=True)
class Found:
    """The fused passages, best first, and the documents' texts they came from."""

    hits: list[DocumentHit]
    contents: dict[str, str]  # document id -> its whole text (for whole sentences)
    lexical_ids: frozenset[str]  # chunks the lexical ranking returned


def fuse(*rankings: Sequence[K]) -> list[tuple[K, float]]:
    """Reciprocal rank fusion of id rankings (best first): ids by fused score."""
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
    return sorted(scores.items(), key=lambda item: -item[1])


class PassageSearch:
    def __init__(
        self, db: Database, vectors: VectorDBService, documents: DocumentService, language: str
    ) -> None:
        self.db = db
        self.vectors = vectors
        self.documents = documents
        self.language = language  # the community's: the lexical index is stemmed in it

    async def search(
        self, question: str, embedding: np.ndarray, *, proposal_id: int | None = None
    ) -> Found:
        dense = await self.documents.knowledge_query(
            question, top_k=DENSE_K, proposal_id=proposal_id, embedding=embedding
        )
        cosine = {r["chunk_id"]: float(r["similarity"]) for r in dense["results"]}
        terms = list(dict.fromkeys(lexical_terms(question, self.language)))
        async with self.db.transaction() as session:
            lexical = (
                await LexicalSearch(session).chunks(terms, LEXICAL_K, proposal_id=proposal_id)
                if terms
                else []
            )
        lexical_ids = [chunk_id for chunk_id, _ in lexical]
        fused = fuse([r["chunk_id"] for r in dense["results"]], lexical_ids)[:KEPT]
        if not fused:
            return Found([], {}, frozenset())
        ids = [chunk_id for chunk_id, _ in fused]
        unseen = [i for i in ids if i not in cosine]
        if unseen:
            stored = await self.vectors.vectors(CHUNKS, unseen)
            cosine |= {i: round(float(v @ embedding), 4) for i, v in stored.items()}
        async with self.db.transaction() as session:
            rows = await DocumentRepository(session).chunks_with_documents(ids)
        by_id = {chunk.id: (chunk, document) for chunk, document in rows}
        hits, contents = [], {}
        for chunk_id, score in fused:
            if chunk_id not in by_id:  # deleted since it was indexed
                continue
            chunk, document = by_id[chunk_id]
            contents[document.id] = document.content
            hits.append(
                DocumentHit(
                    document_id=document.id,
                    title=document.title,
                    chunk_id=chunk_id,
                    content=chunk.content,
                    similarity=cosine.get(chunk_id, 0.0),
                    fused=round(score, 5),
                )
            )
        return Found(hits, contents, frozenset(lexical_ids))
