"""Shared fixtures: real databases (SQLite file, PostgreSQL), a frozen clock, the bot."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from app.domain.clock import FrozenClock
from app.persistence.database import Base, Database
from app.persistence.migrations import upgrade_head

os.environ.setdefault("PTB_TIMEDELTA", "true")

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
NOW = datetime(2026, 11, 18, 12, 0, tzinfo=UTC)  # a Wednesday


def _off_loop(fn: Callable[[], object]) -> object:
    """Run blocking set-up (which may call asyncio.run) on a thread of its own."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(fn).result()


async def _pg_reset() -> None:
    engine = create_async_engine(PG_URL)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            await conn.execute(text("CREATE SCHEMA public"))
    finally:
        await engine.dispose()


def _pg_available() -> str | None:
    async def probe() -> None:
        engine = create_async_engine(PG_URL)
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        _off_loop(lambda: asyncio.run(probe()))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


@pytest.fixture(scope="session")
def pg_url() -> str:
    """PostgreSQL, migrated from scratch once per run. In CI a missing server fails the run."""
    problem = _pg_available()
    if problem is not None:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL at {PG_URL} is unreachable in CI: {problem}")
        pytest.skip(f"PostgreSQL unreachable: {problem}")
    _off_loop(lambda: asyncio.run(_pg_reset()))
    _off_loop(lambda: upgrade_head(PG_URL))
    return PG_URL


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.sqlite3"
    _off_loop(lambda: upgrade_head(f"sqlite+aiosqlite:///{path}"))
    return path


async def _truncate(db: Database) -> None:
    names = ", ".join(t.name for t in reversed(Base.metadata.sorted_tables))
    async with db.engine.begin() as conn:
        await conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))


@pytest.fixture
async def pg_database(pg_url: str) -> AsyncIterator[Database]:
    db = Database(pg_url, pool_size=20)
    await _truncate(db)
    yield db
    await db.dispose()


@pytest.fixture
async def sqlite_database(sqlite_template: Path, tmp_path: Path) -> AsyncIterator[Database]:
    path = tmp_path / "coordbot.sqlite3"
    shutil.copy(sqlite_template, path)
    db = Database(f"sqlite+aiosqlite:///{path}")
    yield db
    await db.dispose()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest) -> Database:
    """Each test that takes this runs on both databases."""
    name = "sqlite_database" if request.param == "sqlite" else "pg_database"
    db: Database = request.getfixturevalue(name)
    return db


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    yield FrozenClock(NOW)
