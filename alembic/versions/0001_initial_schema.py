"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 03:03:46.055974
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "users",
        sa.Column("telegram_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("username", sa.String(length=64), nullable=True),
        sa.Column("first_name", sa.String(length=255), nullable=True),
        sa.Column("last_name", sa.String(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("telegram_id", name=op.f("pk_users")),
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_index("ix_users_username", ["username"], unique=False)

    op.create_table(
        "proposals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("proposer_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("proposal_type", sa.String(length=32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("target_channel_id", sa.String(length=64), nullable=True),
        sa.Column("channel_message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=True),
        sa.Column("raw_results", sa.JSON(), nullable=True),
        sa.Column("context_text", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(
            ["proposer_id"], ["users.telegram_id"], name=op.f("fk_proposals_proposer_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_proposals")),
    )
    with op.batch_alter_table("proposals", schema=None) as batch_op:
        batch_op.create_index("ix_proposals_created_at", ["created_at"], unique=False)
        batch_op.create_index("ix_proposals_deadline_at", ["deadline_at"], unique=False)
        batch_op.create_index("ix_proposals_proposal_type", ["proposal_type"], unique=False)
        batch_op.create_index("ix_proposals_proposer_id", ["proposer_id"], unique=False)
        batch_op.create_index("ix_proposals_status", ["status"], unique=False)

    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("proposal_id", sa.Integer(), nullable=False),
        sa.Column("submitter_id", sa.BigInteger(), nullable=False),
        sa.Column("response_content", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["proposal_id"],
            ["proposals.id"],
            name=op.f("fk_submissions_proposal_id_proposals"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["submitter_id"], ["users.telegram_id"], name=op.f("fk_submissions_submitter_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_submissions")),
        sa.UniqueConstraint(
            "proposal_id", "submitter_id", name="uq_submissions_proposal_submitter"
        ),
    )
    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.create_index("ix_submissions_submitter_id", ["submitter_id"], unique=False)


def downgrade() -> None:

    with op.batch_alter_table("submissions", schema=None) as batch_op:
        batch_op.drop_index("ix_submissions_submitter_id")

    op.drop_table("submissions")
    with op.batch_alter_table("proposals", schema=None) as batch_op:
        batch_op.drop_index("ix_proposals_status")
        batch_op.drop_index("ix_proposals_proposer_id")
        batch_op.drop_index("ix_proposals_proposal_type")
        batch_op.drop_index("ix_proposals_deadline_at")
        batch_op.drop_index("ix_proposals_created_at")

    op.drop_table("proposals")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_index("ix_users_username")

    op.drop_table("users")
