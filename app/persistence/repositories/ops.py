"""What operators watch: outbox backlog, open proposals, the schema's revision."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import ProposalStatus
from app.persistence.models import OutboxRow, ProposalRow


class OpsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def snapshot(self) -> tuple[int, datetime | None, int]:
        """(unsent outbox messages, the oldest one's creation time, open proposals)."""
        pending, oldest = (
            await self.session.execute(
                select(func.count(), func.min(OutboxRow.created_at)).where(
                    OutboxRow.sent_at.is_(None), OutboxRow.failed_at.is_(None)
                )
            )
        ).one()
        open_count = await self.session.scalar(
            select(func.count())
            .select_from(ProposalRow)
            .where(ProposalRow.status == ProposalStatus.OPEN.value)
        )
        if isinstance(oldest, str):  # SQLite's aggregate skips the column type
            oldest = datetime.fromisoformat(oldest)
        if oldest is not None and oldest.tzinfo is None:
            from datetime import UTC

            oldest = oldest.replace(tzinfo=UTC)
        return int(pending or 0), oldest, int(open_count or 0)

    async def ping(self) -> None:
        await self.session.execute(text("SELECT 1"))

    async def schema_revision(self) -> str | None:
        """The revision Alembic recorded, or None on a database never migrated."""
        try:
            return await self.session.scalar(text("SELECT version_num FROM alembic_version"))
        except DBAPIError:  # no such table: the database answered, the schema is missing
            return None
