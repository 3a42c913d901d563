"""replicas: processed_updates, conversation_states, outbox.leased_until

processed_updates: a webhook update delivered twice runs once. conversation_states: a
guided conversation continues on whichever replica gets the next message.

The outbox's lease gets a column of its own, so a replica that takes over the sending
from a dead one can tell the rows that replica had claimed from rows backing off.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "processed_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_processed_updates")),
    )
    op.create_index(
        "ix_processed_updates_claimed_at", "processed_updates", ["claimed_at"], unique=False
    )
    op.create_table(
        "conversation_states",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_conversation_states")),
    )
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("leased_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("leased_until")
    op.drop_table("conversation_states")
    op.drop_index("ix_processed_updates_claimed_at", table_name="processed_updates")
    op.drop_table("processed_updates")
