"""What operators watch: outbox backlog, open proposals, the schema's revision."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from app.domain.models import ProposalStatus
from app.persistence.models import OutboxRow, ProposalRow
from app.persistence.repositories.outbox import chat_kind_sql


class OpsRepository:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def snapshot(self) -> tuple[dict[str, tuple[int, datetime | None]], int]:
        """({kind of chat: (unsent outbox messages, the oldest one's creation time)},
        open proposals); a kind with nothing unsent is absent."""
        kind = chat_kind_sql()
        rows = (
            await self.session.execute(
                select(kind, func.count(), func.min(OutboxRow.created_at))
                .where(OutboxRow.sent_at.is_(None), OutboxRow.failed_at.is_(None))
                .group_by(kind)
            )
        ).all()
        open_count = await self.session.scalar(
            select(func.count())
            .select_from(ProposalRow)
            .where(ProposalRow.status == ProposalStatus.OPEN.value)
        )
        outbox = {str(k): (int(n or 0), _aware(oldest)) for k, n, oldest in rows}
        return outbox, int(open_count or 0)

    async def ping(self) -> None:
        await self.session.execute(text("SELECT 1"))

    async def schema_revision(self) -> str | None:
        """The revision Alembic recorded, or None on a database never migrated."""
        try:
            return await self.session.scalar(text("SELECT version_num FROM alembic_version"))
        except DBAPIError:  # no such table: the database answered, the schema is missing
            return None


def _aware(value: datetime | str | None) -> datetime | None:
    if isinstance(value, str):  # SQLite's aggregate skips the column type
        value = datetime.fromisoformat(value)
    if value is not None and value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value
