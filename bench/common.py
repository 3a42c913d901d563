"""Shared set-up for the benchmarks: a private PostgreSQL database and the offline bot.

Benchmarks print one JSON object on stdout; everything else (logs, progress) goes to stderr.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import logging
import os
import pstats
import statistics
import sys
import warnings
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
if str(REPO_ROOT) not in sys.path:  # `python bench/x.py` puts bench/, not the repo, on the path
    sys.path.insert(0, str(REPO_ROOT))

import asyncpg  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from app.persistence.migrations import upgrade_head  # noqa: E402

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/coordbot_bench"
TOKEN = "123456:TEST-TOKEN"
CHANNEL_ID = "-1001234567890"

logger = logging.getLogger("bench")


def log_to_stderr(level: int = logging.WARNING) -> None:
    logging.basicConfig(
        stream=sys.stderr, level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logger.setLevel(logging.INFO)


def start_bot_benchmark() -> None:
    """Logs to stderr, and PTB set up as the bot and the tests run it.

    PTB_TIMEDELTA opts into PTB's timedelta values (as ``app.cli`` does); the per_message
    warning is muted because our DM conversations mix buttons and text on purpose.
    """
    os.environ.setdefault("PTB_TIMEDELTA", "true")
    log_to_stderr()
    warnings.filterwarnings("ignore", message="If 'per_message=False'")


def write_profile(profiler: cProfile.Profile, path: str, top: int = 40) -> None:
    """Save ``profiler``'s stats to ``path`` and print its ``top`` entries to stderr."""
    profiler.dump_stats(path)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(top)
    sys.stderr.write(text.getvalue())


def _asyncpg_dsn(url: str, database: str | None = None) -> str:
    parsed = make_url(url).set(drivername="postgresql")
    if database is not None:
        parsed = parsed.set(database=database)
    return parsed.render_as_string(hide_password=False)


async def prepare_postgres(url: str) -> None:
    """Create the database if missing, empty its public schema and migrate it to head."""
    name = make_url(url).database
    if not name:
        raise SystemExit(f"no database name in {url!r}")
    admin = await asyncpg.connect(_asyncpg_dsn(url, "postgres"))
    try:
        exists = await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name)
        if not exists:
            logger.info("creating database %s", name)
            await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    conn = await asyncpg.connect(_asyncpg_dsn(url))
    try:
        await conn.execute("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public")
    finally:
        await conn.close()
    await asyncio.to_thread(upgrade_head, url)  # Alembic runs its own event loop


@asynccontextmanager
async def exclusive_use(url: str) -> AsyncIterator[None]:
    """Hold a server-wide advisory lock named after the database for the whole run.

    Two benchmark runs on the same database would drop each other's schema mid-run (seen as
    "deadlock detected" / missing tables); with this the second waits for the first.
    """
    name = make_url(url).database or ""
    key = zlib.crc32(f"coordbot-bench:{name}".encode())
    conn = await asyncpg.connect(_asyncpg_dsn(url, "postgres"))
    try:
        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", key):
            logger.warning("another benchmark is using database %s; waiting for it", name)
            await conn.execute("SELECT pg_advisory_lock($1)", key)
        yield
    finally:
        await conn.close()  # ends the session, which releases the lock


def settings() -> Any:
    from app.config import Settings

    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        telegram_bot_token=TOKEN,
        target_channel_id=CHANNEL_ID,
        admin_telegram_ids=frozenset({4242}),
        bot_timezone="UTC",
    )


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values (q in 0..100)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, min(len(sorted_values), round(q / 100 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def latency_summary(seconds: list[float]) -> dict[str, float]:
    ms = sorted(s * 1000 for s in seconds)
    return {
        "p50_ms": round(statistics.median(ms), 2) if ms else float("nan"),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(ms[-1], 2) if ms else float("nan"),
    }
