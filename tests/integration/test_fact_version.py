"""The facts' version (app.persistence.fact_version) on SQLite and PostgreSQL: it moves
with every fact added, removed or rewritten, by hand or in bulk, and a freed id is never
handed out again; migration 0013 keeps the facts, their ids and their lexical index."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import text

from alembic import command
from app.container import Container
from app.core.graph.graph_service import GraphService
from app.domain.clock import FrozenClock
from app.nlp.lexical import lexical_terms
from app.persistence.database import Database
from app.persistence.migrations import alembic_config
from app.persistence.repositories.facts import FactRepository, NewFact
from app.persistence.repositories.lexical import LexicalSearch
from tests.conftest import NOW, _off_loop, make_settings


async def version(db: Database) -> int:
    async with db.transaction() as session:
        return await FactRepository(session).signature()


async def ids(db: Database) -> list[int]:
    async with db.transaction() as session:
        return sorted(await FactRepository(session).all_ids())


async def test_the_version_moves_with_every_change(database: Database) -> None:
    graph = GraphService(database, FrozenClock(NOW))
    start = await version(database)
    await graph.store_facts([NewFact("Kofi", "runs", "Repair Café", source="document:d1")])
    added = await version(database)
    assert added > start
    await graph.store_facts([NewFact("Kofi", "runs", "Repair Café")])  # an admin's now
    moved = await version(database)
    assert moved > added  # its origin changed: it belongs in another collection
    async with database.transaction() as session:
        [fact_id] = await FactRepository(session).all_ids()
        assert await FactRepository(session).delete(fact_id)
    assert await version(database) > moved


async def test_a_freed_id_is_never_handed_out_again(database: Database) -> None:
    graph = GraphService(database, FrozenClock(NOW))
    await graph.store_facts([NewFact("A", "knows", f"B{i}") for i in range(3)])
    first = await ids(database)
    async with database.transaction() as session:
        assert await FactRepository(session).delete(first[-1])
    before = await version(database)
    await graph.store_facts([NewFact("C", "knows", "D")])
    # count and highest id are as they were before the delete; the version is not
    assert (await ids(database))[-1] > first[-1]
    assert await version(database) > before


async def test_a_bulk_load_moves_the_version_and_keeps_the_triggers(
    database: Database,
) -> None:
    graph = GraphService(database, FrozenClock(NOW))
    before = await version(database)
    lines = [f"Gadget {i}\tmade by\tAcme\n" for i in range(40)]
    report = await graph.import_tsv(lines, batch_size=10)
    assert report.imported == 40
    loaded = await version(database)
    assert loaded > before
    if database.engine.dialect.name == "sqlite":
        assert loaded - before == 4  # once per batch, not once per row
    await graph.store_facts([NewFact("One", "more", "fact")])
    assert await version(database) > loaded  # the insert trigger is back


async def test_reindex_puts_back_missing_triggers(database: Database, tmp_path: Path) -> None:
    """A later migration that rebuilds the facts table on SQLite drops its triggers;
    ``coordbot reindex`` (IndexService.reindex) creates them again."""
    kb = Container(make_settings(data_dir=tmp_path / "data"), clock=FrozenClock(NOW),
                   database=database)  # fmt: skip
    postgres = database.engine.dialect.name == "postgresql"
    drop = ["DROP TRIGGER facts_version ON facts"] if postgres else [
        f"DROP TRIGGER facts_version_{event}" for event in ("insert", "update", "delete")
    ]  # fmt: skip
    async with database.engine.begin() as connection:
        for statement in drop:
            await connection.execute(text(statement))
    before = await version(database)
    await kb.graph.store_facts([NewFact("Kofi", "runs", "Repair Café")])
    assert await version(database) == before  # nothing moves it any more
    await kb.index.reindex()
    await kb.graph.store_facts([NewFact("Ama", "runs", "the tool library")])
    assert await version(database) > before


# -- migration 0013 -------------------------------------------------------------------

FACTS = [
    "INSERT INTO facts (subject, predicate, object, subject_norm, predicate_norm, "
    f"object_norm, confidence, source, created_at, lexical) VALUES ('Kofi', 'maintains', "
    f"'list {i}', 'kofi', 'maintains', 'list {i}', 1.0, 'manual', '2026-11-24 00:00:00', "
    f"'kofi maintain list {i}')"
    for i in (1, 2, 3)
]


async def _execute(url: str, statements: list[str]) -> None:
    db = Database(url)
    try:
        async with db.transaction() as session:
            for statement in statements:
                await session.execute(text(statement))
    finally:
        await db.dispose()


async def _after(url: str) -> tuple[list[int], list[int], int, list[int]]:
    """The ids, those the lexical index finds for "kofi", the version, and the ids after
    the highest fact is deleted and another added."""
    db = Database(url)
    try:
        kept = await ids(db)
        async with db.transaction() as session:
            found = sorted(
                f for f, _ in await LexicalSearch(session).facts(lexical_terms("kofi"), 9)
            )
        at = await version(db)
        async with db.transaction() as session:
            await FactRepository(session).delete(kept[-1])
        await GraphService(db, FrozenClock(NOW)).store_facts([NewFact("Ama", "runs", "a list")])
        return kept, found, at, await ids(db)
    finally:
        await db.dispose()


def _migrate_and_check(url: str) -> None:
    command.upgrade(alembic_config(url), "0012")
    asyncio.run(_execute(url, [*FACTS, "DELETE FROM facts WHERE id = 3"]))
    command.upgrade(alembic_config(url, "en"), "head")
    kept, found, at, later = asyncio.run(_after(url))
    assert kept == found == [1, 2]  # the rows, their ids and their lexical entries
    assert at == 0
    assert later[0] == 1 and later[-1] > 2  # 2 was freed; the new fact takes a new id
    command.downgrade(alembic_config(url), "0012")
    command.upgrade(alembic_config(url, "en"), "head")  # and up again


def test_sqlite_migration_keeps_the_facts(tmp_path: Path) -> None:
    path = tmp_path / "coordbot.sqlite3"
    _off_loop(lambda: _migrate_and_check(f"sqlite+aiosqlite:///{path}"))


def test_postgres_migration_keeps_the_facts(fresh_pg: str) -> None:
    _off_loop(lambda: _migrate_and_check(fresh_pg))
