"""Facts by meaning: each fact's vector in Chroma, caught up with the facts table.

SQL holds the facts; the Chroma collection ``graph_facts`` is derived from it, one
entry per fact ("subject predicate object", id: the fact's id). Facts change through
many doors (the graph service, imports, proposal and document facts, ``coordbot
reindex``), so instead of a hook in each, the index catches up when it is read: the
table's signature (its count and highest id) is compared with the one last indexed,
and only when it moved are the missing facts embedded and the deleted ones dropped.
A question therefore costs no model call for facts, only a lookup by its own vector.
"""

from __future__ import annotations

import asyncio
import logging

import numpy as np

from app.persistence.database import Database
from app.persistence.repositories.facts import Fact, FactRepository
from app.services.vector_db_service import FACTS, VectorDBService

logger = logging.getLogger(__name__)
BATCH = 256  # facts embedded per model call while catching up


def fact_sentence(fact: Fact) -> str:
    """What a fact is embedded as: its three parts read as one sentence."""
    return " ".join(f"{fact.subject} {fact.predicate} {fact.object}".replace("_", " ").split())


def origin(source: str) -> str:
    """Where a fact comes from, by its source's kind: "proposal" for "proposal:12",
    "document" for "document:<id>", else the source itself ("manual", a file name)."""
    return source.split(":", 1)[0] if ":" in source else source


OVERFETCH = 10  # nearest(): unfiltered hits taken per fact wanted


class FactVectors:
    def __init__(self, db: Database, vectors: VectorDBService) -> None:
        self.db = db
        self.vectors = vectors
        self._indexed: tuple[int, int] | None = None  # the signature last caught up with
        self._lock = asyncio.Lock()

    async def current(self, signature: tuple[int, int] | None = None) -> None:
        """Bring the collection up to the facts table, if it moved since last time
        (``signature``: the table's, when the caller has just read it)."""
        if signature is None:
            async with self.db.transaction() as session:
                signature = await FactRepository(session).signature()
        if signature == self._indexed:
            return
        async with self._lock:
            if signature == self._indexed:
                return
            await self._catch_up()
            self._indexed = signature

    async def _catch_up(self) -> None:
        async with self.db.transaction() as session:
            stored = await FactRepository(session).all_ids()
        indexed = {int(i) for i in await self.vectors.all_ids(FACTS) if i.isdigit()}
        gone = sorted(indexed - stored)
        await self.vectors.delete(FACTS, [str(i) for i in gone])
        missing = sorted(stored - indexed)
        for start in range(0, len(missing), BATCH):
            async with self.db.transaction() as session:
                facts = await FactRepository(session).get_many(missing[start : start + BATCH])
            await self.vectors.upsert(
                FACTS,
                [str(f.id) for f in facts],
                [fact_sentence(f) for f in facts],
                [{"origin": origin(f.source)} for f in facts],
            )
        if gone or missing:
            logger.info("fact vectors caught up: %d added, %d removed", len(missing), len(gone))

    async def nearest(
        self, embedding: np.ndarray, limit: int, *, skip_origin: str = ""
    ) -> list[tuple[int, float]]:
        """(fact id, cosine) of the facts closest in meaning, best first; leaving out
        those of one origin (``origin``) when given. Call ``current`` first."""
        if self._indexed is None or self._indexed[0] == 0:
            return []
        if not skip_origin:
            hits = await self.vectors.query(FACTS, embedding, limit)
            return [(int(h.id), h.similarity) for h in hits]
        # A metadata filter makes Chroma scan the collection (about 100 ms at 100,000
        # facts, against 3 ms unfiltered): take a few times the limit unfiltered and
        # drop that origin here; only when none is left, ask with the filter.
        hits = await self.vectors.query(FACTS, embedding, limit * OVERFETCH)
        kept = [h for h in hits if h.metadata.get("origin") != skip_origin]
        if not kept and len(hits) == limit * OVERFETCH:
            where = {"origin": {"$ne": skip_origin}}
            kept = await self.vectors.query(FACTS, embedding, limit, where)
        return [(int(h.id), h.similarity) for h in kept[:limit]]

    async def of(self, ids: list[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these facts (no model call). Call ``current`` first."""
        found = await self.vectors.vectors(FACTS, [str(i) for i in ids])
        return {int(k): v for k, v in found.items()}
