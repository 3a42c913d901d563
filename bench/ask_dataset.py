"""The data set /ask is measured on, written once and kept: SQL rows and Chroma entries.

The content comes from bench/ask_corpus.py. SQL rows go in in bulk: users, proposals
(indexed_revision = revision), documents, their chunks (marked indexed) and the facts,
through ``FactRepository.bulk_upsert``. Chroma is filled through
``VectorDBService.upsert(..., embeddings=...)`` with IndexService's ids, texts and metadata,
so the app finds nothing left to index. The documents' units (sentences, list items, table
rows) are stored as ``UnitIndex`` would store them at index time: a unit whose text is one of
the embedded sentences gets that sentence's vector, the rest (the documents' title lines) are
embedded once here, so /ask reads unit vectors and makes no model call for them. The facts'
vectors are stored as after an import (``FactVectors.current``: every fact embedded by the
real model, a few minutes), so the first question measures the steady state. The SQLite
file and the Chroma directory are kept under --data-dir (default: a directory per size under
the system temp dir) and reused while the version and sizes match; --rebuild builds them
again.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np

from bench.ask_community import NOW, SEED, users
from bench.ask_corpus import Texts, fact_rows, make_documents, make_pools, make_proposals
from bench.common import exclusive_use, logger, prepare_postgres

DATASET_VERSION = 4  # 3: the documents' unit vectors are stored; 4: the facts' vectors
BATCH = 5000


def add_dataset_arguments(parser: argparse.ArgumentParser, database_help: str) -> None:
    """The data set's size and where it lives: shared by the benchmarks that use it."""
    parser.add_argument("--proposals", type=int, default=10_000)
    parser.add_argument("--chunks", type=int, default=20_000)
    parser.add_argument("--facts", type=int, default=100_000)
    parser.add_argument("--data-dir", type=Path, help="where the data set is kept and reused")
    parser.add_argument("--rebuild", action="store_true", help="build the data set again")
    parser.add_argument("--database-url", help=database_help)


def default_data_dir(args: argparse.Namespace, benchmark: str) -> None:
    """``--data-dir`` when not given: one directory per size under the system temp dir."""
    if args.data_dir is None:
        suffix = "-pg" if args.database_url else ""
        name = f"p{args.proposals}-c{args.chunks}-f{args.facts}{suffix}"
        args.data_dir = Path(tempfile.gettempdir()) / f"coordbot-bench-{benchmark}" / name


async def run_guarded(
    run: Callable[[argparse.Namespace], Awaitable[dict[str, Any]]], args: argparse.Namespace
) -> dict[str, Any]:
    """``run(args)``, holding the PostgreSQL benchmark database for itself when one is used."""
    if not args.database_url:
        return await run(args)
    async with exclusive_use(args.database_url):
        return await run(args)


