"""lexical index: a ``lexical`` column on chunks, proposals and facts, and its index

/ask retrieves passages, proposals and facts by words as well as by meaning. Each row
gets the normalised, stemmed terms of its text (app.nlp.lexical: a chunk's content; a
proposal's title, description and options; a fact's subject, predicate and object), in
the community's language (BOT_LANGUAGE, passed in by the caller as the ``bot_language``
attribute of the Alembic config). The index over it: on SQLite an FTS5 table per source
kept in step by triggers, on PostgreSQL a GIN index on to_tsvector('simple', lexical)
(app.persistence.lexical_schema). Existing rows are filled here, before the index is
built, so the index is built once in bulk.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-25
"""

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa

from alembic import context, op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BATCH = 5000
TABLES = ("document_chunks", "proposals", "facts")


def _language() -> str:
    """BOT_LANGUAGE as the caller passed it; else the environment's, else English."""
    given = context.config.attributes.get("bot_language") if context.config else None
    if given:
        return str(given)
    from app.config import Settings

    try:
        return Settings().bot_language
    except Exception:  # an invalid setting is reported when the bot starts
        return "en"


def _backfill(
    bind: sa.Connection, table: sa.TableClause, key: Any, compute: Callable[[Any], str]
) -> None:
    last: Any = None
    while True:
        stmt = sa.select(table).order_by(key).limit(BATCH)
        if last is not None:
            stmt = stmt.where(key > last)
        rows = bind.execute(stmt).all()
        if not rows:
            return
        last = rows[-1]._mapping[key.name]
        bind.execute(
            table.update().where(key == sa.bindparam("k")).values(lexical=sa.bindparam("v")),
            [{"k": row._mapping[key.name], "v": compute(row)} for row in rows],
        )


def upgrade() -> None:
    from app.nlp.lexical import fact_lexical, lexical_text, proposal_lexical
    from app.persistence.lexical_schema import create_statements, rebuild_statements

    for name in TABLES:
        with op.batch_alter_table(name) as batch:
            batch.add_column(sa.Column("lexical", sa.Text(), nullable=True))
    bind = op.get_bind()
    language = _language()
    chunks = sa.table(
        "document_chunks", sa.column("id", sa.String), sa.column("content", sa.Text),
        sa.column("lexical", sa.Text),
    )  # fmt: skip
    proposals = sa.table(
        "proposals", sa.column("id", sa.Integer), sa.column("title", sa.String),
        sa.column("description", sa.Text), sa.column("options", sa.JSON),
        sa.column("lexical", sa.Text),
    )  # fmt: skip
    facts = sa.table(
        "facts", sa.column("id", sa.Integer), sa.column("subject", sa.String),
        sa.column("predicate", sa.String), sa.column("object", sa.String),
        sa.column("lexical", sa.Text),
    )  # fmt: skip
    _backfill(bind, chunks, chunks.c.id, lambda r: lexical_text(r.content, language))
    _backfill(
        bind,
        proposals,
        proposals.c.id,
        lambda r: proposal_lexical(r.title, r.description, r.options, language),
    )
    _backfill(
        bind, facts, facts.c.id, lambda r: fact_lexical(r.subject, r.predicate, r.object, language)
    )
    for statement in create_statements(bind.dialect.name):
        op.execute(statement)
    for statement in rebuild_statements(bind.dialect.name):
        op.execute(statement)


def downgrade() -> None:
    from app.persistence.lexical_schema import drop_statements

    for statement in drop_statements(op.get_bind().dialect.name):
        op.execute(statement)
    for name in reversed(TABLES):
        with op.batch_alter_table(name) as batch:
            batch.drop_column("lexical")
