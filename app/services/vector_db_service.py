"""ChromaDB behind one small async interface.

Chroma's client is blocking, so every call runs in a worker thread and never
on the event loop. Embeddings are computed here (once per text) and handed to
Chroma; the collections are still created with our embedding function, so they
record which model filled them, and what form of text (LAYOUTS), so a change of
either is detected at start and the collection rebuilt.

The embedded store (PersistentClient) keeps each collection's vectors in this
process's memory and catches up with the shared SQLite log only on its own
writes: rows another process adds (``coordbot import``, a second MCP server, the
bot) are visible to ``get`` by id but absent from the vectors, so a read of their
vectors fails inside Chroma ("Error finding id") and a search misses them. So
with ``stamp`` (the embedded store's files, see ``embedded_stamp``) every read
first checks whether the files moved since this process last saw them, and if so
reopens the client, which reloads the vectors from disk and the log. A read that
still meets Chroma's internal error reopens once more, then treats the entries it
cannot read as missing, with a warning: a missing vector never fails a request.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from chromadb.api import ClientAPI
from chromadb.api.models.Collection import Collection
from chromadb.errors import InternalError

from app.services.embedding_function import chroma_embedding_function
from app.services.embeddings import Embedder

logger = logging.getLogger(__name__)

PROPOSALS = "proposals_content"
CHUNKS = "document_chunks"
UNITS = "document_units"  # each sentence, list item or table row of the documents
FACTS = "graph_facts"  # each fact as "subject predicate object" (id: the fact's id)
PROPOSAL_FACTS = "graph_proposal_facts"  # ... those derived from proposals (fact_vectors)
COLLECTIONS = (PROPOSALS, CHUNKS, UNITS, FACTS, PROPOSAL_FACTS)
# What a collection's entries embed, where it is not their text alone: a chunk is
# embedded led by its document's title (index_service.chunk_text).
LAYOUTS = {CHUNKS: "title-led"}
STORE_FILES = ("chroma.sqlite3", "chroma.sqlite3-wal")  # the embedded store's log and rows

T = TypeVar("T")


def embedded_stamp(path: Path) -> Callable[[], Hashable]:
    """What changes when any process writes the embedded store at ``path``: the identity,
    size and modification time of its SQLite files (a stat each, no read)."""

    def stamp() -> Hashable:
        out = []
        for name in STORE_FILES:
            try:
                st = (path / name).stat()
            except FileNotFoundError:
                continue
            out.append((name, st.st_ino, st.st_size, st.st_mtime_ns))
        return tuple(out)

    return stamp


@dataclass(frozen=True, slots=True)
class Hit:
    id: str
    document: str
    metadata: dict[str, Any]
    similarity: float


class VectorDBService:
    def __init__(
        self,
        client_factory: Callable[[], ClientAPI],
        embedder: Embedder,
        stamp: Callable[[], Hashable] | None = None,
    ) -> None:
        self._client_factory = client_factory
        self.embedder = embedder
        self._client: ClientAPI | None = None
        self._collections: dict[str, Collection] = {}
        self._lock = asyncio.Lock()
        self.rebuilt: set[str] = set()  # collections recreated: another model or text form
        self._stamp = stamp  # the embedded store's files; None for a Chroma server
        self._seen: Hashable = None  # their stamp when this process last caught up
        self.reopened = 0  # times the client was reopened to see other processes' writes

    @property
    def model_name(self) -> str:
        return self.embedder.model_name

    async def _collection(self, name: str) -> Collection:
        if name in self._collections:
            return self._collections[name]
        async with self._lock:
            if name not in self._collections:
                self._collections[name] = await asyncio.to_thread(self._open, name)
        return self._collections[name]

    def _open(self, name: str) -> Collection:
        """Open (or create, or rebuild) one collection. Opening writes the store's files
        too: their stamp afterwards is this process's view, unless they had moved before."""
        fresh = self._client is None
        if self._client is None:
            self._client = self._client_factory()
        before = None if self._stamp is None else self._stamp()
        collection = self._open_in(self._client, name)
        if self._stamp is not None and (fresh or before == self._seen):
            self._seen = self._stamp()
        return collection

    def _open_in(self, client: ClientAPI, name: str) -> Collection:
        built_by = self.built_by(name)
        metadata = {"hnsw:space": "cosine", "embedding_model": built_by}
        function = chroma_embedding_function(self.embedder)
        existing = {c.name for c in client.list_collections()}
        if name in existing:
            collection = client.get_collection(name, embedding_function=None)  # type: ignore[arg-type]
            if (collection.metadata or {}).get("embedding_model") != built_by:
                logger.warning(
                    "collection %s was built with another model or text; rebuilding", name
                )
                client.delete_collection(name)
                self.rebuilt.add(name)
            else:
                return client.get_collection(name, embedding_function=function)
        return client.create_collection(name, metadata=metadata, embedding_function=function)

    def built_by(self, name: str) -> str:
        """The model, and the form of text where it is not the entries' own."""
        layout = LAYOUTS.get(name)
        return f"{self.model_name} ({layout})" if layout else self.model_name

    async def open_all(self) -> set[str]:
        """Open every collection; returns those rebuilt because the model or text changed."""
        for name in COLLECTIONS:
            await self._collection(name)
        return set(self.rebuilt)

    async def _fresh(self) -> None:
        """Reopen the embedded store when another process wrote it since we last looked."""
        if self._stamp is None or self._client is None:
            return
        if await asyncio.to_thread(self._stamp) != self._seen:
            await self._reopen("another process wrote the index")

    async def _reopen(self, why: str) -> None:
        """Drop the client and its collections; the next call opens them afresh. Calls in
        flight keep the old client (and its memory) until they finish."""
        async with self._lock:
            client, self._client = self._client, None
            self._collections.clear()
            if client is not None:
                # the embedded client is cached per path for the process; forget it, or
                # "reopening" hands back the same stale vectors
                client.clear_system_cache()
                self.reopened += 1
                logger.info("reopening the vector index: %s", why)

    async def _read(self, call: Callable[[], Awaitable[T]], name: str, fallback: T) -> T:
        """A read, after catching up with other processes; on Chroma's internal error
        (an entry whose vector this client lacks) reopen and retry once, then give
        ``fallback`` rather than fail the request."""
        await self._fresh()
        try:
            return await call()
        except InternalError as exc:
            logger.warning("vector index %s: %s; reopening and retrying", name, exc)
        await self._reopen("an entry had no vector")
        try:
            return await call()
        except InternalError:
            logger.warning(
                "vector index %s still lacks entries; treating them as missing "
                "(`coordbot reindex` rebuilds it)",
                name,
                exc_info=True,
            )
            return fallback

    async def _write(self, name: str, change: Callable[[Collection], object]) -> None:
        """``change`` applied to collection ``name``, in a worker thread. The write catches
        this client up with the log, so the files' new stamp is ours, unless another
        process had moved them before it."""
        collection = await self._collection(name)
        before = None if self._stamp is None else await asyncio.to_thread(self._stamp)
        await asyncio.to_thread(change, collection)
        if self._stamp is not None and before == self._seen:
            self._seen = await asyncio.to_thread(self._stamp)

    async def close(self) -> None:
        """Forget the client (the embedded store caches one per path for the process)."""
        client, self._client = self._client, None
        self._collections.clear()
        if client is not None:
            await asyncio.to_thread(self._release, client)

    @staticmethod
    def _release(client: ClientAPI) -> None:
        # chromadb's HTTP client (and its admin client) never close their httpx sessions;
        # do it, or their sockets leak.
        for part in (client, getattr(client, "_admin_client", None)):
            session = getattr(getattr(part, "_server", None), "_session", None)
            if session is not None and hasattr(session, "close"):
                session.close()
        client.clear_system_cache()

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        return await asyncio.to_thread(self.embedder.embed_array, list(texts))

    async def upsert(
        self,
        name: str,
        ids: Sequence[str],
        documents: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        embeddings: np.ndarray | None = None,
    ) -> None:
        if not ids:
            return
        if embeddings is None:
            embeddings = await self.embed(documents)
        vectors = embeddings
        await self._write(
            name,
            lambda c: c.upsert(
                ids=list(ids),
                documents=list(documents),
                metadatas=list(metadatas),  # type: ignore[arg-type]
                embeddings=vectors,  # type: ignore[arg-type]
            ),
        )

    async def documents(self, name: str, ids: Sequence[str]) -> dict[str, str]:
        """The stored text of the entries that exist among ``ids``."""
        if not ids:
            return {}

        async def get() -> dict[str, str]:
            collection = await self._collection(name)
            got = await asyncio.to_thread(collection.get, ids=list(ids), include=["documents"])
            return dict(zip(got["ids"], got.get("documents") or [], strict=False))

        return await self._read(get, name, {})

    async def vectors(self, name: str, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of the entries that exist among ``ids`` (no model call).
        An entry whose vector the index cannot give is left out, as if missing."""
        if not ids:
            return {}

        async def get(some: Sequence[str]) -> dict[str, np.ndarray]:
            collection = await self._collection(name)
            got = await asyncio.to_thread(collection.get, ids=list(some), include=["embeddings"])
            found = got.get("embeddings")
            if found is None:
                return {}
            return {
                i: np.asarray(v, dtype=np.float32) for i, v in zip(got["ids"], found, strict=False)
            }

        whole = await self._read(lambda: get(ids), name, None)
        if whole is not None:
            return whole
        out: dict[str, np.ndarray] = {}  # the entries that can be read, one at a time
        none: dict[str, np.ndarray] = {}
        for one in ids:
            out.update(await self._read(functools.partial(get, [one]), name, none))
        return out

    async def update_metadata(
        self, name: str, ids: Sequence[str], metadatas: Sequence[dict[str, Any]]
    ) -> None:
        """Change metadata only (a status change): no re-embedding."""
        if ids:
            await self._write(
                name,
                lambda c: c.update(ids=list(ids), metadatas=list(metadatas)),  # type: ignore[arg-type]
            )

    async def delete(self, name: str, ids: Sequence[str]) -> None:
        if ids:
            await self._write(name, lambda c: c.delete(ids=list(ids)))

    async def delete_where(self, name: str, where: dict[str, Any]) -> None:
        await self._write(name, lambda c: c.delete(where=where))

    async def query(
        self,
        name: str,
        embedding: np.ndarray,
        top_k: int,
        where: dict[str, Any] | None = None,
        ids: Sequence[str] | None = None,
    ) -> list[Hit]:
        """Nearest entries; the filter (metadata ``where``, or the entries ``ids``) is
        applied inside the vector search, before top_k. Given the ids a filter selects,
        Chroma searches several times faster than with the filter on its metadata."""

        async def search() -> list[Hit]:
            collection = await self._collection(name)
            result = await asyncio.to_thread(
                collection.query,
                query_embeddings=[embedding.tolist()],
                n_results=top_k,
                where=where,
                ids=None if ids is None else list(ids),
                include=["documents", "metadatas", "distances"],
            )
            docs = (result.get("documents") or [[]])[0]
            metas = (result.get("metadatas") or [[]])[0]
            dists = (result.get("distances") or [[]])[0]
            return [
                Hit(id=i, document=d or "", metadata=dict(m or {}), similarity=round(1.0 - dist, 4))
                for i, d, m, dist in zip(result["ids"][0], docs, metas, dists, strict=False)
            ]

        return await self._read(search, name, [])

    async def existing(self, name: str, ids: Sequence[str]) -> set[str]:
        """Those of ``ids`` that have an entry."""
        if not ids:
            return set()

        async def get() -> set[str]:
            collection = await self._collection(name)
            got = await asyncio.to_thread(collection.get, ids=list(ids), include=[])
            return set(got["ids"])

        return await self._read(get, name, set())

    async def all_ids(self, name: str) -> set[str]:
        async def get() -> set[str]:
            collection = await self._collection(name)
            out: set[str] = set()
            offset, page = 0, 5000
            while True:
                got = await asyncio.to_thread(collection.get, include=[], limit=page, offset=offset)
                out.update(got["ids"])
                if len(got["ids"]) < page:
                    return out
                offset += page

        return await self._read(get, name, set())

    async def count(self, name: str) -> int:
        async def get() -> int:
            collection = await self._collection(name)
            return int(await asyncio.to_thread(collection.count))

        return await self._read(get, name, 0)

    async def reset(self) -> None:
        """Drop and recreate every collection (reindex starts from nothing)."""
        async with self._lock:

            def drop() -> None:
                if self._client is None:
                    self._client = self._client_factory()
                existing = {c.name for c in self._client.list_collections()}
                for name in COLLECTIONS:
                    if name in existing:
                        self._client.delete_collection(name)

            await asyncio.to_thread(drop)
            self._collections.clear()
