"""Replicas starting together migrate one after the other (an advisory lock on PostgreSQL)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
from sqlalchemy import make_url, text

from app.persistence.database import Database
from app.persistence.migrations import head_revision, upgrade_head
from tests.conftest import RUN_DB, _off_loop, _pg_admin

pytestmark = pytest.mark.postgres


def test_concurrent_upgrades_on_a_fresh_database(pg_url: str) -> None:
    name = f"{RUN_DB}_migrate"
    _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
    _off_loop(lambda: asyncio.run(_pg_admin(f'CREATE DATABASE "{name}"')))
    url = make_url(pg_url).set(database=name).render_as_string(hide_password=False)
    try:
        with ThreadPoolExecutor(3) as pool:
            for future in [pool.submit(upgrade_head, url) for _ in range(3)]:
                future.result()  # without the lock, two would create the same tables

        async def version() -> str | None:
            db = Database(url)
            try:
                async with db.transaction() as session:
                    return await session.scalar(text("SELECT version_num FROM alembic_version"))
            finally:
                await db.dispose()

        assert _off_loop(lambda: asyncio.run(version())) == head_revision()
    finally:
        _off_loop(lambda: asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')))
