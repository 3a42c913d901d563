"""PostgreSQL notifications: a deadline set or moved, a message queued in the outbox

Replicas (and a bot beside the CLI or the MCP server) learn at once, through LISTEN,
that a proposal's deadline was set or moved by whichever process made the change --
so every replica's timer is armed, not only the one that handled the command -- and
that the outbox has something to send, so the replica holding the sending lease
wakes without waiting for its next poll. Notifications go out on commit. SQLite
(one process) needs none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DEADLINES = "coordbot_deadlines"
OUTBOX = "coordbot_outbox"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION coordbot_notify_deadline() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('{DEADLINES}', NEW.id::text);
            RETURN NULL;
        END $$ LANGUAGE plpgsql
        """
    )
    op.execute(
        "CREATE TRIGGER proposals_deadline_set AFTER INSERT ON proposals "
        "FOR EACH ROW EXECUTE FUNCTION coordbot_notify_deadline()"
    )
    op.execute(
        "CREATE TRIGGER proposals_deadline_moved AFTER UPDATE OF deadline_at ON proposals "
        "FOR EACH ROW WHEN (OLD.deadline_at IS DISTINCT FROM NEW.deadline_at) "
        "EXECUTE FUNCTION coordbot_notify_deadline()"
    )
    op.execute(
        f"""
        CREATE OR REPLACE FUNCTION coordbot_notify_outbox() RETURNS trigger AS $$
        BEGIN
            PERFORM pg_notify('{OUTBOX}', '');
            RETURN NULL;
        END $$ LANGUAGE plpgsql
        """
    )
    op.execute(
        "CREATE TRIGGER outbox_queued AFTER INSERT ON outbox "
        "FOR EACH STATEMENT EXECUTE FUNCTION coordbot_notify_outbox()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS outbox_queued ON outbox")
    op.execute("DROP TRIGGER IF EXISTS proposals_deadline_moved ON proposals")
    op.execute("DROP TRIGGER IF EXISTS proposals_deadline_set ON proposals")
    op.execute("DROP FUNCTION IF EXISTS coordbot_notify_outbox()")
    op.execute("DROP FUNCTION IF EXISTS coordbot_notify_deadline()")
