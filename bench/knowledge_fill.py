"""Fill the chunk collection to ``--collection-size`` with vectors derived from real ones.

Embedding 50,000 chunks with the real model would take half an hour, so ``--base-vectors``
distinct real chunks are embedded and every further entry is a base vector plus isotropic
Gaussian noise, L2-normalised again: each base becomes a cluster of near-duplicate passages,
the way real knowledge bases hold many versions of similar text.
"""

from __future__ import annotations

import argparse
import logging
import random
import time
import uuid
from typing import Any

import numpy as np

from bench.knowledge_corpus import (
    CHUNK_OVERLAP,
    CHUNK_SIZE,
    CHUNKS_PER_DOCUMENT,
    TextGenerator,
    make_documents,
)
from bench.knowledge_import import Base

FILL_BATCH = 5000

log = logging.getLogger(__name__)


def more_base_vectors(container: Any, gen: TextGenerator, base: Base, extra: int) -> Base:
    """``base`` with ``extra`` further generated chunks embedded by the real model."""
    from app.nlp.chunking import chunk_text

    texts, vectors, docs = base
    more = make_documents(gen, -(-extra // CHUNKS_PER_DOCUMENT), 100_000)
    new = [(c, d) for d in more for c in chunk_text(d[2], CHUNK_SIZE, CHUNK_OVERLAP)][:extra]
    log.info("embedding %d more distinct chunks as base vectors", len(new))
    t = time.perf_counter()
    more_vectors = container.embedder.embed_array([c for c, _ in new])
    log.info("... %.1f chunks/s", len(new) / (time.perf_counter() - t))
    return (
        [*texts, *(c for c, _ in new)],
        np.vstack([vectors, more_vectors]),
        [*docs, *(d for _, d in new)],
    )


def entry_metadata(k: int, n_base: int, document_id: str, doc: tuple[str, str, str]) -> dict:
    """IndexService-style metadata for synthetic entry ``k``, a copy of base ``doc``."""
    title, category, _ = doc
    return {
        "document_id": document_id,
        "chunk_index": k % CHUNKS_PER_DOCUMENT,
        "category": category,
        "proposal_id": 0,
        "scope": "global",
        "title": f"{title} (v{k // n_base + 2})",
    }


async def fill_phase(
    container: Any, args: argparse.Namespace, gen: TextGenerator, base: Base
) -> dict[str, Any]:
    """Top the chunk collection up to --collection-size with perturbed real vectors."""
    from app.services.vector_db_service import CHUNKS

    extra = max(0, args.base_vectors - len(base[0]))
    if extra:
        base = more_base_vectors(container, gen, base, extra)
    texts, vectors, docs = base
    n_base = len(texts)

    have = await container.vectors.count(CHUNKS)
    todo = max(0, args.collection_size - have)
    rng = np.random.default_rng(args.seed)
    id_rng = random.Random(args.seed)
    cosines: list[np.ndarray] = []
    started = time.perf_counter()
    document_id = ""
    for start in range(0, todo, FILL_BATCH):
        n = min(FILL_BATCH, todo - start)
        which = (np.arange(start, start + n) * 7919) % n_base  # spread each base's copies
        noisy = vectors[which] + rng.standard_normal((n, vectors.shape[1]), dtype=np.float32) * (
            args.noise
        )
        noisy /= np.linalg.norm(noisy, axis=1, keepdims=True)
        cosines.append(np.einsum("ij,ij->i", noisy, vectors[which]))
        ids, metadatas = [], []
        for j, b in enumerate(which):
            k = start + j
            if k % CHUNKS_PER_DOCUMENT == 0:
                document_id = str(uuid.UUID(int=id_rng.getrandbits(128), version=4))
            ids.append(str(uuid.UUID(int=id_rng.getrandbits(128), version=4)))
            metadatas.append(entry_metadata(k, n_base, document_id, docs[b]))
        await container.vectors.upsert(
            CHUNKS, ids, [texts[b] for b in which], metadatas, embeddings=noisy
        )
        log.info("collection filled: %d/%d", have + start + n, args.collection_size)
    fill_s = time.perf_counter() - started
    size = await container.vectors.count(CHUNKS)
    cos = np.concatenate(cosines) if cosines else np.zeros(0)
    return {
        "collection_size": size,
        "fill_vectors": todo,
        "fill_seconds": round(fill_s, 1),
        "fill_chroma_upserts_per_second": round(todo / fill_s, 1) if fill_s else None,
        "base_vectors": n_base,
        "synthetic_cosine_to_base": {
            "mean": round(float(cos.mean()), 3) if cos.size else None,
            "min": round(float(cos.min()), 3) if cos.size else None,
        },
        "synthetic_vectors": (
            f"{size - todo} entries are real imported chunks; the other {todo} are "
            f"perturbations of {n_base} distinct real chunks embedded by the real model "
            f"(the imported chunks + {extra} more generated ones): base + N(0, {args.noise}^2) "
            "per dimension, L2-normalised, cycling over the bases (about "
            f"{todo // max(n_base, 1)} copies each), with the base's text, category and title "
            "and IndexService-style metadata, upserted in batches of "
            f"{FILL_BATCH} via VectorDBService.upsert(embeddings=...); no SQL rows for them"
        ),
    }
