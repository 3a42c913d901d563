"""Knowledge base: import throughput, query latency at 50,000 chunks, resident memory.

    python bench/knowledge.py [--chunks 1000] [--collection-size 50000] [--queries 200]
                              [--base-vectors 2000] [--noise 0.025] [--data-dir DIR]
    python bench/knowledge.py --memory-only [--data-dir DIR]
    python bench/knowledge.py --lexical-only [--collection-size 50000] [--postgres-url URL]
    python bench/knowledge.py --path auto|int8|uint8|off   # EMBEDDING_INT8 for the run

The output names the CPU, its int8-relevant flags (avx2, avx512_vnni, avx_vnni, amx_int8),
whether its uint8 x int8 products saturate, and which embedding path ran
(``embedding_path``: int8 or uint8 weights on the int8 graph, or float32).

Everything runs on the real stack: a migrated SQLite file (``kb.sqlite3``) and the embedded
Chroma store (``chroma/``) in a temporary DATA_DIR, the bundled all-MiniLM-L6-v2 int8 ONNX
model (``OnnxMiniLMEmbedder`` with the app's defaults) and ``Container.documents``.

1. Import. Deterministic English text about community life (sentences composed from word
   lists, seeded) is cut into documents of exactly 10 chunks at chunk_size 500 / overlap 50;
   enough documents for ``--chunks`` chunks go through ``knowledge_import`` one after the
   other, as the CLI does (SQL rows, embedding, Chroma upsert, marking the chunks indexed).
   One document is imported first as a warm-up and is not timed. The time is split into
   embedding, the Chroma upsert, the indexing bookkeeping in SQL and the import transaction
   (chunking + SQL insert) by wrapping ``VectorDBService.embed``/``upsert`` and
   ``IndexService.chunks_changed`` on the instances. ``embed_chunks_per_second`` is the raw
   model rate: ``embed_array`` over all the imported chunks in one call.
2. Query latency at ``--collection-size`` entries. Embedding 50,000 chunks with the real
   model would take half an hour here, so the collection is filled directly with vectors:
   ``--base-vectors`` distinct real chunks are embedded by the real model (the imported
   chunks plus further generated ones), and every further entry is a base vector plus
   isotropic Gaussian noise (sigma ``--noise`` per dimension), L2-normalised again — cosine
   to its base is about 0.9, i.e. each base becomes a cluster of near-duplicate passages,
   the way real knowledge bases hold many versions of similar text. Entries carry the base
   chunk's text and metadata like IndexService writes (document_id, chunk_index, the base's
   category out of five, proposal_id 0, scope "global", title); they go in through
   ``VectorDBService.upsert(CHUNKS, ..., embeddings=...)`` in batches of 5,000. No SQL rows
   are written for them: ``knowledge_query`` reads only Chroma. Then, sequentially and after
   a short warm-up: ``--queries`` ``knowledge_query`` calls (top_k 5, varied generated
   questions; query embedding + Chroma), as many with a category filter, the Chroma part
   alone (``VectorDBService.query`` with precomputed embeddings, both kinds) and the query
   embedding alone. Recall@5 of Chroma's HNSW search against exact search over the stored
   vectors shows the latency is not bought with wrong answers.
3. Lexical query latency (bench/knowledge_lexical.py): ``--collection-size`` chunks as SQL
   rows with their lexical terms, on SQLite and on PostgreSQL (``--postgres-url``), then
   ``LexicalSearch.chunks`` with and without a category filter: p50/p95 per database
   under ``lexical``. ``--lexical-only`` runs just this part.
4. Memory. ``--memory-only`` (run by the main run as a fresh subprocess on the same DATA_DIR,
   after the main process closed its Chroma client) loads what the bot loads: the app's
   modules (the Telegram handlers included), a Container with the default embedder, the
   embedded Chroma client with both collections open; then it loads the model and embeds
   one batch of 32 chunks: ``rss_mb_model_loaded`` is the resident set size at that point
   (/proc/self/statm; peaks are VmHWM). It then runs a few queries on the collection. This
   is done twice: on the benchmark's DATA_DIR (``rss_mb_model_loaded``, the bot with a
   knowledge base of --collection-size chunks, whose HNSW index Chroma holds in memory)
   and on an empty one (``rss_mb_model_loaded_empty_kb``).

The machine is shared: the 1-minute load average and this process's CPU time per phase are
in the output. Prints one JSON object on stdout; logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# These modules import only numpy and the standard library at import time, as the single
# module did: the --memory-only process loads them before its first RSS reading, so
# bench.common (asyncpg, SQLAlchemy, Alembic) is imported on the main run's path only.
from bench.knowledge_corpus import TextGenerator
from bench.knowledge_env import load_1m, peak_rss_mb, rss_mb, settings_for
from bench.knowledge_fill import fill_phase
from bench.knowledge_import import import_phase
from bench.knowledge_memory import memory_subprocess, run_memory_only
from bench.knowledge_query import query_phase

TARGET_IMPORT_CHUNKS_PER_SECOND = 80
TARGET_QUERY_P95_MS = 25
TARGET_RSS_MB = 350


async def run(args: argparse.Namespace, data_dir: Path) -> dict[str, Any]:
    from app.container import Container, default_embedder
    from app.domain.clock import SystemClock
    from app.persistence.database import Database
    from app.persistence.migrations import upgrade_head
    from app.services.embeddings import OnnxMiniLMEmbedder

    settings = settings_for(data_dir)  # EMBEDDING_INT8 from the environment (--path)
    url = settings.resolved_database_url
    await asyncio.to_thread(upgrade_head, url)
    embedder = default_embedder(settings)  # what the bot builds
    assert isinstance(embedder, OnnxMiniLMEmbedder)
    container = Container(settings, clock=SystemClock(), database=Database(url), embedder=embedder)
    gen = TextGenerator(args.seed)
    out: dict[str, Any] = {"embedder": embedder.to_config()}
    try:
        imported, base = await import_phase(container, args, gen)
        # "int8" / "uint8": the int8 graph with those weights; "float32": the model as it is.
        out["embedding_path"] = embedder.compute_path
        out["embedder_int8_active"] = embedder.int8_active
        out.update(imported)
        out["rss_mb_after_imports"] = rss_mb()
        out.update(await fill_phase(container, args, gen, base))
        out["rss_mb_after_fill"] = rss_mb()
        out.update(await query_phase(container, args, gen))
    finally:
        await container.stop()
    out["rss_mb_end"] = rss_mb()
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def report(
    result: dict[str, Any], memory: dict[str, Any], memory_empty: dict[str, Any], **run_info: Any
) -> dict[str, Any]:
    """The JSON object printed: ``run_info`` (cpus, start load), the results, the targets."""
    query_p95 = result["query_ms"]["p95"]
    from app.services.onnx_cpu import cpu_flags, int8_products_saturate

    return {
        "benchmark": "knowledge",
        "database": "sqlite",
        **run_info,
        "cpu": cpu_flags(),
        "int8_products_saturate": int8_products_saturate(),
        **result,
        "target_import_chunks_per_second": TARGET_IMPORT_CHUNKS_PER_SECOND,
        "target_query_p95_ms": TARGET_QUERY_P95_MS,
        "rss_mb_model_loaded": memory["rss_mb_model_loaded"],
        "rss_mb_model_loaded_empty_kb": memory_empty["rss_mb_model_loaded"],
        "memory": memory,
        "memory_empty_kb": memory_empty,
        "target_rss_mb": TARGET_RSS_MB,
        "meets_targets": {
            "import": result["import_chunks_per_second"] >= TARGET_IMPORT_CHUNKS_PER_SECOND,
            "query": query_p95 <= TARGET_QUERY_P95_MS,
            "query_filtered": result["query_filtered_ms"]["p95"] <= TARGET_QUERY_P95_MS,
            "memory": memory["rss_mb_model_loaded"] <= TARGET_RSS_MB,
            "memory_empty_kb": memory_empty["rss_mb_model_loaded"] <= TARGET_RSS_MB,
        },
    }


def lexical_report(lexical: dict[str, Any], load_start: float, started: float) -> dict[str, Any]:
    from app.services.onnx_cpu import cpu_flags

    return {
        "benchmark": "knowledge-lexical",
        "cpus": len(os.sched_getaffinity(0)),
        "cpu": cpu_flags().get("model_name", ""),
        "loadavg_1m_start": load_start,
        **lexical,
        "loadavg_1m_end": load_1m(),
        "total_seconds": round(time.perf_counter() - started, 1),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=1000, help="chunks to import (~10/doc)")
    parser.add_argument("--collection-size", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200, help="of each kind")
    parser.add_argument(
        "--base-vectors",
        type=int,
        default=2000,
        help="distinct real chunks embedded by the model to derive the synthetic entries from",
    )
    parser.add_argument(
        "--noise", type=float, default=0.025, help="per-dimension sigma of the perturbation"
    )
    parser.add_argument("--seed", type=int, default=20_240_601)
    parser.add_argument(
        "--data-dir", type=Path, help="DATA_DIR to use (must be empty; default: a temp dir)"
    )
    parser.add_argument(
        "--path",
        choices=["auto", "int8", "uint8", "off"],
        default=None,
        help="EMBEDDING_INT8 for this run and its memory subprocesses (default: as set)",
    )
    parser.add_argument(
        "--postgres-url",
        default="postgresql+asyncpg://postgres@127.0.0.1:5432/coordbot_bench_lexical",
        help="the PostgreSQL database the lexical queries run on (emptied first)",
    )
    parser.add_argument(
        "--lexical-only", action="store_true", help="only the lexical query latency"
    )
    parser.add_argument(
        "--memory-only",
        action="store_true",
        help="only the memory measurement, in this process (run by the main run)",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    if args.path is not None:
        os.environ["EMBEDDING_INT8"] = args.path
    if args.memory_only:
        result = run_memory_only(args.data_dir, args.seed)
        print(json.dumps({"benchmark": "knowledge-memory", **result}))
        return

    from bench.common import log_to_stderr
    from bench.knowledge_lexical import lexical_phase

    log_to_stderr()
    own_dir = args.data_dir is None
    data_dir = Path(tempfile.mkdtemp(prefix="coordbot-kb-")) if own_dir else args.data_dir
    if not own_dir and data_dir.exists() and any(data_dir.iterdir()):
        raise SystemExit(f"--data-dir {data_dir} is not empty")
    started = time.perf_counter()
    load_start = load_1m()
    if args.lexical_only:
        try:
            lexical = asyncio.run(lexical_phase(args, data_dir))
        finally:
            if own_dir:
                shutil.rmtree(data_dir, ignore_errors=True)
        print(json.dumps(lexical_report(lexical, load_start, started)))
        return
    try:
        result = asyncio.run(run(args, data_dir))
        result["lexical"] = asyncio.run(lexical_phase(args, data_dir))
        memory = memory_subprocess(data_dir)
        memory_empty = memory_subprocess(None)
    finally:
        if own_dir:
            shutil.rmtree(data_dir, ignore_errors=True)

    out = report(
        result,
        memory,
        memory_empty,
        cpus=len(os.sched_getaffinity(0)),
        loadavg_1m_start=load_start,
    )
    out["loadavg_1m_end"] = load_1m()
    out["total_seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
