"""facts: ids never reused, and a version counter that moves with every change

Indexes derived from the facts (their vectors in Chroma, keyed by id; the entity index
/ask reads) noticed a change by the table's count and highest id. On SQLite a fact
deleted and another added took the freed id back and left both unchanged, so the new
fact was searched by the old one's vector. The facts table is rebuilt there with
AUTOINCREMENT (the rows, their ids and their lexical index entries stay as they are),
and a counter kept by triggers replaces the count (app.persistence.fact_version).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (
    "id, subject, predicate, object, subject_norm, predicate_norm, object_norm, confidence, "
    "source, created_at, lexical"
)
SQLITE_TABLE = """CREATE TABLE facts_rebuilt (
    id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    subject VARCHAR(300) NOT NULL,
    predicate VARCHAR(100) NOT NULL,
    object VARCHAR(300) NOT NULL,
    subject_norm VARCHAR(300) NOT NULL,
    predicate_norm VARCHAR(100) NOT NULL,
    object_norm VARCHAR(300) NOT NULL,
    confidence FLOAT NOT NULL,
    source VARCHAR(100) NOT NULL,
    created_at DATETIME NOT NULL,
    lexical TEXT,
    CONSTRAINT uq_facts_triple UNIQUE (subject_norm, predicate_norm, object_norm)
)"""
SQLITE_INDEXES = (
    "CREATE INDEX ix_facts_predicate_norm ON facts (predicate_norm, id)",
    "CREATE INDEX ix_facts_object_norm ON facts (object_norm, id)",
    "CREATE INDEX ix_facts_source ON facts (source) WHERE source <> 'manual'",
)


def _sqlite_autoincrement() -> None:
    """SQLite's own recipe for changing a table's definition: a new table, the rows
    copied with their ids, the old one dropped (its indexes and triggers with it), the
    new one renamed; then the indexes and the lexical index's triggers again. The FTS5
    table points at ids, which are kept, so its entries stay valid."""
    from app.persistence.lexical_schema import create_statements

    op.execute(SQLITE_TABLE)
    op.execute(f"INSERT INTO facts_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM facts")
    op.execute("DROP TABLE facts")
    op.execute("ALTER TABLE facts_rebuilt RENAME TO facts")
    for statement in SQLITE_INDEXES:
        op.execute(statement)
    for statement in create_statements("sqlite"):  # idempotent: the facts' triggers again
        op.execute(statement)


def upgrade() -> None:
    from app.persistence.fact_version import create_statements

    dialect = op.get_bind().dialect.name
    if dialect == "sqlite":
        _sqlite_autoincrement()
    for statement in create_statements(dialect):
        op.execute(statement)


def downgrade() -> None:
    from app.persistence.fact_version import drop_statements

    for statement in drop_statements(op.get_bind().dialect.name):
        op.execute(statement)