async def build(container: Any, args: argparse.Namespace) -> dict[str, Any]:
    from sqlalchemy import insert

    from app.core.knowledge.index_service import proposal_key, proposal_metadata, proposal_text
    from app.nlp.lexical import lexical_text, proposal_lexical
    from app.persistence.knowledge_models import ChunkRow, DocumentRow
    from app.persistence.models import ProposalRow, UserRow
    from app.persistence.repositories.facts import FactRepository
    from app.services.vector_db_service import CHUNKS, PROPOSALS

    started = time.perf_counter()
    rnd = random.Random(SEED)
    texts = Texts()
    pools = make_pools(texts, rnd)
    people = users()
    proposals, proposal_sentences = make_proposals(args.proposals, people, texts, pools, rnd)
    documents, chunks = make_documents(args.chunks, proposals, texts, pools, rnd)
    logger.info("embedding %d distinct sentences with the real model", len(texts.sentences))
    t = time.perf_counter()
    texts.vectors = await container.vectors.embed(texts.sentences)
    embed_s = time.perf_counter() - t

    logger.info("writing SQL rows")
    t = time.perf_counter()
    async with container.db.transaction() as session:
        await session.execute(
            insert(UserRow),
            [{"telegram_id": u.telegram_id, "username": u.username, "first_name": u.first_name,
              "last_name": u.last_name, "created_at": NOW, "updated_at": NOW} for u in people],
        )  # fmt: skip
    for start in range(0, len(proposals), BATCH):
        async with container.db.transaction() as session:
            await session.execute(
                insert(ProposalRow),
                [
                    {"id": p.id, "proposer_id": p.proposer_id, "title": p.title,
                     "description": p.description, "proposal_type": p.proposal_type.value,
                     "options": p.options, "target_channel_id": p.target_channel_id,
                     "channel_message_id": p.channel_message_id, "created_at": p.created_at,
                     "deadline_at": p.deadline_at, "closed_at": p.closed_at,
                     "status": p.status.value, "outcome": p.outcome, "raw_results": p.raw_results,
                     "revision": 1, "indexed_revision": 1,
                     "lexical": proposal_lexical(p.title, p.description, p.options, "en")}
                    for p in proposals[start : start + BATCH]
                ],
            )  # fmt: skip
    async with container.db.transaction() as session:
        if documents:
            await session.execute(insert(DocumentRow), documents)
        for start in range(0, len(chunks), BATCH):
            await session.execute(
                insert(ChunkRow),
                [{"id": c.id, "document_id": c.document_id, "chunk_index": c.index,
                  "content": c.content, "indexed": True, "lexical": lexical_text(c.content)}
                 for c in chunks[start : start + BATCH]],
            )  # fmt: skip
    rows, with_facts = fact_rows(proposals, args.facts, people, rnd)
    for start in range(0, len(rows), 50_000):
        async with container.db.transaction() as session:
            await FactRepository(session).bulk_upsert(rows[start : start + 50_000], NOW)
    async with container.db.transaction() as session:
        await FactRepository(session).analyze()
    sql_s = time.perf_counter() - t

    logger.info("storing the vectors of %d facts, as an import does", len(rows))
    t = time.perf_counter()
    await container.fact_vectors.current()
    facts_s = time.perf_counter() - t

    logger.info("filling Chroma: %d proposals, %d chunks", len(proposals), len(chunks))
    t = time.perf_counter()
    for start in range(0, len(proposals), BATCH):
        part = proposals[start : start + BATCH]
        vectors = np.stack([texts.mean(s) for s in proposal_sentences[start : start + BATCH]])
        await container.vectors.upsert(
            PROPOSALS, [proposal_key(p.id) for p in part], [proposal_text(p) for p in part],
            [proposal_metadata(p) for p in part], embeddings=vectors,
        )  # fmt: skip
    by_id = {d["id"]: d for d in documents}
    for start in range(0, len(chunks), BATCH):
        part = chunks[start : start + BATCH]
        metadatas = []
        for c in part:
            d = by_id[c.document_id]
            metadatas.append(
                {"document_id": d["id"], "chunk_index": c.index, "category": d["category"] or "",
                 "proposal_id": d["proposal_id"] or 0,
                 "scope": "proposal" if d["proposal_id"] else "global", "title": d["title"]}
            )  # fmt: skip
        vectors = np.stack([texts.mean(c.sentences) for c in part])
        await container.vectors.upsert(
            CHUNKS, [c.id for c in part], [c.content for c in part], metadatas, embeddings=vectors
        )
    chroma_s = time.perf_counter() - t

    t = time.perf_counter()
    units, units_embedded = await store_units(container, documents, texts)
    units_s = time.perf_counter() - t
    return {
        "distinct_sentences_embedded": len(texts.sentences),
        "units": units,
        "units_embedded": units_embedded,
        "documents": len(documents),
        "proposals_with_facts": with_facts,
        "proposal_facts": sum(r[7] != "manual" for r in rows),
        "community_facts": sum(r[7] == "manual" for r in rows),
        "build_breakdown_seconds": {
            "embed": round(embed_s, 1),
            "sql": round(sql_s, 1),
            "chroma": round(chroma_s, 1),
            "fact_vectors": round(facts_s, 1),
            "units": round(units_s, 1),
        },
        "build_seconds": round(time.perf_counter() - started, 1),
    }


