"""facts: the (subject, predicate, object) graph

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:

    op.create_table(
        "facts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("subject", sa.String(length=300), nullable=False),
        sa.Column("predicate", sa.String(length=100), nullable=False),
        sa.Column("object", sa.String(length=300), nullable=False),
        sa.Column("subject_norm", sa.String(length=300), nullable=False),
        sa.Column("predicate_norm", sa.String(length=100), nullable=False),
        sa.Column("object_norm", sa.String(length=300), nullable=False),
        sa.Column("confidence", sa.Float(), nullable=False),
        sa.Column("source", sa.String(length=100), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_facts")),
        sa.UniqueConstraint(
            "subject_norm", "predicate_norm", "object_norm", name="uq_facts_triple"
        ),
    )
    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.create_index("ix_facts_predicate_norm", ["predicate_norm", "id"], unique=False)
        batch_op.create_index("ix_facts_object_norm", ["object_norm", "id"], unique=False)
        batch_op.create_index(
            "ix_facts_source",
            ["source"],
            unique=False,
            postgresql_where=sa.text("source <> 'manual'"),
            sqlite_where=sa.text("source <> 'manual'"),
        )


def downgrade() -> None:

    with op.batch_alter_table("facts", schema=None) as batch_op:
        batch_op.drop_index("ix_facts_source")
        batch_op.drop_index("ix_facts_object_norm")
        batch_op.drop_index("ix_facts_predicate_norm")

    op.drop_table("facts")
