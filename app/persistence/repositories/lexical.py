"""PLACEHOLDER until the lexical-index branch lands: BM25 in Python, same interface."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.nlp.lexical import lexical_terms
from app.persistence.knowledge_models import ChunkRow, DocumentRow


class LexicalSearch:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def chunks(
        self,
        terms: Sequence[str],
        limit: int,
        *,
        proposal_id: int | None = None,
        document_id: str | None = None,
        category: str | None = None,
    ) -> list[tuple[str, float]]:
        query = select(ChunkRow.id, ChunkRow.content).join(
            DocumentRow, DocumentRow.id == ChunkRow.document_id
        )
        if proposal_id is not None:
            query = query.where(DocumentRow.proposal_id == proposal_id)
        rows = (await self.session.execute(query)).all()
        docs = [(r[0], Counter(lexical_terms(r[1]))) for r in rows]
        n = len(docs) or 1
        avg = sum(sum(c.values()) for _, c in docs) / n
        df = Counter(t for _, c in docs for t in set(c))
        out = []
        for key, counts in docs:
            length = sum(counts.values())
            score = 0.0
            for t in set(terms):
                f = counts.get(t, 0)
                if f:
                    idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                    score += idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * length / avg))
            if score > 0:
                out.append((key, score))
        out.sort(key=lambda x: -x[1])
        return out[:limit]
