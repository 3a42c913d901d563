"""Run Alembic from code, so `coordbot run` and `coordbot migrate` share one path.

On PostgreSQL the upgrade runs under an advisory lock: replicas starting together
migrate one after the other (the later ones find the schema at head and do nothing).
"""

from __future__ import annotations

import asyncio
import os
from functools import cache
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from alembic import command

MIGRATION_LOCK = 0x636F6F7264  # "coord": one key per database, shared by every replica


def _script_location() -> Path:
    candidates = [
        os.environ.get("COORDBOT_ALEMBIC_DIR"),
        Path(__file__).resolve().parents[2] / "alembic",
        Path.cwd() / "alembic",
    ]
    for candidate in candidates:
        if candidate and (Path(candidate) / "env.py").is_file():
            return Path(candidate)
    raise RuntimeError("Alembic scripts not found; set COORDBOT_ALEMBIC_DIR")


def alembic_config(url: str, language: str | None = None) -> Config:
    """``language``: BOT_LANGUAGE, the language migrations index text in (0012's
    lexical column); without it they read the environment's."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_script_location()))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if language:
        cfg.attributes["bot_language"] = language
    return cfg


@cache
def head_revision() -> str | None:
    """The newest revision the code knows (read from the scripts once per process)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(_script_location()))
    return ScriptDirectory.from_config(cfg).get_current_head()


def upgrade_head(url: str, language: str | None = None) -> None:
    """Bring the database at ``url`` to the newest schema (blocking). ``language`` is
    the community's (BOT_LANGUAGE), which text is indexed in."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        command.upgrade(alembic_config(url, language), "head")
        return
    asyncio.run(_locked_upgrade(url, language))


async def _locked_upgrade(url: str, language: str | None) -> None:
    engine = create_async_engine(url, poolclass=pool.NullPool)
    cfg = alembic_config(url, language)

    def upgrade(connection: Connection) -> None:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")

    try:
        async with engine.connect() as conn:
            # Session-level: held across the migration's own transactions until unlocked.
            await conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MIGRATION_LOCK})
            await conn.commit()
            try:
                await conn.run_sync(upgrade)
                await conn.commit()
            finally:
                await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MIGRATION_LOCK})
                await conn.commit()
    finally:
        await engine.dispose()


async def upgrade_head_async(url: str, language: str | None = None) -> None:
    await asyncio.to_thread(upgrade_head, url, language)
