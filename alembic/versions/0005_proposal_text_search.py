"""trigram indexes for /ask's word search over proposals (PostgreSQL only)

/ask looks for keywords anywhere in titles and descriptions (ILIKE '%word%'), which a
B-tree cannot serve. On PostgreSQL, pg_trgm's GIN indexes can. Creating the extension
needs the right privileges; without them the search still works, by scanning, and
this migration says so instead of failing.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22
"""

import logging
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

logger = logging.getLogger("alembic.runtime.migration")
INDEXES = {"ix_proposals_title_trgm": "title", "ix_proposals_description_trgm": "description"}


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "postgresql":
        return
    try:
        with bind.begin_nested():
            bind.execute(sa.text("CREATE EXTENSION IF NOT EXISTS pg_trgm"))
    except sa.exc.DBAPIError:
        logger.warning("pg_trgm is not available: /ask's word search will scan proposals")
        return
    for name, column in INDEXES.items():
        op.execute(
            f"CREATE INDEX IF NOT EXISTS {name} ON proposals USING gin ({column} gin_trgm_ops)"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name in INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
