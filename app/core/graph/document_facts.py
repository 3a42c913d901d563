"""Documents as facts: a model reads each chunk of a document, and what it finds is
stored under the source "document:<id>", so /facts and ask_question know what the
knowledge base says. Only when a model is configured (the container decides).

``DocumentFacts`` is the DocumentHook DocumentService calls after its commit: on
import or a new text it reads the chunks (a few at a time), keeps each triple once
with its highest confidence, drops what ``clean_fact`` refuses, and replaces the
document's facts with those; on delete it removes them. A fact an admin added by
hand is never taken over or removed (FactRepository.upsert_many). It is best effort:
a failure is logged and the document stays saved, with fewer facts or none.

Reading takes a while, and the document may be deleted or edited meanwhile. The
write therefore checks, in its own transaction, that the document still has the text
that was read (locking its row on PostgreSQL until the commit), and otherwise is
undone: the later edit or delete has the last word.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.graph.graph_import import clean_fact
from app.domain.errors import ValidationError
from app.persistence.knowledge_models import DocumentRow
from app.persistence.repositories.facts import NewFact
from app.services.llm.base import ExtractedFact

if TYPE_CHECKING:
    from app.core.graph.graph_service import GraphService

logger = logging.getLogger(__name__)

SOURCE_PREFIX = "document:"
CONCURRENCY = 4  # chunks read at the same time


def document_source(document_id: str) -> str:
    return f"{SOURCE_PREFIX}{document_id}"


class FactReader(Protocol):
    """``LLMService.extract_facts``: the facts one passage states, or None when the
    model failed (it counts and logs that itself)."""

    async def extract_facts(self, text: str) -> list[ExtractedFact] | None: ...


class DocumentChanged(Exception):
    """The document was deleted or got a new text while its facts were being read."""


def merge_facts(
    readings: Sequence[list[ExtractedFact] | None], source: str
) -> tuple[list[NewFact], int]:
    """One fact per normalised triple, with the highest confidence any chunk gave it
    (the first wording wins a tie), and how many facts were refused as invalid."""
    best: dict[tuple[str, str, str], NewFact] = {}
    refused = 0
    for facts in readings:
        for subject, predicate, obj, confidence in facts or []:
            try:
                fact = clean_fact(subject, predicate, obj, confidence, source)
            except ValidationError:
                refused += 1
                continue
            known = best.get(fact.key)
            if known is None or fact.confidence > known.confidence:
                best[fact.key] = fact
    return list(best.values()), refused


class DocumentFacts:
    def __init__(
        self, graph: GraphService, reader: FactReader, *, concurrency: int = CONCURRENCY
    ) -> None:
        self.graph = graph
        self.reader = reader
        self.concurrency = concurrency

    async def document_changed(
        self, document_id: str, content_hash: str, chunks: Sequence[str]
    ) -> None:
        try:
            await self._refresh(document_id, content_hash, chunks)
        except DocumentChanged:
            logger.info("document %s changed while its facts were read", document_id)
        except Exception:
            logger.warning("could not update the facts of document %s", document_id, exc_info=True)

    async def document_removed(self, document_id: str) -> None:
        try:
            removed = await self.graph.delete_by_source(document_source(document_id))
        except Exception:
            logger.warning("could not remove the facts of document %s", document_id, exc_info=True)
            return
        logger.info("document %s: %d facts removed", document_id, removed)

    async def _refresh(self, document_id: str, content_hash: str, chunks: Sequence[str]) -> None:
        readings = await self._read(chunks)
        source = document_source(document_id)
        facts, refused = merge_facts(readings, source)

        async def still_current(session: AsyncSession) -> None:
            stmt = select(DocumentRow.content_hash).where(DocumentRow.id == document_id)
            current = await session.scalar(stmt.with_for_update(read=True))  # FOR SHARE
            if current != content_hash:
                raise DocumentChanged(document_id)

        stored = await self.graph.replace_sources(
            {source: [(f.subject, f.predicate, f.object, f.confidence) for f in facts]},
            check=still_current,
        )
        await self.graph.index_facts()
        failed = sum(r is None for r in readings)
        logger.info(
            "document %s: %d facts from %d chunks (%d chunks failed, %d facts refused)",
            document_id, stored, len(chunks), failed, refused,
        )  # fmt: skip

    async def _read(self, chunks: Sequence[str]) -> list[list[ExtractedFact] | None]:
        """Every chunk's facts, in order, with at most ``concurrency`` requests at once."""
        readings: list[list[ExtractedFact] | None] = [None] * len(chunks)
        pending = iter(enumerate(chunks))

        async def worker() -> None:
            for index, text in pending:  # shared: each chunk is taken once
                readings[index] = await self.reader.extract_facts(text)

        async with asyncio.TaskGroup() as group:
            for _ in range(min(self.concurrency, len(chunks))):
                group.create_task(worker())
        return readings