async def store_units(
    container: Any, documents: list[dict[str, Any]], texts: Any
) -> tuple[int, int]:
    """Every document's units in the index, as ``UnitIndex`` stores them at index time.

    A unit reads the vector of the embedded sentence with its text; the other texts are
    embedded once, each distinct text one time. Returns (units stored, texts embedded).
    """
    from app.core.knowledge.unit_index import unit_ids, unit_text
    from app.nlp.units import segment
    from app.services.vector_db_service import UNITS

    ids, said, metadatas, rows = [], [], [], []
    known = len(texts.sentences)
    fresh: dict[str, int] = {}  # a text not among the sentences -> its row after them
    for d in documents:
        units = segment(d["content"])
        for key, unit in zip(unit_ids(d["id"], d["content"], len(units)), units, strict=True):
            text = unit_text(unit)
            ids.append(key)
            said.append(text)
            metadatas.append({"document_id": d["id"]})
            found = texts.index.get(text)
            rows.append(found if found is not None else fresh.setdefault(text, known + len(fresh)))
    logger.info("storing %d units (%d texts to embed)", len(ids), len(fresh))
    assert texts.vectors is not None
    extra = (
        await container.vectors.embed(list(fresh))
        if fresh
        else np.zeros((0, texts.vectors.shape[1]), dtype=texts.vectors.dtype)
    )
    vectors = np.concatenate([texts.vectors, extra])[np.array(rows, dtype=np.int64)]
    for start in range(0, len(ids), BATCH):
        end = start + BATCH
        await container.vectors.upsert(
            UNITS, ids[start:end], said[start:end], metadatas[start:end], vectors[start:end]
        )
    return len(ids), len(fresh)


async def counts(container: Any) -> dict[str, int]:
    from sqlalchemy import func, select

    from app.persistence.knowledge_models import ChunkRow
    from app.persistence.models import FactRow, ProposalRow
    from app.services.vector_db_service import CHUNKS, FACTS, PROPOSAL_FACTS, PROPOSALS, UNITS

    async with container.db.transaction() as session:
        found = {
            name: int(await session.scalar(select(func.count()).select_from(table)) or 0)
            for name, table in (("proposals", ProposalRow), ("chunks", ChunkRow),
                                ("facts", FactRow))
        }  # fmt: skip
    found["chroma_proposals"] = await container.vectors.count(PROPOSALS)
    found["chroma_chunks"] = await container.vectors.count(CHUNKS)
    found["chroma_units"] = await container.vectors.count(UNITS)
    found["chroma_facts"] = await container.vectors.count(FACTS)
    found["chroma_proposal_facts"] = await container.vectors.count(PROPOSAL_FACTS)
    return found


async def ensure_dataset(config: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Build the data set unless ``marker`` says this one is there (and the counts agree)."""
    from app.container import Container
    from app.domain.clock import FrozenClock
    from app.persistence.migrations import upgrade_head

    marker = args.data_dir / "dataset.json"
    wanted = {"version": DATASET_VERSION, "proposals": args.proposals, "chunks": args.chunks,
              "facts": args.facts, "database": args.database_url or "sqlite"}  # fmt: skip
    if marker.exists() and not args.rebuild:
        saved = json.loads(marker.read_text())
        if {k: saved.get(k) for k in wanted} == wanted:
            container = Container(config, clock=FrozenClock(NOW))
            try:
                found = await counts(container)
            finally:
                await container.stop()
            if found == saved["counts"]:
                logger.info("reusing the data set in %s", args.data_dir)
                return {**saved, "reused": True}
            logger.warning("data set in %s is incomplete (%s); rebuilding", args.data_dir, found)
    if args.data_dir.exists() and any(args.data_dir.iterdir()) and not marker.exists():
        raise SystemExit(f"--data-dir {args.data_dir} holds something else; give an empty one")
    shutil.rmtree(args.data_dir, ignore_errors=True)
    args.data_dir.mkdir(parents=True)
    if args.database_url:
        await prepare_postgres(args.database_url)
    else:
        await asyncio.to_thread(upgrade_head, config.resolved_database_url)
    container = Container(config, clock=FrozenClock(NOW))
    try:
        stats = await build(container, args)
        stats["counts"] = await counts(container)
    finally:
        await container.stop()
    saved = {**wanted, **stats}
    marker.write_text(json.dumps(saved, indent=1))
    return {**saved, "reused": False}
