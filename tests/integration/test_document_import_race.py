"""The same content imported by two processes at the same moment (two MCP servers, or
the bot and an agent): one document, and both callers get it, never a unique-key error."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import func, select

from app.container import Container
from app.domain.clock import FrozenClock
from app.persistence.database import Database
from app.persistence.knowledge_models import DocumentRow
from tests.conftest import make_settings


async def test_concurrent_imports_of_the_same_content(
    pg_database: Database, pg_url: str, clock: FrozenClock, tmp_path: Path
) -> None:
    # Two containers with their own connection pools, as two processes would have.
    other = Database(pg_url)
    first = Container(make_settings(data_dir=tmp_path / "a"), clock=clock, database=pg_database)
    second = Container(make_settings(data_dir=tmp_path / "b"), clock=clock, database=other)
    try:
        for i in range(8):
            text = f"Rule {i}: bikes are stored in room B{i}."
            a, b = await asyncio.gather(
                first.documents.knowledge_import("Bike rules", text),
                second.documents.knowledge_import("Bike rules", text),
            )
            assert a.document_id == b.document_id
            assert a.chunks_created == b.chunks_created == 1
            assert sorted([a.existing, b.existing]) == [False, True]
        async with pg_database.transaction() as session:
            assert await session.scalar(select(func.count()).select_from(DocumentRow)) == 8
    finally:
        await second.vectors.close()
        await first.vectors.close()
        await other.dispose()
