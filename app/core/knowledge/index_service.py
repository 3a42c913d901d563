"""Keeps the Chroma index in step with SQL, which stays the source of truth.

Rows are indexed after their transaction commits. A proposal's entry is current
when its ``indexed_revision`` equals its ``revision``; a chunk has an ``indexed``
flag. Anything a crash or an unreachable Chroma left behind is caught up by
``reconcile()`` (at start-up and in the periodic sweep), which also removes
entries whose rows are gone. ``reindex()`` rebuilds everything from SQL, the facts'
vectors included (app.core.graph.fact_vectors, which otherwise catches up on read).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from app.core.graph.fact_vectors import FactVectors
from app.core.knowledge.unit_index import UnitIndex
from app.domain.models import Proposal
from app.persistence import fact_version
from app.persistence.database import Database
from app.persistence.repositories.documents import DocumentRepository
from app.persistence.repositories.facts import FactRepository
from app.persistence.repositories.proposals import ProposalRepository
from app.services.vector_db_service import CHUNKS, PROPOSALS, VectorDBService

logger = logging.getLogger(__name__)

BATCH = 256
Progress = Callable[[int, int], None]


def proposal_text(p: Proposal) -> str:
    parts = [p.title, p.description]
    if p.options:
        parts.append("Options: " + ", ".join(p.options))
    return "\n".join(parts)


def chunk_text(content: str, title: str) -> str:
    """What is embedded for a chunk: its text, led by its document's title."""
    return f"{title}\n{content}"


def proposal_metadata(p: Proposal) -> dict[str, Any]:
    return {
        "proposal_id": p.id,
        "status": p.status.value,
        "proposal_type": p.proposal_type.value,
        "target_channel_id": p.target_channel_id or "",
        "proposer_id": p.proposer_id,
        "created_ts": p.created_at.timestamp(),
        "deadline_ts": p.deadline_at.timestamp(),
    }


def proposal_key(proposal_id: int) -> str:
    return f"proposal_{proposal_id}"


class IndexService:
    def __init__(
        self, db: Database, vectors: VectorDBService, facts: FactVectors | None = None
    ) -> None:
        self.db = db
        self.vectors = vectors
        self.units = UnitIndex(vectors)
        self.facts = facts or FactVectors(db, vectors)

    async def proposals_changed(self, ids: Sequence[int]) -> None:
        """Best effort after a commit; what fails now, reconcile() catches up later."""
        try:
            await self._index_proposals(list(ids))
        except Exception:
            logger.warning("indexing proposals failed; will retry", exc_info=True)

    async def _index_proposals(
        self, ids: list[int] | None, progress: Progress | None = None
    ) -> int:
        done = 0
        while True:
            async with self.db.transaction() as session:
                stale = await ProposalRepository(session).stale_for_index(BATCH, ids)
                seen = await ProposalRepository(session).revisions([p.id for p in stale])
            if not stale:
                return done
            await self._write_proposals(stale)
            async with self.db.transaction() as session:
                await ProposalRepository(session).mark_indexed(seen)
            done += len(stale)
            if progress:
                progress(len(stale), 0)
            if len(stale) < BATCH:
                return done

    async def _write_proposals(self, proposals: list[Proposal]) -> None:
        """Re-embed only entries whose text changed; a status change updates metadata."""
        keys = [proposal_key(p.id) for p in proposals]
        stored = await self.vectors.documents(PROPOSALS, keys)
        same = [
            p for p, k in zip(proposals, keys, strict=True) if stored.get(k) == proposal_text(p)
        ]
        same_ids = {p.id for p in same}
        changed = [p for p in proposals if p.id not in same_ids]
        await self.vectors.update_metadata(
            PROPOSALS, [proposal_key(p.id) for p in same], [proposal_metadata(p) for p in same]
        )
        await self.vectors.upsert(
            PROPOSALS,
            [proposal_key(p.id) for p in changed],
            [proposal_text(p) for p in changed],
            [proposal_metadata(p) for p in changed],
        )

    async def index_pending_chunks(self, progress: Progress | None = None) -> int:
        done = 0
        while True:
            async with self.db.transaction() as session:
                pending = await DocumentRepository(session).pending_chunks(BATCH)
            if not pending:
                return done
            headed = await self.vectors.embed([chunk_text(c.content, d.title) for c, d in pending])
            await self.vectors.upsert(
                CHUNKS,
                [c.id for c, _ in pending],
                [c.content for c, _ in pending],
                [
                    {
                        "document_id": d.id,
                        "chunk_index": c.chunk_index,
                        "category": d.category or "",
                        "proposal_id": d.proposal_id or 0,
                        "scope": "proposal" if d.proposal_id else "global",
                        "title": d.title,
                    }
                    for c, d in pending
                ],
                headed,
            )
            await self.units.ensure(list({d.id: d.content for _, d in pending}.items()))
            async with self.db.transaction() as session:
                await DocumentRepository(session).mark_indexed([c.id for c, _ in pending])
            done += len(pending)
            if progress:
                progress(len(pending), 0)
            if len(pending) < BATCH:
                return done

    async def chunks_changed(self) -> None:
        try:
            await self.index_pending_chunks()
        except Exception:
            logger.warning("indexing chunks failed; will retry", exc_info=True)

    async def catch_up(self) -> None:
        """Index stale proposals and pending chunks (the periodic sweep; cheap when current)."""
        try:
            await self._index_proposals(None)
            await self.index_pending_chunks()
        except Exception:
            logger.warning("index catch-up failed; will retry", exc_info=True)

    async def reconcile(self) -> dict[str, int]:
        """Index whatever is missing or stale, and drop entries whose rows are gone."""
        if await self.vectors.open_all():  # a model change emptied collections: start over
            async with self.db.transaction() as session:
                await DocumentRepository(session).mark_all_unindexed()
            self.vectors.rebuilt.clear()
        proposals = await self._index_proposals(None)
        chunks = await self.index_pending_chunks()
        async with self.db.transaction() as session:
            wanted_p = {proposal_key(i) for i in await ProposalRepository(session).all_ids()}
            wanted_c = await DocumentRepository(session).all_chunk_ids()
        orphans_p = sorted(await self.vectors.all_ids(PROPOSALS) - wanted_p)
        orphans_c = sorted(await self.vectors.all_ids(CHUNKS) - wanted_c)
        await self.vectors.delete(PROPOSALS, orphans_p)
        await self.vectors.delete(CHUNKS, orphans_c)
        return {
            "proposals_indexed": proposals,
            "chunks_indexed": chunks,
            "orphans_removed": len(orphans_p) + len(orphans_c),
        }

    async def reindex(self, progress: Progress | None = None) -> dict[str, int]:
        """Rebuild the whole index from SQL (and the triggers that tell it when the facts
        change, should they be missing: fact_version)."""
        async with self.db.engine.begin() as connection:
            await fact_version.ensure(connection)
        async with self.db.transaction() as session:
            await DocumentRepository(session).mark_all_unindexed()
            total = await ProposalRepository(session).count_all()
            total += await DocumentRepository(session).count_chunks()
            total += await FactRepository(session).count()
        await self.vectors.reset()
        if progress:
            progress(0, total)
        proposals = await self._index_proposals(None, progress)
        chunks = await self.index_pending_chunks(progress)
        # the facts' own progress calls would set a total of their own: count them here
        facts = await self.facts.rebuild((lambda done, _: progress(done, 0)) if progress else None)
        return {"proposals_indexed": proposals, "chunks_indexed": chunks, "facts_indexed": facts}
