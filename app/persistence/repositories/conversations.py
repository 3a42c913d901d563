"""A member's conversation state as one opaque blob, read and written per update."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.persistence.models import ConversationStateRow
from app.persistence.repositories.base import dialect_insert


class ConversationStates:
    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def load(self, user_id: int) -> bytes | None:
        return await self.session.scalar(
            select(ConversationStateRow.state).where(ConversationStateRow.user_id == user_id)
        )

    async def save(self, user_id: int, state: bytes | None, now: datetime) -> None:
        """Store ``state``; None deletes the row (nothing in progress)."""
        if state is None:
            await self.session.execute(
                delete(ConversationStateRow).where(ConversationStateRow.user_id == user_id)
            )
            return
        stmt = dialect_insert(self.session, ConversationStateRow).values(
            user_id=user_id, state=state, updated_at=now
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=[ConversationStateRow.user_id],
            set_={"state": stmt.excluded.state, "updated_at": stmt.excluded.updated_at},
        )
        await self.session.execute(stmt)
