"""The facts table's version: a counter the database moves whenever a fact is added,
changed or removed, so an index derived from the facts (their vectors, the entity
index /ask reads) can tell in one row's read whether it is behind.

Counting the table and reading its highest id told the same at ~7 ms a question with
100,000 facts, and missed a change that kept both: on SQLite, a fact deleted and
another added took the freed id back, so the index kept the old fact's vector under
it. Migration 0013 also gives the facts table AUTOINCREMENT on SQLite, so an id is
never handed out twice (PostgreSQL's sequence never does).

Triggers keep the counter: on PostgreSQL once per statement that writes the table; on
SQLite, which has only row triggers, once per row added, removed or changed in what the
indexes read, except during a bulk load, which moves it once (``sqlite_bulk_insert``).
The counter's row is written inside the writer's transaction, so a reader sees the new
version together with the facts that moved it.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

TABLE = "fact_version"
READ = f"SELECT version FROM {TABLE}"
_BUMP = f"UPDATE {TABLE} SET version = version + 1"
_SQLITE_EVENTS = ("insert", "update", "delete")


# What the derived indexes read of a fact: its words and its origin (an upsert that only
# restates a fact, or changes its confidence, moves nothing).
_SQLITE_CHANGED = " OR ".join(
    f"old.{c} IS NOT new.{c}" for c in ("subject", "predicate", "object", "source")
)


def _sqlite_trigger(event: str) -> str:
    when = f" WHEN {_SQLITE_CHANGED}" if event == "update" else ""
    return (
        f"CREATE TRIGGER IF NOT EXISTS facts_version_{event} AFTER {event.upper()} ON facts"
        f"{when} BEGIN {_BUMP}; END"
    )


def create_statements(dialect: str) -> list[str]:
    """The counter's table, its one row and the triggers (idempotent)."""
    table = [
        f"CREATE TABLE IF NOT EXISTS {TABLE} (id INTEGER PRIMARY KEY, version BIGINT NOT NULL)",
        f"INSERT INTO {TABLE} (id, version) SELECT 1, 0 WHERE NOT EXISTS (SELECT 1 FROM {TABLE})",
    ]
    if dialect == "postgresql":
        return [
            *table,
            "CREATE OR REPLACE FUNCTION facts_version_bump() RETURNS trigger "
            f"LANGUAGE plpgsql AS $$ BEGIN {_BUMP}; RETURN NULL; END $$",
            "DROP TRIGGER IF EXISTS facts_version ON facts",
            "CREATE TRIGGER facts_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
            "ON facts FOR EACH STATEMENT EXECUTE FUNCTION facts_version_bump()",
        ]
    if dialect == "sqlite":
        return [*table, *(_sqlite_trigger(event) for event in _SQLITE_EVENTS)]
    raise RuntimeError(f"unsupported database dialect: {dialect}")


def drop_statements(dialect: str) -> list[str]:
    if dialect == "postgresql":
        return [
            "DROP TRIGGER IF EXISTS facts_version ON facts",
            "DROP FUNCTION IF EXISTS facts_version_bump()",
            f"DROP TABLE IF EXISTS {TABLE}",
        ]
    return [
        *(f"DROP TRIGGER IF EXISTS facts_version_{event}" for event in _SQLITE_EVENTS),
        f"DROP TABLE IF EXISTS {TABLE}",
    ]


def sqlite_bulk_insert() -> tuple[list[str], list[str]]:
    """Around a bulk insert on SQLite, in its transaction: the insert trigger goes
    before; after it, the counter moves once and the trigger comes back (as the lexical
    index's do: lexical_schema.sqlite_bulk_insert)."""
    return ["DROP TRIGGER IF EXISTS facts_version_insert"], [_BUMP, _sqlite_trigger("insert")]


_PRESENT = {
    "postgresql": "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
    "WHERE t.tgname = 'facts_version' AND c.relname = 'facts' "
    "AND c.relnamespace = current_schema()::regnamespace",
    "sqlite": "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' "
    "AND name LIKE 'facts_version_%'",
}


async def ensure(connection: AsyncConnection) -> None:
    """Create whatever is missing (``coordbot reindex``): a later migration that rebuilds
    the facts table on SQLite drops its triggers. Nothing runs when every trigger is
    there: on PostgreSQL even a no-op CREATE TRIGGER would lock the table a moment."""
    dialect = connection.dialect.name
    present = await connection.scalar(text(_PRESENT[dialect]))
    if present == (1 if dialect == "postgresql" else len(_SQLITE_EVENTS)):
        return
    for statement in create_statements(dialect):
        await connection.execute(text(statement))
