"""Query latency on the filled collection, and whether its answers are right.

``knowledge_query`` end to end (query embedding + Chroma), with and without a category
filter, then the Chroma part and the embedding part alone, so a slow p95 says which one it
is; recall@5 of Chroma's HNSW search against exact search over the stored vectors shows the
latency is not bought with wrong answers.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import numpy as np

from bench.knowledge_corpus import CATEGORIES, TextGenerator
from bench.knowledge_env import load_1m
from bench.knowledge_fill import FILL_BATCH

WARMUP_QUERIES = 10
TOP_K = 5

log = logging.getLogger(__name__)


def summary(seconds: list[float]) -> dict[str, float]:
    # imported here: bench.common must stay out of the --memory-only process (see
    # bench/knowledge_memory.py), which imports this module through bench/knowledge.py
    from bench.common import latency_summary

    got = latency_summary(seconds)
    return {k.removesuffix("_ms"): v for k, v in got.items()}


async def timed_calls(calls: list[Callable[[], Awaitable[Any]]]) -> tuple[list[float], list[Any]]:
    latencies, results = [], []
    for call in calls:
        started = time.perf_counter()
        results.append(await call())
        latencies.append(time.perf_counter() - started)
    return latencies, results


async def recall_vs_exact(vectors: Any, embeddings: np.ndarray, hits: list[Any]) -> float:
    """Mean recall@TOP_K of ``hits`` against exact search over what Chroma stores."""
    from app.services.vector_db_service import CHUNKS

    collection = await vectors._collection(CHUNKS)
    ids: list[str] = []
    stored: list[np.ndarray] = []
    total = await vectors.count(CHUNKS)
    for offset in range(0, total, FILL_BATCH):
        got = await asyncio.to_thread(
            collection.get, include=["embeddings"], limit=FILL_BATCH, offset=offset
        )
        ids += got["ids"]
        stored.append(np.asarray(got["embeddings"], dtype=np.float32))
    matrix = np.vstack(stored)
    exact = np.argsort(-(embeddings @ matrix.T), axis=1)[:, :TOP_K]
    return float(
        np.mean(
            [
                len({ids[j] for j in row} & {h.id for h in found}) / TOP_K
                for row, found in zip(exact, hits, strict=True)
            ]
        )
    )


async def query_phase(container: Any, args: argparse.Namespace, gen: TextGenerator) -> dict:
    from app.services.vector_db_service import CHUNKS

    docs = container.documents
    vectors = container.vectors
    n = args.queries
    plain = [gen.query(CATEGORIES[i % len(CATEGORIES)]) for i in range(n)]
    filtered = [(gen.query(c), c) for c in (CATEGORIES[(i * 3) % 5] for i in range(n))]
    warm = [gen.query(CATEGORIES[i % len(CATEGORIES)]) for i in range(WARMUP_QUERIES)]

    load_before = load_1m()
    t = time.perf_counter()
    await docs.knowledge_query(warm[0], top_k=TOP_K)
    first_ms = (time.perf_counter() - t) * 1000
    for q in warm[1:]:
        await docs.knowledge_query(q, top_k=TOP_K)
        await docs.knowledge_query(q, top_k=TOP_K, category=CATEGORIES[0])

    cpu0 = time.process_time()
    lat_plain, res_plain = await timed_calls(
        [partial(docs.knowledge_query, q, top_k=TOP_K) for q in plain]
    )
    lat_filtered, res_filtered = await timed_calls(
        [partial(docs.knowledge_query, q, top_k=TOP_K, category=c) for q, c in filtered]
    )
    query_cpu = time.process_time() - cpu0
    wrong = sum(
        1
        for (_, c), r in zip(filtered, res_filtered, strict=True)
        for item in r["results"]
        if item["document"]["category"] != c
    )
    short = sum(r["total"] < TOP_K for r in res_plain + res_filtered)
    if wrong or short:
        log.warning("%d hits outside the category filter, %d short answers", wrong, short)

    emb_plain = container.embedder.embed_array(plain)
    emb_filtered = container.embedder.embed_array([q for q, _ in filtered])
    lat_chroma, hits_chroma = await timed_calls(
        [partial(vectors.query, CHUNKS, e, TOP_K) for e in emb_plain]
    )
    lat_chroma_f, _ = await timed_calls(
        [
            partial(vectors.query, CHUNKS, e, TOP_K, {"category": c})
            for e, (_, c) in zip(emb_filtered, filtered, strict=True)
        ]
    )
    lat_embed = []
    for q in plain:
        t = time.perf_counter()
        container.embedder.embed_array([q])
        lat_embed.append(time.perf_counter() - t)
    load_after = load_1m()
    recall = await recall_vs_exact(vectors, emb_plain, hits_chroma)

    return {
        "queries": n,
        "top_k": TOP_K,
        "first_query_ms": round(first_ms, 1),
        "query_ms": summary(lat_plain),
        "query_filtered_ms": summary(lat_filtered),
        "chroma_only_query_ms": summary(lat_chroma),
        "chroma_only_filtered_query_ms": summary(lat_chroma_f),
        "query_embedding_ms": summary(lat_embed),
        "query_cpu_ms_per_query": round(1000 * query_cpu / (2 * n), 2),
        "recall_at_5_vs_exact": round(recall, 3),
        "filtered_hits_outside_category": wrong,
        "loadavg_1m_queries": [load_before, load_after],
    }
