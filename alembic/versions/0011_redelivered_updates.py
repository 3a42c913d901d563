"""redelivered updates: processed_updates.holder, proposals.origin

processed_updates.holder: which replica is handling a claimed update. A claim names
its holder, a key the replica holds as a PostgreSQL advisory lock for as long as it
lives. A redelivered update whose claim is not done is taken over when that lock is
gone (the replica died mid-update), and answered with a non-2xx, so Telegram retries
later, while the holder is alive. Claims written before this revision have no holder
and are retaken, as before, once two minutes old.

proposals.origin: the draft a proposal was created from (unique), so the last step of
a step-by-step /propose, handled again after a replica died at the worst moment,
finds the proposal it created instead of creating a second one.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-25
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (SQLite has it for nullable columns): no table rebuild, so the
    # proposals' text-search triggers stay as they are.
    op.add_column("processed_updates", sa.Column("holder", sa.BigInteger(), nullable=True))
    op.add_column("proposals", sa.Column("origin", sa.String(length=40), nullable=True))
    op.create_index("uq_proposals_origin", "proposals", ["origin"], unique=True)


def downgrade() -> None:
    op.drop_index("uq_proposals_origin", table_name="proposals")
    op.drop_column("proposals", "origin")  # SQLite 3.35+: no rebuild, triggers kept
    with op.batch_alter_table("processed_updates") as batch:
        batch.drop_column("holder")
