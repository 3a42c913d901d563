"""Resident memory of the bot with a knowledge base: the ``--memory-only`` measurement.

It runs in a fresh interpreter (``python bench/knowledge.py --memory-only``), started by the
main run after its own Chroma client is closed, so the figures are those of a bot process
and not of the benchmark that filled the collection. The first reading is taken before the
app is imported; keep this module's imports light (no ``bench.common``: asyncpg, SQLAlchemy
and Alembic would add tens of MB to ``rss_mb_interpreter``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.knowledge_corpus import CATEGORIES, CHUNK_OVERLAP, CHUNK_SIZE, TextGenerator
from bench.knowledge_env import peak_rss_mb, rss_mb, settings_for

SCRIPT = Path(__file__).resolve().with_name("knowledge.py")

log = logging.getLogger(__name__)


async def memory_only(data_dir: Path, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {"rss_mb_interpreter": rss_mb()}
    import app.telegram_handlers.bot  # noqa: F401  (the bot process imports it all)
    from app.container import Container
    from app.services.vector_db_service import CHUNKS

    out["rss_mb_modules_imported"] = rss_mb()
    container = Container(settings_for(data_dir))  # default_embedder(), as the bot
    try:
        await container.vectors.open_all()
        out["collection_size"] = await container.vectors.count(CHUNKS)
        out["rss_mb_collections_open"] = rss_mb()
        gen = TextGenerator(seed + 1)
        from app.nlp.chunking import chunk_text

        batch = [
            c
            for category in CATEGORIES * 2
            for c in chunk_text(gen.document(category, 4), CHUNK_SIZE, CHUNK_OVERLAP)
        ][:32]
        t = time.perf_counter()
        container.embedder.load()  # type: ignore[attr-defined]
        out["int8_active"] = container.embedder.int8_active  # type: ignore[attr-defined]
        out["embedding_path"] = container.embedder.compute_path  # type: ignore[attr-defined]
        container.embedder.embed_array(batch)
        out["model_load_and_first_batch_seconds"] = round(time.perf_counter() - t, 2)
        out["first_batch_chunks"] = len(batch)
        out["rss_mb_model_loaded"] = rss_mb()
        out["model_mb"] = round(out["rss_mb_model_loaded"] - out["rss_mb_collections_open"], 1)
        t = time.perf_counter()
        await container.documents.knowledge_query("who repairs the community hall roof?")
        out["first_query_ms"] = round((time.perf_counter() - t) * 1000, 1)
        out["rss_mb_after_first_query"] = rss_mb()
        for q in ("budget for the winter market", "how do we amend the bylaws?"):
            await container.documents.knowledge_query(q)
        out["rss_mb_after_queries"] = rss_mb()
    finally:
        await container.stop()
    out["peak_rss_mb"] = peak_rss_mb()
    return out


def run_memory_only(data_dir: Path | None, seed: int) -> dict[str, Any]:
    """The ``--memory-only`` run in this process, on ``data_dir`` (None: an empty one)."""
    logging.basicConfig(  # as bench.common.log_to_stderr, which this process must not import
        stream=sys.stderr,
        level=logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    with tempfile.TemporaryDirectory(prefix="coordbot-kb-mem-") as tmp:
        return asyncio.run(memory_only(data_dir or Path(tmp), seed))


def memory_subprocess(data_dir: Path | None) -> dict[str, Any]:
    """``--memory-only`` in a fresh interpreter, on ``data_dir`` (None: an empty one)."""
    log.info("measuring memory in a fresh process (%s)", data_dir or "empty knowledge base")
    command = [sys.executable, str(SCRIPT), "--memory-only"]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    done = subprocess.run(command, stdout=subprocess.PIPE, check=True, text=True)
    return json.loads(done.stdout)  # type: ignore[no-any-return]
