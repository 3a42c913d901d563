"""Migration 0012: rows stored before the lexical index get their terms and are found."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from alembic import command
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.migrations import alembic_config
from app.persistence.repositories.lexical import LexicalSearch
from tests.conftest import _off_loop

DOC = "00000000-0000-0000-0000-000000000001"
ROWS = [
    "INSERT INTO users (telegram_id, created_at, updated_at) "
    "VALUES (7, '2026-11-24 00:00:00', '2026-11-24 00:00:00')",
    "INSERT INTO proposals (id, proposer_id, title, description, proposal_type, options, "
    "created_at, deadline_at, status) VALUES (1, 7, 'Guest Wi-Fi', 'A faster router', "
    "'multiple_choice', '[\"Mesh network\", \"No\"]', '2026-11-24 00:00:00', "
    "'2026-12-24 00:00:00', 'open')",
    "INSERT INTO documents (id, title, content, category, scope, content_hash, chunk_size, "
    f"chunk_overlap, extra, created_at, updated_at) VALUES ('{DOC}', 'Café', "
    "'The Repair Café meets on Saturdays.', 'events', 'global', 'h', 500, 50, '{}', "
    "'2026-11-24 00:00:00', '2026-11-24 00:00:00')",
    "INSERT INTO document_chunks (id, document_id, chunk_index, content, indexed) VALUES "
    f"('c1', '{DOC}', 0, 'The Repair Café meets on Saturdays.', true)",
    "INSERT INTO facts (subject, predicate, object, subject_norm, predicate_norm, "
    "object_norm, confidence, source, created_at) VALUES ('Kofi', 'maintains', "
    "'the e-mail list', 'kofi', 'maintains', 'the e-mail list', 1.0, 'manual', "
    "'2026-11-24 00:00:00')",
]


async def _found(url: str) -> dict[str, object]:
    db = Database(url)
    try:
        async with db.transaction() as session:
            search = LexicalSearch(session)
            return {
                "chunks": [c for c, _ in await search.chunks(lexical_terms("repair cafe"), 5)],
                "proposals": [p for p, _ in await search.proposals(lexical_terms("mesh wifi"), 5)],
                "facts": [f for f, _ in await search.facts(lexical_terms("email"), 5)],
                "lexical": (
                    await session.execute(
                        text(
                            "SELECT (SELECT lexical FROM document_chunks), "
                            "(SELECT lexical FROM proposals), (SELECT lexical FROM facts)"
                        )
                    )
                ).one()[:],
            }
    finally:
        await db.dispose()


async def _execute(url: str, statements: list[str]) -> list[str]:
    """Run ``statements``; returns the columns of the facts table afterwards."""
    db = Database(url)
    try:
        async with db.transaction() as session:
            for statement in statements:
                await session.execute(text(statement))
            return list((await session.execute(text("SELECT * FROM facts"))).keys())
    finally:
        await db.dispose()


def _migrate_and_check(url: str) -> None:
    command.upgrade(alembic_config(url), "0011")
    asyncio.run(_execute(url, ROWS))
    command.upgrade(alembic_config(url, "en"), "head")
    expected = {
        "chunks": ["c1"],
        "proposals": [1],
        "facts": [1],
        "lexical": (
            "repair cafe meet saturday",
            "guest wifi faster router mesh network",
            "kofi maintain email list",
        ),
    }
    assert asyncio.run(_found(url)) == expected

    command.downgrade(alembic_config(url), "0011")
    assert "lexical" not in asyncio.run(_execute(url, []))
    command.upgrade(alembic_config(url, "en"), "head")  # and up again
    assert asyncio.run(_found(url)) == expected


def test_sqlite_rows_are_backfilled_and_indexed(tmp_path: Path) -> None:
    path = tmp_path / "coordbot.sqlite3"
    _off_loop(lambda: _migrate_and_check(f"sqlite+aiosqlite:///{path}"))


def test_postgres_rows_are_backfilled_and_indexed(fresh_pg: str) -> None:
    _off_loop(lambda: _migrate_and_check(fresh_pg))
