"""The vectors of every document's units (sentences, list items, table rows), kept in
the index beside its chunks, so /ask can compare a question with every sentence of the
documents it found without a model call per sentence.

A document's units are embedded when its chunks are indexed (and, for a document
indexed before units were, the first time /ask reads it). Their ids name the document
and a digest of its text, so an edited document never reads its old vectors; its old
entries are removed with its chunks. A few documents' vectors stay in memory: members
ask about the same pages.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from app.nlp.units import READING, Unit, segment
from app.services.vector_db_service import UNITS, VectorDBService

KEPT_DOCUMENTS = 64  # documents whose unit vectors stay in memory (~300 kB each at most)


def unit_text(unit: Unit) -> str:
    """What is embedded for a unit: its text, led by its heading."""
    return f"{unit.heading}: {unit.text}" if unit.heading else unit.text


def digest(content: str) -> str:
    """A document's text as the units were read from it: a new reading is new units."""
    return hashlib.sha256(f"{READING}\n{content}".encode()).hexdigest()[:12]


def unit_ids(document_id: str, content: str, count: int) -> list[str]:
    """The index ids of a document's first ``count`` units: the document, its text, the place."""
    key = digest(content)
    return [f"{document_id}:{key}:{i}" for i in range(count)]


class UnitIndex:
    def __init__(self, vectors: VectorDBService) -> None:
        self.vectors = vectors
        self._kept: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()

    async def units(self, document_id: str, content: str) -> tuple[tuple[Unit, ...], np.ndarray]:
        """A document's units and their vectors (one row each, in document order)."""
        return (await self.many([(document_id, content)]))[0]

    async def many(
        self, documents: Sequence[tuple[str, str]]
    ) -> list[tuple[tuple[Unit, ...], np.ndarray]]:
        """What ``units`` gives for each (id, content) document, in order: the vectors
        not kept in memory are read from the index in one call, the missing embedded in one."""
        read = [(document_id, content, segment(content)) for document_id, content in documents]
        keys = [(document_id, digest(content)) for document_id, content, _ in read]
        ids = {
            key: unit_ids(document_id, content, len(units))
            for key, (document_id, content, units) in zip(keys, read, strict=True)
            if key not in self._kept
        }
        wanted = [i for key_ids in ids.values() for i in key_ids]
        stored = await self.vectors.vectors(UNITS, wanted) if wanted else {}
        missing = [
            (key, n)
            for key, key_ids in ids.items()
            for n, i in enumerate(key_ids)
            if i not in stored
        ]
        if missing:
            units_of = dict(zip(keys, (units for _, _, units in read), strict=True))
            texts = [unit_text(units_of[key][n]) for key, n in missing]
            fresh = await self.vectors.embed(texts)
            await self.vectors.upsert(
                UNITS,
                [ids[key][n] for key, n in missing],
                texts,
                [{"document_id": key[0]} for key, _ in missing],
                fresh,
            )
            stored |= {ids[key][n]: v for (key, n), v in zip(missing, fresh, strict=True)}
        found = []
        for key, (_, _, units) in zip(keys, read, strict=True):
            if key in self._kept:
                self._kept.move_to_end(key)
            else:
                self._kept[key] = (
                    np.stack([stored[i] for i in ids[key]]).astype(np.float32)
                    if units
                    else np.zeros((0, 0), dtype=np.float32)
                )
            found.append((units, self._kept[key]))
        while len(self._kept) > KEPT_DOCUMENTS:
            self._kept.popitem(last=False)
        return found

    async def ensure(self, documents: Sequence[tuple[str, str]]) -> None:
        """Embed the units of these (id, content) documents that the index lacks."""
        for document_id, content in documents:
            await self.units(document_id, content)

    async def forget(self, document_id: str) -> None:
        """Remove a document's units (deleted, or its text replaced)."""
        self._kept = OrderedDict((k, v) for k, v in self._kept.items() if k[0] != document_id)
        await self.vectors.delete_where(UNITS, {"document_id": document_id})
