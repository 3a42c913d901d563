"""Run Alembic from code, so `coordbot run` and `coordbot migrate` share one path."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from alembic.config import Config

from alembic import command


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


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(_script_location()))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade_head(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (blocking)."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), "head")


async def upgrade_head_async(url: str) -> None:
    await asyncio.to_thread(upgrade_head, url)
