"""users.language (chosen with /language) and users.language_code (Telegram's, last seen)

The bot writes to a member in the language they chose, else the one their Telegram app
reports; the last reported code is kept so messages sent later (the proposer's results)
read in the same language.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("language", sa.String(16), nullable=True))
        batch.add_column(sa.Column("language_code", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.drop_column("language_code")
        batch.drop_column("language")
