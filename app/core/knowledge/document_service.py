"""knowledge_import / knowledge_query, and the document rules behind /add_doc & co.

Validation and messages follow the knowledge-tools spec. Documents live in SQL;
chunks are indexed after the commit, and the same content imported again into
the same scope (global, or one proposal) returns the existing document.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.knowledge.index_service import IndexService
from app.core.proposals.proposal_service import not_found as proposal_not_found
from app.domain.clock import Clock
from app.domain.errors import NotFoundError, PermissionDeniedError, ValidationError
from app.domain.interfaces import DocumentHook, NullDocumentHook
from app.nlp.chunking import MAX_CHUNK, MIN_CHUNK, chunk_text
from app.nlp.lexical import lexical_text
from app.persistence.database import Database
from app.persistence.knowledge_models import ChunkRow, DocumentRow
from app.persistence.repositories.documents import DocumentRepository
from app.persistence.repositories.proposals import ProposalRepository
from app.services.vector_db_service import CHUNKS, VectorDBService

logger = logging.getLogger(__name__)

MAX_CHUNKS = 1000
MAX_TOP_K = 100
# The documents table's columns (app.persistence.knowledge_models).
MAX_TITLE = 300
MAX_CATEGORY = 100
MAX_SOURCE = 1000


@dataclass(frozen=True, slots=True)
class ImportResult:
    document_id: str
    title: str
    chunks_created: int
    created_at: datetime
    existing: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "document_id": self.document_id,
            "title": self.title,
            "chunks_created": self.chunks_created,
            "created_at": self.created_at.isoformat().replace("+00:00", "Z"),
        }


@dataclass(frozen=True, slots=True)
class DocumentInfo:
    id: str
    title: str
    category: str | None
    source: str | None
    proposal_id: int | None
    owner_id: int | None
    created_at: datetime
    content: str


def _info(row: DocumentRow) -> DocumentInfo:
    return DocumentInfo(
        id=row.id,
        title=row.title,
        category=row.category,
        source=row.source,
        proposal_id=row.proposal_id,
        owner_id=row.owner_id,
        created_at=row.created_at,
        content=row.content,
    )


def validate_import(title: str, content: str, chunk_size: int, chunk_overlap: int) -> None:
    if not title or not title.strip():
        raise ValidationError("title cannot be empty")
    if not content or not content.strip():
        raise ValidationError("content cannot be empty")
    if "\x00" in title or "\x00" in content:  # PostgreSQL text cannot hold NUL
        raise ValidationError("title and content cannot contain NUL characters")
    if not MIN_CHUNK <= chunk_size <= MAX_CHUNK:
        raise ValidationError(
            "chunk_size must be between {minimum} and {maximum}",
            minimum=MIN_CHUNK,
            maximum=MAX_CHUNK,
        )
    if not 0 <= chunk_overlap < chunk_size:
        raise ValidationError("chunk_overlap must be 0 or greater and less than chunk_size")


def _chunk_rows(document_id: str, pieces: list[str], language: str) -> list[ChunkRow]:
    """New chunk rows in document order, with their lexical terms, not yet in Chroma."""
    return [
        ChunkRow(id=str(uuid.uuid4()), document_id=document_id, chunk_index=i, content=piece,
                 indexed=False, lexical=lexical_text(piece, language))
        for i, piece in enumerate(pieces)
    ]  # fmt: skip


def _uuid(value: str | None, field: str) -> str | None:
    if value is None:
        return None
    try:
        return str(uuid.UUID(str(value)))
    except ValueError as exc:
        raise ValidationError("{field} must be a UUID", field=field) from exc


class DocumentService:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        vectors: VectorDBService,
        index: IndexService,
        *,
        admin_ids: frozenset[int] = frozenset(),
        facts: DocumentHook | None = None,
        language: str = "en",
    ) -> None:
        self.db = db
        self.language = language  # BOT_LANGUAGE: the lexical terms' language
        self.clock = clock
        self.vectors = vectors
        self.index = index
        self.admin_ids = admin_ids
        self.facts: DocumentHook = facts or NullDocumentHook()  # facts read by a model

    async def knowledge_import(
        self,
        title: str,
        content: str,
        *,
        source: str | None = None,
        category: str | None = None,
        chunk_size: int = 500,
        chunk_overlap: int = 50,
        metadata: dict[str, Any] | None = None,
        proposal_id: int | None = None,
        owner_id: int | None = None,
    ) -> ImportResult:
        validate_import(title, content, chunk_size, chunk_overlap)
        title = " ".join(title.split())[:MAX_TITLE]
        pieces = chunk_text(content, chunk_size, chunk_overlap)
        if len(pieces) > MAX_CHUNKS:
            raise ValidationError(
                "The document would make {count} chunks; the limit is {limit}. "
                "Use a larger chunk_size or split the document.",
                count=len(pieces),
                limit=MAX_CHUNKS,
            )
        scope = f"proposal:{proposal_id}" if proposal_id is not None else "global"
        digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
        now = self.clock.now()
        try:
            async with self.db.transaction() as session:
                if proposal_id is not None and not await ProposalRepository(
                    session
                ).get_proposal_by_id(proposal_id):
                    raise proposal_not_found(proposal_id)
                repo = DocumentRepository(session)
                existing = await repo.find_by_hash(scope, digest)
                if existing is not None:
                    count = await repo.chunk_count(existing.id)
                    return ImportResult(
                        existing.id, existing.title, count, existing.created_at, True
                    )
                doc_id = str(uuid.uuid4())
                await repo.add(
                    DocumentRow(
                        id=doc_id,
                        title=title,
                        content=content,
                        source=source,
                        category=category,
                        scope=scope,
                        proposal_id=proposal_id,
                        owner_id=owner_id,
                        content_hash=digest,
                        chunk_size=chunk_size,
                        chunk_overlap=chunk_overlap,
                        extra=metadata or {},
                        created_at=now,
                        updated_at=now,
                    ),
                    _chunk_rows(doc_id, pieces, self.language),
                )
        except IntegrityError:
            # Another process stored the same content in this scope meanwhile: theirs wins.
            async with self.db.transaction() as session:
                repo = DocumentRepository(session)
                existing = await repo.find_by_hash(scope, digest)
                if existing is None:
                    raise
                count = await repo.chunk_count(existing.id)
            return ImportResult(existing.id, existing.title, count, existing.created_at, True)
        logger.info("document %s imported (%d chunks)", doc_id, len(pieces))
        await self.index.chunks_changed()
        await self.facts.document_changed(doc_id, digest, pieces)
        return ImportResult(doc_id, title, len(pieces), now)

    async def knowledge_query(
        self,
        query: str,
        *,
        top_k: int = 5,
        category: str | None = None,
        document_id: str | None = None,
        include_document_info: bool = True,
        embedding: np.ndarray | None = None,
        proposal_id: int | None = None,
    ) -> dict[str, Any]:
        if not query or not query.strip():
            raise ValidationError("query cannot be empty")
        if not 1 <= top_k <= MAX_TOP_K:
            raise ValidationError("top_k must be between 1 and {maximum}", maximum=MAX_TOP_K)
        conditions: list[dict[str, Any]] = []
        if category:
            conditions.append({"category": category})
        if document_id:
            conditions.append({"document_id": _uuid(document_id, "document_id")})
        if proposal_id is not None:
            conditions.append({"proposal_id": proposal_id})
        where = (
            None
            if not conditions
            else conditions[0]
            if len(conditions) == 1
            else {"$and": conditions}
        )
        if embedding is None:
            embedding = (await self.vectors.embed([query]))[0]
        hits = await self.vectors.query(CHUNKS, embedding, top_k, where)
        results = []
        for hit in hits:
            item: dict[str, Any] = {
                "chunk_id": hit.id,
                "content": hit.document,
                "similarity": hit.similarity,
            }
            if include_document_info:
                item["document"] = {
                    "id": hit.metadata.get("document_id"),
                    "title": hit.metadata.get("title"),
                    "category": hit.metadata.get("category") or None,
                }
            results.append(item)
        return {"results": results, "total": len(results)}

    # -- the rules behind the Telegram document commands ------------------------------

    async def _may_manage(
        self, session: AsyncSession, user_id: int, row: DocumentRow | None, doc_id: str
    ) -> DocumentRow:
        if row is None:
            raise NotFoundError("Document {id} does not exist. See /view_docs.", id=doc_id)
        if user_id in self.admin_ids:
            return row
        if row.proposal_id is None:
            raise PermissionDeniedError("Only admins can change global documents.")
        proposal = await ProposalRepository(session).get_proposal_by_id(row.proposal_id)
        if proposal is None or proposal.proposer_id != user_id:
            raise PermissionDeniedError("Only the proposer (or an admin) can change this document.")
        return row

    async def check_can_manage(self, user_id: int, document_id: str) -> DocumentInfo:
        """The document, if ``user_id`` may edit or delete it; otherwise the reason why not."""
        doc_id = _uuid(document_id, "document_id") or ""
        async with self.db.transaction() as session:
            row = await DocumentRepository(session).get(doc_id)
            return _info(await self._may_manage(session, user_id, row, document_id))

    async def check_can_attach(self, user_id: int, proposal_id: int | None) -> None:
        if proposal_id is None:
            if user_id not in self.admin_ids:
                raise PermissionDeniedError("Only admins can add global documents.")
            return
        async with self.db.transaction() as session:
            proposal = await ProposalRepository(session).get_proposal_by_id(proposal_id)
        if proposal is None:
            raise proposal_not_found(proposal_id)
        if proposal.proposer_id != user_id and user_id not in self.admin_ids:
            raise PermissionDeniedError("Only the proposer can add documents to this proposal.")

    async def add_document(
        self,
        user_id: int,
        proposal_id: int | None,
        title: str,
        content: str,
        source: str | None = None,
    ) -> ImportResult:
        await self.check_can_attach(user_id, proposal_id)
        return await self.knowledge_import(
            title,
            content,
            source=source,
            proposal_id=proposal_id,
            owner_id=user_id,
            category="proposal" if proposal_id is not None else "global",
        )

    async def get_document(self, document_id: str) -> DocumentInfo:
        doc_id = _uuid(document_id, "document_id") or ""
        async with self.db.transaction() as session:
            row = await DocumentRepository(session).get(doc_id)
        if row is None:
            raise NotFoundError("Document {id} does not exist. See /view_docs.", id=document_id)
        return _info(row)

    async def list_documents(
        self,
        *,
        proposal_id: int | None = None,
        global_only: bool = False,
        owner_id: int | None = None,
        page: int = 0,
        page_size: int = 10,
    ) -> tuple[list[DocumentInfo], int]:
        async with self.db.transaction() as session:
            rows, total = await DocumentRepository(session).list_page(
                proposal_id=proposal_id,
                global_only=global_only,
                owner_id=owner_id,
                offset=page * page_size,
                limit=page_size,
            )
        return [_info(r) for r in rows], total

    async def delete_document(self, user_id: int, document_id: str) -> DocumentInfo:
        doc_id = _uuid(document_id, "document_id") or ""
        async with self.db.transaction() as session:
            repo = DocumentRepository(session)
            row = await self._may_manage(session, user_id, await repo.get(doc_id), document_id)
            info = _info(row)
            chunk_ids = await repo.chunk_ids(doc_id)
            await repo.delete(doc_id)
        try:
            await self.vectors.delete(CHUNKS, chunk_ids)
            await self.index.units.forget(doc_id)
        except Exception:  # the reconciler removes orphans later
            logger.warning("could not remove chunks of %s from the index", doc_id, exc_info=True)
        await self.facts.document_removed(doc_id)
        return info

    async def edit_document(
        self,
        user_id: int,
        document_id: str,
        *,
        title: str | None = None,
        content: str | None = None,
    ) -> DocumentInfo:
        doc_id = _uuid(document_id, "document_id") or ""
        now = self.clock.now()
        async with self.db.transaction() as session:
            repo = DocumentRepository(session)
            row = await self._may_manage(session, user_id, await repo.get(doc_id), document_id)
            old_chunks: list[str] = []
            if title is not None:
                if not title.strip():
                    raise ValidationError("title cannot be empty")
                row.title = " ".join(title.split())[:MAX_TITLE]
            if content is not None:
                validate_import(row.title, content, row.chunk_size, row.chunk_overlap)
                pieces = chunk_text(content, row.chunk_size, row.chunk_overlap)
                if len(pieces) > MAX_CHUNKS:
                    raise ValidationError(
                        "That text makes more than {limit} chunks.", limit=MAX_CHUNKS
                    )
                digest = hashlib.sha256(content.encode("utf-8")).hexdigest()
                same = await repo.find_by_hash(row.scope, digest)
                if same is not None and same.id != row.id:
                    raise ValidationError(
                        "That text is already the document “{title}” ({id}) "
                        "here. Send a different text.",
                        title=same.title,
                        id=same.id,
                    )
                old_chunks = await repo.chunk_ids(doc_id)
                row.content = content
                row.content_hash = digest
                await repo.replace_chunks(doc_id, _chunk_rows(doc_id, pieces, self.language))
            else:  # a new title changes every chunk's metadata
                await repo.mark_document_unindexed(doc_id)
            row.updated_at = now
            info = _info(row)
        try:
            await self.vectors.delete(CHUNKS, old_chunks)
            if content is not None:
                await self.index.units.forget(doc_id)
        except Exception:
            logger.warning("could not remove old chunks of %s", doc_id, exc_info=True)
        await self.index.chunks_changed()
        if content is not None:
            await self.facts.document_changed(doc_id, digest, pieces)
        return info
