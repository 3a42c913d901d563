"""Lexical query latency at ``--collection-size`` chunks, on SQLite and PostgreSQL.

The chunks are real SQL rows this time (the lexical index lives in SQL): documents of
the generated corpus, cut at chunk_size 500 / overlap 50, each chunk stored with
``lexical_text`` of its content as the document import stores it; the FTS5 triggers
(SQLite) and the GIN index (PostgreSQL) are maintained while they go in. Then ANALYZE,
a short warm-up, and ``--queries`` sequential ``LexicalSearch.chunks`` calls (top 20,
the generated questions through ``lexical_terms``, each in its own transaction as /ask
runs them), as many with a category filter.

The corpus's vocabulary is small (a few hundred words over 50,000 chunks), so every
query term matches thousands of chunks and each query ranks thousands: a worst case
next to real documents, where most words are rare.
"""

from __future__ import annotations

import argparse
import logging
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.knowledge_corpus import (
    CATEGORIES,
    CHUNK_OVERLAP,
    CHUNK_SIZE,
    CHUNKS_PER_DOCUMENT,
    TextGenerator,
    make_documents,
)
from bench.knowledge_env import load_1m

TOP = 20
INSERT_BATCH = 2000
WARMUP = 10
NOW = datetime(2026, 11, 25, tzinfo=UTC)

log = logging.getLogger(__name__)


def corpus(args: argparse.Namespace) -> tuple[list[dict], list[dict], float]:
    """Document and chunk rows for ``--collection-size`` chunks, and the seconds spent in
    ``lexical_text`` (the normaliser's share of an import)."""
    from app.nlp.chunking import chunk_text
    from app.nlp.lexical import lexical_text

    gen = TextGenerator(args.seed + 1)
    count = -(-args.collection_size // CHUNKS_PER_DOCUMENT)
    documents, chunks, normalising = [], [], 0.0
    for i, (title, category, content) in enumerate(make_documents(gen, count, 0)):
        doc_id = str(uuid.UUID(int=i + 1))
        documents.append(
            {"id": doc_id, "title": title, "content": content, "category": category,
             "scope": "global", "content_hash": f"{i:064x}", "chunk_size": CHUNK_SIZE,
             "chunk_overlap": CHUNK_OVERLAP, "extra": {}, "created_at": NOW, "updated_at": NOW}
        )  # fmt: skip
        for index, piece in enumerate(chunk_text(content, CHUNK_SIZE, CHUNK_OVERLAP)):
            started = time.perf_counter()
            lexical = lexical_text(piece)
            normalising += time.perf_counter() - started
            chunks.append(
                {"id": str(uuid.uuid4()), "document_id": doc_id, "chunk_index": index,
                 "content": piece, "indexed": True, "lexical": lexical}
            )  # fmt: skip
    return documents, chunks[: args.collection_size], normalising


async def _fill(db: Any, documents: list[dict], chunks: list[dict]) -> float:
    from sqlalchemy import insert, text

    from app.persistence.knowledge_models import ChunkRow, DocumentRow

    started = time.perf_counter()
    async with db.transaction() as session:
        for start in range(0, len(documents), INSERT_BATCH):
            await session.execute(insert(DocumentRow), documents[start : start + INSERT_BATCH])
    for start in range(0, len(chunks), INSERT_BATCH):
        async with db.transaction() as session:
            await session.execute(insert(ChunkRow), chunks[start : start + INSERT_BATCH])
    seconds = time.perf_counter() - started
    async with db.engine.begin() as connection:
        await connection.execute(text("ANALYZE"))
    return seconds


async def _timed(db: Any, calls: list[tuple[list[str], str | None]]) -> tuple[list[float], int]:
    from app.persistence.repositories.lexical import LexicalSearch

    latencies, hits = [], 0
    for terms, category in calls:
        started = time.perf_counter()
        async with db.transaction() as session:
            found = await LexicalSearch(session).chunks(terms, TOP, category=category)
        latencies.append(time.perf_counter() - started)
        hits += len(found)
    return latencies, hits


async def one_database(name: str, url: str, args: argparse.Namespace, rows: Any) -> dict:
    from app.nlp.lexical import lexical_terms
    from app.persistence.database import Database
    from bench.knowledge_query import summary

    documents, chunks, _ = rows
    db = Database(url)
    try:
        log.info("%s: storing %d chunks with their lexical terms", name, len(chunks))
        fill_s = await _fill(db, documents, chunks)
        gen = TextGenerator(args.seed + 2)
        plain = [(lexical_terms(gen.query(CATEGORIES[i % 5])), None) for i in range(args.queries)]
        filtered = [
            (lexical_terms(gen.query(c)), c)
            for c in (CATEGORIES[(i * 3) % 5] for i in range(args.queries))
        ]
        await _timed(db, plain[:WARMUP] + filtered[:WARMUP])
        log.info("%s: timing %d + %d lexical queries", name, len(plain), len(filtered))
        load_before = load_1m()
        cpu = time.process_time()
        lat_plain, hits_plain = await _timed(db, plain)
        lat_filtered, hits_filtered = await _timed(db, filtered)
        cpu = time.process_time() - cpu
        return {
            "database": name,
            "chunks": len(chunks),
            "store_chunks_per_second": round(len(chunks) / fill_s),
            "queries": len(plain),
            "top": TOP,
            "terms_per_query": round(sum(len(t) for t, _ in plain) / len(plain), 1),
            "query_ms": summary(lat_plain),
            "query_filtered_ms": summary(lat_filtered),
            "mean_hits": round((hits_plain + hits_filtered) / (2 * len(plain)), 1),
            "client_cpu_ms_per_query": round(1000 * cpu / (2 * len(plain)), 2),
            "loadavg_1m_queries": [load_before, load_1m()],
        }
    finally:
        await db.dispose()


async def lexical_phase(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    """Both databases, the same chunks and queries; one JSON object."""
    import asyncio

    from app.persistence.migrations import upgrade_head
    from bench.common import exclusive_use, prepare_postgres

    rows = corpus(args)
    _, chunks, normalising = rows
    out: dict[str, Any] = {
        "corpus_words_per_chunk": round(
            sum(len(c["content"].split()) for c in chunks) / max(len(chunks), 1), 1
        ),
        "lexical_text_us_per_chunk": round(1e6 * normalising / max(len(chunks), 1), 1),
        "results": [],
    }
    sqlite_url = f"sqlite+aiosqlite:///{(data_dir / 'lexical.sqlite3').resolve()}"
    await asyncio.to_thread(upgrade_head, sqlite_url)
    out["results"].append(await one_database("sqlite", sqlite_url, args, rows))
    async with exclusive_use(args.postgres_url):
        await prepare_postgres(args.postgres_url)
        out["results"].append(await one_database("postgres", args.postgres_url, args, rows))
    return out
