"""Facts by meaning: each fact's vector in Chroma, caught up with the facts table.

SQL holds the facts; Chroma holds one entry per fact ("subject predicate object", id:
the fact's id), in one of two collections by where the fact comes from: facts derived
from proposals in ``graph_proposal_facts``, every other fact (an admin's, a document's,
an import's) in ``graph_facts``. /ask reads proposals as a source of their own and wants
only the others; a metadata filter makes Chroma scan the whole collection (about 100 ms
at 100,000 facts, against 3 ms unfiltered), so the split makes that one unfiltered query.

Facts change through many doors (the graph service, imports, proposal and document
facts, ``coordbot reindex``), so instead of a hook in each, the index catches up when it
is read: the facts' version (app.persistence.fact_version) is compared with the one last
indexed, and only when it moved is the table's list of ids compared with what each
collection holds. A fact in the wrong collection (its origin changed, or a data
directory from before the split) has its stored vector moved, not embedded again; the
missing facts are embedded and the deleted ones dropped. Bulk writers (imports, seeding,
document facts) catch up right after writing, so a question after them embeds nothing.
A question therefore costs no model call for facts, only a lookup by its own vector.

The vectors /ask reads for the paths it scores (``of``) are kept in memory, up to KEPT,
until the facts' version moves: a fact's id is never handed out again and its vector
never changes while it stands, and members ask about the same few entities, whose facts
the next question reads again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from app.core.graph.proposal_facts import SOURCE_PREFIX as PROPOSAL_SOURCE
from app.persistence.database import Database
from app.persistence.repositories.facts import Fact, FactRepository
from app.services.vector_db_service import FACTS, PROPOSAL_FACTS, VectorDBService

logger = logging.getLogger(__name__)
BATCH = 256  # facts embedded per model call while catching up
PAGE = 5000  # ids looked up or vectors moved per Chroma call
KEPT = 16_384  # fact vectors kept in memory between questions (~25 MB at 384 dimensions)
COMMUNITY = "community"  # every fact not derived from a proposal
PROPOSAL = "proposal"  # facts derived from proposals (proposal_facts)
COLLECTIONS = {COMMUNITY: FACTS, PROPOSAL: PROPOSAL_FACTS}
Progress = Callable[[int, int], None]  # (facts just indexed, total when known, else 0)


def fact_sentence(fact: Fact) -> str:
    """What a fact is embedded as: its three parts read as one sentence."""
    return " ".join(f"{fact.subject} {fact.predicate} {fact.object}".replace("_", " ").split())


def origin(source: str) -> str:
    """Where a fact comes from, by its source's kind: "proposal" for "proposal:12",
    "document" for "document:<id>", else the source itself ("manual", a file name)."""
    return source.split(":", 1)[0] if ":" in source else source


def kind_of(source: str) -> str:
    """The collection a fact with this source belongs in."""
    return PROPOSAL if source.startswith(PROPOSAL_SOURCE) else COMMUNITY


class FactVectors:
    def __init__(self, db: Database, vectors: VectorDBService) -> None:
        self.db = db
        self.vectors = vectors
        self._indexed: int | None = None  # the facts version last caught up with
        # the fact ids each collection holds, as last caught up (None: not read yet)
        self._known: dict[str, set[int]] | None = None
        self._lock = asyncio.Lock()
        self._kept: OrderedDict[int, np.ndarray] = OrderedDict()  # read by ``of``, LRU

    async def current(self, signature: int | None = None, progress: Progress | None = None) -> None:
        """Bring the collections up to the facts table, if it moved since last time
        (``signature``: the table's, when the caller has just read it)."""
        if signature is None:
            signature = await self._signature()
        if signature == self._indexed:
            return
        async with self._lock:
            if signature == self._indexed:
                return
            await self._catch_up(progress)
            self._indexed = signature
            self._kept.clear()

    async def rebuild(self, progress: Progress | None = None) -> int:
        """Index every fact again after the collections were emptied (``coordbot
        reindex``); returns how many facts were embedded."""
        async with self._lock:
            self._indexed, self._known = None, None
            self._kept.clear()
            signature = await self._signature()
            embedded = await self._catch_up(progress)
            self._indexed = signature
        return embedded

    async def _signature(self) -> int:
        async with self.db.transaction() as session:
            return await FactRepository(session).signature()

    async def _catch_up(self, progress: Progress | None) -> int:
        async with self.db.transaction() as session:
            repo = FactRepository(session)
            stored = await repo.all_ids()
            from_proposals = await repo.ids_with_source_prefix(PROPOSAL_SOURCE)
        wanted = {COMMUNITY: stored - from_proposals, PROPOSAL: from_proposals & stored}
        read = self._known is None
        known = self._known if self._known is not None else await self._read_known()
        self._known = None  # until this pass ends: a failure reads Chroma again next time
        moved = await self._move_misplaced(wanted, known)
        removed = 0
        for kind, name in COLLECTIONS.items():
            gone = known[kind] - wanted[kind]
            await self.vectors.delete(name, [str(i) for i in sorted(gone)])
            known[kind] -= gone
            removed += len(gone)
        missing = {kind: wanted[kind] - known[kind] for kind in COLLECTIONS}
        if not read:  # another process may have indexed them meanwhile
            for kind, name in COLLECTIONS.items():
                there = await self._existing(name, missing[kind])
                known[kind] |= there
                missing[kind] -= there
        if progress is not None:
            progress(0, sum(len(ids) for ids in missing.values()))
        embedded = 0
        for kind, ids in missing.items():
            embedded += await self._embed(kind, sorted(ids), progress)
            known[kind] |= ids
        self._known = known
        if moved or removed or embedded:
            logger.info(
                "fact vectors caught up: %d added, %d moved, %d removed", embedded, moved, removed
            )
        return embedded

    async def _read_known(self) -> dict[str, set[int]]:
        return {
            kind: {int(i) for i in await self.vectors.all_ids(name) if i.isdigit()}
            for kind, name in COLLECTIONS.items()
        }

    async def _existing(self, name: str, ids: set[int]) -> set[int]:
        ordered = sorted(ids)
        found: set[int] = set()
        for start in range(0, len(ordered), PAGE):
            keys = [str(i) for i in ordered[start : start + PAGE]]
            found |= {int(i) for i in await self.vectors.existing(name, keys)}
        return found

    async def _move_misplaced(self, wanted: dict[str, set[int]], known: dict[str, set[int]]) -> int:
        """Facts wanted in one collection and held by the other get their stored vector
        copied over (the old entry goes with the deletions); returns how many."""
        moved = 0
        for kind, name in COLLECTIONS.items():
            for other, other_name in COLLECTIONS.items():
                misplaced = sorted(wanted[kind] & known[other]) if other != kind else []
                for start in range(0, len(misplaced), PAGE):
                    ids = misplaced[start : start + PAGE]
                    found = await self.vectors.vectors(other_name, [str(i) for i in ids])
                    async with self.db.transaction() as session:
                        facts = await FactRepository(session).get_many(ids)
                    facts = [f for f in facts if str(f.id) in found]
                    if not facts:
                        continue
                    await self.vectors.upsert(
                        name,
                        [str(f.id) for f in facts],
                        [fact_sentence(f) for f in facts],
                        [{"origin": origin(f.source)} for f in facts],
                        np.stack([found[str(f.id)] for f in facts]),
                    )
                    known[kind] |= {f.id for f in facts}
                    moved += len(facts)
        return moved

    async def _embed(self, kind: str, ids: list[int], progress: Progress | None) -> int:
        for start in range(0, len(ids), BATCH):
            async with self.db.transaction() as session:
                facts = await FactRepository(session).get_many(ids[start : start + BATCH])
            await self.vectors.upsert(
                COLLECTIONS[kind],
                [str(f.id) for f in facts],
                [fact_sentence(f) for f in facts],
                [{"origin": origin(f.source)} for f in facts],
            )
            if progress is not None:
                progress(len(facts), 0)
        return len(ids)

    async def nearest(
        self, embedding: np.ndarray, limit: int, *, kinds: tuple[str, ...] = (COMMUNITY,)
    ) -> list[tuple[int, float]]:
        """(fact id, cosine) of the facts closest in meaning, best first, among the facts
        of these kinds (by default those not derived from proposals): one unfiltered
        query per kind. Call ``current`` first."""
        if self._indexed is None:
            return []
        known = self._known  # None while a catch-up runs: query anyway
        found: list[tuple[int, float]] = []
        for kind in (k for k in kinds if known is None or known[k]):  # no query of an empty one
            hits = await self.vectors.query(COLLECTIONS[kind], embedding, limit)
            found += [(int(h.id), h.similarity) for h in hits]
        found.sort(key=lambda hit: (-hit[1], hit[0]))
        return found[:limit]

    async def of(self, ids: list[int]) -> dict[int, np.ndarray]:
        """The stored vectors of these facts, of any kind (no model call): those read
        since the facts last changed from memory, the others from Chroma. Call
        ``current`` first."""
        kept = self._kept
        found = {i: kept[i] for i in ids if i in kept}
        for i in found:
            kept.move_to_end(i)
        for name in COLLECTIONS.values():
            wanted = [str(i) for i in ids if i not in found]
            read = {int(k): v for k, v in (await self.vectors.vectors(name, wanted)).items()}
            found |= read
            kept.update(read)
        while len(kept) > KEPT:
            kept.popitem(last=False)
        return found
