"""Documents and chunks in SQL, plus the index bookkeeping the reconciler needs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.knowledge_models import ChunkRow, DocumentRow
from app.persistence.models import ProposalRow


class DocumentRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def find_by_hash(self, scope: str, content_hash: str) -> DocumentRow | None:
        return await self.session.scalar(
            select(DocumentRow).where(
                DocumentRow.scope == scope, DocumentRow.content_hash == content_hash
            )
        )

    async def add(self, document: DocumentRow, chunks: Sequence[ChunkRow]) -> None:
        self.session.add(document)
        await self.session.flush()
        self.session.add_all(list(chunks))
        await self.session.flush()

    async def get(self, document_id: str) -> DocumentRow | None:
        return await self.session.get(DocumentRow, document_id)

    async def chunks_with_documents(
        self, chunk_ids: Sequence[str]
    ) -> list[tuple[ChunkRow, DocumentRow]]:
        """The chunks of these ids with their documents (those that still exist)."""
        if not chunk_ids:
            return []
        rows = await self.session.execute(
            select(ChunkRow, DocumentRow)
            .join(DocumentRow, DocumentRow.id == ChunkRow.document_id)
            .where(ChunkRow.id.in_(list(chunk_ids)))
        )
        return [(chunk, document) for chunk, document in rows]

    async def chunk_count(self, document_id: str) -> int:
        total = await self.session.scalar(
            select(func.count()).select_from(ChunkRow).where(ChunkRow.document_id == document_id)
        )
        return int(total or 0)

    async def list_page(
        self,
        *,
        proposal_id: int | None = None,
        global_only: bool = False,
        owner_id: int | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[DocumentRow], int]:
        conditions: list[Any] = []
        if proposal_id is not None:
            conditions.append(DocumentRow.proposal_id == proposal_id)
        if global_only:
            conditions.append(DocumentRow.proposal_id.is_(None))
        if owner_id is not None:
            conditions.append(DocumentRow.owner_id == owner_id)
        total = await self.session.scalar(
            select(func.count()).select_from(DocumentRow).where(*conditions)
        )
        rows = await self.session.scalars(
            select(DocumentRow)
            .where(*conditions)
            .order_by(DocumentRow.created_at.desc(), DocumentRow.id)
            .offset(offset)
            .limit(limit)
        )
        return list(rows), int(total or 0)

    async def chunk_ids(self, document_id: str) -> list[str]:
        return list(
            await self.session.scalars(
                select(ChunkRow.id).where(ChunkRow.document_id == document_id)
            )
        )

    async def delete(self, document_id: str) -> None:
        await self.session.execute(delete(ChunkRow).where(ChunkRow.document_id == document_id))
        await self.session.execute(delete(DocumentRow).where(DocumentRow.id == document_id))

    async def replace_chunks(self, document_id: str, chunks: Sequence[ChunkRow]) -> None:
        await self.session.execute(delete(ChunkRow).where(ChunkRow.document_id == document_id))
        self.session.add_all(list(chunks))
        await self.session.flush()

    # -- index bookkeeping ------------------------------------------------------------

    async def pending_chunks(self, limit: int) -> list[tuple[ChunkRow, DocumentRow]]:
        rows = await self.session.execute(
            select(ChunkRow, DocumentRow)
            .join(DocumentRow, DocumentRow.id == ChunkRow.document_id)
            .where(ChunkRow.indexed.is_(False))
            .order_by(ChunkRow.document_id, ChunkRow.chunk_index)
            .limit(limit)
        )
        return [(c, d) for c, d in rows.all()]

    async def mark_indexed(self, chunk_ids: Sequence[str]) -> None:
        if chunk_ids:
            await self.session.execute(
                update(ChunkRow).where(ChunkRow.id.in_(list(chunk_ids))).values(indexed=True)
            )

    async def mark_document_unindexed(self, document_id: str) -> None:
        await self.session.execute(
            update(ChunkRow).where(ChunkRow.document_id == document_id).values(indexed=False)
        )

    async def chunk_texts(self, limit: int) -> list[str]:
        """Passages' text, at most ``limit``: the words the documents use (for /ask)."""
        return list(await self.session.scalars(select(ChunkRow.content).limit(limit)))

    async def titles(self, limit: int) -> list[str]:
        """Documents' titles, at most ``limit`` (a title names what its passages are about)."""
        return list(await self.session.scalars(select(DocumentRow.title).limit(limit)))

    async def all_chunk_ids(self) -> set[str]:
        return set(await self.session.scalars(select(ChunkRow.id)))

    async def count_chunks(self, *, pending_only: bool = False) -> int:
        stmt = select(func.count()).select_from(ChunkRow)
        if pending_only:
            stmt = stmt.where(ChunkRow.indexed.is_(False))
        return int(await self.session.scalar(stmt) or 0)

    async def mark_all_unindexed(self) -> None:
        await self.session.execute(update(ChunkRow).values(indexed=False))
        await self.session.execute(update(ProposalRow).values(indexed_revision=0))
