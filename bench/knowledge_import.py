"""Import throughput: generated documents through ``knowledge_import``, one after the other.

The time is split into embedding, the Chroma upsert, the indexing bookkeeping in SQL and the
import transaction by wrapping ``VectorDBService.embed``/``upsert`` and
``IndexService.chunks_changed`` on the running instances; the raw model rate is measured
separately, so a slow import says whether the model or the bookkeeping is to blame.
"""

from __future__ import annotations

import argparse
import logging
import time
from typing import Any

import numpy as np

from bench.knowledge_corpus import (
    CHUNK_OVERLAP,
    CHUNK_SIZE,
    CHUNKS_PER_DOCUMENT,
    TextGenerator,
    make_documents,
)
from bench.knowledge_env import load_1m

log = logging.getLogger(__name__)

# What the fill phase derives its synthetic entries from: the imported chunks' texts, their
# vectors from the real model and their documents' (title, category, content).
Base = tuple[list[str], np.ndarray, list[tuple[str, str, str]]]


class PhaseTimer:
    """Adds up wall time spent inside wrapped coroutine methods of one object."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self._wrapped: list[tuple[Any, str]] = []

    def wrap(self, obj: Any, method: str, label: str) -> None:
        original = getattr(obj, method)
        self.seconds.setdefault(label, 0.0)

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - started

        setattr(obj, method, timed)  # an instance attribute shadows the method
        self._wrapped.append((obj, method))

    def restore(self) -> None:
        for obj, method in self._wrapped:
            delattr(obj, method)
        self._wrapped.clear()


async def import_phase(
    container: Any, args: argparse.Namespace, gen: TextGenerator
) -> tuple[dict[str, Any], Base]:
    from app.nlp.chunking import chunk_text
    from app.persistence.repositories.documents import DocumentRepository
    from app.services.embeddings import load_minilm_tokenizer
    from app.services.vector_db_service import CHUNKS

    n_docs = max(1, -(-args.chunks // CHUNKS_PER_DOCUMENT))
    warmup = make_documents(gen, 1, 0)
    documents = make_documents(gen, n_docs, 1)
    pairs = [(c, d) for d in documents for c in chunk_text(d[2], CHUNK_SIZE, CHUNK_OVERLAP)]
    chunks = [c for c, _ in pairs]
    tokenizer = load_minilm_tokenizer()
    tokens = [len(e.ids) for e in tokenizer.encode_batch(chunks)]
    log.info("%d documents, %d chunks, %.0f tokens/chunk", n_docs, len(chunks), np.mean(tokens))

    started = time.perf_counter()
    container.embedder.load()
    model_load_s = time.perf_counter() - started
    container.embedder.embed_array(chunks[:32])
    await container.vectors.open_all()
    title, category, text = warmup[0]
    await container.documents.knowledge_import(title, text, category=category)

    timer = PhaseTimer()
    timer.wrap(container.vectors, "embed", "embed")
    timer.wrap(container.vectors, "upsert", "upsert")
    timer.wrap(container.index, "chunks_changed", "index")
    load_before = load_1m()
    cpu0, started = time.process_time(), time.perf_counter()
    imported = 0
    for i, (title, category, text) in enumerate(documents):
        result = await container.documents.knowledge_import(
            title, text, category=category, chunk_size=CHUNK_SIZE, chunk_overlap=CHUNK_OVERLAP
        )
        imported += result.chunks_created
        if (i + 1) % 20 == 0:
            rate = imported / (time.perf_counter() - started)
            log.info("imported %d/%d documents (%.1f chunks/s)", i + 1, n_docs, rate)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu0
    timer.restore()
    parts = timer.seconds
    breakdown = {
        "embed_s": parts["embed"],
        "chroma_upsert_s": parts["upsert"] - parts["embed"],
        "sql_index_bookkeeping_s": parts["index"] - parts["upsert"],
        "sql_import_transaction_s": elapsed - parts["index"],
    }

    async with container.db.transaction() as session:
        pending = await DocumentRepository(session).count_chunks(pending_only=True)
        stored = await DocumentRepository(session).count_chunks()
    indexed = await container.vectors.count(CHUNKS)
    if pending or indexed != stored:
        log.warning(
            "index out of step: %d pending, %d in Chroma, %d in SQL", pending, indexed, stored
        )

    log.info("raw embedding of the same %d chunks", len(chunks))
    cpu1, t = time.process_time(), time.perf_counter()
    vectors = container.embedder.embed_array(chunks)
    embed_s = time.perf_counter() - t
    embed_cpu = time.process_time() - cpu1

    out = {
        "documents_imported": n_docs,
        "chunks_imported": imported,
        "mean_chunk_chars": round(float(np.mean([len(c) for c in chunks])), 1),
        "mean_chunk_tokens": round(float(np.mean(tokens)), 1),
        "model_load_seconds": round(model_load_s, 2),
        "import_seconds": round(elapsed, 2),
        "import_chunks_per_second": round(imported / elapsed, 1),
        "import_cpu_seconds": round(cpu, 1),
        "import_breakdown_seconds": {k: round(v, 2) for k, v in breakdown.items()},
        "import_breakdown_share": {
            k.removesuffix("_s"): round(v / elapsed, 3) for k, v in breakdown.items()
        },
        "embed_seconds": round(embed_s, 2),
        "embed_chunks_per_second": round(len(chunks) / embed_s, 1),
        "embed_cpu_seconds": round(embed_cpu, 1),
        "embed_chunks_per_cpu_second": round(len(chunks) / max(embed_cpu, 1e-9), 1),
        "sql_chunks": stored,
        "chroma_chunks_after_import": indexed,
        "loadavg_1m_import": [load_before, load_1m()],
    }
    return out, (chunks, vectors, [d for _, d in pairs])
