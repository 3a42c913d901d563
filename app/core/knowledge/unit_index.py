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

from app.nlp.units import Unit, segment
from app.services.vector_db_service import UNITS, VectorDBService

KEPT_DOCUMENTS = 64  # documents whose unit vectors stay in memory (~300 kB each at most)


def unit_text(unit: Unit) -> str:
    """What is embedded for a unit: its text, led by its heading."""
    return f"{unit.heading}: {unit.text}" if unit.heading else unit.text


def digest(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()[:12]


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
        units = segment(content)
        key = (document_id, digest(content))
        if key in self._kept:
            self._kept.move_to_end(key)
            return units, self._kept[key]
        ids = unit_ids(document_id, content, len(units))
        stored = await self.vectors.vectors(UNITS, ids)
        missing = [i for i, key_ in enumerate(ids) if key_ not in stored]
        if missing:
            texts = [unit_text(units[i]) for i in missing]
            fresh = await self.vectors.embed(texts)
            await self.vectors.upsert(
                UNITS,
                [ids[i] for i in missing],
                texts,
                [{"document_id": document_id}] * len(missing),
                fresh,
            )
            stored |= {ids[i]: v for i, v in zip(missing, fresh, strict=True)}
        matrix = (
            np.stack([stored[i] for i in ids]).astype(np.float32)
            if ids
            else np.zeros((0, 0), dtype=np.float32)
        )
        self._kept[key] = matrix
        if len(self._kept) > KEPT_DOCUMENTS:
            self._kept.popitem(last=False)
        return units, matrix

    async def ensure(self, documents: Sequence[tuple[str, str]]) -> None:
        """Embed the units of these (id, content) documents that the index lacks."""
        for document_id, content in documents:
            await self.units(document_id, content)

    async def forget(self, document_id: str) -> None:
        """Remove a document's units (deleted, or its text replaced)."""
        self._kept = OrderedDict((k, v) for k, v in self._kept.items() if k[0] != document_id)
        await self.vectors.delete_where(UNITS, {"document_id": document_id})
