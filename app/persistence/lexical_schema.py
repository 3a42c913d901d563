"""The lexical index's DDL: FTS5 tables kept in step by triggers (SQLite), GIN indexes
over ``to_tsvector('simple', lexical)`` (PostgreSQL).

The ``lexical`` column of each source table holds ``app.nlp.lexical.lexical_text`` of
the row's text. On SQLite an external-content FTS5 table per source indexes it; triggers
on the source table add, remove and replace entries in the same transaction as the row,
so the index never lags. On PostgreSQL the column's tsvector is stored beside it (a
generated column, ``lexical_tsv``, which the database keeps current) under a GIN index
that serves ``@@``; the 'simple' configuration only splits on spaces and lower-cases, as
the terms are already normalised and stemmed. Stored, not recomputed per query: ranking
reads the vector of every matching row, and parsing ``lexical`` again for each cost ten
times as much (bench/knowledge_lexical.py: 410 ms against 45 ms for 8,000 matches).
The generated column is not mapped by the ORM; nothing writes it.

Migration 0012 creates all of it; ``coordbot reindex`` runs it again (every statement
is idempotent) and rebuilds the FTS5 tables. That also repairs what a later migration
may break: a batch migration that recreates a source table on SQLite drops its triggers,
and SQLite's VACUUM may renumber the rowids of ``document_chunks`` (no INTEGER PRIMARY
KEY), which its FTS5 entries point at.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, text
from sqlalchemy.ext.asyncio import AsyncConnection


@dataclass(frozen=True)
class Source:
    table: str
    rowid: str  # the integer key FTS5 entries point at

    @property
    def fts(self) -> str:
        return f"{self.table}_fts"

    @property
    def gin(self) -> str:
        return f"ix_{self.table}_lexical"


CHUNKS = Source("document_chunks", "rowid")
PROPOSALS = Source("proposals", "id")
FACTS = Source("facts", "id")
SOURCES = (CHUNKS, PROPOSALS, FACTS)
# Terms are already folded; the tokenizer must not fold "й" (remove_diacritics 0).
TOKENIZER = "unicode61 remove_diacritics 0"
TSVECTOR = "to_tsvector('simple'::regconfig, {column})"
TSV_COLUMN = "lexical_tsv"  # PostgreSQL: the stored tsvector of ``lexical``


def _sqlite_create(source: Source) -> list[str]:
    t, fts, key = source.table, source.fts, source.rowid
    remove = f"INSERT INTO {fts}({fts}, rowid, lexical) VALUES ('delete', old.{key}, old.lexical);"
    add = f"INSERT INTO {fts}(rowid, lexical) VALUES (new.{key}, new.lexical);"
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5(lexical, content='{t}', "
        f"content_rowid='{key}', tokenize='{TOKENIZER}')",
        f"CREATE TRIGGER IF NOT EXISTS {t}_lexical_insert AFTER INSERT ON {t} BEGIN {add} END",
        f"CREATE TRIGGER IF NOT EXISTS {t}_lexical_delete AFTER DELETE ON {t} BEGIN {remove} END",
        f"CREATE TRIGGER IF NOT EXISTS {t}_lexical_update AFTER UPDATE OF lexical ON {t} "
        f"BEGIN {remove} {add} END",
    ]


def sqlite_bulk_insert(source: Source) -> tuple[list[str], list[str]]:
    """Statements around a bulk insert into ``source`` on SQLite, in one transaction:
    before, the insert trigger goes; after, the new rows (a key above the ``:after``
    parameter, the largest key before the insert) enter the FTS5 table in one statement
    and the trigger comes back. A trigger firing per row cost five times the insert
    itself (200,000 facts: 15 s against 3 s); the schema change is transactional, and
    SQLite has one writer, so no other insert ever runs without the trigger."""
    t, fts, key = source.table, source.fts, source.rowid
    insert_trigger = next(s for s in _sqlite_create(source) if f"{t}_lexical_insert" in s)
    before = [f"DROP TRIGGER IF EXISTS {t}_lexical_insert"]
    after = [
        f"INSERT INTO {fts}(rowid, lexical) SELECT {key}, lexical FROM {t} WHERE {key} > :after",
        insert_trigger,
    ]
    return before, after


def create_statements(dialect: str) -> list[str]:
    """Every column, index and trigger, for an empty or a filled table (idempotent)."""
    if dialect == "postgresql":
        return [
            statement
            for s in SOURCES
            for statement in (
                f"ALTER TABLE {s.table} ADD COLUMN IF NOT EXISTS {TSV_COLUMN} tsvector "
                f"GENERATED ALWAYS AS ({TSVECTOR.format(column='lexical')}) STORED",
                f"CREATE INDEX IF NOT EXISTS {s.gin} ON {s.table} USING gin ({TSV_COLUMN})",
            )
        ]
    if dialect == "sqlite":
        return [statement for s in SOURCES for statement in _sqlite_create(s)]
    raise RuntimeError(f"unsupported database dialect: {dialect}")


def rebuild_statements(dialect: str) -> list[str]:
    """Refill each FTS5 table from its source table (nothing to do on PostgreSQL)."""
    if dialect != "sqlite":
        return []
    return [f"INSERT INTO {s.fts}({s.fts}) VALUES ('rebuild')" for s in SOURCES]


def drop_statements(dialect: str) -> list[str]:
    if dialect == "postgresql":
        return [
            statement
            for s in SOURCES
            for statement in (
                f"DROP INDEX IF EXISTS {s.gin}",
                f"ALTER TABLE {s.table} DROP COLUMN IF EXISTS {TSV_COLUMN}",
            )
        ]
    return [
        statement
        for s in SOURCES
        for statement in (
            f"DROP TRIGGER IF EXISTS {s.table}_lexical_insert",
            f"DROP TRIGGER IF EXISTS {s.table}_lexical_delete",
            f"DROP TRIGGER IF EXISTS {s.table}_lexical_update",
            f"DROP TABLE IF EXISTS {s.fts}",
        )
    ]


_PG_PRESENT = text(
    "SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
    "WHERE c.relname IN ('document_chunks', 'proposals', 'facts') "
    "AND c.relnamespace = current_schema()::regnamespace "
    "AND a.attname = :column AND NOT a.attisdropped"
)
_PG_INDEXES = text(
    "SELECT count(*) FROM pg_class WHERE relname IN :names "
    "AND relnamespace = current_schema()::regnamespace"
).bindparams(bindparam("names", expanding=True))


async def ensure_index(connection: AsyncConnection, *, rebuild: bool = False) -> None:
    """Create whatever part of the index is missing; ``rebuild`` refills the FTS5 tables.

    On PostgreSQL nothing is run when everything is there: even a no-op ALTER TABLE or
    CREATE INDEX would lock the table against the running bot for a moment."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        columns = await connection.scalar(_PG_PRESENT, {"column": TSV_COLUMN})
        indexes = await connection.scalar(_PG_INDEXES, {"names": [s.gin for s in SOURCES]})
        if columns == len(SOURCES) and indexes == len(SOURCES):
            return
    for statement in create_statements(dialect):
        await connection.execute(text(statement))
    if rebuild:
        for statement in rebuild_statements(dialect):
            await connection.execute(text(statement))
